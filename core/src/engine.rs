//! `validate` and `apply`: every move is checked in full before anything changes. This file
//! owns the checks of each kind of move and the `Effect` they produce; taking the pile is in
//! `engine/pile.rs`, committing an effect (and the turn and hand ending) in `engine/commit.rs`.

mod commit;
mod pile;

use crate::card::Card;
use crate::cards::Cards;
use crate::error::{Code, Refusal};
use crate::meld::Meld;
use crate::moves::{Move, Plan};
use crate::plan::{self, Resolved, check_held};
use crate::position::{Drew, Phase, Position};
use crate::rules::{RedThreeMode, StockEnd};
use crate::seat::{Seat, Team};

/// What an accepted move will do; computed by validation, carried out by `commit`.
#[derive(Debug, Clone)]
pub(crate) enum Effect {
    Draw,
    Pickup {
        hand: Cards,
        melds: Vec<Meld>,
        red_threes: Vec<Card>,
        goes_out: bool,
    },
    TakeTop {
        onto: usize,
    },
    Meld {
        resolved: Resolved,
        goes_out: bool,
    },
    GoOut {
        resolved: Resolved,
        discard: Option<Card>,
    },
    LayRedThrees(Cards),
    Discard {
        card: Card,
        goes_out: bool,
    },
    Pass,
    Ask,
    Answer(bool),
}

fn refuse<T>(code: Code, reason: impl Into<std::borrow::Cow<'static, str>>) -> Result<T, Refusal> {
    Err(Refusal::new(code, reason))
}

impl Position {
    /// Checks `mv` by `seat` without changing anything.
    ///
    /// # Errors
    ///
    /// The [`Refusal`] (stable code and reason) if the move is illegal.
    pub fn validate(&self, seat: Seat, mv: &Move) -> Result<(), Refusal> {
        self.effect(seat, mv).map(|_| ())
    }

    /// Plays `mv` by `seat`. A refused move changes nothing.
    ///
    /// # Errors
    ///
    /// The [`Refusal`] if the move is illegal; `self` is then unchanged.
    pub fn apply(&mut self, seat: Seat, mv: &Move) -> Result<(), Refusal> {
        let effect = self.effect(seat, mv)?;
        self.commit(seat, effect);
        Ok(())
    }

    /// The seat who may act now: the asker's partner while a question is pending.
    pub fn actor(&self) -> Seat {
        if self.phase == Phase::Answer {
            self.turn.partner()
        } else {
            self.turn
        }
    }

    pub(crate) fn effect(&self, seat: Seat, mv: &Move) -> Result<Effect, Refusal> {
        if self.phase == Phase::Over {
            return refuse(Code::WrongPhase, "the hand is over");
        }
        if mv.any_card(Card::is_hidden) {
            return refuse(Code::CardNotHeld, "a move must name real cards");
        }
        if self.phase == Phase::Answer {
            return match mv {
                Move::Answer(yes) if seat == self.turn.partner() => Ok(Effect::Answer(*yes)),
                _ if seat == self.turn => refuse(
                    Code::WrongPhase,
                    "wait for your partner's answer to \"May I go out?\"",
                ),
                _ => refuse(Code::NotYourTurn, "only the partner answers now"),
            };
        }
        if seat != self.turn {
            return refuse(
                Code::NotYourTurn,
                format!("it is {}'s turn", self.turn.name()),
            );
        }
        let drawing = self.phase == Phase::Draw;
        match mv {
            Move::Draw {} | Move::Pickup { .. } | Move::TakeTop { .. } if !drawing => {
                refuse(Code::WrongPhase, "you have already drawn this turn")
            }
            Move::Draw {} => self.check_draw(seat).map(|()| Effect::Draw),
            Move::Pickup { with, onto, also } => self.pickup_effect(seat, with, *onto, also),
            Move::TakeTop { onto } => self.take_top_effect(seat, *onto),
            Move::Answer(_) => refuse(Code::WrongPhase, "nobody asked a question"),
            _ if drawing => refuse(
                Code::WrongPhase,
                "draw from the stock or take the pile first",
            ),
            Move::Meld(p) => self.meld_effect(seat, p),
            Move::GoOut { plan, discard } => self.go_out_effect(seat, plan, *discard),
            Move::LayRedThrees(cards) => self.lay_red_threes_effect(seat, cards),
            Move::Discard(card) => self.discard_effect(seat, *card),
            Move::Pass {} => self.pass_effect(seat),
            Move::AskPartner {} => self.ask_effect(seat),
        }
    }

