//! Attacks on a hand between four seats (PROTOCOL.md §9): each is detected, the cheat is
//! named, and no honest seat ever is.

mod common;

use common::*;
use fairdeal_core::{Move, Preset, Seat, SplitMix64};
use fairdeal_crypto::{Body, Fault};
use fairdeal_net::hand::wire::WireAction;
use fairdeal_net::hand::{Event, HandSession, Stage};

/// Asserts that every honest seat blamed exactly `cheat` for `fault`.
fn assert_blamed(events: &[Vec<Event>], cheat: u8, fault: Fault) {
    for (i, es) in events.iter().enumerate() {
        let b = blames(es);
        if i as u8 == cheat {
            continue;
        }
        assert_eq!(b.len(), 1, "seat {i}: {b:?}");
        assert_eq!(
            (b[0].offender, b[0].fault),
            (Seat::try_from(cheat).ok(), fault),
            "seat {i}"
        );
        assert!(!b[0].evidence.is_empty());
    }
}

#[test]
fn attack_12_bad_share_in_the_deal_blames_its_signer() {
    let mut seats = sessions(Preset::Samba, Seat::S, 1);
    let mut first = true;
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(1),
        &mut Wire::default(),
        &mut |from, _, bytes| {
            if from == 1 && first && matches!(body_of(bytes), Body::Shares { .. }) {
                return Some(tamper(bytes, 1, &|b| {
                    if let Body::Shares { items, .. } = b {
                        items[3].d = items[4].d;
                    }
                }));
            }
            if from == 1 && matches!(body_of(bytes), Body::Shares { .. }) {
                first = false;
            }
            Some(bytes.to_vec())
        },
        200,
    );
    assert_blamed(&events, 1, Fault::BadProof);
}

#[test]
fn attack_06_duplicated_ciphertext_blames_the_shuffler() {
    let mut seats = sessions(Preset::Canasta, Seat::N, 2);
    // Dealer N: the order is E, S, W, N; S (seat 0) runs step 2.
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(2),
        &mut Wire::default(),
        &mut |from, _, bytes| {
            if from == 0 && matches!(body_of(bytes), Body::Shuffle(_)) {
                return Some(tamper(bytes, 0, &|b| {
                    if let Body::Shuffle(m) = b {
                        m.deck[7] = m.deck[8];
                    }
                }));
            }
            Some(bytes.to_vec())
        },
        200,
    );
    assert_blamed(&events, 0, Fault::DuplicateCiphertext);
}

#[test]
fn attack_16_a_move_naming_a_card_it_does_not_show_is_illegal() {
    let mut seats = sessions(Preset::DutchSamba, Seat::E, 3);
    let mut swap: Option<(Vec<u8>, Vec<u8>, u8)> = None;
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(3),
        &mut Wire::default(),
        &mut |from, _, bytes| {
            if let Some((orig, new, _)) = &swap {
                return Some(if bytes == orig.as_slice() {
                    new.clone()
                } else {
                    bytes.to_vec()
                });
            }
            if let Body::Move { action, .. } = body_of(bytes)
                && let Ok(WireAction::Play(Move::Discard(c))) = WireAction::decode(&action)
            {
                let other = if c == fairdeal_core::Card::JOKER {
                    "AS".parse().unwrap()
                } else {
                    fairdeal_core::Card::JOKER
                };
                let new = tamper(bytes, from, &|b| {
                    if let Body::Move { action, .. } = b {
                        *action = WireAction::Play(Move::Discard(other)).encode();
                    }
                });
                swap = Some((bytes.to_vec(), new.clone(), from));
                return Some(new);
            }
            Some(bytes.to_vec())
        },
        2_000,
    );
    let cheat = swap.unwrap().2;
    assert_blamed(&events, cheat, Fault::IllegalMove);
}

