//! People at the table, on a simulated clock: a player who thinks for ten minutes over every
//! move is never paused or voted out; a seat silent on the wire is; a silent seat's accusation
//! removes nobody; a player who leaves is replaced at once, by their partner's client.
//!
//! The harness plays the node's part: it delivers every message, and every five simulated
//! seconds each live peer "pings" the others (`heard`), as libp2p's ping does.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use fairdeal_core::{HouseRules, Preset, Seat, SplitMix64};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::hand::Event as HandEvent;
use fairdeal_net::store::{Meta, Record};
use fairdeal_net::table::msg::{SeatInfo, Statement, TableMsg};
use fairdeal_net::table::{
    ALONE_MS, DEFAULT_GRACE_MS, Dest, Gone, QUIET_MS, TableEvent, TableSession,
};

/// The person's seat (South, the host).
const PERSON: usize = 0;

fn card(i: u8, bot: bool) -> ([u8; 32], SeatInfo) {
    let secret = [i + 61; 32];
    (
        secret,
        SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot,
            addrs: Vec::new(),
        },
    )
}

/// A person in South (the host), computer players elsewhere.
fn table(preset: Preset, target: i32) -> (Vec<TableSession>, Vec<[u8; 32]>) {
    let house = HouseRules {
        target: Some(target),
        ..HouseRules::default()
    };
    let (s0, c0) = card(0, false);
    let mut peers = vec![TableSession::host(
        s0, [40; 32], c0, None, "people", preset, house,
    )];
    let mut secrets = vec![s0];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, c) = card(i, true);
        let mut p = TableSession::joiner(s, [40 + i; 32], c, Some("greedy"));
        p.join(host);
        peers.push(p);
        secrets.push(s);
    }
    (peers, secrets)
}

/// Which messages a muted peer withholds.
type Picks = fn(&[u8]) -> bool;

/// What the simulation does to the table, step by step.
struct Sim {
    peers: Vec<TableSession>,
    keys: Vec<PublicKey>,
    events: Vec<Vec<TableEvent>>,
    now: u64,
    /// Peers that are gone: they neither send nor receive nor ping.
    dead: Vec<bool>,
    /// Messages the table sent, per peer: timeouts voted.
    votes: Vec<Vec<(u32, Seat)>>,
    /// A peer that withholds the messages `f` picks, and is gone once it has withheld one.
    mute: Option<(usize, Picks)>,
    rng: SplitMix64,
    /// One peer's game log, as its node would write it: (peer, records).
    log: Option<(usize, Vec<Record>)>,
    /// Sent (and logged) by the timers, not yet delivered.
    queued: Vec<(usize, Dest, Vec<u8>)>,
}

impl Sim {
    fn new(peers: Vec<TableSession>) -> Self {
        let keys = peers.iter().map(TableSession::key).collect();
        Self {
            peers,
            keys,
            events: vec![Vec::new(); 4],
            now: 0,
            dead: vec![false; 4],
            votes: vec![Vec::new(); 4],
            mute: None,
            rng: SplitMix64::new(7),
            log: None,
            queued: Vec::new(),
        }
    }

    /// Keeps peer `i`'s game log from now on, starting with `records`.
    fn keep_log(&mut self, i: usize, records: Vec<Record>) {
        self.log = Some((i, records));
    }

    fn record(&mut self, i: usize, r: impl FnOnce() -> Record) {
        if let Some((who, records)) = &mut self.log
            && *who == i
        {
            records.push(r());
        }
    }

    /// Delivers everything until quiet; true if anything moved.
    fn deliver(&mut self) -> bool {
        let mut any = false;
        loop {
            let mut moved = false;
            for (i, dest, bytes) in std::mem::take(&mut self.queued) {
                moved |= self.send_out(i, dest, bytes);
            }
            for i in 0..4 {
                while let Some((dest, bytes)) = self.peers[i].poll_transmit() {
                    self.record(i, || Record::Sent {
                        bytes: bytes.clone(),
                    });
                    moved |= self.send_out(i, dest, bytes);
                }
                while let Some(e) = self.peers[i].poll_event() {
                    self.events[i].push(e);
                }
            }
            if !moved {
                return any;
            }
            any = true;
        }
    }

