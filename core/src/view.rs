//! `PlayerView`: what one seat may know, and the same validation from it.
//!
//! A view holds a position in which everything the seat may not see is masked: the other
//! hands are empty (only their sizes are kept) and the stock is a row of placeholders of the
//! right length. Every rule the seat's own moves depend on reads only its own hand and public
//! state, so validating and generating its moves on the view gives the same answers as on the
//! full position (a property test checks this).

use crate::card::Card;
use crate::cards::Cards;
use crate::error::Refusal;
use crate::meld::Meld;
use crate::moves::Move;
use crate::position::{Phase, Position, TurnState};
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::seat::{Seat, Team};

/// One seat's knowledge of a hand.
#[derive(Clone, PartialEq, Eq)]
pub struct PlayerView {
    seat: Seat,
    hand_sizes: [usize; 4],
    masked: Position,
}

impl PlayerView {
    /// The view of `seat` on `position`.
    pub fn new(position: &Position, seat: Seat) -> Self {
        let mut masked = position.clone();
        let hand_sizes = Seat::ALL.map(|s| position.hand(s).len());
        for s in Seat::ALL {
            if s != seat {
                masked.hands[s.index()] =
                    std::iter::repeat_n(Card::HIDDEN, hand_sizes[s.index()]).collect();
            }
        }
        masked.stock = vec![Card::HIDDEN; position.stock_len()];
        Self {
            seat,
            hand_sizes,
            masked,
        }
    }

    /// What anyone at the table may know of `position`, seen from `seat`'s chair: every hand
    /// masked, `seat`'s too (a replay of a public transcript, a spectator). Only the seat's
    /// own moves can be checked on a view, so nothing may be played on this one.
    pub fn public(position: &Position, seat: Seat) -> Self {
        let mut view = Self::new(position, seat);
        let own = view.hand_sizes[seat.index()];
        view.masked.hands[seat.index()] = std::iter::repeat_n(Card::HIDDEN, own).collect();
        view
    }

    /// Plays one of the seat's own moves on the view (to look ahead). Draws are refused: the
    /// view cannot know what they bring.
    ///
    /// # Errors
    ///
    /// The refusal, for an illegal move or a draw.
    pub fn apply_own(&mut self, mv: &Move) -> Result<(), Refusal> {
        if *mv == (Move::Draw {}) {
            return Err(Refusal::new(
                crate::error::Code::WrongPhase,
                "a view cannot draw unknown cards",
            ));
        }
        self.masked.apply(self.seat, mv)?;
        self.hand_sizes = Seat::ALL.map(|s| self.masked.hand(s).len());
        Ok(())
    }

    /// The masked position (hidden cards are [`Card::HIDDEN`]).
    pub fn position(&self) -> &Position {
        &self.masked
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.masked.rules()
    }

    /// The seat's own cards.
    pub fn hand(&self) -> &Cards {
        self.masked.hand(self.seat)
    }

    /// How many cards `seat` holds.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.hand_sizes[seat.index()]
    }

    /// The seat to act (the asker while a question is pending).
    pub fn turn(&self) -> Seat {
        self.masked.turn()
    }

    /// Who may act now.
    pub fn actor(&self) -> Seat {
        self.masked.actor()
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.masked.phase()
    }

    /// What the current turn has done.
    pub fn turn_state(&self) -> &TurnState {
        self.masked.turn_state()
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.masked.dealer()
    }

    /// Team totals before this hand.
    pub fn scores(&self) -> [i32; 2] {
        self.masked.scores()
    }

    /// A team's melds.
    pub fn melds(&self, team: Team) -> &[Meld] {
        self.masked.melds(team)
    }

    /// A team's laid-out red threes.
    pub fn red_threes(&self, team: Team) -> &[Card] {
        self.masked.red_threes(team)
    }

    /// The discard pile, bottom first (all of it is public: every card was seen going in).
    pub fn pile(&self) -> &[Card] {
        self.masked.pile()
    }

    /// Whether the pile is frozen for `team`.
    pub fn pile_frozen_for(&self, team: Team) -> bool {
        self.masked.pile_frozen_for(team)
    }

    /// Whether the pile is frozen for everyone.
    pub fn pile_frozen(&self) -> bool {
        self.masked.pile_frozen()
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.masked.stock_len()
    }

    /// The opening minimum `team` still needs (0 once it has opened).
    pub fn minimum_needed(&self, team: Team) -> i32 {
        if self.masked.has_opened(team) {
            0
        } else {
            self.masked.opening_minimum(team)
        }
    }

    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        self.masked.is_over()
    }

    /// Validates a move of the view's own seat exactly as the full position would.
    ///
    /// # Errors
    ///
    /// The refusal, with its stable code.
    pub fn validate(&self, mv: &Move) -> Result<(), Refusal> {
        self.masked.validate(self.seat, mv)
    }

    /// The legal moves of the view's seat (empty when it may not act).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.actor() != self.seat {
            return Vec::new();
        }
        self.masked.legal_moves()
    }

    /// A uniformly random legal move of the view's seat.
    pub fn random_legal_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        if self.actor() != self.seat {
            return None;
        }
        self.masked.random_legal_move(rng)
    }

    /// A legal finish for the seat, if one is found (assuming the partner agrees).
    pub fn find_finish(&self) -> Option<Move> {
        self.masked.find_finish(self.seat)
    }

    /// A legal opening plan, if one is found.
    pub fn opening_hint(&self) -> Option<Move> {
        (self.actor() == self.seat)
            .then(|| self.masked.opening_hint())
            .flatten()
    }
}

impl std::fmt::Debug for PlayerView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerView")
            .field("seat", &self.seat)
            .field("hand", self.hand())
            .field("hand_sizes", &self.hand_sizes)
            .field("melds", &self.masked.melds)
            .field("red_threes", &self.masked.red_threes)
            .field("pile", &self.masked.pile)
            .field("stock_len", &self.stock_len())
            .field("turn", &self.turn())
            .field("phase", &self.phase())
            .finish()
    }
}

impl Position {
    /// The view of `seat`.
    pub fn view(&self, seat: Seat) -> PlayerView {
        PlayerView::new(self, seat)
    }
}
