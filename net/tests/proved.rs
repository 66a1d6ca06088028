//! Proved shuffles at session level: the cheats on the deck that the covert scheme only
//! catches at the audit are refused when the step arrives, every honest seat names the
//! shuffler, and `adjudicate` reaches the same verdict from each seat's evidence alone. And
//! card identities: at a covert table a card that opens twice is a fault at once.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::*;
use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use fairdeal_core::{Preset, Rules, Seat, SplitMix64};
use fairdeal_crypto::group::decompress;
use fairdeal_crypto::{Body, Ciphertext, Court, CtBytes, Fault, ProofMode, ShuffleMsg, adjudicate};
use fairdeal_net::hand::{Event, HandSession, Stage};

/// Plays a hand in which `cheat` rewrites its shuffle message with `f` (given the joint key).
fn play_cheating(
    preset: Preset,
    dealer: Seat,
    cheat: u8,
    f: &dyn Fn(&mut ShuffleMsg, &RistrettoPoint),
) -> (Vec<HandSession>, Vec<Vec<Event>>) {
    let mut seats = sessions(preset, dealer, 5);
    let mut keys = std::collections::BTreeMap::new();
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(5),
        &mut Wire::default(),
        &mut |from, _, bytes| match body_of(bytes) {
            Body::HandCommit(c) => {
                keys.insert(from, decompress(&c.key).unwrap());
                Some(bytes.to_vec())
            }
            Body::Shuffle(_) if from == cheat => {
                let joint: RistrettoPoint = keys.values().sum();
                Some(tamper(bytes, cheat, &|b| {
                    if let Body::Shuffle(m) = b {
                        f(m, &joint);
                    }
                }))
            }
            _ => Some(bytes.to_vec()),
        },
        300,
    );
    (seats, events)
}

/// Every honest seat blamed `cheat` for `fault`, and `adjudicate` says the same from that
/// seat's evidence.
fn assert_named(
    preset: Preset,
    dealer: Seat,
    seats: &[HandSession],
    events: &[Vec<Event>],
    cheat: u8,
    fault: Fault,
) {
    let table = table(preset);
    let keys = config(preset, dealer, 1).keys;
    let d = dealer.index() as u8;
    for (i, es) in events.iter().enumerate() {
        if i as u8 == cheat {
            continue;
        }
        let b = blames(es);
        assert_eq!(b.len(), 1, "seat {i}: {b:?}");
        assert_eq!(
            (b[0].offender, b[0].fault),
            (Seat::try_from(cheat).ok(), fault),
            "seat {i}"
        );
        assert_eq!(seats[i].stage(), Stage::Void);
        assert!(
            !es.contains(&Event::Dealt),
            "seat {i} built on the bad deck"
        );
        let hctx = seats[i].hctx();
        let court = Court {
            sid: &hctx,
            keys: &keys,
            hctx: &hctx,
            order: [1, 2, 3, 4].map(|k| (d + k) % 4),
            table: &table,
            mode: ProofMode::Proved,
        };
        let v = adjudicate(&court, &b[0].evidence);
        assert_eq!(
            (v.offender, v.fault),
            (Some(cheat), Some(fault)),
            "seat {i}"
        );
    }
}

fn rerandomise(ct: &CtBytes, joint: &RistrettoPoint, r: u8) -> CtBytes {
    let c = ct.decompress().unwrap();
    let r = Scalar::from(r);
    Ciphertext {
        c1: c.c1 + r * RISTRETTO_BASEPOINT_POINT,
        c2: c.c2 + r * joint,
    }
    .to_bytes()
}

#[test]
fn the_dealer_copying_an_opponents_card_into_its_hand_is_named_at_once() {
    // Dealer W (seat 1) shuffles last; position 0 goes to N (seat 2), 3 to the dealer.
    let (preset, dealer) = (Preset::Samba, Seat::W);
    let (seats, events) = play_cheating(preset, dealer, 1, &|m, joint| {
        if m.step == 4 {
            m.deck[3] = rerandomise(&m.deck[0], joint, 41);
        }
    });
    assert_named(preset, dealer, &seats, &events, 1, Fault::BadShuffleProof);
}

#[test]
fn planting_a_wild_card_or_substituting_the_upcard_is_named_at_once() {
    let (preset, dealer) = (Preset::Canasta, Seat::S);
    let upcard = Rules::preset(preset).hand_size * 4;
    let joker = table(preset).point(53).unwrap();
    for (pos, cheat) in [(7usize, 0u8), (upcard, 0)] {
        let (seats, events) = play_cheating(preset, dealer, cheat, &|m, joint| {
            let r = Scalar::from(5u8);
            m.deck[pos] = Ciphertext {
                c1: r * RISTRETTO_BASEPOINT_POINT,
                c2: joker + r * joint,
            }
            .to_bytes();
        });
        assert_named(
            preset,
            dealer,
            &seats,
            &events,
            cheat,
            Fault::BadShuffleProof,
        );
    }
}

