//! Unit tests of the shuffle proof: honest proofs verify for every split shape, and a proof
//! is bound to every part of its statement.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::*;
use crate::group::{CardTable, Ciphertext, CtBytes, compress_deck, open_deck};
use crate::hash::hash_scalar;
use crate::stream::shuffle_plan;

/// A whole step: input, output and witness.
pub(super) struct Case {
    pub(super) hctx: [u8; 32],
    pub(super) input: Vec<Ciphertext>,
    pub(super) input_hash: [u8; 32],
    pub(super) output: Vec<Ciphertext>,
    pub(super) output_bytes: Vec<CtBytes>,
    pub(super) key: RistrettoPoint,
    pub(super) perm: Vec<u16>,
    pub(super) rho: Vec<Scalar>,
}

impl Case {
    /// Step 2 of a hand: the input is itself a shuffled (masked) deck.
    pub(super) fn new(cards: u16, salt: u8) -> Self {
        let hctx = [salt; 32];
        let key = hash_scalar(b"test", &[b"key", &[salt]]) * RISTRETTO_BASEPOINT_POINT;
        let table = CardTable::new(cards).unwrap();
        let open = open_deck(&table);
        let first = shuffle_plan(&hctx, 0, &[salt ^ 0x55; 32], &[0; 32], cards);
        let input = apply(&open, &first.perm, &first.rho, &key);
        let plan = shuffle_plan(&hctx, 1, &[salt; 32], &[1; 32], cards);
        let output = apply(&input, &plan.perm, &plan.rho, &key);
        Self {
            hctx,
            input_hash: crate::hand::deck_hash(&hctx, &compress_deck(&input)),
            output_bytes: compress_deck(&output),
            input,
            output,
            key,
            perm: plan.perm,
            rho: plan.rho,
        }
    }

    pub(super) fn statement(&self) -> Statement<'_> {
        Statement {
            hctx: &self.hctx,
            seat: 1,
            step: 2,
            input_hash: &self.input_hash,
            input: &self.input,
            output_bytes: &self.output_bytes,
            output: &self.output,
            joint: &self.key,
        }
    }

    pub(super) fn witness(&self) -> Witness<'_> {
        Witness {
            perm: &self.perm,
            rho: &self.rho,
        }
    }

    /// Replaces the output deck (both forms).
    pub(super) fn set_output(&mut self, output: Vec<Ciphertext>) {
        self.output_bytes = compress_deck(&output);
        self.output = output;
    }
}

/// `out[j] = input[perm[j]] + (ρ_j·G, ρ_j·H)`.
pub(super) fn apply(
    input: &[Ciphertext],
    perm: &[u16],
    rho: &[Scalar],
    key: &RistrettoPoint,
) -> Vec<Ciphertext> {
    perm.iter()
        .zip(rho)
        .map(|(&p, r)| {
            let c = input[usize::from(p)];
            Ciphertext {
                c1: c.c1 + r * RISTRETTO_BASEPOINT_POINT,
                c2: c.c2 + r * key,
            }
        })
        .collect()
}

fn prove_case(params: &ShuffleParams, case: &Case) -> Vec<u8> {
    prove(params, &case.statement(), &case.witness(), &[9; 32]).unwrap()
}

#[test]
fn honest_proofs_verify_for_every_shape() {
    // The protocol's one row, and every other split the argument supports.
    for (cards, m) in [
        (5u16, 1),
        (4, 2),
        (6, 3),
        (9, 3),
        (10, 2),
        (12, 3),
        (108, 3),
        (162, 1),
        (162, 3),
    ] {
        let params = ShuffleParams::with_rows(usize::from(cards), m).unwrap();
        assert_eq!(params.split().0, m);
        let case = Case::new(cards, cards as u8);
        let proof = prove_case(&params, &case);
        let (m, n) = params.split();
        assert_eq!(proof.len(), proof_len(m, n), "{cards} cards");
        assert_eq!(
            verify(&params, &case.statement(), &proof),
            Ok(()),
            "{cards} cards in {m} rows"
        );
    }
}

