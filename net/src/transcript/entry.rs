//! One entry of the public transcript ([`Entry`]: the configuration, a deal's header, a hand
//! envelope, a signed table message) as the file holds it, with the computer players a header
//! names ([`Stand`]), which table messages are kept as entries ([`is_evidence`]), and an entry
//! with its place in a file ([`Located`]). The decoder, the writer and the checks name these.

use fairdeal_core::Seat;
use fairdeal_crypto::{PublicKey, Sig, SignedEnvelope, encoding};
use serde::{Deserialize, Serialize};

use crate::table::msg::TableConfig;

/// A computer player that took a seat over, as a hand header states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stand {
    /// The seat whose client runs it.
    #[serde(with = "crate::seat_wire::one")]
    pub runner: Seat,
    /// The seed of its decisions.
    pub seed: [u8; 32],
}

/// One entry of the transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// The configuration every seat signed, with the four signatures over its id.
    Table {
        /// The configuration.
        config: Box<TableConfig>,
        /// Each seat's signature over [`TableConfig::sid`], S W N E.
        accepts: Box<[Sig; 4]>,
    },
    /// A deal begins (each of its fields is checked: the hand context binds the first three,
    /// the envelopes' signatures the keys, the verifier's own sums the scores).
    Hand {
        /// Its number in the game (from 1; a redeal takes the next number).
        hand_no: u32,
        /// The dealer.
        #[serde(with = "crate::seat_wire::one")]
        dealer: Seat,
        /// Team totals before it.
        scores: [i32; 2],
        /// The previous hand's result hash (its transcript root, or the void marker).
        prev_result: [u8; 32],
        /// The identities that sign this hand's envelopes.
        keys: Box<[PublicKey; 4]>,
        /// Seats played by a computer player that took them over.
        bots: Box<[Option<Stand>; 4]>,
    },
    /// A signed envelope of hand `hand_no`, as sent.
    Envelope {
        /// The hand.
        hand_no: u32,
        /// The envelope.
        signed: SignedEnvelope,
    },
    /// A signed table message (`Timeout`, `Quit`, `Replace`, `Return`) from `from`.
    Signed {
        /// The signer's identity.
        from: PublicKey,
        /// The encoded `TableMsg`.
        msg: Vec<u8>,
    },
}

impl Entry {
    /// The entry as written in the file (length prefix included).
    pub fn to_record(&self) -> Vec<u8> {
        // An entry wraps a whole message and a few bytes more.
        let body = encoding::encode_within::<_, { super::MAX_ENTRY }>(self);
        let mut out = Vec::with_capacity(body.len() + 4);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }
}

/// Whether a table message is evidence kept in the transcript (a signed reason for a void or
/// a change of seat).
pub fn is_evidence(msg: &crate::table::msg::TableMsg) -> bool {
    use crate::table::msg::TableMsg;
    matches!(
        msg,
        TableMsg::Timeout { .. }
            | TableMsg::Quit { .. }
            | TableMsg::Replace { .. }
            | TableMsg::Return { .. }
    )
}

/// An entry and where it is in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Entry number (from 0).
    pub index: usize,
    /// Byte offset of its length prefix.
    pub offset: usize,
    /// The entry.
    pub entry: Entry,
}
