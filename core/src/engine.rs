//! `validate` and `apply`: every move is checked in full before anything changes.

use crate::card::Card;
use crate::cards::Cards;
use crate::error::{Code, Refusal};
use crate::meld::Meld;
use crate::moves::{Move, Plan};
use crate::plan::{self, Resolved, check_held};
use crate::position::{Drew, HandEnd, Phase, Position, TurnState};
use crate::rules::{Preset, RedThreeMode, StockEnd};
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

    fn pickup_effect(
        &self,
        seat: Seat,
        with: &[Card],
        onto: Option<usize>,
        also: &Plan,
    ) -> Result<Effect, Refusal> {
        let team = seat.team();
        let Some(top) = self.pile_top() else {
            return refuse(Code::PileBlocked, "the pile is empty");
        };
        if top.is_wild() || top.is_three() {
            return refuse(
                Code::PileBlocked,
                format!("{} on top blocks the pile", top.label()),
            );
        }
        let hand = self.hand(seat);
        if self.rules.one_card_pile_rule && hand.len() == 1 && self.pile.len() == 1 {
            return refuse(
                Code::PickupInvalid,
                "holding one card you may not take a pile of one card",
            );
        }
        let with_cards: Cards = with.iter().collect();
        let mut all_used = with_cards.clone();
        all_used.add_all(&also.cards().collect());
        check_held(hand, &all_used)?;
        let rank = top.rank().unwrap_or(crate::card::Rank::Two);
        let naturals = with_cards.count_rank(rank);
        let wilds = with_cards.wild_count();
        if naturals + wilds != with_cards.len() {
            return refuse(
                Code::PickupInvalid,
                format!(
                    "only {}s and wild cards can go with the top card",
                    rank.label()
                ),
            );
        }
        let frozen = self.pile_frozen_for(team);
        let preset = self.rules.preset;
        let melds = self.melds(team);
        if let Some(i) = onto
            && i >= melds.len()
        {
            return refuse(
                Code::UnknownMeld,
                format!(
                    "your team has no meld number {} (it has {})",
                    i + 1,
                    melds.len()
                ),
            );
        }
        if naturals >= 2 {
            // The pair route: legal on a frozen pile too.
        } else if naturals == 1 && wilds >= 1 && preset == Preset::Canasta {
            if frozen {
                return refuse(
                    Code::PileFrozen,
                    "the pile is frozen for your team: only a natural pair can take it",
                );
            }
        } else if naturals == 1 && wilds >= 1 {
            return refuse(
                Code::PickupInvalid,
                "a natural card and a wild cannot take the pile: you need two natural cards",
            );
        } else if with.is_empty() && onto.is_some() {
            if preset == Preset::DutchSamba {
                return refuse(
                    Code::PickupInvalid,
                    "here only a sequence takes the top card alone (take_top), or show a natural pair",
                );
            }
            if frozen {
                return refuse(
                    Code::PileFrozen,
                    "the pile is frozen: only a natural pair can take it",
                );
            }
            let target = &melds[onto.unwrap_or_default()];
            if preset == Preset::Samba
                && !self.rules.steal_onto_completed_canasta
                && target.is_canasta()
            {
                return refuse(
                    Code::PickupInvalid,
                    "house rule: the top card cannot be stolen onto a finished canasta",
                );
            }
        } else if frozen && preset == Preset::Canasta {
            return refuse(
                Code::PileFrozen,
                "the pile is frozen for your team: you need a natural pair of the top card",
            );
        } else {
            return refuse(
                Code::PickupInvalid,
                format!(
                    "to take the pile show two natural {}s from your hand",
                    rank.label()
                ),
            );
        }

        let old_limit = self.turn_state.melds_at_start;
        let pile_cards: Vec<Card> = std::iter::once(top).chain(with.iter().copied()).collect();
        let pile_meld = match onto {
            None => Plan {
                new: vec![pile_cards],
                ..Plan::default()
            },
            Some(to) => Plan {
                add: vec![crate::moves::Add {
                    to,
                    cards: pile_cards,
                }],
                ..Plan::default()
            },
        };
        let mut hand_plus_top = hand.clone();
        hand_plus_top.add(top);
        let rest = &self.pile[..self.pile.len() - 1];
        let auto = self.rules.red_three_mode == RedThreeMode::AutoReplace;
        let to_hand = rest.iter().filter(|c| !(auto && c.is_red_three())).count();
        let left = hand.len() - all_used.len() + to_hand;
        let goes_out = left == 0;
        let first = plan::resolve(
            &self.rules,
            melds,
            &hand_plus_top,
            &pile_meld,
            goes_out,
            old_limit,
        )?;
        let second = if also.is_empty() {
            first
        } else {
            let points = first.points;
            let mut second = plan::resolve(
                &self.rules,
                &first.melds,
                &first.hand,
                also,
                goes_out,
                old_limit,
            )?;
            second.points += points;
            second
        };
        self.check_opening(team, second.points)?;
        let mut new_hand = second.hand;
        let mut red_threes = Vec::new();
        for &c in rest {
            if auto && c.is_red_three() {
                red_threes.push(c);
            } else {
                new_hand.add(c);
            }
        }
        self.check_hand_left(&second.melds, new_hand.len())?;
        Ok(Effect::Pickup {
            hand: new_hand,
            melds: second.melds,
            red_threes,
            goes_out,
        })
    }

    fn take_top_effect(&self, seat: Seat, onto: usize) -> Result<Effect, Refusal> {
        if self.rules.preset != Preset::DutchSamba {
            return refuse(
                Code::NotInPreset,
                format!(
                    "{} has no top-card take: take the whole pile",
                    self.rules.preset
                ),
            );
        }
        let Some(top) = self.pile_top() else {
            return refuse(Code::PileBlocked, "the pile is empty");
        };
        if top.is_wild() || top.is_three() {
            return refuse(
                Code::PileBlocked,
                format!("{} on top blocks the pile", top.label()),
            );
        }
        let melds = self.melds(seat.team());
        let Some(target) = melds.get(onto) else {
            return refuse(
                Code::UnknownMeld,
                format!(
                    "your team has no meld number {} (it has {})",
                    onto + 1,
                    melds.len()
                ),
            );
        };
        if target.run_bounds().is_none() {
            return refuse(
                Code::PickupInvalid,
                "the top card alone can only be taken onto a sequence",
            );
        }
        let mut grown = target.clone();
        grown.push(top);
        grown.check_grown(&self.rules, target)?;
        Ok(Effect::TakeTop { onto })
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

    fn commit_resolved(&mut self, seat: Seat, resolved: Resolved) {
        let team = seat.team().index();
        self.turn_state.added_to_old_meld |= resolved.touched_old;
        self.turn_state.melded = true;
        self.melded_before[seat.index()] |= resolved.hand.len() < self.hands[seat.index()].len();
        self.hands[seat.index()] = resolved.hand;
        self.melds[team] = resolved.melds;
    }

    fn push_discard(&mut self, card: Card) {
        if card.is_wild() && self.rules.has_freezing() {
            self.pile_frozen = true;
        }
        self.pile.push(card);
    }

    fn commit_draw(&mut self, seat: Seat) {
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

    fn end_turn(&mut self) {
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

    fn finish_hand(&mut self, seat: Seat) {
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
    fn melded_before_turn(&self, seat: Seat) -> bool {
        self.turn_state.seat_had_melded && seat == self.turn
    }

    fn end_hand(&mut self, end: HandEnd) {
        self.end = Some(end);
        self.phase = Phase::Over;
    }
}