#[test]
fn the_first_step_from_the_open_deck_verifies() {
    let cards = 12u16;
    let params = ShuffleParams::new(12).unwrap();
    let mut case = Case::new(cards, 3);
    case.input = open_deck(&CardTable::new(cards).unwrap());
    case.input_hash = crate::hand::deck_hash(&case.hctx, &compress_deck(&case.input));
    let out = apply(&case.input, &case.perm, &case.rho, &case.key);
    case.set_output(out);
    let proof = prove_case(&params, &case);
    assert_eq!(verify(&params, &case.statement(), &proof), Ok(()));
}

#[test]
fn proofs_are_deterministic_and_seeded() {
    let params = ShuffleParams::new(12).unwrap();
    let case = Case::new(12, 1);
    let st = case.statement();
    let a = prove(&params, &st, &case.witness(), &[1; 32]).unwrap();
    let b = prove(&params, &st, &case.witness(), &[1; 32]).unwrap();
    let c = prove(&params, &st, &case.witness(), &[2; 32]).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(verify(&params, &st, &c), Ok(()));
}

#[test]
fn a_proof_is_bound_to_every_statement_field() {
    for params in [
        ShuffleParams::new(12).unwrap(),
        ShuffleParams::with_rows(12, 3).unwrap(),
    ] {
        let case = Case::new(12, 4);
        let proof = prove_case(&params, &case);
        let st = case.statement();
        let other_hash = [7u8; 32];
        let other_key = case.key + RISTRETTO_BASEPOINT_POINT;
        let variants = [
            Statement {
                hctx: &[5; 32],
                ..st
            },
            Statement { seat: 2, ..st },
            Statement { step: 3, ..st },
            Statement {
                input_hash: &other_hash,
                ..st
            },
            Statement {
                joint: &other_key,
                ..st
            },
        ];
        for v in &variants {
            assert_eq!(verify(&params, v, &proof), Err(ProofError::Rejected));
        }
    }
}

#[test]
fn a_proof_is_bound_to_both_decks() {
    for params in [
        ShuffleParams::new(12).unwrap(),
        ShuffleParams::with_rows(12, 3).unwrap(),
    ] {
        let case = Case::new(12, 6);
        let proof = prove_case(&params, &case);
        // Another valid shuffle of the same input: two output positions swapped.
        let mut swapped = case.output.clone();
        swapped.swap(0, 5);
        // One card re-randomised once more (still the same plaintexts).
        let mut rerandomised = case.output.clone();
        rerandomised[3].c1 += RISTRETTO_BASEPOINT_POINT;
        rerandomised[3].c2 += case.key;
        // A card replaced by a copy of another (the attack the proof exists for).
        let mut copied = case.output.clone();
        copied[2] = copied[7];
        copied[2].c1 += RISTRETTO_BASEPOINT_POINT;
        copied[2].c2 += case.key;
        for out in [swapped, rerandomised, copied] {
            let mut c = Case::new(12, 6);
            c.set_output(out);
            assert_eq!(
                verify(&params, &c.statement(), &proof),
                Err(ProofError::Rejected)
            );
        }
        // The input deck changed under an unchanged hash (the caller's hash check is separate).
        let mut c = Case::new(12, 6);
        c.input.swap(1, 2);
        assert_eq!(
            verify(&params, &c.statement(), &proof),
            Err(ProofError::Rejected)
        );
    }
}

#[test]
fn a_cheating_witness_cannot_be_proved() {
    let params = ShuffleParams::new(12).unwrap();
    let mut case = Case::new(12, 8);
    // The prover refuses a non-permutation outright.
    case.perm[0] = case.perm[1];
    assert_eq!(
        prove(&params, &case.statement(), &case.witness(), &[1; 32]),
        Err(ProofError::Witness)
    );
    // Nor a witness with a re-randomiser too few or too many (its permutation whole).
    let case = Case::new(12, 8);
    for rho in [
        &case.rho[..11],
        &[case.rho.clone(), vec![Scalar::ONE]].concat()[..],
    ] {
        let wit = Witness {
            perm: &case.perm,
            rho,
        };
        assert_eq!(
            prove(&params, &case.statement(), &wit, &[1; 32]),
            Err(ProofError::Witness),
            "{} re-randomisers",
            rho.len()
        );
    }
    // A deck that is not the witness's output: the proof made for it fails.
    let mut case = Case::new(12, 8);
    let mut out = case.output.clone();
    out[4].c2 += RISTRETTO_BASEPOINT_POINT; // a different card in position 4
    case.set_output(out);
    let proof = prove_case(&params, &case);
    assert_eq!(
        verify(&params, &case.statement(), &proof),
        Err(ProofError::Rejected)
    );
}

