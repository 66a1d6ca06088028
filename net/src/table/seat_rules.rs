//! Why a message about a seat is not taken: a timeout vote, a quit, a computer player
//! taking a seat over, a seat given back, a held seat's player told its seat is held or the
//! game is over. Each kind has one check (in the file of its handler) that both the gate and
//! the handler run, so that what the gate stores is exactly what the handler takes; these are
//! its typed reasons, with words for a log line.

use std::fmt;

use fairdeal_core::Seat;

use super::TableError;
use super::refusal::{MsgKind, Unexpected};

/// Why a timeout vote is not taken ([`super::TableSession::check_timeout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer not seated now.
    NotSeated,
    /// Against the voter's own seat, or one its client speaks for.
    OwnSeat,
    /// For a deal other than the one under way.
    OtherHand,
    /// A signature that does not verify.
    BadSignature,
    /// A vote this peer holds already (of a count told: every vote of it).
    Again,
    /// A count told with no vote, or more than one per other seat.
    NotACount,
}

impl TimeoutRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a timeout vote before the start",
            Self::NotSeated => "a timeout vote from a peer not seated",
            Self::OwnSeat => "a timeout vote against its own seat",
            Self::OtherHand => "a timeout vote for another hand",
            Self::BadSignature => "a timeout vote with a bad signature",
            Self::Again => "a repeated timeout vote",
            Self::NotACount => "a count of timeout votes with none, or too many",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::OtherHand | Self::Again)
    }
}

impl From<TimeoutRefused> for TableError {
    fn from(r: TimeoutRefused) -> Self {
        match r {
            TimeoutRefused::BeforeStart => Unexpected::BeforeStart(MsgKind::Timeout).into(),
            TimeoutRefused::NotSeated => Self::NotSeated,
            TimeoutRefused::OwnSeat => Unexpected::TimeoutOwnSeat.into(),
            TimeoutRefused::OtherHand => Unexpected::OtherHand(MsgKind::Timeout).into(),
            TimeoutRefused::BadSignature => Self::BadSignature,
            TimeoutRefused::Again => Unexpected::Repeated(MsgKind::Timeout).into(),
            TimeoutRefused::NotACount => Unexpected::NotACount.into(),
        }
    }
}

impl fmt::Display for TimeoutRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

/// Why a quit is not taken ([`super::TableSession::check_quit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuitRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer not seated now.
    NotSeated,
    /// For a hand other than the one under way or just scored, or from before the seat
    /// was given back to its player.
    OtherHand,
    /// A signature that does not verify.
    BadSignature,
    /// A quit taken already (passed on by another seat, or told again).
    Again,
    /// This peer's own quit, passed back to it.
    Own,
    /// The quit of a seat taken over already (passed on late).
    Gone,
}

impl QuitRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a leave before the start",
            Self::NotSeated => "a leave from a peer not seated",
            Self::OtherHand => "a leave for another hand",
            Self::BadSignature => "a leave with a bad signature",
            Self::Again => "a leave taken already",
            Self::Own => "our own leave passed back",
            Self::Gone => "a leave of a seat taken over already",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::OtherHand | Self::Again | Self::Own | Self::Gone)
    }
}

impl From<QuitRefused> for TableError {
    fn from(r: QuitRefused) -> Self {
        match r {
            QuitRefused::BeforeStart => Unexpected::BeforeStart(MsgKind::Quit).into(),
            QuitRefused::NotSeated => Self::NotSeated,
            QuitRefused::OtherHand | QuitRefused::Own | QuitRefused::Gone => {
                Unexpected::OtherHand(MsgKind::Quit).into()
            }
            QuitRefused::Again => Unexpected::Repeated(MsgKind::Quit).into(),
            QuitRefused::BadSignature => Self::BadSignature,
        }
    }
}

impl fmt::Display for QuitRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

