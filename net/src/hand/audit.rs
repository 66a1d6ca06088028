//! The audit at a fault (PROTOCOL.md, "Audit at a fault"): [`Audit`] holds what it needs
//! (whether it runs, whether our script stopped, the first finding, each seat's audit, the
//! proofs of equivocation); a seat's own audit (seed and heads, then every envelope it holds
//! from the others passed on), the audits of the others, the evidence they fix, and the
//! verdict from signed messages alone.

use std::collections::BTreeMap;

use fairdeal_crypto::{Body, Court, Fault, Head, SignedEnvelope, adjudicate};

use super::session::{Inbound, MAX_FUTURE};
use super::{Blame, HandBug, HandSession};

/// A seat's audit message as received.
#[derive(Debug, Clone)]
struct AuditSeen {
    /// Its sequence number in the sender's chain.
    seq: u32,
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
        if self.stage.is_finished() {
            return;
        }
        self.audit.stopped = true;
        if self.audit.finding.is_none() {
            self.audit.finding = Some(Blame {
                offender,
                fault,
                evidence,
            });
        }
        self.start_audit();
    }

    /// This seat's own state is broken (`bug`): the script stops and the audit starts, as at
    /// a fault, but nobody is suspected; unless the audit names a seat from the signed
    /// messages, the verdict is the bug ([`super::Event::Broken`]), not a fault.
    pub(super) fn broken(&mut self, bug: HandBug) {
        if self.stage.is_finished() {
            return;
        }
        self.audit.stopped = true;
        if self.audit.finding.is_none() {
            self.audit.bug.get_or_insert(bug);
        }
        self.start_audit();
    }

    /// Takes `s`'s audit message wherever it stands in its queue (what it sent before stays
    /// to be processed; anything after counts for nothing). Returns whether one was taken.
    pub(super) fn take_audit(&mut self, s: u8) -> bool {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        let i = usize::from(s);
        if self.audit.audits[i].is_some() {
            return false;
        }
        let Some(Inbound {
            body: Body::Audit { heads, .. },
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
            heads,
        });
        let me = self.ctx.me;
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

    /// The slots of each seat's chain the verdict judges (every seat's chain up to its audit,
    /// and up to what any audit says it holds), once every audit is in and this seat holds
    /// exactly what each names; `Err` with the seats still waited on.
    fn cut(&self) -> Result<[u32; 4], Vec<u8>> {
        let missing: Vec<u8> = (0..4u8)
            .filter(|&s| self.audit.audits[usize::from(s)].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        let me = usize::from(self.ctx.me);
        let mut cut = [0u32; 4];
        let mut unmet = Vec::new();
        for (y, a) in self.audit.audits.iter().enumerate() {
            let Some(a) = a else { continue };
            cut[y] = cut[y].max(a.seq + 1);
            for (s, h) in a.heads.iter().enumerate() {
                if s == y {
                    // Its own chain is pinned by its audit's link.
                    continue;
                }
                if s != me && !self.link.holds(s, h) {
                    unmet.push(y as u8);
                }
                cut[s] = cut[s].max(h.count);
            }
        }
        cut[me] = cut[me].min(self.link.sent_len());
        if unmet.is_empty() {
            Ok(cut)
        } else {
            unmet.dedup();
            Err(unmet)
        }
    }

    /// The seats an audit waits on: those whose audit is missing, or whose heads name
    /// envelopes this seat does not hold (yet).
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

    /// The verdict of an audit, from signed messages alone (see the module docs).
    pub(super) fn verdict(&mut self) {
        if let Some((&(seat, _), proof)) = self.audit.forks.iter().next() {
            let proof = proof.clone();
            return self.conclude(Some(seat), Fault::Equivocation, proof);
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
            return self.conclude(Some(seat), fault, evidence);
        }
        match (self.audit.finding.take(), self.audit.bug) {
            (Some(b), _) if b.offender.is_some() => self.conclude(b.offender, b.fault, b.evidence),
            (None, Some(bug)) => {
                self.void(Err(bug));
                self.events.push_back(super::Event::Broken(bug));
            }
            (other, _) => {
                let fault = other.map_or(Fault::OutOfOrder, |b| b.fault);
                self.conclude(None, fault, evidence);
            }
        }
    }

    /// The hand is void with this verdict.
    fn conclude(&mut self, offender: Option<u8>, fault: Fault, evidence: Vec<SignedEnvelope>) {
        let blame = Blame {
            offender,
            fault,
            evidence,
        };
        self.void(Ok(blame.clone()));
        self.events.push_back(super::Event::Fault(blame));
    }
}
