//! The shuffle argument itself (Bayer–Groth 2012 §3): the statement, the two permutation
//! commitments and their challenges, then the product and multi-exponentiation arguments, and
//! the batched verifier.
//!
//! With `a_j = π(j) + 1` (1-based source index of output j) and `b_j = x^(a_j)`: the prover
//! commits `c_A = com(a)` row by row (m rows of n), gets `x`, commits `c_B = com(b)`, gets
//! `y, z`. The product argument shows `Π_j (y·a_j + b_j − z) = Π_{i=1..N} (y·i + x^i − z)` for the
//! columns `F_k = y·c_{A_k} + c_{B_k} − z·Σ g` (so `a` is a permutation and `b_j = x^(a_j)`), and
//! the multi-exponentiation argument shows `Σ_i x^i·input_i = Enc(0; ρ) + Σ_j b_j·output_j`
//! with `ρ = −Σ_j b_j·ρ_j`, which for a random `x` holds only for a permutation and
//! re-encryption.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::ProofError;
use super::msm::Msm;
use super::multiexp::{self, MultiExpStatement, MultiExpWitness};
use super::params::ShuffleParams;
use super::product::{self, Columns};
use super::transcript::{Nonces, Transcript};
use super::vector::powers;
use super::wire::{Reader, Writer, proof_len};
use crate::group::{Ciphertext, CtBytes};

/// What a shuffle proof is about: everything public about one shuffle step.
#[derive(Debug, Clone, Copy)]
pub struct Statement<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The shuffling seat.
    pub seat: u8,
    /// The step (1..=4).
    pub step: u8,
    /// The hash of the input deck as sent (`deck_hash`); `input` must be that deck.
    pub input_hash: &'a [u8; 32],
    /// The input deck.
    pub input: &'a [Ciphertext],
    /// The output deck as sent.
    pub output_bytes: &'a [CtBytes],
    /// The output deck, decompressed (the same ciphertexts as `output_bytes`).
    pub output: &'a [Ciphertext],
    /// The joint key `H`.
    pub joint: &'a RistrettoPoint,
}

/// What only the shuffler knows: `output[j] = input[perm[j]] + Enc(0; rho[j])`.
#[derive(Debug, Clone, Copy)]
pub struct Witness<'a> {
    /// The permutation.
    pub perm: &'a [u16],
    /// The re-randomisers.
    pub rho: &'a [Scalar],
}

/// Checks that the statement fits the parameters.
fn check_statement(params: &ShuffleParams, st: &Statement<'_>) -> Result<(), ProofError> {
    let cards = params.cards();
    if st.input.len() != cards || st.output.len() != cards || st.output_bytes.len() != cards {
        return Err(ProofError::Statement);
    }
    Ok(())
}

/// The transcript with the statement absorbed, in this order: cards, split, hctx, seat, step,
/// input deck hash, joint key, output deck (each ciphertext as `C1 ‖ C2`).
fn statement_transcript(params: &ShuffleParams, st: &Statement<'_>) -> Transcript {
    let (m, n) = params.split();
    let mut tr = Transcript::new();
    tr.absorb(b"cards", &(params.cards() as u32).to_le_bytes());
    let mut split = (m as u32).to_le_bytes().to_vec();
    split.extend_from_slice(&(n as u32).to_le_bytes());
    tr.absorb(b"split", &split);
    tr.absorb(b"hctx", st.hctx);
    tr.absorb(b"seat", &[st.seat]);
    tr.absorb(b"step", &[st.step]);
    tr.absorb(b"input", st.input_hash);
    tr.absorb(b"key", st.joint.compress().as_bytes());
    let mut deck = Vec::with_capacity(64 * st.output_bytes.len());
    for ct in st.output_bytes {
        deck.extend_from_slice(&ct.c1);
        deck.extend_from_slice(&ct.c2);
    }
    tr.absorb(b"output", &deck);
    tr
}

/// `Π_{i=1..N} (y·i + x^i − z)`.
fn target(x_pows: &[Scalar], y: &Scalar, z: &Scalar) -> Scalar {
    let mut acc = Scalar::ONE;
    let mut yi = Scalar::ZERO;
    for xi in &x_pows[1..] {
        yi += y;
        acc *= yi + xi - z;
    }
    acc
}