/// Why a computer player's taking a seat over is not taken
/// ([`super::TableSession::check_replace`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer not seated now.
    NotSeated,
    /// For an earlier hand.
    Earlier,
    /// For a hand not started here, or under a key already seated.
    Later,
    /// For a seat other than the one this peer waits to see replaced.
    OtherSeat,
    /// A signature that does not verify.
    BadSignature,
    /// From a seat that does not run the seat's computer player.
    NotRunner,
    /// One taken already (passed on by another seat, or told again).
    Again,
    /// To a peer out of the game: the `Return` that gives its seat back carries the seats as
    /// they are then.
    Away,
}

impl ReplaceRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a replacement before the start",
            Self::NotSeated => "a replacement from a peer not seated",
            Self::Earlier => "a replacement for an earlier hand",
            Self::Later => "a replacement for a later hand or a seated key",
            Self::OtherSeat => "a replacement for another seat",
            Self::BadSignature => "a replacement with a bad signature",
            Self::NotRunner => "a replacement from a seat that does not run it",
            Self::Again => "a replacement taken already",
            Self::Away => "a replacement while this seat is out",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::Earlier | Self::Again | Self::Away)
    }
}

impl From<ReplaceRefused> for TableError {
    fn from(r: ReplaceRefused) -> Self {
        match r {
            ReplaceRefused::BeforeStart => Unexpected::BeforeStart(MsgKind::Replace).into(),
            ReplaceRefused::NotSeated => Self::NotSeated,
            ReplaceRefused::Earlier => Unexpected::OtherHand(MsgKind::Replace).into(),
            ReplaceRefused::Later => Unexpected::OtherHand(MsgKind::Replace).into(),
            ReplaceRefused::OtherSeat => Unexpected::NotAwaited(MsgKind::Replace).into(),
            ReplaceRefused::BadSignature => Self::BadSignature,
            ReplaceRefused::NotRunner => Unexpected::NotRunner(MsgKind::Replace).into(),
            ReplaceRefused::Again => Unexpected::Repeated(MsgKind::Replace).into(),
            ReplaceRefused::Away => Unexpected::OtherHand(MsgKind::Replace).into(),
        }
    }
}

impl fmt::Display for ReplaceRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

/// Why a seat given back (`Return`) is not taken: one decision, made by
/// [`super::TableSession::check_return`] for the gate and the handler alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnRefused {
    /// Before the game started.
    BeforeStart,
    /// From a peer the configuration does not seat.
    NotSeated,
    /// A signature that does not verify.
    BadSignature,
    /// The seat was proven at fault: a computer player keeps it for the rest of the game.
    Barred(Seat),
    /// From a seat that does not run the seat's computer player.
    NotRunner,
    /// This peer's own seat given back under another key, or while this peer plays it; or
    /// another seat's while this peer is away (its own return will carry it).
    Stale,
    /// Another seat given back to a key that is not its player's: the table would seat the
    /// player's own key, which the `Return` then does not back in a transcript.
    NotItsPlayer,
    /// This peer's own seat given back, while away, by a seat it does not know to hold it
    /// yet: the runner's notice, which shows who holds it, may still be on its way (the
    /// runner tells both again until it hears the player play).
    HolderUnknown,
    /// One kept already for a hand not started here (passed on by another seat, or told
    /// again).
    Again,
}

impl ReturnRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a seat given back before the start",
            Self::NotSeated => "a seat given back by a peer not seated",
            Self::BadSignature => "a seat given back with a bad signature",
            Self::Barred(_) => "a seat given back that was proven at fault",
            Self::NotRunner => "a seat given back by a seat that does not run its computer player",
            Self::Stale => {
                "this seat given back under another key or while it is played, or another seat's while away"
            }
            Self::NotItsPlayer => "a seat given back to a key that is not its player's",
            Self::HolderUnknown => "this seat given back by a seat not known to hold it yet",
            Self::Again => "a seat given back that is kept already",
        }
    }

    /// Whether it is a leftover that changes nothing (a second copy of this seat's return).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::Stale | Self::HolderUnknown | Self::Again)
    }
}

