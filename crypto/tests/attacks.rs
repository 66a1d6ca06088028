//! The attacks of PROTOCOL.md §9 that live at the crypto level: each is detected, the right
//! seat is blamed, and nobody else. (Rules-level attacks are tested with the hand session.)

#![expect(clippy::unwrap_used, reason = "test set-up")]

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity as _;
use fairdeal_crypto::group::{compress_deck, decompress, open_deck};
use fairdeal_crypto::hand::{check_shuffle, deck_hash, verify_commit, verify_share};
use fairdeal_crypto::message::{Body, ShareItem, ShuffleMsg};
use fairdeal_crypto::{
    CardTable, Fault, HandKeys, HandSecret, Identity, Outbox, SignedEnvelope, adjudicate, audit,
};

mod common;

use common::{SID, Sim};

fn verdict(sim: &Sim, extra: &[(u8, Body)]) -> (Option<u8>, Option<Fault>) {
    let v = adjudicate(&sim.court(), &sim.evidence(extra));
    (v.offender, v.fault)
}

#[test]
fn honest_hand_deals_every_card_and_audits_clean() {
    let sim = Sim::new(162, 3, 1);
    let deck = sim.final_deck();
    // Every position opens to a distinct card with all four shares.
    let mut seen = std::collections::BTreeSet::new();
    for (pos, ct) in deck.iter().enumerate() {
        let shares: Vec<RistrettoPoint> = (0..4u8)
            .map(|s| {
                let item = sim.secrets[usize::from(s)].share(pos as u16, ct);
                verify_share(&sim.hctx, s, &sim.hand_keys, ct, &item).unwrap()
            })
            .collect();
        let card = fairdeal_crypto::hand::open_public(&sim.table, ct, &shares).unwrap();
        assert!(seen.insert(card));
    }
    assert_eq!(seen.len(), 162);
    let plain = audit(&sim.table, &sim.audit_input()).unwrap();
    for (pos, ct) in deck.iter().enumerate() {
        let shares: Vec<RistrettoPoint> = (0..4usize)
            .map(|s| {
                let item = sim.secrets[s].share(pos as u16, ct);
                decompress(&item.d).unwrap()
            })
            .collect();
        assert_eq!(
            fairdeal_crypto::hand::open_public(&sim.table, ct, &shares),
            Some(plain[pos])
        );
    }
    assert_eq!(verdict(&sim, &sim.reveals()), (None, None));
}

#[test]
fn attack_01_rogue_key_without_proof_is_rejected() {
    let sim = Sim::new(108, 0, 1);
    let others: RistrettoPoint = (0..3).map(|s| sim.hand_keys.key(s).unwrap()).sum();
    let rogue = &Scalar::from(5u8) * RISTRETTO_BASEPOINT_TABLE - others;
    let mut forged = sim.commits[3].clone();
    forged.key = rogue.compress().to_bytes();
    assert_eq!(verify_commit(&sim.hctx, 3, &forged), Err(Fault::BadProof));
    let mut copied = forged.clone();
    copied.pok = sim.commits[0].pok;
    assert_eq!(verify_commit(&sim.hctx, 3, &copied), Err(Fault::BadProof));
    let mut s = Sim::new(108, 0, 1);
    s.commits[3] = forged;
    assert_eq!(verdict(&s, &[]), (Some(3), Some(Fault::BadProof)));
}

#[test]
fn attack_02_replayed_key_proof_is_rejected() {
    let sim = Sim::new(108, 0, 1);
    let other_hand = Sim::new(108, 0, 2);
    // Seat 1's commitment from hand 1, replayed as seat 2's, and in hand 2.
    assert_eq!(
        verify_commit(&sim.hctx, 2, &sim.commits[1]),
        Err(Fault::BadProof)
    );
    let mut replay = sim.commits[1].clone();
    replay.hctx = other_hand.hctx;
    assert_eq!(
        verify_commit(&other_hand.hctx, 1, &replay),
        Err(Fault::BadProof)
    );
}

