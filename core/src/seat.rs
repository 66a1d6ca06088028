//! Seats and teams: South, West, North, East clockwise; team A = S + N, team B = W + E.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seat at the table. Play goes clockwise S → W → N → E.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// South
    S = 0,
    /// West
    W = 1,
    /// North
    N = 2,
    /// East
    E = 3,
}

impl Seat {
    /// All seats in play order from South.
    pub const ALL: [Self; 4] = [Self::S, Self::W, Self::N, Self::E];

    /// The seat with index `i` modulo 4: seat arithmetic (the seat `k` places to the left).
    /// A seat number from a peer or a file goes through `Seat::try_from` instead, which
    /// refuses 4 and above.
    pub fn from_index(i: usize) -> Self {
        Self::ALL[i % 4]
    }

    /// Index 0 (S) to 3 (E).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The seat's number, 0 (S) to 3 (E): its one byte in messages, files and signed bytes.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The next seat clockwise (the dealer's left is `dealer.next()`).
    pub fn next(self) -> Self {
        Self::from_index(self.index() + 1)
    }

    /// The partner, opposite.
    pub fn partner(self) -> Self {
        Self::from_index(self.index() + 2)
    }

    /// This seat's team.
    pub fn team(self) -> Team {
        if self.index().is_multiple_of(2) {
            Team::A
        } else {
            Team::B
        }
    }

    /// The letter (`S W N E`).
    pub fn letter(self) -> char {
        ['S', 'W', 'N', 'E'][self.index()]
    }

    /// The name a player reads (`South`).
    pub fn name(self) -> &'static str {
        ["South", "West", "North", "East"][self.index()]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A seat number outside 0–3 (a seat from the wire or a file is refused, never wrapped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a seat: {0} (seats are 0 to 3, S W N E)")]
pub struct SeatOutOfRange(pub usize);

impl TryFrom<u8> for Seat {
    type Error = SeatOutOfRange;

    fn try_from(i: u8) -> Result<Self, Self::Error> {
        Self::try_from(usize::from(i))
    }
}

impl TryFrom<usize> for Seat {
    type Error = SeatOutOfRange;

    fn try_from(i: usize) -> Result<Self, Self::Error> {
        Self::ALL.get(i).copied().ok_or(SeatOutOfRange(i))
    }
}

/// A seat name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a seat: {0:?} (use S, W, N or E)")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().as_str() {
            "S" => Ok(Self::S),
            "W" => Ok(Self::W),
            "N" => Ok(Self::N),
            "E" => Ok(Self::E),
            _ => Err(ParseSeatError(s.to_owned())),
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A partnership: A (South and North) or B (West and East).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Team {
    /// South and North.
    A = 0,
    /// West and East.
    B = 1,
}

impl Team {
    /// Both teams.
    pub const ALL: [Self; 2] = [Self::A, Self::B];

    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other team.
    pub fn other(self) -> Self {
        match self {
            Self::A => Self::B,
            Self::B => Self::A,
        }
    }

    /// The two seats of the team.
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Self::A => [Seat::S, Seat::N],
            Self::B => [Seat::W, Seat::E],
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::A => "A",
            Self::B => "B",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_order_and_teams() {
        assert_eq!(Seat::S.next(), Seat::W);
        assert_eq!(Seat::E.next(), Seat::S);
        assert_eq!(Seat::W.partner(), Seat::E);
        assert_eq!(Seat::N.team(), Team::A);
        assert_eq!(Seat::E.team(), Team::B);
    }

    #[test]
    fn seat_numbers_from_outside_are_refused_past_three() {
        for (i, seat) in Seat::ALL.iter().enumerate() {
            assert_eq!(Seat::try_from(i as u8), Ok(*seat));
            assert_eq!(Seat::try_from(i), Ok(*seat));
        }
        for i in [4u8, 5, 7, 255] {
            assert_eq!(Seat::try_from(i), Err(SeatOutOfRange(usize::from(i))));
        }
        assert_eq!(Seat::try_from(usize::MAX), Err(SeatOutOfRange(usize::MAX)));
    }
}
