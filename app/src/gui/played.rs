//! A move as the hand reported it ([`Played`]): the move, and what it did that the move alone
//! does not say (the cards it drew into the player's hand, the pile it took, the red threes it
//! laid out), so that the table can show it without the view from before the move.

use fairdeal_core::{Cards, Move, PlayerView, Seat};
pub use fairdeal_net::hand::MoveEffect;

/// A move as the hand reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// What it did that the move alone does not say.
    pub effect: MoveEffect,
}

impl Played {
    /// What `seat`'s move `mv` did, worked out from the player's views before and after it
    /// (for tests, and front ends that see every view).
    pub fn between(before: &PlayerView, seat: Seat, mv: Move, after: &PlayerView) -> Self {
        let drawn = if seat == after.seat() {
            let mut had: Cards = before.hand().clone();
            after.hand().iter().filter(|&c| !had.remove(c)).collect()
        } else {
            Vec::new()
        };
        let pile = if matches!(mv, Move::Pickup { .. } | Move::TakeTop { .. }) {
            before.pile().to_vec()
        } else {
            Vec::new()
        };
        let team = seat.team();
        let red_threes = after.red_threes(team)[before
            .red_threes(team)
            .len()
            .min(after.red_threes(team).len())..]
            .to_vec();
        Self {
            seat,
            mv,
            effect: MoveEffect {
                drawn,
                pile,
                red_threes,
            },
        }
    }
}
