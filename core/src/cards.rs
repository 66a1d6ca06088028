//! `Cards`: a multiset of cards (a hand), stored as one count per face.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// A multiset of cards, such as a hand. Copies of one face are counted, never told apart.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Cards {
    counts: [u8; Card::SLOTS],
    len: u16,
}

impl Default for Cards {
    fn default() -> Self {
        Self::new()
    }
}

impl Cards {
    /// The empty multiset.
    pub const fn new() -> Self {
        Self {
            counts: [0; Card::SLOTS],
            len: 0,
        }
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many copies of `card` there are.
    pub fn count(&self, card: Card) -> usize {
        usize::from(self.counts[card.index()])
    }

    /// Whether at least one copy of `card` is here.
    pub fn contains(&self, card: Card) -> bool {
        self.counts[card.index()] > 0
    }

    /// Adds one copy of `card`.
    pub fn add(&mut self, card: Card) {
        self.counts[card.index()] = self.counts[card.index()].saturating_add(1);
        self.len = self.len.saturating_add(1);
    }

    /// Removes one copy of `card`; returns false (and changes nothing) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let slot = &mut self.counts[card.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        self.len -= 1;
        true
    }

    /// Whether every card of `other` (counting copies) is here.
    pub fn contains_all(&self, other: &Self) -> bool {
        // No early exit: the compiler turns this into a few wide compares.
        self.counts
            .iter()
            .zip(other.counts.iter())
            .fold(true, |all, (a, b)| all & (a >= b))
    }

    /// The faces present, as a set of face indices (bit `i` for [`Card::from_slot`]`(i)`).
    pub(crate) fn faces(&self) -> u64 {
        // Eight counts at a time: a high bit for each non-zero byte, gathered into a byte.
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let nonzero = |x: u64| ((((x & LOW7) + LOW7) | x) & !LOW7) >> 7;
        let gather = |x: u64| nonzero(x).wrapping_mul(GATHER) >> 56;
        let mut set = 0;
        let chunks = self.counts.chunks_exact(8);
        let tail = chunks.remainder();
        for (k, chunk) in chunks.enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(chunk);
            set |= gather(u64::from_le_bytes(bytes)) << (8 * k);
        }
        let mut bytes = [0u8; 8];
        bytes[..tail.len()].copy_from_slice(tail);
        set |= gather(u64::from_le_bytes(bytes)) << (8 * (Card::SLOTS / 8));
        set
    }

    /// Removes every card of `other`; returns false (and changes nothing) unless all are here.
    pub fn remove_all(&mut self, other: &Self) -> bool {
        if !self.contains_all(other) {
            return false;
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a -= b;
        }
        self.len -= other.len;
        true
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Self) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a = a.saturating_add(*b);
        }
        self.len = self.len.saturating_add(other.len);
    }

    /// The cards, lowest face index first, each copy once.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        Iter {
            counts: &self.counts,
            slot: 0,
            left: self.counts[0],
            remaining: self.len(),
        }
    }

    /// The distinct faces present.
    pub fn distinct(&self) -> impl Iterator<Item = Card> + '_ {
        let mut set = self.faces();
        std::iter::from_fn(move || {
            if set == 0 {
                return None;
            }
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Card::from_slot(i)
        })
    }

    /// The cards as a list, in face order.
    pub fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Number of natural cards of `rank` (any suit).
    pub fn count_rank(&self, rank: Rank) -> usize {
        Suit::ALL
            .iter()
            .map(|&s| self.count(Card::new(rank, s)))
            .sum()
    }

    /// Natural cards of each rank (by [`Rank::index`], any suit; twos count as rank 0).
    pub(crate) fn rank_counts(&self) -> [u8; 13] {
        let mut n = [0u8; 13];
        for suit in self.counts[..52].chunks_exact(13) {
            for (a, b) in n.iter_mut().zip(suit) {
                *a = a.saturating_add(*b);
            }
        }
        n
    }

    /// Number of wild cards (twos and jokers).
    pub fn wild_count(&self) -> usize {
        self.count_rank(Rank::Two) + self.count(Card::JOKER)
    }

    /// Sum of the card values ([`Card::points`]).
    pub fn points(&self) -> i32 {
        self.counts
            .iter()
            .zip(SLOT_POINTS.iter())
            .map(|(&n, &p)| i32::from(n) * p)
            .sum()
    }

    /// Number of red threes (3♦ and 3♥).
    pub fn red_three_count(&self) -> usize {
        self.count(Card::new(Rank::Three, Suit::Diamonds))
            + self.count(Card::new(Rank::Three, Suit::Hearts))
    }

    /// Number of black threes (3♣ and 3♠).
    pub fn black_three_count(&self) -> usize {
        self.count(Card::new(Rank::Three, Suit::Clubs))
            + self.count(Card::new(Rank::Three, Suit::Spades))
    }
}

