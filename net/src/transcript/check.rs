//! The game-level checks of a transcript: the four signatures on the configuration, then deal
//! by deal the header against what the previous deal implies (number, dealer, totals, the
//! previous result, the keys and the computer players, each change backed by a signed
//! `Replace` or `Return`), every envelope's signature, and what the deal's envelopes show
//! ([`super::replay`]); last the game's result from the totals. How each deal ended is
//! decided in `check/finish.rs`.

mod finish;
pub(crate) mod seats;

use std::collections::BTreeSet;
use std::sync::Arc;

use fairdeal_core::{Rules, game_result};
use fairdeal_crypto::hand::hand_context;
use fairdeal_crypto::{CardTable, PublicKey, SignedEnvelope};

use self::seats::seat_of;
use super::evidence::claimed_seat;
use super::report::{FaultKind, Report, TranscriptFault};
use super::{Entry, Located, Stand};
use crate::table::msg::{TableConfig, TableMsg};

/// A deal's header.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    hand_no: u32,
    dealer: u8,
    scores: [i32; 2],
    prev_result: [u8; 32],
    keys: [PublicKey; 4],
    bots: [Option<Stand>; 4],
}

/// A deal and what the file holds of it.
struct Block {
    head: Header,
    hctx: [u8; 32],
    envelopes: Vec<SignedEnvelope>,
    /// Signed table messages (and their signers) that came during it, or just after it.
    signed: Vec<(PublicKey, TableMsg)>,
    /// The deal follows a return whose table state only its signer vouches for: `(seat
    /// given back, signer)`. The other seats' envelopes in this deal, signed under a hand
    /// context that binds that state, must confirm it.
    confirm: Option<(u8, u8)>,
}

/// A fault that stops the check (the rest of the file cannot be trusted to mean anything).
type Stop = TranscriptFault;

struct Game {
    config: TableConfig,
    sid: [u8; 32],
    rules: Rules,
    table: Arc<CardTable>,
    report: Report,
    /// Set by a deal that ends with a return taken on its signer's word, for the next deal.
    confirm: Option<(u8, u8)>,
    /// Seats a deal proved at fault: a computer player keeps them for the rest of the game.
    barred: BTreeSet<u8>,
}

fn stop(seat: Option<u8>, hand_no: Option<u32>, at: &Located, kind: FaultKind) -> Stop {
    TranscriptFault {
        seat,
        hand_no,
        kind,
        at: Some((at.index, at.offset)),
    }
}

/// Checks a decoded transcript; the report says what passed and every fault found.
pub fn verify(entries: &[Located]) -> Report {
    let mut report = Report {
        entries: entries.len(),
        ..Report::default()
    };
    let Some((first, rest)) = entries.split_first() else {
        report.faults.push(TranscriptFault {
            seat: None,
            hand_no: None,
            kind: FaultKind::Empty,
            at: None,
        });
        return report;
    };
    let Entry::Table { config, accepts } = &first.entry else {
        report
            .faults
            .push(stop(None, None, first, FaultKind::NoConfiguration));
        return report;
    };
    let sid = config.sid();
    for (seat, key) in config.seats.iter().enumerate() {
        if key.verify(&sid, &accepts[seat]).is_err() {
            report.faults.push(stop(
                None,
                None,
                first,
                FaultKind::ConfigSignature(seat as u8),
            ));
            return report;
        }
    }
    report.table = Some((config.name.clone(), config.names.clone()));
    let rules = config.rules();
    let Ok(table) = CardTable::new(rules.deck_size() as u16) else {
        report
            .faults
            .push(stop(None, None, first, FaultKind::NoCardTable));
        return report;
    };
    let mut game = Game {
        config: (**config).clone(),
        sid,
        rules,
        table: Arc::new(table),
        report,
        confirm: None,
        barred: BTreeSet::new(),
    };
    if let Err(f) = game.run(rest) {
        game.report.faults.push(f);
    }
    game.report
}