#[test]
fn malformed_proofs_are_refused_with_their_reason() {
    let params = ShuffleParams::new(12).unwrap();
    let case = Case::new(12, 9);
    let proof = prove_case(&params, &case);
    let st = case.statement();
    let mut longer = proof.clone();
    longer.push(0);
    assert!(matches!(
        verify(&params, &st, &longer),
        Err(ProofError::Length { .. })
    ));
    assert!(matches!(
        verify(&params, &st, &proof[..proof.len() - 32]),
        Err(ProofError::Length { .. })
    ));
    assert!(matches!(
        verify(&params, &st, &[]),
        Err(ProofError::Length { .. })
    ));
    // A non-canonical last scalar (all ones is above ℓ).
    let mut bad = proof.clone();
    let last = bad.len() - 32;
    bad[last..].copy_from_slice(&[0xff; 32]);
    assert_eq!(verify(&params, &st, &bad), Err(ProofError::BadScalar(last)));
    // An invalid first point.
    let mut bad = proof.clone();
    bad[..32].copy_from_slice(&[0xff; 32]);
    assert_eq!(verify(&params, &st, &bad), Err(ProofError::BadPoint(0)));
    // Decks of the wrong size.
    let short = Statement {
        output: &case.output[..11],
        ..st
    };
    assert_eq!(verify(&params, &short, &proof), Err(ProofError::Statement));
}

#[test]
fn every_word_of_a_proof_matters() {
    for params in [
        ShuffleParams::new(6).unwrap(),
        ShuffleParams::with_rows(6, 3).unwrap(),
    ] {
        let case = Case::new(6, 10);
        let proof = prove_case(&params, &case);
        for word in 0..proof.len() / 32 {
            let mut bad = proof.clone();
            bad[word * 32] ^= 0x04;
            assert!(
                verify(&params, &case.statement(), &bad).is_err(),
                "word {word}"
            );
        }
    }
}

#[test]
fn a_cheating_prover_with_a_copied_card_is_refused() {
    // The copied-card attack: the shuffler puts a re-randomised copy of one card into a second
    // position (dropping another). Its "witness" maps two outputs to one input; playing the
    // prover honestly on it gives a proof that must fail.
    for (cards, m) in [(5u16, 1), (12, 1), (12, 3), (162, 1), (162, 3)] {
        let params = ShuffleParams::with_rows(usize::from(cards), m).unwrap();
        let mut case = Case::new(cards, 11);
        case.perm[1] = case.perm[0];
        let out = apply(&case.input, &case.perm, &case.rho, &case.key);
        case.set_output(out);
        let proof = shuffle::prove_unchecked(&params, &case.statement(), &case.witness(), &[3; 32]);
        assert_eq!(
            verify(&params, &case.statement(), &proof),
            Err(ProofError::Rejected),
            "{cards} cards in {m} rows"
        );
    }
}

/// Adds `delta` to the scalar at byte `at` of `proof`.
fn shift_scalar(proof: &mut [u8], at: usize, delta: &Scalar) {
    let bytes: [u8; 32] = proof[at..at + 32].try_into().unwrap();
    let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(bytes)).unwrap() + delta;
    proof[at..at + 32].copy_from_slice(s.as_bytes());
}

