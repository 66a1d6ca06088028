//! A seat that comes back: its player was away past the grace period (a machine asleep, a
//! process stopped), a computer player took the seat over, and the player's client wakes up
//! and gets the seat back at the next deal. Nobody who stayed at the table may be voted out,
//! replaced or blamed for it, and the hands go on.
//!
//! The harness plays the node's part on a simulated clock, one message at a time in the order
//! sent: the gate before the handler, a sign of life from every live peer once a second, a
//! connection that comes up again making both sides call `peer_connected`, and a peer that
//! wakes up running its timers before it hears anyone (as a process woken from `SIGSTOP`
//! does: its clock jumped, its connections are gone).

mod common;

use std::collections::VecDeque;

use common::sim::table;
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::PublicKey;
use fairdeal_net::table::msg::TableMsg;
use fairdeal_net::table::{Dest, Gone, TableEvent, TableSession};
use fairdeal_net::transcript::{self, Entry, MAGIC};

/// The grace period of the multi-process test this mirrors (`--grace-secs 5`).
const GRACE_MS: u64 = 5_000;

/// How long the computer players think over each move.
const THINK_MS: u64 = 1_000;

/// The table, message by message.
struct Net {
    peers: Vec<TableSession>,
    keys: Vec<PublicKey>,
    now: u64,
    /// Peers that are away: they neither send, nor receive, nor run their timers.
    away: [bool; 4],
    /// Messages on their way: (from, to, bytes).
    wire: VecDeque<(usize, usize, Vec<u8>)>,
    events: Vec<Vec<TableEvent>>,
    /// Every timeout vote sent: (voter, hand, silent seat).
    votes: Vec<(usize, u32, u8)>,
    /// Links (from, to) whose messages take a second: delivered at the next tick.
    slow: Vec<(usize, usize)>,
    /// Messages on a slow link, waiting for the next tick.
    late: Vec<(usize, usize, Vec<u8>)>,
    /// Each peer's public transcript so far.
    files: Vec<Vec<Entry>>,
}

impl Net {
    fn new(mut peers: Vec<TableSession>) -> Self {
        for p in &mut peers {
            p.set_grace_ms(GRACE_MS);
            // A hand takes time, as between processes: the seat comes back mid-game.
            p.set_think_ms(THINK_MS);
        }
        let keys = peers.iter().map(TableSession::key).collect();
        Self {
            peers,
            keys,
            now: 0,
            away: [false; 4],
            wire: VecDeque::new(),
            events: vec![Vec::new(); 4],
            votes: Vec::new(),
            slow: Vec::new(),
            late: Vec::new(),
            files: vec![Vec::new(); 4],
        }
    }

    /// What peer `i` queued goes on the wire (nothing while it is away).
    fn collect(&mut self, i: usize) {
        while let Some((dest, bytes)) = self.peers[i].poll_transmit() {
            if self.away[i] {
                continue;
            }
            if let Ok(TableMsg::Timeout { hand_no, seat, .. }) = TableMsg::decode(&bytes) {
                self.votes.push((i, hand_no, seat));
            }
            // The seats as this peer knows them (a node sends to the keys of its session).
            let to: Vec<usize> = match dest {
                Dest::Peer(k) => vec![k],
                Dest::Seats if self.peers[i].config().is_none() => self.keys.clone(),
                Dest::Seats => self.peers[i].peers(),
            }
            .into_iter()
            .filter_map(|k| self.keys.iter().position(|x| *x == k))
            .filter(|&j| j != i)
            .collect();
            for j in to {
                if self.slow.contains(&(i, j)) {
                    self.late.push((i, j, bytes.clone()));
                } else {
                    self.wire.push_back((i, j, bytes.clone()));
                }
            }
        }
        while let Some(e) = self.peers[i].poll_event() {
            self.events[i].push(e);
        }
        let peer = &mut self.peers[i];
        self.files[i].extend(std::iter::from_fn(|| peer.poll_public()));
    }

    /// Delivers until nothing is on its way; a message to a peer away is lost.
    fn deliver(&mut self) {
        self.deliver_until(&|_| false);
    }

