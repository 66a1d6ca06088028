//! A person who leaves mid-hand at a table of people: the hand is played to its end by the
//! leaver's own client and scored for all four; the `Quit` goes out only then, and a computer
//! player takes the seat from the next hand.
//!
//! The harness plays the node's part: it delivers every message, pings every five simulated
//! seconds, plays the person's moves (random legal ones) until they leave, and then does what
//! the node does for a person who left: it submits [`TableSession::leaving_move`] and sends
//! the `Quit` once [`TableSession::quit_due`].

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use fairdeal_core::{HouseRules, Preset, Seat, SplitMix64};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::hand::Event as HandEvent;
use fairdeal_net::table::msg::{SeatInfo, Statement, TableMsg};
use fairdeal_net::table::{Dest, Leaving, TableError, TableEvent, TableSession, Unexpected};
use fairdeal_net::transcript::{Entry, FaultKind, HandStatus};

fn card(i: u8, bot: bool) -> ([u8; 32], SeatInfo) {
    let secret = [i + 101; 32];
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

/// A person in South (the host) and one in North; computer players in West and East.
fn table() -> Vec<TableSession> {
    let house = HouseRules {
        target: Some(100_000),
        ..HouseRules::default()
    };
    let (s0, c0) = card(0, false);
    let mut peers = vec![TableSession::host(
        s0,
        [70; 32],
        c0,
        None,
        "leaving",
        Preset::Samba,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let person = i == 2;
        let (s, c) = card(i, !person);
        let mut p = TableSession::joiner(s, [70 + i; 32], c, (!person).then_some("greedy"));
        // North says "Next hand" itself, as a person in the window does.
        p.set_wait_for_person(person);
        p.join(host);
        peers.push(p);
    }
    peers
}

struct Sim {
    peers: Vec<TableSession>,
    keys: Vec<PublicKey>,
    events: Vec<Vec<TableEvent>>,
    /// Every `Quit` sent: (peer, its hand number then, hands completed at that peer then).
    quits: Vec<(usize, u32, usize)>,
    /// Each peer's public transcript entries so far.
    public: Vec<Vec<Entry>>,
    /// The people's clients running again after they left (the person pressed Resume).
    back: [bool; 4],
    /// A computer player whose quit was due at the last step (its node waits a moment once
    /// the hand is over before it quits).
    settling: [bool; 4],
    /// Each peer's messages of one round arrive last first (each request goes its own way).
    backwards: bool,
    /// Clients that still hear the table a while after their quit (a node stops a few
    /// seconds after it, and a window's computer players later still).
    linger: [bool; 4],
    /// Every message refused: (the peer that refused it, why).
    refused: Vec<(usize, TableError)>,
    now: u64,
    rng: SplitMix64,
}

impl Sim {
    fn new() -> Self {
        let peers = table();
        let keys = peers.iter().map(TableSession::key).collect();
        Self {
            peers,
            keys,
            events: vec![Vec::new(); 4],
            quits: Vec::new(),
            public: vec![Vec::new(); 4],
            back: [false; 4],
            settling: [false; 4],
            backwards: false,
            linger: [false; 4],
            refused: Vec::new(),
            now: 0,
            rng: SplitMix64::new(11),
        }
    }

    /// Delivers everything until quiet.
    fn deliver(&mut self) {
        loop {
            let mut moved = false;
            for i in 0..4 {
                let mut sent: Vec<(Dest, Vec<u8>)> =
                    std::iter::from_fn(|| self.peers[i].poll_transmit()).collect();
                if self.backwards {
                    sent.reverse();
                }
                for (dest, bytes) in sent {
                    moved = true;
                    if let Ok(TableMsg::Quit { hand_no, .. }) = TableMsg::decode(&bytes) {
                        let done = self.completed(i);
                        self.quits.push((i, hand_no, done));
                    }
                    let targets: Vec<usize> = match dest {
                        Dest::Peer(k) => {
                            self.keys.iter().position(|x| *x == k).into_iter().collect()
                        }
                        Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                    };
                    // A client that left has stopped (until North's is started again).
                    let targets: Vec<usize> =
                        targets.into_iter().filter(|&j| self.running(j)).collect();
                    for j in targets {
                        let from = self.keys[i];
                        if let Err(e) = self.peers[j].handle_message(from, &bytes) {
                            self.refused.push((j, e));
                        }
                    }
                }
                while let Some(e) = self.peers[i].poll_event() {
                    self.events[i].push(e);
                }
                while let Some(e) = self.peers[i].poll_public() {
                    self.public[i].push(e);
                }
            }
            if !moved {
                return;
            }
        }
    }

    fn tick(&mut self) {
        self.now += 5_000;
        for i in 0..4 {
            for j in 0..4 {
                // A client lingering after its quit is not heard: its last pings fall within
                // the time a quit's sender is not taken for its player back.
                if i != j && self.running(j) && (!self.peers[j].has_left() || self.back[j]) {
                    let k = self.keys[j];
                    self.peers[i].heard(k, self.now);
                }
            }
        }
        for i in 0..4 {
            if self.running(i) {
                self.peers[i].handle_timeout(self.now);
            }
        }
    }

    /// Whether peer `i`'s client runs: it has not left, or it was started again.
    fn running(&self, i: usize) -> bool {
        !self.peers[i].has_left() || self.back[i] || self.linger[i]
    }

    /// One step of the people's part: South and North play at random until they leave, then
    /// as their nodes would; a computer player that leaves quits once its hand is over, as
    /// its node does.
    fn step(&mut self) {
        for b in (0..4).filter(|&b| self.back[b]) {
            // Its pings, heard while the others play on without a pause.
            for i in (0..4).filter(|&i| i != b) {
                let k = self.keys[b];
                self.peers[i].heard(k, self.now);
            }
        }
        self.deliver();
        for i in [1, 3] {
            // A computer player leaving: its node quits a moment after the hand is over.
            let due = self.peers[i].quit_due();
            if due && self.settling[i] {
                self.peers[i].quit().unwrap();
                return;
            }
            self.settling[i] = due;
        }
        for i in [0, 2] {
            let p = &mut self.peers[i];
            if p.has_left() {
                continue;
            }
            if p.leaving_after_hand() {
                if let Some(mv) = p.leaving_move() {
                    p.submit(mv).unwrap();
                    return;
                }
                if p.quit_due() {
                    p.quit().unwrap();
                    return;
                }
            } else if p.hand().is_some_and(|h| h.my_turn()) {
                let mv = p.view().unwrap().random_legal_move(&mut self.rng).unwrap();
                p.submit(mv).unwrap();
                return;
            }
        }
        self.tick();
    }

    /// South leaves mid-hand with the two computer players its window runs (West and East),
    /// the computer players thinking between moves as at a real table; steps until North runs
    /// all three and the three have quit.
    fn three_leave_and_north_runs_them(&mut self) {
        for p in &mut self.peers {
            p.set_think_ms(1_000);
        }
        self.play_to_norths_turn();
        for i in [0, 1, 3] {
            let leaving = self.peers[i].leave_after_hand().expect("a seat leaves");
            assert_eq!(leaving, Leaving::AfterHand);
        }
        let me = Some(Seat::N);
        self.step_until(60_000, "North never took the three seats", |s| {
            s.peers[2].runners() == [me, me, None, me]
                && [0, 1, 3].iter().all(|&i| s.peers[i].has_left())
        });
    }

    /// South, West and East are started again (South's person pressed Resume); steps until
    /// the three play their seats.
    fn three_come_back(&mut self) {
        self.back = [true, true, false, true];
        self.step_until(80_000, "the three never got their seats back", |s| {
            [0, 1, 3]
                .iter()
                .all(|&i| !s.peers[i].has_left() && s.peers[i].hand().is_some())
        });
    }

    /// Steps until every peer has scored one hand more than it had.
    fn a_hand_scored_everywhere(&mut self) {
        let done: Vec<usize> = (0..4).map(|i| self.completed(i)).collect();
        self.step_until(
            80_000,
            "no hand was scored after the three came back",
            |s| (0..4).all(|i| s.completed(i) > done[i]),
        );
    }

    /// Steps until `done`, at most `limit` steps; `what` names what did not happen.
    fn step_until(&mut self, limit: usize, what: &str, done: impl Fn(&Self) -> bool) {
        let mut steps = 0;
        while !done(self) {
            self.step();
            steps += 1;
            assert!(steps < limit, "{what}");
        }
    }

    /// Into hand 1, a few turns in, North's turn.
    fn play_to_norths_turn(&mut self) {
        self.step_until(20_000, "hand 1 never reached North's turn", |s| {
            s.peers[2]
                .hand()
                .is_some_and(|h| h.my_turn() && h.turn_count() > 8)
        });
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

    fn voided(&self, i: usize) -> usize {
        self.events[i]
            .iter()
            .filter(|e| matches!(e, TableEvent::HandVoided { .. }))
            .count()
    }
}

/// Sabotage caught: leaving that signs the `Quit` at once (the hand void for all four, as
/// before), or a client that stops playing the seat (the hand never ends), or a `Quit` that
/// never goes out.
#[test]
fn a_person_who_leaves_mid_hand_has_the_hand_played_out_and_scored() {
    let mut sim = Sim::new();
    sim.play_to_norths_turn();
    let mut guard = 0;
    assert_eq!(sim.peers[2].hand_no(), 1);
    assert_eq!(sim.peers[2].leave_after_hand().unwrap(), Leaving::AfterHand);
    assert!(sim.peers[2].leaving_after_hand());
    sim.deliver();
    assert!(sim.quits.is_empty(), "no Quit during the hand");
    while !sim.peers[2].has_left() {
        sim.step();
        guard += 1;
        assert!(guard < 40_000, "North never quit");
    }
    // Then hand 2 goes on with a computer player in North, run by South (its partner).
    while sim.peers[0].hand_no() < 2 || sim.peers[0].hand().is_none() {
        sim.step();
        guard += 1;
        assert!(guard < 40_000, "hand 2 never started");
    }
    sim.deliver();
    assert_eq!(sim.quits.len(), 1, "{:?}", sim.quits);
    let (who, hand_no, done) = sim.quits[0];
    assert_eq!(
        (who, hand_no, done),
        (2, 1, 1),
        "North quit after hand 1 was scored"
    );
    let report = |i: usize| {
        sim.events[i].iter().find_map(|e| match e {
            TableEvent::Hand {
                hand_no: 1,
                event: HandEvent::Complete(r),
            } => Some(r.scores),
            _ => None,
        })
    };
    let scored = report(0).expect("hand 1 scored at South");
    for i in 0..4 {
        assert_eq!(sim.voided(i), 0, "peer {i}: no hand void");
        assert_eq!(report(i), Some(scored), "peer {i}: hand 1 scored alike");
    }
    for i in [0, 1, 3] {
        assert_eq!(sim.peers[i].totals(), scored, "peer {i}: hand 1 counts");
        assert_eq!(
            sim.peers[i].runners()[2],
            Some(Seat::S),
            "peer {i}: South runs North"
        );
    }
    // The LAN list (the host's answer) says a computer player holds North now.
    let seated = sim.peers[0].info().expect("the host answers").seated;
    assert_eq!(seated[2].as_deref(), Some("Computer for p2"));
    assert_eq!(seated[0].as_deref(), Some("p0"));
}

/// Sabotage caught: leaving between hands that waits for a hand that never comes.
#[test]
fn a_person_who_leaves_between_hands_quits_at_once() {
    let mut sim = Sim::new();
    let mut guard = 0;
    while sim.completed(2) < 1 {
        sim.step();
        guard += 1;
        assert!(guard < 20_000, "hand 1 never ended");
    }
    assert_eq!(sim.peers[2].leave_after_hand().unwrap(), Leaving::Quit);
    assert!(sim.peers[2].has_left());
    sim.deliver();
    assert_eq!(sim.quits, vec![(2, 1, 1)]);
    for i in 0..4 {
        assert_eq!(sim.voided(i), 0, "peer {i}: no hand void");
    }
}

/// Sabotage caught: a transcript check that takes a seat given back only after a deal left
/// unfinished refuses the file of a person who left mid-hand (its client played the hand out,
/// so the deal is complete there) and came back a hand later: "hand 3 comes where hand 2
/// must".
#[test]
fn a_person_who_left_and_came_back_has_a_transcript_that_verifies() {
    let mut sim = Sim::new();
    sim.play_to_norths_turn();
    sim.peers[2].leave_after_hand().unwrap();
    sim.step_until(40_000, "North never quit", |s| s.peers[2].has_left());
    sim.step_until(40_000, "hand 2 never started", |s| {
        s.peers[0].hand_no() >= 2 && s.peers[0].hand().is_some()
    });
    // North's client runs again during hand 2 (Resume is offered once the client that left
    // has stopped, some seconds later): it gets its seat back at hand 3.
    for _ in 0..3 {
        sim.tick();
    }
    sim.back[2] = true;
    sim.step_until(80_000, "North never got its seat back", |s| {
        s.peers[2].hand_no() >= 3 && s.peers[2].hand().is_some()
    });
    sim.step_until(200_000, "hand 3 never ended at North", |s| {
        s.completed(2) >= 2
    });
    sim.deliver();
    let located = common::located(sim.public[2].iter().cloned());
    let report = fairdeal_net::transcript::verify(&located);
    assert!(report.faults.is_empty(), "{:?}", report.faults);
    let verified: Vec<u32> = report
        .hands
        .iter()
        .filter(|h| matches!(h.status, HandStatus::Verified { .. }))
        .map(|h| h.hand_no)
        .collect();
    assert_eq!(verified, [1, 3], "{:?}", report.hands);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("hand 2 was played while North was away")),
        "{:?}",
        report.notes
    );
    assert_eq!(report.totals, sim.peers[2].totals(), "the table's totals");

    // The runner (South) signs the return again with better totals for its own team, and the
    // next header follows it: the seats that did not sign it (West and East) signed hand 3
    // under the true totals, so the file is refused.
    let sid = sim.peers[0].config().unwrap().sid();
    let south = Identity::from_secret(card(0, false).0);
    let honest = located.clone();
    let mut forged = located;
    let mut resigned = 0;
    for at in &mut forged {
        match &mut at.entry {
            Entry::Signed { from, msg } if *from == south.public() => {
                if let Ok(TableMsg::Return { mut state, .. }) = TableMsg::decode(msg) {
                    state.totals[0] += 1_000;
                    let sig = south.sign(&Statement::Return(&state).digest(&sid));
                    *msg = TableMsg::Return { state, sig }.encode();
                    resigned += 1;
                }
            }
            Entry::Hand { head, .. } if head.hand_no == 3 => head.totals[0] += 1_000,
            _ => {}
        }
    }
    assert_eq!(resigned, 1, "South's return is in North's file");
    let report = fairdeal_net::transcript::verify(&forged);
    assert!(
        report.faults.iter().any(|f| matches!(
            f.kind,
            FaultKind::ReturnUnconfirmed { .. } | FaultKind::BadEnvelope(_)
        )),
        "a re-totalled return passed: {:?}",
        report.hands
    );

    // The deal North came back in, without East's envelopes: the table's state in the return
    // is South's word, and only West's signatures confirm it; East's are missing.
    let mut deal = None;
    let cut: Vec<_> = honest
        .iter()
        .filter(|at| {
            match &at.entry {
                Entry::Hand { head, .. } => {
                    deal = Some(head.hand_no);
                    return true;
                }
                Entry::Envelope { signed, .. } if deal == Some(3) => {
                    let env: fairdeal_crypto::Envelope =
                        fairdeal_crypto::encoding::decode(&signed.bytes).unwrap();
                    return env.sender != Seat::E.number();
                }
                _ => {}
            }
            true
        })
        .cloned()
        .collect();
    // South's return signed again for the hand after: it gives North nothing back at hand 3,
    // so North's file has hand 3's header where hand 2's must be.
    let mut later = honest.clone();
    for at in &mut later {
        if let Entry::Signed { from, msg } = &mut at.entry
            && *from == south.public()
            && let Ok(TableMsg::Return { mut state, .. }) = TableMsg::decode(msg)
        {
            state.hand_no += 1;
            let sig = south.sign(&Statement::Return(&state).digest(&sid));
            *msg = TableMsg::Return { state, sig }.encode();
        }
    }
    let report = fairdeal_net::transcript::verify(&later);
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::OutOfSequence {
            expected: 2,
            found: 3
        }),
        "{}",
        report.text()
    );

    let report = fairdeal_net::transcript::verify(&cut);
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::ReturnUnconfirmed {
            seat: Seat::N,
            signer: Seat::S,
            missing: vec![Seat::E]
        }),
        "{}",
        report.text()
    );
}

