//! [`Board`]: the position as played, from the end of the deal to the end of the hand. The
//! play moves it along; the reveal, the results and the end-of-hand audit read it (the audit
//! checks it against the true hands). It sits below the stages that hand it on.

use std::collections::VecDeque;

use fairdeal_core::{Card, Cards, Move, Position, PublicState, Seat};

use super::{Event, MoveEffect};

/// The position as played: the replica (hidden cards unknown), and what the audit checks
/// against the true hands.
pub(super) struct Board {
    replica: Position,
    /// The public state right after the deal.
    deal_public: PublicState,
    /// Every move, in order.
    log: Vec<(Seat, Move)>,
    /// The public state after each move.
    publics: Vec<PublicState>,
}

impl Board {
    /// The position as dealt, before any move.
    pub(super) fn new(replica: Position) -> Self {
        Self {
            deal_public: replica.public_state(),
            replica,
            log: Vec::new(),
            publics: Vec::new(),
        }
    }

    /// The replica.
    pub(super) fn replica(&self) -> &Position {
        &self.replica
    }

    /// The replica, for the play to check and apply moves on (recorded by [`Board::record`]).
    pub(super) fn replica_mut(&mut self) -> &mut Position {
        &mut self.replica
    }

    /// How many moves were played.
    pub(super) fn turns(&self) -> usize {
        self.log.len()
    }

    /// The public state right after the deal.
    pub(super) fn deal_public(&self) -> &PublicState {
        &self.deal_public
    }

    /// Every move, in order.
    pub(super) fn log(&self) -> &[(Seat, Move)] {
        &self.log
    }

    /// The public state after move `i`.
    pub(super) fn public_after(&self, i: usize) -> Option<&PublicState> {
        self.publics.get(i)
    }

    /// What a move by `seat` starts from that its event reports: `me`'s hand if it is `me`'s
    /// move, the pile, and the red threes beside the mover's team.
    pub(super) fn before(&self, seat: Seat, me: u8) -> Before {
        Before {
            hand: (seat.index() == usize::from(me)).then(|| self.replica.hand(seat).clone()),
            pile: self.replica.pile().to_vec(),
            red_threes: self.replica.red_threes(seat.team()).to_vec(),
        }
    }

    /// Notes `mv` by `seat` as played, from `before`; returns whether the hand is over.
    pub(super) fn record(
        &mut self,
        seat: Seat,
        mv: Move,
        before: Before,
        events: &mut VecDeque<Event>,
    ) -> bool {
        self.publics.push(self.replica.public_state());
        let effect = MoveEffect::of(
            &mv,
            before.hand.as_ref().map(|h| (h, self.replica.hand(seat))),
            &before.pile,
            (&before.red_threes, self.replica.red_threes(seat.team())),
        );
        self.log.push((seat, mv.clone()));
        events.push_back(Event::Moved { seat, mv, effect });
        self.replica.is_over()
    }
}

/// What a move's event needs from the position before it (see [`Board::before`]).
pub(super) struct Before {
    hand: Option<Cards>,
    pile: Vec<Card>,
    red_threes: Vec<Card>,
}
