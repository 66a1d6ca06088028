//! Why the table did not take a peer's message ([`Unexpected`]) or this peer's own action
//! ([`NotNow`]): typed reasons, each with its words, in place of free text.
//!
//! The words of [`NotNow`] are shown to the person ("Not allowed: only the host can start
//! the game"); those of [`Unexpected`] go to the log, where the same cause reads the same.

use std::fmt;

use fairdeal_core::Seat;

/// The kind of message a reason is about (in the words of [`Unexpected`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsgKind {
    /// A request for a seat.
    Join,
    /// A seat given up, or the table closed, before the start.
    Leave,
    /// The host's list of who sits where.
    Roster,
    /// A computer player taking a seat over.
    Replace,
    /// A seat given back to its player.
    Return,
    /// The game over, told to a player whose seat was held.
    Over,
    /// A vote that a seat is silent.
    Timeout,
    /// A seated player leaving the game.
    Quit,
}

impl MsgKind {
    /// The message in a few words ("a join").
    pub fn words(self) -> &'static str {
        match self {
            Self::Join => "a join",
            Self::Leave => "a leave",
            Self::Roster => "a roster",
            Self::Replace => "a seat taken over",
            Self::Return => "a seat given back",
            Self::Over => "a game over",
            Self::Timeout => "a timeout vote",
            Self::Quit => "a quit",
        }
    }
}

impl fmt::Display for MsgKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A peer's message that makes no sense now (ignored; nothing changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unexpected {
    /// A lobby message after the game started.
    #[error("{0} after the game started")]
    AfterStart(MsgKind),
    /// A message of the game before it started.
    #[error("{0} before the game started")]
    BeforeStart(MsgKind),
    /// A message only the host sends, from another peer (or to the host itself).
    #[error("{0} not from the host")]
    NotFromHost(MsgKind),
    /// A message about a seat from a seat that does not run its computer player.
    #[error("{0} from a seat that does not run its computer player")]
    NotRunner(MsgKind),
    /// A message for a hand other than the one under way here.
    #[error("{0} for a hand other than the one under way")]
    OtherHand(MsgKind),
    /// A join sent to a peer that is not the host.
    #[error("a join sent to a peer that is not the host")]
    JoinNotHost,
    /// A join whose seat card names another peer than its sender.
    #[error("a join whose seat card is not the sender's")]
    JoinForAnother,
    /// A join whose seat card has a name or addresses no clean peer sends.
    #[error("a join with a bad name or addresses")]
    BadSeatCard,
    /// A join to a table with every seat taken.
    #[error("a join to a full table")]
    TableFull,
    /// A configuration other than the one this peer already took.
    #[error("a table configuration other than the one already taken")]
    OtherConfig,
    /// A configuration passed on by a peer that is not of this host's table (the host sits
    /// South).
    #[error("a table configuration of another host's table")]
    ForeignConfig,
    /// A `SeatHeld` naming a seat other than this peer's.
    #[error("a SeatHeld for another seat")]
    SeatHeldForOther,
    /// A `SeatHeld` to a peer that plays its seat, without the votes that put it out.
    #[error("a SeatHeld without the signed votes that put this seat out")]
    SeatHeldUnproved,
    /// This peer's seat given back under another key, or while this peer plays it.
    #[error("this seat given back under another key, or while it is played")]
    StaleReturn,
    /// A seat given back to a key that is not its player's (the configuration's).
    #[error("a seat given back to a key that is not its player's")]
    ReturnToAnotherKey,
    /// A game over while this peer still plays its seat, or once the game ended here.
    #[error("a game over while this seat plays, or after the game ended")]
    OverWhilePlaying,
    /// A game over with totals that do not end the game.
    #[error("a game over with totals that do not end the game")]
    OverTooSoon,
    /// A seat given back that was proven at fault (a computer player keeps it).
    #[error("seat {0} given back, though it was proven at fault")]
    SeatBarred(Seat),
    /// A message this peer holds already (a second copy).
    #[error("{0} again")]
    Repeated(MsgKind),
    /// A seat taken over that is not the one this peer waits to see replaced.
    #[error("{0} for a seat other than the one awaited")]
    NotAwaited(MsgKind),
    /// A timeout vote against the voter's own seat.
    #[error("a timeout vote against the voter's own seat")]
    TimeoutOwnSeat,
    /// A count of timeout votes told with none, or more than one per other seat.
    #[error("a count of timeout votes with none, or too many")]
    NotACount,
    /// A chat line not taken.
    #[error(transparent)]
    Chat(#[from] ChatRefused),
    /// A `Ready` not taken.
    #[error(transparent)]
    Ready(#[from] ReadyRefused),
}

/// This peer's own action that cannot be done now (nothing changed). The words are shown to
/// the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotNow {
    /// Starting the game, by a joiner.
    #[error("only the host can start the game")]
    OnlyHostStarts,
    /// Changing seats, by a joiner.
    #[error("only the host can change seats")]
    OnlyHostSeats,
    /// Moving South, the host's seat.
    #[error("the host keeps South; only the other seats can change")]
    HostKeepsSouth,
    /// A lobby action once the game started.
    #[error("the game has already started")]
    Started,
    /// A game action before the game started (or without a seat).
    #[error("the game has not started yet")]
    NotStarted,
    /// Leaving a game that is over.
    #[error("the game is over")]
    GameOver,
    /// A chat line with nothing left once cleaned.
    #[error("nothing to say")]
    NothingToSay,
    /// A chat line past the rate.
    #[error("too many chat lines at once: wait a moment")]
    ChatTooFast,
    /// Ready for the next hand when no hand was just scored.
    #[error("no hand has just been scored")]
    NoHandScored,
}

