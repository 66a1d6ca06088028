//! ristretto255 points and scalars on the wire, the card table, and ElGamal ciphertexts.

use std::collections::BTreeMap;

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::traits::Identity;
use serde::{Deserialize, Serialize};
use sha2::Sha512;

use crate::hash::label;

/// A compressed point as sent (32 bytes).
pub type PointBytes = [u8; 32];

/// Decompresses a point, rejecting invalid encodings.
pub fn decompress(bytes: &PointBytes) -> Option<RistrettoPoint> {
    CompressedRistretto(*bytes).decompress()
}

/// Decompresses a point that must not be the identity (keys, shares).
pub fn decompress_nonzero(bytes: &PointBytes) -> Option<RistrettoPoint> {
    decompress(bytes).filter(|p| *p != RistrettoPoint::identity())
}

/// The card points `M_c = hash_to_point(label ‖ u16_le(c))` for card ids `0..n`, and the
/// reverse lookup. Card id `c` is face `c % 54` of pack `c / 54`: faces 0..52 in the order
/// clubs, diamonds, hearts, spades from 2 to ace, then two jokers (52, 53).
#[derive(Debug, Clone)]
pub struct CardTable {
    points: Vec<RistrettoPoint>,
    lookup: BTreeMap<PointBytes, u16>,
}

/// The card table could not be built (distinct, non-identity points are required).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("card table is broken: two card points coincide or one is the identity")]
pub struct BrokenCardTable;

impl CardTable {
    /// The table for a pack of `n` cards (162 or 108).
    ///
    /// # Errors
    ///
    /// [`BrokenCardTable`] if two points coincide or one is the identity (never, for a
    /// working hash; checked at start-up all the same).
    pub fn new(n: u16) -> Result<Self, BrokenCardTable> {
        let points: Vec<RistrettoPoint> = (0..n)
            .map(|c| {
                let mut input = label::CARD.to_vec();
                input.extend_from_slice(&c.to_le_bytes());
                RistrettoPoint::hash_from_bytes::<Sha512>(&input)
            })
            .collect();
        let mut lookup = BTreeMap::new();
        for (c, p) in points.iter().enumerate() {
            if *p == RistrettoPoint::identity()
                || lookup.insert(p.compress().to_bytes(), c as u16).is_some()
            {
                return Err(BrokenCardTable);
            }
        }
        Ok(Self { points, lookup })
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The point of card `c`.
    pub fn point(&self, c: u16) -> Option<RistrettoPoint> {
        self.points.get(usize::from(c)).copied()
    }

    /// The card whose point is `p`.
    pub fn card_of(&self, p: &RistrettoPoint) -> Option<u16> {
        self.lookup.get(&p.compress().to_bytes()).copied()
    }

    /// The face index within a pack (0..52 naturals, 52 for either joker) of card `c`.
    pub fn face_index(c: u16) -> u8 {
        let k = (c % 54) as u8;
        k.min(52)
    }
}

/// An ElGamal ciphertext `(C1, C2) = (r·G, M + r·H)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ciphertext {
    /// `r·G`
    pub c1: RistrettoPoint,
    /// `M + r·H`
    pub c2: RistrettoPoint,
}

/// A ciphertext as sent (two compressed points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CtBytes {
    /// `C1` compressed.
    pub c1: PointBytes,
    /// `C2` compressed.
    pub c2: PointBytes,
}

impl Ciphertext {
    /// Compresses both points.
    pub fn to_bytes(&self) -> CtBytes {
        CtBytes {
            c1: self.c1.compress().to_bytes(),
            c2: self.c2.compress().to_bytes(),
        }
    }
}

impl CtBytes {
    /// Decompresses, rejecting invalid encodings.
    pub fn decompress(&self) -> Option<Ciphertext> {
        Some(Ciphertext {
            c1: decompress(&self.c1)?,
            c2: decompress(&self.c2)?,
        })
    }
}

/// The open initial deck `E_0[c] = (identity, M_c)`: public, built by every node.
pub fn open_deck(table: &CardTable) -> Vec<Ciphertext> {
    table
        .points
        .iter()
        .map(|&m| Ciphertext {
            c1: RistrettoPoint::identity(),
            c2: m,
        })
        .collect()
}

/// Compresses a whole deck.
pub fn compress_deck(deck: &[Ciphertext]) -> Vec<CtBytes> {
    deck.iter().map(Ciphertext::to_bytes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_tables_are_distinct_and_invert() {
        for n in [108u16, 162] {
            let t = CardTable::new(n).unwrap();
            assert_eq!(t.len(), usize::from(n));
            for c in 0..n {
                assert_eq!(t.card_of(&t.point(c).unwrap()), Some(c));
            }
        }
        assert_eq!(CardTable::face_index(53), 52);
        assert_eq!(CardTable::face_index(54 + 12), 12);
    }
}
