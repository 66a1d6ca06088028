//! A shuffle step is taken before its proof is checked (so that the proof checks of the
//! chain are not in series with the proofs). What must still hold, the checks run in the
//! session or handed out to the caller (`set_offload`): the next shuffler builds on a step
//! before its proof is checked, no share of any card is sent before every step's proof
//! passed, a bad step names its own shuffler; handed out, each seat's checks are exactly the
//! other three seats' steps, and a result it did not ask for is ignored.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::*;
use fairdeal_core::{Preset, Seat, SplitMix64};
use fairdeal_crypto::{Body, Fault};
use fairdeal_net::hand::{CheckDone, Event, HandSession, ProofCheck, Stage};

/// Delivers until nothing moves. The checks that offloading seats hand out (taken after each
/// round of deliveries) are held until no message moves, then run and given back in the reverse order (the order must not matter);
/// `handed` records (seat, step) of each. Returns each seat's events.
fn run(
    seats: &mut [HandSession],
    wire: &mut Wire,
    filter: Filter<'_>,
    handed: &mut Vec<(usize, u8)>,
) -> Vec<Vec<Event>> {
    let mut events = vec![Vec::new(); seats.len()];
    let mut rng = SplitMix64::new(3);
    let mut held: Vec<(usize, ProofCheck)> = Vec::new();
    for _ in 0..400 {
        let mut moved = false;
        loop {
            let round = deliver_with(seats, wire, filter);
            held.extend(take_checks(seats, handed));
            if !round {
                break;
            }
            moved = true;
        }
        let ran = !moved && !held.is_empty();
        if ran {
            for (i, check) in held.drain(..).rev() {
                seats[i].check_done(&check.run());
            }
        }
        for (i, s) in seats.iter_mut().enumerate() {
            while let Some(e) = s.poll_event() {
                events[i].push(e);
            }
        }
        let mut acted = false;
        for s in seats.iter_mut() {
            if s.my_turn()
                && let Some(mv) = s.view().unwrap().random_legal_move(&mut rng)
            {
                s.submit(mv).unwrap();
                acted = true;
            }
        }
        if !moved && !ran && !acted {
            break;
        }
    }
    events
}

/// The checks each seat hands out now, recorded in `handed`.
fn take_checks(
    seats: &mut [HandSession],
    handed: &mut Vec<(usize, u8)>,
) -> Vec<(usize, ProofCheck)> {
    let mut out = Vec::new();
    for (i, s) in seats.iter_mut().enumerate() {
        while let Some(check) = s.poll_check() {
            handed.push((i, check.id().step));
            out.push((i, check));
        }
    }
    out
}

fn offloading(preset: Preset, dealer: Seat, salt: u8) -> Vec<HandSession> {
    let mut seats = sessions(preset, dealer, salt);
    for s in &mut seats {
        s.set_offload(true);
    }
    seats
}

fn shares_sent_by(wire: &Wire, seat: u8) -> usize {
    wire.sent
        .iter()
        .filter(|(f, b)| *f == seat && matches!(body_of(b), Body::Shares { .. }))
        .count()
}