#[test]
fn attack_03_bad_keys_are_rejected() {
    let sim = Sim::new(108, 0, 1);
    let mut identity = sim.commits[0].clone();
    identity.key = RistrettoPoint::identity().compress().to_bytes();
    assert_eq!(verify_commit(&sim.hctx, 0, &identity), Err(Fault::BadKey));
    let mut garbage = sim.commits[0].clone();
    garbage.key = [0xFF; 32];
    assert_eq!(verify_commit(&sim.hctx, 0, &garbage), Err(Fault::BadKey));
    let k = *sim.hand_keys.key(0).unwrap();
    assert_eq!(
        HandKeys::new([
            k,
            *sim.hand_keys.key(1).unwrap(),
            k,
            *sim.hand_keys.key(3).unwrap()
        ])
        .unwrap_err(),
        (2, Fault::DuplicateKey)
    );
}

fn substitute_last_step(sim: &mut Sim, pos: usize) {
    // The last shuffler swaps in a fresh encryption of a joker at a position it will be dealt.
    let joker = sim.table.point(52).unwrap();
    let r = Scalar::from(99u8);
    let ct = fairdeal_crypto::Ciphertext {
        c1: &r * RISTRETTO_BASEPOINT_TABLE,
        c2: joker + r * sim.hand_keys.joint(),
    };
    sim.steps[3].deck[pos] = ct.to_bytes();
}

#[test]
fn attack_05_substituted_ciphertext_is_caught_at_audit() {
    let mut sim = Sim::new(162, 0, 1);
    substitute_last_step(&mut sim, 4);
    let input = sim.steps[2].deck.clone();
    // It passes the immediate checks (nothing duplicated) ...
    assert!(check_shuffle(&sim.steps[3], &sim.hctx, 4, &input, 162).is_ok());
    // ... but not the audit, which blames the last shuffler, seat 0 (dealer 0 → order 1,2,3,0).
    assert_eq!(
        audit(&sim.table, &sim.audit_input()).unwrap_err(),
        (0, Fault::ShuffleMismatch)
    );
    assert_eq!(
        verdict(&sim, &sim.reveals()),
        (Some(0), Some(Fault::ShuffleMismatch))
    );
}

#[test]
fn attack_06_07_bad_decks_are_rejected_at_once() {
    let sim = Sim::new(108, 2, 1);
    let input = sim.steps[0].deck.clone();
    let step = |f: &dyn Fn(&mut ShuffleMsg)| {
        let mut m = sim.steps[1].clone();
        f(&mut m);
        check_shuffle(&m, &sim.hctx, 2, &input, 108).err()
    };
    assert_eq!(
        step(&|m| m.deck[5] = m.deck[9]),
        Some(Fault::DuplicateCiphertext)
    );
    assert_eq!(
        step(&|m| {
            m.deck.pop();
        }),
        Some(Fault::DeckLength)
    );
    assert_eq!(step(&|m| m.deck.push(m.deck[0])), Some(Fault::DeckLength));
    assert_eq!(
        step(&|m| m.deck[3].c1 = [0xFF; 32]),
        Some(Fault::BadEncoding)
    );
    assert_eq!(
        step(&|m| m.deck[3].c1 = RistrettoPoint::identity().compress().to_bytes()),
        Some(Fault::IdentityCiphertext)
    );
    assert_eq!(step(&|m| m.input_hash = [0; 32]), Some(Fault::WrongInput));
    // adjudicate names the second shuffler (dealer 2 → order 3, 0, 1, 2).
    let mut s = Sim::new(108, 2, 1);
    s.steps[1].deck[5] = s.steps[1].deck[9];
    assert_eq!(
        verdict(&s, &[]),
        (Some(0), Some(Fault::DuplicateCiphertext))
    );
}

