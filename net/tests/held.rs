//! A held seat is taken only on evidence: a lying seat's `SeatHeld` to a present, honest
//! player (with no votes, its own vote, votes it signed for the other seats, or the genuine
//! votes of an earlier deal) is refused by the gate and the handler alike, and so is its
//! `Return` with totals of its choosing; the hand goes on and nobody honest is voted out.
//! A player who was really away past the grace period, and comes back not knowing it, takes
//! the runner's notice (the signed votes that put it out in the deal it is still in) and gets
//! its seat back at the next hand with the table's totals.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::sim::{Sim, table};
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::{Identity, Sig};
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::table::{DEFAULT_GRACE_MS, SeatHeldRefused, TableEvent, TableSession, Why};
use fairdeal_net::transcript::{self, Entry, MAGIC, Report};

const WEST: usize = 1;
const NORTH: usize = 2;
const EAST: usize = 3;

fn check(entries: &[Entry]) -> Report {
    let mut b = MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    transcript::verify(&transcript::decode(&b).unwrap())
}

/// `seat`'s notice that its seat is held, with `votes` from the deal `hand_no`/`hctx`.
fn held(hand_no: u32, seat: Seat, hctx: [u8; 32], votes: Vec<(Seat, Sig)>) -> Vec<u8> {
    TableMsg::SeatHeld {
        hand_no,
        seat,
        hctx,
        votes,
        quits: Vec::new(),
        outs: Vec::new(),
    }
    .encode()
}

