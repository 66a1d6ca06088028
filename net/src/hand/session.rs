//! The session's plumbing: starting and restoring a seat, bytes in (each sender's chain, the
//! messages that overtook others, the queue of what the script has not taken yet) and bytes
//! out (signing, the outbox, the transcript), held in its [`Link`] (`session/link.rs`), and
//! the loop that feeds queued messages to the stage in each sender's order.

pub(super) mod link;

use std::collections::VecDeque;
use std::sync::Arc;

use fairdeal_core::Seat;
use fairdeal_crypto::{
    Accept, Body, CardTable, Fault, HandSecret, Identity, Outbox, SignedEnvelope, Verified,
};

use self::link::{Inbound, Link, MAX_FUTURE};
use super::audit::Audit;
use super::checks::Checks;
use super::stage::Phase;
use super::{Cheats, Ctx, HandConfig, HandSession, SessionError};

/// The most messages kept per sender that arrived in order but that the script does not need
/// yet. An honest seat is never that far ahead (the script waits on every seat in turn); past
/// it a message is dropped before its chain advances, as if it had not arrived.
const MAX_INBOX: usize = 1024;

impl HandSession {
    /// Starts seat `me`'s side of a hand with a fresh `seed` (from the OS, persisted by the
    /// caller first). The commitment is queued at once.
    pub fn new(
        cfg: HandConfig,
        me: Seat,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
    ) -> Self {
        let mut s = Self::build(cfg, me.number(), identity, seed, table);
        s.pump();
        s
    }

    pub(super) fn build(
        cfg: HandConfig,
        me: u8,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
    ) -> Self {
        let hctx = cfg.hctx();
        let secret = HandSecret::new(hctx, me, seed);
        Self {
            link: Link {
                identity,
                outbox: Outbox::new(hctx, me),
                chains: Default::default(),
                future: Default::default(),
                inbox: Default::default(),
                transcript: Vec::new(),
                sent: Vec::new(),
                out: VecDeque::new(),
            },
            ctx: Ctx {
                order: cfg.head.shuffle_order(),
                cfg,
                me,
                hctx,
                secret,
                table,
            },
            stage: Phase::start(),
            audit: Audit::default(),
            events: VecDeque::new(),
            cheats: Cheats::default(),
            checks: Checks::default(),
        }
    }

    /// Rebuilds a seat's session after a crash from its persisted seed and the messages it had
    /// accepted (its own included), in the order they were logged. Its own logged messages are
    /// queued again for the peers (who ignore duplicates); what is due now is queued after them.
    ///
    /// # Errors
    ///
    /// A logged message that is not a valid envelope of this hand (a corrupt log).
    pub fn restore(
        cfg: HandConfig,
        me: Seat,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
        log: &[SignedEnvelope],
    ) -> Result<Self, SessionError> {
        let me = me.number();
        let mut s = Self::build(cfg, me, identity, seed, table);
        for env in log {
            let v = env.verify(&s.ctx.hctx, &s.ctx.cfg.keys)?;
            if v.envelope.sender == me {
                s.link.outbox.resume(v.envelope.seq + 1, v.hash);
                s.link.sent.push(v.signed.clone());
                // Peers may have missed what was sent just before the crash: send it again
                // (they ignore exact duplicates).
                s.link.out.push_back(v.signed.to_wire());
                let body = Body::decode(&v.envelope.body)?;
                s.link.inbox[usize::from(me)].push_back(Inbound {
                    body,
                    signed: v.signed,
                });
            } else {
                s.accept(v);
            }
        }
        s.pump();
        Ok(s)
    }

    /// The hand context.
    pub fn hctx(&self) -> [u8; 32] {
        self.ctx.hctx
    }

    /// This seat.
    pub fn seat(&self) -> Seat {
        Seat::from_index(usize::from(self.ctx.me))
    }

