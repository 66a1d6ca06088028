//! The verifier's batch: every check equation of the proof, each scaled by its own power of a
//! batch challenge, summed into one multiscalar multiplication that must be the identity.
//! Coefficients of the commitment key `(h, g_1..g_n)` are merged, so the key costs n+1 terms
//! however many equations use it.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};

use super::params::ShuffleParams;

/// A sum of `scalar·point` terms.
pub(crate) struct Msm<'p> {
    params: &'p ShuffleParams,
    h: Scalar,
    g: Vec<Scalar>,
    g_all: Scalar,
    scalars: Vec<Scalar>,
    points: Vec<RistrettoPoint>,
}

impl<'p> Msm<'p> {
    /// An empty sum with room for `capacity` other terms.
    pub(crate) fn new(params: &'p ShuffleParams, capacity: usize) -> Self {
        let n = params.split().1;
        Self {
            params,
            h: Scalar::ZERO,
            g: vec![Scalar::ZERO; n],
            g_all: Scalar::ZERO,
            scalars: Vec::with_capacity(capacity),
            points: Vec::with_capacity(capacity),
        }
    }

    /// The length `n` of the commitment key.
    pub(crate) fn n(&self) -> usize {
        self.g.len()
    }

    /// Adds `s·p`.
    pub(crate) fn point(&mut self, s: Scalar, p: &RistrettoPoint) {
        self.scalars.push(s);
        self.points.push(*p);
    }

    /// Adds `s·h`.
    pub(crate) fn h(&mut self, s: Scalar) {
        self.h += s;
    }

    /// Adds `s·g_1`.
    pub(crate) fn g1(&mut self, s: Scalar) {
        self.g[0] += s;
    }

    /// Adds `s·Σ g_l`.
    pub(crate) fn g_all(&mut self, s: Scalar) {
        self.g_all += s;
    }

    /// Adds `−w·com(v; r)`.
    pub(crate) fn sub_commit(&mut self, w: &Scalar, v: &[Scalar], r: &Scalar) {
        self.h -= w * r;
        for (g, x) in self.g.iter_mut().zip(v) {
            *g -= w * x;
        }
    }

    /// Whether the sum is the identity.
    pub(crate) fn sums_to_identity(mut self) -> bool {
        let params = self.params;
        self.scalars.push(self.h);
        self.points.push(*params.h());
        for (s, g) in self.g.iter().zip(params.g()) {
            self.scalars.push(s + self.g_all);
            self.points.push(*g);
        }
        RistrettoPoint::vartime_multiscalar_mul(&self.scalars, &self.points).is_identity()
    }
}
