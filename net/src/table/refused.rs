//! Why the gate refused a message ([`Refused`]): one typed reason per rule, turned into
//! words only for a log line. The reasons a handler shares with the gate (a seat given back,
//! a ready, a chat line) are the handler's own types, so that both say the same.

use std::fmt;

use super::refusal::{ChatRefused, ReadyRefused};
use super::seat_rules::{
    OverRefused, QuitRefused, ReplaceRefused, ReturnRefused, SeatHeldRefused, TimeoutRefused,
};

/// A message refused before anything was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("refused: {why}")]
pub struct Refused {
    /// Why.
    pub why: Why,
    /// A leftover that would change nothing (a duplicate, a message of a stage that is
    /// over, or one that may be early): not held against its sender, and not worth a
    /// warning when the sender is seated.
    pub stale: bool,
    /// May be admitted once this peer knows more (an acceptance from a player whose seat
    /// the host's roster has not told yet): worth asking again after the next message
    /// stored, without storing it meanwhile.
    pub later: bool,
}

impl Refused {
    /// Held against its sender.
    pub(super) fn bad(why: Why) -> Self {
        Self {
            why,
            stale: false,
            later: false,
        }
    }

    /// A leftover: not held against its sender.
    pub(super) fn stale(why: Why) -> Self {
        Self {
            why,
            stale: true,
            later: false,
        }
    }

    /// Held against its sender unless `stale`.
    pub(super) fn of(why: Why, stale: bool) -> Self {
        Self {
            why,
            stale,
            later: false,
        }
    }

    /// Maybe admitted once this peer knows more.
    pub(super) fn later(why: Why) -> Self {
        Self {
            why,
            stale: true,
            later: true,
        }
    }
}

/// Why the gate refused a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// A message under this peer's own identity.
    OwnIdentity,
    /// Bytes that do not decode as a table message.
    Undecodable,
    /// A join sent to a peer that is not the host.
    JoinNotHost,
    /// A join whose seat card is not its sender's, or not clean.
    BadSeatCard,
    /// A join at a table with every seat taken.
    TableFull,
    /// A table configuration sent to the host.
    ConfigAtHost,
    /// A table configuration not from the host, or not seating the host South.
    ConfigNotFromHost,
    /// A table configuration that does not seat this peer.
    ConfigWithoutSeat,
    /// A table configuration without this seat's nonce (an old game's, or changed).
    ConfigWithoutNonce,
    /// An acceptance this peer holds already.
    AcceptAgain,
    /// An acceptance from a player this peer's roster does not seat yet.
    AcceptUnseated,
    /// A resync before the game started.
    ResyncBeforeStart,
    /// A message its sender may not send in the lobby.
    NotInLobby,
    /// A lobby message from a peer not at this table.
    LobbyStranger,
    /// A message from a peer this joiner's roster does not name yet (the host's roster may
    /// be late).
    NotInRosterYet,
    /// A message from a seat a computer player took over.
    TakenOver,
    /// A message from a peer not seated at this table.
    NotSeated,
    /// A resync too soon after the last one answered.
    ResyncTooSoon,
    /// An acceptance with a bad signature, or of another table.
    BadAccept,
    /// The table configuration again.
    ConfigAgain,
    /// A table configuration other than the one taken.
    OtherConfig,
    /// A lobby message after the game started.
    LobbyAfterStart,
    /// A hand message that does not decode.
    GarbledHand,
    /// A copy of a hand message held already.
    HandHeld,
    /// A hand message with a bad signature.
    HandBadSignature,
    /// Too many messages for a hand not started here.
    TooManyEarly,
    /// A timeout vote the handler would not take.
    Timeout(TimeoutRefused),
    /// A quit the handler would not take.
    Quit(QuitRefused),
    /// A seat taken over that the handler would not take.
    Replace(ReplaceRefused),
    /// A held seat the handler would not take.
    SeatHeld(SeatHeldRefused),
    /// A game over the handler would not take.
    Over(OverRefused),
    /// A seat given back that the handler would not take.
    Return(ReturnRefused),
    /// A ready the handler would not take.
    Ready(ReadyRefused),
    /// A chat line the handler would not show.
    Chat(ChatRefused),
}

impl Why {
    /// The reason in a few words (a log line's; the same words for the same cause).
    pub fn what(self) -> &'static str {
        match self {
            Self::OwnIdentity => "a message under this peer's own identity",
            Self::Undecodable => "an undecodable message",
            Self::JoinNotHost => "a join sent to a peer that is not the host",
            Self::BadSeatCard => "a join with a bad seat card",
            Self::TableFull => "a join at a full table",
            Self::ConfigAtHost => "a table configuration at the host",
            Self::ConfigNotFromHost => "a table configuration not from the host",
            Self::ConfigWithoutSeat => "a table configuration without this seat",
            Self::ConfigWithoutNonce => "a table configuration without this seat's nonce",
            Self::AcceptAgain => "a repeated acceptance",
            Self::AcceptUnseated => "an acceptance from a player not in the roster yet",
            Self::ResyncBeforeStart => "a resync before the start",
            Self::NotInLobby => "a message its sender may not send in the lobby",
            Self::LobbyStranger => "a lobby message from a peer not at this table",
            Self::NotInRosterYet => "a message from a player not in the roster yet",
            Self::TakenOver => "a message from a seat taken over by a computer player",
            Self::NotSeated => "a message from a peer not seated at this table",
            Self::ResyncTooSoon => "a resync too soon after the last one answered",
            Self::BadAccept => "an acceptance with a bad signature",
            Self::ConfigAgain => "the table configuration again",
            Self::OtherConfig => "a different table configuration",
            Self::LobbyAfterStart => "a lobby message after the start",
            Self::GarbledHand => "a garbled hand message",
            Self::HandHeld => "a hand message held already",
            Self::HandBadSignature => "a hand message with a bad signature",
            Self::TooManyEarly => "too many messages for a hand not started here",
            Self::Timeout(r) => r.what(),
            Self::Quit(r) => r.what(),
            Self::Replace(r) => r.what(),
            Self::SeatHeld(r) => r.what(),
            Self::Over(r) => r.what(),
            Self::Return(r) => r.what(),
            Self::Ready(r) => r.what(),
            Self::Chat(r) => r.what(),
        }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}
