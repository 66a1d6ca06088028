//! Finding a legal way to go out (for "May I go out?", hints and computer players).
//!
//! The search builds candidate finishes by rank and suit, then lets the validator judge each
//! one, so a finish it returns is always legal; it may miss an exotic finish, never invent one.

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::meld::{Meld, MeldKind};
use crate::moves::{Add, Move, Plan};
use crate::opening::naturals_of;
use crate::position::{Phase, Position};
use crate::seat::Seat;

impl Position {
    /// A legal going-out move for `seat` in its play phase, assuming the partner agrees.
    ///
    /// Returns `None` if none is found (or it is not `seat`'s play phase).
    pub fn find_finish(&self, seat: Seat) -> Option<Move> {
        if seat != self.turn || !matches!(self.phase, Phase::Play | Phase::Answer) {
            return None;
        }
        if self.turn_state.answer == Some(false) {
            return None;
        }
        let only = match self.finish_hope(seat) {
            Hope::None => return None,
            Hope::Any => None,
            Hope::Only(card) => Some(card),
        };
        // Judged as if the partner had said yes: on `self` when that changes nothing, else on
        // a copy (made only once there is a plan to judge).
        let as_is = self.phase == Phase::Play
            && (self.turn_state.answer == Some(true) || !self.rules.must_ask);
        let mut probe: Option<Self> = None;
        let hand = self.hand(seat);
        let melds = self.melds(seat.team());
        // No discard, then each face; or only the one that can work.
        let mut discards = [None; Card::SLOTS + 1];
        let mut n = 1;
        match only {
            Some(card) => discards[0] = Some(card),
            None => {
                for c in hand.distinct() {
                    discards[n] = Some(c);
                    n += 1;
                }
            }
        }
        for &discard in &discards[..n] {
            let mut rest = hand.clone();
            if let Some(d) = discard {
                rest.remove(d);
            }
            let Some(plan) = self.finish_plan(melds, &rest) else {
                continue;
            };
            let mv = Move::GoOut { plan, discard };
            let judge = if as_is {
                self
            } else {
                probe.get_or_insert_with(|| {
                    let mut p = self.clone();
                    p.phase = Phase::Play;
                    p.turn_state.answer = Some(true);
                    p
                })
            };
            if judge.validate(seat, &mv).is_ok() {
                return Some(mv);
            }
        }
        None
    }

    /// A quick necessary condition for a finish: at most one card of the hand (the discard)
    /// has no possible place in a meld. A card with no place stays without one when another
    /// card leaves the hand, so when there is one it is the only discard worth trying.
    fn finish_hope(&self, seat: Seat) -> Hope {
        let hand = self.hand(seat);
        let melds = self.melds(seat.team());
        if self.most_completed_after_finish(hand, melds) < self.rules.combos_to_go_out {
            return Hope::None;
        }
        let has_wild = hand.wild_count() > 0;
        let faces = hand.faces();
        let held = |rank: usize, suit: Suit| faces & (1 << (13 * suit as usize + rank)) != 0;
        // Ranks (by index) with a team group, and per suit the ranks just past a sequence's ends.
        let mut grouped = 0u16;
        let mut past_ends = [0u16; 4];
        for m in melds {
            match m.kind() {
                MeldKind::Group(r) => grouped |= 1 << r.index(),
                MeldKind::Sequence(suit) => {
                    if let Some((lo, hi)) = m.run_bounds() {
                        past_ends[suit as usize] |=
                            (1 << (hi.index() + 1)) | (1 << lo.index() >> 1);
                    }
                }
                MeldKind::BlackThrees => {}
            }
        }
        let mut stuck = 0;
        let mut last_stuck = None;
        for rank in Rank::MELDABLE {
            let c = hand.count_rank(rank);
            if c == 0 || c >= 3 || (c == 2 && has_wild) {
                continue;
            }
            let r = rank.index();
            if grouped & (1 << r) != 0 {
                continue;
            }
            if !self.rules.sequences {
                stuck += c;
                last_stuck = Suit::ALL
                    .into_iter()
                    .map(|s| Card::new(rank, s))
                    .find(|&card| hand.contains(card));
                continue;
            }
            for suit in Suit::ALL {
                if !held(r, suit) {
                    continue;
                }
                // A neighbour of the same suit (four and up) in hand, or a sequence to extend.
                let near = (r > Rank::Four.index() && held(r - 1, suit))
                    || (r < Rank::Ace.index() && held(r + 1, suit));
                let extends = past_ends[suit as usize] & (1 << r) != 0;
                if !(near || extends) {
                    let card = Card::new(rank, suit);
                    stuck += hand.count(card);
                    last_stuck = Some(card);
                }
            }
        }
        let blacks = hand.black_three_count();
        if blacks > 0
            && blacks < 3
            && !(blacks == 2 && has_wild && self.rules.preset == crate::rules::Preset::DutchSamba)
        {
            stuck += blacks;
            last_stuck = hand.distinct().find(|c| c.is_black_three());
        }
        let reds = hand.red_three_count();
        if reds > 0 {
            stuck += reds;
            last_stuck = hand.distinct().find(|c| c.is_red_three());
        }
        match (stuck, last_stuck) {
            (0, _) => Hope::Any,
            (1, Some(card)) => Hope::Only(card),
            _ => Hope::None,
        }
    }

