//! Small contracts of the crate's API that no bigger test pinned: each test here was written
//! for a mutant that `cargo mutants` found alive (docs/TESTING.md), and names it.

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::encoding::{self, DecodeError, MAX_MESSAGE_BYTES};
use fairdeal_crypto::hand::{hand_context, open_public};
use fairdeal_crypto::message::Body;
use fairdeal_crypto::{CardTable, Chain, Fault, HandSecret, Identity, Outbox, Sig, adjudicate};

mod common;

use common::{SID, Sim};

/// A body of another hand, validly signed, is not judged as this hand's: a reveal from seat 2
/// whose seed matches nothing convicts nobody when it carries another hand's context.
/// Mutant: the `body.hctx() == court.hctx` guard in `adjudicate` replaced with `true`.
#[test]
fn bodies_of_another_hand_are_not_judged() {
    let sim = Sim::new(108, 0, 1);
    let other = hand_context(&SID, 2, 0, [0, 0], &[0; 32], &sim.keys);
    let foreign = vec![(
        2,
        Body::HandReveal {
            hctx: other,
            seed: [9; 32],
        },
    )];
    let v = adjudicate(&sim.court(), &sim.evidence(&foreign));
    assert_eq!((v.offender, v.fault), (None, None));
    // The same reveal in this hand convicts.
    let here = vec![(
        2,
        Body::HandReveal {
            hctx: sim.hctx,
            seed: [9; 32],
        },
    )];
    let v = adjudicate(&sim.court(), &sim.evidence(&here));
    assert_eq!((v.offender, v.fault), (Some(2), Some(Fault::SeedMismatch)));
}

/// A shuffle step signed by a seat that does not run it, or with a step number out of range,
/// convicts its signer. Mutant: `k >= 4 || court.order[k] != *seat` with `&&`.
#[test]
fn shuffle_steps_from_the_wrong_seat_or_out_of_range_are_blamed() {
    let sim = Sim::new(108, 0, 1);
    // Dealer 0: step 1 is seat 1's. Seat 3 sends a copy of it as its own.
    let stolen = vec![(3, Body::Shuffle(sim.steps[0].clone()))];
    let v = adjudicate(&sim.court(), &sim.evidence(&stolen));
    assert_eq!((v.offender, v.fault), (Some(3), Some(Fault::OutOfOrder)));
    for step in [0u8, 5, 255] {
        let mut m = sim.steps[0].clone();
        m.step = step;
        let v = adjudicate(&sim.court(), &sim.evidence(&[(1, Body::Shuffle(m))]));
        assert_eq!(
            (v.offender, v.fault),
            (Some(1), Some(Fault::OutOfOrder)),
            "step {step}"
        );
    }
}

/// Shares opened by a move are checked like dealt shares. Mutant: the `Body::Move` arm of
/// the share check in `judge_hand` deleted.
#[test]
fn shares_opened_by_a_move_are_checked() {
    let sim = Sim::new(108, 0, 1);
    let deck = sim.final_deck();
    let mut bad = sim.secrets[2].share(30, &deck[30]);
    bad.d = sim.secrets[2].share(31, &deck[31]).d;
    let mv = |opened| Body::Move {
        hctx: sim.hctx,
        turn: 3,
        action: vec![],
        opened,
    };
    let v = adjudicate(&sim.court(), &sim.evidence(&[(2, mv(vec![bad]))]));
    assert_eq!((v.offender, v.fault), (Some(2), Some(Fault::BadProof)));
    let good = sim.secrets[2].share(30, &deck[30]);
    let v = adjudicate(&sim.court(), &sim.evidence(&[(2, mv(vec![good]))]));
    assert_eq!((v.offender, v.fault), (None, None));
}

/// Only bytes longer than the limit are `TooLong`, and trailing bytes are counted. Mutants:
/// `bytes.len() > MAX_MESSAGE_BYTES` with `==` or `>=`; `bytes.len() - used` with `/`.
#[test]
fn the_size_limit_is_exact_and_trailing_bytes_are_counted() {
    let at_limit = vec![0u8; MAX_MESSAGE_BYTES];
    let refused = encoding::decode::<Vec<u8>>(&at_limit).err();
    assert!(
        !matches!(refused, Some(DecodeError::TooLong(_))),
        "{refused:?} for exactly the limit"
    );
    let over = vec![0u8; MAX_MESSAGE_BYTES + 1];
    assert_eq!(
        encoding::decode::<Vec<u8>>(&over).err(),
        Some(DecodeError::TooLong(MAX_MESSAGE_BYTES + 1))
    );
    // A large message well under the limit decodes.
    let big = vec![7u8; MAX_MESSAGE_BYTES / 2];
    assert!(encoding::decode::<Vec<u8>>(&encoding::encode(&big)).is_ok_and(|v| v == big));
    let mut trailing = encoding::encode(&(1u32, 2u32));
    trailing.extend_from_slice(&[0, 0, 0]);
    assert_eq!(
        encoding::decode::<(u32, u32)>(&trailing),
        Err(DecodeError::Trailing(3))
    );
}

