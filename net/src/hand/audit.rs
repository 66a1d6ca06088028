//! The audit at a fault (PROTOCOL.md, "Audit at a fault"): [`Audit`] holds what it needs
//! (whether it runs, whether our script stopped, the first finding, each seat's audit, the
//! proofs of equivocation); a seat's own audit (seed and heads, then every envelope it holds
//! from the others passed on), the audits of the others, the evidence they fix, and the
//! verdict from signed messages alone (an audit that proves nothing counts against the seat
//! that started it); and a fault proven once the scores were audited, which names its seat
//! without stopping the hand.

use std::collections::BTreeMap;

use fairdeal_core::Seat;
use fairdeal_crypto::{Body, Court, Fault, Head, SignedEnvelope, adjudicate};

use super::session::link::{Inbound, MAX_FUTURE};
use super::{Blame, HandBug, HandSession};

/// A seat's audit message as received.
#[derive(Debug, Clone)]
struct AuditSeen {
    /// Its sequence number in the sender's chain.
    seq: u32,
    /// The sender's seed, revealed with it.
    seed: [u8; 32],
    /// What the sender held of each chain.
    heads: [Head; 4],
}

/// The audit at a fault: an overlay on whatever stage the hand was at (another seat's audit
/// stops this seat's sending, not its script; a fault of its own stops both).
#[derive(Debug, Default)]
pub(super) struct Audit {
    /// The hand is stopped: seeds and heads are being exchanged (see the module docs).
    auditing: bool,
    /// The script found a fault (or a message it cannot take): it processes nothing more.
    stopped: bool,
    /// The first fault the script found, with its suspect (`None`: nobody by itself).
    finding: Option<Blame>,
    /// A broken promise of this seat's own state the script found instead (a bug here).
    bug: Option<HandBug>,
    /// Each seat's audit message, once received.
    audits: [Option<AuditSeen>; 4],
    /// Proofs of equivocation by (seat, slot): two envelopes for one slot, or two that do
    /// not link.
    forks: BTreeMap<(u8, u32), Vec<SignedEnvelope>>,
    /// The seats named once the scores were audited ([`super::Event::Named`], once each).
    named: [bool; 4],
    /// The seats whose audit came after their reveal, which this seat did not join (the
    /// end-of-hand replay decides: a fault it finds starts the audit; if it passes, the
    /// audit was for nothing).
    after_play: [bool; 4],
}

impl Audit {
    /// Whether the hand is stopped for an audit.
    pub(super) fn auditing(&self) -> bool {
        self.auditing
    }

    /// Whether our script stopped at a fault.
    pub(super) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether seat `s`'s audit message is in.
    pub(super) fn has_audit_of(&self, s: usize) -> bool {
        self.audits[s].is_some()
    }

    /// The seeds the audits revealed, by seat.
    pub(super) fn seeds(&self) -> Vec<(usize, [u8; 32])> {
        self.audits
            .iter()
            .enumerate()
            .filter_map(|(s, a)| Some((s, a.as_ref()?.seed)))
            .collect()
    }

    /// What the audit adds to the hand's progress (audits in, proofs kept).
    pub(super) fn progress(&self) -> usize {
        self.audits.iter().flatten().count() + self.forks.len()
    }

    /// Keeps a proof that `seat` equivocated at `seq` (once per slot, bounded).
    pub(super) fn keep_fork(&mut self, seat: u8, seq: u32, proof: &[SignedEnvelope]) {
        if self.forks.len() < MAX_FUTURE as usize {
            self.forks
                .entry((seat, seq))
                .or_insert_with(|| proof.to_vec());
        }
    }
}

