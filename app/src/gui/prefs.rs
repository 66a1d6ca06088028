//! The player's table preferences, remembered with the settings: how the hand is sorted and
//! whether cards move (reduced motion turns the animations off), and whether the table sounds.

use serde::{Deserialize, Serialize};

/// How the hand is sorted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SortBy {
    /// Wilds first, then ranks from ace down (groups together).
    #[default]
    Rank,
    /// Wilds first, then each suit from low to high (sequences together).
    Suit,
}

/// Table preferences.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TablePrefs {
    /// The hand's order.
    pub sort: SortBy,
    /// No moving cards and no pulsing celebration (the highlights stay).
    pub reduced_motion: bool,
    /// Short tones for a draw, a discard, a canasta and the player's turn (off by default).
    pub sounds: bool,
}
