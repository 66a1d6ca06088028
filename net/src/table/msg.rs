//! Table-level messages: the lobby, the co-signed configuration, and hand traffic.

use fairdeal_core::{HouseRules, Preset, RedThreeMode, Rules, Seat, SeatMap, StockEnd, TieRule};
use fairdeal_crypto::encoding::{self, DecodeError};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{ProofMode, PublicKey, Sig};
use serde::{Deserialize, Serialize};

pub use super::statement::{ReturnState, Statement};

/// The protocol name on the wire (libp2p stream protocol).
pub const PROTOCOL: &str = "/fairdeal/table/14";
/// The version string sent in libp2p identify: the package's version and the table
/// protocol's (kept equal to [`PROTOCOL`]'s number; a unit test holds it).
pub const AGENT_VERSION: &str = concat!("fairdeal/", env!("CARGO_PKG_VERSION"), "/table-14");

/// What a table is about, as announced and agreed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableConfig {
    /// The table's name.
    pub name: String,
    /// The preset.
    pub preset: Preset,
    /// House rules (each override, or the preset's default).
    pub house: House,
    /// The seated identities, S, W, N, E.
    pub seats: [PublicKey; 4],
    /// Display names, S, W, N, E.
    pub names: [String; 4],
    /// Whether each seat is a computer player.
    pub bots: [bool; 4],
    /// The first hand's dealer.
    #[serde(with = "crate::seat_wire::one")]
    pub first_dealer: Seat,
    /// Whether every shuffle step must carry a zero-knowledge proof (on by default); a step
    /// without one is refused at a table that asked for proofs.
    pub proofs: ProofMode,
    /// Each seat's fresh nonce (S, W, N, E), sent with its join before the configuration is
    /// signed; a seat signs only a configuration that carries its own, so no table id (and no
    /// hand context) of a game an honest seat plays repeats another game's.
    pub nonces: [[u8; 32]; 4],
    /// The move clock: how long a player has for a turn before their own client plays a
    /// computer move for them (ms; 0: no clock, the default).
    pub move_clock_ms: u64,
}

impl TableConfig {
    /// The rules in force.
    pub fn rules(&self) -> Rules {
        Rules::new(self.preset, HouseRules::from(&self.house))
    }

    /// The table (session) id: the hash of the whole configuration.
    pub fn sid(&self) -> [u8; 32] {
        hash256(b"fairdeal/v1/sid", &[&encoding::encode(self)])
    }

    /// The seat of `key`, if seated.
    pub fn seat_of(&self, key: &PublicKey) -> Option<Seat> {
        SeatMap(self.seats).find(|k| k == key)
    }
}

/// House rules as signed and sent: every override present (`None`: the preset's default), in
/// the one codec. (The rules engine's `HouseRules` leaves absent keys out for the scenario
/// format's JSON, which a non-self-describing encoding cannot read back.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct House {
    /// See [`HouseRules::steal_onto_completed_canasta`].
    pub steal_onto_completed_canasta: Option<bool>,
    /// See [`HouseRules::wilds_onto_completed_canasta`].
    pub wilds_onto_completed_canasta: Option<bool>,
    /// See [`HouseRules::pile_always_frozen`].
    pub pile_always_frozen: Option<bool>,
    /// See [`HouseRules::must_ask`].
    pub must_ask: Option<bool>,
    /// See [`HouseRules::one_card_pile_rule`].
    pub one_card_pile_rule: Option<bool>,
    /// See [`HouseRules::stock_end`].
    pub stock_end: Option<StockEnd>,
    /// See [`HouseRules::tie_rule`].
    pub tie_rule: Option<TieRule>,
    /// See [`HouseRules::red_three_mode`].
    pub red_three_mode: Option<RedThreeMode>,
    /// See [`HouseRules::going_out_bonus`].
    pub going_out_bonus: Option<i32>,
    /// See [`HouseRules::target`].
    pub target: Option<i32>,
}

/// Both conversions between [`House`] and [`HouseRules`] from one list of fields (a field
/// added to one struct and not here, or to the list and not the other struct, does not compile).
macro_rules! house_mirror {
    ($($field:ident),* $(,)?) => {
        impl From<&HouseRules> for House {
            fn from(h: &HouseRules) -> Self {
                Self { $($field: h.$field),* }
            }
        }

        impl From<&House> for HouseRules {
            fn from(h: &House) -> Self {
                Self { $($field: h.$field),* }
            }
        }
    };
}

house_mirror!(
    steal_onto_completed_canasta,
    wilds_onto_completed_canasta,
    pile_always_frozen,
    must_ask,
    one_card_pile_rule,
    stock_end,
    tie_rule,
    red_three_mode,
    going_out_bonus,
    target,
);