#[test]
fn attack_17_a_hidden_red_three_is_caught_at_the_audit() {
    let mut caught = 0;
    for salt in 10..30u8 {
        let mut seats = sessions(Preset::Samba, Seat::S, salt);
        seats[3].cheat_conceal_red_threes();
        let events = play(&mut seats, u64::from(salt));
        let honest = [0usize, 1, 2];
        let b: Vec<_> = honest.iter().flat_map(|&i| blames(&events[i])).collect();
        if b.is_empty() {
            // The cheat never held a red three this hand: the hand must then be clean.
            assert!(
                seats.iter().all(|s| s.stage() == Stage::Done),
                "salt {salt}"
            );
            continue;
        }
        assert_eq!(b.len(), 3, "salt {salt}: {b:?}");
        for x in &b {
            assert_eq!(
                (x.offender, x.fault),
                (Some(Seat::E), Fault::HiddenCard),
                "salt {salt}"
            );
        }
        caught += 1;
        if caught == 2 {
            break;
        }
    }
    assert_eq!(
        caught, 2,
        "hidden red threes must have been dealt and caught"
    );
}

/// One seat sends two validly signed versions of one message to different peers: W's
/// commitment to S differs from the one N and E get. Nothing is forwarded by hand here: the
/// seats' audits (seeds, heads, every envelope passed on) bring both versions to every honest
/// seat, and each names W for equivocation, with the two envelopes as evidence; nobody waits.
///
/// Sabotage caught (checked): `pass_on` sending nothing, and `verdict` without the
/// equivocation step (the seats then wait on each other's heads for ever).
#[test]
fn attack_20_two_versions_of_one_message_are_found_by_every_seat() {
    for (kind, salt) in [("commit", 4u8), ("shares", 7)] {
        let mut seats = sessions(Preset::Samba, Seat::W, salt);
        // The message of W's that goes out in two versions.
        let mut target: Option<Vec<u8>> = None;
        let events = play_with(
            &mut seats,
            &mut SplitMix64::new(u64::from(salt)),
            &mut Wire::default(),
            &mut |from, to, bytes| {
                if from != 1 {
                    return Some(bytes.to_vec());
                }
                let wanted = matches!(
                    (body_of(bytes), kind),
                    (Body::HandCommit(_), "commit") | (Body::Shares { .. }, "shares")
                );
                if target.is_none() && wanted {
                    target = Some(bytes.to_vec());
                }
                if target.as_deref() != Some(bytes) || to == 0 {
                    return Some(bytes.to_vec());
                }
                Some(tamper(bytes, 1, &|b| match b {
                    Body::HandCommit(c) => c.seed_commit[0] ^= 1,
                    Body::Shares { items, .. } => items.reverse(),
                    _ => {}
                }))
            },
            2_000,
        );
        for i in [0usize, 2, 3] {
            let b = blames(&events[i]);
            assert_eq!(b.len(), 1, "{kind}: seat {i}: {b:?}");
            assert_eq!(
                (b[0].offender, b[0].fault),
                (Some(Seat::W), Fault::Equivocation),
                "{kind}: seat {i}"
            );
            assert_eq!(b[0].evidence.len(), 2);
            assert_eq!(seats[i].stage(), Stage::Void);
        }
    }
}

#[test]
fn attack_18_21_22_27_replayed_forged_and_foreign_bytes_change_nothing() {
    let mut seats = sessions(Preset::Canasta, Seat::S, 5);
    let mut other_hand: Vec<HandSession> = {
        let cfg = config(Preset::Canasta, Seat::S, 2);
        let t = table(Preset::Canasta);
        sessions_of(&cfg, &t, 9)
    };
    let first = seats[1].poll_transmit().unwrap();
    seats[0].handle_message(&first).unwrap();
    // The exact same bytes again: ignored.
    seats[0].handle_message(&first).unwrap();
    assert!(seats[0].poll_event().is_none());
    // A flipped byte breaks the signature; garbage does not decode; another hand's message
    // belongs to another session. None of it changes anything or blames anyone.
    let mut flipped = first.clone();
    let k = flipped.len() - 70;
    flipped[k] ^= 1;
    assert!(seats[0].handle_message(&flipped).is_err());
    assert!(seats[0].handle_message(&[1, 2, 3]).is_err());
    assert!(seats[0].handle_message(&[]).is_err());
    let foreign = other_hand[1].poll_transmit().unwrap();
    assert!(seats[0].handle_message(&foreign).is_err());
    assert!(seats[0].poll_event().is_none());
    // The hand still completes.
    let mut rest = seats;
    rest[2].handle_message(&first).unwrap();
    rest[3].handle_message(&first).unwrap();
    let events = play(&mut rest, 5);
    assert!(events.iter().all(|e| blames(e).is_empty()));
    assert!(rest.iter().all(|s| s.stage() == Stage::Done));
    let _ = other_hand.pop();
}

