//! Watching a live table: a spectator's side ([`Watch`], this file) and a seat's side
//! ([`door::Door`]), both sans-IO.
//!
//! A seat streams its public transcript (the entries of [`crate::transcript::Entry`], the
//! same ones it writes to `transcript.fdt`) to the spectators it admits; nothing a spectator
//! sends reaches the table's sessions, and no table message changes for it. The spectator
//! takes the entries in order and checks each before it shows anything: the configuration's
//! four signatures, each deal's header against the deal before it, and every envelope through
//! a spectator's [`HandSession`] ([`HandSession::watch`]), which checks signatures, chains,
//! shuffle proofs and every share, applies each move to a public replica, and audits the hand
//! once its seeds are revealed. A move is reported only by that session, so a spectator never
//! shows a move it has not checked; a card opens to it only when all four shares are public.
//! Joining mid-hand, or coming back, is the same: the seat sends every entry from the first
//! one the spectator lacks, and they are checked from the start.

pub mod door;
mod wire;

use std::collections::VecDeque;
use std::sync::Arc;

use fairdeal_core::{Move, PlayerView, Position, Seat};
use fairdeal_crypto::{CardTable, PublicKey};

use crate::hand::{Blame, Event, HandConfig, HandReport, HandSession, MoveEffect, Replacement};
use crate::table::msg::{TableConfig, TableMsg};
use crate::transcript::{self, Entry, FaultKind, Located, Report};

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

/// Why an entry was not taken (nothing changes; the stream cannot go on past it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WatchError {
    /// The first entry is not the table's configuration.
    #[error("the stream does not start with the table's configuration")]
    NoConfiguration,
    /// A second, different configuration.
    #[error("a second configuration in the stream")]
    SecondConfiguration,
    /// A configuration signature that does not check.
    #[error("seat {0}'s signature on the configuration does not check")]
    ConfigSignature(u8),
    /// A rule set with no card table.
    #[error("the configuration's deck cannot be built")]
    NoCardTable,
    /// A deal header that does not follow from the deal before it.
    #[error("deal {0}'s header does not follow from the deal before it")]
    Header(u32),
    /// An envelope of a deal other than the current one.
    #[error("an envelope of deal {0}, which is not the deal under way")]
    OtherHand(u32),
    /// An envelope that does not check (signature, hand, encoding).
    #[error("an envelope of deal {0} does not check")]
    Envelope(u32),
    /// Entries that do not continue from what is held.
    #[error("entries from {got} when {want} are held")]
    Gap {
        /// The first entry offered.
        got: u64,
        /// The entries held.
        want: u64,
    },
    /// A signed table message whose signature or signer does not check.
    #[error("a signed table message does not check: {0}")]
    Signed(FaultKind),
    /// More entries than any transcript holds.
    #[error("the stream is longer than any transcript")]
    TooLong,
}

/// The deal under way.
struct Deal {
    cfg: HandConfig,
    /// The computer players its header names.
    bots: [Option<transcript::Stand>; 4],
    session: HandSession,
    report: Option<HandReport>,
    void: bool,
}

/// A spectator's side of a live table.
pub struct Watch {
    config: Option<TableConfig>,
    table: Option<Arc<CardTable>>,
    deal: Option<Deal>,
    /// The signed table messages (checked) since the last header: what backs a change of
    /// seat in the next one.
    signed_since: Vec<(PublicKey, TableMsg)>,
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
            config: None,
            table: None,
            deal: None,
            signed_since: Vec::new(),
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

