//! The product argument (Bayer–Groth 2012 §5): the m committed columns `F_1..F_m` of an n×m
//! matrix hold entries whose product is a public `P`.
//!
//! For m = 1 it is the single-value product argument on `F_1`. For m > 1 the prover commits
//! `c_u = com(u; s_u)` to the entrywise product `u` of the columns and proves, with the
//! Hadamard product argument (§5.1), that it is that product, and with the single-value
//! product argument that `u` multiplies to `P`.
//!
//! Hadamard argument: prefix products `β_1 = α_1`, `β_k = β_{k−1} ∘ α_k`, `β_m = u`, committed
//! as `c_{β_1} = F_1`, fresh `c_{β_k} = com(β_k; σ_k)` for 1 < k < m, and `c_{β_m} = c_u`.
//! Challenges `x_h`, `y_h`. Zero argument with `⋆` weighted by `y_h^l`, for the M = m pairs
//! `(α_{i+1}, x_h^i·β_i)` (i < m, commitments `F_{i+1}` and `x_h^i·c_{β_i}`) and
//! `(−1, Σ_{i<m} x_h^i·β_{i+1})` (commitments `com(−1; 0) = −Σ g_l` and `Σ x_h^i·c_{β_{i+1}}`):
//! `Σ_i x_h^i·(α_{i+1} ⋆ β_i − 1 ⋆ β_{i+1}) = 0` exactly when every `β_{i+1} = α_{i+1} ∘ β_i`.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::ProofError;
use super::msm::Msm;
use super::params::ShuffleParams;
use super::svp::{self, SvpProof};
use super::transcript::{Nonces, Transcript};
use super::vector::{combine, hadamard, powers, star_weights};
use super::wire::{Reader, Writer};
use super::zero::{self, ZeroProof, ZeroWitness};

/// The product statement's columns as the verifier sees them:
/// `F_k = y·c_{A_k} + c_{B_k} − z·Σ g_l`.
pub(crate) struct Columns<'a> {
    pub(crate) c_a: &'a [RistrettoPoint],
    pub(crate) c_b: &'a [RistrettoPoint],
    pub(crate) y: Scalar,
    pub(crate) z: Scalar,
}

impl Columns<'_> {
    /// Adds `coef·F_k` (k 0-based).
    fn add(&self, msm: &mut Msm<'_>, k: usize, coef: Scalar) {
        msm.point(coef * self.y, &self.c_a[k]);
        msm.point(coef, &self.c_b[k]);
        msm.g_all(-(coef * self.z));
    }
}

/// The columns the product argument multiplies: `y·a + b − z`, entry by entry of the rows of
/// `a` and `b`.
pub(crate) fn columns(
    a: &[Vec<Scalar>],
    b: &[Vec<Scalar>],
    y: Scalar,
    z: Scalar,
) -> Vec<Vec<Scalar>> {
    a.iter()
        .zip(b)
        .map(|(ar, br)| ar.iter().zip(br).map(|(a, b)| y * a + b - z).collect())
        .collect()
}