#[test]
fn attack_19_reordered_delivery_is_buffered_and_the_hand_completes() {
    let mut seats = sessions(Preset::DutchSamba, Seat::N, 6);
    let mut rng = SplitMix64::new(6);
    let mut pending: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut move_rng = SplitMix64::new(66);
    for _ in 0..200_000 {
        for (i, seat) in seats.iter_mut().enumerate() {
            while let Some(b) = seat.poll_transmit() {
                for j in 0..4 {
                    if j != i {
                        pending.push((j, b.clone()));
                    }
                }
            }
        }
        if !pending.is_empty() {
            // Deliver a random pending message (any sender, any order).
            let (to, b) = pending.swap_remove(rng.below(pending.len()));
            seats[to].handle_message(&b).unwrap();
            continue;
        }
        let mut acted = false;
        for s in seats.iter_mut() {
            while s.poll_event().is_some() {}
            if s.my_turn() {
                let mv = s.view().unwrap().random_legal_move(&mut move_rng).unwrap();
                s.submit(mv).unwrap();
                acted = true;
            }
        }
        if !acted {
            break;
        }
    }
    assert!(
        seats.iter().all(|s| s.stage() == Stage::Done),
        "{:?}",
        seats.iter().map(HandSession::stage).collect::<Vec<_>>()
    );
}

#[test]
fn attack_15_23_a_silent_seat_is_named_by_waiting_on() {
    let mut seats = sessions(Preset::Samba, Seat::S, 7);
    // E (seat 3) goes silent once the shuffle is done: no deal shares.
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(7),
        &mut Wire::default(),
        &mut |from, _, bytes| {
            if from == 3 && matches!(body_of(bytes), Body::Shares { .. }) {
                return None;
            }
            Some(bytes.to_vec())
        },
        200,
    );
    assert!(events.iter().all(|e| blames(e).is_empty()));
    for s in &seats[..3] {
        assert_eq!(s.waiting_on(), vec![Seat::E]);
        assert_eq!(s.stage(), Stage::Deal);
    }
}

#[test]
fn attack_26_a_crashed_seat_restores_from_its_log_and_finishes() {
    let preset = Preset::Canasta;
    let mut seats = sessions(preset, Seat::W, 8);
    let mut wire = Wire::default();
    let mut rng = SplitMix64::new(8);
    let _ = play_with(
        &mut seats,
        &mut rng,
        &mut wire,
        &mut |_, _, b| Some(b.to_vec()),
        40,
    );
    assert_eq!(seats[2].stage(), Stage::Play);
    // N (seat 2) crashes; it restarts from its persisted seed and log.
    let log = seats[2].transcript().to_vec();
    let restored = HandSession::restore(
        config(preset, Seat::W, 1),
        Seat::N,
        identity(2),
        seed(2, 8),
        table(preset),
        &log,
    )
    .unwrap();
    seats[2] = restored;
    // Catch-up: the others resend what they sent (duplicates are ignored).
    for (from, b) in &wire.sent {
        if *from != 2 {
            seats[2].handle_message(b).unwrap();
        }
    }
    let events = play_with(
        &mut seats,
        &mut rng,
        &mut wire,
        &mut |_, _, b| Some(b.to_vec()),
        100_000,
    );
    assert!(
        events.iter().all(|e| blames(e).is_empty()),
        "{:?}",
        events.iter().map(|e| blames(e)).collect::<Vec<_>>()
    );
    assert!(
        seats.iter().all(|s| s.stage() == Stage::Done),
        "{:?} waiting {:?}",
        seats.iter().map(HandSession::stage).collect::<Vec<_>>(),
        seats
            .iter()
            .map(HandSession::waiting_on)
            .collect::<Vec<_>>()
    );
}