    fn check_draw(&self, seat: Seat) -> Result<(), Refusal> {
        if self.stock.is_empty()
            && self.rules.stock_end == StockEnd::Classic
            && self.compelled_to_take(seat)
        {
            return refuse(
                Code::MustTakePile,
                "the stock is gone and the top card fits your meld: you must take the pile",
            );
        }
        Ok(())
    }

    /// `canasta` classic stock end: the player could take the pile by putting its top card on a
    /// team meld (so the pile is not frozen for the team and the top card matches).
    fn compelled_to_take(&self, seat: Seat) -> bool {
        (0..self.melds(seat.team()).len()).any(|i| {
            self.pickup_effect(seat, &[], Some(i), &Plan::default())
                .is_ok()
        })
    }

    /// Why `team` may not go out now, if it may not (`completed` after the move).
    pub(crate) fn go_out_refusal(&self, completed: usize) -> Option<Refusal> {
        let answer = self.turn_state.answer;
        if answer == Some(false) {
            return Some(Refusal::new(
                Code::CannotGoOut,
                "your partner said no: you may not go out this turn",
            ));
        }
        if self.rules.must_ask && answer != Some(true) {
            return Some(Refusal::new(
                Code::CannotGoOut,
                "house rule: ask your partner \"May I go out?\" first",
            ));
        }
        let need = self.rules.combos_to_go_out;
        if completed < need {
            let what = if self.rules.sequences {
                "canastas or sambas"
            } else {
                "canasta"
            };
            return Some(Refusal::new(
                Code::CannotGoOut,
                format!("your team needs {need} {what} to go out and has {completed}"),
            ));
        }
        None
    }

    /// The checks on the hand left after a meld: going out, the `canasta` two-card rule and a
    /// partner's "yes".
    fn check_hand_left(&self, melds: &[Meld], left: usize) -> Result<(), Refusal> {
        let completed = melds.iter().filter(|m| m.is_complete()).count();
        if left == 0 {
            return self.go_out_refusal(completed).map_or(Ok(()), Err);
        }
        if left == 1 && !self.rules.pass_allowed && self.go_out_refusal(completed).is_some() {
            return refuse(
                Code::CannotGoOut,
                "keep at least two cards until your team may go out",
            );
        }
        if self.turn_state.answer == Some(true) {
            return refuse(
                Code::MustGoOut,
                "your partner said yes: you must go out this turn",
            );
        }
        Ok(())
    }

    fn check_opening(&self, team: Team, points: i32) -> Result<(), Refusal> {
        let need = self.opening_minimum(team);
        if !self.has_opened(team) && points < need {
            return refuse(
                Code::OpeningMinimum,
                format!("your first melds make {points} points; your team needs {need}"),
            );
        }
        Ok(())
    }

    /// Whether a going-out move by `seat` after `resolved` is the `canasta` concealed finish.
    fn is_concealed(&self, resolved: &Resolved) -> bool {
        self.rules.concealed_bonus > 0
            && !self.turn_state.seat_had_melded
            && !self.turn_state.added_to_old_meld
            && !resolved.touched_old
            && resolved
                .melds
                .iter()
                .skip(self.turn_state.melds_at_start)
                .any(Meld::is_canasta)
    }

    fn plan_opening(&self, seat: Seat, resolved: &Resolved, goes_out: bool) -> Result<(), Refusal> {
        let exempt = goes_out && self.turn_state.drew == Drew::Stock && self.is_concealed(resolved);
        if exempt {
            return Ok(());
        }
        self.check_opening(seat.team(), resolved.points)
    }

    fn meld_effect(&self, seat: Seat, p: &Plan) -> Result<Effect, Refusal> {
        if p.is_empty() {
            return refuse(Code::InvalidGroup, "the plan melds nothing");
        }
        let hand = self.hand(seat);
        let goes_out = hand.len() == p.cards().count() && !p.is_empty();
        let resolved = plan::resolve(
            &self.rules,
            self.melds(seat.team()),
            hand,
            p,
            goes_out,
            self.turn_state.melds_at_start,
        )?;
        self.plan_opening(seat, &resolved, goes_out)?;
        self.check_hand_left(&resolved.melds, resolved.hand.len())?;
        Ok(Effect::Meld { resolved, goes_out })
    }

