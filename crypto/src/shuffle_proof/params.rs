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

/// The most rows `m` a deck may be split into ([`ShuffleParams::with_rows`]).
pub const MAX_ROWS: usize = 3;

/// The protocol's split `(m, n)` of a deck of `cards`: one row, `(1, cards)`, or `None` if the
/// proof does not support that size. One row proves fastest (the multi-exponentiation's
/// `2·m·N` variable-base terms are the prover's main cost: 324 instead of 972 for 162 cards,
/// ≈ 40 % less proving time) and verifies at the same cost as three; the proof is 5,984 bytes
/// longer (15,968 for 162 cards). Proving sits on the hand start's critical path four times
/// (each seat proves in turn); verifying does not.
pub fn split(cards: usize) -> Option<(usize, usize)> {
    rows_split(cards, 1)
}

/// The split `(m, cards / m)`, if `m` divides `cards`, `1 ≤ m ≤ MAX_ROWS`, `n ≥ 2` and the
/// deck is within [`MAX_CARDS`].
fn rows_split(cards: usize, m: usize) -> Option<(usize, usize)> {
    ((4..=MAX_CARDS).contains(&cards)
        && (1..=MAX_ROWS).contains(&m)
        && cards.is_multiple_of(m)
        && cards / m >= 2)
        .then(|| (m, cards / m))
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
        Self::build(cards, m, n)
    }

    /// The parameters for a deck of `cards` split into `m` rows: not the protocol's (which is
    /// [`ShuffleParams::new`], one row), kept so that the general Bayer–Groth argument stays
    /// tested and `bench crypto` can compare the splits.
    ///
    /// # Errors
    ///
    /// [`ProofError::UnsupportedSize`] unless `m` divides `cards` into rows of at least two
    /// (`m ≤ MAX_ROWS`, `cards ≤ MAX_CARDS`).
    pub fn with_rows(cards: usize, m: usize) -> Result<Self, ProofError> {
        let (m, n) = rows_split(cards, m).ok_or(ProofError::UnsupportedSize(cards))?;
        Self::build(cards, m, n)
    }

    fn build(cards: usize, m: usize, n: usize) -> Result<Self, ProofError> {
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

    /// The parameters in a log line say their size (the points would be kilobytes of noise).
    #[test]
    fn parameters_debug_as_their_size() {
        let p = ShuffleParams::with_rows(12, 2).unwrap();
        assert_eq!(format!("{p:?}"), "ShuffleParams(12 cards = 2 × 6)");
    }

    #[test]
    fn splits() {
        assert_eq!(split(162), Some((1, 162)));
        assert_eq!(split(108), Some((1, 108)));
        assert_eq!(split(3), None);
        assert_eq!(split(MAX_CARDS + 1), None);
        assert_eq!(rows_split(162, 3), Some((3, 54)));
        assert_eq!(rows_split(12, 2), Some((2, 6)));
        assert_eq!(rows_split(10, 3), None, "3 does not divide 10");
        assert_eq!(rows_split(6, 3), Some((3, 2)));
        assert_eq!(rows_split(12, 4), None, "more rows than MAX_ROWS");
        assert_eq!(rows_split(12, 0), None);
        for cards in 4..=MAX_CARDS {
            assert_eq!(split(cards), Some((1, cards)));
            for m in 1..=MAX_ROWS {
                if let Some((m2, n)) = rows_split(cards, m) {
                    assert_eq!((m2 * n, m2), (cards, m));
                    assert!(n >= 2);
                } else {
                    assert!(!cards.is_multiple_of(m) || cards / m < 2);
                }
            }
        }
    }

    #[test]
    fn parameters_are_cached_per_size() {
        let a = params(12).unwrap();
        let b = params(12).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(params(10).unwrap().split(), (1, 10));
        assert_eq!(ShuffleParams::with_rows(10, 2).unwrap().split(), (2, 5));
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