    /// A plan that melds every card of `rest` onto `melds`, if the simple search finds one.
    fn finish_plan(&self, melds: &[Meld], rest: &Cards) -> Option<Plan> {
        let rules = &self.rules;
        let mut plan = Plan::default();
        if rest.red_three_count() > 0 {
            return None;
        }
        let blacks: Vec<Card> = if rest.black_three_count() > 0 {
            rest.iter().filter(|c| c.is_black_three()).collect()
        } else {
            Vec::new()
        };
        let mut wilds: Vec<Card> = if rest.wild_count() > 0 {
            rest.iter().filter(|c| c.is_wild()).collect()
        } else {
            Vec::new()
        };
        // Group slots: (existing meld index or None for new, cards added, naturals, wilds).
        let mut slots: Vec<Slot> = Vec::new();
        let mut loose: Vec<Card> = Vec::new();
        for rank in Rank::MELDABLE {
            let n = rest.count_rank(rank);
            if n == 0 {
                continue;
            }
            let existing = melds
                .iter()
                .enumerate()
                .filter(|(_, m)| m.kind() == MeldKind::Group(rank))
                .max_by_key(|(_, m)| m.len())
                .map(|(i, _)| i);
            match existing {
                Some(i) => slots.push(Slot::old(i, &melds[i], naturals_of(rest, rank))),
                None if n >= 3 => slots.push(Slot::new(naturals_of(rest, rank))),
                None => loose.extend(naturals_of(rest, rank)),
            }
        }
        // Loose naturals: sequences first (Samba presets), then pairs with a wild.
        if rules.sequences && !loose.is_empty() {
            loose = place_in_sequences(melds, loose, &mut plan);
        }
        for rank in Rank::MELDABLE {
            let n = loose.iter().filter(|c| c.rank() == Some(rank)).count();
            match n {
                0 => {}
                2 => slots.push(Slot::new(
                    loose
                        .iter()
                        .copied()
                        .filter(|c| c.rank() == Some(rank))
                        .collect(),
                )),
                // A single card or three of a rank with no place: no finish.
                _ => return None,
            }
        }
        // Wilds: first what each slot needs, then toward canastas, then anywhere they fit.
        for slot in &mut slots {
            while slot.size() < 3 {
                slot.wilds.push(wilds.pop()?);
            }
        }
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(slots[i].size()));
        for &i in &order {
            while !wilds.is_empty()
                && slots[i].size() < 7
                && slots[i].size() + slots[i].room(rules) >= 7
                && slots[i].room(rules) > 0
            {
                slots[i].wilds.extend(wilds.pop());
            }
        }
        for &i in &order {
            while !wilds.is_empty() && slots[i].room(rules) > 0 {
                slots[i].wilds.extend(wilds.pop());
            }
        }
        let mut black_group = blacks;
        if !wilds.is_empty() {
            // `dutch-samba` lets wilds join black threes.
            if black_group.is_empty() {
                return None;
            }
            black_group.append(&mut wilds);
        }
        if !black_group.is_empty() {
            plan.new.push(black_group);
        }
        for slot in slots {
            let mut cards = slot.naturals;
            cards.extend(slot.wilds);
            match slot.existing {
                Some(to) => plan.add.push(Add { to, cards }),
                None => plan.new.push(cards),
            }
        }
        Some(plan)
    }
}