#[test]
fn attack_08_wrong_input_deck_is_blamed() {
    let mut sim = Sim::new(108, 1, 1);
    // Step 3 shuffles the open deck instead of step 2's output.
    sim.steps[2].input_hash = deck_hash(&sim.hctx, &compress_deck(&open_deck(&sim.table)));
    assert_eq!(
        verdict(&sim, &[]),
        (Some(sim.order[2]), Some(Fault::WrongInput))
    );
}

#[test]
fn attack_09_seed_not_matching_commitment_is_blamed() {
    let sim = Sim::new(108, 0, 1);
    let mut reveals = sim.reveals();
    reveals[2].1 = Body::HandReveal {
        hctx: sim.hctx,
        seed: [1; 32],
    };
    assert_eq!(
        verdict(&sim, &reveals),
        (Some(2), Some(Fault::SeedMismatch))
    );
}

#[test]
fn attack_10_deck_not_reproducing_from_the_seed_is_blamed() {
    let mut sim = Sim::new(108, 0, 1);
    // Seat 2 (step 2) shuffles with another seed than the one it committed to, honestly otherwise.
    let cheat = HandSecret::new(sim.hctx, 2, [0xAB; 32]);
    let input: Vec<_> = sim.steps[0]
        .deck
        .iter()
        .map(|c| c.decompress().unwrap())
        .collect();
    let out = cheat.shuffle(&sim.hand_keys, &input);
    sim.steps[1].deck = compress_deck(&out);
    // Later steps build on it honestly.
    let mut deck = out;
    for k in 2..4 {
        let seat = usize::from(sim.order[k]);
        let input = compress_deck(&deck);
        deck = sim.secrets[seat].shuffle(&sim.hand_keys, &deck);
        sim.steps[k].input_hash = deck_hash(&sim.hctx, &input);
        sim.steps[k].deck = compress_deck(&deck);
    }
    assert_eq!(
        verdict(&sim, &[]),
        (None, None),
        "nothing provable before the reveal"
    );
    assert_eq!(
        verdict(&sim, &sim.reveals()),
        (Some(2), Some(Fault::ShuffleMismatch))
    );
}

#[test]
fn attack_11_one_honest_seed_makes_positions_uniform() {
    // Three seats use fixed seeds; the fourth a fresh one each hand. Card 0's final position
    // must be uniform over the 108 positions (chi-square over 12 buckets, 2,400 hands).
    let n = 108u16;
    let hctx = [3; 32];
    let fixed: Vec<Vec<u16>> = (0..3u8)
        .map(|s| fairdeal_crypto::stream::shuffle_plan(&hctx, s, &[0; 32], &[0; 32], n).perm)
        .collect();
    let mut buckets = [0u32; 12];
    let trials = 2400u32;
    for t in 0..trials {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&t.to_le_bytes());
        let honest = fairdeal_crypto::stream::shuffle_plan(&hctx, 3, &seed, &[0; 32], n).perm;
        let perms = [&fixed[0], &fixed[1], &honest, &fixed[2]];
        let pos = (0..n)
            .find(|&j| perms.iter().rev().fold(j, |p, perm| perm[usize::from(p)]) == 0)
            .unwrap();
        buckets[usize::from(pos) / 9] += 1;
    }
    let expected = f64::from(trials) / 12.0;
    let chi2: f64 = buckets
        .iter()
        .map(|&b| (f64::from(b) - expected).powi(2) / expected)
        .sum();
    // 11 degrees of freedom: p = 0.001 at 31.3.
    assert!(chi2 < 31.3, "chi-square {chi2} for {buckets:?}");
}

