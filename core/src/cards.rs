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
        self.counts
            .iter()
            .zip(other.counts.iter())
            .all(|(a, b)| a >= b)
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
        self.counts.iter().enumerate().flat_map(|(i, &n)| {
            Card::from_slot(i)
                .into_iter()
                .flat_map(move |c| std::iter::repeat_n(c, usize::from(n)))
        })
    }

    /// The distinct faces present.
    pub fn distinct(&self) -> impl Iterator<Item = Card> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .filter_map(|(i, _)| Card::from_slot(i))
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

    /// Number of wild cards (twos and jokers).
    pub fn wild_count(&self) -> usize {
        self.count_rank(Rank::Two) + self.count(Card::JOKER)
    }

    /// Sum of the card values ([`Card::points`]).
    pub fn points(&self) -> i32 {
        self.counts
            .iter()
            .enumerate()
            .filter_map(|(i, &n)| Card::from_slot(i).map(|c| c.points() * i32::from(n)))
            .sum()
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
    fn counts_ranks_wilds_and_points() {
        let hand = cards("KS KH 2C JK 3S 3H");
        assert_eq!(hand.count_rank(Rank::King), 2);
        assert_eq!(hand.wild_count(), 2);
        assert_eq!(hand.points(), 10 + 10 + 20 + 50 + 5);
    }
}
