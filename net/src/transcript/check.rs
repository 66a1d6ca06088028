//! The game-level checks of a transcript: the four signatures on the configuration, then deal
//! by deal the header against what the previous deal implies (number, dealer, totals, the
//! previous result, the keys and the computer players, each change backed by a signed
//! `Replace` or `Return`), every envelope's signature, and what the deal's envelopes show
//! ([`super::replay`]); last the game's result from the totals. How each deal ended is
//! decided in `check/finish.rs`.

mod finish;
pub(crate) mod seats;

use std::sync::Arc;

use fairdeal_core::{Rules, Seat, SeatMap, SeatSet, game_result};
use fairdeal_crypto::{CardTable, PublicKey, SignedEnvelope};

use self::seats::seat_of;
use super::evidence::claimed_seat;
use super::report::{FaultKind, Report, TranscriptFault};
use super::{Entry, Located};
use crate::hand::{DealHead, Takeovers};
use crate::table::msg::{TableConfig, TableMsg};
use crate::table::quit_names_its_hand;

/// A deal's header: where the game stands, who is seated, and which seats computer players
/// hold.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    head: DealHead,
    keys: [PublicKey; 4],
    bots: Takeovers,
}

/// A deal and what the file holds of it.
#[derive(Clone)]
struct Block {
    head: Header,
    hctx: [u8; 32],
    envelopes: Vec<SignedEnvelope>,
    /// Signed table messages (and their signers) that came during it, or just after it.
    signed: Vec<(PublicKey, TableMsg)>,
    /// The deal follows a return whose table state only its signer vouches for: `(seat
    /// given back, signer)`. The other seats' envelopes in this deal, signed under a hand
    /// context that binds that state, must confirm it.
    confirm: Option<(Seat, Seat)>,
}

/// A fault that stops the check (the rest of the file cannot be trusted to mean anything).
type Stop = TranscriptFault;

#[derive(Clone)]
struct Game {
    config: TableConfig,
    sid: [u8; 32],
    rules: Rules,
    table: Arc<CardTable>,
    report: Report,
    /// Set by a deal that ends with a return taken on its signer's word, for the next deal.
    confirm: Option<(Seat, Seat)>,
    /// Seats a deal proved at fault: a computer player keeps them for the rest of the game.
    barred: SeatSet,
    /// The hand of each seat's latest signed quit in the file.
    quits: SeatMap<Option<u32>>,
    /// The hand from which each seat is played by its player again after it was given back.
    back_at: SeatMap<u32>,
    /// The deal under way.
    block: Option<Block>,
    /// What the next header must say (number, dealer, totals, previous result, seats).
    expect: Header,
    /// Signed table messages before the first deal.
    loose: Vec<(PublicKey, TableMsg)>,
    /// Where the last entry taken is.
    last: Pos,
}

/// Where an entry is in the file: its index and its byte offset.
type Pos = (usize, usize);

fn stop(seat: Option<Seat>, hand_no: Option<u32>, at: Pos, kind: FaultKind) -> Stop {
    TranscriptFault {
        seat,
        hand_no,
        kind,
        at: Some(at),
    }
}

/// A transcript checked entry by entry, as a file is read or a spectator receives it: the
/// same rules either way, so a spectator never shows a deal the file's check would refuse.
#[derive(Clone, Default)]
pub struct Checker {
    /// The game, once its configuration checked.
    game: Option<Game>,
    /// Entries taken.
    entries: usize,
    /// The fault that stopped the check, if one did: nothing is taken after it.
    stopped: Option<Stop>,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker")
            .field("entries", &self.entries)
            .field("stopped", &self.stopped)
            .finish_non_exhaustive()
    }
}

