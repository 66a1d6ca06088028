//! The audit at a fault (PROTOCOL.md, "Audit at a fault"): a seat's own audit (seed and heads,
//! then every envelope it holds from the others passed on), the audits of the others, the
//! evidence they fix, and the verdict from signed messages alone.

use fairdeal_crypto::{Body, Court, Fault, Head, SignedEnvelope, adjudicate};

use super::{Blame, Event, HandSession, Inbound, Stage};

/// A seat's audit message as received.
#[derive(Debug, Clone)]
pub(super) struct AuditSeen {
    /// Its sequence number in the sender's chain.
    pub(super) seq: u32,
    /// What the sender held of each chain.
    pub(super) heads: [Head; 4],
}

impl HandSession {
    /// Takes `s`'s audit message wherever it stands in its queue (what it sent before stays
    /// to be processed; anything after counts for nothing). Returns whether one was taken.
    pub(super) fn take_audit(&mut self, s: u8) -> bool {
        let i = usize::from(s);
        if self.audits[i].is_some() {
            return false;
        }
        let Some(at) = self.inbox[i]
            .iter()
            .position(|m| matches!(m.body, Body::Audit { .. }))
        else {
            return false;
        };
        let mut tail = self.inbox[i].split_off(at);
        let Some(Inbound {
            body: Body::Audit { heads, .. },
            signed,
        }) = tail.pop_front()
        else {
            return false;
        };
        let Ok(env) = fairdeal_crypto::encoding::decode::<fairdeal_crypto::Envelope>(&signed.bytes)
        else {
            return false;
        };
        self.audits[i] = Some(AuditSeen {
            seq: env.seq,
            heads,
        });
        if s == self.me && !self.auditing {
            // Our own audit, from the log of a seat rebuilt after a crash.
            self.auditing = true;
            self.pass_on();
        }
        if s != self.me {
            self.start_audit();
        }
        true
    }

    /// Stops the hand and sends this seat's audit: its seed (the hand is void) and its heads,
    /// then passes on every envelope it holds from the others.
    pub(super) fn start_audit(&mut self) {
        if self.auditing || matches!(self.stage, Stage::Void | Stage::Done) {
            return;
        }
        self.auditing = true;
        let heads: [Head; 4] = std::array::from_fn(|s| {
            if s == usize::from(self.me) {
                Head {
                    count: self.sent.len() as u32,
                    last: self
                        .sent
                        .last()
                        .map(SignedEnvelope::hash)
                        .unwrap_or_default(),
                }
            } else {
                Head {
                    count: self.chains[s].next_seq(),
                    last: self.chains[s].last(),
                }
            }
        });
        self.send(Body::Audit {
            hctx: self.hctx,
            seed: self.secret.seed(),
            heads,
        });
        self.pass_on();
    }

    /// Queues every envelope held from the other seats, and every proof of equivocation, for
    /// the others: what one seat holds reaches every seat.
    pub(super) fn pass_on(&mut self) {
        for s in (0..4u8).filter(|&s| s != self.me) {
            let chain = &self.chains[usize::from(s)];
            for seq in 0..chain.next_seq() {
                if let Some(env) = chain.get(seq) {
                    self.out.push_back(env.to_wire());
                }
            }
        }
        for proof in self.forks.values() {
            self.out.extend(proof.iter().map(SignedEnvelope::to_wire));
        }
    }

    /// The slots of each seat's chain the verdict judges (every seat's chain up to its audit,
    /// and up to what any audit says it holds), once every audit is in and this seat holds
    /// exactly what each names; `Err` with the seats still waited on.
    pub(super) fn cut(&self) -> Result<[u32; 4], Vec<u8>> {
        let missing: Vec<u8> = (0..4u8)
            .filter(|&s| self.audits[usize::from(s)].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        let mut cut = [0u32; 4];
        let mut unmet = Vec::new();
        for (y, a) in self.audits.iter().enumerate() {
            let Some(a) = a else { continue };
            cut[y] = cut[y].max(a.seq + 1);
            for (s, h) in a.heads.iter().enumerate() {
                if s == y {
                    // Its own chain is pinned by its audit's link.
                    continue;
                }
                if s != usize::from(self.me)
                    && h.count > 0
                    && self.chains[s].hash_at(h.count - 1) != Some(h.last)
                {
                    unmet.push(y as u8);
                }
                cut[s] = cut[s].max(h.count);
            }
        }
        let me = usize::from(self.me);
        cut[me] = cut[me].min(self.sent.len() as u32);
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
        if self.stage == Stage::Void {
            return Vec::new();
        }
        match self.cut() {
            Ok(_) => Vec::new(),
            Err(mut seats) => {
                seats.retain(|&s| s != self.me);
                seats
            }
        }
    }

    /// The verdict of an audit, from signed messages alone (see the module docs).
    pub(super) fn verdict(&mut self) {
        if let Some((&(seat, _), proof)) = self.forks.iter().next() {
            let proof = proof.clone();
            return self.conclude(Some(seat), Fault::Equivocation, proof);
        }
        let Ok(cut) = self.cut() else { return };
        let mut evidence: Vec<SignedEnvelope> = Vec::new();
        for (s, &n) in cut.iter().enumerate() {
            if s == usize::from(self.me) {
                evidence.extend(self.sent.iter().take(n as usize).cloned());
            } else {
                evidence.extend((0..n).filter_map(|q| self.chains[s].get(q).cloned()));
            }
        }
        let court = Court {
            sid: &self.hctx,
            keys: &self.cfg.keys,
            hctx: &self.hctx,
            order: self.order,
            table: &self.table,
            mode: self.cfg.proofs,
        };
        let v = adjudicate(&court, &evidence);
        if let (Some(seat), Some(fault)) = (v.offender, v.fault) {
            return self.conclude(Some(seat), fault, evidence);
        }
        match self.finding.take() {
            Some(b) if b.offender.is_some() => self.conclude(b.offender, b.fault, b.evidence),
            other => {
                let fault = other.map_or(Fault::OutOfOrder, |b| b.fault);
                self.conclude(None, fault, evidence);
            }
        }
    }

    pub(super) fn conclude(
        &mut self,
        offender: Option<u8>,
        fault: Fault,
        evidence: Vec<SignedEnvelope>,
    ) {
        self.stage = Stage::Void;
        self.need = None;
        self.events.push_back(Event::Fault(Blame {
            offender,
            fault,
            evidence,
        }));
    }
}
