//! Cards: ranks, suits, jokers, their text form (`KS`, `10H`, `JK`) and their point values.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in the canonical order clubs, diamonds, hearts, spades.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Self; 4] = [Self::Clubs, Self::Diamonds, Self::Hearts, Self::Spades];

    /// The letter used in scenario files (`C D H S`).
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// The suit symbol (`♣ ♦ ♥ ♠`).
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// Whether the suit is red (diamonds or hearts).
    pub fn is_red(self) -> bool {
        matches!(self, Self::Diamonds | Self::Hearts)
    }
}

/// A rank from two to ace. Aces are always high.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rank {
    /// 2, a wild card.
    Two = 0,
    /// 3, a red or black three.
    Three = 1,
    /// 4
    Four = 2,
    /// 5
    Five = 3,
    /// 6
    Six = 4,
    /// 7
    Seven = 5,
    /// 8
    Eight = 6,
    /// 9
    Nine = 7,
    /// 10
    Ten = 8,
    /// Jack
    Jack = 9,
    /// Queen
    Queen = 10,
    /// King
    King = 11,
    /// Ace (high only)
    Ace = 12,
}

impl Rank {
    /// All ranks from two to ace.
    pub const ALL: [Self; 13] = [
        Self::Two,
        Self::Three,
        Self::Four,
        Self::Five,
        Self::Six,
        Self::Seven,
        Self::Eight,
        Self::Nine,
        Self::Ten,
        Self::Jack,
        Self::Queen,
        Self::King,
        Self::Ace,
    ];

    /// The ranks that can form ordinary groups and sequences (4 to ace).
    pub const MELDABLE: [Self; 11] = [
        Self::Four,
        Self::Five,
        Self::Six,
        Self::Seven,
        Self::Eight,
        Self::Nine,
        Self::Ten,
        Self::Jack,
        Self::Queen,
        Self::King,
        Self::Ace,
    ];

    /// The rank with index `i` (0 = two … 12 = ace).
    pub fn from_index(i: usize) -> Option<Self> {
        Self::ALL.get(i).copied()
    }

    /// Index 0 (two) to 12 (ace).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The text used in scenario files (`2`…`9`, `T`, `J`, `Q`, `K`, `A`).
    pub fn letter(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A",
        ][self as usize]
    }

    /// The text a player reads (`10` instead of `T`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Ten => "10",
            other => other.letter(),
        }
    }

    /// The point value of a natural card of this rank (a black three counts 5, a red three 0).
    pub fn points(self) -> i32 {
        match self {
            Self::Two | Self::Ace => 20,
            Self::Eight | Self::Nine | Self::Ten | Self::Jack | Self::Queen | Self::King => 10,
            Self::Three | Self::Four | Self::Five | Self::Six | Self::Seven => 5,
        }
    }
}

/// One card. Copies of the same face (three packs in Samba) are equal.
///
/// Internally an index: `suit * 13 + rank` for the 52 faces, 52 for the joker.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The joker.
    pub const JOKER: Self = Self(52);
    /// Number of distinct faces (52 plus the joker).
    pub const FACES: usize = 53;
    /// A card whose face this node does not know (another seat's hand, the stock), used only
    /// in replicas of a networked hand. Never a legal card in a move.
    pub const HIDDEN: Self = Self(53);
    /// Number of slots a multiset needs (the faces plus [`Card::HIDDEN`]).
    pub const SLOTS: usize = 54;

    /// The card of `rank` in `suit`.
    pub fn new(rank: Rank, suit: Suit) -> Self {
        Self(suit as u8 * 13 + rank as u8)
    }

    /// The card with the given face index (`0..53`).
    pub fn from_index(i: usize) -> Option<Self> {
        (i < Self::FACES).then_some(Self(i as u8))
    }

    /// The card in multiset slot `i` (`0..54`, the last being [`Card::HIDDEN`]).
    pub fn from_slot(i: usize) -> Option<Self> {
        (i < Self::SLOTS).then_some(Self(i as u8))
    }

    /// Whether this is the unknown card [`Card::HIDDEN`].
    pub fn is_hidden(self) -> bool {
        self.0 == 53
    }

    /// The face index (`0..53`; 53 for [`Card::HIDDEN`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is the joker.
    pub fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The rank, or `None` for the joker.
    pub fn rank(self) -> Option<Rank> {
        RANK_OF[usize::from(self.0)]
    }

    /// The suit, or `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        SUIT_OF[usize::from(self.0)]
    }

    /// Whether the card is wild (every two and every joker).
    pub fn is_wild(self) -> bool {
        WILD[usize::from(self.0)]
    }

    /// Whether the card is a three (red or black).
    pub fn is_three(self) -> bool {
        self.rank() == Some(Rank::Three)
    }

    /// Whether the card is a red three (a bonus card).
    pub fn is_red_three(self) -> bool {
        self.is_three() && self.suit().is_some_and(Suit::is_red)
    }

    /// Whether the card is a black three (a stop card).
    pub fn is_black_three(self) -> bool {
        self.is_three() && !self.is_red_three()
    }

    /// Whether the card is a natural card that ordinary melds accept (4 to ace).
    pub fn is_meldable_natural(self) -> bool {
        self.rank().is_some_and(|r| r >= Rank::Four)
    }

    /// The card's value in melds and in hand: joker 50, two and ace 20, 8–K 10, 4–7 and black
    /// three 5. A red three has no card value (it scores only as a bonus or penalty).
    pub fn points(self) -> i32 {
        if self.is_joker() {
            50
        } else if self.is_red_three() || self.is_hidden() {
            0
        } else {
            self.rank().map_or(0, Rank::points)
        }
    }
}