/// Why a chat line from a peer is not shown (the gate's reason and the handler's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer with no seat, or under this peer's own identity.
    NotSeated,
    /// Empty, too long or with control characters.
    BadText,
    /// A line number already taken.
    Again,
    /// Past the rate.
    TooFast,
    /// A signature that does not verify.
    BadSignature,
}

impl ChatRefused {
    /// The reason in a few words (the gate's [`super::Refused::what`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a chat line before the start",
            Self::NotSeated => "a chat line from a peer not seated, or under our own name",
            Self::BadText => "a chat line too long, empty or with control characters",
            Self::Again => "a chat line again",
            Self::TooFast => "chat lines too fast",
            Self::BadSignature => "a chat line with a bad signature",
        }
    }
}

impl fmt::Display for ChatRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

impl std::error::Error for ChatRefused {}

/// Why a `Ready` from a peer is not taken (the gate's reason and the handler's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadyRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer with no seat, or under this peer's own identity.
    NotSeated,
    /// For a hand not played here yet.
    Ahead,
    /// For an earlier hand, or again.
    Again,
    /// A signature that does not verify.
    BadSignature,
}

impl ReadyRefused {
    /// The reason in a few words (the gate's [`super::Refused::what`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a ready before the start",
            Self::NotSeated => "a ready from a peer not seated, or under our own name",
            Self::Ahead => "a ready for a hand not played here yet",
            Self::Again => "a ready for an earlier hand, or again",
            Self::BadSignature => "a ready with a bad signature",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender): the
    /// gate's [`super::Refused::stale`].
    pub fn is_stale(self) -> bool {
        matches!(self, Self::BeforeStart | Self::Ahead | Self::Again)
    }
}

impl fmt::Display for ReadyRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

impl std::error::Error for ReadyRefused {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_leftover_readies_are_stale() {
        assert!(ReadyRefused::Again.is_stale());
        assert!(ReadyRefused::Ahead.is_stale());
        assert!(!ReadyRefused::BadSignature.is_stale());
        assert!(!ReadyRefused::NotSeated.is_stale());
    }
}
