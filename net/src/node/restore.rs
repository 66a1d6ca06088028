//! Rebuilding a table session from its game log (after a crash), and verifying a log.

use std::path::Path;

use fairdeal_core::{GameResult, Move};
use fairdeal_crypto::{Fault, PublicKey};

use crate::hand::{Event as HandEvent, HandBug};
use crate::store::{Meta, Record, read};
use crate::table::msg::house_from_json;
use crate::table::{Replayed, TableEvent, TableSession};

/// The session a log's first record describes.
pub fn session_from_meta(secret: [u8; 32], meta: &Meta) -> TableSession {
    let mut session = match &meta.table {
        Some((name, preset, house)) => TableSession::host(
            secret,
            meta.master,
            meta.me.clone(),
            meta.bot.as_deref(),
            name,
            *preset,
            house_from_json(house),
        ),
        None => TableSession::joiner(secret, meta.master, meta.me.clone(), meta.bot.as_deref()),
    };
    if meta.hold {
        session.hold_start();
    }
    session.set_move_clock_ms(meta.move_clock_ms);
    // A saved wish past the last seat is no wish (the host then gives the first free seat).
    session.want_seat(
        meta.want
            .and_then(|w| fairdeal_core::Seat::try_from(w).ok()),
    );
    session
}

/// A game log that cannot be replayed into a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The first record is not the game's description (`Record::Meta`).
    #[error("the game log does not start with its description")]
    NoDescription,
}

/// Replays `records` into a fresh session: what it had received, in order, and the person's
/// moves. The messages it sent are produced again (deterministically) and queued.
///
/// # Errors
///
/// [`RestoreError::NoDescription`] if the log does not start with the game's description.
pub fn rebuild(secret: [u8; 32], records: &[Record]) -> Result<(TableSession, Meta), RestoreError> {
    let Some(Record::Meta(meta)) = records.first() else {
        return Err(RestoreError::NoDescription);
    };
    let mut session = session_from_meta(secret, meta);
    session.replay(records[1..].iter().filter_map(|r| match r {
        Record::Recv { from, bytes } => Some(Replayed::Received {
            from: PublicKey(*from),
            bytes,
        }),
        Record::Joined { host } => Some(Replayed::Joined(PublicKey(*host))),
        // A move the log cannot read back was never played.
        Record::Intent { json } => serde_json::from_str::<Move>(json).ok().map(Replayed::Move),
        Record::Sent { bytes } => Some(Replayed::Sent(bytes)),
        Record::Meta(_) => None,
    }));
    Ok((session, (**meta).clone()))
}

/// What `fairdeal verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// Records read.
    pub records: usize,
    /// Bytes of a torn last record (ignored).
    pub torn_bytes: u64,
    /// Whether that last record was whole but failed its checksum (half written by a crash,
    /// or altered), rather than cut short.
    pub tail_damaged: bool,
    /// Hands audited and signed by all four.
    pub hands: usize,
    /// Shuffle steps recomputed.
    pub shuffles: usize,
    /// Card openings (decryption shares) checked.
    pub openings: usize,
    /// Moves checked against the rules.
    pub moves: usize,
    /// Totals after the verified hands.
    pub totals: [i32; 2],
    /// The game's result, if it ended.
    pub result: Option<GameResult>,
    /// A cheat found: (seat, fault), seat `None` when no seat can be proved at fault.
    pub fault: Option<(Option<fairdeal_core::Seat>, Fault)>,
    /// A hand this seat's own replay could not audit (its state broke a promise: a bug of
    /// fairdeal's or a damaged log, not any seat's fault).
    pub broken: Option<HandBug>,
}

/// Why a game log could not be replayed (none of these names a seat: they are not evidence
/// of cheating).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The log cannot be read, is not a log, or is damaged before its last record.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// No `identity.key` beside the log: the private log of a seat is replayed as that seat.
    #[error(
        "{0} is missing: a GAME.fdlog is one player's private log, and checking it needs that \
         player's identity.key beside it; to check a game with no secret, verify the \
         transcript.fdt from the same game folder"
    )]
    NoIdentity(std::path::PathBuf),
    /// The records do not replay.
    #[error("the log does not replay: {0}")]
    Replay(#[from] RestoreError),
}

/// Re-checks a game from its log: every signature and chain link, every shuffle, every card
/// opening, every move and every score, by replaying it through the same sessions. The
/// identity secret is read from `identity.key` beside the log.
///
/// # Errors
///
/// An unreadable or damaged log, or a missing identity file.
pub fn replay_log(path: &Path) -> Result<VerifyReport, ReplayError> {
    let loaded = read(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let secret = crate::store::read_identity(dir)
        .ok_or_else(|| ReplayError::NoIdentity(dir.join("identity.key")))?;
    let (mut session, _) = rebuild(secret, &loaded.records)?;
    let mut report = VerifyReport {
        records: loaded.records.len(),
        torn_bytes: loaded.repaired_bytes,
        tail_damaged: loaded.tail_damaged,
        hands: 0,
        shuffles: 0,
        openings: 0,
        moves: 0,
        totals: [0, 0],
        result: None,
        fault: None,
        broken: None,
    };
    while let Some(ev) = session.poll_event() {
        match ev {
            TableEvent::Hand {
                event: HandEvent::Complete(r),
                ..
            } => {
                report.hands += 1;
                report.shuffles += r.shuffles_checked;
                report.openings += r.openings_checked;
            }
            TableEvent::Hand {
                event: HandEvent::Moved { .. },
                ..
            } => report.moves += 1,
            TableEvent::Hand {
                event: HandEvent::Fault(b),
                ..
            } => {
                report.fault.get_or_insert((b.offender, b.fault));
            }
            TableEvent::Hand {
                event: HandEvent::Broken(bug),
                ..
            } => {
                report.broken.get_or_insert(bug);
            }
            TableEvent::GameOver { result, .. } => report.result = Some(result),
            _ => {}
        }
    }
    report.totals = session.totals();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_without_its_description_is_refused_with_the_reason() {
        let sent = Record::Sent { bytes: vec![1, 2] };
        for records in [&[][..], &[sent][..]] {
            assert!(matches!(
                rebuild([1; 32], records),
                Err(RestoreError::NoDescription)
            ));
        }
        assert_eq!(
            ReplayError::from(RestoreError::NoDescription).to_string(),
            "the log does not replay: the game log does not start with its description"
        );
    }
}
