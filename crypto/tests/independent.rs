//! Independent vectors: the crate's derivations against a second implementation written from
//! the specifications (`vectors/independent.py`, plain Python with `hashlib`), and its
//! hash-to-point against the RFC 9496 ristretto255 test vectors.
//!
//! What this catches that golden.rs cannot: golden.rs pins values the crate printed itself, so a
//! derivation that was wrong from the start (a field missing from a hash, a label without its
//! length prefix, a biased sampler, a swapped permutation) would be pinned as "right". Here every
//! value is recomputed from the written rules by code that shares nothing with the crate.
//!
//! Sabotage checked (each made locally, seen to fail, undone): `Stream::up_to` without the
//! rejection fails `up_to_2_31` (for a deck's ranges a rejection is a 1-in-10^7 event, so only
//! a range near 2^31 shows it); Fisher–Yates drawing `up_to(i - 1)` fails the permutations;
//! `scalar()` reducing 32 bytes instead of 64 fails the re-randomisers; the card label hashed
//! with a length prefix fails the card points; dropping the seat from the DLEQ nonce fails
//! `share_e` (in golden.rs, whose pinned file this test checks line by line); the audit folding the permutations in step order fails `hand2_plain`.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::collections::BTreeMap;
use std::process::Command;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{deck_hash, hand_context, seed_commit, verify_commit};
use fairdeal_crypto::message::HandCommit;
use fairdeal_crypto::stream::{Stream, elgamal_secret, shuffle_plan};
use fairdeal_crypto::{
    AuditInput, CardTable, Ciphertext, HandKeys, HandSecret, Identity, PublicKey, audit,
};
use sha2::{Digest, Sha512};

