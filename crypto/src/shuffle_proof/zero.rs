//! The zero argument (Bayer–Groth 2012 §5.2): for committed vectors `A_1..A_M` and `B_1..B_M`,
//! `Σ_i A_i ⋆ B_i = 0` under the bilinear map `⋆` with weights `y^l`.
//!
//! Prover: random `A_0`, `B_{M+1}` (with randomness `r_0`, `s_{M+1}`), commits to them; for
//! k = 0..=2M, `d_k = Σ_{i − j + M + 1 = k} A_i ⋆ B_j` (i in 0..=M, j in 1..=M+1; `d_{M+1} = 0` is
//! the statement), commits `c_{d_k} = com(d_k; t_k)` for k ≠ M+1 (`t_{M+1} = 0`). Challenge `e`.
//! Responses `a = Σ e^i A_i`, `r = Σ e^i r_i`, `b = Σ e^(M+1−j) B_j`, `s = Σ e^(M+1−j) s_j`,
//! `t = Σ e^k t_k`. Verifier: `Σ e^i c_{A_i} = com(a; r)`, `Σ e^(M+1−j) c_{B_j} = com(b; s)`,
//! `Σ e^k c_{d_k} = com(a ⋆ b; t)`.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::ProofError;
use super::msm::Msm;
use super::params::ShuffleParams;
use super::transcript::{Nonces, Transcript};
use super::vector::{combine, combine_scalars, powers, star};
use super::wire::{Reader, Writer};

/// The witness: `A_1..A_M` with randomness, `B_1..B_M` with randomness.
pub(crate) struct ZeroWitness {
    pub(crate) a: Vec<Vec<Scalar>>,
    pub(crate) ra: Vec<Scalar>,
    pub(crate) b: Vec<Vec<Scalar>>,
    pub(crate) rb: Vec<Scalar>,
}

/// Proves the statement; `weights` are the `⋆` weights `[y, …, y^n]`.
pub(crate) fn prove(
    params: &ShuffleParams,
    tr: &mut Transcript,
    nonces: &mut Nonces,
    w: &mut Writer,
    wit: &ZeroWitness,
    weights: &[Scalar],
) {
    let n = params.split().1;
    let mm = wit.a.len();
    let a0 = nonces.scalars(n);
    let r0 = nonces.scalar();
    let b_last = nonces.scalars(n);
    let s_last = nonces.scalar();
    let t: Vec<Scalar> = (0..=2 * mm)
        .map(|k| {
            if k == mm + 1 {
                Scalar::ZERO
            } else {
                nonces.scalar()
            }
        })
        .collect();
    // A_0..A_M and B_1..B_{M+1}, with their randomness.
    let a_vecs: Vec<&[Scalar]> = std::iter::once(a0.as_slice())
        .chain(wit.a.iter().map(Vec::as_slice))
        .collect();
    let a_rand: Vec<Scalar> = std::iter::once(r0).chain(wit.ra.iter().copied()).collect();
    let b_vecs: Vec<&[Scalar]> = wit
        .b
        .iter()
        .map(Vec::as_slice)
        .chain(std::iter::once(b_last.as_slice()))
        .collect();
    let b_rand: Vec<Scalar> = wit
        .rb
        .iter()
        .copied()
        .chain(std::iter::once(s_last))
        .collect();
    let mut d = vec![Scalar::ZERO; 2 * mm + 1];
    for (i, ai) in a_vecs.iter().enumerate() {
        for (jm1, bj) in b_vecs.iter().enumerate() {
            // k = i − j + M + 1 with j = jm1 + 1.
            d[i + mm - jm1] += star(ai, bj, weights);
        }
    }
    debug_assert_eq!(d[mm + 1], Scalar::ZERO, "the zero statement holds");
    w.point(&params.commit(&a0, &r0));
    w.point(&params.commit(&b_last, &s_last));
    for k in (0..=2 * mm).filter(|&k| k != mm + 1) {
        w.point(&params.commit(&[d[k]], &t[k]));
    }
    tr.absorb(b"zero/commit", w.round());
    let e = tr.challenge(b"e");
    // e^0 to e^(2M): the exponents the argument uses, and no more.
    let ep = powers(&e, 2 * mm + 1);
    let a_coef = &ep[..=mm];
    let b_coef: Vec<Scalar> = (1..=mm + 1).map(|j| ep[mm + 1 - j]).collect();
    w.scalars(&combine(a_coef, &a_vecs, n));
    w.scalars(&combine(&b_coef, &b_vecs, n));
    w.scalar(&combine_scalars(a_coef, &a_rand));
    w.scalar(&combine_scalars(&b_coef, &b_rand));
    w.scalar(&combine_scalars(&ep[..=2 * mm], &t));
    tr.absorb(b"zero/response", w.round());
}

/// A zero argument as read, with its challenge.
pub(crate) struct ZeroProof {
    c_a0: RistrettoPoint,
    c_b_last: RistrettoPoint,
    /// `c_{d_k}` for k = 0..=2M except M+1.
    c_d: Vec<RistrettoPoint>,
    a: Vec<Scalar>,
    b: Vec<Scalar>,
    r: Scalar,
    s: Scalar,
    t: Scalar,
    e: Scalar,
}

/// Reads a zero argument for `mm` pairs of length-`n` vectors.
pub(crate) fn read(
    r: &mut Reader<'_>,
    tr: &mut Transcript,
    mm: usize,
    n: usize,
) -> Result<ZeroProof, ProofError> {
    let c_a0 = r.point()?;
    let c_b_last = r.point()?;
    let c_d = r.points(2 * mm)?;
    tr.absorb(b"zero/commit", r.round());
    let e = tr.challenge(b"e");
    let a = r.scalars(n)?;
    let b = r.scalars(n)?;
    let rr = r.scalar()?;
    let s = r.scalar()?;
    let t = r.scalar()?;
    tr.absorb(b"zero/response", r.round());
    Ok(ZeroProof {
        c_a0,
        c_b_last,
        c_d,
        a,
        b,
        r: rr,
        s,
        t,
        e,
    })
}

impl ZeroProof {
    /// Adds the three equations, scaled by `omega`, except the statement's commitments: returns
    /// the coefficients the caller must give `c_{A_1}..c_{A_M}` and `c_{B_1}..c_{B_M}`.
    pub(crate) fn check(
        &self,
        msm: &mut Msm<'_>,
        omega: &[Scalar; 3],
        weights: &[Scalar],
    ) -> (Vec<Scalar>, Vec<Scalar>) {
        let mm = self.c_d.len() / 2;
        let ep = powers(&self.e, 2 * mm + 1);
        let [w1, w2, w3] = omega;
        msm.point(*w1, &self.c_a0);
        msm.sub_commit(w1, &self.a, &self.r);
        let coef_a = (1..=mm).map(|i| w1 * ep[i]).collect();
        msm.point(*w2, &self.c_b_last);
        msm.sub_commit(w2, &self.b, &self.s);
        let coef_b = (1..=mm).map(|j| w2 * ep[mm + 1 - j]).collect();
        for (c, k) in self.c_d.iter().zip((0..=2 * mm).filter(|&k| k != mm + 1)) {
            msm.point(w3 * ep[k], c);
        }
        msm.g1(-(w3 * star(&self.a, &self.b, weights)));
        msm.h(-(w3 * self.t));
        (coef_a, coef_b)
    }
}