impl HandSession {
    /// A fault found here: the script stops, the first finding is kept, and the audit starts
    /// (the verdict comes from the evidence, [`HandSession::verdict`]).
    pub(super) fn blame(
        &mut self,
        offender: Option<u8>,
        fault: Fault,
        evidence: Vec<SignedEnvelope>,
    ) {
        if self.stage.is_scored() && !self.audit.auditing {
            // The scores are audited and nothing undoes them: the offender is named, the
            // hand goes on to its end.
            if let Some(seat) = offender {
                self.named(seat, fault, evidence);
            }
            return;
        }
        if self.stage.is_finished() {
            return;
        }
        self.audit.stopped = true;
        if self.audit.finding.is_none() {
            self.audit.finding = Some(Blame {
                offender: offender.and_then(super::seat),
                fault,
                evidence,
            });
        }
        self.start_audit();
    }

    /// This seat's own state is broken (`bug`): the script stops and the audit starts, as at
    /// a fault, but nobody is suspected; unless the audit names a seat from the signed
    /// messages, this seat reports the bug ([`super::Event::Broken`]) and the audit counts
    /// against the seat that started it, as any unfounded audit does (a bug must not re-deal
    /// a hand its seat dislikes).
    pub(super) fn broken(&mut self, bug: HandBug) {
        if self.stage.is_finished() {
            return;
        }
        self.audit.stopped = true;
        if self.audit.finding.is_none() {
            self.audit.bug.get_or_insert(bug);
        }
        let after_play = self.stage.revealed(self.ctx.me) && !self.audit.auditing;
        self.start_audit();
        if after_play {
            // The others' end-of-hand replays pass and do not join an audit after the play:
            // ours stops the hand for nothing, and counts against this seat at every seat.
            self.events.push_back(super::Event::Broken(bug));
            self.conclude(super::seat(self.ctx.me), Fault::UnfoundedAudit, Vec::new());
        }
    }

    /// Takes `s`'s audit message wherever it stands in its queue (what it sent before stays
    /// to be processed; anything after counts for nothing). Returns whether one was taken.
    pub(super) fn take_audit(&mut self, s: u8) -> bool {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        let i = usize::from(s);
        if self.audit.audits[i].is_some() {
            return false;
        }
        let me = self.ctx.me;
        // An audit sent after its sender saw the play end (its reveal is before it), naming
        // exactly the chains this seat holds, is not joined: this seat's own end-of-hand
        // replay of the same evidence decides. Until this seat holds what it names, it waits.
        let mut after_play = false;
        if s != me && !self.audit.auditing {
            let Some((heads, after_result, after_reveal)) = self.link.peek_audit(s) else {
                return false;
            };
            if after_reveal || self.stage.revealed(s) {
                match self.heads_agree(i, &heads) {
                    None => return false,
                    Some(true) if after_result || self.stage.has_result_of(s) => {
                        // Its seat signed the audited result before it: it counts for nothing.
                        let _ = self.link.take_audit_message(s);
                        return true;
                    }
                    Some(agree) => after_play = agree,
                }
            }
        }
        let Some(Inbound {
            body: Body::Audit { heads, seed, .. },
            signed,
        }) = self.link.take_audit_message(s)
        else {
            return false;
        };
        let Ok(env) = fairdeal_crypto::encoding::decode::<fairdeal_crypto::Envelope>(&signed.bytes)
        else {
            return false;
        };
        self.audit.audits[i] = Some(AuditSeen {
            seq: env.seq,
            seed,
            heads,
        });
        if after_play {
            self.audit.after_play[i] = true;
            self.count_out_audits_after_play();
            return true;
        }
        if s == me && !self.audit.auditing {
            // Our own audit, from the log of a seat rebuilt after a crash.
            self.audit.auditing = true;
            self.pass_on();
        }
        if s != me {
            self.start_audit();
        }
        true
    }

    /// Whether the heads of `y`'s audit name exactly what this seat holds of every other
    /// chain (its own: what it signed); `None` while it does not hold that much yet.
    fn heads_agree(&self, y: usize, heads: &[Head; 4]) -> Option<bool> {
        let me = usize::from(self.ctx.me);
        let mut agree = true;
        for (s, h) in heads.iter().enumerate() {
            if s == y || h.count == 0 {
                continue;
            }
            match self.link.envelope_at(self.ctx.me, s, h.count - 1) {
                Some(env) => agree &= env.hash() == h.last,
                // Past what this seat signed: an envelope it never signed.
                None if s == me => agree = false,
                None => return None,
            }
        }
        Some(agree)
    }