    /// Takes the next entry of the stream.
    ///
    /// # Errors
    ///
    /// The entry does not check; nothing changes.
    pub fn take(&mut self, entry: Entry) -> Result<(), WatchError> {
        let len = entry.to_record().len() as u64;
        if self.size + len > transcript::MAX_FILE {
            return Err(WatchError::TooLong);
        }
        match &entry {
            Entry::Table { config, accepts } => {
                match &self.config {
                    Some(c) if c == &**config => return Ok(()),
                    Some(_) => return Err(WatchError::SecondConfiguration),
                    None => {}
                }
                let sid = config.sid();
                for (seat, key) in config.seats.iter().enumerate() {
                    key.verify(&sid, &accepts[seat])
                        .map_err(|_| WatchError::ConfigSignature(seat as u8))?;
                }
                let table = CardTable::new(config.rules().deck_size() as u16)
                    .map_err(|_| WatchError::NoCardTable)?;
                self.table = Some(Arc::new(table));
                self.config = Some((**config).clone());
                self.events.push_back(WatchEvent::Table {
                    name: config.name.clone(),
                    names: config.names.clone(),
                });
            }
            Entry::Hand {
                hand_no,
                dealer,
                scores,
                prev_result,
                keys,
                bots,
            } => {
                let (Some(config), Some(table)) = (&self.config, &self.table) else {
                    return Err(WatchError::NoConfiguration);
                };
                self.check_header(*hand_no, *scores, prev_result, keys, bots)?;
                let cfg = HandConfig {
                    sid: config.sid(),
                    keys: **keys,
                    rules: config.rules(),
                    dealer: Seat::from_index(usize::from(*dealer % 4)),
                    scores: *scores,
                    hand_no: *hand_no,
                    prev_result: *prev_result,
                    proofs: config.proofs,
                    bots: bots.map(|b| {
                        b.map(|b| Replacement {
                            runner: b.runner,
                            seed: b.seed,
                        })
                    }),
                };
                self.events.push_back(WatchEvent::Hand {
                    hand_no: *hand_no,
                    dealer: cfg.dealer,
                    scores: *scores,
                });
                let session = HandSession::watch(cfg.clone(), table.clone());
                self.deal = Some(Deal {
                    cfg,
                    bots: **bots,
                    session,
                    report: None,
                    void: false,
                });
                self.signed_since.clear();
                self.drain();
            }
            Entry::Envelope { hand_no, signed } => {
                let Some(deal) = self.deal.as_mut() else {
                    return Err(WatchError::OtherHand(*hand_no));
                };
                if deal.cfg.hand_no != *hand_no {
                    return Err(WatchError::OtherHand(*hand_no));
                }
                let hctx = deal.session.hctx();
                if signed.verify(&hctx, &deal.cfg.keys).is_err() {
                    return Err(WatchError::Envelope(*hand_no));
                }
                // A void hand takes nothing more; its envelopes still belong to the file.
                if !deal.void {
                    let _ = deal.session.handle_message(&signed.to_wire());
                }
                self.drain();
            }
            Entry::Signed { from, msg } => {
                let Some(config) = &self.config else {
                    return Err(WatchError::NoConfiguration);
                };
                let keys = self.deal.as_ref().map_or(config.seats, |d| d.cfg.keys);
                let msg = transcript::signed_msg(&config.sid(), &config.seats, from, msg, &keys)
                    .map_err(WatchError::Signed)?;
                // Bounded as the stream is: each one counts towards `transcript::MAX_FILE`.
                self.signed_since.push((*from, msg));
            }
        }
        let offset = self.size as usize;
        self.entries.push(Located {
            index: self.entries.len(),
            offset,
            entry,
        });
        self.size += len;
        Ok(())
    }

    /// A header against the deal before it: a later number, after a completed deal its
    /// result and totals, and the keys and computer players of the deal before it (or the
    /// configuration's) unless a signed `Replace` or `Return` from the seat entitled to it
    /// came between, as the whole file's check requires.
    fn check_header(
        &self,
        hand_no: u32,
        scores: [i32; 2],
        prev_result: &[u8; 32],
        keys: &[PublicKey; 4],
        bots: &[Option<transcript::Stand>; 4],
    ) -> Result<(), WatchError> {
        let bad = Err(WatchError::Header(hand_no));
        let Some(config) = &self.config else {
            return Err(WatchError::NoConfiguration);
        };
        let (expect_keys, expect_bots) = self
            .deal
            .as_ref()
            .map_or((config.seats, [None; 4]), |d| (d.cfg.keys, d.bots));
        if transcript::seat_changes(
            hand_no,
            keys,
            bots,
            &expect_keys,
            &expect_bots,
            &self.signed_since,
        )
        .is_err()
        {
            return bad;
        }
        let Some(deal) = &self.deal else {
            return if hand_no == 1 && scores == [0, 0] {
                Ok(())
            } else {
                bad
            };
        };
        if hand_no <= deal.cfg.hand_no {
            return bad;
        }
        if let Some(r) = &deal.report {
            let sum = [
                deal.cfg.scores[0] + r.scores[0],
                deal.cfg.scores[1] + r.scores[1],
            ];
            if *prev_result != r.transcript_root || scores != sum {
                return bad;
            }
        }
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
        self.config.as_ref()
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
            .map(|d| (d.cfg.hand_no, d.session.turn_count()))
    }

    /// The totals before the deal under way (its header's).
    pub fn hand_scores(&self) -> Option<[i32; 2]> {
        self.deal.as_ref().map(|d| d.cfg.scores)
    }

    /// The deal under way's number and its checked report, once complete.
    pub fn last_report(&self) -> Option<(u32, &HandReport)> {
        let d = self.deal.as_ref()?;
        d.report.as_ref().map(|r| (d.cfg.hand_no, r))
    }

    /// The whole stream checked as a transcript ([`transcript::verify`]): the same report a
    /// seat's `transcript.fdt` gives.
    pub fn verify(&self) -> Report {
        transcript::verify(&self.entries)
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
