//! Committing a checked `Effect`: melds, the hand and the pile changed, the draw dealt, the
//! turn passed on, and the hand's end (gone out, the stock run out) with its phase.

use crate::card::Card;
use crate::meld::Meld;
use crate::plan::Resolved;
use crate::position::{Drew, HandEnd, Phase, Position, TurnState};
use crate::rules::{Preset, RedThreeMode, StockEnd};
use crate::seat::Seat;

use super::Effect;

impl Position {
    pub(crate) fn commit(&mut self, seat: Seat, effect: Effect) {
        let team = seat.team().index();
        match effect {
            Effect::Draw => self.commit_draw(seat),
            Effect::Pickup {
                hand,
                melds,
                red_threes,
                goes_out,
            } => {
                self.hands[seat.index()] = hand;
                self.melds[team] = melds;
                self.red_threes[team].extend(red_threes);
                self.pile.clear();
                self.pile_frozen = false;
                self.melded_before[seat.index()] = true;
                self.turn_state.drew = Drew::Pile;
                self.phase = Phase::Play;
                if goes_out {
                    self.finish_hand(seat);
                }
            }
            Effect::TakeTop { onto } => {
                if let Some(top) = self.pile.pop() {
                    self.melds[team][onto].push(top);
                }
                self.melded_before[seat.index()] = true;
                self.turn_state.drew = Drew::TakeTop;
                self.phase = Phase::Play;
            }
            Effect::Meld { resolved, goes_out } => {
                self.commit_resolved(seat, resolved);
                if goes_out {
                    self.finish_hand(seat);
                }
            }
            Effect::GoOut { resolved, discard } => {
                self.commit_resolved(seat, resolved);
                if let Some(card) = discard {
                    self.hands[seat.index()].remove(card);
                    self.push_discard(card);
                }
                self.finish_hand(seat);
            }
            Effect::LayRedThrees(cards) => {
                self.hands[seat.index()].remove_all(&cards);
                self.red_threes[team].extend(cards.iter());
                if self.hands[seat.index()].is_empty() {
                    self.finish_hand(seat);
                }
            }
            Effect::Discard { card, goes_out } => {
                self.hands[seat.index()].remove(card);
                self.push_discard(card);
                if goes_out {
                    self.finish_hand(seat);
                } else {
                    self.end_turn();
                }
            }
            Effect::Pass => self.end_turn(),
            Effect::Ask => {
                self.turn_state.asked = true;
                self.phase = Phase::Answer;
            }
            Effect::Answer(yes) => {
                self.turn_state.answer = Some(yes);
                self.phase = Phase::Play;
            }
        }
    }

    pub(super) fn commit_resolved(&mut self, seat: Seat, resolved: Resolved) {
        let team = seat.team().index();
        self.turn_state.added_to_old_meld |= resolved.touched_old;
        self.turn_state.melded = true;
        self.melded_before[seat.index()] |= resolved.hand.len() < self.hands[seat.index()].len();
        self.hands[seat.index()] = resolved.hand;
        self.melds[team] = resolved.melds;
    }

    pub(super) fn push_discard(&mut self, card: Card) {
        if card.is_wild() && self.rules.has_freezing() {
            self.pile_frozen = true;
        }
        self.pile.push(card);
    }

    pub(super) fn commit_draw(&mut self, seat: Seat) {
        if self.stock.is_empty() {
            self.end_hand(HandEnd::StockExhausted);
            return;
        }
        let auto = self.rules.red_three_mode == RedThreeMode::AutoReplace;
        let mut owed = self.rules.draw_count.min(self.stock.len());
        while owed > 0 {
            let Some(card) = self.stock.pop() else {
                // A red three was the last card: the hand ends at once.
                self.end_hand(HandEnd::StockExhausted);
                return;
            };
            owed -= 1;
            if auto && card.is_red_three() {
                self.red_threes[seat.team().index()].push(card);
                owed += 1;
            } else {
                self.hands[seat.index()].add(card);
            }
        }
        if self.stock.is_empty()
            && self.rules.preset == Preset::Canasta
            && self.rules.stock_end == StockEnd::End
        {
            self.turn_state.last_stock_turn = true;
        }
        self.turn_state.drew = Drew::Stock;
        self.phase = Phase::Play;
    }

    pub(super) fn end_turn(&mut self) {
        if self.turn_state.last_stock_turn {
            self.end_hand(HandEnd::StockExhausted);
            return;
        }
        self.turn = self.turn.next();
        self.phase = Phase::Draw;
        self.turn_state = TurnState::fresh(
            self.melds[self.turn.team().index()].len(),
            self.melded_before[self.turn.index()],
        );
    }

    pub(super) fn finish_hand(&mut self, seat: Seat) {
        let concealed = self.rules.concealed_bonus > 0
            && !self.melded_before_turn(seat)
            && !self.turn_state.added_to_old_meld
            && self.melds[seat.team().index()]
                .iter()
                .skip(self.turn_state.melds_at_start)
                .any(Meld::is_canasta);
        self.end_hand(HandEnd::WentOut { seat, concealed });
    }

    /// Whether `seat` had melded before the current turn (turn seat only).
    pub(super) fn melded_before_turn(&self, seat: Seat) -> bool {
        self.turn_state.seat_had_melded && seat == self.turn
    }

    pub(super) fn end_hand(&mut self, end: HandEnd) {
        self.end = Some(end);
        self.phase = Phase::Over;
    }
}
