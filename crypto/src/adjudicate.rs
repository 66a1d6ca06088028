//! `adjudicate`: from signed evidence alone, name the seat that cheated at the crypto level.
//!
//! Only validly signed envelopes count, so garbage or forged evidence can never frame an honest
//! seat. A seat that signed two envelopes for one slot of its chain, or two consecutive
//! envelopes that do not link (it signed another version of the first), is named for
//! equivocation before anything else is judged. Seeds count whether revealed at the end of the
//! hand or in an audit. Move legality (the rules) is judged by the layer that knows the rules.

use std::collections::BTreeMap;

use crate::audit::{AuditInput, audit};
use crate::envelope::SignedEnvelope;
use crate::fault::Fault;
use crate::group::{CardTable, Ciphertext, CtBytes, compress_deck, open_deck};
use crate::hand::{HandKeys, verify_commit, verify_share, verify_shares};
use crate::identity::PublicKey;
use crate::message::{Body, HandCommit, ShuffleMsg};
use crate::step::{ProofMode, StepContext, check_step};

/// The judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The seat at fault, if the evidence proves one.
    pub offender: Option<u8>,
    /// What it did.
    pub fault: Option<Fault>,
}

impl Verdict {
    const NONE: Self = Self {
        offender: None,
        fault: None,
    };

    fn guilty(seat: u8, fault: Fault) -> Self {
        Self {
            offender: Some(seat),
            fault: Some(fault),
        }
    }
}

/// The table and hand the evidence is judged in.
#[derive(Debug, Clone, Copy)]
pub struct Court<'a> {
    /// The session id.
    pub sid: &'a [u8; 32],
    /// The seated identities.
    pub keys: &'a [PublicKey; 4],
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The seat that ran each shuffle step.
    pub order: [u8; 4],
    /// The card table.
    pub table: &'a CardTable,
    /// Whether the table asked for shuffle proofs.
    pub mode: ProofMode,
}

/// Judges `evidence` (raw signed envelopes, in any order).
pub fn adjudicate(court: &Court<'_>, evidence: &[SignedEnvelope]) -> Verdict {
    let mut slots: BTreeMap<(u8, u32), SignedEnvelope> = BTreeMap::new();
    let mut bodies: Vec<(u8, Body)> = Vec::new();
    // (sender, seq) -> (prev, hash), to find envelopes that do not link to their predecessor.
    let mut links: BTreeMap<(u8, u32), ([u8; 32], [u8; 32])> = BTreeMap::new();
    for env in evidence {
        let Ok(v) = env.verify(court.sid, court.keys) else {
            continue;
        };
        let sender = v.envelope.sender;
        if let Some(first) = slots.get(&(sender, v.envelope.seq)) {
            if first != env {
                return Verdict::guilty(sender, Fault::Equivocation);
            }
            continue;
        }
        slots.insert((sender, v.envelope.seq), env.clone());
        links.insert((sender, v.envelope.seq), (v.envelope.prev, v.hash));
        match Body::decode(&v.envelope.body) {
            Ok(body) if body.hctx() == court.hctx => bodies.push((sender, body)),
            Ok(_) => {}
            Err(_) => return Verdict::guilty(sender, Fault::BadEncoding),
        }
    }
    for (&(sender, seq), &(prev, _)) in &links {
        if let Some(before) = seq.checked_sub(1).and_then(|s| links.get(&(sender, s)))
            && before.1 != prev
        {
            return Verdict::guilty(sender, Fault::Equivocation);
        }
    }
    judge_hand(court, &bodies)
}