/// Fuzzing from valid traffic: the broadcast messages of a real hand, one of them mutated in
/// its body (a byte flipped, cut short, a ciphertext or share copied over another, one share's
/// point given to another share) and re-signed
/// with its sender's key, so that it passes every envelope check. Every honest seat then either
/// finishes the hand with the others, or blames exactly the signer, or waits on the signer
/// alone; none blames another seat. The test counts each outcome and requires both to occur.
///
/// Sabotage caught (checked): `pump` blaming the next seat for a bad shuffle step;
/// `store_share` skipping `verify_share` (a share with another share's point then opens the
/// wrong card, and the seat that completed the deal is blamed instead of the signer).
#[test]
fn mutated_signed_traffic_goes_on_or_blames_the_signer() {
    use proptest::prelude::*;
    use std::cell::Cell;
    const SALT: u8 = 13;
    let preset = Preset::Samba;
    let honest = || sessions(preset, Seat::S, SALT);
    let moves = || SplitMix64::new(u64::from(SALT));
    // The honest hand, once: how many messages it broadcasts.
    let total = {
        let mut seats = honest();
        let mut wire = Wire::default();
        play_with(
            &mut seats,
            &mut moves(),
            &mut wire,
            &mut |_, _, b| Some(b.to_vec()),
            100_000,
        );
        assert!(seats.iter().all(|s| s.stage() == Stage::Done));
        wire.sent.len()
    };
    let (done, blamed, waiting) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    // Each case replays a hand: a few dozen cases, whatever PROPTEST_CASES asks.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .map_or(24, |c: u32| c.min(32));
    // Half the cases hit the commitments and shuffle steps (the first messages), half any.
    let target = prop_oneof![0usize..8, 0..total];
    proptest!(ProptestConfig::with_cases(cases), |(k in target, m in mutation())| {
        let mut seats = honest();
        let mut index = 0usize;
        let mut last: Option<Vec<u8>> = None;
        // (original, mutated, signer)
        let mut changed: Option<(Vec<u8>, Vec<u8>, u8)> = None;
        let events = play_with(
            &mut seats,
            &mut moves(),
            &mut Wire::default(),
            &mut |from, _, bytes| {
                // The receivers of one broadcast are served one after the other.
                if last.as_deref() != Some(bytes) {
                    last = Some(bytes.to_vec());
                    if index == k
                        && let Some(new) = mutate(bytes, from, &m)
                    {
                        changed = Some((bytes.to_vec(), new, from));
                    }
                    index += 1;
                }
                match &changed {
                    Some((orig, new, _)) if orig.as_slice() == bytes => Some(new.clone()),
                    _ => Some(bytes.to_vec()),
                }
            },
            100_000,
        );
        let signer = changed.as_ref().map(|c| c.2);
        let mut roots = Vec::new();
        for (j, s) in seats.iter().enumerate() {
            if Some(j as u8) == signer {
                continue;
            }
            let b = blames(&events[j]);
            prop_assert!(b.len() <= 1, "seat {}: {:?}", j, b);
            if let Some(b) = b.first() {
                prop_assert_eq!(b.offender.map(Seat::number), signer, "seat {} blamed {:?} for {:?} ({:?})", j, b.offender, b.fault, m);
                blamed.set(blamed.get() + 1);
            } else if s.stage() == Stage::Done {
                for e in &events[j] {
                    if let Event::Complete(r) = e {
                        roots.push(r.transcript_root);
                    }
                }
                done.set(done.get() + 1);
            } else {
                prop_assert!(
                    signer.is_some() && s.waiting_on().iter().all(|&w| Some(w.number()) == signer),
                    "seat {} stuck at {:?} waiting on {:?} ({:?})", j, s.stage(), s.waiting_on(), m
                );
                waiting.set(waiting.get() + 1);
            }
        }
        prop_assert!(roots.windows(2).all(|w| w[0] == w[1]), "the finished seats agree");
    });
    eprintln!(
        "mutated hand traffic: {total} messages a hand; honest seats: {} finished, {} blamed the \
         signer, {} waited on it",
        done.get(),
        blamed.get(),
        waiting.get()
    );
    assert!(blamed.get() > 0 && done.get() + waiting.get() > 0);
}

