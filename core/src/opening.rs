//! The simple opening search: a plan that melds what it sensibly can from a hand, for the
//! opening hint, the pickup generator and computer players.

use crate::cand::{Cand, RANK_FACES, run_cands_in, runs};
use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
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
    let by_rank = left.rank_counts();
    for rank in Rank::MELDABLE {
        if by_rank[rank.index()] < 3 {
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
    let by_rank = left.rank_counts();
    for rank in Rank::MELDABLE {
        if wilds.is_empty() || by_rank[rank.index()] != 2 {
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

/// Whether [`opening_plan`] of `hand` is empty, worked out without building it (random play
/// needs only that, to count its candidates): the plan melds something exactly when its first
/// meld (the first run, else the first group) leaves at least two cards in hand.
pub(crate) fn opening_plan_is_empty(position: &Position, hand: &Cards) -> bool {
    let rules = position.rules();
    let mut by_rank = hand.rank_counts();
    let mut left = hand.len();
    // Groups of three or more naturals, in rank order: (naturals, wilds) of the first.
    let mut first_group: Option<(usize, usize)> = None;
    let mut grouped_faces = 0u64;
    for rank in Rank::MELDABLE {
        let n = usize::from(by_rank[rank.index()]);
        if n >= 3 {
            first_group.get_or_insert((n, 0));
            left -= n;
            by_rank[rank.index()] = 0;
            grouped_faces |= RANK_FACES << rank.index();
        }
    }
    let mut first_run = None;
    if rules.sequences {
        run_cands_in(hand.faces() & !grouped_faces, &mut |c| {
            if let Cand::Run { start, len, .. } = c {
                first_run.get_or_insert(usize::from(len));
                left -= usize::from(len);
                for r in &Rank::MELDABLE[usize::from(start)..usize::from(start + len)] {
                    by_rank[r.index()] -= 1;
                }
            }
        });
    }
    let mut wilds = hand.wild_count();
    let mut groups = usize::from(first_group.is_some());
    if rules.wild_rule.allows(2, 1) {
        for rank in Rank::MELDABLE {
            if wilds > 0 && by_rank[rank.index()] == 2 {
                wilds -= 1;
                left -= 3;
                first_group.get_or_insert((2, 1));
                groups += 1;
            }
        }
    }
    let first = match (first_run, first_group) {
        (Some(run), _) => run,
        (None, Some((n, w))) => {
            let extra = left > 3 && w < rules.wild_rule.max_wilds(n) && wilds > 0;
            n + w + usize::from(extra)
        }
        (None, None) => return true,
    };
    debug_assert!(groups > 0 || first_run.is_some());
    hand.len() < first + 2
}

impl Position {
    /// A legal plan that opens for the seat to act, if the simple search finds one (a hint).
    ///
    /// Naturals alone first: a player shown an opening that spends a joker and a deuce on
    /// pairs, when the hand's natural groups open as well, is shown a poor move.
    pub fn opening_hint(&self) -> Option<Move> {
        let seat = self.turn;
        if self.has_opened(seat.team()) {
            return None;
        }
        let hand = self.hand(seat);
        let mut naturals = hand.clone();
        for c in hand.iter().filter(|c| c.is_wild()) {
            naturals.remove(c);
        }
        [naturals, hand.clone()]
            .iter()
            .map(|h| opening_plan(self, h))
            .filter(|plan| !plan.is_empty())
            .map(Move::Meld)
            .find(|mv| self.validate(seat, mv).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::canonical_deck;
    use crate::rng::SplitMix64;
    use crate::rules::{Preset, Rules};
    use crate::seat::Seat;

    /// South, in the play phase of `preset` with nothing melded, holding `hand`.
    fn south_holding(preset: Preset, hand: &str) -> Position {
        let hand: Vec<String> = hand.split_whitespace().map(str::to_owned).collect();
        let json = format!(
            r#"{{"dealer": "E", "scores": {{"A": 0, "B": 0}}, "turn": "S", "phase": "play",
            "hands": {{"S": {hand:?}, "W": ["KD"], "N": ["KH"], "E": ["KS"]}},
            "melds": {{"A": [], "B": []}},
            "red_threes": {{"A": 0, "B": 0}}, "pile": ["5D"], "stock": ["6D", "7D"]}}"#
        );
        let desc: crate::PositionDesc = serde_json::from_str(&json).unwrap();
        Position::from_desc(Rules::preset(preset), &desc).unwrap()
    }

    /// The opening hint spends no wild card when naturals open on their own (no opening with
    /// a joker and a deuce on pairs when the hand's aces and fours open), and uses them when
    /// they are needed.
    #[test]
    fn the_opening_hint_keeps_the_wild_cards_when_naturals_open() {
        let pos = south_holding(Preset::Canasta, "AC AD AH 4C 4D 4H JK 2H 9C 9D 7S 8D");
        let Some(Move::Meld(plan)) = pos.opening_hint() else {
            panic!("no opening hint");
        };
        assert!(plan.cards().all(|c| !c.is_wild()), "{plan:?}");
        assert!(plan.cards().filter(|c| c.rank() == Some(Rank::Ace)).count() == 3);
        // Aces as a pair: only a wild card makes the opening.
        let pos = south_holding(Preset::Canasta, "AC AD 4C 4D 4H JK 2H 9C 7S 8D");
        let Some(Move::Meld(plan)) = pos.opening_hint() else {
            panic!("no opening hint");
        };
        assert!(plan.cards().any(Card::is_wild), "{plan:?}");
    }

    #[test]
    fn emptiness_without_the_plan_matches_the_plan() {
        let mut rng = SplitMix64::new(21);
        let (mut empty, mut full) = (0, 0);
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let mut deck = canonical_deck(&rules);
            rng.shuffle(&mut deck);
            let pos = Position::deal(rules, Seat::S, [0, 0], &deck).unwrap();
            for _ in 0..4000 {
                rng.shuffle(&mut deck);
                let n = rng.below(30);
                let hand: Cards = deck[..n].iter().collect();
                let is_empty = opening_plan(&pos, &hand).is_empty();
                assert_eq!(
                    opening_plan_is_empty(&pos, &hand),
                    is_empty,
                    "{preset} {hand:?}"
                );
                empty += usize::from(is_empty);
                full += usize::from(!is_empty);
            }
        }
        assert!(empty > 1000 && full > 1000, "{empty} empty, {full} not");
    }
}