/// With dealer S (seat 0) the steps are by seats 1, 2, 3, 0. Offloaded, every step goes out
/// while no check has run; each seat hands out the checks of the other three steps and sends
/// no share until all three results are in; a result for another seat, a repeat, or none at
/// all leaves it waiting; given them, the hand completes.
///
/// Sabotage caught (checked): `checks_passed` true while results are out: shares go out
/// before the checks ran.
#[test]
fn handed_out_checks_are_the_other_seats_steps_and_the_deal_waits_for_them() {
    let mut seats = offloading(Preset::Samba, Seat::S, 7);
    let mut wire = Wire::default();
    let mut pass = |_: u8, _: usize, b: &[u8]| Some(b.to_vec());
    while deliver_with(&mut seats, &mut wire, &mut pass) {}
    let mut handed = Vec::new();
    let mut held = take_checks(&mut seats, &mut handed);
    let steps: Vec<u8> = wire
        .sent
        .iter()
        .filter_map(|(_, b)| match body_of(b) {
            Body::Shuffle(m) => Some(m.step),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps,
        vec![1, 2, 3, 4],
        "every step went out before any check ran"
    );
    // Dealer S: seat 0 makes step 4, seats 1, 2, 3 steps 1, 2, 3.
    for (i, own) in [4u8, 1, 2, 3].into_iter().enumerate() {
        let mut mine: Vec<u8> = handed
            .iter()
            .filter(|(s, _)| *s == i)
            .map(|(_, k)| *k)
            .collect();
        mine.sort_unstable();
        let others: Vec<u8> = (1..=4).filter(|&k| k != own).collect();
        assert_eq!(mine, others, "seat {i} checks the other seats' steps");
        assert_eq!(
            shares_sent_by(&wire, i as u8),
            0,
            "seat {i} sent no share yet"
        );
    }
    // Seat 2 is given every result but its last one, then seat 1's result for that step
    // (another seat's), and a repeat of one it had: it still waits.
    let last = held.iter().rposition(|(i, _)| *i == 2).unwrap();
    let (_, kept) = held.remove(last);
    for (i, check) in held.iter().filter(|(i, _)| *i == 2) {
        seats[*i].check_done(&check.run());
    }
    let theirs = held
        .iter()
        .find(|(i, c)| *i == 1 && c.id().step == kept.id().step)
        .map(|(_, c)| c.run())
        .unwrap();
    seats[2].check_done(&theirs);
    let repeat = held
        .iter()
        .find(|(i, _)| *i == 2)
        .map(|(_, c)| c.run())
        .unwrap();
    seats[2].check_done(&repeat);
    while deliver_with(&mut seats, &mut wire, &mut pass) {}
    assert_eq!(
        shares_sent_by(&wire, 2),
        0,
        "seat 2 waits for its last result"
    );
    seats[2].check_done(&kept.run());
    while deliver_with(&mut seats, &mut wire, &mut pass) {}
    assert!(
        shares_sent_by(&wire, 2) > 0,
        "seat 2 deals once every result is in"
    );
    for (i, check) in held.into_iter().filter(|(i, _)| *i != 2) {
        seats[i].check_done(&check.run());
    }
    let events = run(&mut seats, &mut wire, &mut pass, &mut handed);
    for (i, es) in events.iter().enumerate() {
        assert!(blames(es).is_empty(), "seat {i}: {:?}", blames(es));
        assert_eq!(seats[i].stage(), Stage::Done, "seat {i}");
    }
    assert_eq!(
        handed.len(),
        12,
        "three checks a seat, none handed out twice"
    );
}

/// A failed result names the step's shuffler, whoever's step it is; a passing result forged
/// for another hand is ignored.
#[test]
fn a_failed_result_names_the_shuffler_and_another_hands_result_is_ignored() {
    let mut seats = offloading(Preset::Canasta, Seat::E, 9);
    let mut wire = Wire::default();
    while deliver_with(&mut seats, &mut wire, &mut |_, _, b| Some(b.to_vec())) {}
    let mut handed = Vec::new();
    let held = take_checks(&mut seats, &mut handed);
    let (i, check) = held.iter().find(|(i, _)| *i == 0).unwrap();
    let mut other = check.run();
    other.id.hctx[0] ^= 1;
    other.outcome = Err(Fault::BadShuffleProof);
    seats[*i].check_done(&other);
    while deliver_with(&mut seats, &mut wire, &mut |_, _, b| Some(b.to_vec())) {}
    assert_ne!(
        seats[*i].stage(),
        Stage::Audit,
        "another hand's result is ignored"
    );
    assert_ne!(
        seats[*i].stage(),
        Stage::Void,
        "another hand's result is ignored"
    );
    let failed = CheckDone {
        id: check.id(),
        outcome: Err(Fault::BadShuffleProof),
    };
    let i = *i;
    seats[i].check_done(&failed);
    while deliver_with(&mut seats, &mut wire, &mut |_, _, b| Some(b.to_vec())) {}
    let b = blames(&drain(&mut seats[i]));
    let shuffler = wire
        .sent
        .iter()
        .find(|(_, b)| matches!(body_of(b), Body::Shuffle(m) if m.step == check.id().step))
        .map(|(from, _)| *from)
        .unwrap();
    assert_ne!(shuffler, 0, "seat 0 checks only the others' steps");
    assert_eq!(b.len(), 1, "{b:?}");
    assert_eq!(
        (b[0].offender, b[0].fault),
        (Seat::try_from(shuffler).ok(), Fault::BadShuffleProof)
    );
}

fn drain(s: &mut HandSession) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

/// Seat 3 (step 3) copies a card of its output over another, keeping the proof of the honest
/// step. Seat 0, the next shuffler, sends step 4 built on it first; then every honest seat's
/// check of step 3 fails and names seat 3; no honest seat sends a share of any card.
///
/// Sabotage caught (checked): `ProofCheck::run` passing without the proof check: seat 0
/// then deals on the bad deck and sends shares (and blames nobody, or the wrong seat).
#[test]
fn a_bad_step_built_on_first_names_its_shuffler_before_any_share() {
    for offload in [false, true] {
        let (preset, dealer) = (Preset::DutchSamba, Seat::S);
        let mut seats = if offload {
            offloading(preset, dealer, 5)
        } else {
            sessions(preset, dealer, 5)
        };
        seats[3].cheat_copy_card(10, 20);
        let mut wire = Wire::default();
        let mut handed = Vec::new();
        let events = run(
            &mut seats,
            &mut wire,
            &mut |_, _, bytes| Some(bytes.to_vec()),
            &mut handed,
        );
        let bodies: Vec<(u8, Body)> = wire.sent.iter().map(|(f, b)| (*f, body_of(b))).collect();
        assert!(
            bodies
                .iter()
                .any(|(f, b)| *f == 0 && matches!(b, Body::Shuffle(m) if m.step == 4)),
            "seat 0 sent step 4 before it checked step 3 (offload: {offload})"
        );
        assert!(
            !bodies
                .iter()
                .any(|(f, b)| *f != 3 && matches!(b, Body::Shares { .. })),
            "no honest seat sent a share (offload: {offload})"
        );
        for (i, es) in events.iter().enumerate().filter(|(i, _)| *i != 3) {
            let b = blames(es);
            assert_eq!(b.len(), 1, "seat {i}: {b:?}");
            assert_eq!(
                (b[0].offender, b[0].fault),
                (Some(Seat::E), Fault::BadShuffleProof),
                "seat {i} (offload: {offload})"
            );
            assert!(!es.contains(&Event::Dealt), "seat {i} was dealt a bad deck");
            assert_eq!(seats[i].stage(), Stage::Void);
        }
        if offload {
            assert!(
                handed.contains(&(0, 3)),
                "seat 0 was handed step 3 to check: {handed:?}"
            );
        } else {
            assert!(handed.is_empty(), "nothing is handed out unless asked for");
        }
    }
}
