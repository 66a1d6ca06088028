//! The single-value product argument (Bayer–Groth 2012 §5.3): a commitment `c_u = com(u; s)`
//! opens to a vector whose entries multiply to a public `P`.
//!
//! Prover: prefix products `p_l = u_1⋯u_l`; random `d` (and `r_d`), `δ_2..δ_{n−1}` with
//! `δ_1 = d_1`, `δ_n = 0`, and `s_1`, `s_x`. It commits `c_d = com(d; r_d)`,
//! `c_δ = com((−δ_l·d_{l+1})_{l<n}; s_1)` and
//! `c_Δ = com((δ_{l+1} − u_{l+1}·δ_l − p_l·d_{l+1})_{l<n}; s_x)`. Challenge `w`. Responses
//! `ã = w·u + d`, `b̃ = w·p + δ` (only `b̃_2..b̃_{n−1}` are sent: `b̃_1 = ã_1` and `b̃_n = w·P`),
//! `r̃ = w·s + r_d`, `s̃ = w·s_x + s_1`. Verifier: `w·c_u + c_d = com(ã; r̃)` and
//! `w·c_Δ + c_δ = com((w·b̃_{l+1} − b̃_l·ã_{l+1})_{l<n}; s̃)`.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::ProofError;
use super::msm::Msm;
use super::params::ShuffleParams;
use super::transcript::{Nonces, Transcript};
use super::wire::{Reader, Writer};

/// Proves that the vector `u` (committed with randomness `s`) multiplies to its product.
pub(crate) fn prove(
    params: &ShuffleParams,
    tr: &mut Transcript,
    nonces: &mut Nonces,
    w: &mut Writer,
    u: &[Scalar],
    s: &Scalar,
) {
    let n = u.len();
    let mut p = Vec::with_capacity(n);
    let mut acc = Scalar::ONE;
    for x in u {
        acc *= x;
        p.push(acc);
    }
    let d = nonces.scalars(n);
    let r_d = nonces.scalar();
    let mut delta = Vec::with_capacity(n);
    delta.push(d[0]);
    delta.extend(nonces.scalars(n - 2));
    delta.push(Scalar::ZERO);
    let s_1 = nonces.scalar();
    let s_x = nonces.scalar();
    let small: Vec<Scalar> = (0..n - 1).map(|l| -(delta[l] * d[l + 1])).collect();
    let big: Vec<Scalar> = (0..n - 1)
        .map(|l| delta[l + 1] - u[l + 1] * delta[l] - p[l] * d[l + 1])
        .collect();
    w.point(&params.commit(&d, &r_d));
    w.point(&params.commit(&small, &s_1));
    w.point(&params.commit(&big, &s_x));
    tr.absorb(b"svp/commit", w.round());
    let x = tr.challenge(b"w");
    let a_t: Vec<Scalar> = u.iter().zip(&d).map(|(u, d)| x * u + d).collect();
    let b_t: Vec<Scalar> = p.iter().zip(&delta).map(|(p, e)| x * p + e).collect();
    w.scalars(&a_t);
    w.scalars(&b_t[1..n - 1]);
    w.scalar(&(x * s + r_d));
    w.scalar(&(x * s_x + s_1));
    tr.absorb(b"svp/response", w.round());
}

/// A single-value product argument as read, with its challenge.
pub(crate) struct SvpProof {
    c_d: RistrettoPoint,
    c_small: RistrettoPoint,
    c_big: RistrettoPoint,
    a_t: Vec<Scalar>,
    b_mid: Vec<Scalar>,
    r_t: Scalar,
    s_t: Scalar,
    w: Scalar,
}

/// Reads an argument for a vector of length `n`.
pub(crate) fn read(
    r: &mut Reader<'_>,
    tr: &mut Transcript,
    n: usize,
) -> Result<SvpProof, ProofError> {
    let c_d = r.point()?;
    let c_small = r.point()?;
    let c_big = r.point()?;
    tr.absorb(b"svp/commit", r.round());
    let w = tr.challenge(b"w");
    let a_t = r.scalars(n)?;
    let b_mid = r.scalars(n - 2)?;
    let r_t = r.scalar()?;
    let s_t = r.scalar()?;
    tr.absorb(b"svp/response", r.round());
    Ok(SvpProof {
        c_d,
        c_small,
        c_big,
        a_t,
        b_mid,
        r_t,
        s_t,
        w,
    })
}

impl SvpProof {
    /// Adds both equations for the product `target`, scaled by `omega`, except `c_u`: returns
    /// the coefficient the caller must give `c_u`.
    pub(crate) fn check(&self, msm: &mut Msm<'_>, omega: &[Scalar; 2], target: &Scalar) -> Scalar {
        let [w1, w2] = omega;
        let x = self.w;
        let n = self.a_t.len();
        msm.point(*w1, &self.c_d);
        msm.sub_commit(w1, &self.a_t, &self.r_t);
        let mut b_t = Vec::with_capacity(n);
        b_t.push(self.a_t[0]);
        b_t.extend_from_slice(&self.b_mid);
        b_t.push(x * target);
        let v: Vec<Scalar> = (0..n - 1)
            .map(|l| x * b_t[l + 1] - b_t[l] * self.a_t[l + 1])
            .collect();
        msm.point(w2 * x, &self.c_big);
        msm.point(*w2, &self.c_small);
        msm.sub_commit(w2, &v, &self.s_t);
        w1 * x
    }
}