impl From<ReturnRefused> for TableError {
    fn from(r: ReturnRefused) -> Self {
        match r {
            ReturnRefused::BeforeStart => Unexpected::BeforeStart(MsgKind::Return).into(),
            ReturnRefused::NotSeated => Self::NotSeated,
            ReturnRefused::BadSignature => Self::BadSignature,
            ReturnRefused::Barred(s) => Unexpected::SeatBarred(s).into(),
            ReturnRefused::NotRunner => Unexpected::NotRunner(MsgKind::Return).into(),
            ReturnRefused::Stale | ReturnRefused::HolderUnknown | ReturnRefused::Again => {
                Unexpected::StaleReturn.into()
            }
            ReturnRefused::NotItsPlayer => Unexpected::ReturnToAnotherKey.into(),
        }
    }
}

impl fmt::Display for ReturnRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

/// Why a runner's word that this peer's seat is held is not taken
/// ([`super::TableSession::check_seat_held`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatHeldRefused {
    /// Before the start, or from or to a peer the configuration does not seat.
    NotSeated,
    /// Naming a seat other than this peer's.
    OtherSeat,
    /// From a seat other than the runner this peer knows or works out.
    NotRunner,
    /// To a peer that believes it plays its seat, without the signed timeout votes of every
    /// other client against it in the deal it is in.
    Unproved,
    /// Of a hand before this one, to a peer that plays its seat again: a notice told again
    /// until the runner heard the seat given back played, a leftover.
    Past,
}

impl SeatHeldRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::NotSeated => "a held seat from or to a peer not seated",
            Self::OtherSeat => "a held seat for another seat",
            Self::NotRunner => "a held seat from a seat that does not run it",
            Self::Unproved => "a held seat without the votes that put it out",
            Self::Past => "a held seat of a hand before this one, the seat played again",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::Past)
    }
}

impl From<SeatHeldRefused> for TableError {
    fn from(r: SeatHeldRefused) -> Self {
        match r {
            SeatHeldRefused::NotSeated => Self::NotSeated,
            SeatHeldRefused::OtherSeat => Unexpected::SeatHeldForOther.into(),
            SeatHeldRefused::NotRunner => Unexpected::NotRunner(MsgKind::Return).into(),
            SeatHeldRefused::Unproved | SeatHeldRefused::Past => {
                Unexpected::SeatHeldUnproved.into()
            }
        }
    }
}

impl fmt::Display for SeatHeldRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}

/// Why the game's end, told to a player whose seat was held, is not taken
/// ([`super::TableSession::check_over`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverRefused {
    /// Before the game started.
    BeforeStart,
    /// From or to a peer the configuration does not seat.
    NotSeated,
    /// While this peer still plays its seat, or once its game ended.
    WhilePlaying,
    /// From a seat that does not hold this peer's seat.
    NotRunner,
    /// A signature that does not verify.
    BadSignature,
    /// Totals that do not end the game.
    TooSoon,
}

impl OverRefused {
    /// The reason in a few words (the gate's [`super::Refused`]).
    pub fn what(self) -> &'static str {
        match self {
            Self::BeforeStart => "a game over before the start",
            Self::NotSeated => "a game over from or to a peer not seated",
            Self::WhilePlaying => "a game over while this seat plays, or after the game ended",
            Self::NotRunner => "a game over from a seat that does not hold this one",
            Self::BadSignature => "a game over with a bad signature",
            Self::TooSoon => "a game over with totals that do not end the game",
        }
    }

    /// Whether it is a leftover that changes nothing (not held against its sender).
    pub fn is_stale(self) -> bool {
        matches!(self, Self::WhilePlaying)
    }
}

impl From<OverRefused> for TableError {
    fn from(r: OverRefused) -> Self {
        match r {
            OverRefused::BeforeStart => Unexpected::BeforeStart(MsgKind::Over).into(),
            OverRefused::NotSeated => Self::NotSeated,
            OverRefused::WhilePlaying => Unexpected::OverWhilePlaying.into(),
            OverRefused::NotRunner => Unexpected::NotRunner(MsgKind::Over).into(),
            OverRefused::BadSignature => Self::BadSignature,
            OverRefused::TooSoon => Unexpected::OverTooSoon.into(),
        }
    }
}

impl fmt::Display for OverRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }
}
