//! Melds on the table: groups, sequences and black-three groups, with their shape rules.

use serde::{Deserialize, Serialize};

mod shape;

use shape::{check_black_threes, check_group, check_sequence, classify};

use crate::card::{Card, Rank, Suit};
use crate::error::{Code, Refusal};
use crate::rules::Rules;

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
///
/// The cards are held in place (no allocation): a legal meld has at most 14 (twelve naturals of
/// one rank from three packs and two wilds). A meld grown past [`Meld::CAPACITY`] while a plan
/// is resolved only remembers that it overflowed, and fails [`Meld::check`].
#[derive(Clone)]
pub struct Meld {
    kind: MeldKind,
    len: u8,
    /// How many of the cards are wild.
    wilds: u8,
    /// The sum of the card values.
    points: i16,
    overflow: bool,
    cards: [Card; Self::CAPACITY],
}

impl Meld {
    /// The most cards a meld holds.
    pub const CAPACITY: usize = 16;

    /// An empty meld of `kind`.
    pub(crate) const fn empty(kind: MeldKind) -> Self {
        Self {
            kind,
            len: 0,
            wilds: 0,
            points: 0,
            overflow: false,
            cards: [Card::HIDDEN; Self::CAPACITY],
        }
    }

    /// A meld of `kind` holding `cards` (sorted here), overflowed if there are too many.
    fn holding(kind: MeldKind, cards: &[Card]) -> Self {
        let mut meld = Self::empty(kind);
        let n = cards.len().min(Self::CAPACITY);
        meld.cards[..n].copy_from_slice(&cards[..n]);
        meld.len = n as u8;
        meld.count_cards();
        meld.overflow = cards.len() > Self::CAPACITY;
        meld.cards[..n].sort_unstable();
        meld
    }

    /// Sets the wild count and the points from the cards held.
    fn count_cards(&mut self) {
        let cards = &self.cards[..usize::from(self.len)];
        self.wilds = cards.iter().filter(|c| c.is_wild()).count() as u8;
        self.points = cards.iter().map(|c| c.points() as i16).sum();
    }

    /// Reads the kind from `cards` and checks the shape under `rules`.
    ///
    /// # Errors
    ///
    /// The refusal a player would get for melding these cards as a new meld.
    pub fn from_cards(rules: &Rules, cards: Vec<Card>) -> Result<Self, Refusal> {
        let meld = Self::from_cards_unchecked(rules, &cards)?;
        meld.check(rules)?;
        Ok(meld)
    }

    /// Reads the kind from `cards` without checking the shape (a `canasta` plan may name cards
    /// that join an existing meld, so the shape is checked on the final meld).
    pub(crate) fn from_cards_unchecked(rules: &Rules, cards: &[Card]) -> Result<Self, Refusal> {
        if cards.len() > Self::CAPACITY {
            let mut sorted = cards.to_vec();
            sorted.sort_unstable();
            let kind = classify(rules, &sorted)?;
            return Ok(Self::holding(kind, cards));
        }
        let meld = Self::holding(MeldKind::BlackThrees, cards);
        let kind = classify(rules, meld.cards())?;
        Ok(Self { kind, ..meld })
    }

    /// The meld's kind.
    pub fn kind(&self) -> MeldKind {
        self.kind
    }

    /// The cards, sorted.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the meld has no cards (never true for a meld on the table).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of wild cards in it.
    pub fn wilds(&self) -> usize {
        usize::from(self.wilds)
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
        i32::from(self.points)
    }

    /// For a sequence: its lowest and highest rank.
    pub fn run_bounds(&self) -> Option<(Rank, Rank)> {
        match self.kind {
            MeldKind::Sequence(_) => {
                Some((self.cards().first()?.rank()?, self.cards().last()?.rank()?))
            }
            _ => None,
        }
    }