impl Position {
    /// At most how many canastas and sambas the team can have after a finish the search builds
    /// from `hand` (it never merges): those it has, the unfinished melds that the hand's fitting
    /// cards could bring to seven, and one new one per seven cards.
    fn most_completed_after_finish(&self, hand: &Cards, melds: &[Meld]) -> usize {
        let wilds = hand.wild_count();
        let mut most = hand.len() / 7;
        for m in melds {
            if m.is_complete() {
                most += 1;
                continue;
            }
            let fit = match m.kind() {
                MeldKind::Group(rank) => hand.count_rank(rank) + wilds,
                MeldKind::Sequence(suit) => Rank::MELDABLE
                    .iter()
                    .map(|&r| hand.count(Card::new(r, suit)))
                    .sum(),
                MeldKind::BlackThrees => 0,
            };
            most += usize::from(m.len() + fit >= 7);
        }
        most
    }
}

/// What [`Position::finish_hope`] found.
enum Hope {
    /// No finish is possible.
    None,
    /// Any discard (or none) might finish.
    Any,
    /// Only discarding this card might finish.
    Only(Card),
}

struct Slot {
    existing: Option<usize>,
    base_naturals: usize,
    base_wilds: usize,
    naturals: Vec<Card>,
    wilds: Vec<Card>,
}

impl Slot {
    fn new(naturals: Vec<Card>) -> Self {
        Self {
            existing: None,
            base_naturals: 0,
            base_wilds: 0,
            naturals,
            wilds: Vec::new(),
        }
    }

    fn old(index: usize, meld: &Meld, naturals: Vec<Card>) -> Self {
        Self {
            existing: Some(index),
            base_naturals: meld.naturals(),
            base_wilds: meld.wilds(),
            naturals,
            wilds: Vec::new(),
        }
    }

    fn size(&self) -> usize {
        self.base_naturals + self.base_wilds + self.naturals.len() + self.wilds.len()
    }

    fn room(&self, rules: &crate::rules::Rules) -> usize {
        let n = self.base_naturals + self.naturals.len();
        rules
            .wild_rule
            .max_wilds(n)
            .saturating_sub(self.base_wilds + self.wilds.len())
    }
}

