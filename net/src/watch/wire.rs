//! The bytes between a spectator and the seat it watches.
//!
//! ```text
//! FromWatcher = bincode(Watch { name, from } | Leave)
//! FromSeat    = u32_le head_len | bincode(Head) | record*     record = transcript entry record
//! Head        = Entries { from, watching } | Full { max } | Refused
//! ```
//!
//! The entries travel as the transcript file's records (each at most
//! [`crate::transcript::MAX_ENTRY`] bytes), so a message holds at least one whole entry and is
//! bounded by [`WIRE_LIMIT`].

use fairdeal_crypto::encoding;
use serde::{Deserialize, Serialize};

use crate::transcript::{self, Entry};

/// The largest message either way: one whole entry of the largest size and its head.
pub const WIRE_LIMIT: usize = transcript::MAX_ENTRY + 4096;

/// The longest name a spectator gives (longer ones are cut, on a character boundary).
pub const MAX_NAME: usize = 32;

/// What a spectator sends: the only two messages a seat takes from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FromWatcher {
    /// Let me watch, sending every entry from number `from` (0: from the start).
    Watch {
        /// The name the players see.
        name: String,
        /// The first entry it lacks.
        from: u64,
    },
    /// I leave.
    Leave,
}

/// What a seat answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FromSeat {
    /// Entries `from..` of the public transcript, and who watches now.
    Entries {
        /// The number of the first.
        from: u64,
        /// The spectators' names.
        watching: Vec<String>,
        /// The entries.
        entries: Vec<Entry>,
    },
    /// Every spectator's place is taken.
    Full {
        /// The bound.
        max: u16,
    },
    /// The message is not one a spectator may send.
    Refused,
}

#[derive(Serialize, Deserialize)]
enum Head {
    Entries { from: u64, watching: Vec<String> },
    Full { max: u16 },
    Refused,
}

/// Bytes that are not a message of this protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Too long.
    #[error("longer than any watch message")]
    TooLong,
    /// Not decodable.
    #[error("not a watch message")]
    Malformed,
}

impl FromWatcher {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        encoding::encode(self)
    }

    /// Decodes a spectator's message (canonical bincode, bounded).
    ///
    /// # Errors
    ///
    /// Anything else.
    pub fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        encoding::decode(bytes).map_err(|_| WireError::Malformed)
    }
}

impl FromSeat {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let (head, entries) = match self {
            Self::Entries {
                from,
                watching,
                entries,
            } => (
                Head::Entries {
                    from: *from,
                    watching: watching.clone(),
                },
                entries.as_slice(),
            ),
            Self::Full { max } => (Head::Full { max: *max }, &[][..]),
            Self::Refused => (Head::Refused, &[][..]),
        };
        let head = encoding::encode(&head);
        let mut out = (head.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&head);
        for e in entries {
            out.extend_from_slice(&e.to_record());
        }
        out
    }

    /// Decodes a seat's message; memory is bounded by [`WIRE_LIMIT`].
    ///
    /// # Errors
    ///
    /// Too long, or not a message of this protocol.
    pub fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        if bytes.len() > WIRE_LIMIT {
            return Err(WireError::TooLong);
        }
        let (len, rest) = bytes.split_first_chunk::<4>().ok_or(WireError::Malformed)?;
        let len = u32::from_le_bytes(*len) as usize;
        if len > rest.len() {
            return Err(WireError::Malformed);
        }
        let (head, records) = rest.split_at(len);
        let head: Head = encoding::decode(head).map_err(|_| WireError::Malformed)?;
        let mut file = transcript::MAGIC.to_vec();
        file.extend_from_slice(records);
        let entries: Vec<Entry> = transcript::decode(&file)
            .map_err(|_| WireError::Malformed)?
            .into_iter()
            .map(|l| l.entry)
            .collect();
        match head {
            Head::Entries { from, watching } => Ok(Self::Entries {
                from,
                watching,
                entries,
            }),
            Head::Full { max } if entries.is_empty() => Ok(Self::Full { max }),
            Head::Refused if entries.is_empty() => Ok(Self::Refused),
            _ => Err(WireError::Malformed),
        }
    }
}

/// `name` cut to [`MAX_NAME`] bytes on a character boundary, control characters dropped.
pub fn clean_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().filter(|c| !c.is_control()) {
        if out.len() + c.len_utf8() > MAX_NAME {
            break;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Random bytes never panic either way, and what decodes re-encodes to itself.
        #[test]
        fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..2048)) {
            if let Ok(m) = FromSeat::decode(&b) {
                prop_assert_eq!(FromSeat::decode(&m.encode()), Ok(m));
            }
            if let Ok(m) = FromWatcher::decode(&b) {
                prop_assert_eq!(FromWatcher::decode(&m.encode()), Ok(m));
            }
        }
    }

    #[test]
    fn messages_round_trip_and_names_are_cut() {
        let m = FromSeat::Entries {
            from: 7,
            watching: vec!["ann".into()],
            entries: vec![Entry::Signed {
                from: fairdeal_crypto::PublicKey([3; 32]),
                msg: vec![1, 2],
            }],
        };
        assert_eq!(FromSeat::decode(&m.encode()), Ok(m));
        assert_eq!(
            FromSeat::decode(&FromSeat::Full { max: 8 }.encode()),
            Ok(FromSeat::Full { max: 8 })
        );
        let w = FromWatcher::Watch {
            name: "bo".into(),
            from: 3,
        };
        assert_eq!(FromWatcher::decode(&w.encode()), Ok(w));
        assert_eq!(
            FromSeat::decode(&vec![0; WIRE_LIMIT + 1]),
            Err(WireError::TooLong)
        );
        assert_eq!(clean_name(&"é".repeat(40)).len(), 32);
        assert_eq!(clean_name("a\nb"), "ab");
    }
}
