//! The play-phase candidate list, described in its order and read by index: the discards, the
//! pass, the question, the red threes, then the opening plan or every new group, run, single
//! add and merge (and, for random play, the finish slot). Random play draws an index and builds
//! only that candidate; [`super`] lists them all for `legal_moves`, so both read one order.

use crate::cand::{Cand, RANK_FACES, SUIT_NATURALS, WILD_FACES, run_cands};
use crate::card::{Card, Rank};
use crate::meld::{Meld, MeldKind};
use crate::opening::opening_plan_is_empty;
use crate::position::Position;

/// The most runs [`run_cands`] describes for one hand (three per suit: a block of eleven ranks
/// is cut into seven and four, and three runs of three need eleven ranks).
const MAX_RUNS: usize = 12;

/// The play-phase candidates of the seat to act; see the module docs.
pub(super) struct PlayCands<'a> {
    pos: &'a Position,
    /// The hand's distinct faces, as a set of face indices.
    faces: u64,
    ask: bool,
    /// Whether the hand holds red threes to lay out.
    reds: bool,
    /// Whether the opening plan (next, unopened teams only) melds anything.
    opening: bool,
    opened: bool,
    wilds: [Card; 5],
    n_wilds: usize,
    /// Natural cards of each meldable rank in hand.
    naturals: [u8; 11],
    groups: usize,
    runs: [Cand; MAX_RUNS],
    n_runs: usize,
    len: usize,
}

/// The faces that may go onto `meld`, as a set of face indices.
fn fits(meld: &Meld) -> u64 {
    match meld.kind() {
        MeldKind::Group(r) => WILD_FACES | (RANK_FACES << r.index()),
        MeldKind::Sequence(s) => SUIT_NATURALS << (13 * s as usize),
        MeldKind::BlackThrees => 0,
    }
}

/// The merges of `meld` with later groups of its rank, given `later` (the groups of each rank
/// from `meld` on, [`PlayCands::groups_by_rank`] before the first meld), which it updates.
fn merges(later: &mut [usize; 13], meld: &Meld) -> usize {
    match meld.kind() {
        MeldKind::Group(r) if later[r.index()] > 0 => {
            later[r.index()] -= 1;
            later[r.index()]
        }
        _ => 0,
    }
}

/// The `k`-th lowest set bit of `bits` (there must be more than `k`).
fn nth_bit(mut bits: u64, k: usize) -> usize {
    for _ in 0..k {
        bits &= bits.wrapping_sub(1);
    }
    bits.trailing_zeros() as usize
}

impl<'a> PlayCands<'a> {
    /// The list for `pos` (in its play phase), with the finish slot last when `finish`.
    pub(super) fn new(pos: &'a Position, finish: bool) -> Self {
        let seat = pos.turn;
        let hand = pos.hand(seat);
        let faces = hand.faces();
        let ask = !pos.turn_state.asked && !pos.turn_state.melded;
        let opened = pos.has_opened(seat.team());
        let opening = !opened && !opening_plan_is_empty(pos, hand);
        let mut list = Self {
            pos,
            faces,
            ask,
            reds: hand.red_three_count() > 0,
            opening,
            opened,
            wilds: [Card::JOKER; 5],
            n_wilds: 0,
            naturals: [0; 11],
            groups: 0,
            runs: [Cand::Pass; MAX_RUNS],
            n_runs: 0,
            len: 0,
        };
        let mut len = faces.count_ones() as usize
            + 1
            + usize::from(ask)
            + usize::from(list.reds)
            + usize::from(opening);
        if opened {
            let mut wild_faces = faces & WILD_FACES;
            while wild_faces != 0 && list.n_wilds < list.wilds.len() {
                let k = wild_faces.trailing_zeros() as usize;
                wild_faces &= wild_faces - 1;
                list.wilds[list.n_wilds] = Card::from_slot(k).unwrap_or(Card::JOKER);
                list.n_wilds += 1;
            }
            let by_rank = hand.rank_counts();
            for (k, rank) in Rank::MELDABLE.into_iter().enumerate() {
                list.naturals[k] = by_rank[rank.index()];
                list.groups += list.of_rank(k);
            }
            run_cands(hand, &mut |c| {
                if list.n_runs < MAX_RUNS {
                    list.runs[list.n_runs] = c;
                    list.n_runs += 1;
                }
            });
            len += list.groups + list.n_runs;
            let melds = pos.melds(seat.team());
            let mut later = list.groups_by_rank(melds);
            for m in melds {
                len += (faces & fits(m)).count_ones() as usize + merges(&mut later, m);
            }
        }
        list.len = len + usize::from(finish);
        list
    }

    /// How many candidates there are.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// New groups of the `k`-th meldable rank: its naturals alone, then with each wild.
    fn of_rank(&self, k: usize) -> usize {
        let n = self.naturals[k];
        usize::from(n >= 3) + if n >= 2 { self.n_wilds } else { 0 }
    }

    /// The team's groups of each rank (by rank index), where groups may be merged (else none).
    fn groups_by_rank(&self, melds: &[Meld]) -> [usize; 13] {
        let mut n = [0; 13];
        if self.pos.rules.multiple_groups_per_rank {
            for m in melds {
                if let MeldKind::Group(r) = m.kind() {
                    n[r.index()] += 1;
                }
            }
        }
        n
    }

