//! Between hands, on a simulated clock: the next hand waits for the person's "Next hand"
//! (a signed `Ready`), or for the countdown; a `Ready` for another seat or another hand is
//! refused; a log replayed between hands reaches the same hand as the live peer.
//!
//! The harness plays the node's part: it delivers every message, pings, and drives the
//! clock; the person in South plays greedy moves at once but presses "Next hand" only when
//! the test says so.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{HouseRules, Preset, Seat, SplitMix64};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::store::{Meta, Record};
use fairdeal_net::table::msg::{SeatInfo, Statement, TableMsg};
use fairdeal_net::table::{
    Dest, NEXT_HAND_MS, NotNow, ReadyRefused, TableError, TableSession, Unexpected, Why,
};

fn card(i: u8, bot: bool) -> ([u8; 32], SeatInfo) {
    let secret = [i + 81; 32];
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

/// The person's log's description (South, the host).
fn person_meta(info: &SeatInfo) -> Meta {
    Meta {
        role: fairdeal_net::store::Part::Host,
        me: info.clone(),
        bot: None,
        master: [50; 32],
        table: Some((
            "pace".into(),
            Preset::Samba,
            fairdeal_net::table::msg::house_to_json(&house()),
        )),
        host: None,
        hold: false,
        want: None,
        move_clock_ms: 0,
    }
}

fn house() -> HouseRules {
    HouseRules {
        target: Some(20_000),
        ..HouseRules::default()
    }
}

struct Sim {
    peers: Vec<TableSession>,
    keys: Vec<PublicKey>,
    person: Box<dyn Strategy + Send>,
    rng: SplitMix64,
    now: u64,
    /// The person's game log, as its node writes it.
    log: Vec<Record>,
    /// The person's client is gone: it neither pings, nor hears, nor sends.
    away: bool,
}

impl Sim {
    /// A person in South who presses "Next hand", computer players elsewhere.
    fn new() -> Self {
        let (s0, c0) = card(0, false);
        let mut host = fairdeal_net::node::session_from_meta(s0, &person_meta(&c0));
        host.set_wait_for_person(true);
        let log = vec![Record::Meta(Box::new(person_meta(&c0)))];
        let mut peers = vec![host];
        let host_key = peers[0].key();
        for i in 1..4u8 {
            let (s, c) = card(i, true);
            let mut p = TableSession::joiner(s, [50 + i; 32], c, Some("greedy"));
            p.join(host_key);
            peers.push(p);
        }
        let keys = peers.iter().map(TableSession::key).collect();
        Self {
            peers,
            keys,
            person: by_name("greedy").unwrap(),
            rng: SplitMix64::new(3),
            now: 0,
            log,
            away: false,
        }
    }

    fn send_out(&mut self, i: usize, dest: Dest, bytes: &[u8]) {
        if i == 0 {
            self.log.push(Record::Sent {
                bytes: bytes.to_vec(),
            });
        }
        let targets: Vec<usize> = match dest {
            Dest::Peer(k) => self.keys.iter().position(|x| *x == k).into_iter().collect(),
            Dest::Seats => (0..4).filter(|&j| j != i).collect(),
        };
        if self.away && i == 0 {
            return;
        }
        for j in targets {
            if self.away && j == 0 {
                continue;
            }
            let from = self.keys[i];
            if j == 0 && self.peers[0].admit(from, bytes).is_ok() {
                self.log.push(Record::Recv {
                    from: from.0,
                    bytes: bytes.to_vec(),
                });
            }
            let _ = self.peers[j].handle_message(from, bytes);
        }
    }

    /// Delivers until quiet, the person playing every turn of theirs at once.
    fn deliver(&mut self) {
        loop {
            let mut moved = false;
            for i in 0..4 {
                while let Some((dest, bytes)) = self.peers[i].poll_transmit() {
                    moved = true;
                    self.send_out(i, dest, &bytes);
                }
                while self.peers[i].poll_event().is_some() {}
            }
            let p = &mut self.peers[0];
            if !self.away
                && p.hand().is_some_and(|h| h.my_turn())
                && let Some(mv) = p.view().and_then(|v| self.person.choose(&v, &mut self.rng))
            {
                let json = serde_json::to_string(&mv).unwrap();
                p.submit(mv).unwrap();
                self.log.push(Record::Intent { json });
                moved = true;
            }
            if !moved {
                return;
            }
        }
    }

    /// Advances the clock by `ms` (pings, then every peer's timers), and delivers.
    fn tick(&mut self, ms: u64) {
        self.now += ms;
        for i in 0..4 {
            if self.away && i == 0 {
                continue;
            }
            for j in (0..4).filter(|&j| j != i && !(self.away && j == 0)) {
                let k = self.keys[j];
                self.peers[i].heard(k, self.now);
            }
            self.peers[i].handle_timeout(self.now);
        }
        self.deliver();
    }

    /// Plays until every peer has scored hand 1 and waits between hands.
    fn play_to_the_first_score_sheet(&mut self) {
        for _ in 0..10_000 {
            self.tick(1_000);
            if self.peers.iter().all(|p| p.next_hand().is_some()) {
                return;
            }
        }
        panic!("hand 1 was never scored");
    }

    fn hands(&self) -> Vec<u32> {
        self.peers.iter().map(TableSession::hand_no).collect()
    }
}

/// Sabotage caught: dealing at once after the score (the old behaviour) fails the first
/// assertion; ignoring the person's `Ready` fails the last.
#[test]
fn the_next_hand_waits_for_the_persons_next_hand() {
    let mut sim = Sim::new();
    assert_eq!(
        sim.peers[0].ready(),
        Err(NotNow::NoHandScored.into()),
        "no score sheet to leave yet"
    );
    sim.play_to_the_first_score_sheet();
    for _ in 0..20 {
        sim.tick(1_000);
    }
    assert_eq!(
        sim.hands(),
        [1; 4],
        "nobody deals before the person is ready"
    );
    for p in &sim.peers {
        let next = p.next_hand().unwrap();
        assert_eq!(next.after, 1);
        assert_eq!(
            next.waiting,
            [Seat::S],
            "computer players are ready at once"
        );
        let left = next.left_ms.expect("a countdown");
        assert!(left <= NEXT_HAND_MS - 20_000 && left > 0);
    }
    assert!(!sim.peers[0].next_hand().unwrap().ready);
    sim.peers[0].ready().unwrap();
    sim.deliver();
    assert_eq!(
        sim.hands(),
        [2; 4],
        "every peer deals hand 2 once South is ready"
    );
    // (The harness plays a whole hand in one delivery: hand 2 may be scored already.)
    assert!(
        sim.peers
            .iter()
            .all(|p| p.next_hand().is_none_or(|n| n.after == 2))
    );
}

/// Sabotage caught: without the countdown the table waits for ever for a person who walked
/// away from the score sheet.
#[test]
fn the_countdown_deals_the_next_hand_anyway() {
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let mut left = Vec::new();
    while sim.hands() == [1; 4] && left.len() < 100 {
        left.push(
            sim.peers[1]
                .next_hand()
                .unwrap()
                .left_ms
                .expect("a countdown"),
        );
        sim.tick(1_000);
    }
    assert_eq!(sim.hands(), [2; 4], "the countdown ran out everywhere");
    assert!(
        left.windows(2).all(|w| w[1] < w[0]),
        "counts down: {left:?}"
    );
    let waited = left.len() as u64 * 1_000;
    assert!(
        (NEXT_HAND_MS - 2_000..=NEXT_HAND_MS + 2_000).contains(&waited),
        "dealt after the countdown ({waited} ms)"
    );
}

/// Without a countdown (a table of one person and computer players), the score sheet waits
/// for the person however long they read it, and no peer counts down.
///
/// Sabotage caught (checked): with the countdown always on, hand 2 is dealt at 30 s.
#[test]
fn without_a_countdown_the_table_waits_for_the_person() {
    let mut sim = Sim::new();
    for p in &mut sim.peers {
        p.set_next_hand_ms(None);
    }
    sim.play_to_the_first_score_sheet();
    for _ in 0..(3 * NEXT_HAND_MS / 1_000) {
        sim.tick(1_000);
    }
    assert_eq!(
        sim.hands(),
        [1; 4],
        "nobody dealt while the person read the sheet"
    );
    for p in &sim.peers {
        let next = p.next_hand().unwrap();
        assert_eq!(
            (next.left_ms, next.waiting.as_slice()),
            (None, &[Seat::S][..])
        );
    }
    sim.peers[0].ready().unwrap();
    sim.deliver();
    assert_eq!(sim.hands(), [2; 4], "dealt once the person is ready");
}

/// A seat given back that names a seat past 3 (as the seat given back, the dealer, or a
/// runner) does not decode: it is refused as undecodable by the gate and the handler, before
/// anything is read from it, and nothing is applied.
///
/// Sabotage caught: the runners decoded as plain bytes (the message then decodes and is
/// refused for its signature instead).
#[test]
fn a_seat_given_back_that_names_no_seat_does_not_decode() {
    use fairdeal_net::table::msg::{ReturnState, Statement};
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let sid = sim.peers[0].config().unwrap().sid();
    let west = Identity::from_secret(card(1, true).0);
    let state = ReturnState {
        hand_no: 2,
        seat: Seat::N,
        dealer: Seat::W,
        totals: [0, 0],
        prev_result: [0; 32],
        keys: [0, 1, 2, 3].map(|j| sim.keys[j]),
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    // Each case: the state with a field at one seat and at another, and the number past 3
    // written in the byte where they differ (a signed state could not carry it at all).
    let runners = |r| fairdeal_core::SeatMap([None, None, Some(r), None]);
    let base = ReturnState {
        runners: runners(Seat::N),
        seeds: fairdeal_core::SeatMap::default(),
        ..state
    };
    let cases = [
        (
            ReturnState {
                seat: Seat::E,
                ..base.clone()
            },
            7u8,
        ),
        (
            ReturnState {
                dealer: Seat::E,
                ..base.clone()
            },
            4,
        ),
        (
            ReturnState {
                runners: runners(Seat::S),
                seeds: fairdeal_core::SeatMap::default(),
                ..base.clone()
            },
            9,
        ),
    ];
    let sig = west.sign(&Statement::Return(&base).digest(&sid));
    let encode = |state: &ReturnState| {
        TableMsg::Return {
            state: state.clone(),
            sig: sig.clone(),
        }
        .encode()
    };
    for (other, n) in cases {
        let (mut msg, theirs) = (encode(&base), encode(&other));
        let at: Vec<usize> = (0..msg.len()).filter(|&i| msg[i] != theirs[i]).collect();
        assert_eq!(at.len(), 1, "one byte per seat");
        msg[at[0]] = n;
        for j in [0usize, 2, 3] {
            assert_eq!(
                sim.peers[j].admit(sim.keys[1], &msg).map_err(|r| r.why),
                Err(Why::Undecodable),
                "seat {n} at {j}"
            );
            assert!(
                matches!(
                    sim.peers[j].handle_message(sim.keys[1], &msg),
                    Err(TableError::Decode(_))
                ),
                "seat {n} at {j}"
            );
        }
    }
    assert_eq!(sim.peers[2].runners(), [None; 4], "nothing was applied");
}

/// Sabotage caught: a gate or handler that takes a `Ready` on the sender's word for the seat
/// or the hand lets West start the hand for South (the first or second refusal fails).
#[test]
fn a_ready_for_another_seat_or_another_hand_is_refused() {
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let sid = sim.peers[0].config().unwrap().sid();
    let south = Identity::from_secret(card(0, false).0);
    let west = Identity::from_secret(card(1, true).0);
    let ready = |id: &Identity, hand_no: u32, seat: usize| {
        let seat = Seat::from_index(seat);
        TableMsg::Ready {
            hand_no,
            sig: id.sign(&Statement::Ready { hand_no, seat }.digest(&sid)),
        }
        .encode()
    };
    let (south_key, west_key) = (sim.keys[0], sim.keys[1]);
    let hostile = [
        // West sends South's readiness, signed by South (as if passed on).
        (west_key, ready(&south, 1, 0), ReadyRefused::BadSignature),
        // West signs South's readiness itself.
        (west_key, ready(&west, 1, 0), ReadyRefused::BadSignature),
        // South's own, for hands not scored.
        (south_key, ready(&south, 2, 0), ReadyRefused::Ahead),
        (south_key, ready(&south, 0, 0), ReadyRefused::Ahead),
        (south_key, ready(&south, 7, 0), ReadyRefused::Ahead),
        // South's own signature over another seat.
        (south_key, ready(&south, 1, 2), ReadyRefused::BadSignature),
    ];
    for (n, (from, bytes, why)) in hostile.iter().enumerate() {
        for j in 1..4 {
            if sim.keys[j] == *from {
                continue;
            }
            let refused = sim.peers[j].admit(*from, bytes).unwrap_err();
            assert_eq!(refused.why, Why::Ready(*why), "case {n} at {j}");
            assert_eq!(
                sim.peers[j].handle_message(*from, bytes),
                Err(TableError::Unexpected(Unexpected::Ready(*why))),
                "case {n} at {j}"
            );
        }
    }
    sim.deliver();
    assert_eq!(sim.hands(), [1; 4]);
    assert!(
        (1..4).all(|j| sim.peers[j].next_hand().unwrap().waiting == [Seat::S]),
        "still waiting for South"
    );
    // South's real one is taken (once).
    let real = ready(&south, 1, 0);
    assert!(sim.peers[2].admit(south_key, &real).is_ok());
    sim.peers[2].handle_message(south_key, &real).unwrap();
    assert!(
        sim.peers[2].admit(south_key, &real).is_err(),
        "again: stale"
    );
    assert_eq!(sim.peers[2].hand_no(), 2);
}

/// Sabotage caught: a replay that says "ready" by itself, or that never deals what the
/// countdown dealt live, leaves the rebuilt peer at another hand than the live one.
#[test]
fn a_log_replayed_between_hands_reaches_the_hand_the_live_peer_was_at() {
    let secret = card(0, false).0;
    // South pressed "Next hand": the logged Ready deals hand 2 in the replay too.
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let (waiting, _) = fairdeal_net::node::rebuild(secret, &sim.log).unwrap();
    assert_eq!(waiting.hand_no(), 1, "still at the score sheet");
    assert!(
        !waiting.next_hand().unwrap().ready,
        "no Ready the person never gave"
    );
    sim.peers[0].ready().unwrap();
    sim.deliver();
    let (pressed, _) = fairdeal_net::node::rebuild(secret, &sim.log).unwrap();
    assert_eq!(pressed.hand_no(), 2);
    assert_eq!(pressed.view(), sim.peers[0].view());
    // The countdown dealt hand 3: the replay deals it where this peer's first message is.
    while sim.hands()[0] == 2 {
        sim.tick(1_000);
    }
    let live = sim.hands()[0];
    let (rebuilt, _) = fairdeal_net::node::rebuild(secret, &sim.log).unwrap();
    assert_eq!(rebuilt.hand_no(), live);
    assert_eq!(rebuilt.totals(), sim.peers[0].totals());
    assert_eq!(rebuilt.view(), sim.peers[0].view());
}

/// Sabotage caught: a seat that leaves between hands voiding the hand already scored (the
/// old path) makes the scores differ from hand 1's and the transcript's next deal follow a
/// void instead of the scored result, which the transcript check refuses.
#[test]
fn a_seat_that_leaves_between_hands_keeps_the_scored_hand() {
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let scored = sim.peers[0].totals();
    let mut public: Vec<fairdeal_net::transcript::Entry> =
        std::iter::from_fn(|| sim.peers[0].poll_public()).collect();
    // West leaves while the others look at the score sheet; its partner's client takes over.
    sim.peers[1].quit().unwrap();
    sim.deliver();
    for j in [0, 2, 3] {
        assert_eq!(sim.peers[j].hand_no(), 1, "peer {j} still waits for South");
        assert_eq!(sim.peers[j].runners()[1], Some(Seat::E), "East runs West");
    }
    sim.peers[0].ready().unwrap();
    sim.deliver();
    public.extend(std::iter::from_fn(|| sim.peers[0].poll_public()));
    for j in [0, 2, 3] {
        assert!(sim.peers[j].hand_no() >= 2, "peer {j} went on to hand 2");
    }
    let located = common::located(public);
    let report = fairdeal_net::transcript::verify(&located);
    assert!(report.faults.is_empty(), "{:?}", report.faults);
    match &report.hands[0].status {
        fairdeal_net::transcript::HandStatus::Verified { scores, .. } => {
            assert_eq!(*scores, scored, "hand 1 counts as scored");
        }
        other => panic!("hand 1 stands: {other:?}"),
    }
}

/// Sabotage caught: a table that waits only for `Ready` or the countdown keeps the others
/// waiting the whole 30 s for a player whose client is gone.
#[test]
fn a_seat_away_past_the_grace_counts_as_ready() {
    let mut sim = Sim::new();
    for p in &mut sim.peers {
        p.set_grace_ms(5_000);
    }
    sim.play_to_the_first_score_sheet();
    sim.away = true;
    let start = sim.now;
    while sim.hands()[1..] == [1, 1, 1] && sim.now - start < NEXT_HAND_MS {
        sim.tick(1_000);
    }
    let waited = sim.now - start;
    assert!(
        (5_000..NEXT_HAND_MS).contains(&waited),
        "the others dealt hand 2 after the grace, before the countdown ({waited} ms)"
    );
    assert_eq!(sim.hands()[1..], [2, 2, 2]);
}

/// A transcript is read past a signed `Ready` or chat line (peers do not write them there, a
/// later version might), and one whose signature does not check is a fault.
#[test]
fn a_transcript_reads_past_signed_readiness_and_chat() {
    let mut sim = Sim::new();
    sim.play_to_the_first_score_sheet();
    let sid = sim.peers[0].config().unwrap().sid();
    let south = Identity::from_secret(card(0, false).0);
    let public: Vec<fairdeal_net::transcript::Entry> =
        std::iter::from_fn(|| sim.peers[0].poll_public()).collect();
    let ready = TableMsg::Ready {
        hand_no: 1,
        sig: south.sign(
            &Statement::Ready {
                hand_no: 1,
                seat: Seat::S,
            }
            .digest(&sid),
        ),
    };
    let chat = TableMsg::Chat {
        n: 1,
        text: "Good game".into(),
        sig: south.sign(
            &Statement::Chat {
                seat: Seat::S,
                n: 1,
                text: "Good game",
            }
            .digest(&sid),
        ),
    };
    let forged = TableMsg::Ready {
        hand_no: 1,
        sig: south.sign(
            &Statement::Ready {
                hand_no: 1,
                seat: Seat::N,
            }
            .digest(&sid),
        ),
    };
    let check = |extra: &[TableMsg]| {
        let entries = common::located(public.iter().cloned().chain(extra.iter().map(|m| {
            fairdeal_net::transcript::Entry::Signed {
                from: sim.keys[0],
                msg: m.encode(),
            }
        })));
        fairdeal_net::transcript::verify(&entries)
    };
    let plain = check(&[]);
    assert!(plain.faults.is_empty(), "{:?}", plain.faults);
    let read = check(&[ready, chat]);
    assert!(read.faults.is_empty(), "{:?}", read.faults);
    assert_eq!(read.totals, plain.totals);
    assert!(
        !check(&[forged]).faults.is_empty(),
        "a bad signature is a fault"
    );
}