    /// Whether `card` alone could be added (the steal and the Dutch top-card take).
    pub fn accepts_alone(&self, rules: &Rules, card: Card) -> bool {
        // The two kinds on the table in play are judged without building the grown meld; the
        // answer is the same as the general path's below for any meld that passes `check`.
        match self.kind {
            MeldKind::Group(rank) if self.len() >= 2 => {
                let (n, w) = (self.naturals(), self.wilds());
                if card.is_wild() {
                    let closed = self.is_canasta() && !rules.wilds_onto_completed_canasta;
                    return !closed && rules.wild_rule.allows(n, w + 1);
                }
                return card.rank() == Some(rank) && rules.wild_rule.allows(n + 1, w);
            }
            MeldKind::Sequence(suit) => {
                let (Some(first), Some(last)) = (self.cards().first(), self.cards().last()) else {
                    return false;
                };
                if self.len() >= 7 || self.len() < 2 || card.is_wild() || card.is_three() {
                    return false;
                }
                return card.suit() == Some(suit)
                    && (card.index() + 1 == first.index() || card.index() == last.index() + 1);
            }
            _ => {}
        }
        self.accepts_alone_by_growing(rules, card)
    }

    /// This meld with `cards` added, checked as a grown meld is checked in a plan (the shape,
    /// the closed samba, wilds onto a finished canasta): what a player's window asks before it
    /// puts cards onto a meld in the plan.
    ///
    /// # Errors
    ///
    /// The refusal the plan would get for this addition alone.
    pub fn with_added(&self, rules: &Rules, cards: &[Card]) -> Result<Self, Refusal> {
        let mut grown = self.clone();
        for &c in cards {
            grown.push(c);
        }
        grown.check_grown(rules, self)?;
        Ok(grown)
    }

    /// [`Meld::accepts_alone`] the long way: grow a copy and check it.
    fn accepts_alone_by_growing(&self, rules: &Rules, card: Card) -> bool {
        self.with_added(rules, &[card]).is_ok()
    }

    /// Adds a card without checking (callers check the result).
    pub(crate) fn push(&mut self, card: Card) {
        let n = self.len();
        if n == Self::CAPACITY {
            self.overflow = true;
            return;
        }
        let at = self.cards[..n].partition_point(|c| *c <= card);
        self.cards.copy_within(at..n, at + 1);
        self.cards[at] = card;
        self.len += 1;
        self.wilds += u8::from(card.is_wild());
        self.points += card.points() as i16;
    }

    /// Checks the shape of this meld under `rules`.
    ///
    /// # Errors
    ///
    /// `invalid_group`, `invalid_sequence` or `black_threes` as the shape requires.
    pub fn check(&self, rules: &Rules) -> Result<(), Refusal> {
        if self.overflow {
            let code = match self.kind {
                MeldKind::Group(_) => Code::InvalidGroup,
                MeldKind::Sequence(_) => Code::InvalidSequence,
                MeldKind::BlackThrees => Code::BlackThrees,
            };
            return Err(Refusal::new(code, "no meld holds that many cards"));
        }
        match self.kind {
            MeldKind::Group(rank) => check_group(rules, rank, self.cards()),
            MeldKind::Sequence(suit) => check_sequence(suit, self.cards()),
            MeldKind::BlackThrees => check_black_threes(rules, self.cards()),
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

impl PartialEq for Meld {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.overflow == other.overflow && self.cards() == other.cards()
    }
}

impl Eq for Meld {}

impl std::hash::Hash for Meld {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        self.cards().hash(state);
    }
}

impl std::fmt::Debug for Meld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meld")
            .field("kind", &self.kind)
            .field("cards", &self.cards())
            .finish()
    }
}

/// The serialised form: the kind and the cards, as they always were.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Meld")]
struct MeldForm<C> {
    kind: MeldKind,
    cards: C,
}

impl Serialize for Meld {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MeldForm {
            kind: self.kind,
            cards: self.cards(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Meld {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let form = MeldForm::<Vec<Card>>::deserialize(deserializer)?;
        if form.cards.len() > Self::CAPACITY {
            return Err(serde::de::Error::custom("a meld holds at most 16 cards"));
        }
        // Kept as given (not re-sorted), as the derived form did.
        let mut meld = Self::empty(form.kind);
        meld.cards[..form.cards.len()].copy_from_slice(&form.cards);
        meld.len = form.cards.len() as u8;
        meld.count_cards();
        Ok(meld)
    }
}

#[cfg(test)]
mod tests;