    /// The candidate at `k` (below [`PlayCands::len`]).
    pub(super) fn get(&self, mut k: usize) -> Cand {
        let n_faces = self.faces.count_ones() as usize;
        if k < n_faces {
            return Card::from_slot(nth_bit(self.faces, k)).map_or(Cand::Pass, Cand::Discard);
        }
        k -= n_faces;
        if k == 0 {
            return Cand::Pass;
        }
        k -= 1;
        if self.ask {
            if k == 0 {
                return Cand::Ask;
            }
            k -= 1;
        }
        if self.reds {
            if k == 0 {
                return Cand::LayReds;
            }
            k -= 1;
        }
        if self.opening {
            if k == 0 {
                return Cand::Opening;
            }
            k -= 1;
        }
        if self.opened {
            if k < self.groups {
                for (r, rank) in Rank::MELDABLE.into_iter().enumerate() {
                    let here = self.of_rank(r);
                    if k < here {
                        if self.naturals[r] >= 3 {
                            if k == 0 {
                                return Cand::Group { rank, wild: None };
                            }
                            k -= 1;
                        }
                        return Cand::Group {
                            rank,
                            wild: Some(self.wilds[k]),
                        };
                    }
                    k -= here;
                }
            }
            k -= self.groups;
            if k < self.n_runs {
                return self.runs[k];
            }
            k -= self.n_runs;
            let melds = self.pos.melds(self.pos.turn.team());
            let mut later = self.groups_by_rank(melds);
            for (i, m) in melds.iter().enumerate() {
                let bits = self.faces & fits(m);
                let adds = bits.count_ones() as usize;
                if k < adds {
                    return Card::from_slot(nth_bit(bits, k))
                        .map_or(Cand::Pass, |card| Cand::Add { to: i, card });
                }
                k -= adds;
                let merges = merges(&mut later, m);
                if k < merges {
                    let kind = m.kind();
                    let j = melds
                        .iter()
                        .enumerate()
                        .skip(i + 1)
                        .filter(|(_, o)| o.kind() == kind)
                        .nth(k)
                        .map_or(i, |(j, _)| j);
                    return Cand::Merge { i, j };
                }
                k -= merges;
            }
        }
        Cand::Finish
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cand::natural_count;
    use crate::cards::Cards;
    use crate::opening::opening_plan;
    use crate::rng::SplitMix64;
    use crate::rules::{Preset, Rules};
    use crate::seat::Seat;

    /// The list built the plain way, each candidate pushed in order (the generator before the
    /// list was read by index).
    fn pushed(pos: &Position) -> Vec<Cand> {
        let hand: &Cards = pos.hand(pos.turn);
        let mut out = Vec::new();
        let distinct: Vec<Card> = hand.distinct().collect();
        out.extend(distinct.iter().map(|&c| Cand::Discard(c)));
        out.push(Cand::Pass);
        if !pos.turn_state.asked && !pos.turn_state.melded {
            out.push(Cand::Ask);
        }
        if hand.red_three_count() > 0 {
            out.push(Cand::LayReds);
        }
        let team = pos.turn.team();
        if !pos.has_opened(team) {
            if !opening_plan(pos, hand).is_empty() {
                out.push(Cand::Opening);
            }
        } else {
            let wilds: Vec<Card> = distinct.iter().copied().filter(|c| c.is_wild()).collect();
            for rank in Rank::MELDABLE {
                let n = natural_count(hand, rank);
                if n >= 3 {
                    out.push(Cand::Group { rank, wild: None });
                }
                if n >= 2 {
                    out.extend(wilds.iter().map(|&w| Cand::Group {
                        rank,
                        wild: Some(w),
                    }));
                }
            }
            run_cands(hand, &mut |c| out.push(c));
            let melds = pos.melds(team);
            for (i, m) in melds.iter().enumerate() {
                for &card in &distinct {
                    if fits(m) & (1 << card.index()) != 0 {
                        out.push(Cand::Add { to: i, card });
                    }
                }
                if pos.rules.multiple_groups_per_rank && m.is_group() {
                    for (j, other) in melds.iter().enumerate().skip(i + 1) {
                        if other.kind() == m.kind() {
                            out.push(Cand::Merge { i, j });
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_indexed_list_is_the_pushed_list() {
        let mut rng = SplitMix64::new(8);
        let mut compared = 0;
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            for _ in 0..30 {
                let record = crate::selfplay::random_hand(&rules, Seat::S, [0, 0], &mut rng);
                let mut pos = Position::deal(rules.clone(), Seat::S, [0, 0], &record.deck).unwrap();
                for (seat, mv) in &record.moves {
                    if pos.phase == crate::position::Phase::Play {
                        let list = PlayCands::new(&pos, true);
                        let indexed: Vec<Cand> = (0..list.len()).map(|k| list.get(k)).collect();
                        let mut want = pushed(&pos);
                        want.push(Cand::Finish);
                        assert_eq!(format!("{indexed:?}"), format!("{want:?}"), "{preset}");
                        compared += 1;
                    }
                    pos.apply(*seat, mv).unwrap();
                }
            }
        }
        assert!(compared > 3000, "{compared}");
    }
}