    fn go_out_effect(
        &self,
        seat: Seat,
        p: &Plan,
        discard: Option<Card>,
    ) -> Result<Effect, Refusal> {
        let hand = self.hand(seat);
        let mut used: Cards = p.cards().collect();
        if let Some(d) = discard {
            used.add(d);
        }
        check_held(hand, &used)?;
        if used.len() != hand.len() {
            return refuse(
                Code::CannotGoOut,
                format!(
                    "going out uses every card: this leaves {} in your hand",
                    hand.len() - used.len()
                ),
            );
        }
        let resolved = plan::resolve(
            &self.rules,
            self.melds(seat.team()),
            hand,
            p,
            true,
            self.turn_state.melds_at_start,
        )?;
        self.plan_opening(seat, &resolved, true)?;
        let completed = resolved.melds.iter().filter(|m| m.is_complete()).count();
        if let Some(r) = self.go_out_refusal(completed) {
            return Err(r);
        }
        Ok(Effect::GoOut { resolved, discard })
    }

    fn lay_red_threes_effect(&self, seat: Seat, cards: &[Card]) -> Result<Effect, Refusal> {
        if !self.rules.red_threes_in_hand() {
            return refuse(
                Code::NotInPreset,
                "red threes are laid out automatically in this game",
            );
        }
        if cards.is_empty() || cards.iter().any(|c| !c.is_red_three()) {
            return refuse(
                Code::InvalidGroup,
                "only red threes can be laid out this way",
            );
        }
        let set: Cards = cards.iter().collect();
        check_held(self.hand(seat), &set)?;
        let left = self.hand(seat).len() - set.len();
        let melds = self.melds(seat.team());
        self.check_hand_left(melds, left)?;
        Ok(Effect::LayRedThrees(set))
    }

    fn discard_effect(&self, seat: Seat, card: Card) -> Result<Effect, Refusal> {
        let hand = self.hand(seat);
        if !hand.contains(card) {
            return refuse(
                Code::CardNotHeld,
                format!("you do not hold {}", card.label()),
            );
        }
        if self.rules.red_three_mode == RedThreeMode::AutoReplace && card.is_red_three() {
            return refuse(Code::WrongPhase, "red threes are laid out, never discarded");
        }
        let goes_out = hand.len() == 1;
        if goes_out {
            if let Some(r) = self.go_out_refusal(self.completed(seat.team())) {
                return Err(r);
            }
        } else if self.turn_state.answer == Some(true) {
            return refuse(
                Code::MustGoOut,
                "your partner said yes: you must go out this turn",
            );
        }
        Ok(Effect::Discard { card, goes_out })
    }

    fn pass_effect(&self, seat: Seat) -> Result<Effect, Refusal> {
        if !self.rules.pass_allowed {
            return refuse(Code::NotInPreset, "canasta has no pass: discard a card");
        }
        if self.turn_state.answer == Some(true) {
            return refuse(
                Code::MustGoOut,
                "your partner said yes: you must go out this turn",
            );
        }
        if self.hand(seat).len() != 1 {
            return refuse(
                Code::PassNotAllowed,
                "you may pass only when you hold a single card",
            );
        }
        if self.go_out_refusal(self.completed(seat.team())).is_none() {
            return refuse(
                Code::PassNotAllowed,
                "you may go out with your last card, so you cannot pass",
            );
        }
        Ok(Effect::Pass)
    }

    fn ask_effect(&self, seat: Seat) -> Result<Effect, Refusal> {
        if self.turn_state.asked {
            return refuse(Code::AskNotAllowed, "you have already asked this turn");
        }
        if self.turn_state.melded {
            return refuse(
                Code::AskNotAllowed,
                "ask right after drawing, before you meld",
            );
        }
        if !self.rules.pass_allowed && self.hand(seat).len() == 1 {
            // After a "no" there would be no legal move: the last card cannot be discarded
            // without going out, and canasta has no pass.
            return refuse(
                Code::AskNotAllowed,
                "with one card left, discarding it goes out: there is nothing to ask",
            );
        }
        // On a replica that cannot see the asker's cards the finish cannot be judged here; the
        // end-of-hand replay with every card known judges it.
        let hidden = self.hand(seat).contains(Card::HIDDEN);
        if !hidden && self.find_finish(seat).is_none() {
            return refuse(
                Code::AskNotAllowed,
                "you cannot go out this turn, so there is nothing to ask",
            );
        }
        Ok(Effect::Ask)
    }
}
