//! Melds on the table: groups, sequences and black-three groups, with their shape rules.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::error::{Code, Refusal};
use crate::rules::{Preset, Rules};

/// What kind of meld this is.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeldKind {
    /// Cards of one natural rank (4 to ace) plus wilds.
    Group(Rank),
    /// Consecutive natural cards of one suit (Samba presets).
    Sequence(Suit),
    /// Black threes, melded only when going out; never a canasta.
    BlackThrees,
}

/// A meld on the table. Its cards are kept sorted; its kind follows from them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Meld {
    kind: MeldKind,
    cards: Vec<Card>,
}

impl Meld {
    /// Reads the kind from `cards` and checks the shape under `rules`.
    ///
    /// # Errors
    ///
    /// The refusal a player would get for melding these cards as a new meld.
    pub fn from_cards(rules: &Rules, mut cards: Vec<Card>) -> Result<Self, Refusal> {
        cards.sort_unstable();
        let kind = classify(rules, &cards)?;
        let meld = Self { kind, cards };
        meld.check(rules)?;
        Ok(meld)
    }

    /// Reads the kind from `cards` without checking the shape (a `canasta` plan may name cards
    /// that join an existing meld, so the shape is checked on the final meld).
    pub(crate) fn from_cards_unchecked(
        rules: &Rules,
        mut cards: Vec<Card>,
    ) -> Result<Self, Refusal> {
        cards.sort_unstable();
        let kind = classify(rules, &cards)?;
        Ok(Self { kind, cards })
    }

    /// Builds a meld of a known kind without checking it (callers check with [`Meld::check`]).
    pub(crate) fn with_kind(kind: MeldKind, mut cards: Vec<Card>) -> Self {
        cards.sort_unstable();
        Self { kind, cards }
    }

    /// The meld's kind.
    pub fn kind(&self) -> MeldKind {
        self.kind
    }

    /// The cards, sorted.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the meld has no cards (never true for a meld on the table).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Number of wild cards in it.
    pub fn wilds(&self) -> usize {
        self.cards.iter().filter(|c| c.is_wild()).count()
    }

    /// Number of natural cards in it.
    pub fn naturals(&self) -> usize {
        self.len() - self.wilds()
    }

    /// Whether it is a group (of naturals 4..A).
    pub fn is_group(&self) -> bool {
        matches!(self.kind, MeldKind::Group(_))
    }

    /// Whether it is a canasta: a group of seven or more cards.
    pub fn is_canasta(&self) -> bool {
        self.is_group() && self.len() >= 7
    }

    /// Whether it is a samba: a sequence of seven.
    pub fn is_samba(&self) -> bool {
        matches!(self.kind, MeldKind::Sequence(_)) && self.len() >= 7
    }

    /// Whether it is a completed combination (canasta or samba).
    pub fn is_complete(&self) -> bool {
        self.is_canasta() || self.is_samba()
    }

    /// The natural canasta, mixed canasta or samba bonus (0 for anything else).
    pub fn bonus(&self) -> i32 {
        if self.is_samba() {
            1500
        } else if self.is_canasta() {
            if self.wilds() == 0 { 500 } else { 300 }
        } else {
            0
        }
    }

    /// Sum of the card values.
    pub fn card_points(&self) -> i32 {
        self.cards.iter().map(|c| c.points()).sum()
    }

    /// For a sequence: its lowest and highest rank.
    pub fn run_bounds(&self) -> Option<(Rank, Rank)> {
        match self.kind {
            MeldKind::Sequence(_) => {
                Some((self.cards.first()?.rank()?, self.cards.last()?.rank()?))
            }
            _ => None,
        }
    }

    /// Whether `card` alone could be added (the steal and the Dutch top-card take).
    pub fn accepts_alone(&self, rules: &Rules, card: Card) -> bool {
        let mut grown = self.clone();
        grown.push(card);
        grown.check_grown(rules, self).is_ok()
    }

    /// Adds a card without checking (callers check the result).
    pub(crate) fn push(&mut self, card: Card) {
        let at = self.cards.partition_point(|c| *c <= card);
        self.cards.insert(at, card);
    }

