//! The simple opening search: a plan that melds what it sensibly can from a hand, for the
//! opening hint, the pickup generator and computer players.

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::legal::{natural_count, runs};
use crate::moves::{Move, Plan};
use crate::position::Position;

pub(crate) fn naturals_of(hand: &Cards, rank: Rank) -> Vec<Card> {
    Suit::ALL
        .iter()
        .flat_map(|&s| std::iter::repeat_n(Card::new(rank, s), hand.count(Card::new(rank, s))))
        .collect()
}

/// A plan that melds as much as it sensibly can from `hand` (groups of three or more, runs,
/// pairs with a wild, spare wilds where they fit), keeping at least two cards back. Used for
/// opening and by the pickup generator; the validator decides whether it is enough.
pub(crate) fn opening_plan(position: &Position, hand: &Cards) -> Plan {
    let rules = position.rules();
    let mut left = hand.clone();
    let mut plan = Plan::default();
    let mut groups: Vec<Vec<Card>> = Vec::new();
    for rank in Rank::MELDABLE {
        if natural_count(&left, rank) < 3 {
            continue;
        }
        let naturals = naturals_of(&left, rank);
        if naturals.len() >= 3 {
            for &c in &naturals {
                left.remove(c);
            }
            groups.push(naturals);
        }
    }
    if rules.sequences {
        for run in runs(&left) {
            for &c in &run {
                left.remove(c);
            }
            plan.new.push(run);
        }
    }
    let mut wilds: Vec<Card> = if left.wild_count() > 0 {
        left.iter().filter(|c| c.is_wild()).collect()
    } else {
        Vec::new()
    };
    for rank in Rank::MELDABLE {
        if wilds.is_empty() || natural_count(&left, rank) != 2 {
            continue;
        }
        let naturals = naturals_of(&left, rank);
        if naturals.len() == 2
            && rules.wild_rule.allows(2, 1)
            && let Some(w) = wilds.pop()
        {
            left.remove(w);
            for &c in &naturals {
                left.remove(c);
            }
            let mut g = naturals;
            g.push(w);
            groups.push(g);
        }
    }
    for g in &mut groups {
        let n = g.iter().filter(|c| !c.is_wild()).count();
        let w = g.len() - n;
        if left.len() > 3
            && w < rules.wild_rule.max_wilds(n)
            && let Some(c) = wilds.pop()
        {
            left.remove(c);
            g.push(c);
        }
    }
    plan.new.extend(groups);
    // Keep cards back so the plan does not try to go out by accident.
    while left.len() < 2 && !plan.new.is_empty() {
        if let Some(m) = plan.new.pop() {
            left.add_all(&m.iter().collect());
        }
    }
    plan
}

impl Position {
    /// A legal plan that opens for the seat to act, if the simple search finds one (a hint).
    pub fn opening_hint(&self) -> Option<Move> {
        let seat = self.turn;
        let plan = opening_plan(self, self.hand(seat));
        if plan.is_empty() || self.has_opened(seat.team()) {
            return None;
        }
        let mv = Move::Meld(plan);
        self.validate(seat, &mv).is_ok().then_some(mv)
    }
}
