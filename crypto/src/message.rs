//! Message bodies of the fair-deal protocol (PROTOCOL.md §6), carried inside signed envelopes.
//! Moves carry the rules engine's action as opaque bytes (encoded by the layer that knows the
//! rules) plus the shares that open the cards they show.

use serde::{Deserialize, Serialize};

use crate::encoding::{self, DecodeError};
use crate::group::{CtBytes, PointBytes};
use crate::proofs::Proof;

/// A seat's per-hand commitment: seed commitment, hand key and proof of knowledge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCommit {
    /// The hand context.
    pub hctx: [u8; 32],
    /// `SHA-256(label ‖ hctx ‖ seat ‖ seed)`.
    pub seed_commit: [u8; 32],
    /// `X = x·G`.
    pub key: PointBytes,
    /// Proof of knowledge of `x`.
    pub pok: Proof,
}

/// One step of the shuffle chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleMsg {
    /// The hand context.
    pub hctx: [u8; 32],
    /// 1..=4.
    pub step: u8,
    /// Hash of the deck this step shuffled.
    pub input_hash: [u8; 32],
    /// The output deck.
    pub deck: Vec<CtBytes>,
    /// Reserved for a v2 proof of shuffle.
    pub proof: Option<Vec<u8>>,
}

/// A decryption share of one deck position, with its proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShareItem {
    /// The deck position.
    pub pos: u16,
    /// `D = x·C1`.
    pub d: PointBytes,
    /// DLEQ proof.
    pub proof: Proof,
}

/// A decryption share of one deck position inside a round ([`Body::Shares`]): the round's one
/// proof covers all of them ([`crate::batch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SharePoint {
    /// The deck position.
    pub pos: u16,
    /// `D = x·C1`.
    pub d: PointBytes,
}

/// What a seat holds of one sender's chain when it starts an audit: how many of its envelopes
/// it has accepted and the hash of the last one (zeros when none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Head {
    /// Envelopes accepted from the sender (its next sequence number).
    pub count: u32,
    /// Hash of the last of them (it commits to the whole chain before it).
    pub last: [u8; 32],
}

/// Every message body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// Per-hand keys and seed commitment.
    HandCommit(HandCommit),
    /// A shuffle step.
    Shuffle(ShuffleMsg),
    /// A round of decryption shares (deal, draws, public openings) with one proof for all.
    Shares {
        /// The hand context.
        hctx: [u8; 32],
        /// The shares.
        items: Vec<SharePoint>,
        /// The round's proof ([`crate::batch`]).
        proof: Proof,
    },
    /// A move of the rules engine.
    Move {
        /// The hand context.
        hctx: [u8; 32],
        /// The move number in the hand.
        turn: u32,
        /// The rules engine's move, encoded by the rules layer.
        action: Vec<u8>,
        /// The mover's own shares of the positions the move shows.
        opened: Vec<ShareItem>,
    },
    /// The seat's seed, revealed at the end of the hand.
    HandReveal {
        /// The hand context.
        hctx: [u8; 32],
        /// The seed.
        seed: [u8; 32],
    },
    /// The signed result of the hand.
    HandResult {
        /// The hand context.
        hctx: [u8; 32],
        /// Hash of the hand's transcript.
        transcript_root: [u8; 32],
        /// Team scores of the hand.
        scores: [i32; 2],
    },
    /// A seat stops the hand at a fault (its own finding, or another seat's audit): its seed,
    /// revealed at once (the hand is void), and what it holds of every seat's chain, so that
    /// every seat judges the same signed messages and a seat that sent two versions of one
    /// message to different seats is found (PROTOCOL.md §9.2). Added after every other
    /// variant, so the encodings of the others are unchanged.
    Audit {
        /// The hand context.
        hctx: [u8; 32],
        /// The seed.
        seed: [u8; 32],
        /// For each seat (S, W, N, E), what this seat holds of its chain (its own: what it sent).
        heads: [Head; 4],
    },
}

impl Body {
    /// Encodes the body.
    pub fn encode(&self) -> Vec<u8> {
        encoding::encode(self)
    }

    /// Decodes a body.
    ///
    /// # Errors
    ///
    /// Malformed, too long or trailing bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        encoding::decode(bytes)
    }

    /// The hand context the body belongs to.
    pub fn hctx(&self) -> &[u8; 32] {
        match self {
            Self::HandCommit(c) => &c.hctx,
            Self::Shuffle(s) => &s.hctx,
            Self::Shares { hctx, .. }
            | Self::Move { hctx, .. }
            | Self::HandReveal { hctx, .. }
            | Self::Audit { hctx, .. }
            | Self::HandResult { hctx, .. } => hctx,
        }
    }
}
