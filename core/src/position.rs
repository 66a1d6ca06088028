//! `Position`: the whole state of one hand, omniscient (every hand and the stock order).

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cards::Cards;
use crate::meld::Meld;
use crate::rules::Rules;
use crate::seat::{Seat, Team};

/// Where the turn stands.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to act has not drawn or taken the pile yet.
    Draw,
    /// The seat has drawn and may meld, discard, pass or ask.
    Play,
    /// The seat asked "May I go out?" and waits for the partner's answer.
    Answer,
    /// The hand is over.
    Over,
}

/// How the seat to act started its turn.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Drew {
    /// Nothing yet.
    Nothing,
    /// From the stock.
    Stock,
    /// The whole pile.
    Pile,
    /// `dutch-samba`: only the top card.
    TakeTop,
}

/// What the current turn has done so far (reset when the turn passes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnState {
    /// How the turn started.
    pub drew: Drew,
    /// Whether the seat melded in this turn beyond what a pickup required.
    pub melded: bool,
    /// Whether the seat asked its partner this turn.
    pub asked: bool,
    /// The partner's answer, once given.
    pub answer: Option<bool>,
    /// The team's meld count when the turn began (melds at or past it were made this turn).
    pub melds_at_start: usize,
    /// Whether the seat added to a meld that existed before the turn (`canasta` concealed).
    pub added_to_old_meld: bool,
    /// `canasta`: this turn drew the last stock card, so the hand ends with it.
    pub last_stock_turn: bool,
    /// Whether the seat to act had melded before this turn (`canasta` concealed).
    pub seat_had_melded: bool,
}

impl TurnState {
    pub(crate) fn fresh(melds_at_start: usize, seat_had_melded: bool) -> Self {
        Self {
            drew: Drew::Nothing,
            melded: false,
            asked: false,
            answer: None,
            melds_at_start,
            added_to_old_meld: false,
            last_stock_turn: false,
            seat_had_melded,
        }
    }
}

/// How a hand ended.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandEnd {
    /// A seat went out.
    WentOut {
        /// Who went out.
        seat: Seat,
        /// `canasta`: whether it was concealed.
        concealed: bool,
    },
    /// The stock ran out.
    StockExhausted,
}

/// One hand in progress (or just ended), with everything needed to validate any move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) dealer: Seat,
    pub(crate) scores: [i32; 2],
    pub(crate) turn: Seat,
    pub(crate) phase: Phase,
    pub(crate) hands: [Cards; 4],
    pub(crate) melds: [Vec<Meld>; 2],
    pub(crate) red_threes: [Vec<Card>; 2],
    /// Bottom first, top last.
    pub(crate) pile: Vec<Card>,
    pub(crate) pile_frozen: bool,
    /// Top LAST (so drawing is a pop); the description format lists the top first.
    pub(crate) stock: Vec<Card>,
    pub(crate) melded_before: [bool; 4],
    pub(crate) turn_state: TurnState,
    pub(crate) end: Option<HandEnd>,
}

impl Position {
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The dealer of this hand.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Cumulative team scores before this hand.
    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }

    /// The seat to act (while the partner answers, still the asker).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// What the current turn has done.
    pub fn turn_state(&self) -> &TurnState {
        &self.turn_state
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &Cards {
        &self.hands[seat.index()]
    }

    /// A team's melds in order.
    pub fn melds(&self, team: Team) -> &[Meld] {
        &self.melds[team.index()]
    }

    /// The red threes a team has laid out.
    pub fn red_threes(&self, team: Team) -> &[Card] {
        &self.red_threes[team.index()]
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    /// The top card of the pile.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// Whether the pile is frozen for everyone (a wild inside, or a frozen start).
    pub fn pile_frozen(&self) -> bool {
        self.pile_frozen
    }

    /// Whether the pile is frozen for `team` (`canasta` adds: the team has not melded, or the
    /// house rule keeps it always frozen).
    pub fn pile_frozen_for(&self, team: Team) -> bool {
        if !self.rules.has_freezing() {
            return false;
        }
        let mut frozen = self.pile_frozen;
        if self.rules.preset == crate::rules::Preset::Canasta {
            frozen |= self.rules.pile_always_frozen || !self.has_opened(team);
        }
        frozen
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// The stock, next card to draw first.
    pub fn stock_top_first(&self) -> impl Iterator<Item = Card> + '_ {
        self.stock.iter().rev().copied()
    }

    /// Whether `team` has melded this hand (has at least one meld).
    pub fn has_opened(&self, team: Team) -> bool {
        !self.melds[team.index()].is_empty()
    }

    /// Whether `seat` has melded earlier in this hand.
    pub fn melded_before(&self, seat: Seat) -> bool {
        self.melded_before[seat.index()]
    }

    /// The opening minimum `team` needs (by its cumulative score).
    pub fn opening_minimum(&self, team: Team) -> i32 {
        self.rules.opening_minimum(self.scores[team.index()])
    }

    /// Number of completed combinations (canastas and sambas) of `team`.
    pub fn completed(&self, team: Team) -> usize {
        self.melds[team.index()]
            .iter()
            .filter(|m| m.is_complete())
            .count()
    }

    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it has.
    pub fn end(&self) -> Option<HandEnd> {
        self.end
    }

    /// Every card in the position (hands, melds, red threes, pile, stock), for conservation checks.
    pub fn all_cards(&self) -> Cards {
        let mut all = Cards::new();
        for h in &self.hands {
            all.add_all(h);
        }
        for team in &self.melds {
            for m in team {
                for &c in m.cards() {
                    all.add(c);
                }
            }
        }
        for c in self
            .red_threes
            .iter()
            .flatten()
            .chain(&self.pile)
            .chain(&self.stock)
        {
            all.add(*c);
        }
        all
    }
}
