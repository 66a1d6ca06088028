//! Watching a live table: a spectator's side ([`Watch`], this file) and a seat's side
//! ([`door::Door`]), both sans-IO.
//!
//! A seat streams its public transcript (the entries of [`crate::transcript::Entry`], the
//! same ones it writes to `transcript.fdt`) to the spectators it admits; nothing a spectator
//! sends reaches the table's sessions, and no table message changes for it. The spectator
//! feeds each entry to the whole file's own check ([`Checker`]) before it shows anything, so
//! it holds a live stream to exactly the rules `verify` holds a file to: the configuration's
//! four signatures, each deal's header against how the deal before it ended, every signed
//! table message and seat change, every envelope's signature. It also plays every envelope
//! through a spectator's [`HandSession`] ([`HandSession::watch`]), which checks chains,
//! shuffle proofs and every share, applies each move to a public replica, and audits the hand
//! once its seeds are revealed. A move is reported only by that session, so a spectator never
//! shows a move it has not checked; a card opens to it only when all four shares are public.
//! Joining mid-hand, or coming back, is the same: the seat sends every entry from the first
//! one the spectator lacks, and they are checked from the start.

pub mod door;
mod wire;

use std::collections::VecDeque;

use fairdeal_core::{Move, PlayerView, Position, Seat};

use crate::hand::{Blame, Event, HandConfig, HandReport, HandSession, MoveEffect};
use crate::table::msg::TableConfig;
use crate::transcript::{self, Checker, Entry, Located, Report, TranscriptFault};

pub use self::door::{Door, MAX_WATCHERS, Refused};
pub use self::wire::{FromSeat, FromWatcher, WIRE_LIMIT, WireError};

/// What a spectator learns, in order; every move and result here was checked first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// The table: its name and the four players' names, S W N E (signatures checked).
    Table {
        /// The table's name.
        name: String,
        /// The players.
        names: [String; 4],
    },
    /// A deal begins.
    Hand {
        /// Its number.
        hand_no: u32,
        /// The dealer.
        dealer: Seat,
        /// Team totals before it.
        scores: [i32; 2],
    },
    /// The cards are dealt (the public table may be drawn).
    Dealt,
    /// A checked move.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move.
        mv: Move,
        /// What it did that the move alone does not say.
        effect: MoveEffect,
    },
    /// The play is over; the seeds are being revealed.
    HandOver,
    /// This spectator audited the hand itself and the four seats signed the same result.
    Verified(HandReport),
    /// The hand is void, or a seat was proven at fault.
    Fault(Blame),
}

/// Why an entry was not taken (the stream cannot go on past it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WatchError {
    /// The entry breaks a rule the whole file's check holds it to (the same check, entry by
    /// entry: signatures, each header against the deal before it, seat changes).
    #[error("{0}")]
    Refused(TranscriptFault),
    /// Entries that do not continue from what is held.
    #[error("entries from {got} when {want} are held")]
    Gap {
        /// The first entry offered.
        got: u64,
        /// The entries held.
        want: u64,
    },
    /// More entries than any transcript holds.
    #[error("the stream is longer than any transcript")]
    TooLong,
}

/// The deal under way.
struct Deal {
    cfg: HandConfig,
    session: HandSession,
    report: Option<HandReport>,
    void: bool,
}

/// A spectator's side of a live table.
pub struct Watch {
    /// The whole file's check, fed entry by entry: an entry is shown only once it passed.
    checker: Checker,
    deal: Option<Deal>,
    /// Every entry taken, as a transcript (for the whole file's check at the end).
    entries: Vec<Located>,
    size: u64,
    events: VecDeque<WatchEvent>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl Default for Watch {
    fn default() -> Self {
        Self::new()
    }
}

impl Watch {
    /// A spectator that holds nothing yet.
    pub fn new() -> Self {
        Self {
            checker: Checker::new(),
            deal: None,
            entries: Vec::new(),
            size: transcript::MAGIC.len() as u64,
            events: VecDeque::new(),
        }
    }