/// [`Card::rank`] by index (a table: the engine asks this in every inner loop).
const RANK_OF: [Option<Rank>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Rank::ALL[i % 13]);
        i += 1;
    }
    t
};

/// [`Card::suit`] by index.
const SUIT_OF: [Option<Suit>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Suit::ALL[i / 13]);
        i += 1;
    }
    t
};

/// [`Card::is_wild`] by index: the four twos and the joker.
const WILD: [bool; 256] = {
    let mut t = [false; 256];
    t[0] = true;
    t[13] = true;
    t[26] = true;
    t[39] = true;
    t[52] = true;
    t
};

impl fmt::Display for Card {
    /// Scenario-file form: `KS`, `TH`, `2C`, `JK`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.letter(), s.letter()),
            _ if self.is_hidden() => f.write_str("??"),
            _ => f.write_str("JK"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Card {
    /// The form a player reads: `K♠`, `10♥`, `Jk`.
    pub fn label(self) -> String {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => format!("{}{}", r.label(), s.symbol()),
            _ if self.is_hidden() => "??".to_owned(),
            _ => "Jk".to_owned(),
        }
    }
}

/// A card name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (write a rank 2-9, T or 10, J, Q, K, A and a suit C, D, H, S, or JK)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseCardError(s.to_owned());
        let up = s.trim().to_ascii_uppercase();
        if up == "JK" {
            return Ok(Self::JOKER);
        }
        if up == "??" {
            return Ok(Self::HIDDEN);
        }
        let (rank_text, suit_text) = up
            .split_at_checked(up.len().saturating_sub(1))
            .ok_or_else(err)?;
        let rank = match rank_text {
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            digit => {
                let n: usize = digit.parse().map_err(|_| err())?;
                if !(2..=9).contains(&n) || digit.len() != 1 {
                    return Err(err());
                }
                Rank::from_index(n - 2).ok_or_else(err)?
            }
        };
        let suit = match suit_text {
            "C" => Suit::Clubs,
            "D" => Suit::Diamonds,
            "H" => Suit::Hearts,
            "S" => Suit::Spades,
            _ => return Err(err()),
        };
        Ok(Self::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_text_round_trips_for_every_face() {
        for i in 0..Card::FACES {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
    }

    #[test]
    fn rank_suit_and_wild_tables_follow_the_index() {
        for i in 0..Card::SLOTS {
            let c = Card::from_slot(i).unwrap();
            let (rank, suit) = if i < 52 {
                (Rank::from_index(i % 13), Suit::ALL.get(i / 13).copied())
            } else {
                (None, None)
            };
            assert_eq!((c.rank(), c.suit()), (rank, suit), "{i}");
            assert_eq!(c.is_wild(), i == 52 || rank == Some(Rank::Two), "{i}");
        }
    }

    #[test]
    fn card_parsing_accepts_ten_and_lowercase() {
        assert_eq!("10h".parse::<Card>().unwrap(), "TH".parse().unwrap());
        assert_eq!("jk".parse::<Card>().unwrap(), Card::JOKER);
        for bad in ["", "1H", "11H", "KX", "K", "ZZZ", "JKK", "♥"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn card_values_follow_the_table() {
        let v = |s: &str| s.parse::<Card>().unwrap().points();
        assert_eq!(
            [
                v("JK"),
                v("2C"),
                v("AD"),
                v("KS"),
                v("8H"),
                v("7H"),
                v("4C"),
                v("3S"),
                v("3H")
            ],
            [50, 20, 20, 10, 10, 5, 5, 5, 0]
        );
    }
}