    /// The next message to broadcast to the other three seats.
    #[must_use]
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.link.out.pop_front()
    }

    /// The next event for the UI or bot.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<super::Event> {
        self.events.pop_front()
    }

    /// Every message of the hand accepted so far (the log to persist and to audit).
    pub fn transcript(&self) -> &[SignedEnvelope] {
        &self.link.transcript
    }

    /// How far the hand has come: grows with every message processed (a stuck hand stays put).
    pub fn progress(&self) -> usize {
        self.link.transcript.len() + self.stage.results_in() + self.audit.progress()
    }

    /// The next sequence number expected from each sender (`u32::MAX` for this seat): what a
    /// peer that resends may leave out.
    pub fn have(&self) -> [u32; 4] {
        let mut have = [0u32; 4];
        for (s, h) in have.iter_mut().enumerate() {
            *h = if s == usize::from(self.ctx.me) {
                u32::MAX
            } else {
                self.link.chains[s].next_seq()
            };
        }
        have
    }

    pub(super) fn has_queued(&self, s: u8) -> bool {
        !self.link.inbox[usize::from(s)].is_empty()
    }

    /// Takes bytes from a peer.
    ///
    /// # Errors
    ///
    /// Bytes that are not a valid signed envelope of this table; nothing changes. Validly
    /// signed misbehaviour is not an error here: it is reported as [`super::Event::Fault`].
    pub fn handle_message(&mut self, bytes: &[u8]) -> Result<(), SessionError> {
        if self.stage.is_void() {
            return Err(SessionError::Finished);
        }
        let env = SignedEnvelope::from_wire(bytes)?;
        let v = env.verify(&self.ctx.hctx, &self.ctx.cfg.keys)?;
        let sender = v.envelope.sender;
        if sender == self.ctx.me {
            // Our own messages come back only by replay: ignore them.
            return Ok(());
        }
        self.accept(v);
        self.pump();
        Ok(())
    }

    fn accept(&mut self, v: Verified) {
        // INVARIANT: sender < 4: `SignedEnvelope::verify` found its key among the four.
        let s = usize::from(v.envelope.sender);
        if self.link.inbox[s].len() >= MAX_INBOX {
            return;
        }
        match self.link.chains[s].accept(&v) {
            Accept::Next => {
                self.enqueue(v);
                while self.link.inbox[s].len() < MAX_INBOX
                    && let Some(next) = self.link.future[s].remove(&self.link.chains[s].next_seq())
                {
                    if self.link.chains[s].accept(&next) == Accept::Next {
                        self.enqueue(next);
                    }
                }
            }
            Accept::Duplicate => {}
            Accept::Gap { expected } => {
                if v.envelope.seq - expected < MAX_FUTURE {
                    self.link.future[s].insert(v.envelope.seq, v);
                }
            }
            Accept::Equivocation(pair) => {
                let [a, b] = *pair;
                self.fork(s as u8, v.envelope.seq, vec![a, b]);
            }
            Accept::BrokenLink => match v.envelope.seq.checked_sub(1) {
                // The previous envelope it signed is not the one this links to: it signed
                // another version of it.
                Some(before) => {
                    let first = self.link.chains[s].get(before).cloned();
                    self.fork(
                        s as u8,
                        before,
                        first.into_iter().chain([v.signed]).collect(),
                    );
                }
                None => self.blame(Some(s as u8), Fault::OutOfOrder, vec![v.signed]),
            },
        }
    }

    /// Keeps a proof that `seat` equivocated at `seq` (once per slot, bounded by the chain).
    fn fork(&mut self, seat: u8, seq: u32, proof: Vec<SignedEnvelope>) {
        self.audit.keep_fork(seat, seq, &proof);
        self.blame(Some(seat), Fault::Equivocation, proof);
    }

    fn enqueue(&mut self, v: Verified) {
        let s = usize::from(v.envelope.sender);
        let hctx = self.ctx.hctx;
        match Body::decode(&v.envelope.body) {
            Ok(body @ Body::Audit { .. }) if body.hctx() == &hctx => {
                self.link.inbox[s].push_back(Inbound {
                    body,
                    signed: v.signed,
                });
            }
            // After its audit a seat's messages count for nothing (but stay in its chain, as
            // evidence); once our script stopped, nothing more is processed.
            Ok(_) if self.audit.has_audit_of(s) || self.audit.stopped() => {}
            Ok(body) if body.hctx() == &hctx => self.link.inbox[s].push_back(Inbound {
                body,
                signed: v.signed,
            }),
            Ok(_) => self.blame(Some(s as u8), Fault::WrongHand, vec![v.signed]),
            Err(_) => self.blame(Some(s as u8), Fault::BadEncoding, vec![v.signed]),
        }
    }

    /// Signs `body`, queues it for the peers and for our own script.
    pub(super) fn send(&mut self, body: Body) {
        if self.ctx.me == super::watch::WATCHER {
            // A spectator signs nothing that counts.
            return;
        }
        let signed = self.link.outbox.seal(&self.link.identity, body.encode());
        self.link.out.push_back(signed.to_wire());
        self.link.sent.push(signed.clone());
        // INVARIANT: me < 4: the table passes its own seat's position in the keys.
        self.link.inbox[usize::from(self.ctx.me)].push_back(Inbound { body, signed });
    }

    /// Processes queued messages until nothing more can move, then sends what is due; in an
    /// audit, gives the verdict once the evidence is complete.
    pub(super) fn pump(&mut self) {
        self.run_script();
        if self.audit.auditing() && !self.stage.is_void() {
            self.verdict();
        }
    }

    fn run_script(&mut self) {
        loop {
            self.act();
            let mut progress = false;
            for s in 0..4u8 {
                if self.stage.is_void() {
                    return;
                }
                progress |= self.take_audit(s);
                // A step is taken before its proof is checked: offloaded, the next steps are
                // taken meanwhile; in the session, the check runs before anything else is
                // taken (after our own next message, built on that step). Nothing past the
                // shuffle is taken before every step's proof passed.
                while !self.audit.stopped()
                    && ((self.checks.offloaded() && self.stage.is_shuffling())
                        || self.checks_passed())
                    && let Some(front) = self.link.inbox[usize::from(s)].front()
                {
                    let body = front.body.clone();
                    let signed = front.signed.clone();
                    match self.process(s, &body) {
                        Ok(true) => {
                            self.link.inbox[usize::from(s)].pop_front();
                            if !matches!(body, Body::HandResult { .. }) {
                                self.link.transcript.push(signed);
                            }
                            progress = true;
                            self.act();
                        }
                        Ok(false) => break,
                        Err(fault) => {
                            let mut evidence = self.link.transcript.clone();
                            evidence.push(signed);
                            // A card that does not open, or opens twice, and a deal that does
                            // not add up are the deck's fault, not this message's: nobody is
                            // named by them; the audit's recomputed shuffles name the shuffler.
                            let offender = (!matches!(
                                fault,
                                Fault::DuplicateCard
                                    | Fault::ShuffleMismatch
                                    | Fault::HiddenCard
                                    | Fault::DuplicateKey
                            ))
                            .then_some(s);
                            self.blame(offender, fault, evidence);
                            if !self.audit.stopped() {
                                // The scores stand and the hand goes on (the sender is only
                                // named): the message is dropped, or it would be taken, and
                                // refused, again for ever.
                                self.link.inbox[usize::from(s)].pop_front();
                            }
                            progress = true;
                            break;
                        }
                    }
                }
            }
            if !progress {
                return;
            }
        }
    }
}
