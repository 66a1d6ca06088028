//! The public parameters of the shuffle proof for one deck size: the m×n split of the deck and
//! the Pedersen vector-commitment key `(h, g_1..g_n)`, each generator a hash to the group, so
//! nobody knows a discrete-log relation between them (nor to the ElGamal basepoint).

use std::sync::{Arc, Mutex};

use curve25519_dalek::ristretto::{RistrettoPoint, VartimeRistrettoPrecomputation};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{Identity, MultiscalarMul, VartimePrecomputedMultiscalarMul};

use super::ProofError;
use crate::hash::{hash512, label};

/// The largest deck the proof accepts (bounds every allocation a statement can cause).
pub const MAX_CARDS: usize = 1024;

/// The number of rows `m` the deck is split into, at most: `m` is the largest divisor of the
/// deck size not above this (162 = 3 × 54, 108 = 3 × 36).
pub const MAX_ROWS: usize = 3;

/// The split `(m, n)` of a deck of `cards` (`m·n = cards`, `n ≥ 2`), or `None` if the proof
/// does not support that size.
pub fn split(cards: usize) -> Option<(usize, usize)> {
    if !(4..=MAX_CARDS).contains(&cards) {
        return None;
    }
    let m = (1..=MAX_ROWS)
        .rev()
        .find(|&m| cards.is_multiple_of(m) && cards / m >= 2)?;
    Some((m, cards / m))
}

/// Generator `i` of the commitment key: `from_uniform_bytes(SHA-512(frame(label) ‖
/// frame(u32_le(i))))`; `i = 0` is `h` (the blinding generator), `1..=n` are `g_1..g_n`.
pub fn generator(i: u32) -> RistrettoPoint {
    RistrettoPoint::from_uniform_bytes(&hash512(label::SHUFFLE_GENERATOR, &[&i.to_le_bytes()]))
}

/// The parameters for a deck of `cards`, built once per size and shared (a node checks every
/// step of every hand with the same parameters).
///
/// # Errors
///
/// As [`ShuffleParams::new`].
pub fn params(cards: usize) -> Result<Arc<ShuffleParams>, ProofError> {
    static CACHE: Mutex<Vec<Arc<ShuffleParams>>> = Mutex::new(Vec::new());
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(p) = cache.iter().find(|p| p.cards == cards) {
        return Ok(p.clone());
    }
    let p = Arc::new(ShuffleParams::new(cards)?);
    cache.push(p.clone());
    Ok(p)
}

/// The parameters for one deck size.
pub struct ShuffleParams {
    cards: usize,
    m: usize,
    n: usize,
    /// `g_1..g_n`.
    g: Vec<RistrettoPoint>,
    /// `[h, g_1..g_n]`.
    key: Vec<RistrettoPoint>,
    /// `h`.
    h: RistrettoPoint,
    /// Precomputed tables for `[h, g_1..g_n]`.
    table: VartimeRistrettoPrecomputation,
}

impl std::fmt::Debug for ShuffleParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ShuffleParams({} cards = {} × {})",
            self.cards, self.m, self.n
        )
    }
}

impl ShuffleParams {
    /// The parameters for a deck of `cards`.
    ///
    /// # Errors
    ///
    /// [`ProofError::UnsupportedSize`] if [`split`] refuses the size, or (never, for a working
    /// hash) if two generators coincide or one is the identity.
    pub fn new(cards: usize) -> Result<Self, ProofError> {
        let (m, n) = split(cards).ok_or(ProofError::UnsupportedSize(cards))?;
        let points: Vec<RistrettoPoint> = (0..=n as u32).map(generator).collect();
        let mut seen = std::collections::BTreeSet::new();
        for p in &points {
            if *p == RistrettoPoint::identity() || !seen.insert(p.compress().to_bytes()) {
                return Err(ProofError::UnsupportedSize(cards));
            }
        }
        let table = VartimeRistrettoPrecomputation::new(&points);
        let h = points[0];
        let g = points[1..].to_vec();
        let key = points;
        Ok(Self {
            cards,
            m,
            n,
            g,
            key,
            h,
            table,
        })
    }

    /// The deck size.
    pub fn cards(&self) -> usize {
        self.cards
    }

    /// The split `(m, n)`.
    pub fn split(&self) -> (usize, usize) {
        (self.m, self.n)
    }

    /// `g_1..g_n`.
    pub(crate) fn g(&self) -> &[RistrettoPoint] {
        &self.g
    }

    /// `h`.
    pub(crate) fn h(&self) -> &RistrettoPoint {
        &self.h
    }

    /// The commitment `com(v; r) = r·h + Σ v_l·g_l` (`v` at most `n` long, zero-padded), in
    /// variable time: always 256 doublings plus one addition per nonzero digit of each scalar,
    /// whichever generator it meets. For uniformly blinded vectors, and for the rows of a
    /// permuted public vector (the rows' total work is that of the whole public vector).
    pub(crate) fn commit(&self, v: &[Scalar], r: &Scalar) -> RistrettoPoint {
        debug_assert!(v.len() <= self.n);
        self.table
            .vartime_multiscalar_mul(std::iter::once(r).chain(v.iter()))
    }

    /// `com(v; r)` in constant time, for vectors that are functions of the permutation.
    pub(crate) fn commit_ct(&self, v: &[Scalar], r: &Scalar) -> RistrettoPoint {
        debug_assert!(v.len() <= self.n);
        RistrettoPoint::multiscalar_mul(std::iter::once(r).chain(v.iter()), &self.key[..=v.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits() {
        assert_eq!(split(162), Some((3, 54)));
        assert_eq!(split(108), Some((3, 36)));
        assert_eq!(split(12), Some((3, 4)));
        assert_eq!(split(7), Some((1, 7)));
        assert_eq!(split(3), None);
        assert_eq!(split(MAX_CARDS + 1), None);
        for cards in 4..=MAX_CARDS {
            let (m, n) = split(cards).unwrap_or((0, 0));
            assert_eq!(m * n, cards);
            assert!(n >= 2 && (1..=MAX_ROWS).contains(&m));
        }
    }

    #[test]
    fn parameters_are_cached_per_size() {
        let a = params(12).unwrap();
        let b = params(12).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(params(10).unwrap().split(), (2, 5));
        assert!(params(3).is_err());
    }

    #[test]
    fn commitments_are_pedersen() {
        let p = ShuffleParams::new(12).unwrap_or_else(|e| panic!("{e}"));
        let v = [Scalar::from(3u8), Scalar::from(5u8)];
        let r = Scalar::from(7u8);
        let expect = r * p.h() + v[0] * p.g()[0] + v[1] * p.g()[1];
        assert_eq!(p.commit(&v, &r), expect);
        assert_eq!(p.commit(&[], &r), r * p.h());
        assert_eq!(p.commit_ct(&v, &r), expect);
        assert_eq!(p.commit_ct(&[], &r), r * p.h());
        assert_ne!(*p.h(), p.g()[0]);
    }
}