    /// Peer `i` sends `bytes` (already logged): delivered to every live target.
    fn send_out(&mut self, i: usize, dest: Dest, bytes: Vec<u8>) -> bool {
        if let Some((m, f)) = self.mute
            && m == i
            && f(&bytes)
        {
            self.dead[i] = true;
        }
        if self.dead[i] {
            return false;
        }
        if let Ok(TableMsg::Timeout { hand_no, seat, .. }) = TableMsg::decode(&bytes) {
            self.votes[i].push((hand_no, seat));
        }
        let targets: Vec<usize> = match dest {
            Dest::Peer(k) => self.keys.iter().position(|x| *x == k).into_iter().collect(),
            Dest::Seats => (0..4).filter(|&j| j != i).collect(),
        };
        for j in targets {
            if !self.dead[j] {
                let from = self.keys[i];
                self.record(j, || Record::Recv {
                    from: from.0,
                    bytes: bytes.clone(),
                });
                let _ = self.peers[j].handle_message(from, &bytes);
            }
        }
        true
    }

    /// Advances the clock by `ms`: pings between live peers, then every live peer's timers.
    fn tick(&mut self, ms: u64) {
        self.now += ms;
        for i in 0..4 {
            for j in 0..4 {
                if i != j && !self.dead[i] && !self.dead[j] {
                    let k = self.keys[j];
                    self.peers[i].heard(k, self.now);
                }
            }
        }
        for i in 0..4 {
            if !self.dead[i] {
                self.peers[i].handle_timeout(self.now);
            }
        }
        // What the signs of life and the timers made a peer send is logged now, before
        // anything else it receives (as the node does).
        for i in 0..4 {
            while let Some((dest, bytes)) = self.peers[i].poll_transmit() {
                self.record(i, || Record::Sent {
                    bytes: bytes.clone(),
                });
                self.queued.push((i, dest, bytes));
            }
        }
    }

    /// Plays until `done`, the person taking `think_ms` over every move; bounded by `limit_ms`
    /// of simulated time.
    fn run(&mut self, think_ms: u64, limit_ms: u64, done: &dyn Fn(&Self) -> bool) {
        let mut turn_since: Option<u64> = None;
        while self.now < limit_ms && !done(self) {
            self.deliver();
            let person = &mut self.peers[PERSON];
            let mine = !self.dead[PERSON] && person.hand().is_some_and(|h| h.my_turn());
            if mine {
                let since = *turn_since.get_or_insert(self.now);
                if self.now >= since + think_ms {
                    let mv = person
                        .view()
                        .unwrap()
                        .random_legal_move(&mut self.rng)
                        .unwrap();
                    person.submit(mv).unwrap();
                    turn_since = None;
                    continue;
                }
            } else {
                turn_since = None;
            }
            self.tick(5_000);
        }
    }

    fn completed(&self, i: usize) -> usize {
        self.events[i]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TableEvent::Hand {
                        event: HandEvent::Complete(_),
                        ..
                    }
                )
            })
            .count()
    }

    fn voided(&self, i: usize) -> Vec<(Seat, Gone)> {
        self.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::HandVoided { seat, why, .. } => Some((*seat, *why)),
                _ => None,
            })
            .collect()
    }

    fn paused(&self, i: usize) -> bool {
        self.events[i]
            .iter()
            .any(|e| matches!(e, TableEvent::Paused(_)))
    }
}

/// Sabotage caught: presence measured by the turn (the old "waiting since" per set of awaited
/// seats) or by a deadline on decisions votes the thinker out within the first long turn.
#[test]
fn a_player_who_thinks_ten_minutes_over_every_move_is_never_paused_or_voted_out() {
    let (peers, _) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    let ten_minutes = 600_000;
    sim.run(ten_minutes, 400 * ten_minutes, &|s| s.completed(1) >= 1);
    assert!(sim.completed(1) >= 1, "the hand did not finish");
    assert!(
        sim.now > 5 * ten_minutes,
        "the person made several ten-minute moves"
    );
    for i in 0..4 {
        assert!(!sim.paused(i), "peer {i} paused the table for a thinker");
        assert!(sim.voided(i).is_empty(), "peer {i} voided a hand");
        assert!(sim.votes[i].is_empty(), "peer {i} voted someone out");
    }
}

