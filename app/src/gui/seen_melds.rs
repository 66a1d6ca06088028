//! What moves did to the melds as the table tells it, worked out without the views between
//! them (a resumed hand replays its moves before one view): new melds' numbers and merges in
//! the engine's order, canastas a replayed move completed, the red threes of the deal; and
//! the places on the table a card flies between ([`Place`]), which `seen` animates.

use std::collections::HashMap;

use super::last_turn::{LastTurn, labels};
use fairdeal_core::{Card, Plan, PlayerView, Seat, Team};

/// Where on the table a card can fly from or to (the table records their rectangles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The stock.
    Stock,
    /// The discard pile.
    Pile,
    /// Another seat's box.
    Seat(Seat),
    /// The player's hand.
    Hand,
    /// A team's meld (index as in the move log, from 0).
    Meld(Team, usize),
    /// A team's red threes.
    RedThrees(Team),
}

/// A replayed move (a resumed hand's, seen without the views between them) that put `put`
/// (meld, how many cards: merged in or from the hand) onto `team`'s melds: a meld it brought
/// to seven cards that is complete now is said on its `line`, as it was when the move was
/// seen live. `counts` holds the cards put so far; `me` is whose words (`None`: an
/// onlooker's).
pub(super) fn replayed_canastas(
    counts: &mut HashMap<(Team, usize), usize>,
    team: Team,
    put: &[(usize, usize)],
    after: &PlayerView,
    me: Option<Seat>,
    mut line: Option<&mut String>,
) {
    for (idx, cards) in put {
        let n = counts.entry((team, *idx)).or_insert(0);
        let was = *n;
        *n += cards;
        let Some(m) = after.melds(team).get(*idx) else {
            continue;
        };
        if was < 7
            && *n >= 7
            && m.is_complete()
            && let Some(text) = line.as_deref_mut()
        {
            text.push_str(&format!(
                " — {} meld {} is a {} (+{})!",
                crate::gui::move_words::whose_to(team, me),
                idx + 1,
                kind_words(m),
                m.bonus()
            ));
        }
    }
}

/// The red threes laid out (and replaced) at the deal, in words, if any: those of `view`
/// but the ones laid out `later` (by moves replayed before this first view); to an
/// `onlooker`, each team's by its seats.
pub(super) fn dealt_threes(
    view: &PlayerView,
    later: &[(Team, Card)],
    onlooker: bool,
) -> Option<String> {
    let us = view.seat().team();
    let at_deal = |t: Team| {
        let mut threes = view.red_threes(t).to_vec();
        for &(_, c) in later.iter().filter(|(lt, _)| *lt == t) {
            if let Some(i) = threes.iter().rposition(|&x| x == c) {
                threes.remove(i);
            }
        }
        threes
    };
    let words = |t: Team, ours: &'static str| {
        if onlooker {
            super::move_words::team_words(t)
        } else {
            ours
        }
    };
    let parts: Vec<String> = [
        (us, words(us, "ours")),
        (us.other(), words(us.other(), "theirs")),
    ]
    .into_iter()
    .map(|(t, who)| (at_deal(t), who))
    .filter(|(threes, _)| !threes.is_empty())
    .map(|(threes, who)| format!("{who} {}", labels(&threes)))
    .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "Red threes laid out at the deal and replaced from the stock: {}",
            parts.join("; ")
        )
    })
}

/// A completed meld's kind in words.
pub fn kind_words(m: &fairdeal_core::Meld) -> &'static str {
    if m.is_samba() {
        "samba"
    } else if m.wilds() == 0 {
        "natural canasta"
    } else {
        "mixed canasta"
    }
}

/// What a plan does, in the engine's order: additions go where they say, merged melds
/// join the lower one (the melds after it close up), new melds get the next numbers.
/// Returns where each meld before the plan is now, if a merge moved any.
pub(super) fn plan_effect(
    plan: &Plan,
    team: Team,
    from: Place,
    count: &mut [usize; 2],
    lt: &mut LastTurn,
    new_melds: &mut Vec<usize>,
    fly: &mut impl FnMut(Card, Place, Place),
) -> Option<Vec<usize>> {
    let len = count[team.index()];
    let now = merged(len, &plan.merge);
    let at = |i: usize| now.as_ref().and_then(|n| n.get(i).copied()).unwrap_or(i);
    for add in &plan.add {
        for &c in &add.cards {
            fly(c, from, Place::Meld(team, at(add.to)));
        }
        lt.melds.push((at(add.to), add.cards.clone()));
    }
    let gone = now
        .as_ref()
        .map_or(0, |n| len - n.iter().max().map_or(0, |m| m + 1));
    count[team.index()] = len - gone;
    for cards in &plan.new {
        let idx = count[team.index()];
        count[team.index()] += 1;
        new_melds.push(idx);
        for &c in cards {
            fly(c, from, Place::Meld(team, idx));
        }
        lt.melds.push((idx, cards.clone()));
    }
    now
}

/// Where each of `len` melds is after `merges` (each pair joins the lower; the emptied
/// places close up), or `None` when there is no merge.
pub(super) fn merged(len: usize, merges: &[[usize; 2]]) -> Option<Vec<usize>> {
    if merges.is_empty() {
        return None;
    }
    let mut home: Vec<usize> = (0..len).collect();
    for &[i, j] in merges {
        let (Some(&a), Some(&b)) = (home.get(i), home.get(j)) else {
            continue;
        };
        let (lo, hi) = (a.min(b), a.max(b));
        for h in &mut home {
            if *h == hi {
                *h = lo;
            }
        }
    }
    let kept: Vec<bool> = (0..len).map(|k| home.contains(&k)).collect();
    let before = |h: usize| kept[..h].iter().filter(|&&k| k).count();
    Some(home.iter().map(|&h| before(h)).collect())
}
