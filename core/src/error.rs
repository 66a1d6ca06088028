//! Why a move is refused: a stable code plus a sentence for the player.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The stable reason codes of the scenario format (FORMAT.md "Error codes").
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The acting seat may not act now.
    NotYourTurn,
    /// The move does not fit the phase of the turn or hand.
    WrongPhase,
    /// A named card is not in the acting hand.
    CardNotHeld,
    /// A meld index does not exist.
    UnknownMeld,
    /// The move or meld kind does not exist in this preset.
    NotInPreset,
    /// A group breaks the preset's shape or wild rule.
    InvalidGroup,
    /// A sequence breaks the sequence rules.
    InvalidSequence,
    /// Black threes melded when not going out, or in a forbidden shape.
    BlackThrees,
    /// The team's first melds do not reach the minimum.
    OpeningMinimum,
    /// The pile is empty, or a wild or a three is on top.
    PileBlocked,
    /// The route needs an unfrozen pile and it is frozen for this team.
    PileFrozen,
    /// The cards given do not make a legal pickup.
    PickupInvalid,
    /// `canasta` classic stock end: the player must take the pile.
    MustTakePile,
    /// The move would go out (or leave one card in `canasta`) when the team may not.
    CannotGoOut,
    /// The partner said yes and the move does not go out.
    MustGoOut,
    /// A pass that is not allowed.
    PassNotAllowed,
    /// Asking the partner is not allowed now.
    AskNotAllowed,
    /// A position that cannot exist.
    InvalidPosition,
}

impl Code {
    /// Every code, in declaration order.
    pub const ALL: [Self; 18] = [
        Self::NotYourTurn,
        Self::WrongPhase,
        Self::CardNotHeld,
        Self::UnknownMeld,
        Self::NotInPreset,
        Self::InvalidGroup,
        Self::InvalidSequence,
        Self::BlackThrees,
        Self::OpeningMinimum,
        Self::PileBlocked,
        Self::PileFrozen,
        Self::PickupInvalid,
        Self::MustTakePile,
        Self::CannotGoOut,
        Self::MustGoOut,
        Self::PassNotAllowed,
        Self::AskNotAllowed,
        Self::InvalidPosition,
    ];

    /// The stable snake_case name (`pile_frozen`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotYourTurn => "not_your_turn",
            Self::WrongPhase => "wrong_phase",
            Self::CardNotHeld => "card_not_held",
            Self::UnknownMeld => "unknown_meld",
            Self::NotInPreset => "not_in_preset",
            Self::InvalidGroup => "invalid_group",
            Self::InvalidSequence => "invalid_sequence",
            Self::BlackThrees => "black_threes",
            Self::OpeningMinimum => "opening_minimum",
            Self::PileBlocked => "pile_blocked",
            Self::PileFrozen => "pile_frozen",
            Self::PickupInvalid => "pickup_invalid",
            Self::MustTakePile => "must_take_pile",
            Self::CannotGoOut => "cannot_go_out",
            Self::MustGoOut => "must_go_out",
            Self::PassNotAllowed => "pass_not_allowed",
            Self::AskNotAllowed => "ask_not_allowed",
            Self::InvalidPosition => "invalid_position",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused move or position: the stable code and a reason in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Refusal {
    /// The stable code.
    pub code: Code,
    /// What a player reads ("your first melds make 85 points; your team needs 90").
    pub reason: Cow<'static, str>,
}

impl Refusal {
    /// A refusal with `code` and `reason`.
    pub fn new(code: Code, reason: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_round_trip_through_serde() {
        for code in Code::ALL {
            let json = format!("\"{}\"", code.as_str());
            assert_eq!(serde_json::from_str::<Code>(&json).unwrap(), code);
        }
    }
}