    /// Delivers until nothing is on its way or `done` (what is left stays on the wire).
    fn deliver_until(&mut self, done: &dyn Fn(&Self) -> bool) {
        for i in 0..4 {
            self.collect(i);
        }
        while !done(self)
            && let Some((i, j, bytes)) = self.wire.pop_front()
        {
            if self.away[j] {
                continue;
            }
            let from = self.keys[i];
            if self.peers[j].admit(from, &bytes).is_ok() {
                let _ = self.peers[j].handle_message(from, &bytes);
            }
            self.collect(j);
        }
    }

    /// One second: every live peer hears the others, then runs its timers.
    fn tick(&mut self, done: &dyn Fn(&Self) -> bool) {
        self.now += 1_000;
        self.wire.extend(std::mem::take(&mut self.late));
        for i in 0..4 {
            for j in 0..4 {
                if i != j && !self.away[i] && !self.away[j] {
                    let k = self.keys[j];
                    self.peers[i].heard(k, self.now);
                }
            }
        }
        for i in 0..4 {
            if !self.away[i] {
                self.peers[i].handle_timeout(self.now);
            }
        }
        self.deliver_until(done);
    }

    /// Runs until `done`, for at most `ms` more.
    fn run(&mut self, ms: u64, done: &dyn Fn(&Self) -> bool) {
        let end = self.now + ms;
        self.deliver_until(done);
        while self.now < end && !done(self) {
            self.tick(done);
        }
    }

    /// Peer `i` wakes up: its timers run before it hears anyone, then its connections come
    /// up again (both sides send what they have of the current hand).
    fn wake(&mut self, i: usize) {
        self.away[i] = false;
        self.peers[i].handle_timeout(self.now);
        self.collect(i);
        for j in (0..4).filter(|&j| j != i) {
            let (ki, kj) = (self.keys[i], self.keys[j]);
            self.peers[i].peer_connected(kj);
            self.peers[j].peer_connected(ki);
        }
        self.deliver();
    }

    /// Prints every peer's table events (not the hands') and the votes, for a failure.
    fn dump(&self) {
        eprintln!("now {}", self.now);
        for (i, e) in self.events.iter().enumerate() {
            eprintln!(
                "peer {i} hand {} waiting {:?}: {:?}",
                self.peers[i].hand_no(),
                self.peers[i].waiting_on(),
                e.iter()
                    .filter(|e| {
                        !matches!(
                            e,
                            TableEvent::Hand { .. }
                                | TableEvent::Chat(_)
                                | TableEvent::Roster(_)
                                | TableEvent::Started(_)
                        )
                    })
                    .collect::<Vec<_>>()
            );
        }
        eprintln!("votes: {:?}", self.votes);
    }

    /// The seats peer `i` saw voted out, left or named.
    fn voided(&self, i: usize) -> Vec<(u32, Seat, Gone)> {
        self.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::HandVoided { hand_no, seat, why } => Some((*hand_no, *seat, *why)),
                _ => None,
            })
            .collect()
    }

    /// How many faults peer `i`'s hands named.
    fn faults(&self, i: usize) -> usize {
        self.events[i]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TableEvent::Hand {
                        event: fairdeal_net::hand::Event::Fault(_),
                        ..
                    }
                )
            })
            .count()
    }

    /// How many hands peer `i` saw complete.
    fn completed(&self, i: usize) -> usize {
        self.events[i]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TableEvent::Hand {
                        event: fairdeal_net::hand::Event::Complete(_),
                        ..
                    }
                )
            })
            .count()
    }
}

/// How a peer that stayed took the seat given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Took {
    /// At the start of the deal (the `Return` came first).
    AtStart,
    /// By dealing the hand under way again (it had started it with the computer player).
    Restart,
}

/// How a peer took East's seat back, from its events: the deal it saw start before and after the
/// `SeatBack`.
fn took(events: &[TableEvent]) -> Option<Took> {
    let back = events
        .iter()
        .position(|e| matches!(e, TableEvent::SeatBack { seat: Seat::E, .. }))?;
    let started = |e: &TableEvent| match e {
        TableEvent::HandStarted(n) => Some(*n),
        _ => None,
    };
    let before = events[..back].iter().rev().find_map(started);
    let after = events[back..].iter().find_map(started)?;
    Some(if before == Some(after) {
        Took::Restart
    } else {
        Took::AtStart
    })
}