/// [`Card::points`] of the card in each multiset slot.
const SLOT_POINTS: [i32; Card::SLOTS] = {
    let mut t = [0; Card::SLOTS];
    let mut i = 0;
    while i < Card::SLOTS {
        // Rank index i % 13 in suit i / 13; 52 is the joker, 53 the hidden card.
        t[i] = if i == 52 {
            50
        } else if i > 52 {
            0
        } else {
            let red = i / 13 == 1 || i / 13 == 2;
            match i % 13 {
                0 | 12 => 20,
                1 if red => 0,
                1..=5 => 5,
                _ => 10,
            }
        };
        i += 1;
    }
    t
};

/// The iterator of [`Cards::iter`].
struct Iter<'a> {
    counts: &'a [u8; Card::SLOTS],
    slot: usize,
    /// Copies of `slot` still to give.
    left: u8,
    /// Cards still to give in all.
    remaining: usize,
}

impl Iterator for Iter<'_> {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.remaining == 0 {
            return None;
        }
        while self.left == 0 {
            self.slot += 1;
            self.left = *self.counts.get(self.slot)?;
        }
        self.left -= 1;
        self.remaining -= 1;
        Card::from_slot(self.slot)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut set = Self::new();
        for c in iter {
            set.add(c);
        }
        set
    }
}

impl<'a> FromIterator<&'a Card> for Cards {
    fn from_iter<I: IntoIterator<Item = &'a Card>>(iter: I) -> Self {
        iter.into_iter().copied().collect()
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Vec::<Card>::deserialize(deserializer)?;
        if list.len() > usize::from(u16::MAX) {
            return Err(serde::de::Error::custom("too many cards"));
        }
        Ok(list.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn remove_all_is_all_or_nothing() {
        let mut hand = cards("KS KS 2C JK");
        let before = hand.clone();
        assert!(!hand.remove_all(&cards("KS KS KS")));
        assert_eq!(hand, before);
        assert!(hand.remove_all(&cards("KS 2C")));
        assert_eq!(hand, cards("KS JK"));
        assert_eq!(hand.len(), 2);
    }

    #[test]
    fn slot_points_are_the_card_values() {
        for (i, points) in SLOT_POINTS.iter().enumerate() {
            let c = Card::from_slot(i).unwrap();
            assert_eq!(*points, c.points(), "{c}");
        }
        let hand = cards("KS KS 2C 3D 3C JK");
        let order: Vec<Card> = "2C 3C 3D KS KS JK"
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(hand.iter().collect::<Vec<_>>(), order);
        assert_eq!((hand.red_three_count(), hand.black_three_count()), (1, 1));
        let mut many = Cards::new();
        for i in (0..Card::SLOTS).step_by(3) {
            for _ in 0..(i % 5 + 1) * 40 {
                many.add(Card::from_slot(i).unwrap());
            }
        }
        let slow = (0..Card::SLOTS).fold(0u64, |s, i| s | u64::from(many.counts[i] > 0) << i);
        assert_eq!(many.faces(), slow);
        assert_eq!(hand.faces().count_ones(), 5);
    }

    #[test]
    fn counts_ranks_wilds_and_points() {
        let hand = cards("KS KH 2C JK 3S 3H");
        assert_eq!(hand.count_rank(Rank::King), 2);
        assert_eq!(hand.wild_count(), 2);
        assert_eq!(hand.points(), 10 + 10 + 20 + 50 + 5);
    }
}
