//! The multi-exponentiation argument (Bayer–Groth 2012 §4, Fig. "multi-exponentiation"): for
//! the output deck split into rows `C'_1..C'_m` (n ciphertexts each), committed exponent
//! vectors `c_{B_1..B_m}` and a public target `C`, that `C = Enc(0; ρ) + Σ_i B_i·C'_i` for some `ρ`
//! (`B_i·C'_i = Σ_l B_{i,l}·C'_{i,l}`, `Enc(M; τ) = (τ·G, M + τ·H)` under the joint key `H`).
//!
//! Prover: random `A_0` (randomness `r_0`); for k = 0..2m except m, random `b_k`, `s_k`, `τ_k`
//! (`b_m = s_m = 0`, `τ_m = ρ`). It sends `c_{A_0} = com(A_0; r_0)`, `c_{b_k} = com(b_k; s_k)`
//! and `E_k = Enc(b_k·G; τ_k) + Σ_{j − i = k − m} A_j·C'_i` (i in 1..=m, j in 0..=m, `A_j = B_j`
//! for j ≥ 1), so `E_m = C`. Challenge `v`. Responses `a = Σ v^j A_j`, `r = Σ v^j r_j`,
//! `b = Σ v^k b_k`, `s = Σ v^k s_k`, `τ = Σ v^k τ_k`. Verifier: `Σ v^j c_{A_j} = com(a; r)`,
//! `Σ v^k c_{b_k} = com(b; s)` and `Σ v^k E_k = Enc(b·G; τ) + Σ_i v^(m−i)·(a·C'_i)`.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;

use super::ProofError;
use super::msm::Msm;
use super::params::ShuffleParams;
use super::transcript::{Nonces, Transcript};
use super::vector::{combine, combine_scalars, powers};
use super::wire::{Reader, Writer};
use crate::group::Ciphertext;

/// What the prover knows: the exponent rows `B_1..B_m` with their commitment randomness, and
/// `ρ` with `C = Enc(0; ρ) + Σ B_i·C'_i`.
pub(crate) struct MultiExpWitness<'a> {
    pub(crate) b: &'a [Vec<Scalar>],
    pub(crate) s: &'a [Scalar],
    pub(crate) rho: Scalar,
}

/// Proves the statement for the output deck `out` under the joint key `key`.
pub(crate) fn prove(
    params: &ShuffleParams,
    tr: &mut Transcript,
    nonces: &mut Nonces,
    w: &mut Writer,
    out: &[Ciphertext],
    key: &RistrettoPoint,
    wit: &MultiExpWitness<'_>,
) {
    let (m, n) = params.split();
    let a0 = nonces.scalars(n);
    let r0 = nonces.scalar();
    let mut b = vec![Scalar::ZERO; 2 * m];
    let mut s = vec![Scalar::ZERO; 2 * m];
    let mut tau = vec![Scalar::ZERO; 2 * m];
    for k in 0..2 * m {
        if k == m {
            tau[k] = wit.rho;
        } else {
            b[k] = nonces.scalar();
            s[k] = nonces.scalar();
            tau[k] = nonces.scalar();
        }
    }
    let rows: Vec<&[Scalar]> = std::iter::once(a0.as_slice())
        .chain(wit.b.iter().map(Vec::as_slice))
        .collect();
    let rand: Vec<Scalar> = std::iter::once(r0).chain(wit.s.iter().copied()).collect();
    w.point(&params.commit(&a0, &r0));
    for k in (0..2 * m).filter(|&k| k != m) {
        w.point(&params.commit(&[b[k]], &s[k]));
    }
    for k in (0..2 * m).filter(|&k| k != m) {
        let e = diagonal(out, &rows, m, n, k, &b[k], &tau[k], key);
        w.point(&e.c1);
        w.point(&e.c2);
    }
    tr.absorb(b"multiexp/commit", w.round());
    let v = tr.challenge(b"v");
    let vp = powers(&v, 2 * m);
    w.scalars(&combine(&vp[..=m], &rows, n));
    w.scalar(&combine_scalars(&vp[..=m], &rand));
    w.scalar(&combine_scalars(&vp, &b));
    w.scalar(&combine_scalars(&vp, &s));
    w.scalar(&combine_scalars(&vp, &tau));
    tr.absorb(b"multiexp/response", w.round());
}