/// Sabotage caught: a table that never votes (no presence clock) leaves the others waiting
/// for ever; one that ignores the grace period votes too early.
#[test]
fn a_seat_silent_on_the_wire_is_voted_out_after_the_grace_period_and_its_partner_runs_it() {
    let (peers, _) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    // Let the game start and the deal complete, then East's machine goes away.
    sim.run(0, 60_000, &|s| s.peers[1].view().is_some());
    assert!(sim.peers[1].view().is_some(), "the hand was dealt");
    sim.dead[3] = true;
    let gone_at = sim.now;
    sim.run(1_000, gone_at + 10 * DEFAULT_GRACE_MS, &|s| {
        !s.voided(0).is_empty()
    });
    for i in 0..3 {
        assert_eq!(sim.voided(i), vec![(Seat::E, Gone::Silent)], "peer {i}");
    }
    assert!(
        sim.now >= gone_at + DEFAULT_GRACE_MS,
        "voted out before the grace period ran out"
    );
    // East's partner, West, runs the computer player that takes the seat, and says so.
    assert_eq!(
        sim.peers[1].proxy_seats().iter().collect::<Vec<_>>(),
        [Seat::E]
    );
    for i in 0..3 {
        assert!(sim.events[i].iter().any(|e| matches!(
            e,
            TableEvent::SeatTaken {
                seat: Seat::E,
                runner: Seat::W
            }
        )));
    }
    // The table goes on: the redealt hand finishes.
    sim.run(0, sim.now + 100 * DEFAULT_GRACE_MS, &|s| {
        s.completed(0) >= 1
    });
    assert!(sim.completed(0) >= 1, "the redealt hand did not finish");
}

/// Sabotage caught: echoing the votes of a seat one waits on (the old rule) lets a silent
/// seat remove an honest one.
#[test]
fn a_silent_seats_vote_against_an_honest_thinker_removes_nobody() {
    let (peers, secrets) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| {
        s.peers[0].hand().is_some_and(|h| h.my_turn())
    });
    assert!(
        sim.peers[0].hand().is_some_and(|h| h.my_turn()),
        "South's turn"
    );
    // East accuses South (who is thinking), then goes silent.
    let hand_no = sim.peers[1].hand_no();
    let sid = sim.peers[1].config().unwrap().sid();
    let hctx = sim.peers[1].hand().unwrap().hctx();
    let sig = Identity::from_secret(secrets[3]).sign(
        &Statement::Timeout {
            hand_no,
            hctx: &hctx,
            seat: Seat::S,
        }
        .digest(&sid),
    );
    let accusation = TableMsg::Timeout {
        hand_no,
        hctx,
        seat: Seat::S,
        sig,
    }
    .encode();
    for j in 0..3 {
        sim.peers[j]
            .handle_message(sim.keys[3], &accusation)
            .unwrap();
    }
    sim.dead[3] = true;
    // South thinks for three grace periods.
    sim.run(
        3 * DEFAULT_GRACE_MS,
        sim.now + 40 * DEFAULT_GRACE_MS,
        &|s| !s.voided(0).is_empty(),
    );
    for i in 0..3 {
        assert!(
            !sim.votes[i].iter().any(|(_, seat)| *seat == Seat::S),
            "peer {i} voted South out"
        );
        assert_eq!(sim.voided(i), vec![(Seat::E, Gone::Silent)], "peer {i}");
    }
}

/// The seat in peer `i` signs a quit during the hand and its client stops: the others wait
/// out what it still owes, vote it out, and a computer player takes the seat (the deal
/// void). Returns when the quit was taken.
fn quits_and_is_taken_over(sim: &mut Sim, i: usize) -> u64 {
    let t0 = sim.now;
    sim.peers[i].quit().unwrap();
    sim.deliver();
    assert!(sim.peers[i].has_left());
    sim.dead[i] = true;
    let others: Vec<usize> = (0..4).filter(|&j| j != i).collect();
    sim.run(0, t0 + 4 * DEFAULT_GRACE_MS, &|s| {
        others.iter().all(|&j| s.peers[j].runners()[i].is_some())
    });
    for &j in &others {
        assert!(
            sim.peers[j].runners()[i].is_some(),
            "peer {j}: {:?}",
            sim.voided(j)
        );
    }
    t0
}

/// A quit during the hand (only a modified client sends one: an honest client plays the
/// hand out first) ends nothing by itself, wherever it lands among the last moves: the hand
/// waits out what North owes for the grace period, then the others vote North out, the deal
/// is void (said as North leaving), and South, North's partner, runs its computer player.
///
/// Sabotage caught: a quit acted on where it lands (a void with no wait), or one nobody
/// takes (North said to be silent, not gone).
#[test]
fn a_player_who_quits_mid_hand_is_voted_out_after_the_grace_period_and_replaced() {
    let (peers, _) = table(Preset::Canasta, 100);
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| s.peers[2].view().is_some());
    let t0 = quits_and_is_taken_over(&mut sim, 2);
    for i in [0, 1, 3] {
        assert_eq!(sim.voided(i), vec![(Seat::N, Gone::Left)], "peer {i}");
    }
    assert!(
        sim.now >= t0 + DEFAULT_GRACE_MS,
        "the grace period was waited out"
    );
    assert_eq!(
        sim.peers[0].proxy_seats().iter().collect::<Vec<_>>(),
        [Seat::N],
        "South runs North"
    );
    sim.dead[2] = true;
    sim.run(0, sim.now + 100 * DEFAULT_GRACE_MS, &|s| {
        s.completed(0) >= 1
    });
    assert!(sim.completed(0) >= 1);
}