/// East's seed never arrives, and East signs a quit once the play is over instead: the hand
/// is not voided for it (leaving is no way out of a hand already played): the others wait
/// for the seed, vote East out as silent, and count the hand with the forfeit rule's scores,
/// and every file says so.
#[test]
fn a_quit_once_the_play_is_over_forfeits_the_hand_rather_than_voiding_it() {
    use common::net::Net;
    use fairdeal_net::hand::Stage;
    let (peers, _) = common::sim::table("leaving", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.lose = Box::new(|from, _, bytes| from == 3 && common::table::is_reveal(bytes));
    net.run(900_000, &|n| {
        (0..3).all(|i| {
            n.peers[i]
                .hand()
                .is_some_and(|h| h.stage() == Stage::Reveal && h.waiting_on() == [Seat::E])
        })
    });
    assert_eq!(net.peers[0].hand_no(), 1, "still the first hand");
    net.peers[3].quit().unwrap();
    net.collect(3);
    net.deliver();
    net.away[3] = true;
    net.run(300_000, &|n| (0..3).all(|i| n.peers[i].hand_no() > 1));
    east_forfeited_hand_1_everywhere(&net);
    // South's file with the next header as if the quit had voided the hand (same dealer,
    // same totals): a quit once the play is over is no reason to void it.
    let located = common::located(net.files[0].iter().cloned());
    let first = located
        .iter()
        .rev()
        .find_map(|at| match &at.entry {
            Entry::Hand { head, .. } if head.hand_no == 1 => Some(*head),
            _ => None,
        })
        .expect("hand 1's header");
    let mut voided = located;
    for at in &mut voided {
        if let Entry::Hand { head, .. } = &mut at.entry
            && head.hand_no == 2
        {
            head.dealer = first.dealer;
            head.totals = first.totals;
        }
    }
    let report = fairdeal_net::transcript::verify(&voided);
    assert!(
        matches!(
            report.faults.first().map(|f| &f.kind),
            Some(FaultKind::ForfeitVoided { seat: Seat::E, .. })
        ),
        "{}",
        report.text()
    );
}

/// South, West and East all leave during hand 1 (a host whose window ran two computer players
/// leaves with them): each plays the hand out and quits once it is scored, in whatever order
/// the quits arrive. North, the one player left, takes all three seats over (a runner may run
/// several computer players), and the game goes on with hand 2, nobody voted out as silent.
///
/// Sabotage caught (checked): a quit refused once another seat's quit dropped the scored hand
/// leaves West and East to be voted out (never, with no other client to vote); a leaver's
/// last pings taken for its player's return give its seat back to a client that has stopped;
/// a file check that holds a runner to the rule without the seats taken over with it refuses
/// North's file.
#[test]
fn the_last_player_at_the_table_runs_every_seat_the_others_leave() {
    let mut sim = Sim::new();
    sim.play_to_norths_turn();
    let leavers = [0, 1, 3];
    for i in leavers {
        assert_eq!(sim.peers[i].leave_after_hand().unwrap(), Leaving::AfterHand);
    }
    let me = Some(Seat::N);
    sim.step_until(60_000, "North never took the three seats", |s| {
        s.peers[2].runners() == [me, me, None, me]
    });
    // The leavers' clients still flush and answer pings for a moment after their quits: that
    // is not their players coming back.
    for i in leavers {
        let k = sim.keys[i];
        sim.peers[2].heard(k, sim.now);
    }
    sim.step_until(60_000, "hand 2 was never played", |s| s.completed(2) >= 2);
    assert_eq!(
        sim.peers[2].runners(),
        [me, me, None, me],
        "North runs South, West and East"
    );
    assert_eq!(sim.peers[2].proxy_seats().len(), 3);
    assert_eq!(sim.voided(2), 0, "no hand was void");
    assert!(
        !sim.events[2]
            .iter()
            .any(|e| matches!(e, TableEvent::HandForfeited { .. })),
        "nobody forfeited"
    );
    let quitters: Vec<usize> = sim.quits.iter().map(|q| q.0).collect();
    assert_eq!(quitters.len(), 3, "{:?}", sim.quits);
    assert!(
        sim.quits
            .iter()
            .all(|&(_, hand_no, done)| hand_no == 1 && done == 1),
        "each quit once hand 1 was scored: {:?}",
        sim.quits
    );
    // North's file holds the runner the rule picks for every seat taken over.
    let report = fairdeal_net::transcript::verify(&common::located(sim.public[2].iter().cloned()));
    assert!(report.ok(), "{}", report.text());
    assert_eq!(report.hands.len(), 2, "{}", report.text());
    // South's person presses Resume: the seat is theirs again from the next hand.
    sim.back[0] = true;
    sim.step_until(80_000, "South never got its seat back", |s| {
        !s.peers[0].has_left() && s.peers[0].hand().is_some()
    });
    assert_eq!(sim.peers[2].runners()[0], None, "North gave South back");
}

/// South leaves during hand 1 and North, its partner, takes the seat over. South's person
/// presses Resume during hand 2, while North is leaving too: North's client hears South back
/// but quits at the end of the hand, and West (a computer player seated from the lobby, the
/// lowest seat a player plays) takes both seats. South's client still holds North for its
/// runner: West's notice carries North's signed quit, and South takes its seat back from West.
///
/// Sabotage caught (checked): a notice without the quits, or a returning player that takes
/// its seat only from the runner it worked out when it left, leaves South out for good.
#[test]
fn a_player_back_after_its_runner_left_too_gets_its_seat_from_the_new_runner() {
    let mut sim = Sim::new();
    // Computer players think between moves, as at a real table: with nobody left but them
    // they would otherwise play the game out between two of the clock's steps.
    for p in &mut sim.peers {
        p.set_think_ms(1_000);
    }
    sim.play_to_norths_turn();
    assert_eq!(sim.peers[0].leave_after_hand().unwrap(), Leaving::AfterHand);
    sim.step_until(60_000, "North never took South over", |s| {
        s.peers[2].runners()[0] == Some(Seat::N)
    });
    sim.step_until(60_000, "hand 2 was never dealt at North", |s| {
        s.peers[2].hand_no() == 2 && s.peers[2].hand().is_some_and(|h| h.turn_count() > 4)
    });
    assert_eq!(sim.peers[2].leave_after_hand().unwrap(), Leaving::AfterHand);
    sim.back[0] = true;
    sim.step_until(80_000, "South never got its seat back", |s| {
        !s.peers[0].has_left() && s.peers[0].hand().is_some()
    });
    assert!(sim.peers[2].has_left(), "North left");
    assert_eq!(
        sim.peers[1].runners(),
        [None, None, Some(Seat::W), None],
        "West gave South back and runs North"
    );
    let from_west = sim.events[0].iter().any(|e| {
        matches!(
            e,
            TableEvent::SeatBack {
                seat: Seat::S,
                yours: true,
                ..
            }
        )
    });
    assert!(from_west, "South took its seat back");
    sim.step_until(80_000, "South never completed a hand back", |s| {
        s.completed(0) >= 2
    });
    assert_eq!(sim.voided(1), 0, "no hand was void");
}

/// West, a computer player seated from the lobby, leaves during hand 1 (its person's window
/// closed), and North presses "Next hand" the moment hand 1 is scored, before West's quit
/// is out: hand 2 waits for the quit and goes to East's client running West, never to the
/// leaving West.
///
/// Sabotage caught (checked): a computer player seated from the lobby counted ready without
/// its own `Ready` has hand 2 dealt to West, whose quit then voids it.
#[test]
fn a_leaving_computer_player_is_not_dealt_the_next_hand() {
    let mut sim = Sim::new();
    sim.play_to_norths_turn();
    assert_eq!(sim.peers[1].leave_after_hand().unwrap(), Leaving::AfterHand);
    let mut steps = 0;
    while sim.peers[2].hand_no() < 2 || sim.peers[2].hand().is_none_or(|h| h.turn_count() <= 4) {
        sim.step();
        if sim.peers[2].next_hand().is_some_and(|n| !n.ready) {
            sim.peers[2].ready().unwrap();
            sim.deliver();
        }
        steps += 1;
        assert!(steps < 60_000, "hand 2 was never played");
    }
    assert_eq!(
        sim.quits.first().map(|q| (q.0, q.1)),
        Some((1, 1)),
        "West quit hand 1"
    );
    for i in [0, 2, 3] {
        assert_eq!(sim.voided(i), 0, "peer {i}: no hand void");
        assert_eq!(
            sim.peers[i].runners()[1],
            Some(Seat::E),
            "peer {i}: East runs West"
        );
    }
}

/// South leaves mid-hand with the two computer players its window runs (West and East), and
/// North, the one player left, runs all three; then South's person presses Resume, which
/// starts the three again. North gives the three seats back at one hand, each with its own
/// `Return`, and those may arrive in any order (each goes its own way): here each peer's
/// messages arrive last first. Every seat deals the next hand alike and the game goes on.
///
/// Sabotage caught (checked): a runner that signs each `Return` with the table as it is once
/// that seat alone is given back: South hears West's `Return` before its own, refuses it (it
/// thinks North still runs West), and deals under other keys than the others: the table
/// stands still. A notice that carries only the quits of seats still taken over: West, told
/// again once South and East are given back, works out East for its runner and refuses
/// North's notice, and the hand is void for West's silence.
#[test]
fn seats_given_back_at_one_hand_in_any_order_deal_alike() {
    let mut sim = Sim::new();
    sim.three_leave_and_north_runs_them();
    sim.backwards = true;
    sim.three_come_back();
    assert_eq!(
        sim.peers[2].runners(),
        [None; 4],
        "North gave all three back"
    );
    sim.a_hand_scored_everywhere();
    for i in 0..4 {
        let why: Vec<&TableEvent> = sim.events[i]
            .iter()
            .filter(|e| matches!(e, TableEvent::HandVoided { .. }))
            .collect();
        assert_eq!(sim.voided(i), 0, "peer {i}: no hand void: {why:?}");
        assert_eq!(sim.peers[i].totals(), sim.peers[2].totals(), "peer {i}");
    }
}

/// As above, but the three leavers' clients still hear the table for a while after their
/// quits (a window's computer players stop some seconds after their person's node): each
/// hears the other two quit after its own, and one may have taken another over before its
/// own quit. None of them runs a seat once it has left (each is gone itself, with what it
/// ran, and North is the one left to run them all), and when the three come back they take
/// their seats from North and play.
///
/// Sabotage caught (checked): a client that left still taking over the seats that leave
/// after it (South took West and East over, its `Replace`s refused by North), or still
/// holding the computer player it took over before its own quit (East kept West's); a client
/// away judging the other seats' returns by runners it no longer follows, or a player back
/// judging its own return told again by the runner it had (each refused as from a seat that
/// does not run the seat's computer player, a warning in the log at every return).
#[test]
fn clients_that_left_take_no_seat_over_while_they_still_hear_the_table() {
    let mut sim = Sim::new();
    sim.linger = [true, true, false, true];
    sim.three_leave_and_north_runs_them();
    // A few moments more of hearing the table, then the three clients stop.
    for _ in 0..2 {
        sim.step();
    }
    for i in [0, 1, 3] {
        assert!(
            sim.peers[i].proxy_seats().is_empty(),
            "peer {i} left, and runs {:?}",
            sim.peers[i].proxy_seats()
        );
    }
    sim.linger = [false; 4];
    sim.three_come_back();
    sim.a_hand_scored_everywhere();
    for i in 0..4 {
        assert_eq!(sim.voided(i), 0, "peer {i}: no hand void");
        assert_eq!(sim.peers[i].totals(), sim.peers[2].totals(), "peer {i}");
        let report =
            fairdeal_net::transcript::verify(&common::located(sim.public[i].iter().cloned()));
        assert!(report.ok(), "peer {i}: {}", report.text());
    }
    // Nothing North sent was refused as if North did not run what it gave back: a client
    // away takes its own seat's return and lets the others' go as leftovers.
    let not_runner: Vec<&(usize, TableError)> = sim
        .refused
        .iter()
        .filter(|(_, e)| matches!(e, TableError::Unexpected(Unexpected::NotRunner(_))))
        .collect();
    assert!(not_runner.is_empty(), "{not_runner:?}");
}

/// Every honest peer (South, West, North) counted hand 1 as forfeited by East, voided
/// nothing, holds the same totals, and its file says so and checks.
fn east_forfeited_hand_1_everywhere(net: &common::net::Net) {
    for i in 0..3 {
        let voided = net.voided(i);
        assert!(voided.is_empty(), "peer {i} voided {voided:?}");
        assert!(
            net.events[i].iter().any(|e| matches!(
                e,
                TableEvent::HandForfeited {
                    hand_no: 1,
                    seat: Seat::E,
                    ..
                }
            )),
            "peer {i}: {:?}",
            net.events[i]
        );
        assert_eq!(net.peers[i].totals(), net.peers[0].totals(), "peer {i}");
        let report =
            fairdeal_net::transcript::verify(&common::located(net.files[i].iter().cloned()));
        assert!(report.ok(), "peer {i}: {}", report.text());
        assert!(
            matches!(
                report.hands[0].status,
                HandStatus::Forfeited { seat: Seat::E, .. }
            ),
            "peer {i}: {}",
            report.text()
        );
    }
}

/// A modified client quits in the instant the play ends: its `Quit` reaches West and North
/// before the last move does, and South after it. Every peer must end the hand the same
/// way, whatever order the two came in: the quit ends nothing by itself, the last move comes,
/// East's seed does not, and all three vote East out and count the forfeit. (Acting on the
/// quit where it came, West and North voided the hand while South waited for East's seed,
/// and the table stood still.)
#[test]
fn a_quit_that_overtakes_the_last_move_ends_the_hand_one_way_everywhere() {
    use common::net::Net;
    use fairdeal_net::hand::Stage;
    let (peers, _) = common::sim::table("leaving", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    let stage = |n: &Net, i: usize| n.peers[i].hand().map(|h| h.stage());
    // Up to the moment South has taken the last move and West and North have not.
    net.run(900_000, &|n| {
        stage(n, 0) == Some(Stage::Reveal)
            && [1, 2].iter().all(|&i| stage(n, i) == Some(Stage::Play))
    });
    assert_eq!(net.peers[0].hand_no(), 1, "still the first hand");
    assert_eq!(
        stage(&net, 1),
        Some(Stage::Play),
        "West has not the last move"
    );
    net.peers[3].quit().unwrap();
    net.collect(3);
    net.away[3] = true;
    // East's quit overtakes everything on the wire.
    let quits: Vec<_> = net
        .wire
        .iter()
        .filter(|(from, _, b)| {
            *from == 3 && matches!(TableMsg::decode(b), Ok(TableMsg::Quit { .. }))
        })
        .cloned()
        .collect();
    assert_eq!(quits.len(), 3, "East's quit to each seat");
    net.wire.retain(|(from, _, b)| {
        !(*from == 3 && matches!(TableMsg::decode(b), Ok(TableMsg::Quit { .. })))
    });
    for q in quits.into_iter().rev() {
        net.wire.push_front(q);
    }
    net.deliver_until(&|n| [1, 2].iter().all(|&i| stage(n, i) != Some(Stage::Play)));
    assert!(
        [1, 2]
            .iter()
            .all(|&i| stage(&net, i) == Some(Stage::Reveal)),
        "West and North took the last move after the quit, and go on to the reveal"
    );
    net.run(300_000, &|n| (0..3).all(|i| n.peers[i].hand_no() > 1));
    east_forfeited_hand_1_everywhere(&net);
}

/// A modified client quits at its own turn and still answers pings: nobody is thinking at
/// North any more, so its move is due from its quit, and past the grace period the others
/// vote it out (the deal void, said as North leaving) and a computer player takes the seat.
/// Sabotage caught (checked): a quitter's move with no deadline, as a person's has: North
/// is heard, so the hand waits on it for ever.
#[test]
fn a_client_that_quits_at_its_turn_and_still_answers_is_voted_out_after_the_grace_period() {
    use fairdeal_net::table::{DEFAULT_GRACE_MS, Gone};
    let mut sim = Sim::new();
    sim.play_to_norths_turn();
    let t0 = sim.now;
    sim.peers[2].quit().unwrap();
    // Its client keeps running and answering (it is heard at every tick).
    sim.back[2] = true;
    sim.step_until(2_000, "North was never voted out", |s| {
        [0, 1, 3].iter().all(|&i| s.voided(i) == 1)
    });
    assert!(
        sim.now >= t0 + DEFAULT_GRACE_MS,
        "voted out within the grace period"
    );
    for i in [0, 1, 3] {
        assert!(
            sim.events[i].iter().any(|e| matches!(
                e,
                TableEvent::HandVoided {
                    hand_no: 1,
                    seat: Seat::N,
                    why: Gone::Left
                }
            )),
            "peer {i}: {:?}",
            sim.events[i]
        );
    }
    sim.step_until(2_000, "no computer player took North's seat", |s| {
        [0, 1, 3]
            .iter()
            .all(|&i| s.peers[i].runners()[2] == Some(Seat::S))
    });
}
