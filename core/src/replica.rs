//! Replicas: a node's copy of a networked hand, where the cards it may not see are
//! [`Card::HIDDEN`]. The fair-deal layer reveals faces as they are opened; the rules then run
//! on the replica exactly as on a full position.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::meld::Meld;
use crate::position::{HandEnd, Phase, Position};
use crate::seat::{Seat, Team};

/// What every node knows of a hand: identical on all replicas of one hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PublicState {
    /// The seat to act.
    pub turn: Seat,
    /// The phase.
    pub phase: Phase,
    /// Cards in each hand.
    pub hand_sizes: [usize; 4],
    /// Each team's melds.
    pub melds: [Vec<Meld>; 2],
    /// Each team's red threes.
    pub red_threes: [Vec<Card>; 2],
    /// The pile.
    pub pile: Vec<Card>,
    /// Frozen pile.
    pub pile_frozen: bool,
    /// Cards left in the stock.
    pub stock_len: usize,
    /// How the hand ended.
    pub end: Option<HandEnd>,
}

impl Position {
    /// The public part of the position.
    pub fn public_state(&self) -> PublicState {
        PublicState {
            turn: self.turn,
            phase: self.phase,
            hand_sizes: Seat::ALL.map(|s| self.hand(s).len()),
            melds: [self.melds(Team::A).to_vec(), self.melds(Team::B).to_vec()],
            red_threes: [
                self.red_threes(Team::A).to_vec(),
                self.red_threes(Team::B).to_vec(),
            ],
            pile: self.pile.clone(),
            pile_frozen: self.pile_frozen,
            stock_len: self.stock.len(),
            end: self.end,
        }
    }

    /// Replaces the top stock cards (next to draw first) with `faces`, before a draw whose
    /// cards this node has learnt.
    pub fn prime_stock(&mut self, faces: &[Card]) {
        let n = self.stock.len();
        for (k, &face) in faces.iter().enumerate().take(n) {
            self.stock[n - 1 - k] = face;
        }
    }

    /// Turns one hidden card in `seat`'s hand into `face` (the card was opened); false if the
    /// hand holds no hidden card.
    pub fn reveal_in_hand(&mut self, seat: Seat, face: Card) -> bool {
        let hand = &mut self.hands[seat.index()];
        if !hand.remove(Card::HIDDEN) {
            return false;
        }
        hand.add(face);
        true
    }

    /// How many hidden cards `seat`'s hand holds.
    pub fn hidden_in_hand(&self, seat: Seat) -> usize {
        self.hand(seat).count(Card::HIDDEN)
    }
}