/// Sabotage caught: a thinking time that is ignored (computer players move at once) or that
/// never ends.
#[test]
fn computer_players_wait_their_thinking_time_before_each_move() {
    let (mut peers, _) = table(Preset::Samba, 100);
    for p in &mut peers[1..] {
        p.set_think_ms(700);
    }
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| s.peers[0].view().is_some());
    // South plays its turn through; West (next) must not answer before 700 ms have passed.
    let mut guard = 0;
    while sim.peers[0].hand().is_some_and(|h| !h.my_turn()) && guard < 100 {
        sim.tick(1_000);
        sim.deliver();
        guard += 1;
    }
    while sim.peers[0].hand().is_some_and(|h| h.my_turn()) {
        let mv = sim.peers[0]
            .view()
            .unwrap()
            .random_legal_move(&mut sim.rng)
            .unwrap();
        sim.peers[0].submit(mv).unwrap();
        sim.deliver();
    }
    let moved = |s: &Sim| {
        s.events[0]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TableEvent::Hand {
                        event: HandEvent::Moved { seat: Seat::W, .. },
                        ..
                    }
                )
            })
            .count()
    };
    let before = moved(&sim);
    sim.tick(0);
    sim.deliver();
    assert_eq!(moved(&sim), before, "West moved without thinking");
    assert!(
        sim.peers[1]
            .poll_timeout()
            .is_some_and(|t| t > sim.now && t <= sim.now + 700),
        "West asks to be woken by the end of its thinking time"
    );
    sim.tick(700);
    sim.deliver();
    assert!(moved(&sim) > before, "West never moved");
}

/// The first hand's scores when everyone plays it through (same seeds, same moves).
fn honest_first_hand(preset: Preset) -> [i32; 2] {
    let (peers, _) = table(preset, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(0, 100 * DEFAULT_GRACE_MS, &|s| s.completed(1) >= 1);
    sim.events[1]
        .iter()
        .find_map(|e| match e {
            TableEvent::Hand {
                event: HandEvent::Complete(r),
                ..
            } => Some(r.scores),
            _ => None,
        })
        .unwrap()
}

/// Sabotage caught: a withheld seed that only voids the hand (the silent team escapes it), or
/// a forfeit rule that lets the silent team do better, or the other team worse, than the true
/// count.
#[test]
fn a_seat_that_withholds_its_seed_forfeits_the_hand_under_the_rule() {
    for preset in [Preset::Samba, Preset::DutchSamba, Preset::Canasta] {
        let truth = honest_first_hand(preset);
        let (peers, _) = table(preset, 100_000);
        let mut sim = Sim::new(peers);
        // East sends everything but its seed, then is gone for good.
        sim.mute = Some((3, common::table::is_reveal));
        sim.run(0, 100 * DEFAULT_GRACE_MS, &|s| {
            s.events[0]
                .iter()
                .any(|e| matches!(e, TableEvent::HandForfeited { .. }))
        });
        let mut seen = Vec::new();
        for i in 0..3 {
            let f = sim.events[i].iter().find_map(|e| match e {
                TableEvent::HandForfeited {
                    hand_no: 1,
                    seat: Seat::E,
                    scores,
                    breakdown: Some(_),
                } => Some(*scores),
                _ => None,
            });
            seen.push(f.unwrap_or_else(|| panic!("{preset:?}: peer {i} saw no forfeit")));
            assert_eq!(sim.peers[i].totals(), seen[i], "{preset:?}: counted");
        }
        assert!(seen.iter().all(|s| *s == seen[0]), "{preset:?}: {seen:?}");
        // East plays for team B (index 1).
        assert!(
            seen[0][1] <= truth[1],
            "{preset:?}: silent team {seen:?} vs {truth:?}"
        );
        assert!(
            seen[0][0] >= truth[0],
            "{preset:?}: other team {seen:?} vs {truth:?}"
        );
        assert!(
            sim.voided(0).is_empty(),
            "{preset:?}: a forfeit, not a void"
        );
    }
}

/// Sabotage caught: an audit that does not replay a replacement's decisions lets its runner
/// play it as it likes; one that blames the seat itself blames nobody who can be replaced.
#[test]
fn a_runner_that_steers_the_computer_player_is_named_at_the_audit() {
    let (peers, _) = table(Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| s.peers[1].view().is_some());
    quits_and_is_taken_over(&mut sim, 2);
    // South runs North (its partner) and steers it.
    assert_eq!(
        sim.peers[0].proxy_seats().iter().collect::<Vec<_>>(),
        [Seat::N]
    );
    sim.peers[0].cheat_steer_proxy();
    sim.run(0, 100 * DEFAULT_GRACE_MS, &|s| {
        s.events[1].iter().any(|e| {
            matches!(
                e,
                TableEvent::Hand {
                    event: HandEvent::Fault(_),
                    ..
                }
            )
        })
    });
    for i in [1, 3] {
        let blames: Vec<_> = sim.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::Hand {
                    event: HandEvent::Fault(b),
                    ..
                } => Some((b.offender, b.fault)),
                _ => None,
            })
            .collect();
        assert_eq!(
            blames,
            vec![(Some(Seat::S), fairdeal_crypto::Fault::Steered)],
            "peer {i}"
        );
        assert!(
            sim.voided(i).contains(&(Seat::S, Gone::Cheated)),
            "peer {i}: South is out"
        );
    }
}