#[test]
fn attack_12_13_14_bad_offset_and_replayed_shares_are_rejected() {
    let sim = Sim::new(108, 0, 1);
    let deck = sim.final_deck();
    let good = sim.secrets[1].share(10, &deck[10]);
    assert!(verify_share(&sim.hctx, 1, &sim.hand_keys, &deck[10], &good).is_ok());
    let random = ShareItem {
        d: (&Scalar::from(3u8) * RISTRETTO_BASEPOINT_TABLE)
            .compress()
            .to_bytes(),
        ..good
    };
    assert_eq!(
        verify_share(&sim.hctx, 1, &sim.hand_keys, &deck[10], &random),
        Err(Fault::BadProof)
    );
    let offset =
        decompress(&good.d).unwrap() + sim.table.point(0).unwrap() - sim.table.point(1).unwrap();
    let offset = ShareItem {
        d: offset.compress().to_bytes(),
        ..good
    };
    assert_eq!(
        verify_share(&sim.hctx, 1, &sim.hand_keys, &deck[10], &offset),
        Err(Fault::BadProof)
    );
    // Replays: for another position, under another seat, in another hand.
    let moved = ShareItem { pos: 11, ..good };
    assert!(verify_share(&sim.hctx, 1, &sim.hand_keys, &deck[11], &moved).is_err());
    assert!(verify_share(&sim.hctx, 2, &sim.hand_keys, &deck[10], &good).is_err());
    let other = Sim::new(108, 0, 2);
    assert!(
        verify_share(
            &other.hctx,
            1,
            &other.hand_keys,
            &other.final_deck()[10],
            &good
        )
        .is_err()
    );
    // adjudicate blames the signer of a bad share, and nobody for good ones: a card shown in a
    // move (its own proof) and a round of shares (one proof for the round).
    let shown = |item| Body::Move {
        hctx: sim.hctx,
        turn: 0,
        action: Vec::new(),
        opened: vec![item],
    };
    assert_eq!(
        verdict(&sim, &[(1, shown(offset))]),
        (Some(1), Some(Fault::BadProof))
    );
    assert_eq!(verdict(&sim, &[(1, shown(good))]), (None, None));
    let (items, proof) = sim.secrets[1].shares(&[(10, &deck[10]), (11, &deck[11])]);
    let round = |items| Body::Shares {
        hctx: sim.hctx,
        items,
        proof,
    };
    assert_eq!(verdict(&sim, &[(1, round(items.clone()))]), (None, None));
    let mut bad = items.clone();
    bad[1].d = (decompress(&bad[1].d).unwrap() + deck[3].c1)
        .compress()
        .to_bytes();
    assert_eq!(
        verdict(&sim, &[(1, round(bad))]),
        (Some(1), Some(Fault::BadProof))
    );
    // A round naming a position past the deck is the signer's fault too.
    let mut past = items;
    past[0].pos = 5000;
    assert_eq!(
        verdict(&sim, &[(1, round(past))]),
        (Some(1), Some(Fault::BadProof))
    );
}

#[test]
fn attack_18_20_replay_and_equivocation() {
    let sim = Sim::new(108, 0, 1);
    let mut evidence = sim.evidence(&[]);
    // An exact replay is harmless.
    evidence.push(evidence[0].clone());
    assert_eq!(adjudicate(&sim.court(), &evidence).offender, None);
    // Seat 2 signs a second, different message for its slot 0.
    let mut fork = Outbox::new(SID, 2);
    let mut c = sim.commits[2].clone();
    c.seed_commit = [0; 32];
    evidence.push(fork.seal(&sim.ids[2], Body::HandCommit(c).encode()));
    let v = adjudicate(&sim.court(), &evidence);
    assert_eq!((v.offender, v.fault), (Some(2), Some(Fault::Equivocation)));
}