/// Puts loose naturals onto the ends of the team's unfinished sequences and into new runs of
/// three to seven; returns what is left.
fn place_in_sequences(melds: &[Meld], loose: Vec<Card>, plan: &mut Plan) -> Vec<Card> {
    let mut left = Vec::new();
    for suit in Suit::ALL {
        let mut cards: Vec<Card> = loose
            .iter()
            .copied()
            .filter(|c| c.suit() == Some(suit))
            .collect();
        if cards.is_empty() {
            continue;
        }
        cards.sort_unstable();
        // Extend existing sequences of this suit at either end.
        for (i, m) in melds.iter().enumerate() {
            if m.kind() != MeldKind::Sequence(suit) {
                continue;
            }
            let Some((mut lo, mut hi)) = m.run_bounds() else {
                continue;
            };
            let mut added = Vec::new();
            let mut len = m.len();
            loop {
                let below = lo
                    .index()
                    .checked_sub(1)
                    .and_then(Rank::from_index)
                    .filter(|r| *r >= Rank::Four);
                let above = Rank::from_index(hi.index() + 1);
                let take = |r: Option<Rank>, cards: &mut Vec<Card>| {
                    let r = r?;
                    let at = cards.iter().position(|c| c.rank() == Some(r))?;
                    Some(cards.remove(at))
                };
                if len >= 7 {
                    break;
                }
                if let Some(c) = take(above, &mut cards) {
                    hi = c.rank().unwrap_or(hi);
                    added.push(c);
                    len += 1;
                } else if let Some(c) = take(below, &mut cards) {
                    lo = c.rank().unwrap_or(lo);
                    added.push(c);
                    len += 1;
                } else {
                    break;
                }
            }
            if !added.is_empty() {
                plan.add.push(Add {
                    to: i,
                    cards: added,
                });
            }
        }
        // New runs from what remains: repeatedly take the longest run of distinct ranks.
        loop {
            let mut ranks: Vec<Rank> = cards.iter().filter_map(|c| c.rank()).collect();
            ranks.dedup();
            let mut best: Option<(usize, usize)> = None;
            let mut start = 0;
            for k in 1..=ranks.len() {
                let breaks = k == ranks.len() || ranks[k].index() != ranks[k - 1].index() + 1;
                if breaks {
                    let len = k - start;
                    if len >= 3 && best.is_none_or(|(_, l)| len > l) {
                        best = Some((start, len));
                    }
                    start = k;
                }
            }
            let Some((s, len)) = best else {
                break;
            };
            let run: Vec<Rank> = ranks[s..s + len.min(7)].to_vec();
            let mut seq = Vec::new();
            for r in run {
                if let Some(at) = cards.iter().position(|c| c.rank() == Some(r)) {
                    seq.push(cards.remove(at));
                }
            }
            plan.new.push(seq);
        }
        left.extend(cards);
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::rules::{Preset, Rules};

    /// The search with every discard tried (no shortcut from [`Position::finish_hope`]), always
    /// on a copy told "yes".
    fn finish_trying_every_discard(p: &Position, seat: Seat) -> Option<Move> {
        if seat != p.turn || !matches!(p.phase, Phase::Play | Phase::Answer) {
            return None;
        }
        if p.turn_state.answer == Some(false) {
            return None;
        }
        let mut probe = p.clone();
        probe.phase = Phase::Play;
        probe.turn_state.answer = Some(true);
        let hand = p.hand(seat);
        let discards = std::iter::once(None).chain(hand.distinct().map(Some));
        for discard in discards {
            let mut rest = hand.clone();
            if let Some(d) = discard {
                rest.remove(d);
            }
            let Some(plan) = p.finish_plan(p.melds(seat.team()), &rest) else {
                continue;
            };
            let mv = Move::GoOut { plan, discard };
            if probe.validate(seat, &mv).is_ok() {
                return Some(mv);
            }
        }
        None
    }

    #[test]
    fn the_discard_shortcut_finds_the_same_finishes() {
        let mut found = 0;
        for preset in Preset::ALL {
            for must_ask in [false, true] {
                let house = crate::rules::HouseRules {
                    must_ask: Some(must_ask),
                    ..Default::default()
                };
                let rules = Rules::new(preset, house);
                let mut rng = SplitMix64::new(11);
                for _ in 0..60 {
                    let record = crate::selfplay::random_hand(&rules, Seat::S, [0, 0], &mut rng);
                    let mut pos =
                        Position::deal(rules.clone(), Seat::S, [0, 0], &record.deck).unwrap();
                    for (seat, mv) in &record.moves {
                        if matches!(pos.phase, Phase::Play | Phase::Answer) {
                            let fast = pos.find_finish(pos.turn);
                            assert_eq!(fast, finish_trying_every_discard(&pos, pos.turn));
                            found += usize::from(fast.is_some());
                        }
                        pos.apply(*seat, mv).unwrap();
                    }
                }
            }
        }
        assert!(found > 50, "only {found} finishes met");
    }
}