impl Game {
    fn run(&mut self, entries: &[Located]) -> Result<(), Stop> {
        let mut block: Option<Block> = None;
        // What the next header must say (number, dealer, totals, previous result).
        let mut expect = Header {
            hand_no: 1,
            dealer: self.config.first_dealer,
            scores: [0, 0],
            prev_result: [0; 32],
            keys: self.config.seats,
            bots: [None; 4],
        };
        let mut loose: Vec<(PublicKey, TableMsg)> = Vec::new();
        for at in entries {
            match &at.entry {
                Entry::Table { .. } => {
                    return Err(stop(None, None, at, FaultKind::SecondConfiguration));
                }
                Entry::Hand {
                    hand_no,
                    dealer,
                    scores,
                    prev_result,
                    keys,
                    bots,
                } => {
                    let head = Header {
                        hand_no: *hand_no,
                        dealer: *dealer,
                        scores: *scores,
                        prev_result: *prev_result,
                        keys: **keys,
                        bots: **bots,
                    };
                    let mut signed = std::mem::take(&mut loose);
                    if let Some(b) = block.take() {
                        signed.splice(0..0, b.signed.iter().cloned());
                        expect = self.finish(b, Some(&head), &signed, at)?;
                    }
                    self.check_header(&head, &expect, &signed, at)?;
                    let hctx = hand_context(
                        &self.sid,
                        head.hand_no,
                        head.dealer,
                        head.scores,
                        &head.prev_result,
                        &head.keys,
                    );
                    block = Some(Block {
                        head,
                        hctx,
                        envelopes: Vec::new(),
                        signed: Vec::new(),
                        confirm: self.confirm.take(),
                    });
                }
                Entry::Envelope { hand_no, signed } => {
                    let Some(b) = block.as_mut().filter(|b| b.head.hand_no == *hand_no) else {
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
                }
                Entry::Signed { from, msg } => {
                    let keys = block.as_ref().map_or(self.config.seats, |b| b.head.keys);
                    let msg = self.check_signed(from, msg, &keys, at)?;
                    match block.as_mut() {
                        Some(b) => b.signed.push((*from, msg)),
                        None => loose.push((*from, msg)),
                    }
                }
            }
        }
        if let (Some(b), Some(last)) = (block.take(), entries.last()) {
            let signed = b.signed.clone();
            expect = self.finish(b, None, &signed, last)?;
        }
        self.report.totals = expect.scores;
        self.report.result = Some(game_result(
            expect.scores,
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
        at: &Located,
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
        at: &Located,
    ) -> Result<(), Stop> {
        let n = Some(head.hand_no);
        let kind = if head.hand_no != expect.hand_no {
            Some(FaultKind::OutOfSequence {
                expected: expect.hand_no,
                found: head.hand_no,
            })
        } else if head.dealer != expect.dealer {
            Some(FaultKind::WrongDealer {
                expected: expect.dealer,
                found: head.dealer,
            })
        } else if head.scores != expect.scores {
            Some(FaultKind::Retotalled {
                expected: expect.scores,
                found: head.scores,
            })
        } else if head.prev_result != expect.prev_result {
            Some(FaultKind::WrongPrevious {
                expected: expect.prev_result,
                found: head.prev_result,
            })
        } else {
            None
        };
        if let Some(kind) = kind {
            return Err(stop(None, n, at, kind));
        }
        // A seat proven at fault never comes back under its own key, whoever hands it back.
        let own = |keys: &[PublicKey; 4], s: u8| {
            keys.get(usize::from(s)) == self.config.seats.get(usize::from(s))
        };
        if let Some(&s) = self
            .barred
            .iter()
            .find(|&&s| own(&head.keys, s) && !own(&expect.keys, s))
        {
            return Err(stop(None, n, at, FaultKind::BarredSeatBack(s)));
        }
        let notes = seats::seat_changes(
            head.hand_no,
            &head.keys,
            &head.bots,
            &expect.keys,
            &expect.bots,
            signed,
        )
        .map_err(|kind| stop(None, n, at, kind))?;
        self.report.notes.extend(notes);
        Ok(())
    }
}