/// `E_k = Enc(b_k·G; τ_k) + Σ_{j − i = k − m} A_j·C'_i`, one multiscalar multiplication per
/// component.
#[expect(clippy::too_many_arguments, reason = "one formula's inputs")]
fn diagonal(
    out: &[Ciphertext],
    rows: &[&[Scalar]],
    m: usize,
    n: usize,
    k: usize,
    b_k: &Scalar,
    tau_k: &Scalar,
    key: &RistrettoPoint,
) -> Ciphertext {
    let mut scalars = Vec::with_capacity(m * n + 2);
    let mut c1 = Vec::with_capacity(m * n + 1);
    let mut c2 = Vec::with_capacity(m * n + 2);
    for i in 1..=m {
        // j = k − m + i must lie in 0..=m.
        let Some(j) = (k + i).checked_sub(m).filter(|&j| j <= m) else {
            continue;
        };
        let row = &out[(i - 1) * n..i * n];
        scalars.extend_from_slice(rows[j]);
        c1.extend(row.iter().map(|ct| ct.c1));
        c2.extend(row.iter().map(|ct| ct.c2));
    }
    c1.push(RISTRETTO_BASEPOINT_POINT);
    c2.push(RISTRETTO_BASEPOINT_POINT);
    c2.push(*key);
    let len = scalars.len();
    let first =
        RistrettoPoint::vartime_multiscalar_mul(scalars.iter().chain(std::iter::once(tau_k)), &c1);
    scalars.push(*b_k);
    scalars.push(*tau_k);
    debug_assert_eq!(scalars.len(), len + 2);
    Ciphertext {
        c1: first,
        c2: RistrettoPoint::vartime_multiscalar_mul(&scalars, &c2),
    }
}

/// A multi-exponentiation argument as read, with its challenge.
pub(crate) struct MultiExpProof {
    c_a0: RistrettoPoint,
    /// `c_{b_k}` for k = 0..2m except m.
    c_b: Vec<RistrettoPoint>,
    /// `E_k` for k = 0..2m except m.
    e: Vec<Ciphertext>,
    a: Vec<Scalar>,
    r: Scalar,
    b: Scalar,
    s: Scalar,
    tau: Scalar,
    v: Scalar,
}

/// Reads an argument for the split `(m, n)`.
pub(crate) fn read(
    r: &mut Reader<'_>,
    tr: &mut Transcript,
    m: usize,
    n: usize,
) -> Result<MultiExpProof, ProofError> {
    let c_a0 = r.point()?;
    let c_b = r.points(2 * m - 1)?;
    let mut e = Vec::with_capacity(2 * m - 1);
    for _ in 0..2 * m - 1 {
        let c1 = r.point()?;
        let c2 = r.point()?;
        e.push(Ciphertext { c1, c2 });
    }
    tr.absorb(b"multiexp/commit", r.round());
    let v = tr.challenge(b"v");
    let a = r.scalars(n)?;
    let rr = r.scalar()?;
    let b = r.scalar()?;
    let s = r.scalar()?;
    let tau = r.scalar()?;
    tr.absorb(b"multiexp/response", r.round());
    Ok(MultiExpProof {
        c_a0,
        c_b,
        e,
        a,
        r: rr,
        b,
        s,
        tau,
        v,
    })
}

/// The public inputs of the multi-exponentiation check.
pub(crate) struct MultiExpStatement<'a> {
    /// `c_{B_1..B_m}`.
    pub(crate) c_b: &'a [RistrettoPoint],
    /// The input deck and `x^0..x^N`: the target is `C = Σ_{i=1..N} x^i·input_i`.
    pub(crate) input: &'a [Ciphertext],
    pub(crate) x_pows: &'a [Scalar],
    /// The output deck.
    pub(crate) out: &'a [Ciphertext],
    /// The joint key.
    pub(crate) key: &'a RistrettoPoint,
}

impl MultiExpProof {
    /// Adds the four equations (commitments, `c_b`, and both ciphertext components), scaled by
    /// `omega`.
    pub(crate) fn check(&self, msm: &mut Msm<'_>, st: &MultiExpStatement<'_>, omega: &[Scalar; 4]) {
        let [w1, w2, w3, w4] = omega;
        let m = st.c_b.len();
        let n = self.a.len();
        let vp = powers(&self.v, 2 * m);
        msm.point(*w1, &self.c_a0);
        for (c, v) in st.c_b.iter().zip(&vp[1..]) {
            msm.point(w1 * v, c);
        }
        msm.sub_commit(w1, &self.a, &self.r);
        let ks = (0..2 * m).filter(|&k| k != m);
        for (c, k) in self.c_b.iter().zip(ks.clone()) {
            msm.point(w2 * vp[k], c);
        }
        msm.g1(-(w2 * self.b));
        msm.h(-(w2 * self.s));
        for (e, k) in self.e.iter().zip(ks) {
            msm.point(w3 * vp[k], &e.c1);
            msm.point(w4 * vp[k], &e.c2);
        }
        let (t3, t4) = (w3 * vp[m], w4 * vp[m]);
        for (ct, x) in st.input.iter().zip(&st.x_pows[1..]) {
            msm.point(t3 * x, &ct.c1);
            msm.point(t4 * x, &ct.c2);
        }
        for i in 1..=m {
            let row = &st.out[(i - 1) * n..i * n];
            let vi = vp[m - i];
            for (ct, a) in row.iter().zip(&self.a) {
                let c = vi * a;
                msm.point(-(w3 * c), &ct.c1);
                msm.point(-(w4 * c), &ct.c2);
            }
        }
        msm.point(-(w3 * self.tau + w4 * self.b), &RISTRETTO_BASEPOINT_POINT);
        msm.point(-(w4 * self.tau), st.key);
    }
}
