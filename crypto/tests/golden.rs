//! Golden vectors: every derivation and label, pinned. A change here is a protocol change
//! (bump the labels' version), never a silent regeneration.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{deck_hash, hand_context, seed_commit};
use fairdeal_crypto::shuffle_proof::generator;
use fairdeal_crypto::stream::{elgamal_secret, shuffle_plan};
use fairdeal_crypto::{
    CardTable, HandKeys, HandSecret, Identity, ProofMode, PublicKey, StepContext, check_step,
    make_step,
};

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

/// Step 1 of a proved hand: seat 3 shuffles the open deck (the four seats' keys from fixed
/// seeds). Returns the message, the keys and the open deck's bytes.
fn golden_step(
    hctx: &[u8; 32],
    deck: &[fairdeal_crypto::Ciphertext],
) -> (
    fairdeal_crypto::ShuffleMsg,
    HandKeys,
    Vec<fairdeal_crypto::CtBytes>,
) {
    let secrets: Vec<HandSecret> = (0..4u8)
        .map(|s| HandSecret::new(*hctx, s, [s + 5; 32]))
        .collect();
    let pts: Vec<_> = secrets.iter().map(HandSecret::public_key).collect();
    let keys = HandKeys::new([pts[0], pts[1], pts[2], pts[3]]).unwrap();
    let open_bytes = compress_deck(deck);
    let ctx = StepContext {
        hctx,
        step: 1,
        seat: 3,
        input_bytes: &open_bytes,
        input: deck,
        keys: &keys,
        mode: ProofMode::Proved,
    };
    let (step, _) = make_step(&secrets[3], &ctx).unwrap();
    (step, keys, open_bytes)
}

/// The values, as `name = hex` lines, for printing and comparing.
fn vectors() -> Vec<(&'static str, String)> {
    let table = CardTable::new(162).unwrap();
    let hctx = hand_context(&[1; 32], 7, 2, [1234, -50], &[0; 32], &SEAT_KEYS);
    let seed = [5u8; 32];
    let open_hash = deck_hash(&hctx, &compress_deck(&open_deck(&table)));
    let plan = shuffle_plan(&hctx, 3, &seed, &open_hash, 162);
    let x = elgamal_secret(&hctx, 3, &seed);
    let secret = HandSecret::new(hctx, 3, seed);
    let commit = secret.commit();
    let deck = open_deck(&table);
    let share = secret.share(
        61,
        &fairdeal_crypto::Ciphertext {
            c1: &curve25519_dalek::Scalar::from(11u8) * RISTRETTO_BASEPOINT_TABLE,
            c2: deck[0].c2,
        },
    );
    let cts: Vec<fairdeal_crypto::Ciphertext> = [11u8, 12, 13]
        .iter()
        .map(|&k| fairdeal_crypto::Ciphertext {
            c1: &curve25519_dalek::Scalar::from(k) * RISTRETTO_BASEPOINT_TABLE,
            c2: deck[0].c2,
        })
        .collect();
    let (_, round) = secret.shares(&[(61, &cts[0]), (62, &cts[1]), (90, &cts[2])]);
    let perm_head: Vec<u8> = plan.perm[..8]
        .iter()
        .flat_map(|p| p.to_le_bytes())
        .collect();
    let (step, _, _) = golden_step(&hctx, &deck);
    let proof = step.proof.unwrap_or_default();
    if std::env::var_os("FAIRDEAL_PRINT_PROOF").is_some() {
        println!("{}", hx(&proof));
    }
    vec![
        ("card_0", hx(table.point(0).unwrap().compress().as_bytes())),
        (
            "card_161",
            hx(table.point(161).unwrap().compress().as_bytes()),
        ),
        ("hctx", hx(&hctx)),
        ("seed_commit", hx(&seed_commit(&hctx, 3, &seed))),
        (
            "elgamal_key",
            hx((&x * RISTRETTO_BASEPOINT_TABLE).compress().as_bytes()),
        ),
        ("perm_head", hx(&perm_head)),
        ("rho_0", hx(plan.rho[0].as_bytes())),
        ("rho_161", hx(plan.rho[161].as_bytes())),
        ("pok_e", hx(&commit.pok.e)),
        ("pok_z", hx(&commit.pok.z)),
        ("share_d", hx(&share.d)),
        ("share_e", hx(&share.proof.e)),
        ("share_round_e", hx(&round.e)),
        ("share_round_z", hx(&round.z)),
        (
            "open_deck_hash",
            hx(&deck_hash(&hctx, &compress_deck(&deck))),
        ),
        (
            "identity_pk",
            hx(&Identity::from_secret([1; 32]).public().0),
        ),
        (
            "fingerprint",
            Identity::from_secret([1; 32]).public().fingerprint(),
        ),
        ("proof_generator_h", hx(generator(0).compress().as_bytes())),
        ("proof_generator_g1", hx(generator(1).compress().as_bytes())),
        (
            "proof_generator_g54",
            hx(generator(54).compress().as_bytes()),
        ),
        (
            "proof_generator_g162",
            hx(generator(162).compress().as_bytes()),
        ),
        ("proof_step1_len", proof.len().to_string()),
        ("proof_step1_head", hx(&proof[..64])),
        (
            "proof_step1_sha256",
            hx(&fairdeal_crypto::hash::hash256(b"golden", &[&proof])),
        ),
    ]
}

const GOLDEN: &str = include_str!("vectors/derivations.txt");

#[test]
fn derivations_match_the_golden_vectors() {
    let got: String = vectors()
        .iter()
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    if std::env::var_os("FAIRDEAL_PRINT_VECTORS").is_some() {
        print!("{got}");
    }
    let want: String = GOLDEN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(got, want);
}

/// The whole proof of step 1 above, hex, 64 bytes a line (for other implementations).
const PROOF_162: &str = include_str!("vectors/shuffle_proof_162.hex");

#[test]
fn the_step_1_proof_is_the_pinned_one_and_verifies() {
    let pinned: String = PROOF_162.lines().filter(|l| !l.starts_with('#')).collect();
    let pinned = hex::decode(pinned).unwrap();
    let table = CardTable::new(162).unwrap();
    let hctx = hand_context(&[1; 32], 7, 2, [1234, -50], &[0; 32], &SEAT_KEYS);
    let deck = open_deck(&table);
    let (mut step, keys, open_bytes) = golden_step(&hctx, &deck);
    if std::env::var_os("FAIRDEAL_PRINT_VECTORS").is_some() {
        for line in step.proof.as_deref().unwrap_or_default().chunks(64) {
            println!("{}", hex::encode(line));
        }
    }
    assert_eq!(step.proof.as_deref(), Some(pinned.as_slice()));
    // The pinned bytes verify (a second implementation can check itself against them).
    step.proof = Some(pinned);
    let ctx = StepContext {
        hctx: &hctx,
        step: 1,
        seat: 3,
        input_bytes: &open_bytes,
        input: &deck,
        keys: &keys,
        mode: ProofMode::Proved,
    };
    assert!(check_step(&step, &ctx).is_ok());
}