/// Proves that the columns `cols` (committed with randomness `rand`) multiply to their product.
pub(crate) fn prove(
    params: &ShuffleParams,
    tr: &mut Transcript,
    nonces: &mut Nonces,
    w: &mut Writer,
    cols: &[Vec<Scalar>],
    rand: &[Scalar],
) {
    let m = cols.len();
    if m == 1 {
        svp::prove(params, tr, nonces, w, &cols[0], &rand[0]);
        return;
    }
    let n = cols[0].len();
    // β_1..β_m and σ_1..σ_m.
    let mut beta: Vec<Vec<Scalar>> = vec![cols[0].clone()];
    for col in &cols[1..] {
        let next = hadamard(&beta[beta.len() - 1], col);
        beta.push(next);
    }
    let s_u = nonces.scalar();
    let mut sigma = vec![rand[0]];
    sigma.extend(nonces.scalars(m - 2));
    sigma.push(s_u);
    w.point(&params.commit_ct(&beta[m - 1], &s_u));
    for k in 1..m - 1 {
        w.point(&params.commit_ct(&beta[k], &sigma[k]));
    }
    tr.absorb(b"hadamard/commit", w.round());
    let hx = tr.challenge(b"hx");
    let hy = tr.challenge(b"hy");
    let hxp = powers(&hx, m);
    // The M = m pairs (0-based i = 0..m−1 stands for the paper's i + 1).
    let minus_one = vec![-Scalar::ONE; n];
    let mut wit = ZeroWitness {
        a: cols[1..].to_vec(),
        ra: rand[1..].to_vec(),
        b: (0..m - 1)
            .map(|i| beta[i].iter().map(|x| hxp[i + 1] * x).collect())
            .collect(),
        rb: (0..m - 1).map(|i| hxp[i + 1] * sigma[i]).collect(),
    };
    wit.a.push(minus_one);
    wit.ra.push(Scalar::ZERO);
    let tail: Vec<&[Scalar]> = beta[1..].iter().map(Vec::as_slice).collect();
    wit.b.push(combine(&hxp[1..], &tail, n));
    wit.rb
        .push(hxp[1..].iter().zip(&sigma[1..]).map(|(h, s)| h * s).sum());
    zero::prove(params, tr, nonces, w, &wit, &star_weights(&hy, n));
    svp::prove(params, tr, nonces, w, &beta[m - 1], &s_u);
}

/// The Hadamard part of a product argument (m > 1).
struct HadamardProof {
    c_u: RistrettoPoint,
    /// `c_{β_2}..c_{β_{m−1}}`.
    c_beta: Vec<RistrettoPoint>,
    hx: Scalar,
    hy: Scalar,
    zero: ZeroProof,
}

/// A product argument as read.
pub(crate) struct ProductProof {
    hadamard: Option<HadamardProof>,
    svp: SvpProof,
}

/// Reads a product argument for an n×m matrix.
pub(crate) fn read(
    r: &mut Reader<'_>,
    tr: &mut Transcript,
    m: usize,
    n: usize,
) -> Result<ProductProof, ProofError> {
    let hadamard = if m == 1 {
        None
    } else {
        let c_u = r.point()?;
        let c_beta = r.points(m - 2)?;
        tr.absorb(b"hadamard/commit", r.round());
        let hx = tr.challenge(b"hx");
        let hy = tr.challenge(b"hy");
        let zero = zero::read(r, tr, m, n)?;
        Some(HadamardProof {
            c_u,
            c_beta,
            hx,
            hy,
            zero,
        })
    };
    let svp = svp::read(r, tr, n)?;
    Ok(ProductProof { hadamard, svp })
}

impl ProductProof {
    /// Adds every equation of the argument for the product `target`, scaled by `omega`.
    pub(crate) fn check(
        &self,
        msm: &mut Msm<'_>,
        f: &Columns<'_>,
        target: &Scalar,
        omega: &[Scalar; 5],
    ) {
        let [w1, w2, w3, w4, w5] = *omega;
        let u_coef = self.svp.check(msm, &[w4, w5], target);
        let Some(had) = &self.hadamard else {
            f.add(msm, 0, u_coef);
            return;
        };
        msm.point(u_coef, &had.c_u);
        let m = f.c_a.len();
        let n = msm.n();
        let (coef_a, coef_b) = had
            .zero
            .check(msm, &[w1, w2, w3], &star_weights(&had.hy, n));
        // A side: F_2..F_m, then com(−1; 0) = −Σ g.
        for i in 1..m {
            f.add(msm, i, coef_a[i - 1]);
        }
        msm.g_all(-coef_a[m - 1]);
        // B side: c_{β_j} gets x_h^j·coef_b[j] (j < m) and x_h^(j−1)·coef_b[m] (j > 1).
        let hxp = powers(&had.hx, m);
        let kappa = |j: usize| {
            let mut k = Scalar::ZERO;
            if j < m {
                k += coef_b[j - 1] * hxp[j];
            }
            if j > 1 {
                k += coef_b[m - 1] * hxp[j - 1];
            }
            k
        };
        f.add(msm, 0, kappa(1));
        for (j, c) in (2..m).zip(&had.c_beta) {
            msm.point(kappa(j), c);
        }
        msm.point(kappa(m), &had.c_u);
    }
}