/// House rules as the scenario format's JSON (for local files: a game folder's record, the
/// log's first record).
pub fn house_to_json(house: &HouseRules) -> String {
    serde_json::to_string(house).unwrap_or_else(|_| "{}".to_owned())
}

/// House rules from their JSON (unknown or malformed text gives the preset's defaults).
pub fn house_from_json(text: &str) -> HouseRules {
    serde_json::from_str(text).unwrap_or_default()
}

/// A seat in the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The player's identity.
    pub key: PublicKey,
    /// Display name.
    pub name: String,
    /// Computer player.
    pub bot: bool,
    /// Addresses where the player listens (multiaddrs as text).
    pub addrs: Vec<String>,
}

/// Every message between table peers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableMsg {
    /// Asks the host for a seat.
    Join {
        /// The player.
        seat: SeatInfo,
        /// The seat asked for, if any; the host gives the first free one when it is taken
        /// or absent.
        #[serde(with = "crate::seat_wire::opt")]
        want: Option<Seat>,
        /// The joiner's fresh nonce for this game, which the configuration must carry.
        nonce: [u8; 32],
    },
    /// The host's current seating (sent to everyone after every change).
    Roster {
        /// The table's name.
        name: String,
        /// The preset.
        preset: Preset,
        /// House rules.
        house: House,
        /// The seats, S, W, N, E.
        seats: [Option<SeatInfo>; 4],
        /// The nonce each seated player joined with (zeros for a free seat): kept so that a
        /// host rebuilt from its log still proposes them.
        nonces: [[u8; 32]; 4],
    },
    /// The host proposes the final configuration.
    Start {
        /// The configuration.
        config: TableConfig,
    },
    /// A seated player's signature on the configuration (co-signing).
    Accept {
        /// The table id it signs.
        sid: [u8; 32],
        /// The player's signature over the table id.
        sig: Sig,
    },
    /// Signed envelopes of a hand (see `hand`).
    Hand {
        /// One signed envelope, as sent.
        bytes: Vec<u8>,
    },
    /// The sender's hand stands still: send it whatever you hold of hand `hand_no` that it
    /// lacks (every signed envelope of a sender from its sequence number `have[sender]` on).
    Resync {
        /// The hand it is at.
        hand_no: u32,
        /// The next sequence number it expects from each seat.
        have: [u32; 4],
    },
    /// What table is this? (LAN discovery: answered with [`Reply::info`]).
    Query,
    /// The sender has waited past the grace period for `seat` in hand `hand_no` and votes to
    /// void the hand (signed over [`Statement::Timeout`]).
    Timeout {
        /// The hand.
        hand_no: u32,
        /// The deal's hand context (a hand dealt again has a new one): the vote counts for
        /// that deal only.
        hctx: [u8; 32],
        /// The silent seat.
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The voter's signature.
        sig: Sig,
    },
    /// After a voided hand, a computer player takes `seat` with the identity `key`; sent by the
    /// seat that runs it (signed over [`Statement::Replace`]).
    Replace {
        /// The voided hand.
        hand_no: u32,
        /// The seat taken over.
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The computer player's identity.
        key: PublicKey,
        /// The seed of its decisions (see `hand::replacement_rng`), so that every seat can
        /// replay them at the audit.
        seed: [u8; 32],
        /// The runner's signature.
        sig: Sig,
    },
    /// Before the start: a joiner gives up its seat, or the host closes the table.
    Leave,
    /// During the game: the sender leaves the table (signed over [`Statement::Quit`]). The
    /// seat's runner puts it out once no hand is played (a computer player takes it, said by
    /// the runner's `Replace`); while a hand is played, what the seat still owes is due from
    /// its quit.
    Quit {
        /// The hand being played.
        hand_no: u32,
        /// The leaver's signature.
        sig: Sig,
    },
    /// To a player back at a seat a computer player took over, from the computer player's
    /// runner: the seat is theirs again from the start of the next hand. Unsigned: the
    /// player takes it on the evidence it carries (the signed timeout votes that put the seat
    /// out), or on what it knows itself (it left, or saw itself voted out), never on the
    /// sender's word.
    SeatHeld {
        /// The hand of the deal in which the seat was voted out.
        hand_no: u32,
        /// The seat held (the runner's log records that it gives this seat back: a replay
        /// must reach the same decision without the liveness signal that led to it).
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The hand context of that deal (zero when the seat was not voted out: it left).
        hctx: [u8; 32],
        /// The signed timeout votes against the seat in that deal, by voter seat (each over
        /// [`Statement::Timeout`]), at most one per other seat.
        #[serde(with = "crate::seat_wire::pairs")]
        votes: Vec<(Seat, Sig)>,
        /// The latest signed quit of each other seat that left (the hand and signature of a
        /// `Quit`, over [`Statement::Quit`]), by seat, at most one per other seat: a player
        /// away while the runner it worked out left too works the sender out with them.
        #[serde(with = "crate::seat_wire::pairs")]
        quits: Vec<(Seat, (u32, Sig))>,
        /// The signed votes that put each other seat out that was voted out, at most one
        /// per other seat: a player away while the runner it worked out was voted out (it
        /// quit, so it took no part in the votes) works the sender out with them.
        outs: Vec<SeatOut>,
    },
    /// The signed timeout votes that put `seat` out of the deal `hctx` of hand `hand_no`, by
    /// voter seat, from a seat that counted them, to every seat (and again to one that asks
    /// for what it misses of that hand). Unsigned: each vote is taken as its signer's own
    /// would be, so a peer that missed one (lost on a broken link) ends the deal as the
    /// others did.
    VotedOut {
        /// The hand of the deal.
        hand_no: u32,
        /// The seat voted out.
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The deal's hand context.
        hctx: [u8; 32],
        /// The votes (each over [`Statement::Timeout`]), at most one per other seat.
        #[serde(with = "crate::seat_wire::pairs")]
        votes: Vec<(Seat, Sig)>,
    },
    /// The game is over: sent to a player whose seat a computer player held at the end, by
    /// that computer player's runner (signed over [`Statement::Over`]: the totals are its word,
    /// and only the seat that played for the player may give it).
    Over {
        /// Final totals, team A and B.
        totals: [i32; 2],
        /// The runner's signature.
        sig: Sig,
    },
    /// The runner gives a seat back at the start of hand `state.hand_no` (signed over
    /// [`Statement::Return`]); sent to every seat and to the returning player.
    Return {
        /// The table's state at that hand.
        state: ReturnState,
        /// The runner's signature.
        sig: Sig,
    },
    /// Between hands: the sender's player has seen the score of hand `hand_no` and is ready
    /// for the next one (signed over [`Statement::Ready`]; the sender's own seat only).
    Ready {
        /// The hand just scored.
        hand_no: u32,
        /// The sender's signature.
        sig: Sig,
    },
    /// A line of table chat (signed over [`Statement::Chat`]): shown beside the move log, never
    /// part of the rules, the hand audit, the log or the result.
    Chat {
        /// The sender's line number (each line numbered from 1; a number not above the last
        /// one seen from that seat is a replay).
        n: u32,
        /// The line (at most `chat::MAX_CHAT` characters, no control characters).
        text: String,
        /// The sender's signature.
        sig: Sig,
    },
    /// Another seat's signed quit, passed on by a seat that took it, to every seat: a quit
    /// sent to some seats only still reaches them all. Unsigned: the quit is taken as its
    /// signer's own would be.
    QuitPassed {
        /// The seat that quit.
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The hand its quit names.
        hand_no: u32,
        /// Its signature (over [`Statement::Quit`]).
        sig: Sig,
    },
    /// A runner's signed `Replace`, passed on by a seat that took it, to every seat: a
    /// runner that tells some seats only that a seat is taken over (one deal started again
    /// there, another played on elsewhere) still tells them all. Unsigned: the replacement is
    /// taken as its runner's own would be.
    ReplacePassed {
        /// The runner that signed it.
        #[serde(with = "crate::seat_wire::one")]
        runner: Seat,
        /// The hand it names.
        hand_no: u32,
        /// The seat taken over.
        #[serde(with = "crate::seat_wire::one")]
        seat: Seat,
        /// The computer player's identity.
        key: PublicKey,
        /// The seed of its decisions.
        seed: [u8; 32],
        /// The runner's signature (over [`Statement::Replace`]).
        sig: Sig,
    },
    /// A runner's signed `Return`, passed on by a seat that took it, to every seat: a runner
    /// that gives a seat back telling some seats only (one deal started again with the player
    /// there, another played on with the computer player elsewhere) still tells them all.
    /// Unsigned: the return is taken as its runner's own would be.
    ReturnPassed {
        /// The runner that signed it.
        #[serde(with = "crate::seat_wire::one")]
        runner: Seat,
        /// The table's state it gives the seat back with.
        state: ReturnState,
        /// The runner's signature (over [`Statement::Return`]).
        sig: Sig,
    },
}