/// Evidence that is not validly signed by the seat it names counts for nothing: a byte flipped
/// in the cheat's own shuffle message, and a message "signed" by an outsider claiming a seat.
/// Each time the test first shows that the intact (or properly signed) version of the same
/// evidence does convict, so the "nobody is blamed" asserts are not vacuous.
///
/// Sabotage caught (checked): `adjudicate` decoding envelopes without `verify` (a flipped
/// deck byte then convicts seat 0, and the outsider's message convicts seat 1).
#[test]
fn attack_24_flipped_or_foreign_evidence_frames_nobody() {
    let mut sim = Sim::new(108, 0, 1);
    substitute_last_step(&mut sim, 1);
    let evidence = sim.evidence(&sim.reveals());
    // Intact, the evidence convicts the last shuffler, seat 0 (dealer 0 → order 1, 2, 3, 0).
    assert_eq!(
        verdict(&sim, &sim.reveals()),
        (Some(0), Some(Fault::ShuffleMismatch))
    );
    // Flip one byte inside seat 0's shuffle message (in its deck): the signature breaks, the
    // message is ignored, and without step 4 nothing can be proved against anyone.
    let k = evidence
        .iter()
        .position(|e| {
            let v = e.verify(&SID, &sim.keys).unwrap();
            v.envelope.sender == 0 && matches!(Body::decode(&v.envelope.body), Ok(Body::Shuffle(_)))
        })
        .unwrap();
    let mut flipped = evidence.clone();
    let mid = flipped[k].bytes.len() / 2;
    flipped[k].bytes[mid] ^= 1;
    assert!(flipped[k].verify(&SID, &sim.keys).is_err());
    let v = adjudicate(&sim.court(), &flipped);
    assert_eq!((v.offender, v.fault), (None, None));
    // Evidence "signed" by an outsider claiming to be seat 1: a second message for seat 1's
    // slot 0. Signed by seat 1 itself it is an equivocation; signed by the outsider, nothing.
    let honest = Sim::new(108, 0, 1);
    let mut other = honest.commits[1].clone();
    other.seed_commit = [0; 32];
    let body = Body::HandCommit(other).encode();
    let mut by_seat = honest.evidence(&[]);
    by_seat.push(Outbox::new(SID, 1).seal(&honest.ids[1], body.clone()));
    let v = adjudicate(&honest.court(), &by_seat);
    assert_eq!((v.offender, v.fault), (Some(1), Some(Fault::Equivocation)));
    let outsider = Identity::from_secret([99; 32]);
    let mut by_outsider = honest.evidence(&[]);
    by_outsider.push(Outbox::new(SID, 1).seal(&outsider, body));
    let v = adjudicate(&honest.court(), &by_outsider);
    assert_eq!((v.offender, v.fault), (None, None));
}

#[test]
fn attack_25_three_shares_cannot_open_a_card() {
    let sim = Sim::new(162, 0, 1);
    let deck = sim.final_deck();
    // Position 1 is dealt to seat 2 (dealer 0: positions go 1, 2, 3, 0, ...). Seats 0, 1, 3
    // pool their shares: the card point stays masked by seat 2's key.
    for pos in [1usize, 5, 9, 41] {
        let ct = &deck[pos];
        let three: Vec<RistrettoPoint> = [0usize, 1, 3]
            .iter()
            .map(|&s| decompress(&sim.secrets[s].share(pos as u16, ct).d).unwrap())
            .collect();
        assert_eq!(
            fairdeal_crypto::hand::open_public(&sim.table, ct, &three),
            None
        );
        // Seat 2 itself opens it with the three shares.
        assert!(sim.secrets[2].open_own(&sim.table, ct, &three).is_some());
    }
}

#[test]
fn attack_27_messages_of_another_hand_are_rejected() {
    let a = Sim::new(108, 0, 1);
    let b = Sim::new(108, 0, 2);
    let input = compress_deck(&open_deck(&b.table));
    assert_eq!(
        check_shuffle(&a.steps[0], &b.hctx, 1, &input, 108),
        Err(Fault::WrongHand)
    );
    assert_eq!(
        verify_commit(&b.hctx, 0, &a.commits[0]),
        Err(Fault::WrongHand)
    );
}

#[test]
fn attack_28_card_table_integrity() {
    for n in [108u16, 162] {
        let t = CardTable::new(n).unwrap();
        let mut faces = [0u32; 53];
        for c in 0..n {
            faces[usize::from(CardTable::face_index(c))] += 1;
        }
        let packs = u32::from(n / 54);
        assert!(faces[..52].iter().all(|&f| f == packs));
        assert_eq!(faces[52], 2 * packs);
        assert_eq!(t.len(), usize::from(n));
    }
}

