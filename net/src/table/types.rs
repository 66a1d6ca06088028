//! The public types of a table: where a message goes ([`Dest`]), what it reports
//! ([`TableEvent`], with why a seat's hand was void, [`Gone`], and a line of chat,
//! [`ChatLine`]), what it refuses ([`TableError`]), its limits, names as it accepts them, and
//! the values derived from the peer's master secret ([`derive`]). The handlers above it name
//! these; it names none of them.

use fairdeal_core::{GameResult, Seat};
use fairdeal_crypto::PublicKey;
use fairdeal_crypto::hash::hash256;

use super::msg::{SeatInfo, TableConfig};
use super::refusal::{NotNow, Unexpected};
use crate::hand::Event as HandEvent;

/// What becomes of the hand when a silent seat is voted out ([`TableSession::grace_left`](super::TableSession::grace_left)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterGrace {
    /// The hidden cards cannot all be opened yet: the hand is void and dealt again.
    DealtAgain,
    /// The play is over: the hand counts, with forfeit scores if the silent seat's seed is
    /// missing.
    Counts,
}

/// Where a message goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dest {
    /// One peer.
    Peer(PublicKey),
    /// Every other seated peer.
    Seats,
}

/// What the table reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableEvent {
    /// The lobby changed.
    Roster(Box<[Option<SeatInfo>; 4]>),
    /// Every seat signed the configuration: the game starts.
    Started(Box<TableConfig>),
    /// Hand `hand_no` begins at this peer (its commitment is on the way).
    HandStarted(u32),
    /// The table waits for these seats (a banner: "North lost connection").
    Paused(Vec<Seat>),
    /// Everyone answers again.
    Resumed,
    /// The hand was void because `seat` is out of it (silent past the grace period, left,
    /// or caught cheating); a computer player takes the seat and the hand is dealt again.
    HandVoided {
        /// The voided hand.
        hand_no: u32,
        /// The seat that is out.
        seat: Seat,
        /// Why.
        why: Gone,
    },
    /// A computer player plays this peer's seat (it was away, or left); the seat is given back
    /// at the start of the next hand.
    SeatHeld {
        /// The seat.
        seat: Seat,
    },
    /// A player has their seat back from the computer player that played it.
    SeatBack {
        /// The seat.
        seat: Seat,
        /// The game's totals (team A, team B) as the seat comes back: the returning player
        /// learns here what the hands it missed scored.
        totals: [i32; 2],
        /// It is this peer's own seat (told so while it did not yet know its seat: a
        /// resumed client learns it from this).
        yours: bool,
    },
    /// Hand `hand_no` was over but `seat` stayed silent instead of finishing it (its seed or
    /// its signed result withheld past the grace period): the hand counts with `scores`, and a
    /// computer player takes the seat.
    HandForfeited {
        /// The hand.
        hand_no: u32,
        /// The silent seat.
        seat: Seat,
        /// The hand's scores, team A and B.
        scores: [i32; 2],
        /// Item by item, when the seed was withheld (the forfeit rule); `None` when the audit
        /// had passed and its scores stand.
        breakdown: Option<[fairdeal_core::TeamScore; 2]>,
    },
    /// A computer player now plays `seat`, run in the open by `runner`'s client (which can
    /// see that seat's cards).
    SeatTaken {
        /// The seat taken over.
        seat: Seat,
        /// Whose client runs it.
        runner: Seat,
    },
    /// Something happened in hand `hand_no`.
    Hand {
        /// The hand's number (from 1).
        hand_no: u32,
        /// What.
        event: HandEvent,
    },
    /// The host closed the table before the game started.
    Closed,
    /// A line of table chat (this peer's own too).
    Chat(ChatLine),
    /// Nobody else at the table has been heard from for `secs` seconds (every other seat and
    /// every client running one): the others left, or ended the game while this peer was
    /// away. Said once per such stretch; the node stops, keeping its log for a later resume.
    Alone {
        /// How long nobody answered.
        secs: u64,
    },
    /// `seat` was proven at fault (named by the hand with signed evidence): a computer player
    /// keeps it for the rest of the game, and its player does not get it back.
    SeatBarred {
        /// The seat.
        seat: Seat,
    },
    /// The table stopped before the end of the game, for `reason`: the last event of this
    /// peer's table (a front end says why and ends; nothing more will happen here).
    Stopped {
        /// Why.
        reason: StopReason,
    },
    /// The game is over.
    GameOver {
        /// Final totals, team A and B.
        totals: [i32; 2],
        /// The result.
        result: GameResult,
    },
}

/// Why a seat's hand was void.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// Silent past the grace period (voted out by the other three).
    Silent,
    /// Left the table (its signed `Quit`).
    Left,
    /// Named as a cheat by the hand.
    Cheated,
}

