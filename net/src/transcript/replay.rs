//! One deal of a transcript checked from its signed envelopes: `adjudicate` over all of them
//! (signatures, equivocation, commitments, shuffle proofs, every share, the seeds and the
//! recomputed shuffles), then, for every seat whose seed was revealed, that seat's whole
//! hand session replayed from the envelopes (the script, card identities, every opening, red
//! threes, the rules replay with the true hands, the scores and the signed results).
//!
//! A replay as seat `r` needs only `r`'s revealed seed (its hand secret derives from it) and
//! the envelopes; `r`'s own envelopes are taken as logged, never made again, and checked by
//! the replays of the other three.

use std::sync::Arc;

use fairdeal_core::{Seat, Team};
use fairdeal_crypto::hand::seed_commit;
use fairdeal_crypto::{
    Body, CardTable, Court, Fault, HandCommit, Identity, PublicKey, SignedEnvelope, adjudicate,
};

use crate::hand::{Event, HandConfig, HandReport, HandSession, Stage};

/// The judgement of `adjudicate` on `evidence`: the seat the signed messages prove at fault.
/// (The one call of `adjudicate` here: a change of what it returns is a change of this line.)
fn judge(court: &Court<'_>, evidence: &[SignedEnvelope]) -> Option<(u8, Fault)> {
    let v = adjudicate(court, evidence);
    v.offender.zip(v.fault)
}

/// What the envelopes of one deal show.
#[derive(Debug, Default)]
pub(super) struct Finding {
    /// All four replays completed with this report (the four signed results agree with it).
    pub complete: Option<HandReport>,
    /// A fault: the seat (if one is proved), what, and the evidence in words.
    pub cheat: Option<(Option<Seat>, Fault, Vec<String>)>,
    /// The seeds revealed, by seat.
    pub revealed: [bool; 4],
    /// The audited scores, when a replay got past the audit.
    pub audited: Option<[i32; 2]>,
    /// The forfeit scores if team A or team B withheld the end (from a replay at the reveal).
    pub forfeit: Option<[[i32; 2]; 2]>,
    /// Moves played (the longest replay's count).
    pub moves: usize,
    /// Where the deal stands, in words.
    pub stage: String,
    /// All four seats signed one result (root and scores) for the deal.
    pub signed_results: bool,
    /// The reports of the audited scores, one per replay that got past the audit: a deal a
    /// seat stopped for nothing after every seed was in counts with them.
    pub counted: Vec<HandReport>,
    /// Seats a replay named at fault without stopping the deal (an audit after the play).
    pub named: Vec<(Seat, Fault)>,
    /// Each seat's signed result (root and scores), if the file has one.
    pub results: [Option<([u8; 32], [i32; 2])>; 4],
}

/// The seat and kind of a decoded body, for evidence lines.
fn describe(env: &SignedEnvelope, hctx: &[u8; 32], keys: &[PublicKey; 4]) -> String {
    let Ok(v) = env.verify(hctx, keys) else {
        return "an envelope that does not verify".to_owned();
    };
    let kind = match Body::decode(&v.envelope.body) {
        Ok(Body::HandCommit(_)) => "commitment",
        Ok(Body::Shuffle(_)) => "shuffle step",
        Ok(Body::Shares { .. }) => "decryption shares",
        Ok(Body::Move { .. }) => "move",
        Ok(Body::HandReveal { .. }) => "seed",
        Ok(Body::HandResult { .. }) => "signed result",
        Ok(Body::Audit { .. }) => "audit (its seed and the chains it holds)",
        Err(_) => "undecodable body",
    };
    format!(
        "{kind} signed by {} (its message {})",
        Seat::try_from(v.envelope.sender).map_or("no seat", Seat::name),
        v.envelope.seq
    )
}

