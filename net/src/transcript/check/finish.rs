//! How a deal ended, decided from its envelopes and the next header: verified (every seat's
//! result signed and the hand replayed), void (why, with the signed evidence), forfeited or
//! unfinished; and what the next deal's header must say.

use fairdeal_core::{Seat, SeatSet};
use fairdeal_crypto::Fault;
use fairdeal_crypto::PublicKey;

use crate::hand::{DealHead, Ending, HandConfig, Takeovers, quit_stands, void_marker};
use crate::table::msg::TableMsg;
use crate::transcript::evidence::{Deal, PutOut, root_of, sender_seq};
use crate::transcript::replay::{Finding, check_hand};
use crate::transcript::report::{FaultKind, HandLine, HandStatus, TranscriptFault};

use super::{Block, Game, Header, Pos, Stop, seat_of, stop};

impl Game {
    /// Decides how a deal ended (from its envelopes and the next header) and returns what the
    /// next header must say.
    pub(super) fn finish(
        &mut self,
        mut b: Block,
        next: Option<&Header>,
        signed: &[(PublicKey, TableMsg)],
        at: Pos,
    ) -> Result<Header, Stop> {
        b.envelopes.sort_by_key(sender_seq);
        let h = &b.head;
        let d = h.head;
        let n = Some(d.hand_no);
        if let Some((seat, signer)) = b.confirm {
            // Every envelope here verified under the hand context, which binds the totals,
            // dealer and previous result the return stated: one from each seat but the
            // signer and the returning seat confirms them with a key the signer lacks.
            let missing: Vec<Seat> = Seat::ALL
                .into_iter()
                .filter(|&s| s != seat && s != signer)
                .filter(|&s| !b.envelopes.iter().any(|e| sender_seq(e).0 == s.number()))
                .collect();
            // A deal started again at once for another seat given back in the same hand
            // keeps this deal's state (the same head): the envelopes of the deal started
            // again confirm it as well.
            let restarted = next.is_some_and(|x| x.head == d);
            if !missing.is_empty() && restarted {
                self.confirm = Some((seat, signer));
            } else if !missing.is_empty() {
                return Err(stop(
                    None,
                    n,
                    at,
                    FaultKind::ReturnUnconfirmed {
                        seat,
                        signer,
                        missing,
                    },
                ));
            }
        }
        let cfg = HandConfig {
            sid: self.sid,
            keys: h.keys,
            rules: self.rules.clone(),
            head: d,
            proofs: self.config.proofs,
            bots: h.bots.to_array(),
        };
        let found = check_hand(&cfg, &b.hctx, &self.table, &b.envelopes);
        let deal = Deal {
            hand_no: d.hand_no,
            hctx: &b.hctx,
            keys: &h.keys,
            bots: &h.bots,
            signed,
            found: &found,
            leaving: self.leaving(h),
        };
        // The seats this deal shows leaving (a quit standing, or every other client's votes):
        // only one of those can be given back across deals the file skips.
        let left: SeatSet = Seat::ALL
            .into_iter()
            .filter(|&s| {
                quit_stands(self.quits[s], self.back_at[s])
                    || deal.put_out(s) == Some(PutOut::Votes)
            })
            .collect();
        // The seats stay as they were unless a header backed by a signed message changes them.
        let next_head = |ending| Header {
            head: d.after(ending),
            ..h.clone()
        };
        let mut after;
        let (cheater, cheat_words) = match &found.cheat {
            Some((seat, fault, _)) => (Some(*seat), format!("{fault}")),
            None => (None, String::new()),
        };
        let status = if let Some(rep) = &found.complete {
            // A seat named after the play is out for the rest of the game, as at the table.
            for (s, _) in &found.named {
                self.barred.insert(*s);
            }
            if root_of(&b.envelopes) != rep.transcript_root {
                return Err(stop(None, n, at, FaultKind::NotTheSignedEnvelopes));
            }
            after = next_head(Ending::Scored {
                scores: rep.scores,
                root: rep.transcript_root,
            });
            HandStatus::Verified {
                scores: rep.scores,
                root: rep.transcript_root,
                moves: found.moves,
                openings: rep.openings_checked,
            }
        } else if let Some((seat, scores, root)) =
            next.and_then(|x| counted_on_audit(&found, &d, &x.head))
        {
            // Stopped for nothing once every seed was in: the audited scores stand, and the
            // seat that stopped it is out.
            self.barred.insert(seat);
            after = next_head(Ending::Scored { scores, root });
            HandStatus::Forfeited { seat, scores }
        } else if next.is_some_and(|x| x.head.hand_no == d.hand_no) {
            // Started again with a player back in a seat (a signed return for this hand, by
            // the runner this deal's header records for that seat).
            let back = signed.iter().find_map(|(from, m)| match m {
                TableMsg::Return { state, .. } if state.hand_no == d.hand_no => {
                    Some((state.seat, from))
                }
                _ => None,
            });
            // Or dealt again with a computer player in a seat that quit: dealt here to the
            // seat first, its runner having put it out (the `Replace` is checked with the
            // next header).
            let quitter = || {
                let next = next?;
                let leaving = self.leaving(h);
                Seat::ALL.into_iter().find(|&s| {
                    leaving.contains(s)
                        && next.bots.get(s).is_some()
                        && next.keys[s.index()] != h.keys[s.index()]
                })
            };
            after = next_head(Ending::Restarted);
            match (back, quitter()) {
                (None, None) => return Err(stop(None, n, at, FaultKind::RestartWithoutReturn)),
                (None, Some(seat)) => HandStatus::Restarted {
                    seat,
                    why: "had quit: the deal was started again with the computer player its \
                          runner announced (signed quit and replace)"
                        .to_owned(),
                },
                (Some((seat, from)), _) => self.restarted_for_return(h, seat, from, n, at)?,
            }
        } else if let Some(next) = next {
            let out = Seat::ALL
                .map(Some)
                .into_iter()
                .chain([None])
                .find(|&s| void_marker(&b.hctx, s) == next.head.prev_result);
            if out.is_none()
                && let Some(back) = self.taken_back(h, next, signed, left, at)?
            {
                self.report.hands.push(HandLine {
                    hand_no: d.hand_no,
                    status: HandStatus::Unfinished {
                        why: format!(
                            "{} was out of the game from here (the others went on)",
                            back.seat.name()
                        ),
                    },
                });
                return Ok(back.after);
            }
            let Some(out) = out else {
                return Err(stop(
                    None,
                    Some(next.head.hand_no),
                    at,
                    FaultKind::UnexplainedNext,
                ));
            };
            match out {
                None => {
                    after = next_head(Ending::Void {
                        hctx: b.hctx,
                        seat: None,
                    });
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
                }
                Some(seat) => {
                    let out = seat;
                    // The header is its writer's word: the table puts a seat out only for a
                    // reason the file must hold.
                    let Some(why) = deal.put_out(out) else {
                        return Err(stop(
                            None,
                            Some(next.head.hand_no),
                            at,
                            FaultKind::PutOutUnproved(out),
                        ));
                    };
                    if found.cheat.as_ref().is_some_and(|c| c.0 == Some(out)) {
                        // Proven at fault: out for the rest of the game, as at the table.
                        self.barred.insert(out);
                    }
                    // A forfeit moves the totals and passes the deal on (its scores may be
                    // nil: then the dealer tells it); a void deals again on the same.
                    let owed = deal.owed(out, why);
                    let forfeited = next.head.totals != d.totals
                        || (next.head.dealer != d.dealer && owed.is_some());
                    if !forfeited {
                        if let Some(scores) = owed {
                            // Put out for silence once the play was over: the
                            // table counts the forfeit, and a void would undo it.
                            return Err(stop(
                                None,
                                Some(next.head.hand_no),
                                at,
                                FaultKind::ForfeitVoided { seat: out, scores },
                            ));
                        }
                        after = next_head(Ending::Void {
                            hctx: b.hctx,
                            seat: Some(seat),
                        });
                        let (why, evidence) = deal.words(out, why);
                        HandStatus::Void {
                            seat: Some(out),
                            why,
                            evidence,
                        }
                    } else {
                        // The silent seat's team forfeited: the totals moved by the audited
                        // scores or by the forfeit rule's, nothing else.
                        let team = seat.team().index();
                        let delta = [
                            next.head.totals[0].wrapping_sub(d.totals[0]),
                            next.head.totals[1].wrapping_sub(d.totals[1]),
                        ];
                        let allowed = found.audited == Some(delta)
                            || found.forfeit.is_some_and(|f| f[team] == delta);
                        if !allowed {
                            return Err(stop(
                                None,
                                Some(next.head.hand_no),
                                at,
                                FaultKind::ForfeitTotals,
                            ));
                        }
                        after = next_head(Ending::Forfeited {
                            hctx: b.hctx,
                            seat,
                            scores: delta,
                        });
                        HandStatus::Forfeited {
                            seat: out,
                            scores: delta,
                        }
                    }
                }
            }
        } else if let Some((seat, why, scores)) = ended_here(&deal) {
            // The file ends with the deal a seat was put out of: it ended as the table ended
            // it, with the forfeit scores once the play was over (a game can end on them).
            let (words, evidence) = deal.words(seat, why);
            match scores {
                Some(scores) => {
                    after = next_head(Ending::Forfeited {
                        hctx: b.hctx,
                        seat,
                        scores,
                    });
                    HandStatus::Forfeited { seat, scores }
                }
                None => {
                    after = next_head(Ending::Void {
                        hctx: b.hctx,
                        seat: Some(seat),
                    });
                    HandStatus::Void {
                        seat: Some(seat),
                        why: words,
                        evidence,
                    }
                }
            }
        } else if found.cheat.is_some() {
            after = next_head(Ending::Restarted);
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
            after = next_head(Ending::Restarted);
            HandStatus::Unfinished {
                why: found.stage.clone(),
            }
        };
        if found.complete.is_none() && found.cheat.is_none() && found.signed_results {
            self.report.faults.push(TranscriptFault {
                seat: None,
                hand_no: n,
                kind: FaultKind::MissingMessages,
                at: None,
            });
        }
        if found.complete.is_none()
            && let Some((seat, fault, _)) = &found.cheat
        {
            self.report.faults.push(TranscriptFault {
                seat: *seat,
                hand_no: n,
                kind: FaultKind::Cheat(*fault),
                at: None,
            });
        }
        self.report.hands.push(HandLine {
            hand_no: d.hand_no,
            status,
        });
        // The deal ended here, and this file's peer was out of the game for the next ones
        // (it left once the deal was scored, or was put out as it ended) until it was given
        // its seat back.
        if let Some(next) = next.filter(|x| x.head.hand_no > after.head.hand_no)
            && let Some(back) = self.taken_back(&b.head, next, signed, left, at)?
        {
            after = back.after;
        }
        self.report.totals = after.head.totals;
        Ok(after)
    }
}

