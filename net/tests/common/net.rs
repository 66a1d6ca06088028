//! The table message by message, as the node plays its part: one message at a time in the
//! order sent, the gate before the handler, a sign of life from every live peer once a second,
//! a connection that comes up again making both sides call `peer_connected`, and a peer that
//! wakes up running its timers before it hears anyone (as a process woken from `SIGSTOP`
//! does: its clock jumped, its connections are gone).

use std::collections::VecDeque;

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;
use fairdeal_net::table::msg::TableMsg;
use fairdeal_net::table::{Dest, Gone, TableEvent, TableSession};
use fairdeal_net::transcript::Entry;

/// The grace period of the multi-process test this mirrors (`--grace-secs 5`).
pub const GRACE_MS: u64 = 5_000;

/// How long the computer players think over each move.
pub const THINK_MS: u64 = 1_000;

/// Decides which messages are lost: `(from, to, bytes)` → lost.
pub type Lose = dyn FnMut(usize, usize, &[u8]) -> bool;

/// The table, message by message.
pub struct Net {
    pub peers: Vec<TableSession>,
    pub keys: Vec<PublicKey>,
    pub now: u64,
    /// Peers that are away: they neither send, nor receive, nor run their timers.
    pub away: [bool; 4],
    /// Messages on their way: (from, to, bytes).
    pub wire: VecDeque<(usize, usize, Vec<u8>)>,
    pub events: Vec<Vec<TableEvent>>,
    /// Every timeout vote sent: (voter, hand, silent seat).
    pub votes: Vec<(usize, u32, Seat)>,
    /// Links (from, to) whose messages take a second: delivered at the next tick.
    pub slow: Vec<(usize, usize)>,
    /// Messages on a slow link, waiting for the next tick.
    pub late: Vec<(usize, usize, Vec<u8>)>,
    /// Each peer's public transcript so far.
    pub files: Vec<Vec<Entry>>,
    /// Each peer's deals as it started them: (hand number, hand context, as the peer is in
    /// when its start is collected).
    pub deals: Vec<Vec<(u32, [u8; 32])>>,
    /// Messages lost on the way: `(from, to, bytes)` for which it says true are not delivered
    /// (counted in `lost`).
    pub lose: Box<Lose>,
    /// How many messages `lose` dropped.
    pub lost: usize,
    /// The gate's refusals held against their sender (not leftovers): (from, to, why).
    pub refused: Vec<(usize, usize, String)>,
}

impl Net {
    pub fn new(mut peers: Vec<TableSession>) -> Self {
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
            deals: vec![Vec::new(); 4],
            lose: Box::new(|_, _, _| false),
            lost: 0,
            refused: Vec::new(),
        }
    }

    /// What peer `i` queued goes on the wire (nothing while it is away).
    pub fn collect(&mut self, i: usize) {
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
            if let TableEvent::HandStarted(n) = e
                && let Some(hand) = self.peers[i].hand()
            {
                self.deals[i].push((n, hand.hctx()));
            }
            self.events[i].push(e);
        }
        let peer = &mut self.peers[i];
        self.files[i].extend(std::iter::from_fn(|| peer.poll_public()));
    }

    /// Delivers until nothing is on its way; a message to a peer away is lost.
    pub fn deliver(&mut self) {
        self.deliver_until(&|_| false);
    }

    /// Delivers until nothing is on its way or `done` (what is left stays on the wire).
    pub fn deliver_until(&mut self, done: &dyn Fn(&Self) -> bool) {
        for i in 0..4 {
            self.collect(i);
        }
        while !done(self)
            && let Some((i, j, bytes)) = self.wire.pop_front()
        {
            if self.away[j] {
                continue;
            }
            if (self.lose)(i, j, &bytes) {
                self.lost += 1;
                continue;
            }
            let from = self.keys[i];
            match self.peers[j].admit(from, &bytes) {
                Ok(_) => {
                    let _ = self.peers[j].handle_message(from, &bytes);
                }
                Err(r) if !r.stale => self.refused.push((i, j, r.why.what().to_owned())),
                Err(_) => {}
            }
            self.collect(j);
        }
    }

    /// One second: every live peer hears the others, then runs its timers.
    pub fn tick(&mut self, done: &dyn Fn(&Self) -> bool) {
        self.now += 1_000;
        self.wire.extend(std::mem::take(&mut self.late));
        let away = self.away;
        super::sim::tick(&mut self.peers, &self.keys, &|i| !away[i], self.now);
        self.deliver_until(done);
    }

    /// Runs until `done`, for at most `ms` more.
    pub fn run(&mut self, ms: u64, done: &dyn Fn(&Self) -> bool) {
        let end = self.now + ms;
        self.deliver_until(done);
        while self.now < end && !done(self) {
            self.tick(done);
        }
    }

    /// Peer `i` wakes up: its timers run before it hears anyone, then its connections come
    /// up again (both sides send what they have of the current hand).
    pub fn wake(&mut self, i: usize) {
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

    /// Each peer's transcript so far, written and read back as a file: every one checks.
    pub fn assert_files_verify(&self) {
        use fairdeal_net::transcript::{self, MAGIC};
        for (i, file) in self.files.iter().enumerate() {
            let mut bytes = MAGIC.to_vec();
            for e in file {
                bytes.extend_from_slice(&e.to_record());
            }
            let report = transcript::verify(&transcript::decode(&bytes).expect("decodes"));
            assert!(report.ok(), "peer {i}: {}", report.text());
        }
    }

    /// Prints every peer's table events (not the hands') and the votes, for a failure.
    pub fn dump(&self) {
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
    pub fn voided(&self, i: usize) -> Vec<(u32, Seat, Gone)> {
        self.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::HandVoided { hand_no, seat, why } => Some((*hand_no, *seat, *why)),
                _ => None,
            })
            .collect()
    }

    /// How many faults peer `i`'s hands named.
    pub fn faults(&self, i: usize) -> usize {
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
    pub fn completed(&self, i: usize) -> usize {
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
pub enum Took {
    /// At the start of the deal (the `Return` came first).
    AtStart,
    /// By dealing the hand under way again (it had started it with the computer player).
    Restart,
}

/// How a peer took East's seat back, from its events: the deal it saw start before and after the
/// `SeatBack`.
pub fn took(events: &[TableEvent]) -> Option<Took> {
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