#[test]
fn decoding_arbitrary_bytes_never_panics() {
    use proptest::prelude::*;
    proptest!(|(bytes in proptest::collection::vec(any::<u8>(), 0..2000))| {
        let _ = Body::decode(&bytes);
        let _ = SignedEnvelope::from_wire(&bytes);
        if let Ok(b) = Body::decode(&bytes) {
            prop_assert_eq!(Body::decode(&b.encode()).unwrap(), b);
        }
    });
}

/// Equivocation shown by a broken link, from the evidence alone: seat 2's third envelope links
/// to another second envelope than the one in evidence, so it signed two versions of that slot
/// even though only one is at hand. The intact link convicts nobody (not vacuous).
///
/// Sabotage caught (checked): `adjudicate` without the link check (nobody is then named).
#[test]
fn envelopes_that_do_not_link_name_their_signer() {
    let sim = Sim::new(108, 1, 1);
    let body = Body::HandReveal {
        hctx: sim.hctx,
        seed: sim.secrets[2].seed(),
    };
    let intact = sim.evidence(&[(2, body.clone())]);
    assert_eq!(adjudicate(&sim.court(), &intact).offender, None);
    // The same second envelope, linked to a first one that is not in the evidence.
    let mut evidence = sim.evidence(&[]);
    let mut other = Outbox::new(SID, 2);
    let mut c = sim.commits[2].clone();
    c.seed_commit[5] ^= 1;
    let _ = other.seal(&sim.ids[2], Body::HandCommit(c).encode());
    // Dealer W: seat 2 shuffles first, so its step is its second envelope.
    let _ = other.seal(&sim.ids[2], Body::Shuffle(sim.steps[0].clone()).encode());
    evidence.push(other.seal(&sim.ids[2], body.encode()));
    let v = adjudicate(&sim.court(), &evidence);
    assert_eq!((v.offender, v.fault), (Some(2), Some(Fault::Equivocation)));
}

/// The seeds of an audit (the hand stopped at a fault, PROTOCOL.md "Audit at a fault") count
/// like seeds revealed at the end of the hand: a substituted card is found from them.
///
/// Sabotage caught (checked): `adjudicate` reading seeds from `HandReveal` only (nobody is
/// then named).
#[test]
fn seeds_sent_in_an_audit_find_a_substituted_card() {
    let mut sim = Sim::new(162, 0, 1);
    substitute_last_step(&mut sim, 4);
    let audits: Vec<(u8, Body)> = (0..4u8)
        .map(|s| {
            (
                s,
                Body::Audit {
                    hctx: sim.hctx,
                    seed: sim.secrets[usize::from(s)].seed(),
                    heads: Default::default(),
                },
            )
        })
        .collect();
    assert_eq!(
        verdict(&sim, &audits),
        (Some(0), Some(Fault::ShuffleMismatch))
    );
}

/// A seat that signs a second shuffle message for its step (in a later slot of its chain) is
/// named for it; the next shuffler, who built on the first, is not (before, the later message
/// replaced the first and the next shuffler's step looked built on the wrong deck). The same
/// for a second commitment.
///
/// Sabotage caught (checked): `judge_hand` keeping the last message of a step (the next
/// shuffler, seat 2, is then named for `WrongInput`).
#[test]
fn a_second_message_for_a_step_or_commitment_names_its_signer() {
    let sim = Sim::new(108, 0, 1);
    // Dealer S: order 1, 2, 3, 0. Seat 1 signs another step 1 after its first.
    let mut again = sim.steps[0].clone();
    again.deck.swap(0, 1);
    let v = adjudicate(&sim.court(), &sim.evidence(&[(1, Body::Shuffle(again))]));
    assert_eq!((v.offender, v.fault), (Some(1), Some(Fault::OutOfOrder)));
    let v = adjudicate(
        &sim.court(),
        &sim.evidence(&[(3, Body::HandCommit(sim.commits[3].clone()))]),
    );
    assert_eq!((v.offender, v.fault), (Some(3), Some(Fault::OutOfOrder)));
}