impl Checker {
    /// A check that has taken nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next entry. A header first decides how the deal before it ended (replaying
    /// it) and checks that the header follows.
    ///
    /// # Errors
    ///
    /// The fault that stops the check; it is kept, and every later entry is refused with it.
    pub fn take(&mut self, at: &Located) -> Result<(), TranscriptFault> {
        if let Some(f) = &self.stopped {
            return Err(f.clone());
        }
        let taken = match self.game.as_mut() {
            None => Self::open(at).map(|g| self.game = Some(g)),
            Some(game) => game.take(at),
        };
        match taken {
            Ok(()) => {
                self.entries += 1;
                Ok(())
            }
            Err(f) => {
                self.stopped = Some(f.clone());
                Err(f)
            }
        }
    }

    /// The configuration the first entry holds, once checked.
    pub fn config(&self) -> Option<&TableConfig> {
        self.game.as_ref().map(|g| &g.config)
    }

    /// The card table of the configuration's deck, once checked.
    pub fn table(&self) -> Option<&Arc<CardTable>> {
        self.game.as_ref().map(|g| &g.table)
    }

    /// The report on everything taken: the last deal decided as the file ends there.
    pub fn report(&self) -> Report {
        let mut report = match &self.game {
            Some(game) => {
                let mut game = game.clone();
                if self.stopped.is_none()
                    && let Err(f) = game.end()
                {
                    game.report.faults.push(f);
                }
                game.report
            }
            None => Report::default(),
        };
        report.entries = self.entries + usize::from(self.stopped.is_some());
        if self.entries == 0 && self.stopped.is_none() {
            report.faults.push(TranscriptFault {
                seat: None,
                hand_no: None,
                kind: FaultKind::Empty,
                at: None,
            });
        }
        report.faults.extend(self.stopped.clone());
        report
    }

    /// The game a configuration entry opens, once its four signatures check.
    fn open(first: &Located) -> Result<Game, Stop> {
        let at = (first.index, first.offset);
        let Entry::Table { config, accepts } = &first.entry else {
            return Err(stop(None, None, at, FaultKind::NoConfiguration));
        };
        let sid = config.sid();
        for (seat, key) in SeatMap(config.seats).iter() {
            if key.verify(&sid, &accepts[seat.index()]).is_err() {
                return Err(stop(None, None, at, FaultKind::ConfigSignature(seat)));
            }
        }
        let rules = config.rules();
        let Ok(table) = CardTable::new(rules.deck_size() as u16) else {
            return Err(stop(None, None, at, FaultKind::NoCardTable));
        };
        let dealer = config.first_dealer;
        Ok(Game {
            config: (**config).clone(),
            sid,
            rules,
            table: Arc::new(table),
            report: Report {
                table: Some((config.name.clone(), config.names.clone())),
                ..Report::default()
            },
            confirm: None,
            barred: SeatSet::EMPTY,
            quits: SeatMap::default(),
            back_at: SeatMap::default(),
            block: None,
            expect: Header {
                head: DealHead::first(dealer),
                keys: config.seats,
                bots: Takeovers::NONE,
            },
            loose: Vec::new(),
            last: (first.index, first.offset),
        })
    }
}

/// Checks a decoded transcript; the report says what passed and every fault found.
pub fn verify(entries: &[Located]) -> Report {
    let mut checker = Checker::new();
    for at in entries {
        if checker.take(at).is_err() {
            break;
        }
    }
    let mut report = checker.report();
    report.entries = entries.len();
    report
}

