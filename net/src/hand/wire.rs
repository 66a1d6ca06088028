//! What a `Move` message carries: a rules move, or the red threes just received.

use fairdeal_core::Move;
use serde::{Deserialize, Serialize};

/// The action inside a signed `Move` body (JSON, so that the rules' optional fields survive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WireAction {
    /// A move of the rules engine.
    Play(Move),
    /// After cards were dealt privately (automatic red threes): the red threes among them, shown
    /// by the opened shares (none opened means none received).
    RevealRedThrees {},
}

impl WireAction {
    /// Encodes the action.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Decodes an action.
    ///
    /// # Errors
    ///
    /// Bytes that are not an action.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    }
}
