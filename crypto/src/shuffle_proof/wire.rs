//! The shuffle proof's encoding: a fixed sequence of 32-byte words (compressed ristretto points
//! and canonical little-endian scalars) in transcript order, whose length is fixed by the deck
//! split. The reader refuses a wrong length, an invalid or non-canonical point and a
//! non-canonical scalar; the writer and the reader mark the rounds the transcript absorbs.

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;

use super::ProofError;

/// The number of points and scalars in a proof for the split `(m, n)`.
pub(crate) fn counts(m: usize, n: usize) -> (usize, usize) {
    if m == 1 {
        // c_A, c_B; SVP 3; multi-exponentiation 1 + 1 + 2.
        (9, 3 * n + 4)
    } else {
        // c_A, c_B (2m); Hadamard m−1; zero 2m+2; SVP 3; multi-exponentiation 6m−2.
        (11 * m + 2, 5 * n + 7)
    }
}

/// The exact length in bytes of a proof for the split `(m, n)`.
pub fn proof_len(m: usize, n: usize) -> usize {
    let (p, s) = counts(m, n);
    32 * (p + s)
}

/// Appends words and marks rounds.
pub(crate) struct Writer {
    bytes: Vec<u8>,
    start: usize,
}

impl Writer {
    pub(crate) fn with_capacity(len: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(len),
            start: 0,
        }
    }

    pub(crate) fn point(&mut self, p: &RistrettoPoint) {
        self.bytes.extend_from_slice(p.compress().as_bytes());
    }

    pub(crate) fn scalar(&mut self, s: &Scalar) {
        self.bytes.extend_from_slice(s.as_bytes());
    }

    pub(crate) fn scalars(&mut self, ss: &[Scalar]) {
        for s in ss {
            self.scalar(s);
        }
    }

    /// The bytes written since the previous round.
    pub(crate) fn round(&mut self) -> &[u8] {
        let from = self.start;
        self.start = self.bytes.len();
        &self.bytes[from..]
    }

    pub(crate) fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads words and marks rounds.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    start: usize,
}

impl<'a> Reader<'a> {
    /// A reader over a proof of exactly `expected` bytes.
    pub(crate) fn new(bytes: &'a [u8], expected: usize) -> Result<Self, ProofError> {
        if bytes.len() != expected {
            return Err(ProofError::Length {
                expected,
                got: bytes.len(),
            });
        }
        Ok(Self {
            bytes,
            pos: 0,
            start: 0,
        })
    }

    fn word(&mut self) -> Result<[u8; 32], ProofError> {
        let w = self
            .bytes
            .get(self.pos..self.pos + 32)
            .and_then(|w| <[u8; 32]>::try_from(w).ok())
            .ok_or(ProofError::Length {
                expected: self.pos + 32,
                got: self.bytes.len(),
            })?;
        self.pos += 32;
        Ok(w)
    }

    pub(crate) fn point(&mut self) -> Result<RistrettoPoint, ProofError> {
        let at = self.pos;
        CompressedRistretto(self.word()?)
            .decompress()
            .ok_or(ProofError::BadPoint(at))
    }

    pub(crate) fn points(&mut self, k: usize) -> Result<Vec<RistrettoPoint>, ProofError> {
        (0..k).map(|_| self.point()).collect()
    }

    pub(crate) fn scalar(&mut self) -> Result<Scalar, ProofError> {
        let at = self.pos;
        Option::from(Scalar::from_canonical_bytes(self.word()?)).ok_or(ProofError::BadScalar(at))
    }

    pub(crate) fn scalars(&mut self, k: usize) -> Result<Vec<Scalar>, ProofError> {
        (0..k).map(|_| self.scalar()).collect()
    }

    /// The bytes read since the previous round.
    pub(crate) fn round(&mut self) -> &'a [u8] {
        let from = self.start;
        self.start = self.pos;
        &self.bytes[from..self.pos]
    }

    /// Whether every byte was read.
    pub(crate) fn is_done(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;

    #[test]
    fn round_trip_and_refusals() {
        let mut w = Writer::with_capacity(64);
        w.point(&RISTRETTO_BASEPOINT_POINT);
        assert_eq!(w.round().len(), 32);
        w.scalar(&Scalar::from(9u8));
        assert_eq!(w.round().len(), 32);
        let bytes = w.finish();
        assert!(matches!(
            Reader::new(&bytes, 96),
            Err(ProofError::Length {
                expected: 96,
                got: 64
            })
        ));
        let mut r = Reader::new(&bytes, 64).unwrap();
        assert_eq!(r.point().unwrap(), RISTRETTO_BASEPOINT_POINT);
        assert_eq!(r.round(), &bytes[..32]);
        assert_eq!(r.scalar().unwrap(), Scalar::from(9u8));
        assert!(r.is_done());
        // A non-canonical scalar (ℓ itself) and an invalid point.
        let mut bad = bytes.clone();
        bad[32..].copy_from_slice(&[
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
            0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ]);
        let mut r = Reader::new(&bad, 64).unwrap();
        assert!(r.point().is_ok());
        assert_eq!(r.scalar(), Err(ProofError::BadScalar(32)));
        bad[0] ^= 1;
        let mut r = Reader::new(&bad, 64).unwrap();
        assert_eq!(r.point(), Err(ProofError::BadPoint(0)));
    }

    #[test]
    fn lengths() {
        assert_eq!(proof_len(3, 54), 32 * (35 + 277));
        assert_eq!(proof_len(1, 7), 32 * (9 + 25));
    }
}