    /// `seat` is proven at fault once the scores were audited: named once, with its proof
    /// passed on (a seat that holds another version of that message then finds the
    /// equivocation, so every seat names it).
    fn named(&mut self, seat: u8, fault: Fault, evidence: Vec<SignedEnvelope>) {
        let Some(done) = self.audit.named.get_mut(usize::from(seat)) else {
            return;
        };
        if std::mem::replace(done, true) {
            return;
        }
        let proof: Vec<SignedEnvelope> = if fault == Fault::Equivocation {
            evidence
        } else {
            evidence.last().cloned().into_iter().collect()
        };
        for env in &proof {
            self.link.push_out(env.to_wire());
        }
        self.events.push_back(super::Event::Named(Blame {
            offender: super::seat(seat),
            fault,
            evidence: proof,
        }));
    }

    /// Once the scores are audited: each seat that stopped the hand after the play for
    /// nothing is named, and its result slot counts as filled (the scores stand without it).
    pub(super) fn count_out_audits_after_play(&mut self) {
        if !self.stage.is_scored() || self.audit.auditing {
            return;
        }
        for s in 0..4u8 {
            if !self.audit.after_play[usize::from(s)] || self.stage.has_result_of(s) {
                continue;
            }
            let audit = self.audit.audits[usize::from(s)]
                .as_ref()
                .and_then(|a| self.link.envelope_at(self.ctx.me, usize::from(s), a.seq))
                .cloned();
            self.named(s, Fault::UnfoundedAudit, audit.into_iter().collect());
            if let Some(report) = self.stage.count_out(s) {
                self.stage.finish_signing();
                self.events.push_back(super::Event::Complete(report));
            }
        }
    }

    /// Test knob: starts an audit now, with no finding (a seat stopping a hand it dislikes).
    #[cfg(feature = "cheats")]
    pub fn cheat_audit_now(&mut self) {
        self.start_audit();
        self.pump();
    }

    /// Stops the hand and sends this seat's audit: its seed (the hand is void) and its heads,
    /// then passes on every envelope it holds from the others.
    fn start_audit(&mut self) {
        if self.audit.auditing || self.stage.is_finished() {
            return;
        }
        self.audit.auditing = true;
        let heads = self.link.heads(self.ctx.me);
        self.send(Body::Audit {
            hctx: self.ctx.hctx,
            seed: self.ctx.secret.seed(),
            heads,
        });
        self.pass_on();
    }

    /// Queues every envelope held from the other seats, and every proof of equivocation, for
    /// the others: what one seat holds reaches every seat.
    fn pass_on(&mut self) {
        self.link.pass_on_chains(self.ctx.me);
        for proof in self.audit.forks.values() {
            for env in proof {
                self.link.push_out(env.to_wire());
            }
        }
    }