impl Game {
    /// A deal started again with a player back in `seat` (a signed return for this hand by
    /// `from`): the return must be the runner's this deal's header `h` records.
    fn restarted_for_return(
        &self,
        h: &Header,
        seat: Seat,
        from: &PublicKey,
        n: Option<u32>,
        at: Pos,
    ) -> Result<HandStatus, Stop> {
        if self.barred.contains(seat) {
            return Err(stop(None, n, at, FaultKind::BarredSeatBack(seat)));
        }
        let runner = h.bots.runner(seat);
        let signer = seat_of(&h.keys, from);
        if runner.is_none() || signer != runner {
            return Err(stop(
                None,
                n,
                at,
                FaultKind::ReturnNotFromRunner {
                    seat,
                    signer: signer.unwrap_or(seat),
                    runner,
                },
            ));
        }
        Ok(HandStatus::Restarted {
            seat,
            why: "is back: the deal was started again with its player (signed return)".to_owned(),
        })
    }
}

/// A seat given back to this file's peer after deals it was away for.
struct Back {
    /// The seat given back.
    seat: Seat,
    /// What the next header must say: the table's state the return states.
    after: Header,
}

impl Game {
    /// The next header `next` skips deals after deal `h` because this file's peer was out
    /// of the game and is given its seat back: the signed `Return` among `signed` for that
    /// hand, by the seat's runner (this file may not record who that was, as the computer
    /// player took over while its peer was out, but never the seat itself). The table's state
    /// it carries is the runner's word, so the next deal's envelopes must confirm it.
    fn taken_back(
        &mut self,
        h: &Header,
        next: &Header,
        signed: &[(PublicKey, TableMsg)],
        left: SeatSet,
        at: Pos,
    ) -> Result<Option<Back>, Stop> {
        let returns = || {
            signed.iter().filter_map(|(from, m)| match m {
                TableMsg::Return { state, .. }
                    if state.hand_no == next.head.hand_no && state.keys == next.keys =>
                {
                    Some((state, from))
                }
                _ => None,
            })
        };
        let fault = |kind| stop(None, Some(next.head.hand_no), at, kind);
        // Two seats given back at one hand each have their `Return` in the file: the one of a
        // seat shown leaving explains the deals skipped.
        let Some((state, from)) = returns()
            .find(|(state, _)| left.contains(state.seat))
            .or_else(|| returns().next())
        else {
            return Ok(None);
        };
        if !left.contains(state.seat) {
            return Err(fault(FaultKind::BackWithoutLeaving(state.seat)));
        }
        if self.barred.contains(state.seat) {
            return Err(fault(FaultKind::BarredSeatBack(state.seat)));
        }
        let runner = h.bots.runner(state.seat);
        let signer = seat_of(&h.keys, from)
            .or_else(|| seat_of(&self.config.seats, from))
            .unwrap_or(state.seat);
        if signer == state.seat || runner.is_some_and(|r| r != signer) {
            return Err(fault(FaultKind::ReturnNotFromRunner {
                seat: state.seat,
                signer,
                runner,
            }));
        }
        self.confirm = Some((state.seat, signer));
        // The table as the return states it supersedes what this file heard while its peer
        // was away: a quit from before it is no seat's standing word (as at the table).
        for s in Seat::ALL {
            self.back_at[s] = self.back_at[s].max(state.hand_no);
        }
        let (from, to) = (
            h.head.hand_no.saturating_add(1),
            state.hand_no.saturating_sub(1),
        );
        let away = if from >= to {
            format!("hand {to} was")
        } else {
            format!("hands {from} to {to} were")
        };
        self.report.notes.push(format!(
            "{away} played while {} was away; the table's state at hand {} is taken from the signed return",
            state.seat.name(),
            state.hand_no
        ));
        let dealer = state.dealer;
        // The seats as the return states them: this peer missed whatever changed while it
        // was away (another seat taken over, or given back).
        let bots = Takeovers::from_parts(state.runners, state.seeds);
        Ok(Some(Back {
            seat: state.seat,
            after: Header {
                head: DealHead {
                    hand_no: state.hand_no,
                    dealer,
                    totals: state.totals,
                    prev_result: state.prev_result,
                },
                keys: state.keys,
                bots,
            },
        }))
    }
}