fn judge_hand(court: &Court<'_>, bodies: &[(u8, Body)]) -> Verdict {
    let mut commits: [Option<&HandCommit>; 4] = [None; 4];
    let mut keys = Vec::new();
    for (seat, body) in bodies {
        if let Body::HandCommit(c) = body {
            // One commitment per seat and hand: a second one (in another slot of its chain) is
            // its signer's fault, whatever it says.
            if commits[usize::from(*seat)].is_some() {
                return Verdict::guilty(*seat, Fault::OutOfOrder);
            }
            match verify_commit(court.hctx, *seat, c) {
                Ok(k) => keys.push(k),
                Err(f) => return Verdict::guilty(*seat, f),
            }
            commits[usize::from(*seat)] = Some(c);
        }
    }
    let [Some(c0), Some(c1), Some(c2), Some(c3)] = commits else {
        return Verdict::NONE;
    };
    let commits = [c0, c1, c2, c3];
    let Ok(points) = commits
        .iter()
        .enumerate()
        .map(|(s, c)| verify_commit(court.hctx, s as u8, c))
        .collect::<Result<Vec<_>, _>>()
    else {
        return Verdict::NONE;
    };
    let hand_keys = match HandKeys::new([points[0], points[1], points[2], points[3]]) {
        Ok(k) => k,
        Err((seat, f)) => return Verdict::guilty(seat, f),
    };
    // The shuffle chain, step by step.
    let mut steps: [Option<&ShuffleMsg>; 4] = [None; 4];
    for (seat, body) in bodies {
        if let Body::Shuffle(s) = body {
            let k = usize::from(s.step.wrapping_sub(1));
            // One message per step, from the seat whose step it is: a second one would be
            // judged instead of the one the next shuffler built on.
            if k >= 4 || court.order[k] != *seat || steps[k].is_some() {
                return Verdict::guilty(*seat, Fault::OutOfOrder);
            }
            steps[k] = Some(s);
        }
    }
    let mut input_deck: Vec<Ciphertext> = open_deck(court.table);
    let mut input: Vec<CtBytes> = compress_deck(&input_deck);
    let mut last: Option<Vec<Ciphertext>> = None;
    for (k, step) in steps.iter().enumerate() {
        let Some(step) = step else {
            break;
        };
        let ctx = StepContext {
            hctx: court.hctx,
            step: k as u8 + 1,
            seat: court.order[k],
            input_bytes: &input,
            input: &input_deck,
            keys: &hand_keys,
            mode: court.mode,
        };
        match check_step(step, &ctx) {
            Ok(deck) => {
                input_deck.clone_from(&deck);
                last = Some(deck);
            }
            Err(f) => return Verdict::guilty(court.order[k], f),
        }
        input.clone_from(&step.deck);
    }
    // Shares against the final deck.
    if let (Some(deck), true) = (&last, steps.iter().all(Option::is_some)) {
        for (seat, body) in bodies {
            let fault = match body {
                Body::Shares { items, proof, .. } => {
                    let cts: Option<Vec<_>> = items
                        .iter()
                        .map(|it| deck.get(usize::from(it.pos)))
                        .collect();
                    match cts {
                        Some(cts) => {
                            verify_shares(court.hctx, *seat, &hand_keys, &cts, items, proof).err()
                        }
                        None => Some(Fault::BadProof),
                    }
                }
                Body::Move { opened, .. } => {
                    opened
                        .iter()
                        .find_map(|item| match deck.get(usize::from(item.pos)) {
                            Some(ct) => verify_share(court.hctx, *seat, &hand_keys, ct, item).err(),
                            None => Some(Fault::BadProof),
                        })
                }
                _ => None,
            };
            if let Some(f) = fault {
                return Verdict::guilty(*seat, f);
            }
        }
    }
    // Reveals: seeds against commitments, then the whole chain.
    let mut seeds: [Option<[u8; 32]>; 4] = [None; 4];
    for (seat, body) in bodies {
        if let Body::HandReveal { seed, .. } | Body::Audit { seed, .. } = body {
            let s = usize::from(*seat);
            if crate::hand::seed_commit(court.hctx, *seat, seed) != commits[s].seed_commit {
                return Verdict::guilty(*seat, Fault::SeedMismatch);
            }
            seeds[s] = Some(*seed);
        }
    }
    if let ([Some(a), Some(b), Some(c), Some(d)], [Some(e1), Some(e2), Some(e3), Some(e4)]) =
        (seeds, steps)
    {
        let input = AuditInput {
            hctx: court.hctx,
            order: court.order,
            commits,
            seeds: [a, b, c, d],
            decks: [&e1.deck, &e2.deck, &e3.deck, &e4.deck],
        };
        if let Err((seat, f)) = audit(court.table, &input) {
            return Verdict::guilty(seat, f);
        }
    }
    Verdict::NONE
}