/// Sabotage caught: a returning player who is never told, or who gets the seat back in the
/// middle of a hand (the hand cannot go on), or never; a runner whose log does not replay to
/// the seat given back (checked: `replay_sent` ignoring `SeatHeld` faults the replay in the
/// next hand, as `fairdeal verify` did on a runner's log with `BadShuffleProof`).
#[test]
fn a_player_who_comes_back_gets_the_seat_back_at_the_next_hand() {
    let (peers, secrets) = table(Preset::Canasta, 100_000);
    let host = peers[0].key();
    let mut sim = Sim::new(peers);
    // West runs East's computer player while East is away: its log must replay to the same
    // table (it gave the seat back because East was heard from, which is not logged).
    let (_, west) = card(1, true);
    let meta = Meta {
        role: fairdeal_net::store::Part::Join,
        me: west,
        bot: Some("greedy".into()),
        master: [41; 32],
        table: None,
        host: None,
        hold: false,
        want: None,
        move_clock_ms: 0,
    };
    sim.keep_log(
        1,
        vec![
            Record::Meta(Box::new(meta)),
            Record::Joined { host: host.0 },
        ],
    );
    sim.run(0, 60_000, &|s| s.peers[1].view().is_some());
    // Its client stops; its person presses Resume once West runs the seat.
    quits_and_is_taken_over(&mut sim, 3);
    let held_hand = sim.peers[0].hand_no();
    // East comes back (the same session: its client resumed from its log).
    sim.dead[3] = false;
    sim.tick(5_000);
    sim.deliver();
    assert!(
        sim.events[3]
            .iter()
            .any(|e| matches!(e, TableEvent::SeatHeld { seat: Seat::E })),
        "East is told its seat is held"
    );
    assert!(sim.peers[3].hand().is_none(), "not in the middle of a hand");
    sim.run(0, 200 * DEFAULT_GRACE_MS, &|s| s.peers[3].hand().is_some());
    assert!(sim.peers[3].hand().is_some(), "East plays again");
    let back_at = sim.peers[3].hand_no();
    assert_eq!(back_at, held_hand + 1, "from the next hand");
    for i in 0..4 {
        assert_eq!(sim.peers[i].hand_no(), back_at, "peer {i}");
        assert_eq!(sim.peers[i].runners()[3], None, "peer {i}");
    }
    sim.run(0, sim.now + 200 * DEFAULT_GRACE_MS, &|s| {
        s.completed(3) >= 1
    });
    assert!(sim.completed(3) >= 1, "the hand with East back finishes");
    let totals: Vec<_> = sim.peers.iter().map(TableSession::totals).collect();
    assert!(totals.iter().all(|t| *t == totals[0]), "{totals:?}");
    // The runner's log replays to where it is, with no fault on the way.
    let (_, records) = sim.log.take().unwrap();
    let (mut rebuilt, _) = fairdeal_net::node::rebuild(secrets[1], &records).unwrap();
    let mut faults = Vec::new();
    while let Some(e) = rebuilt.poll_event() {
        if let TableEvent::Hand {
            event: HandEvent::Fault(b),
            ..
        } = e
        {
            faults.push((b.offender, b.fault));
        }
    }
    assert!(faults.is_empty(), "the replay found {faults:?}");
    assert_eq!(rebuilt.hand_no(), sim.peers[1].hand_no());
    assert_eq!(rebuilt.totals(), sim.peers[1].totals());
    assert_eq!(rebuilt.runners(), sim.peers[1].runners());
}

