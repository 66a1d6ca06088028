//! A move as the hand reported it ([`Played`]): the move, and what it did that the move alone
//! does not say (the cards it drew into the player's hand, the pile it took, the red threes it
//! laid out), so that the table can show it without the view from before the move.

use fairdeal_core::{Move, PlayerView, Seat};
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
        let team = seat.team();
        let effect = MoveEffect::of(
            &mv,
            (seat == after.seat()).then(|| (before.hand(), after.hand())),
            before.pile(),
            (before.red_threes(team), after.red_threes(team)),
        );
        Self { seat, mv, effect }
    }
}
