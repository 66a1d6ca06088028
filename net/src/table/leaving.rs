//! Leaving mid-hand without voiding it. A `Quit` during a hand makes whatever the seat still
//! owes due from it, so the others vote it out past the grace period and the hand is void
//! (`quits.rs`), while a `Quit` between hands leaves the scored hand standing. So a person who
//! leaves while a hand is played keeps the seat and its identity to the end of that hand, the
//! client playing it by the replacement strategy, and signs the `Quit` once the hand is
//! scored.

use fairdeal_core::Move;

use super::{NotNow, TableError, TableSession};

/// What [`TableSession::leave_after_hand`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaving {
    /// No hand was being played: the signed `Quit` is out.
    Quit,
    /// A hand is being played: the client plays the seat to its end, then quits.
    AfterHand,
}

impl TableSession {
    /// A person leaves during the game. With no hand being played the signed `Quit` goes out
    /// at once ([`TableSession::quit`]); during a hand nothing is sent yet: the seat is played
    /// to the end of the hand by [`TableSession::leaving_move`], and the caller quits once
    /// [`TableSession::quit_due`] says so, so that the hand is scored for all four.
    ///
    /// # Errors
    ///
    /// The game has not started or is over.
    pub fn leave_after_hand(&mut self) -> Result<Leaving, TableError> {
        if self.stage.config().is_none() || self.my_seat_index().is_none() {
            return Err(NotNow::NotStarted.into());
        }
        if self.stage.finished().is_some() {
            return Err(NotNow::GameOver.into());
        }
        if self.in_play() {
            self.leave_after = Some(self.head.hand_no);
            // Not ready for a next hand this seat will not play: the table waits for the
            // `Quit` (or its countdown) instead of dealing the next hand to a leaver.
            self.wait_for_person = true;
            Ok(Leaving::AfterHand)
        } else {
            self.quit()?;
            Ok(Leaving::Quit)
        }
    }

    /// Whether this peer is playing its seat to the end of the hand before it quits.
    pub fn leaving_after_hand(&self) -> bool {
        self.leave_after.is_some() && !self.left
    }

    /// While leaving after the hand: the move the client plays for the person whose turn it
    /// is (the replacement strategy, drawing from a stream of this seat's game secret, so the
    /// same log replays to the same moves). The caller submits and logs it as the person's.
    pub fn leaving_move(&self) -> Option<Move> {
        if !self.leaving_after_hand() || self.quit_due() || self.bot.is_some() {
            return None;
        }
        self.stand_in_move(b"leaving")
    }

    /// While leaving after the hand: whether the hand is over (scored, or void or forfeited
    /// by someone else), so that the `Quit` can go out now and leave its score standing.
    /// False once the game is over (nothing to quit).
    pub fn quit_due(&self) -> bool {
        self.leaving_after_hand()
            && self.stage.finished().is_none()
            && (self.hand.is_none()
                || self.between.is_some()
                || self.leave_after.is_some_and(|h| h < self.head.hand_no))
    }
}
