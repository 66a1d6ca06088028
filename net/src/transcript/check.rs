//! The game-level checks of a transcript: the four signatures on the configuration, then deal
//! by deal the header against what the previous deal implies (number, dealer, totals, the
//! previous result, the keys and the computer players, each change backed by a signed
//! `Replace` or `Return`), every envelope's signature, and what the deal's envelopes show
//! ([`super::replay`]); last the game's result from the totals.

use std::sync::Arc;

use fairdeal_core::{Rules, Seat, game_result};
use fairdeal_crypto::hand::hand_context;
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{CardTable, PublicKey, SignedEnvelope};

use super::evidence::{add, claimed_sender, root_of, sender_seq, void_reason};
use super::replay::check_hand;
use super::report::{HandLine, HandStatus, Report, TranscriptFault, seat_name, short};
use super::{Entry, Located, Stand};
use crate::hand::{HandConfig, Replacement};
use crate::table::msg::{
    TableConfig, TableMsg, chat_digest, quit_digest, ready_digest, replace_digest, return_digest,
    timeout_digest,
};

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
}

/// A fault that stops the check (the rest of the file cannot be trusted to mean anything).
type Stop = TranscriptFault;

struct Game {
    config: TableConfig,
    sid: [u8; 32],
    rules: Rules,
    table: Arc<CardTable>,
    report: Report,
}

