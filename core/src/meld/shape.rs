//! The shape rules of melds: what kind a set of cards is, and whether a group, sequence or
//! black-three meld is well formed under the rules in force.

use super::MeldKind;
use crate::card::{Card, Rank, Suit};
use crate::error::{Code, Refusal};
use crate::rules::{Preset, Rules};

/// Reads what kind of meld `cards` (sorted) is meant to be.
pub(super) fn classify(rules: &Rules, cards: &[Card]) -> Result<MeldKind, Refusal> {
    let mut naturals = cards.iter().filter(|c| !c.is_wild());
    let Some(first) = naturals.next() else {
        return Err(Refusal::new(
            Code::InvalidGroup,
            "a meld needs natural cards, not only wilds",
        ));
    };
    let rank = first.rank().unwrap_or(Rank::Two);
    let all_black_threes = cards
        .iter()
        .filter(|c| !c.is_wild())
        .all(|c| c.is_black_three());
    if all_black_threes {
        return Ok(MeldKind::BlackThrees);
    }
    let one_rank = cards
        .iter()
        .filter(|c| !c.is_wild())
        .all(|c| c.rank() == Some(rank));
    if one_rank {
        if rank == Rank::Three {
            return Err(Refusal::new(
                Code::InvalidGroup,
                "red threes are never melded",
            ));
        }
        return Ok(MeldKind::Group(rank));
    }
    if !rules.sequences {
        return Err(Refusal::new(
            Code::NotInPreset,
            format!(
                "{} has no sequences: a group is cards of one rank",
                rules.preset
            ),
        ));
    }
    Ok(MeldKind::Sequence(first.suit().unwrap_or(Suit::Clubs)))
}

pub(super) fn check_group(rules: &Rules, rank: Rank, cards: &[Card]) -> Result<(), Refusal> {
    let wilds = cards.iter().filter(|c| c.is_wild()).count();
    let naturals = cards.len() - wilds;
    if let Some(bad) = cards
        .iter()
        .find(|c| !c.is_wild() && c.rank() != Some(rank))
    {
        return Err(Refusal::new(
            Code::InvalidGroup,
            format!(
                "{} does not belong in a group of {}s",
                bad.label(),
                rank.label()
            ),
        ));
    }
    if cards.len() < 3 {
        return Err(Refusal::new(
            Code::InvalidGroup,
            "a group needs at least three cards",
        ));
    }
    if !rules.wild_rule.allows(naturals, wilds) {
        let rule = match rules.preset {
            Preset::Samba => "at most two wilds, and never more wilds than naturals",
            Preset::DutchSamba => "at most two wilds, and at least twice as many naturals as wilds",
            Preset::Canasta => "at least two naturals and at most three wilds",
        };
        return Err(Refusal::new(
            Code::InvalidGroup,
            format!(
                "{} and {} break the group rule: {rule}",
                count(naturals, "natural"),
                count(wilds, "wild")
            ),
        ));
    }
    Ok(())
}

pub(super) fn check_sequence(suit: Suit, cards: &[Card]) -> Result<(), Refusal> {
    let bad = |why: &'static str| Err(Refusal::new(Code::InvalidSequence, why));
    if cards.iter().any(|c| c.is_wild()) {
        return bad("sequences hold no wild cards");
    }
    if cards.iter().any(|c| c.is_three()) {
        return bad("threes cannot be in a sequence");
    }
    if cards.iter().any(|c| c.suit() != Some(suit)) {
        // Neither one rank nor one suit: name two cards that differ in both.
        let pair = cards.iter().enumerate().find_map(|(i, a)| {
            cards[i + 1..]
                .iter()
                .find(|b| b.suit() != a.suit() && b.rank() != a.rank())
                .map(|b| (a, b))
        });
        let why = match pair {
            Some((a, b)) => format!(
                "{} and {} are neither one rank (a group) nor one suit (a sequence)",
                a.label(),
                b.label()
            ),
            None => {
                "these cards are neither one rank (a group) nor one suit (a sequence)".to_owned()
            }
        };
        return Err(Refusal::new(Code::InvalidSequence, why));
    }
    if cards.len() < 3 {
        return bad("a sequence needs at least three cards");
    }
    if cards.len() > 7 {
        return bad("a sequence has at most seven cards (a samba)");
    }
    // Sorted by face index, so by rank within one suit.
    let consecutive = cards.windows(2).all(|w| w[1].index() == w[0].index() + 1);
    if !consecutive {
        return bad("a sequence is consecutive ranks, each once, ace high only");
    }
    Ok(())
}

pub(super) fn check_black_threes(rules: &Rules, cards: &[Card]) -> Result<(), Refusal> {
    let wilds = cards.iter().filter(|c| c.is_wild()).count();
    let naturals = cards.len() - wilds;
    let refuse = |why: String| Err(Refusal::new(Code::BlackThrees, why));
    if cards.len() < 3 {
        return refuse("black threes are melded three or more together".to_owned());
    }
    match rules.preset {
        Preset::Samba if wilds > 0 => {
            refuse("black threes are melded without wild cards".to_owned())
        }
        Preset::Canasta if wilds > 0 || naturals > 4 => {
            refuse("black threes are melded three or four, without wild cards".to_owned())
        }
        Preset::DutchSamba if !rules.wild_rule.allows(naturals, wilds) => refuse(format!(
            "{} and {} break the group rule",
            count(naturals, "black three"),
            count(wilds, "wild")
        )),
        _ => Ok(()),
    }
}

/// "1 natural", "2 naturals".
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
