//! Golden vectors: every derivation and label, pinned. A change here is a protocol change
//! (bump the labels' version), never a silent regeneration.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{deck_hash, hand_context, seed_commit};
use fairdeal_crypto::stream::{elgamal_secret, shuffle_plan};
use fairdeal_crypto::{CardTable, HandSecret, Identity};

fn hx(b: &[u8]) -> String {
    hex::encode(b)
}

/// The values, as `name = hex` lines, for printing and comparing.
fn vectors() -> Vec<(&'static str, String)> {
    let table = CardTable::new(162).unwrap();
    let hctx = hand_context(&[1; 32], 7, 2, &[0; 32]);
    let seed = [5u8; 32];
    let plan = shuffle_plan(&hctx, 3, &seed, 162);
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
    let perm_head: Vec<u8> = plan.perm[..8]
        .iter()
        .flat_map(|p| p.to_le_bytes())
        .collect();
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