    /// The slots of each seat's chain the verdict judges, once every audit is in and this
    /// seat holds exactly what each head names: each chain through its seat's own audit
    /// (what a seat signs after its audit counts for nothing, so a head naming slots past it
    /// is never waited on). A head naming a slot this seat holds another version of waits on
    /// the audit's sender: an honest one passes that version on (the equivocation is then
    /// found); one that names an envelope never signed — this seat's own included, which it
    /// knows it never signed — is waited on, and voted out as silent, by every other seat
    /// alike, the seat it named too.
    fn cut(&self) -> Result<[u32; 4], Vec<u8>> {
        let missing: Vec<u8> = (0..4u8)
            .filter(|&s| self.audit.audits[usize::from(s)].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        let seqs: [u32; 4] =
            std::array::from_fn(|s| self.audit.audits[s].as_ref().map_or(0, |a| a.seq));
        let mut unmet = Vec::new();
        for (y, a) in self.audit.audits.iter().enumerate() {
            let Some(a) = a else { continue };
            for (s, h) in a.heads.iter().enumerate() {
                // Its own chain is pinned by its audit's link.
                if s == y || h.count == 0 || h.count > seqs[s] + 1 {
                    continue;
                }
                let held = self.link.envelope_at(self.ctx.me, s, h.count - 1);
                if held.map(SignedEnvelope::hash) != Some(h.last) {
                    unmet.push(y as u8);
                }
            }
        }
        if unmet.is_empty() {
            Ok(seqs.map(|q| q + 1))
        } else {
            unmet.dedup();
            Err(unmet)
        }
    }

    /// The seat answerable for an audit that proves nothing: the first (lowest) of those that
    /// started it by themselves, whose audit holds no other seat's audit (every other chain
    /// it names stops before that chain's audit). Chains are signed in order, so one did,
    /// unless a seat's heads claim slots past another's audit (which no honest seat holds,
    /// its chain ends there): then the first seat that claims such slots.
    fn answerable(&self) -> Option<u8> {
        let seqs: [Option<u32>; 4] =
            std::array::from_fn(|s| self.audit.audits[s].as_ref().map(|a| a.seq));
        let heads = |y: u8| {
            self.audit.audits[usize::from(y)].as_ref().map(|a| {
                a.heads
                    .iter()
                    .enumerate()
                    .filter(move |(s, _)| *s != usize::from(y))
            })
        };
        let started = (0..4u8).find(|&y| {
            heads(y).is_some_and(|mut hs| hs.all(|(s, h)| seqs[s].is_none_or(|q| h.count <= q)))
        });
        started.or_else(|| {
            (0..4u8).find(|&y| {
                heads(y)
                    .is_some_and(|mut hs| hs.any(|(s, h)| seqs[s].is_some_and(|q| h.count > q + 1)))
            })
        })
    }

    /// The seats an audit waits on: those whose audit is missing.
    pub(super) fn audit_waits(&self) -> Vec<u8> {
        if self.stage.is_void() {
            return Vec::new();
        }
        match self.cut() {
            Ok(_) => Vec::new(),
            Err(mut seats) => {
                seats.retain(|&s| s != self.ctx.me);
                seats
            }
        }
    }

    /// The verdict of an audit, from signed messages alone (see the module docs). An audit
    /// that proves nobody at fault counts against the seat that started it (the lowest seat,
    /// if several did): stopping a hand is never free, whether the seat meant it or its own
    /// state broke.
    pub(super) fn verdict(&mut self) {
        if let Some((&(seat, _), proof)) = self.audit.forks.iter().next() {
            let proof = proof.clone();
            return self.conclude(super::seat(seat), Fault::Equivocation, proof);
        }
        let Ok(cut) = self.cut() else { return };
        let evidence = self.link.evidence(self.ctx.me, &cut);
        let court = Court {
            sid: &self.ctx.hctx,
            keys: &self.ctx.cfg.keys,
            hctx: &self.ctx.hctx,
            order: self.ctx.order,
            table: &self.ctx.table,
            mode: self.ctx.cfg.proofs,
        };
        let v = adjudicate(&court, &evidence);
        if let (Some(seat), Some(fault)) = (v.offender, v.fault) {
            return self.conclude(super::seat(seat), fault, evidence);
        }
        if let Some(b) = self.audit.finding.take()
            && b.offender.is_some()
        {
            return self.conclude(b.offender, b.fault, b.evidence);
        }
        if let Some(bug) = self.audit.bug {
            self.events.push_back(super::Event::Broken(bug));
        }
        let first = self.answerable().and_then(super::seat);
        self.conclude(first, Fault::UnfoundedAudit, evidence);
    }

    /// The hand is void with this verdict.
    fn conclude(&mut self, offender: Option<Seat>, fault: Fault, evidence: Vec<SignedEnvelope>) {
        let blame = Blame {
            offender,
            fault,
            evidence,
        };
        self.void(Ok(blame.clone()));
        self.events.push_back(super::Event::Fault(blame));
    }
}
