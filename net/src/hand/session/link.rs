//! The signed messages of one hand, in and out ([`Link`]): this seat's outbox and what it
//! signed, each sender's chain of envelopes accepted in order, the messages that overtook
//! others, the queue of what the script has not taken yet ([`Inbound`]), the transcript and
//! the bytes to broadcast. The session (`session.rs`) builds and feeds it; the audit reads the
//! chains and queues through it.

use std::collections::{BTreeMap, VecDeque};

use fairdeal_crypto::{Body, Chain, Head, Identity, Outbox, SignedEnvelope, Verified};

/// How far ahead of the next expected sequence number a sender's message is kept while the
/// ones before it are missing (messages overtake each other in flight). A seat sends a few
/// hundred messages in a whole hand, so an honest gap is much smaller; a message further
/// ahead is dropped (the sender resends it), which bounds the per-sender `future` buffer.
pub(in crate::hand) const MAX_FUTURE: u32 = 1024;

/// A message accepted in its sender's order, waiting for the script.
pub(in crate::hand) struct Inbound {
    /// The message.
    pub(in crate::hand) body: Body,
    /// Its envelope, as evidence.
    pub(in crate::hand) signed: SignedEnvelope,
}

/// The signed messages of the hand, in and out.
pub(in crate::hand) struct Link {
    pub(super) identity: Identity,
    pub(super) outbox: Outbox,
    /// Each sender's chain of envelopes accepted in order.
    pub(super) chains: [Chain; 4],
    /// Messages that arrived ahead of one still missing, by sender and sequence number.
    pub(super) future: [BTreeMap<u32, Verified>; 4],
    /// Messages accepted in order that the script has not taken yet, by sender.
    pub(super) inbox: [VecDeque<Inbound>; 4],
    /// Every message the script took (the log to persist and to audit).
    pub(super) transcript: Vec<SignedEnvelope>,
    /// Every envelope this seat signed in the hand, in order.
    pub(super) sent: Vec<SignedEnvelope>,
    /// Wire bytes to broadcast.
    pub(super) out: VecDeque<Vec<u8>>,
}

impl Link {
    /// Every message the script took.
    pub(in crate::hand) fn transcript(&self) -> &[SignedEnvelope] {
        &self.transcript
    }

    /// `s`'s first queued audit message, without taking it: its heads, and whether `s`
    /// signed a result, and a reveal, before it.
    pub(in crate::hand) fn peek_audit(&self, s: u8) -> Option<([Head; 4], bool, bool)> {
        let inbox = &self.inbox[usize::from(s)];
        let at = inbox
            .iter()
            .position(|m| matches!(m.body, Body::Audit { .. }))?;
        let Body::Audit { heads, .. } = &inbox.get(at)?.body else {
            return None;
        };
        let before = |f: fn(&Body) -> bool| inbox.iter().take(at).any(|m| f(&m.body));
        Some((
            *heads,
            before(|b| matches!(b, Body::HandResult { .. })),
            before(|b| matches!(b, Body::HandReveal { .. })),
        ))
    }

    /// Takes `s`'s first audit message out of its queue, wherever it stands, with everything
    /// queued after it (what it sent before stays to be processed).
    pub(in crate::hand) fn take_audit_message(&mut self, s: u8) -> Option<Inbound> {
        let inbox = &mut self.inbox[usize::from(s)];
        let at = inbox
            .iter()
            .position(|m| matches!(m.body, Body::Audit { .. }))?;
        inbox.split_off(at).pop_front()
    }

    /// Queues `wire` bytes for the peers.
    pub(in crate::hand) fn push_out(&mut self, wire: Vec<u8>) {
        self.out.push_back(wire);
    }

    /// What this seat holds of each chain (its own: what it signed).
    pub(in crate::hand) fn heads(&self, me: u8) -> [Head; 4] {
        std::array::from_fn(|s| {
            if s == usize::from(me) {
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
        })
    }

    /// Queues every envelope held from the seats other than `me` for the peers.
    pub(in crate::hand) fn pass_on_chains(&mut self, me: u8) {
        for s in (0..4u8).filter(|&s| s != me) {
            let chain = &self.chains[usize::from(s)];
            for seq in 0..chain.next_seq() {
                if let Some(env) = chain.get(seq) {
                    self.out.push_back(env.to_wire());
                }
            }
        }
    }

    /// The envelope held at `seq` of seat `s`'s chain (ours, `me`: what we signed).
    pub(in crate::hand) fn envelope_at(
        &self,
        me: u8,
        s: usize,
        seq: u32,
    ) -> Option<&SignedEnvelope> {
        if s == usize::from(me) {
            self.sent.get(seq as usize)
        } else {
            self.chains.get(s)?.get(seq)
        }
    }

    /// The first `cut[s]` envelopes of each chain (ours from what we signed).
    pub(in crate::hand) fn evidence(&self, me: u8, cut: &[u32; 4]) -> Vec<SignedEnvelope> {
        let mut evidence = Vec::new();
        for (s, &n) in cut.iter().enumerate() {
            if s == usize::from(me) {
                evidence.extend(self.sent.iter().take(n as usize).cloned());
            } else {
                evidence.extend((0..n).filter_map(|q| self.chains[s].get(q).cloned()));
            }
        }
        evidence
    }

    /// The order-independent hash of every message the script took.
    pub(in crate::hand) fn transcript_root(&self) -> [u8; 32] {
        let mut hashes: Vec<[u8; 32]> = self.transcript.iter().map(SignedEnvelope::hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        let refs: Vec<&[u8]> = hashes.iter().map(|h| h.as_slice()).collect();
        fairdeal_crypto::hash::hash256(b"fairdeal/v1/transcript", &refs)
    }
}
