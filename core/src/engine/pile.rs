//! Taking the discard pile: the pickup (the top card with cards from the hand, onto a new
//! meld or one of the team's, frozen or not, the rest of the pile to the hand) and, where the
//! preset allows it, the top card alone onto a meld; each checked in full into an `Effect`.

use crate::card::Card;
use crate::cards::Cards;
use crate::error::{Code, Refusal};
use crate::moves::Plan;
use crate::plan::{self, check_held};
use crate::position::Position;
use crate::rules::{Preset, RedThreeMode};
use crate::seat::Seat;

use super::{Effect, refuse};

impl Position {
    pub(super) fn pickup_effect(
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

    pub(super) fn take_top_effect(&self, seat: Seat, onto: usize) -> Result<Effect, Refusal> {
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
}