/// The seat that stopped deal `h` for nothing once every seed was in, and the audited scores
/// the next header `next` counts, if it counts them: every other seat signed the result the
/// next header follows (its root and scores), and the replays audited the same scores. (The
/// replays' own root may differ: a seat's root covers what it had processed when it scored,
/// and the audit came after.)
fn counted_on_audit(
    found: &Finding,
    h: &DealHead,
    next: &DealHead,
) -> Option<(Seat, [i32; 2], [u8; 32])> {
    let seat = found
        .named
        .iter()
        .find(|(_, f)| *f == Fault::UnfoundedAudit)
        .map(|(s, _)| *s)
        .or_else(|| {
            found
                .cheat
                .as_ref()
                .filter(|c| c.1 == Fault::UnfoundedAudit)
                .and_then(|c| c.0)
        })?;
    let scores = [
        next.totals[0].checked_sub(h.totals[0])?,
        next.totals[1].checked_sub(h.totals[1])?,
    ];
    let signed = Seat::ALL
        .into_iter()
        .filter(|&s| s != seat)
        .all(|s| found.results[s.index()] == Some((next.prev_result, scores)));
    let follows = h.after(Ending::Scored {
        scores,
        root: next.prev_result,
    }) == *next;
    (follows && signed && found.counted.iter().any(|r| r.scores == scores)).then_some((
        seat,
        scores,
        next.prev_result,
    ))
}

/// The seat the deal ended with when the file stops there: one voted out of it (every other
/// client's vote), and the scores it counts with (`None`: void). A
/// fault the envelopes prove is told apart by the caller.
fn ended_here(deal: &Deal<'_>) -> Option<(Seat, PutOut, Option<[i32; 2]>)> {
    let found = deal.found;
    if found.cheat.is_some() {
        return None;
    }
    let (seat, why) = Seat::ALL.into_iter().find_map(|s| match deal.put_out(s) {
        Some(PutOut::Votes) => Some((s, PutOut::Votes)),
        _ => None,
    })?;
    Some((seat, why, deal.owed(seat, why)))
}
