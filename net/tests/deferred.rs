//! The next shuffler builds on a step before checking its proof (issue 12: the proof checks
//! of the chain are not in series with the proofs). What must still hold: the step it builds
//! on is checked before this seat takes anything else, no share of any card is sent before
//! every step is checked, a bad step names its own shuffler, and with `set_yield` the session
//! stops right after sending its step until `proceed`.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::*;
use fairdeal_core::{Preset, Seat, SplitMix64};
use fairdeal_crypto::{Body, Fault};
use fairdeal_net::hand::{Event, HandSession, Stage};

/// Delivers until nothing moves; a seat that stopped after its shuffle step goes on only
/// once its output was delivered. Returns each seat's events and, in order, every
/// (sender, body) sent; `paused` records each seat's step number it stopped after.
fn run(
    seats: &mut [HandSession],
    wire: &mut Wire,
    filter: Filter<'_>,
    paused: &mut Vec<(usize, u8)>,
) -> Vec<Vec<Event>> {
    let mut events = vec![Vec::new(); seats.len()];
    let mut rng = SplitMix64::new(3);
    for _ in 0..400 {
        // Everything out is delivered first: a stopped seat's step included.
        let mut moved = false;
        while deliver_with(seats, wire, filter) {
            moved = true;
        }
        let mut went_on = false;
        for (i, s) in seats.iter_mut().enumerate() {
            if s.is_paused() {
                // Its last message out is the step it stopped after.
                let (_, last) = wire
                    .sent
                    .iter()
                    .rfind(|(from, _)| usize::from(*from) == i)
                    .unwrap();
                let Body::Shuffle(m) = body_of(last) else {
                    panic!("seat {i} stopped after a message that is not its shuffle step");
                };
                paused.push((i, m.step));
                s.proceed();
                went_on = true;
            }
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
        if !moved && !went_on && !acted {
            break;
        }
    }
    events
}

fn yielding(preset: Preset, dealer: Seat, salt: u8) -> Vec<HandSession> {
    let mut seats = sessions(preset, dealer, salt);
    for s in &mut seats {
        s.set_yield(true);
    }
    seats
}

/// With dealer S (seat 0) the steps are by seats 1, 2, 3, 0: each of seats 2, 3 and 0 builds
/// on the step before its own.
#[test]
fn each_shuffler_stops_after_its_step_and_the_hand_completes() {
    let mut seats = yielding(Preset::Samba, Seat::S, 7);
    let mut paused = Vec::new();
    let events = run(
        &mut seats,
        &mut Wire::default(),
        &mut |_, _, b| Some(b.to_vec()),
        &mut paused,
    );
    paused.sort_by_key(|&(_, step)| step);
    assert_eq!(
        paused,
        vec![(1, 1), (2, 2), (3, 3), (0, 4)],
        "one stop per step"
    );
    for (i, es) in events.iter().enumerate() {
        assert!(blames(es).is_empty(), "seat {i}: {:?}", blames(es));
        assert!(es.contains(&Event::Dealt), "seat {i} was dealt");
        assert_eq!(seats[i].stage(), Stage::Done, "seat {i}");
    }
}

/// Seat 3 (step 3) swaps two cards of its output, keeping its proof. Seat 0, the next
/// shuffler, sends step 4 built on it first, then checks step 3 and names seat 3; nobody
/// sends a share of any card.
///
/// Sabotage caught (checked): `check_unchecked` returning `Ok(())` without the proof check:
/// seat 0 then deals on the bad deck and sends shares (and blames nobody, or the wrong seat).
#[test]
fn a_bad_step_built_on_first_names_its_shuffler_before_any_share() {
    for yields in [false, true] {
        let (preset, dealer) = (Preset::DutchSamba, Seat::S);
        let mut seats = if yields {
            yielding(preset, dealer, 5)
        } else {
            sessions(preset, dealer, 5)
        };
        let mut wire = Wire::default();
        let mut paused = Vec::new();
        let events = run(
            &mut seats,
            &mut wire,
            &mut |from, _, bytes| match body_of(bytes) {
                Body::Shuffle(_) if from == 3 => Some(tamper(bytes, 3, &|b| {
                    if let Body::Shuffle(m) = b {
                        m.deck.swap(10, 20);
                    }
                })),
                _ => Some(bytes.to_vec()),
            },
            &mut paused,
        );
        let bodies: Vec<(u8, Body)> = wire.sent.iter().map(|(f, b)| (*f, body_of(b))).collect();
        assert!(
            bodies
                .iter()
                .any(|(f, b)| *f == 0 && matches!(b, Body::Shuffle(m) if m.step == 4)),
            "seat 0 sent step 4 before it checked step 3 (yields: {yields})"
        );
        assert!(
            !bodies.iter().any(|(_, b)| matches!(b, Body::Shares { .. })),
            "no share was sent (yields: {yields})"
        );
        for (i, es) in events.iter().enumerate().filter(|(i, _)| *i != 3) {
            let b = blames(es);
            assert_eq!(b.len(), 1, "seat {i}: {b:?}");
            assert_eq!(
                (b[0].offender, b[0].fault),
                (Some(3), Fault::BadShuffleProof),
                "seat {i} (yields: {yields})"
            );
            assert!(!es.contains(&Event::Dealt), "seat {i} was dealt a bad deck");
            assert_eq!(seats[i].stage(), Stage::Void);
        }
        if yields {
            assert!(paused.contains(&(0, 4)), "seat 0 stopped after step 4");
        } else {
            assert!(paused.is_empty(), "no stop unless asked for");
        }
    }
}

/// A stopped session takes what arrives meanwhile but does nothing with it until `proceed`.
#[test]
fn a_stopped_session_queues_what_arrives_until_it_goes_on() {
    let mut seats = yielding(Preset::Canasta, Seat::E, 9);
    // Commitments, then step 1 (seat 2, left of E): delivered until seat 2 has stopped.
    let mut wire = Wire::default();
    while !seats[2].is_paused() {
        assert!(
            deliver_with(&mut seats, &mut wire, &mut |_, _, b| Some(b.to_vec())),
            "seat 2 never stopped after its step"
        );
    }
    let before = seats[2].progress();
    // Step 1 reaches seat 3, which builds step 2 on it and stops in turn; step 2 reaches
    // seat 2, still stopped: it is queued, not taken.
    for _ in 0..3 {
        deliver_with(&mut seats, &mut wire, &mut |_, _, b| Some(b.to_vec()));
    }
    assert!(seats[3].is_paused(), "seat 3 stopped after step 2");
    assert_eq!(
        seats[2].progress(),
        before,
        "nothing was taken while stopped"
    );
    seats[2].proceed();
    assert!(seats[2].progress() > before, "it goes on once asked");
}