    /// Checks the shape of this meld under `rules`.
    ///
    /// # Errors
    ///
    /// `invalid_group`, `invalid_sequence` or `black_threes` as the shape requires.
    pub fn check(&self, rules: &Rules) -> Result<(), Refusal> {
        match self.kind {
            MeldKind::Group(rank) => check_group(rules, rank, &self.cards),
            MeldKind::Sequence(suit) => check_sequence(suit, &self.cards),
            MeldKind::BlackThrees => check_black_threes(rules, &self.cards),
        }
    }

    /// Checks a meld that grew from `before` (adds, merges, pickups): the shape, plus the closed
    /// samba and the house rule on wilds onto a finished canasta.
    pub(crate) fn check_grown(&self, rules: &Rules, before: &Self) -> Result<(), Refusal> {
        if before.is_samba() && self.len() > before.len() {
            return Err(Refusal::new(
                Code::InvalidSequence,
                "a samba is complete: nothing more can be added to it",
            ));
        }
        if before.is_canasta()
            && !rules.wilds_onto_completed_canasta
            && self.wilds() > before.wilds()
        {
            return Err(Refusal::new(
                Code::InvalidGroup,
                "house rule: no wild cards may be added to a finished canasta",
            ));
        }
        self.check(rules)
    }
}

/// Reads what kind of meld `cards` (sorted) is meant to be.
fn classify(rules: &Rules, cards: &[Card]) -> Result<MeldKind, Refusal> {
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

fn check_group(rules: &Rules, rank: Rank, cards: &[Card]) -> Result<(), Refusal> {
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
            format!("{naturals} naturals and {wilds} wilds break the group rule: {rule}"),
        ));
    }
    Ok(())
}

fn check_sequence(suit: Suit, cards: &[Card]) -> Result<(), Refusal> {
    let bad = |why: &str| Err(Refusal::new(Code::InvalidSequence, why.to_owned()));
    if cards.iter().any(|c| c.is_wild()) {
        return bad("sequences hold no wild cards");
    }
    if cards.iter().any(|c| c.is_three()) {
        return bad("threes cannot be in a sequence");
    }
    if cards.iter().any(|c| c.suit() != Some(suit)) {
        return bad("a sequence is all one suit");
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

fn check_black_threes(rules: &Rules, cards: &[Card]) -> Result<(), Refusal> {
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
            "{naturals} black threes and {wilds} wilds break the group rule"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meld(preset: Preset, s: &str) -> Result<Meld, Code> {
        let cards = s.split_whitespace().map(|c| c.parse().unwrap()).collect();
        Meld::from_cards(&Rules::preset(preset), cards).map_err(|r| r.code)
    }

    #[test]
    fn group_shapes_per_preset() {
        use Preset::*;
        assert!(meld(Samba, "KC KD JK").is_ok());
        assert_eq!(
            meld(DutchSamba, "KC KD 2C JK").unwrap_err(),
            Code::InvalidGroup
        );
        assert!(meld(Samba, "KC KD 2C JK").is_ok());
        assert_eq!(meld(Canasta, "2C 2D JK").unwrap_err(), Code::InvalidGroup);
    }

    #[test]
    fn sequences_are_consecutive_one_suit_ace_high() {
        use Preset::*;
        assert!(meld(Samba, "QS KS AS").is_ok());
        assert_eq!(meld(Samba, "KS AS 4S").unwrap_err(), Code::InvalidSequence);
        assert_eq!(meld(Samba, "4D 2D 6D").unwrap_err(), Code::InvalidSequence);
        assert_eq!(meld(Canasta, "4H 5H 6H").unwrap_err(), Code::NotInPreset);
        assert!(meld(Samba, "4C 5C 6C 7C 8C 9C TC").unwrap().is_samba());
    }

    #[test]
    fn black_threes_shapes() {
        assert_eq!(
            meld(Preset::Samba, "3S 3C 3S 2H").unwrap_err(),
            Code::BlackThrees
        );
        assert!(meld(Preset::DutchSamba, "3S 3C 2H").is_ok());
        assert_eq!(
            meld(Preset::Canasta, "3S 3C 3S 3C 3S").unwrap_err(),
            Code::BlackThrees
        );
    }
}