#[test]
fn arbitrary_bytes_never_panic_a_session() {
    use proptest::prelude::*;
    let seats = std::cell::RefCell::new(sessions(Preset::Samba, Seat::S, 11));
    deliver(&mut seats.borrow_mut());
    proptest!(ProptestConfig::with_cases(256), |(bytes in proptest::collection::vec(any::<u8>(), 0..3000))| {
        let _ = seats.borrow_mut()[0].handle_message(&bytes);
    });
    assert!(seats.borrow_mut()[0].poll_event().is_none());
}

#[test]
fn attack_23_refusing_to_reveal_the_seed_leaves_the_hand_waiting_on_that_seat() {
    let mut seats = sessions(Preset::Canasta, Seat::E, 12);
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(12),
        &mut Wire::default(),
        &mut |from, _, bytes| {
            if from == 1 && matches!(body_of(bytes), Body::HandReveal { .. }) {
                return None;
            }
            Some(bytes.to_vec())
        },
        100_000,
    );
    assert!(events.iter().all(|e| blames(e).is_empty()));
    for i in [0usize, 2, 3] {
        assert_eq!(seats[i].stage(), Stage::Reveal);
        assert_eq!(seats[i].waiting_on(), vec![Seat::W]);
    }
}

/// A card shown in a move carries the mover's share with its own proof; West sends a move
/// whose shown card's share is not its own (the basepoint instead, re-signed), hoping the
/// others open a card it does not hold. Every honest seat checks the share before opening
/// anything and names West (bad proof), nobody else.
///
/// Sabotage caught (checked): the shown card's proof checked neither on receipt
/// (`Deck::store_share` with `s == ctx.me` as `s != ctx.me`) nor by `adjudicate` (its
/// `Body::Move` shares skipped): the hand is then void with nobody blamed. Either check alone
/// names West: without the first, the card fails to open, the audit at a fault runs and
/// `adjudicate` finds the bad proof in the signed move (the same verdict).
#[test]
fn attack_13_a_bad_share_on_a_shown_card_blames_the_mover() {
    use curve25519_dalek::constants::RISTRETTO_BASEPOINT_COMPRESSED;
    for salt in 1..=6u8 {
        let mut seats = sessions(Preset::Samba, Seat::S, salt);
        // The same altered message goes to all three (else it is an equivocation).
        let mut target: Option<Vec<u8>> = None;
        let events = play_with(
            &mut seats,
            &mut SplitMix64::new(u64::from(salt)),
            &mut Wire::default(),
            &mut |from, _, bytes| {
                let shows =
                    matches!(body_of(bytes), Body::Move { opened, .. } if !opened.is_empty());
                if from == 1 && shows && target.is_none() {
                    target = Some(bytes.to_vec());
                }
                if target.as_deref() == Some(bytes) {
                    return Some(tamper(bytes, 1, &|b| {
                        if let Body::Move { opened, .. } = b {
                            opened[0].d = RISTRETTO_BASEPOINT_COMPRESSED.to_bytes();
                        }
                    }));
                }
                Some(bytes.to_vec())
            },
            4_000,
        );
        if target.is_some() {
            assert_blamed(&events, 1, Fault::BadProof);
            return;
        }
    }
    panic!("West never showed a card in six hands: the attack was not made");
}
