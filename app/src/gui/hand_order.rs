//! The order of the cards in the hand row: sorted by rank or suit, or as the player moved
//! them (new cards at the end). The model keeps it; the hand row draws by it.

use fairdeal_core::Card;

use super::cards;
use super::prefs::SortBy;

/// The order the player gave the hand by moving cards (empty: sorted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandOrder {
    manual: Vec<Card>,
}

/// Sorts `cards` by `sort`.
pub fn sorted(cards: &[Card], sort: SortBy) -> Vec<Card> {
    let mut v = cards.to_vec();
    match sort {
        SortBy::Rank => v.sort_by_key(cards::rank_key),
        SortBy::Suit => v.sort_by_key(cards::suit_key),
    }
    v
}

impl HandOrder {
    /// `cards` in the order to show: as moved by hand (new cards at the end, sorted), or
    /// sorted when nothing was moved.
    pub fn arrange(&mut self, cards: &[Card], sort: SortBy) -> Vec<Card> {
        let sorted = sorted(cards, sort);
        if self.manual.is_empty() {
            return sorted;
        }
        let mut rest = sorted.clone();
        let mut out = Vec::with_capacity(cards.len());
        for c in &self.manual {
            if let Some(p) = rest.iter().position(|x| x == c) {
                out.push(rest.remove(p));
            }
        }
        out.extend(rest);
        self.manual.clone_from(&out);
        out
    }

    /// Back to the sorted order.
    pub fn reset(&mut self) {
        self.manual.clear();
    }

    /// Whether the player has moved cards.
    pub fn is_manual(&self) -> bool {
        !self.manual.is_empty()
    }

    /// Moves the card at `from` of the row `shown` so that it lands before the card now at
    /// `to` (`to == shown.len()`: at the end).
    pub fn move_card(&mut self, shown: &[Card], from: usize, to: usize) {
        if from >= shown.len() {
            return;
        }
        let mut v = shown.to_vec();
        let card = v.remove(from);
        let to = if to > from { to - 1 } else { to }.min(v.len());
        v.insert(to, card);
        self.manual = v;
    }
}

#[cfg(test)]
mod tests {
    use fairdeal_core::{Rank, Suit};

    use super::*;

    fn c(r: Rank, s: Suit) -> Card {
        Card::new(r, s)
    }

    #[test]
    fn a_moved_card_stays_where_it_was_put_and_new_cards_come_last() {
        let hand = vec![
            c(Rank::King, Suit::Spades),
            c(Rank::Four, Suit::Hearts),
            c(Rank::Nine, Suit::Clubs),
        ];
        let mut order = HandOrder::default();
        let shown = order.arrange(&hand, SortBy::Rank);
        assert_eq!(shown[0], c(Rank::King, Suit::Spades));
        // The four to the front.
        order.move_card(&shown, 2, 0);
        let shown = order.arrange(&hand, SortBy::Rank);
        assert_eq!(shown[0], c(Rank::Four, Suit::Hearts));
        // A new card comes at the end; a card played leaves.
        let hand2 = vec![
            c(Rank::King, Suit::Spades),
            c(Rank::Four, Suit::Hearts),
            c(Rank::Ace, Suit::Clubs),
        ];
        let shown = order.arrange(&hand2, SortBy::Rank);
        assert_eq!(
            shown,
            [
                c(Rank::Four, Suit::Hearts),
                c(Rank::King, Suit::Spades),
                c(Rank::Ace, Suit::Clubs)
            ]
        );
        order.reset();
        assert_eq!(
            order.arrange(&hand2, SortBy::Rank)[0],
            c(Rank::Ace, Suit::Clubs)
        );
    }
}