#[test]
fn a_proof_for_another_deck_is_named_at_once() {
    // Seat 3 (step 3 with dealer S) swaps two cards of its own output, keeping its proof: a
    // valid shuffle, but not the one proved.
    let (preset, dealer) = (Preset::DutchSamba, Seat::S);
    let (seats, events) = play_cheating(preset, dealer, 3, &|m, _| m.deck.swap(10, 20));
    assert_named(preset, dealer, &seats, &events, 3, Fault::BadShuffleProof);
}

#[test]
fn a_step_without_its_proof_is_refused() {
    let (preset, dealer) = (Preset::Samba, Seat::E);
    let (seats, events) = play_cheating(preset, dealer, 2, &|m, _| m.proof = None);
    assert_named(preset, dealer, &seats, &events, 2, Fault::ProofMode);
}

#[test]
fn a_covert_table_plays_without_proofs_and_refuses_one() {
    let preset = Preset::Canasta;
    let mut cfg = config(preset, Seat::N, 1);
    cfg.proofs = ProofMode::Covert;
    let t = table(preset);
    let mut seats: Vec<HandSession> = sessions_of(&cfg, &t, 9);
    let mut proofs_seen = 0;
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(9),
        &mut Wire::default(),
        &mut |_, _, bytes| {
            if let Body::Shuffle(m) = body_of(bytes)
                && m.proof.is_some()
            {
                proofs_seen += 1;
            }
            Some(bytes.to_vec())
        },
        100_000,
    );
    assert_eq!(proofs_seen, 0);
    assert!(events.iter().all(|es| blames(es).is_empty()));
    assert!(seats.iter().all(|s| s.stage() == Stage::Done));
    // A proof sent to the covert table is refused as a mode violation.
    let mut seats: Vec<HandSession> = sessions_of(&cfg, &t, 9);
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(9),
        &mut Wire::default(),
        &mut |from, _, bytes| match body_of(bytes) {
            Body::Shuffle(_) if from == 0 => Some(tamper(bytes, 0, &|b| {
                if let Body::Shuffle(m) = b {
                    m.proof = Some(vec![1; 32]);
                }
            })),
            _ => Some(bytes.to_vec()),
        },
        300,
    );
    for (i, es) in events.iter().enumerate().filter(|(i, _)| *i != 0) {
        let b = blames(es);
        assert_eq!(b.len(), 1, "seat {i}");
        assert_eq!(
            (b[0].offender, b[0].fault),
            (Some(Seat::S), Fault::ProofMode)
        );
    }
}

/// Dealer S shuffles last and copies position 4 (dealt to W, seat 1) into the upcard. W opens
/// both and stops at once: two positions with one card id name nobody by themselves, so W
/// starts the audit; every seat reveals its seed, and the recomputed shuffles name the dealer
/// at every honest seat (before the audit existed, W voided the hand naming nobody).
///
/// Sabotage caught (checked): `open_position` without the card-id check (W then deals on and
/// the hand goes on with a copied card).
#[test]
fn a_card_opening_twice_at_a_covert_table_is_a_fault_at_once() {
    let (preset, dealer) = (Preset::Samba, Seat::S);
    let upcard = (Rules::preset(preset).hand_size * 4) as u16;
    let mut cfg = config(preset, dealer, 1);
    cfg.proofs = ProofMode::Covert;
    let t = table(preset);
    let mut seats: Vec<HandSession> = sessions_of(&cfg, &t, 6);
    seats[0].cheat_copy_card(4, upcard);
    let events = play_with(
        &mut seats,
        &mut SplitMix64::new(6),
        &mut Wire::default(),
        &mut |_, _, b| Some(b.to_vec()),
        300,
    );
    assert!(!events[1].contains(&Event::Dealt));
    for (i, es) in events.iter().enumerate().skip(1) {
        let b = blames(es);
        assert_eq!(b.len(), 1, "seat {i}: {b:?}");
        assert_eq!(
            (b[0].offender, b[0].fault),
            (Some(Seat::S), Fault::ShuffleMismatch),
            "seat {i}"
        );
    }
    // At a proved table the same cheat is refused with the step, and the dealer named.
    let mut seats = sessions(preset, dealer, 6);
    seats[0].cheat_copy_card(4, upcard);
    let events = play(&mut seats, 6);
    for es in &events[1..] {
        let b = blames(es);
        assert_eq!(
            (b[0].offender, b[0].fault),
            (Some(Seat::S), Fault::BadShuffleProof)
        );
    }
}