/// East's process is stopped while it holds its cards, past the grace period: South, West
/// and North vote it out, West (its partner) runs a computer player in the seat and the hand
/// is dealt again. East wakes up while that deal is played, hears that its seat is held, and
/// takes it back at the next deal, which East and then one more are played to their end;
/// no seat that stayed is voted out, replaced or named. `slow`: links whose messages take a
/// second, which decides whether a peer starts the next deal before West's `Return` comes.
/// Returns how South and North took the seat back.
fn east_stopped_and_back(slow: &[(usize, usize)]) -> [Option<Took>; 2] {
    let (peers, _) = table("returning", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(120_000, &|n| n.peers[3].view().is_some());
    assert!(net.peers[3].view().is_some(), "East holds its cards");
    net.away[3] = true;
    net.run(120_000, &|n| {
        [0, 1, 2]
            .iter()
            .all(|&i| n.peers[i].runners()[3] == Some(Seat::W) && n.peers[i].hand().is_some())
    });
    for i in 0..3 {
        assert_eq!(net.peers[i].runners()[3], Some(Seat::W), "peer {i}");
        assert_eq!(net.voided(i), vec![(1, Seat::E, Gone::Silent)], "peer {i}");
    }
    let held_at = net.peers[0].hand_no();
    let faults_before: Vec<usize> = (0..4).map(|i| net.faults(i)).collect();
    net.slow = slow.to_vec();
    net.wake(3);
    net.run(900_000, &|n| {
        n.peers[3].hand().is_some() && (0..4).all(|i| n.completed(i) >= 2)
    });
    let what = || {
        net.dump();
        format!("slow links {slow:?}")
    };
    assert!(
        net.events[3]
            .iter()
            .any(|e| matches!(e, TableEvent::SeatBack { seat: Seat::E, .. })),
        "East has its seat back: {}",
        what()
    );
    for (i, &before) in faults_before.iter().enumerate() {
        assert_eq!(net.peers[i].runners(), [None; 4], "peer {i}: {}", what());
        let voided: Vec<_> = net.voided(i).into_iter().filter(|v| v.0 > 1).collect();
        assert!(voided.is_empty(), "peer {i} voided {voided:?}: {}", what());
        assert_eq!(net.faults(i), before, "peer {i} named: {}", what());
        assert!(net.completed(i) >= 2, "peer {i}: {}", what());
    }
    let against_stayers: Vec<_> = net
        .votes
        .iter()
        .filter(|(_, h, s)| *h >= held_at && *s != 3)
        .collect();
    assert!(
        against_stayers.is_empty(),
        "votes against seats that stayed: {against_stayers:?}: {}",
        what()
    );
    // Every transcript, with both deals of the hand given back, checks.
    for (i, file) in net.files.iter().enumerate() {
        let mut bytes = MAGIC.to_vec();
        for e in file {
            bytes.extend_from_slice(&e.to_record());
        }
        let report = transcript::verify(&transcript::decode(&bytes).expect("decodes"));
        assert!(report.ok(), "peer {i}: {}", report.text());
    }
    let took = [took(&net.events[0]), took(&net.events[2])];
    eprintln!("slow {slow:?}: South and North took the seat back by {took:?}");
    took
}

/// Sabotage caught (checked): a deal started again for the seat given back that keeps
/// holding the first deal's envelopes (whose hand context is the same): South and North
/// refuse each other's commitment as a copy of one held, resyncs answer with the same bytes,
/// and North is voted out as silent by the three others, then East, then the next.
#[test]
fn a_seat_back_from_a_stopped_process_costs_the_seats_that_stayed_nothing() {
    let mut seen = Vec::new();
    // Nothing slow (South and North start the next deal with the computer player, and start
    // it again); North's and East's results slow to South (South starts it after West's
    // `Return` came); West's word slow to South (South's first deal lasts a second).
    for slow in [&[][..], &[(2, 0), (3, 0)][..], &[(1, 0)][..]] {
        seen.extend(east_stopped_and_back(slow).into_iter().flatten());
    }
    assert!(seen.contains(&Took::Restart), "{seen:?}");
    assert!(seen.contains(&Took::AtStart), "{seen:?}");
}