/// Checks one deal; `envelopes` are verified for the deal, without duplicates, sorted by
/// (sender, seq).
pub(super) fn check_hand(
    cfg: &HandConfig,
    hctx: &[u8; 32],
    table: &Arc<CardTable>,
    envelopes: &[SignedEnvelope],
) -> Finding {
    let mut f = Finding::default();
    let court = Court {
        sid: hctx,
        keys: &cfg.keys,
        hctx,
        order: cfg.head.shuffle_order(),
        table,
        mode: cfg.proofs,
    };
    let evidence_of = |seat: Option<u8>| -> Vec<String> {
        envelopes
            .iter()
            .filter(|e| {
                seat.is_none_or(|s| {
                    e.verify(hctx, &cfg.keys)
                        .is_ok_and(|v| v.envelope.sender == s)
                })
            })
            .take(6)
            .map(|e| describe(e, hctx, &cfg.keys))
            .collect()
    };
    if let Some((seat, fault)) = judge(&court, envelopes) {
        f.cheat = Some((Seat::try_from(seat).ok(), fault, evidence_of(Some(seat))));
    }
    // The seeds, as far as they match their commitments (a bad one is adjudicate's finding).
    let mut commits: [Option<HandCommit>; 4] = Default::default();
    let mut results: [Option<([u8; 32], [i32; 2])>; 4] = [None; 4];
    let mut seeds: [Option<[u8; 32]>; 4] = [None; 4];
    for env in envelopes {
        let Ok(v) = env.verify(hctx, &cfg.keys) else {
            continue;
        };
        let s = usize::from(v.envelope.sender);
        match Body::decode(&v.envelope.body) {
            Ok(Body::HandCommit(c)) => commits[s] = Some(c),
            Ok(Body::HandReveal { seed, .. } | Body::Audit { seed, .. }) => seeds[s] = Some(seed),
            Ok(Body::HandResult {
                transcript_root,
                scores,
                ..
            }) => results[s] = Some((transcript_root, scores)),
            _ => {}
        }
    }
    f.signed_results = results[0].is_some() && results.iter().all(|r| *r == results[0]);
    f.results = results;
    for s in 0..4u8 {
        let i = usize::from(s);
        if let (Some(c), Some(seed)) = (&commits[i], seeds[i])
            && seed_commit(hctx, s, &seed) == c.seed_commit
        {
            f.revealed[i] = true;
        }
    }
    let mut reports: Vec<HandReport> = Vec::new();
    let mut stages = Vec::new();
    for r in Seat::ALL {
        let (true, Some(seed)) = (f.revealed[r.index()], seeds[r.index()]) else {
            continue;
        };
        // The identity only signs what the replay would send next, which is thrown away.
        let nobody = Identity::from_secret([0x5a; 32]);
        let Ok(mut hand) =
            HandSession::restore(cfg.clone(), r, nobody, seed, table.clone(), envelopes)
        else {
            f.cheat
                .get_or_insert((None, Fault::BadEncoding, Vec::new()));
            continue;
        };
        while let Some(ev) = hand.poll_event() {
            match ev {
                Event::Complete(report) => reports.push(report),
                Event::Fault(b) if f.cheat.is_none() => {
                    let evidence = evidence_of(b.offender.map(Seat::number));
                    f.cheat = Some((b.offender, b.fault, evidence));
                }
                Event::Named(b) => {
                    if let Some(o) = b.offender
                        && !f.named.iter().any(|(s, _)| *s == o)
                    {
                        f.named.push((o, b.fault));
                    }
                }
                _ => {}
            }
        }
        f.moves = f.moves.max(hand.turn_count());
        f.counted.extend(hand.audited_report());
        if hand.stage() == Stage::Result {
            f.audited = f.audited.or(hand.audited());
        }
        if hand.stage() == Stage::Reveal
            && let Some(replica) = hand.replica()
        {
            let total = |b: [fairdeal_core::TeamScore; 2]| [b[0].total(), b[1].total()];
            f.forfeit = Some([
                total(replica.forfeit_scores(Team::A)),
                total(replica.forfeit_scores(Team::B)),
            ]);
        }
        stages.push(hand.stage());
    }
    // Each seat checks the shares it did not make, so the counts differ (the report gives
    // their sum: every check the four replays made); the rest must agree.
    let same = |a: &HandReport, b: &HandReport| {
        a.scores == b.scores && a.transcript_root == b.transcript_root && a.breakdown == b.breakdown
    };
    if reports.len() == 4 && reports.iter().all(|r| same(r, &reports[0])) {
        f.audited = Some(reports[0].scores);
        let openings = reports.iter().map(|r| r.openings_checked).sum();
        f.complete = reports.pop().map(|r| HandReport {
            openings_checked: openings,
            ..r
        });
    }
    let revealed = f.revealed.iter().filter(|r| **r).count();
    f.stage = match stages.first() {
        _ if revealed == 0 => "no seed was revealed (the deal stopped before its end)".to_owned(),
        Some(Stage::Result) => "audited; not every seat's signed result is in the file".to_owned(),
        Some(Stage::Done) => "complete".to_owned(),
        _ => format!("{revealed} of 4 seeds revealed"),
    };
    f
}