    /// How many entries are held: what to ask the seat for next when coming back.
    pub fn held(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Takes entries `from..` of the seat's stream; those already held are skipped.
    ///
    /// # Errors
    ///
    /// A gap, or the first entry that does not check (those before it are taken).
    pub fn take_from(&mut self, from: u64, entries: Vec<Entry>) -> Result<(), WatchError> {
        if from > self.held() {
            return Err(WatchError::Gap {
                got: from,
                want: self.held(),
            });
        }
        let skip = usize::try_from(self.held() - from).unwrap_or(usize::MAX);
        for e in entries.into_iter().skip(skip) {
            self.take(e)?;
        }
        Ok(())
    }

    /// Takes the next entry of the stream, once the transcript's own check takes it.
    ///
    /// # Errors
    ///
    /// The entry does not check; the stream stops there.
    pub fn take(&mut self, entry: Entry) -> Result<(), WatchError> {
        let len = entry.to_record().len() as u64;
        if self.size + len > transcript::MAX_FILE {
            return Err(WatchError::TooLong);
        }
        if let Entry::Table { config, .. } = &entry
            && self.checker.config() == Some(&**config)
        {
            // Sent again as it was (a seat starts a returning spectator's stream with it).
            return Ok(());
        }
        let at = Located {
            index: self.entries.len(),
            offset: self.size as usize,
            entry,
        };
        self.checker.take(&at).map_err(WatchError::Refused)?;
        match &at.entry {
            Entry::Table { config, .. } => {
                self.events.push_back(WatchEvent::Table {
                    name: config.name.clone(),
                    names: config.names.clone(),
                });
            }
            Entry::Hand { head, keys, bots } => {
                // The checker took the header: its head is the one the deals before imply.
                let (Some(config), Some(table)) = (self.checker.config(), self.checker.table())
                else {
                    return Ok(());
                };
                let cfg = HandConfig {
                    sid: config.sid(),
                    keys: **keys,
                    rules: config.rules(),
                    head: *head,
                    proofs: config.proofs,
                    bots: **bots,
                };
                self.events.push_back(WatchEvent::Hand {
                    hand_no: head.hand_no,
                    dealer: head.dealer,
                    scores: head.totals,
                });
                let session = HandSession::watch(cfg.clone(), table.clone());
                self.deal = Some(Deal {
                    cfg,
                    session,
                    report: None,
                    void: false,
                });
                self.drain();
            }
            Entry::Envelope { signed, .. } => {
                // The check verified it for the deal under way. A void hand takes nothing
                // more; its envelopes still belong to the file.
                if let Some(deal) = self.deal.as_mut().filter(|d| !d.void) {
                    let _ = deal.session.handle_message(&signed.to_wire());
                }
                self.drain();
            }
            Entry::Signed { .. } => {}
        }
        self.entries.push(at);
        self.size += len;
        Ok(())
    }

    /// Moves the deal's checked events out.
    fn drain(&mut self) {
        let Some(deal) = self.deal.as_mut() else {
            return;
        };
        while let Some(ev) = deal.session.poll_event() {
            let out = match ev {
                Event::Dealt => WatchEvent::Dealt,
                Event::Moved { seat, mv, effect } => WatchEvent::Moved { seat, mv, effect },
                Event::HandOver => WatchEvent::HandOver,
                Event::Complete(r) => {
                    deal.report = Some(r.clone());
                    WatchEvent::Verified(r)
                }
                Event::Fault(b) | Event::Named(b) => {
                    deal.void |= deal.session.stage() == crate::hand::Stage::Void;
                    WatchEvent::Fault(b)
                }
                _ => continue,
            };
            self.events.push_back(out);
        }
    }

    /// The next event.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<WatchEvent> {
        self.events.pop_front()
    }

    /// The configuration, once taken.
    pub fn config(&self) -> Option<&TableConfig> {
        self.checker.config()
    }

    /// The public table of the deal under way (every hand masked), once dealt.
    pub fn view(&self) -> Option<PlayerView> {
        self.deal.as_ref().and_then(|d| d.session.view())
    }

    /// The public replica of the deal under way (every card no seat has shown is
    /// [`fairdeal_core::Card::HIDDEN`]), once dealt.
    pub fn replica(&self) -> Option<&Position> {
        self.deal.as_ref().and_then(|d| d.session.replica())
    }

    /// The deal under way's number and how many moves of it were checked.
    pub fn progress(&self) -> Option<(u32, usize)> {
        self.deal
            .as_ref()
            .map(|d| (d.cfg.head.hand_no, d.session.turn_count()))
    }

    /// The totals before the deal under way (its header's).
    pub fn hand_scores(&self) -> Option<[i32; 2]> {
        self.deal.as_ref().map(|d| d.cfg.head.totals)
    }

    /// The deal under way's number and its checked report, once complete.
    pub fn last_report(&self) -> Option<(u32, &HandReport)> {
        let d = self.deal.as_ref()?;
        d.report.as_ref().map(|r| (d.cfg.head.hand_no, r))
    }

    /// The whole stream checked as a transcript: the same report a seat's `transcript.fdt`
    /// gives ([`transcript::verify`]).
    pub fn verify(&self) -> Report {
        self.checker.report()
    }

    /// The entries held, as a transcript.
    pub fn entries(&self) -> &[Located] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever a hostile seat claims as the first entry's number, a spectator takes it
    /// without panicking: a gap, or entries it holds already.
    #[test]
    fn any_claimed_position_is_a_gap_or_skipped() {
        let mut w = Watch::new();
        for from in [1, u64::MAX] {
            assert!(matches!(
                w.take_from(from, Vec::new()),
                Err(WatchError::Gap { .. })
            ));
        }
        assert_eq!(w.take_from(0, Vec::new()), Ok(()));
    }
}
