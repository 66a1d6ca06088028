//! One entry of the public transcript ([`Entry`]: the configuration, a deal's header, a hand
//! envelope, a signed table message) as the file holds it, which table messages are kept as
//! entries ([`is_evidence`]), and an entry with its place in a file ([`Located`]). The
//! decoder, the writer and the checks name these. A deal's header is the hand's own
//! [`DealHead`] and [`Replacement`]s, so that what a seat plays and what a file states are one
//! type.

use fairdeal_crypto::{PublicKey, Sig, SignedEnvelope, encoding};
use serde::{Deserialize, Serialize};

use crate::hand::{DealHead, Replacement};
use crate::table::msg::TableConfig;

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
    /// A deal begins (each of its fields is checked: the hand context binds the head, the
    /// envelopes' signatures the keys, and the head must be the one the deals before imply).
    Hand {
        /// Its number (from 1; a redeal takes the next number), dealer, team totals before it
        /// and the previous deal's result (its transcript root, or the void marker).
        head: DealHead,
        /// The identities that sign this hand's envelopes.
        keys: Box<[PublicKey; 4]>,
        /// Seats played by a computer player that took them over.
        bots: Box<[Option<Replacement>; 4]>,
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

#[cfg(test)]
mod tests {
    use fairdeal_core::Seat;

    use super::*;

    /// A header as four loose fields, the layout every saved transcript has.
    #[derive(Serialize)]
    #[expect(
        clippy::large_enum_variant,
        reason = "a mirror of the file's layout, never kept"
    )]
    enum Flat {
        #[expect(dead_code, reason = "the variant's index, as in `Entry`")]
        Table,
        Hand {
            hand_no: u32,
            dealer: u8,
            scores: [i32; 2],
            prev_result: [u8; 32],
            keys: [PublicKey; 4],
            bots: [Option<(u8, [u8; 32])>; 4],
        },
    }

    /// Every saved transcript still reads: a header is the same bytes as four loose fields.
    #[test]
    fn a_header_is_written_as_its_fields_in_order() {
        let head = DealHead {
            hand_no: 7,
            dealer: Seat::N,
            totals: [1_250, -40],
            prev_result: [3; 32],
        };
        let keys = [
            PublicKey([1; 32]),
            PublicKey([2; 32]),
            PublicKey([3; 32]),
            PublicKey([4; 32]),
        ];
        let entry = Entry::Hand {
            head,
            keys: Box::new(keys),
            bots: Box::new([
                None,
                Some(Replacement {
                    runner: Seat::E,
                    seed: [9; 32],
                }),
                None,
                None,
            ]),
        };
        let flat = Flat::Hand {
            hand_no: 7,
            dealer: 2,
            scores: [1_250, -40],
            prev_result: [3; 32],
            keys,
            bots: [None, Some((3, [9; 32])), None, None],
        };
        let bytes = encoding::encode(&flat);
        assert_eq!(encoding::encode(&entry), bytes);
        assert_eq!(encoding::decode::<Entry>(&bytes).expect("decodes"), entry);
    }
}