/// RFC 9496, Appendix A.3: the one-way map from 64 uniform bytes (I) to an encoding (O).
const RFC9496_ONE_WAY_MAP: [(&str, &str); 11] = [
    (
        "5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1\
         4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6",
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46",
    ),
    (
        "f116b34b8f17ceb56e8732a60d913dd10cce47a6d53bee9204be8b44f6678b27\
         0102a56902e2488c46120e9276cfe54638286b9e4b3cdb470b542d46c2068d38",
        "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b",
    ),
    (
        "8422e1bbdaab52938b81fd602effb6f89110e1e57208ad12d9ad767e2e25510c\
         27140775f9337088b982d83d7fcf0b2fa1edffe51952cbe7365e95c86eaf325c",
        "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826",
    ),
    (
        "ac22415129b61427bf464e17baee8db65940c233b98afce8d17c57beeb7876c2\
         150d15af1cb1fb824bbd14955f2b57d08d388aab431a391cfc33d5bafb5dbbaf",
        "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a",
    ),
    (
        "165d697a1ef3d5cf3c38565beefcf88c0f282b8e7dbd28544c483432f1cec767\
         5debea8ebb4e5fe7d6f6e5db15f15587ac4d4d4a1de7191e0c1ca6664abcc413",
        "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179",
    ),
    (
        "a836e6c9a9ca9f1e8d486273ad56a78c70cf18f0ce10abb1c7172ddd605d7fd2\
         979854f47ae1ccf204a33102095b4200e5befc0465accc263175485f0e17ea5c",
        "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628",
    ),
    (
        "2cdc11eaeb95daf01189417cdddbf95952993aa9cb9c640eb5058d09702c7462\
         2c9965a697a3b345ec24ee56335b556e677b30e6f90ac77d781064f866a3c982",
        "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065",
    ),
    (
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\
         1200000000000000000000000000000000000000000000000000000000000000",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f\
         ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "0000000000000000000000000000000000000000000000000000000000000080\
         ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "0000000000000000000000000000000000000000000000000000000000000000\
         1200000000000000000000000000000000000000000000000000000000000080",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
];

/// The one-way map the card table relies on is the RFC's, vector for vector; and a card point
/// is that map applied to `SHA-512(label ‖ u16_le(c))` (the construction the protocol states).
///
/// Sabotage checked: the card table built from `SHA-512(c ‖ label)` fails the second half.
#[test]
fn hash_to_point_matches_rfc_9496() {
    for (i, o) in RFC9496_ONE_WAY_MAP {
        let bytes: [u8; 64] = hex::decode(i).unwrap().try_into().unwrap();
        let p = RistrettoPoint::from_uniform_bytes(&bytes);
        assert_eq!(hex::encode(p.compress().as_bytes()), o, "input {i}");
    }
    let table = CardTable::new(162).unwrap();
    for c in [0u16, 1, 53, 54, 107, 161] {
        let mut h = Sha512::new();
        h.update(b"fairdeal/v1/card");
        h.update(c.to_le_bytes());
        let uniform: [u8; 64] = h.finalize().into();
        assert_eq!(
            table.point(c).unwrap(),
            RistrettoPoint::from_uniform_bytes(&uniform),
            "card {c}"
        );
    }
}

fn hx(b: &[u8]) -> String {
    hex::encode(b)
}

/// The seat keys the pinned hand contexts hash (any 32 bytes each: the context hashes them,
/// nothing here checks that they are keys).
const SEAT_KEYS: [PublicKey; 4] = [
    PublicKey([0x10; 32]),
    PublicKey([0x11; 32]),
    PublicKey([0x12; 32]),
    PublicKey([0x13; 32]),
];

fn seed(seat: u8, salt: u8) -> [u8; 32] {
    let mut s = [salt; 32];
    s[0] = seat;
    s
}

/// The values the crate computes under the names the script prints.
fn ours() -> BTreeMap<String, String> {
    let golden = include_str!("vectors/derivations.txt");
    let mut m: BTreeMap<String, String> = golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (k, v) = l.split_once(" = ").unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let table = CardTable::new(162).unwrap();
    let cards: Vec<u8> = (0..162)
        .flat_map(|c| table.point(c).unwrap().compress().to_bytes())
        .collect();
    let hctx = hand_context(&[1; 32], 7, 2, [1234, -50], &[0; 32], &SEAT_KEYS);
    let open_hash = deck_hash(&hctx, &compress_deck(&open_deck(&table)));
    let plan = shuffle_plan(&hctx, 3, &[5; 32], &open_hash, 162);
    let perm: Vec<u8> = plan.perm.iter().flat_map(|p| p.to_le_bytes()).collect();
    let rho: Vec<u8> = plan.rho.iter().flat_map(|r| r.to_bytes()).collect();
    m.insert("cards_162".into(), hx(&cards));
    m.insert("perm_162".into(), hx(&perm));
    m.insert("rho_162".into(), hx(&rho));
    let mut big = Stream::new(&hctx, 3, &[5; 32], &open_hash);
    let words: Vec<u8> = (0..16)
        .flat_map(|_| big.up_to(1 << 31).to_le_bytes())
        .collect();
    m.insert("up_to_2_31".into(), hx(&words));
    // Sanity of the golden file itself against the crate (golden.rs pins the rest).
    assert_eq!(m["hctx"], hx(&hctx));
    assert_eq!(m["seed_commit"], hx(&seed_commit(&hctx, 3, &[5; 32])));
    let x = elgamal_secret(&hctx, 3, &[5; 32]);
    assert_eq!(
        m["elgamal_key"],
        hx((&x * RISTRETTO_BASEPOINT_TABLE).compress().as_bytes())
    );
    assert_eq!(
        m["open_deck_hash"],
        hx(&deck_hash(&hctx, &compress_deck(&open_deck(&table))))
    );
    assert_eq!(
        m["identity_pk"],
        hx(&Identity::from_secret([1; 32]).public().0)
    );

    // A whole 108-card hand: four seats shuffle in turn, then the audit names every card.
    let hctx2 = hand_context(&[7; 32], 1, 0, [0, 0], &[0; 32], &SEAT_KEYS);
    let table2 = CardTable::new(108).unwrap();
    let secrets: Vec<HandSecret> = (0..4)
        .map(|s| HandSecret::new(hctx2, s, seed(s, 1)))
        .collect();
    let commits: Vec<HandCommit> = secrets.iter().map(HandSecret::commit).collect();
    let keys: Vec<RistrettoPoint> = commits
        .iter()
        .enumerate()
        .map(|(s, c)| verify_commit(&hctx2, s as u8, c).unwrap())
        .collect();
    let key_bytes: Vec<u8> = commits.iter().flat_map(|c| c.key).collect();
    m.insert("hand2_keys".into(), hx(&key_bytes));
    let hand_keys = HandKeys::new([keys[0], keys[1], keys[2], keys[3]]).unwrap();
    let order = [1u8, 2, 3, 0];
    let mut deck: Vec<Ciphertext> = open_deck(&table2);
    let mut decks = Vec::new();
    for &s in &order {
        deck = secrets[usize::from(s)].shuffle(&hand_keys, &deck);
        decks.push(compress_deck(&deck));
    }
    let head: Vec<u8> = decks[0][..4]
        .iter()
        .flat_map(|ct| ct.c1.into_iter().chain(ct.c2))
        .collect();
    m.insert("hand2_step1_head".into(), hx(&head));
    let input = AuditInput {
        hctx: &hctx2,
        order,
        commits: [&commits[0], &commits[1], &commits[2], &commits[3]],
        seeds: [0, 1, 2, 3].map(|s| seed(s, 1)),
        decks: [&decks[0], &decks[1], &decks[2], &decks[3]],
    };
    let plain: Vec<u8> = audit(&table2, &input)
        .unwrap()
        .iter()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    m.insert("hand2_plain".into(), hx(&plain));
    m
}

/// Every derivation the crate makes (and every pinned golden vector) equals the independent
/// Python recomputation. Fails if `python3` cannot be run.
#[test]
fn derivations_match_an_independent_implementation() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/independent.py");
    // A missing interpreter fails the test: a skip would let every derivation go unchecked
    // on a machine without Python and still show green.
    let out = Command::new("python3")
        .arg(script)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "python3 could not be run ({e}): the independent vectors cannot be checked; install python3 (.ci/run does)"
            )
        });
    assert!(
        out.status.success(),
        "independent.py failed (its RFC 9496 self-check or a crash):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: BTreeMap<String, String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.split_once(" = ").unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let mut ours = ours();
    // The Bayer–Groth proof bytes themselves have no second implementation (golden.rs pins
    // them and checks that they verify); everything else must be recomputed.
    ours.retain(|k, _| !k.starts_with("proof_step1_"));
    assert_eq!(
        theirs.keys().collect::<Vec<_>>(),
        ours.keys().collect::<Vec<_>>(),
        "the same names on both sides"
    );
    for (k, v) in &ours {
        assert_eq!(
            &theirs[k], v,
            "{k}: the crate and the independent recomputation differ"
        );
    }
}