/// The signed timeout votes that put `seat` out of the deal `hctx` of hand `hand_no`, by
/// voter seat (each over [`Statement::Timeout`]), shown in a held seat's notice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOut {
    /// The seat voted out.
    #[serde(with = "crate::seat_wire::one")]
    pub seat: Seat,
    /// The hand of the deal.
    pub hand_no: u32,
    /// The deal's hand context.
    pub hctx: [u8; 32],
    /// The votes, by voter seat.
    #[serde(with = "crate::seat_wire::pairs")]
    pub votes: Vec<(Seat, Sig)>,
}

/// What a table announces to the LAN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The table's name.
    pub name: String,
    /// The preset.
    pub preset: Preset,
    /// House rules.
    pub house: House,
    /// Names in the seats (S, W, N, E), `None` for free seats.
    pub seated: [Option<String>; 4],
    /// The software's version.
    pub version: String,
    /// The move clock (ms a turn; 0: none).
    pub move_clock_ms: u64,
}

/// The answer to every request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The acknowledgement.
    pub ack: Ack,
    /// The table, when asked.
    pub info: Option<TableInfo>,
}

impl Reply {
    /// Encodes the reply.
    pub fn encode(&self) -> Vec<u8> {
        encoding::encode(self)
    }

    /// Decodes a reply.
    ///
    /// # Errors
    ///
    /// Malformed bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        encoding::decode(bytes)
    }
}