/// Sabotage caught: a clock that is not in the signed configuration (the others would not see
/// it), that never runs out, or whose timed-out move is not the player's own (it would need
/// the others to act).
#[test]
fn with_a_move_clock_a_silent_player_s_own_client_plays_when_it_runs_out() {
    let (mut peers, _) = table(Preset::Samba, 100);
    peers[0].set_move_clock_ms(60_000);
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| {
        s.peers[0].hand().is_some_and(|h| h.my_turn())
    });
    for i in 0..4 {
        assert_eq!(sim.peers[i].config().unwrap().move_clock_ms, 60_000);
    }
    sim.tick(1_000);
    let started = sim.now;
    // Every seat sees South's countdown.
    for i in 0..4 {
        let (seat, left) = sim.peers[i].move_clock().unwrap();
        assert_eq!(seat, Seat::S, "peer {i}");
        assert!(left <= 60_000 && left > 50_000, "peer {i}: {left}");
    }
    assert!(sim.peers[0].timed_out_move().is_none(), "not yet");
    let mut auto = 0;
    while sim.now < started + 30 * 60_000 && sim.completed(1) == 0 {
        sim.tick(5_000);
        sim.deliver();
        // The node plays the clock's move as the person's own.
        if let Some(mv) = sim.peers[0].timed_out_move() {
            sim.peers[0].submit(mv).unwrap();
            sim.deliver();
            auto += 1;
        }
    }
    assert!(auto > 0, "the clock never ran out");
    assert!(
        sim.completed(1) >= 1,
        "the hand went on with the clock's moves"
    );
    for i in 0..4 {
        assert!(
            sim.votes[i].is_empty(),
            "peer {i} voted: silence on the wire only"
        );
    }
}

fn alone_said(sim: &Sim, i: usize) -> Vec<u64> {
    sim.events[i]
        .iter()
        .filter_map(|e| match e {
            TableEvent::Alone { secs } => Some(*secs),
            _ => None,
        })
        .collect()
}

/// Sabotage caught: a peer that never checks whether anyone is left (the old behaviour: a
/// player coming back after the others had gone waited for ever, silently) says nothing;
/// one that counts a jump of the clock (a machine waking from sleep) as time alone says it
/// at once; one that does not reset when a seat is heard again says it twice.
#[test]
fn a_peer_left_alone_at_the_table_is_told_nobody_answers() {
    let (peers, _) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    sim.run(0, 60_000, &|s| s.peers[PERSON].view().is_some());
    assert!(sim.peers[PERSON].view().is_some(), "the hand was dealt");

    // The machine sleeps ten minutes and wakes: everyone is unheard at once, but it has not
    // listened yet, so it says nothing; then the others answer again.
    sim.tick(5_000);
    sim.deliver();
    let woke = sim.now + 600_000;
    sim.now = woke;
    sim.peers[PERSON].handle_timeout(sim.now);
    sim.deliver();
    assert!(
        alone_said(&sim, PERSON).is_empty(),
        "a sleep is not being alone"
    );
    sim.tick(5_000);
    sim.deliver();

    // Now the three others are gone for good.
    for i in 1..4 {
        sim.dead[i] = true;
    }
    let gone_at = sim.now;
    while sim.now < gone_at + 10 * ALONE_MS && alone_said(&sim, PERSON).is_empty() {
        sim.tick(5_000);
        sim.deliver();
    }
    let said = alone_said(&sim, PERSON);
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert!(
        sim.now >= gone_at + ALONE_MS,
        "said after {} ms",
        sim.now - gone_at
    );
    assert!(
        sim.now <= gone_at + QUIET_MS + ALONE_MS + 10_000,
        "said late"
    );
    assert_eq!(
        said[0],
        (sim.now - gone_at) / 1000,
        "how long nobody answered"
    );
    for _ in 0..100 {
        sim.tick(5_000);
    }
    sim.deliver();
    assert_eq!(alone_said(&sim, PERSON).len(), 1, "said once per stretch");
}
