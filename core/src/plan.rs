//! Resolving a meld plan against a hand and a team's melds, without touching the position.

use crate::card::Card;
use crate::cards::Cards;
use crate::error::{Code, Refusal};
use crate::meld::{Meld, MeldKind};
use crate::moves::Plan;
use crate::rules::Rules;

/// The result of a plan that passed every shape check.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The team's melds afterwards.
    pub melds: Vec<Meld>,
    /// The hand afterwards.
    pub hand: Cards,
    /// Card points taken from hand (for the opening minimum).
    pub points: i32,
    /// Whether cards went onto melds with index below `old_limit`.
    pub touched_old: bool,
}

/// Refuses with `card_not_held`, naming the first card of `wanted` that `hand` lacks.
pub(crate) fn check_held(hand: &Cards, wanted: &Cards) -> Result<(), Refusal> {
    if hand.contains_all(wanted) {
        return Ok(());
    }
    let missing = wanted
        .distinct()
        .find(|&c| wanted.count(c) > hand.count(c))
        .map_or_else(String::new, Card::label);
    Err(Refusal::new(
        Code::CardNotHeld,
        format!("you do not hold {missing} (melded cards stay where they are)"),
    ))
}

/// Applies `plan` to `melds` and `hand`.
///
/// `going_out`: whether this move empties the hand (black threes may be melded only then).
/// `old_limit`: melds below this index existed before the turn.
pub(crate) fn resolve(
    rules: &Rules,
    base: &[Meld],
    hand: &Cards,
    plan: &Plan,
    going_out: bool,
    old_limit: usize,
) -> Result<Resolved, Refusal> {
    if let ([], [add], []) = (&plan.new[..], &plan.add[..], &plan.merge[..])
        && let [card] = add.cards[..]
        && let Some(resolved) = resolve_one_add(rules, base, hand, add.to, card, old_limit)
    {
        return resolved;
    }
    let used: Cards = plan.cards().collect();
    check_held(hand, &used)?;
    if !plan.merge.is_empty() && !rules.multiple_groups_per_rank {
        return Err(Refusal::new(
            Code::NotInPreset,
            format!(
                "{} has one meld per rank: there is nothing to merge",
                rules.preset
            ),
        ));
    }
    let len = base.len();
    let bad_index = |i: usize| {
        Refusal::new(
            Code::UnknownMeld,
            format!("your team has no meld number {} (it has {len})", i + 1),
        )
    };
    for a in &plan.add {
        if a.to >= len {
            return Err(bad_index(a.to));
        }
    }
    for &[i, j] in &plan.merge {
        for k in [i, j] {
            if k >= len {
                return Err(bad_index(k));
            }
        }
    }

    let mut melds = Vec::with_capacity(len + plan.new.len());
    melds.extend_from_slice(base);
    let mut changed = Changed::new(len);
    let mut touched_old = false;
    for a in &plan.add {
        for &c in &a.cards {
            melds[a.to].push(c);
        }
        if !a.cards.is_empty() {
            changed.set(a.to);
        }
        touched_old |= a.to < old_limit && !a.cards.is_empty();
    }

    // Merges: `home[i]` is where meld i's cards are now.
    let mut home: Vec<usize> = if plan.merge.is_empty() {
        Vec::new()
    } else {
        (0..len).collect()
    };
    for &[i, j] in &plan.merge {
        let (a, b) = (home[i], home[j]);
        if a == b {
            return Err(Refusal::new(
                Code::InvalidGroup,
                "a meld cannot be merged with itself",
            ));
        }
        let (lo, hi) = (a.min(b), a.max(b));
        match (melds[lo].kind(), melds[hi].kind()) {
            (MeldKind::Group(x), MeldKind::Group(y)) if x == y => {}
            (MeldKind::Sequence(_), _) | (_, MeldKind::Sequence(_)) => {
                return Err(Refusal::new(
                    Code::InvalidSequence,
                    "sequences are never joined together",
                ));
            }
            _ => {
                return Err(Refusal::new(
                    Code::InvalidGroup,
                    "only groups of the same rank can be merged",
                ));
            }
        }
        let kind = melds[hi].kind();
        let moved = std::mem::replace(&mut melds[hi], Meld::empty(kind));
        for &c in moved.cards() {
            melds[lo].push(c);
        }
        changed.set(lo);
        touched_old |= lo < old_limit || hi < old_limit;
        for h in &mut home {
            if *h == hi {
                *h = lo;
            }
        }
    }

    let mut fresh: Vec<Meld> = Vec::new();
    for cards in &plan.new {
        let meld = Meld::from_cards_unchecked(rules, cards)?;
        if meld.kind() == MeldKind::BlackThrees && !going_out {
            return Err(Refusal::new(
                Code::BlackThrees,
                "black threes can be melded only in the turn you go out",
            ));
        }
        if !rules.multiple_groups_per_rank && meld.is_group() {
            if let Some(k) = melds
                .iter()
                .position(|m| m.kind() == meld.kind() && !m.is_empty())
            {
                for &c in meld.cards() {
                    melds[k].push(c);
                }
                changed.set(k);
                touched_old |= k < old_limit;
                continue;
            }
            if let Some(f) = fresh.iter_mut().find(|m| m.kind() == meld.kind()) {
                for &c in meld.cards() {
                    f.push(c);
                }
                continue;
            }
        }
        fresh.push(meld);
    }

    for (k, meld) in melds.iter().enumerate() {
        if changed.get(k) {
            meld.check_grown(rules, &base[k])?;
        }
    }
    for meld in &fresh {
        meld.check(rules)?;
    }

    let mut hand = hand.clone();
    hand.remove_all(&used);
    melds.retain(|m| !m.is_empty());
    melds.extend(fresh);
    Ok(Resolved {
        melds,
        hand,
        points: used.points(),
        touched_old,
    })
}

/// What [`resolve`] gives for a plan that adds the one `card` to meld `to` (the commonest meld):
/// the same result, or `None` for a card not held, a meld that is not there or an empty meld,
/// which `resolve` judges (and words).
fn resolve_one_add(
    rules: &Rules,
    base: &[Meld],
    hand: &Cards,
    to: usize,
    card: Card,
    old_limit: usize,
) -> Option<Result<Resolved, Refusal>> {
    let target = base.get(to)?;
    // `resolve` drops empty melds, which a position never has; should it, `resolve` judges.
    if !hand.contains(card) || base.iter().any(Meld::is_empty) {
        return None;
    }
    // Only this meld changed: `resolve` would refuse with the same check.
    let grown = match target.with_added(rules, &[card]) {
        Ok(grown) => grown,
        Err(refusal) => return Some(Err(refusal)),
    };
    let mut melds = base.to_vec();
    melds[to] = grown;
    let mut hand = hand.clone();
    hand.remove(card);
    Some(Ok(Resolved {
        melds,
        hand,
        points: card.points(),
        touched_old: to < old_limit,
    }))
}

/// Which of a team's melds a plan changed: bits for the first 64, a list past them.
struct Changed {
    low: u64,
    high: Vec<bool>,
}

impl Changed {
    fn new(len: usize) -> Self {
        Self {
            low: 0,
            high: vec![false; len.saturating_sub(64)],
        }
    }

    fn set(&mut self, i: usize) {
        match i.checked_sub(64) {
            None => self.low |= 1 << i,
            Some(k) => {
                if let Some(b) = self.high.get_mut(k) {
                    *b = true;
                }
            }
        }
    }

    fn get(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.low & (1 << i) != 0,
            Some(k) => self.high.get(k).copied().unwrap_or(false),
        }
    }
}