/// Proves the statement with the witness; randomness from `seed` and the statement.
pub(crate) fn prove(
    params: &ShuffleParams,
    st: &Statement<'_>,
    wit: &Witness<'_>,
    seed: &[u8; 32],
) -> Result<Vec<u8>, ProofError> {
    check_statement(params, st)?;
    let cards = params.cards();
    if wit.perm.len() != cards || wit.rho.len() != cards {
        return Err(ProofError::Witness);
    }
    let mut seen = vec![false; cards];
    for &p in wit.perm {
        let slot = seen.get_mut(usize::from(p)).ok_or(ProofError::Witness)?;
        if std::mem::replace(slot, true) {
            return Err(ProofError::Witness);
        }
    }
    Ok(prove_unchecked(params, st, wit, seed))
}

/// The prover on a witness of the right lengths with entries below N, permutation or not
/// (tests use it to play a cheating prover).
pub(super) fn prove_unchecked(
    params: &ShuffleParams,
    st: &Statement<'_>,
    wit: &Witness<'_>,
    seed: &[u8; 32],
) -> Vec<u8> {
    let cards = params.cards();
    let (m, n) = params.split();
    let mut tr = statement_transcript(params, st);
    let mut nonces = Nonces::new(seed, tr.statement_digest());
    let mut w = Writer::with_capacity(proof_len(m, n));
    let rows = |v: &[Scalar]| -> Vec<Vec<Scalar>> { v.chunks(n).map(<[Scalar]>::to_vec).collect() };

    let a: Vec<Scalar> = wit
        .perm
        .iter()
        .map(|&p| Scalar::from(p) + Scalar::ONE)
        .collect();
    let a_rows = rows(&a);
    let r = nonces.scalars(m);
    for (row, rk) in a_rows.iter().zip(&r) {
        w.point(&params.commit(row, rk));
    }
    tr.absorb(b"shuffle/c_a", w.round());
    let x = tr.challenge(b"x");
    let x_pows = powers(&x, cards + 1);

    let b: Vec<Scalar> = wit
        .perm
        .iter()
        .map(|&p| x_pows[usize::from(p) + 1])
        .collect();
    let b_rows = rows(&b);
    let s = nonces.scalars(m);
    for (row, sk) in b_rows.iter().zip(&s) {
        w.point(&params.commit(row, sk));
    }
    tr.absorb(b"shuffle/c_b", w.round());
    let y = tr.challenge(b"y");
    let z = tr.challenge(b"z");

    let cols = product::columns(&a_rows, &b_rows, y, z);
    let t: Vec<Scalar> = r.iter().zip(&s).map(|(r, s)| y * r + s).collect();
    product::prove(params, &mut tr, &mut nonces, &mut w, &cols, &t);

    let rho = -b.iter().zip(wit.rho).map(|(b, r)| b * r).sum::<Scalar>();
    let mwit = MultiExpWitness {
        b: &b_rows,
        s: &s,
        rho,
    };
    multiexp::prove(
        params,
        &mut tr,
        &mut nonces,
        &mut w,
        st.output,
        st.joint,
        &mwit,
    );
    w.finish()
}

/// Verifies a proof of the statement.
pub(crate) fn verify(
    params: &ShuffleParams,
    st: &Statement<'_>,
    proof: &[u8],
) -> Result<(), ProofError> {
    check_statement(params, st)?;
    let cards = params.cards();
    let (m, n) = params.split();
    let mut r = Reader::new(proof, proof_len(m, n))?;
    let mut tr = statement_transcript(params, st);
    let c_a = r.points(m)?;
    tr.absorb(b"shuffle/c_a", r.round());
    let x = tr.challenge(b"x");
    let c_b = r.points(m)?;
    tr.absorb(b"shuffle/c_b", r.round());
    let y = tr.challenge(b"y");
    let z = tr.challenge(b"z");
    let prod = product::read(&mut r, &mut tr, m, n)?;
    let mexp = multiexp::read(&mut r, &mut tr, m, n)?;
    if !r.is_done() {
        return Err(ProofError::Length {
            expected: proof_len(m, n),
            got: proof.len(),
        });
    }
    let omega = powers(&tr.challenge(b"batch"), 9);
    let x_pows = powers(&x, cards + 1);
    let mut msm = Msm::new(params, 4 * cards + 16 * m + 16);
    let columns = Columns {
        c_a: &c_a,
        c_b: &c_b,
        y,
        z,
    };
    prod.check(
        &mut msm,
        &columns,
        &target(&x_pows, &y, &z),
        &[omega[0], omega[1], omega[2], omega[3], omega[4]],
    );
    let mst = MultiExpStatement {
        c_b: &c_b,
        input: st.input,
        x_pows: &x_pows,
        out: st.output,
        key: st.joint,
    };
    mexp.check(&mut msm, &mst, &[omega[5], omega[6], omega[7], omega[8]]);
    if msm.sums_to_identity() {
        Ok(())
    } else {
        Err(ProofError::Rejected)
    }
}