fn stop(seat: Option<u8>, hand_no: Option<u32>, at: &Located, what: &str) -> Stop {
    TranscriptFault {
        seat,
        hand_no,
        what: format!("{what} (entry {} at byte {})", at.index, at.offset),
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
            what: "the transcript is empty".to_owned(),
        });
        return report;
    };
    let Entry::Table { config, accepts } = &first.entry else {
        report.faults.push(stop(
            None,
            None,
            first,
            "the transcript does not start with the signed configuration",
        ));
        return report;
    };
    let sid = config.sid();
    for (seat, key) in config.seats.iter().enumerate() {
        if key.verify(&sid, &accepts[seat]).is_err() {
            report.faults.push(stop(
                Some(seat as u8),
                None,
                first,
                "its signature on the table configuration does not verify",
            ));
            return report;
        }
    }
    report.table = Some((config.name.clone(), config.names.clone()));
    let rules = config.rules();
    let Ok(table) = CardTable::new(rules.deck_size() as u16) else {
        report
            .faults
            .push(stop(None, None, first, "no card table for these rules"));
        return report;
    };
    let mut game = Game {
        config: (**config).clone(),
        sid,
        rules,
        table: Arc::new(table),
        report,
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
                    return Err(stop(None, None, at, "a second table configuration"));
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
                    let hctx =
                        hand_context(&self.sid, head.hand_no, head.dealer, &head.prev_result);
                    block = Some(Block {
                        head,
                        hctx,
                        envelopes: Vec::new(),
                        signed: Vec::new(),
                    });
                }
                Entry::Envelope { hand_no, signed } => {
                    let Some(b) = block.as_mut().filter(|b| b.head.hand_no == *hand_no) else {
                        return Err(stop(
                            claimed_sender(signed),
                            Some(*hand_no),
                            at,
                            "an envelope of a deal that is not being played here",
                        ));
                    };
                    if signed.verify(&b.hctx, &b.head.keys).is_err() {
                        return Err(stop(
                            claimed_sender(signed),
                            Some(*hand_no),
                            at,
                            "an envelope whose signature or hand context does not verify",
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
        let seat = keys
            .iter()
            .position(|k| k == from)
            .or_else(|| self.config.seats.iter().position(|k| k == from))
            .map(|s| s as u8);
        let Some(seat) = seat else {
            return Err(stop(
                None,
                None,
                at,
                "a signed table message from a stranger",
            ));
        };
        let bad = |what: &str| stop(Some(seat), None, at, what);
        let decoded =
            TableMsg::decode(msg).map_err(|_| bad("a table message that does not decode"))?;
        let sid = &self.sid;
        let ok = match &decoded {
            TableMsg::Timeout {
                hand_no,
                seat: s,
                sig,
            } => from.verify(&timeout_digest(sid, *hand_no, *s), sig).is_ok(),
            TableMsg::Quit { hand_no, sig } => {
                from.verify(&quit_digest(sid, *hand_no, seat), sig).is_ok()
            }
            TableMsg::Replace {
                hand_no,
                seat: s,
                key,
                seed,
                sig,
            } => from
                .verify(&replace_digest(sid, *hand_no, *s, key, seed), sig)
                .is_ok(),
            TableMsg::Return { state, sig } => from.verify(&return_digest(sid, state), sig).is_ok(),
            // Signed, but no part of a deal or its result (peers do not write them here; a
            // file that has them is read past them once their signatures check).
            TableMsg::Ready { hand_no, sig } => {
                from.verify(&ready_digest(sid, *hand_no, seat), sig).is_ok()
            }
            TableMsg::Chat { n, text, sig } => {
                from.verify(&chat_digest(sid, seat, *n, text), sig).is_ok()
            }
            _ => return Err(bad("a table message that is no evidence")),
        };
        if !ok {
            return Err(bad(
                "a signed table message whose signature does not verify",
            ));
        }
        Ok(decoded)
    }

    /// Checks a header against what the previous deal implies; changes of keys or computer
    /// players need a signed `Replace` (or `Return`) among `signed`.
    fn check_header(
        &mut self,
        head: &Header,
        expect: &Header,
        signed: &[(PublicKey, TableMsg)],
        at: &Located,
    ) -> Result<(), Stop> {
        let n = Some(head.hand_no);
        if head.hand_no != expect.hand_no
            || head.dealer != expect.dealer
            || head.scores != expect.scores
            || head.prev_result != expect.prev_result
        {
            return Err(stop(
                None,
                n,
                at,
                &format!(
                    "the deal does not follow from the one before (expected hand {}, dealer {}, totals {:?}, previous result {})",
                    expect.hand_no,
                    seat_name(expect.dealer),
                    expect.scores,
                    short(&expect.prev_result)
                ),
            ));
        }
        for s in 0..4usize {
            if head.keys[s] == expect.keys[s] && head.bots[s] == expect.bots[s] {
                continue;
            }
            let replaced = signed.iter().any(|(from, m)| match m {
                TableMsg::Replace {
                    seat, key, seed, ..
                } => {
                    usize::from(*seat) == s
                        && *key == head.keys[s]
                        && head.bots[s].is_some_and(|b| {
                            b.seed == *seed && expect.keys.get(usize::from(b.runner)) == Some(from)
                        })
                }
                _ => false,
            });
            let returned = signed.iter().any(|(_, m)| match m {
                TableMsg::Return { state, .. } => {
                    usize::from(state.seat) == s
                        && state.keys == head.keys
                        && state.hand_no == head.hand_no
                }
                _ => false,
            });
            if !replaced && !returned {
                return Err(stop(
                    None,
                    n,
                    at,
                    &format!(
                        "{}'s identity or computer player changed without a signed replacement",
                        seat_name(s as u8)
                    ),
                ));
            }
            if returned {
                self.report.notes.push(format!(
                    "hand {}: {} is played by its player again (signed by the computer player's runner)",
                    head.hand_no,
                    seat_name(s as u8)
                ));
            } else if let Some(b) = head.bots[s] {
                self.report.notes.push(format!(
                    "hand {}: a computer player takes {}'s seat, run by {} (signed), its moves replayed at every audit",
                    head.hand_no,
                    seat_name(s as u8),
                    seat_name(b.runner)
                ));
            }
        }
        Ok(())
    }

    /// Decides how a deal ended (from its envelopes and the next header) and returns what the
    /// next header must say.
    fn finish(
        &mut self,
        mut b: Block,
        next: Option<&Header>,
        signed: &[(PublicKey, TableMsg)],
        at: &Located,
    ) -> Result<Header, Stop> {
        b.envelopes.sort_by_key(sender_seq);
        let h = &b.head;
        let n = Some(h.hand_no);
        let cfg = HandConfig {
            sid: self.sid,
            keys: h.keys,
            rules: self.rules.clone(),
            dealer: Seat::from_index(usize::from(h.dealer)),
            scores: h.scores,
            hand_no: h.hand_no,
            prev_result: h.prev_result,
            proofs: self.config.proofs,
            bots: h.bots.map(|b| {
                b.map(|b| Replacement {
                    runner: b.runner,
                    seed: b.seed,
                })
            }),
        };
        let found = check_hand(&cfg, &b.hctx, &self.table, &b.envelopes);
        let mut after = Header {
            hand_no: h.hand_no + 1,
            ..h.clone()
        };
        let (cheater, cheat_words) = match &found.cheat {
            Some((seat, fault, _)) => (Some(*seat), format!("{fault}")),
            None => (None, String::new()),
        };
        let status = if let Some(rep) = &found.complete {
            if root_of(&b.envelopes) != rep.transcript_root {
                return Err(stop(
                    None,
                    n,
                    at,
                    "the deal's envelopes in this file are not the ones the seats signed the result of",
                ));
            }
            after.prev_result = rep.transcript_root;
            after.dealer = (h.dealer + 1) % 4;
            after.scores = add(h.scores, rep.scores);
            HandStatus::Verified {
                scores: rep.scores,
                root: rep.transcript_root,
                moves: found.moves,
                openings: rep.openings_checked,
            }
        } else if next.is_some_and(|x| x.hand_no == h.hand_no) {
            // Started again with a player back in a seat (a signed return for this hand).
            let back = signed.iter().find_map(|(_, m)| match m {
                TableMsg::Return { state, .. } if state.hand_no == h.hand_no => Some(state.seat),
                _ => None,
            });
            let Some(seat) = back else {
                return Err(stop(
                    None,
                    n,
                    at,
                    "the deal was started again without a signed return",
                ));
            };
            after.hand_no = h.hand_no;
            HandStatus::Void {
                seat: Some(seat),
                why: "is back: the deal was started again with its player (signed return)"
                    .to_owned(),
                evidence: Vec::new(),
            }
        } else if let Some(next) = next {
            let marker = |s: u8| hash256(b"fairdeal/v1/void", &[&b.hctx, &[s]]);
            let out = (0..4u8)
                .chain([0xff])
                .find(|&s| marker(s) == next.prev_result);
            let back = signed.iter().find_map(|(_, m)| match m {
                TableMsg::Return { state, .. }
                    if state.hand_no == next.hand_no && state.keys == next.keys =>
                {
                    Some(state)
                }
                _ => None,
            });
            if let (None, Some(state)) = (out, back) {
                // This peer was out of the game and is given its seat back: the deals in
                // between are not in its file, the table's state is the runner's signed word.
                let (from, to) = (h.hand_no + 1, state.hand_no.saturating_sub(1));
                let away = if from >= to {
                    format!("hand {to} was")
                } else {
                    format!("hands {from} to {to} were")
                };
                self.report.notes.push(format!(
                    "{away} played while {} was away; the table's state at hand {} is taken from the signed return",
                    seat_name(state.seat),
                    state.hand_no
                ));
                after.hand_no = state.hand_no;
                after.dealer = state.dealer;
                after.scores = state.totals;
                after.prev_result = state.prev_result;
                self.report.hands.push(HandLine {
                    hand_no: h.hand_no,
                    status: HandStatus::Unfinished {
                        why: format!(
                            "{} was out of the game from here (the others went on)",
                            seat_name(state.seat)
                        ),
                    },
                });
                return Ok(after);
            }
            let Some(out) = out else {
                return Err(stop(
                    None,
                    Some(next.hand_no),
                    at,
                    "the next deal follows neither this deal's result nor its void",
                ));
            };
            after.prev_result = next.prev_result;
            if out == 0xff {
                HandStatus::Void {
                    seat: None,
                    why: if cheat_words.is_empty() {
                        "a fault no seat can be proved to have made; dealt again".to_owned()
                    } else {
                        format!("{cheat_words}; no seat can be proved at fault; dealt again")
                    },
                    evidence: found
                        .cheat
                        .as_ref()
                        .map(|c| c.2.clone())
                        .unwrap_or_default(),
                }
            } else if next.scores != h.scores {
                let team = usize::from(out % 2);
                let delta = [next.scores[0] - h.scores[0], next.scores[1] - h.scores[1]];
                let allowed =
                    found.audited == Some(delta) || found.forfeit.is_some_and(|f| f[team] == delta);
                if !allowed {
                    return Err(stop(
                        None,
                        Some(next.hand_no),
                        at,
                        "the totals after a forfeited deal are neither its audited scores nor the forfeit rule's",
                    ));
                }
                after.scores = next.scores;
                after.dealer = (h.dealer + 1) % 4;
                HandStatus::Forfeited {
                    seat: out,
                    scores: delta,
                }
            } else {
                let (why, evidence) = void_reason(h.hand_no, out, &h.keys, signed, &found);
                HandStatus::Void {
                    seat: Some(out),
                    why,
                    evidence,
                }
            }
        } else if found.cheat.is_some() {
            HandStatus::Void {
                seat: cheater.flatten(),
                why: format!("caught: {cheat_words}"),
                evidence: found
                    .cheat
                    .as_ref()
                    .map(|c| c.2.clone())
                    .unwrap_or_default(),
            }
        } else {
            HandStatus::Unfinished {
                why: found.stage.clone(),
            }
        };
        if found.complete.is_none() && found.cheat.is_none() && found.signed_results {
            self.report.faults.push(TranscriptFault {
                seat: None,
                hand_no: n,
                what: "all four seats signed the deal's result, but the file lacks messages of it"
                    .to_owned(),
            });
        }
        if found.complete.is_none()
            && let Some((seat, fault, _)) = &found.cheat
        {
            self.report.faults.push(TranscriptFault {
                seat: *seat,
                hand_no: n,
                what: format!("{fault} (from the signed envelopes)"),
            });
        }
        self.report.hands.push(HandLine {
            hand_no: h.hand_no,
            status,
        });
        self.report.totals = after.scores;
        Ok(after)
    }
}