/// A line of table chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// Who said it.
    pub seat: Seat,
    /// What.
    pub text: String,
}

/// Why a table stopped before the end of the game ([`TableEvent::Stopped`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// This many hands in a row were void with no seat to name: something is broken that
    /// another deal will not mend.
    #[error("{hands} hands in a row were void with no seat to name")]
    UnexplainedVoids {
        /// How many.
        hands: u32,
    },
    /// This peer's own seat was put out of the game (named at fault, or voted out as
    /// silent) and no longer plays.
    #[error("this seat was put out of the game")]
    PutOut,
}

/// Bytes or a message that was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not decodable.
    #[error(transparent)]
    Decode(#[from] fairdeal_crypto::encoding::DecodeError),
    /// From a peer that has no seat at this table.
    #[error("message from a peer that is not seated here")]
    NotSeated,
    /// A peer's message that makes no sense now (ignored).
    #[error(transparent)]
    Unexpected(#[from] Unexpected),
    /// This peer's own action that cannot be done now.
    #[error(transparent)]
    NotNow(#[from] NotNow),
    /// A signature that does not verify.
    #[error("bad signature on the table configuration")]
    BadSignature,
    /// A configuration that does not carry this peer's nonce in its seat (an old game's
    /// configuration replayed, or one the host changed): not signed.
    #[error("the configuration does not carry this seat's nonce")]
    NotOurNonce,
    /// A configuration that seats one player in two seats: no table can play it, so it
    /// is not signed. (A first dealer past seat 3 does not even decode.)
    #[error("the configuration cannot be played: one player in two seats")]
    PlayerInTwoSeats,
    /// The hand rejected the bytes.
    #[error(transparent)]
    Hand(#[from] crate::hand::SessionError),
}

/// The most messages kept per sending seat for a hand not started here yet. A seat ahead of
/// this one sends the next hand's first messages (its commitment, or its share of a redeal),
/// and a seat coming back resends its previous and current hand (the old one is dropped when
/// the next hand starts); a hand takes a seat well under this many messages. Hand messages
/// are at most 64 KiB, so one seated peer can hold at most 32 MiB here, and a stranger none
/// (the gate refuses hand messages from peers not seated).
pub(crate) const MAX_EARLY_PER_SEAT: usize = 512;
/// Hands void in a row with nobody to blame after which the table stops instead of dealing
/// again (something is broken that another deal will not mend).
pub const MAX_UNEXPLAINED_VOIDS: u32 = 3;
/// Limit on the signed hand envelopes kept for resending (two hands' worth of any real hand).
pub(super) const MAX_HELD: usize = 8192;
/// A seat's resync is answered at most this often (ms): an honest seat asks every
/// `RESYNC_MS` (2 s) at most, and one answer may resend two hands' messages.
pub const RESYNC_ANSWER_MS: u64 = 1_000;
/// Limit on the transcript entries waiting to be taken ([`TableSession::poll_public`]).
pub(super) const MAX_PUBLIC: usize = 1 << 17;
/// The longest player name accepted at a table (characters).
pub const MAX_NAME: usize = 40;

/// The most addresses a seat card may carry.
pub(super) const MAX_ADDRS: usize = 16;

/// A name as a table accepts it: trimmed, without control characters, at most [`MAX_NAME`]
/// characters, and `Player` when nothing is left.
pub fn clean_name(name: &str) -> String {
    let visible: String = name.chars().filter(|c| !c.is_control()).collect();
    let cut: String = visible.trim().chars().take(MAX_NAME).collect();
    match cut.trim_end() {
        "" => "Player".to_owned(),
        kept => kept.to_owned(),
    }
}

/// Derives a 32-byte value from the peer's master secret (hand seeds, nonces, the bot's rng).
pub(super) fn derive(master: &[u8; 32], what: &[u8], extra: &[u8]) -> [u8; 32] {
    hash256(b"fairdeal/v1/derive", &[master, what, extra])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::refusal::{ChatRefused, MsgKind};

    #[test]
    fn the_words_name_the_message_and_the_reason() {
        let e = TableError::from(Unexpected::AfterStart(MsgKind::Join));
        assert_eq!(e.to_string(), "a join after the game started");
        let e = TableError::from(Unexpected::NotRunner(MsgKind::Return));
        assert_eq!(
            e.to_string(),
            "a seat given back from a seat that does not run its computer player"
        );
        let e = TableError::from(Unexpected::from(ChatRefused::TooFast));
        assert_eq!(e.to_string(), "chat lines too fast");
        let e = TableError::from(NotNow::OnlyHostStarts);
        assert_eq!(e.to_string(), "only the host can start the game");
    }
}