impl Game {
    /// Takes an entry after the configuration.
    fn take(&mut self, entry: &Located) -> Result<(), Stop> {
        let at = (entry.index, entry.offset);
        self.last = at;
        match &entry.entry {
            Entry::Table { .. } => Err(stop(None, None, at, FaultKind::SecondConfiguration)),
            Entry::Hand { head, keys, bots } => {
                let head = Header {
                    head: *head,
                    keys: **keys,
                    bots: Takeovers::from_array(**bots),
                };
                let mut signed = std::mem::take(&mut self.loose);
                if let Some(b) = self.block.take() {
                    signed.splice(0..0, b.signed.iter().cloned());
                    self.expect = self.finish(b, Some(&head), &signed, at)?;
                }
                let expect = self.expect.clone();
                self.check_header(&head, &expect, &signed, at)?;
                let hctx = head.head.hctx(&self.sid, &head.keys);
                self.block = Some(Block {
                    head,
                    hctx,
                    envelopes: Vec::new(),
                    signed: Vec::new(),
                    confirm: self.confirm.take(),
                });
                Ok(())
            }
            Entry::Envelope { hand_no, signed } => {
                let Some(b) = self
                    .block
                    .as_mut()
                    .filter(|b| b.head.head.hand_no == *hand_no)
                else {
                    // Its signature may be good: the seat signed it for another deal, and
                    // who put it here cannot be told.
                    return Err(stop(
                        None,
                        Some(*hand_no),
                        at,
                        FaultKind::EnvelopeOutOfDeal(claimed_seat(signed)),
                    ));
                };
                if signed.verify(&b.hctx, &b.head.keys).is_err() {
                    // A signature that does not verify is nobody's statement: no seat is
                    // blamed for bytes anyone could have written.
                    return Err(stop(
                        None,
                        Some(*hand_no),
                        at,
                        FaultKind::BadEnvelope(claimed_seat(signed)),
                    ));
                }
                if !b.envelopes.contains(signed) {
                    b.envelopes.push(signed.clone());
                }
                Ok(())
            }
            Entry::Signed { from, msg } => {
                let keys = self
                    .block
                    .as_ref()
                    .map_or(self.config.seats, |b| b.head.keys);
                let msg = self.check_signed(from, msg, &keys, at)?;
                if let TableMsg::Quit { hand_no, .. } = msg
                    && let Some(seat) =
                        seat_of(&keys, from).or_else(|| seat_of(&self.config.seats, from))
                {
                    // The table's window: a quit outside it was refused live, so it never
                    // stands here either. Whether the deal was still played when the quit came
                    // the file cannot tell (its messages come during a deal or just after),
                    // so the hand before it is taken as the table takes it while it is.
                    let now = self.block.as_ref().map_or(0, |b| b.head.head.hand_no);
                    if !quit_names_its_hand(hand_no, now, true) {
                        return Err(stop(
                            None,
                            Some(hand_no),
                            at,
                            FaultKind::QuitOtherHand {
                                seat,
                                hand_no,
                                at: now,
                            },
                        ));
                    }
                    let q = &mut self.quits[seat];
                    *q = Some(q.map_or(hand_no, |h| h.max(hand_no)));
                }
                match self.block.as_mut() {
                    Some(b) => b.signed.push((*from, msg)),
                    None => self.loose.push((*from, msg)),
                }
                Ok(())
            }
        }
    }

    /// The file ends here: the last deal is decided, and the game's result follows from the
    /// totals.
    fn end(&mut self) -> Result<(), Stop> {
        if let Some(b) = self.block.take() {
            let signed = b.signed.clone();
            self.expect = self.finish(b, None, &signed, self.last)?;
        }
        self.report.totals = self.expect.head.totals;
        self.report.result = Some(game_result(
            self.expect.head.totals,
            self.rules.target,
            self.rules.tie_rule,
        ));
        Ok(())
    }

    /// Checks a signed table message's signature (by `from`, seated in `keys` or in the
    /// configuration) and returns it decoded.
    fn check_signed(
        &self,
        from: &PublicKey,
        msg: &[u8],
        keys: &[PublicKey; 4],
        at: Pos,
    ) -> Result<TableMsg, Stop> {
        seats::signed_msg(&self.sid, &self.config.seats, from, msg, keys)
            .map_err(|kind| stop(None, None, at, kind))
    }