/// `by`'s signed return of `seat` at hand `hand_no`, with totals of its choosing.
fn forged_return(peers: &[TableSession], by: &Identity, seat: Seat, hand_no: u32) -> Vec<u8> {
    let config = peers[0].config().unwrap();
    let state = ReturnState {
        hand_no,
        seat,
        dealer: Seat::S,
        totals: [0, 9_999],
        prev_result: [0; 32],
        keys: config.seats,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig = by.sign(&Statement::Return(&state).digest(&config.sid()));
    TableMsg::Return { state, sig }.encode()
}

/// `bytes` from `from` are refused at `to` by the gate and the handler, and change nothing
/// there (its hand, its totals, its hand number).
fn refused(sim: &mut Sim, from: usize, to: usize, bytes: &[u8]) -> Why {
    let key = sim.keys[from];
    let before = (
        sim.peers[to].hand().map(|h| h.hctx()),
        sim.peers[to].totals(),
        sim.peers[to].hand_no(),
        sim.peers[to].has_left(),
    );
    let why = sim.peers[to].admit(key, bytes).unwrap_err().why;
    assert!(sim.peers[to].handle_message(key, bytes).is_err(), "{why:?}");
    let after = (
        sim.peers[to].hand().map(|h| h.hctx()),
        sim.peers[to].totals(),
        sim.peers[to].hand_no(),
        sim.peers[to].has_left(),
    );
    assert_eq!(before, after, "{why:?} changed nothing");
    sim.drain();
    why
}

/// Sabotage caught (checked): `check_seat_held` taking the teller's word when this peer
/// knows no runner for its seat: the gate stores West's first notice; with the
/// refusals not asserted, North drops its hand at it and then takes West's return with the
/// totals West chose.
#[test]
fn a_lying_seat_cannot_make_a_present_player_drop_its_hand() {
    let (peers, secrets) = table("held", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let sid = sim.peers[0].config().unwrap().sid();
    let west = Identity::from_secret(secrets[WEST]);
    let hand_no = sim.peers[NORTH].hand_no();
    let hctx = sim.peers[NORTH].hand().unwrap().hctx();
    let vote = west.sign(
        &Statement::Timeout {
            hand_no,
            hctx: &hctx,
            seat: Seat::N,
        }
        .digest(&sid),
    );
    // West's word alone; its own vote; its own signature as South's and East's votes too.
    for votes in [
        Vec::new(),
        vec![(Seat::W, vote.clone())],
        vec![
            (Seat::S, vote.clone()),
            (Seat::W, vote.clone()),
            (Seat::E, vote.clone()),
        ],
    ] {
        let why = refused(&mut sim, WEST, NORTH, &held(hand_no, Seat::N, hctx, votes));
        assert_eq!(why, Why::SeatHeld(SeatHeldRefused::Unproved));
    }
    // Nor for a deal North is not in (the votes could only be West's there too).
    let why = refused(
        &mut sim,
        WEST,
        NORTH,
        &held(hand_no + 1, Seat::N, [7; 32], Vec::new()),
    );
    assert_eq!(why, Why::SeatHeld(SeatHeldRefused::Unproved));
    // West's return of North's seat with totals of its choosing.
    let lie = forged_return(&sim.peers, &west, Seat::N, hand_no + 1);
    let why = refused(&mut sim, WEST, NORTH, &lie);
    assert!(matches!(why, Why::Return(_)), "{why:?}");
    // The hand goes on with North in it, to its end, and nobody is voted out.
    sim.run(sim.now + 400 * DEFAULT_GRACE_MS, &|s| {
        s.peers.iter().all(|p| p.reports().len() >= 2)
    });
    for i in 0..4 {
        assert!(
            sim.peers[i].reports().len() >= 2,
            "peer {i} scored two hands"
        );
        assert_eq!(sim.voided(i), Vec::new(), "peer {i}");
        assert_eq!(sim.peers[i].runners(), [None; 4], "peer {i}");
        assert!(
            !sim.has(i, &|e| matches!(e, TableEvent::SeatHeld { .. })),
            "peer {i}"
        );
    }
    sim.same_totals(&[0, 1, 2, 3]);
}

/// East is away past the grace period in the first deal; the others vote it out and West
/// (its partner) runs its computer player. East comes back as it was (a client restarted from
/// its log is the session it was), not knowing it was replaced, and is heard by the others.
fn east_replaced() -> (Sim, Vec<[u8; 32]>, u32, [u8; 32]) {
    let (peers, secrets) = table("held", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let out_at = sim.peers[EAST].hand_no();
    sim.dead[EAST] = true;
    sim.run(sim.now + 20 * DEFAULT_GRACE_MS, &|s| {
        (0..3).all(|i| s.peers[i].runners()[EAST] == Some(Seat::W))
    });
    for i in 0..3 {
        assert_eq!(sim.peers[i].runners()[EAST], Some(Seat::W), "peer {i}");
    }
    let hctx = sim.peers[EAST]
        .hand()
        .expect("East is still in its deal")
        .hctx();
    assert!(!sim.peers[EAST].has_left(), "and does not know it is out");
    // Back: the others hear it at once (the node's pings).
    sim.dead[EAST] = false;
    sim.tick(5_000);
    (sim, secrets, out_at, hctx)
}

/// Sabotage caught (checked): West's notice sent without the votes: East refuses
/// it and is never told its seat is held.
#[test]
fn a_player_voted_out_while_away_learns_it_from_the_votes_and_gets_its_seat_back() {
    let (mut sim, _, out_at, _) = east_replaced();
    sim.run(sim.now + 200 * DEFAULT_GRACE_MS, &|s| {
        s.peers[EAST].hand().is_some() && s.peers[EAST].runners()[EAST].is_none() && {
            s.has(EAST, &|e| matches!(e, TableEvent::SeatBack { .. }))
        }
    });
    assert!(
        sim.has(EAST, &|e| matches!(
            e,
            TableEvent::SeatHeld { seat: Seat::E }
        )),
        "East is told its seat is held"
    );
    assert!(
        sim.has(EAST, &|e| matches!(
            e,
            TableEvent::SeatBack {
                seat: Seat::E,
                yours: true,
                ..
            }
        )),
        "East gets its seat back, and is told it is its own"
    );
    for i in 0..3 {
        assert!(
            !sim.has(i, &|e| matches!(
                e,
                TableEvent::SeatBack { yours: true, .. }
            )),
            "peer {i} is told the seat is its own"
        );
    }
    let back_at = sim.peers[EAST].hand_no();
    assert!(back_at > out_at, "from a later hand ({out_at} → {back_at})");
    for i in 0..4 {
        assert_eq!(sim.peers[i].hand_no(), back_at, "peer {i}");
        assert_eq!(sim.peers[i].runners()[EAST], None, "peer {i}");
    }
    sim.same_totals(&[0, 1, 2, 3]);
    let scored = sim.peers[EAST].reports().len();
    sim.run(sim.now + 400 * DEFAULT_GRACE_MS, &|s| {
        s.peers[EAST].reports().len() > scored
    });
    assert!(
        sim.peers[EAST].reports().len() > scored,
        "the hand with East back is scored"
    );
    sim.same_totals(&[0, 1, 2, 3]);
    // Every peer but East voted East out once, and nobody else.
    for i in 0..3 {
        assert_eq!(sim.voided(i).len(), 1, "peer {i}: {:?}", sim.voided(i));
    }
    // East's transcript shows the votes that put it out and the runner's return.
    let report = check(&sim.files[EAST]);
    assert!(report.ok(), "{}", report.text());
}

/// Sabotage caught (checked): `held_by` kept once the seat is back and a
/// `Return` for a later hand taken by a player that plays its seat: the gate stores West's
/// return with its chosen totals (either one alone is still refused by the other).
#[test]
fn the_votes_of_an_earlier_deal_and_an_old_runners_return_change_nothing() {
    let (mut sim, secrets, out_at, hctx) = east_replaced();
    // The genuine notice: the three votes that put East out (signatures are deterministic).
    let sid = sim.peers[0].config().unwrap().sid();
    let votes = (0..3)
        .map(|v| {
            let by = Identity::from_secret(secrets[v]);
            (
                Seat::from_index(v),
                by.sign(
                    &Statement::Timeout {
                        hand_no: out_at,
                        hctx: &hctx,
                        seat: Seat::E,
                    }
                    .digest(&sid),
                ),
            )
        })
        .collect();
    let notice = held(out_at, Seat::E, hctx, votes);
    sim.run(sim.now + 200 * DEFAULT_GRACE_MS, &|s| {
        s.has(EAST, &|e| matches!(e, TableEvent::SeatBack { .. })) && s.peers[EAST].hand().is_some()
    });
    assert!(sim.peers[EAST].hand().is_some(), "East plays again");
    // The same notice again, and West's return of East's seat with its chosen totals.
    let why = refused(&mut sim, WEST, EAST, &notice);
    assert_eq!(why, Why::SeatHeld(SeatHeldRefused::Past));
    let west = Identity::from_secret(secrets[WEST]);
    let next = sim.peers[EAST].hand_no() + 1;
    let lie = forged_return(&sim.peers, &west, Seat::E, next);
    let why = refused(&mut sim, WEST, EAST, &lie);
    assert!(matches!(why, Why::Return(_)), "{why:?}");
    let scored = sim.peers[EAST].reports().len();
    sim.run(sim.now + 400 * DEFAULT_GRACE_MS, &|s| {
        s.peers[EAST].reports().len() > scored
    });
    assert!(
        sim.peers[EAST].reports().len() > scored,
        "East's hand is scored"
    );
    for i in 0..3 {
        assert_eq!(sim.voided(i).len(), 1, "peer {i}: only the first void");
    }
    sim.same_totals(&[0, 1, 2, 3]);
}

/// A player whose seat a computer player holds is still at the table for its friends: a line
/// it says (before and after it learns it is out) is shown by every other seat, from its seat.
///
/// Sabotage caught (checked): with chat taken only from the keys that play the seats, the
/// others refused East's lines as "not seated" while East's window showed them sent.
#[test]
fn a_player_whose_seat_is_held_still_chats() {
    let (mut sim, _, _, _) = east_replaced();
    let said = |sim: &Sim, i: usize, text: &str| {
        sim.has(
            i,
            &|e| matches!(e, TableEvent::Chat(line) if line.seat == Seat::E && line.text == text),
        )
    };
    sim.peers[EAST].say("sorry, my wifi").unwrap();
    while sim.round() {}
    for i in 0..3 {
        assert!(
            said(&sim, i, "sorry, my wifi"),
            "peer {i} shows East's line"
        );
    }
    sim.run(sim.now + 200 * DEFAULT_GRACE_MS, &|s| {
        s.has(EAST, &|e| {
            matches!(e, TableEvent::SeatHeld { seat: Seat::E })
        })
    });
    sim.peers[EAST].say("I am back next hand").unwrap();
    while sim.round() {}
    for i in 0..3 {
        assert!(
            said(&sim, i, "I am back next hand"),
            "peer {i} shows East's line while its seat is held"
        );
    }
}