#[test]
fn two_errors_that_cancel_under_equal_batch_weights_are_refused() {
    // The multi-exponentiation's last responses are `a, r, b, s, tau` (the proof's last
    // words, absorbed just before the batch challenge, so changing them changes no challenge
    // but the batch weights). `r` enters its commitment equation as `−w1·r·h`, `s` the
    // `c_B` equation as `−w2·s·h`: `r + δ` and `s − δ` leave `(w2 − w1)·δ·h` in the batch,
    // which is zero exactly when the two weights are equal. Only weights the prover cannot
    // foresee (and that differ) refuse the proof.
    for (cards, m) in [(12u16, 1), (12, 3), (162, 1)] {
        let params = ShuffleParams::with_rows(usize::from(cards), m).unwrap();
        let case = Case::new(cards, 21);
        let proof = prove_case(&params, &case);
        assert_eq!(verify(&params, &case.statement(), &proof), Ok(()));
        let len = proof.len();
        let (at_r, at_s) = (len - 4 * 32, len - 2 * 32);
        let delta = Scalar::from(0x5eed_u64);
        let mut bad = proof.clone();
        shift_scalar(&mut bad, at_r, &delta);
        shift_scalar(&mut bad, at_s, &-delta);
        assert_eq!(
            verify(&params, &case.statement(), &bad),
            Err(ProofError::Rejected),
            "{cards} cards in {m} rows"
        );
        // Each error alone is refused too (the pair is what equal weights would let through).
        let mut one = proof.clone();
        shift_scalar(&mut one, at_r, &delta);
        assert!(verify(&params, &case.statement(), &one).is_err());
    }
}

/// The product argument on its own: it holds for the columns' true product and fails for any
/// other. (Through `verify`, a deck that is no permutation is refused by the multi-exponentiation
/// already when the prover plays honestly on a bad witness; a prover who forges `b` to satisfy
/// that argument is stopped by this one alone.)
///
/// Sabotage caught (checked): `ProductProof::check` adding nothing (every shuffle-proof test
/// but this one still passed).
#[test]
fn the_product_argument_holds_for_its_product_only() {
    use super::msm::Msm;
    use super::product::{self, Columns};
    use super::transcript::{Nonces, Transcript};
    use super::wire::{Reader, Writer};
    let sc = |i: usize| Scalar::from(u64::try_from(i).unwrap() * 7_919 + 13);
    for (cards, rows) in [(12usize, 1usize), (12, 3)] {
        let params = ShuffleParams::with_rows(cards, rows).unwrap();
        let (m, n) = params.split();
        let a: Vec<Vec<Scalar>> = (0..m)
            .map(|k| (0..n).map(|i| sc(k * n + i)).collect())
            .collect();
        let b: Vec<Vec<Scalar>> = (0..m)
            .map(|k| (0..n).map(|i| sc(500 + k * n + i)).collect())
            .collect();
        let r: Vec<Scalar> = (0..m).map(|k| sc(900 + k)).collect();
        let s: Vec<Scalar> = (0..m).map(|k| sc(950 + k)).collect();
        let (y, z) = (sc(1_001), sc(2_002));
        let c_a: Vec<RistrettoPoint> = a
            .iter()
            .zip(&r)
            .map(|(v, rk)| params.commit(v, rk))
            .collect();
        let c_b: Vec<RistrettoPoint> = b
            .iter()
            .zip(&s)
            .map(|(v, sk)| params.commit(v, sk))
            .collect();
        let cols = product::columns(&a, &b, y, z);
        let t: Vec<Scalar> = r.iter().zip(&s).map(|(r, s)| y * r + s).collect();
        let product: Scalar = cols.iter().flatten().product();
        let mut w = Writer::with_capacity(0);
        let mut nonces = Nonces::new(&[5; 32], [6; 64]);
        product::prove(
            &params,
            &mut Transcript::new(),
            &mut nonces,
            &mut w,
            &cols,
            &t,
        );
        let bytes = w.finish();
        let holds = |target: Scalar| {
            let mut reader = Reader::new(&bytes, bytes.len()).unwrap();
            let proof = product::read(&mut reader, &mut Transcript::new(), m, n).unwrap();
            let mut msm = Msm::new(&params, 64);
            let columns = Columns {
                c_a: &c_a,
                c_b: &c_b,
                y,
                z,
            };
            proof.check(
                &mut msm,
                &columns,
                &target,
                &[sc(3), sc(4), sc(5), sc(6), sc(7)],
            );
            msm.sums_to_identity()
        };
        assert!(
            holds(product),
            "{cards} cards in {m} rows: the true product"
        );
        assert!(
            !holds(product + Scalar::ONE),
            "{cards} cards in {m} rows: another"
        );
    }
}