    /// Checks a header against what the previous deal implies; changes of keys or computer
    /// players need a signed `Replace` from the runner the new header names, or a signed
    /// `Return` from the runner the previous header names, among `signed`.
    fn check_header(
        &mut self,
        head: &Header,
        expect: &Header,
        signed: &[(PublicKey, TableMsg)],
        at: Pos,
    ) -> Result<(), Stop> {
        let (found, expected) = (&head.head, &expect.head);
        let n = Some(found.hand_no);
        let kind = if found.hand_no != expected.hand_no {
            Some(FaultKind::OutOfSequence {
                expected: expected.hand_no,
                found: found.hand_no,
            })
        } else if found.dealer != expected.dealer {
            Some(FaultKind::WrongDealer {
                expected: expected.dealer,
                found: found.dealer,
            })
        } else if found.totals != expected.totals {
            Some(FaultKind::Retotalled {
                expected: expected.totals,
                found: found.totals,
            })
        } else if found.prev_result != expected.prev_result {
            Some(FaultKind::WrongPrevious {
                expected: expected.prev_result,
                found: found.prev_result,
            })
        } else {
            None
        };
        if let Some(kind) = kind {
            return Err(stop(None, n, at, kind));
        }
        // A seat proven at fault never comes back under its own key, whoever hands it back.
        let own = |keys: &[PublicKey; 4], s: Seat| keys[s.index()] == self.config.seats[s.index()];
        if let Some(s) = self
            .barred
            .iter()
            .find(|&s| own(&head.keys, s) && !own(&expect.keys, s))
        {
            return Err(stop(None, n, at, FaultKind::BarredSeatBack(s)));
        }
        let notes = seats::seat_changes(
            found.hand_no,
            &self.config.seats,
            head,
            expect,
            self.leaving(expect),
            signed,
        )
        .map_err(|kind| stop(None, n, at, kind))?;
        self.report.notes.extend(notes);
        for s in Seat::ALL {
            if expect.bots.get(s).is_some() && head.bots.get(s).is_none() {
                self.back_at[s] = found.hand_no;
            }
        }
        Ok(())
    }

    /// The seats leaving before a deal headed `expect`: those whose quit stands (signed by
    /// the player who plays the seat there, not given it back since) and the computer
    /// players their clients run (the table's own rule, `TableSession::leaving`).
    fn leaving(&self, expect: &Header) -> SeatSet {
        // A quit is its player's word: it counts only while the player holds the seat.
        let quit = SeatMap(Seat::ALL.map(|s| {
            self.quits[s].filter(|_| expect.keys[s.index()] == self.config.seats[s.index()])
        }));
        expect.bots.leaving(&quit, &self.back_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checker shows how far it got, and what stopped it (in a log line, a failing test).
    #[test]
    fn a_checker_debugs_as_how_far_it_got() {
        let mut c = Checker::new();
        assert_eq!(
            format!("{c:?}"),
            "Checker { entries: 0, stopped: None, .. }"
        );
        c.stopped = Some(stop(None, None, (0, 8), FaultKind::Empty));
        let text = format!("{c:?}");
        assert!(
            text.contains("entries: 0") && text.contains("Empty"),
            "{text}"
        );
    }

    /// A spectator's checker counts the entry that stopped it as read, and refuses every
    /// later one with the same fault.
    #[test]
    fn the_entry_that_stops_the_check_is_counted_and_nothing_after_it_is_taken() {
        let mut c = Checker::new();
        let signed = |index| Located {
            index,
            offset: 8 + 10 * index,
            entry: Entry::Signed {
                from: PublicKey([1; 32]),
                msg: Vec::new(),
            },
        };
        let first = c.take(&signed(0)).expect_err("no configuration first");
        assert_eq!(first.kind, FaultKind::NoConfiguration);
        assert_eq!(c.take(&signed(1)), Err(first.clone()));
        let report = c.report();
        assert_eq!(report.entries, 1);
        assert_eq!(report.faults, vec![first]);
    }
}