/// A chain counts what it accepted, and an outbox resumed after a restart continues the chain.
/// Mutants: `Chain::next_seq` returning 0 or 1; `Outbox::resume` doing nothing.
#[test]
fn chains_count_and_resumed_outboxes_link() {
    let id = Identity::from_secret([9; 32]);
    let keys = [id.public()];
    let mut out = Outbox::new(SID, 0);
    let mut chain = Chain::default();
    let mut last = [0; 32];
    for k in 0..3u32 {
        let v = out.seal(&id, vec![k as u8]).verify(&SID, &keys).unwrap();
        assert_eq!(chain.next_seq(), k);
        assert_eq!(chain.accept(&v), fairdeal_crypto::Accept::Next);
        last = v.hash;
    }
    assert_eq!(chain.next_seq(), 3);
    // A fresh outbox resumed at (3, hash of the last) writes the next link of the same chain.
    let mut resumed = Outbox::new(SID, 0);
    resumed.resume(3, last);
    let v = resumed.seal(&id, vec![3]).verify(&SID, &keys).unwrap();
    assert_eq!((v.envelope.seq, v.envelope.prev), (3, last));
    assert_eq!(chain.accept(&v), fairdeal_crypto::Accept::Next);
}

/// Mutants: `CardTable::is_empty` returning a constant.
#[test]
fn card_tables_know_whether_they_are_empty() {
    assert!(!CardTable::new(108).unwrap().is_empty());
    assert!(CardTable::new(0).unwrap().is_empty());
}

/// A seat's secrets: its seat, its own cards opened to the right card, the joint key, and the
/// identity secret round trip. Mutants: `HandSecret::seat` returning 0 or 1; `open_own`
/// returning `Some(0)` or `Some(1)`; `HandKeys::joint` returning the identity;
/// `Identity::secret` returning a constant.
#[test]
fn secrets_open_the_right_cards_and_keys_add_up() {
    let sim = Sim::new(108, 0, 1);
    for s in 0..4u8 {
        assert_eq!(sim.secrets[usize::from(s)].seat(), s);
    }
    let sum: RistrettoPoint = (0..4).map(|s| sim.hand_keys.key(s).unwrap()).sum();
    assert_eq!(sim.hand_keys.joint(), &sum);
    let deck = sim.final_deck();
    let mut opened = Vec::new();
    for pos in [2usize, 9, 40, 77] {
        let ct = &deck[pos];
        let d = |s: usize| {
            fairdeal_crypto::group::decompress(&sim.secrets[s].share(pos as u16, ct).d).unwrap()
        };
        let all: Vec<RistrettoPoint> = (0..4).map(d).collect();
        let others: Vec<RistrettoPoint> = [0, 1, 3].map(d).to_vec();
        let card = open_public(&sim.table, ct, &all).unwrap();
        assert_eq!(sim.secrets[2].open_own(&sim.table, ct, &others), Some(card));
        opened.push(card);
    }
    assert!(opened.iter().any(|&c| c > 1), "{opened:?}");
    for secret in [[0u8; 32], [1; 32], [42; 32]] {
        assert_eq!(Identity::from_secret(secret).secret(), secret);
    }
}

/// What the secrets' and keys' `Debug` and `Display` show: the seat or the fingerprint, never
/// the secret. Mutants: each of those `fmt` bodies returning `Ok(())` with nothing written.
#[test]
fn secrets_print_their_name_and_never_their_bytes() {
    let secret = [42u8; 32];
    let id = Identity::from_secret(secret);
    let fp = id.public().fingerprint();
    let text = format!("{id:?}");
    assert_eq!(text, format!("Identity({fp})"));
    assert!(!text.contains(&hex_of(&secret)));
    assert_eq!(format!("{:?}", id.public()), format!("PublicKey({fp})"));
    assert_eq!(id.public().to_string(), fp);
    assert_eq!(format!("{:?}", id.sign(b"x")), "Sig(64 bytes)");
    assert_eq!(format!("{:?}", Sig(vec![1, 2])), "Sig(2 bytes)");
    let hs = HandSecret::new([1; 32], 2, secret);
    assert_eq!(format!("{hs:?}"), "HandSecret(seat 2)");
    let keys = Sim::new(108, 0, 1).hand_keys;
    let shown = format!("{keys:?}");
    assert!(
        shown.starts_with("HandKeys(") && shown.len() > 20,
        "{shown}"
    );
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A seat number past 3 gets no key and its shares are refused, never checked against another
/// seat's key (the old `% 4` made seat 4's share seat 0's). Sabotage caught (checked): `key`
/// and `encoded` wrapping the seat again (`% 4`).
#[test]
fn a_seat_past_three_has_no_key_and_its_shares_are_refused() {
    let sim = Sim::new(108, 0, 1);
    assert!(sim.hand_keys.key(4).is_none());
    let deck = sim.final_deck();
    let item = sim.secrets[0].share(5, &deck[5]);
    assert!(
        fairdeal_crypto::hand::verify_share(&sim.hctx, 0, &sim.hand_keys, &deck[5], &item).is_ok()
    );
    assert_eq!(
        fairdeal_crypto::hand::verify_share(&sim.hctx, 4, &sim.hand_keys, &deck[5], &item),
        Err(Fault::BadKey)
    );
    let (items, proof) = sim.secrets[0].shares(&[(5, &deck[5])]);
    assert_eq!(
        fairdeal_crypto::hand::verify_shares(
            &sim.hctx,
            4,
            &sim.hand_keys,
            &[&deck[5]],
            &items,
            &proof
        ),
        Err(Fault::BadKey)
    );
}