impl TableMsg {
    /// Encodes the message.
    pub fn encode(&self) -> Vec<u8> {
        encoding::encode(self)
    }

    /// Whether `bytes` are a [`TableMsg::Query`] (without decoding anything else).
    pub fn is_query(bytes: &[u8]) -> bool {
        bytes == Self::Query.encode().as_slice()
    }

    /// Decodes a message (size-limited, no trailing bytes).
    ///
    /// # Errors
    ///
    /// Malformed bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        encoding::decode(bytes)
    }
}

/// The acknowledgement of every message: the receiver's hand number and state hash, so that a
/// divergence shows at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    /// The receiver's current hand.
    pub hand_no: u32,
    /// Hash of the receiver's public state of that hand.
    pub state: [u8; 32],
}

#[cfg(test)]
mod query_tests {
    use super::*;

    #[test]
    fn the_agent_version_names_the_protocol_in_use() {
        let number = PROTOCOL.rsplit('/').next().unwrap_or_default();
        assert!(
            AGENT_VERSION.ends_with(&format!("/table-{number}")),
            "{AGENT_VERSION}"
        );
    }

    #[test]
    fn a_query_is_told_apart_without_decoding() {
        assert!(TableMsg::is_query(&TableMsg::Query.encode()));
        assert!(!TableMsg::is_query(&TableMsg::Leave.encode()));
        assert!(!TableMsg::is_query(&[]));
        let mut longer = TableMsg::Query.encode();
        longer.push(0);
        assert!(!TableMsg::is_query(&longer));
    }
}

#[cfg(test)]
mod codec_tests {
    use super::*;

    fn roster() -> TableMsg {
        TableMsg::Roster {
            name: "kitchen".into(),
            preset: Preset::Samba,
            house: House {
                target: Some(3000),
                must_ask: Some(true),
                ..House::default()
            },
            seats: [
                Some(SeatInfo {
                    key: PublicKey([7; 32]),
                    name: "Ann".into(),
                    bot: false,
                    addrs: vec!["/ip4/127.0.0.1/tcp/4000".into()],
                }),
                None,
                None,
                None,
            ],
            nonces: [[1; 32], [0; 32], [0; 32], [0; 32]],
        }
    }

    /// Golden bytes: house rules are signed in the one codec, every override present.
    #[test]
    fn house_rules_have_one_encoding() {
        let house = House {
            target: Some(3000),
            ..House::default()
        };
        let hex: String = encoding::encode(&house)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        // Nine absent overrides, then Some(3000): zigzag 6000 = 0x1770 as a u16 varint.
        assert_eq!(hex, format!("{}01fb7017", "00".repeat(9)));
        let rules = HouseRules::from(&house);
        assert_eq!(rules.target, Some(3000));
        assert_eq!(House::from(&rules), house);
    }

    proptest::proptest! {
        /// A table message with one byte changed either decodes to a message whose encoding
        /// is exactly those bytes, or is refused: no two byte strings mean one message.
        #[test]
        fn a_changed_message_is_its_own_encoding_or_refused(
            at in 0usize..200,
            byte in proptest::prelude::any::<u8>(),
        ) {
            let mut bytes = roster().encode();
            let at = at % bytes.len();
            bytes[at] = byte;
            if let Ok(m) = TableMsg::decode(&bytes) {
                proptest::prop_assert_eq!(m.encode(), bytes);
            }
        }
    }
}
