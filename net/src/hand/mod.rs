//! `HandSession`: one seat's side of one hand, sans-IO.
//!
//! Every seat runs the same deterministic script over the public transcript: commitments,
//! the four shuffle steps, the deal (shares for every private card, the upcard opened, canasta
//! re-turns, red threes declared and replaced), then the play, in which a draw deals stock
//! positions privately to the drawer and a move shows its cards by opening their positions.
//! At the end every seat reveals its seed; the audit recomputes the shuffles, learns every card
//! and replays the whole hand with the rules, so the scores come from the true hands.
//!
//! Messages from each sender are processed in that sender's order; a message that arrives
//! before the script needs it waits, and a message of the wrong kind when the script waits on
//! its sender is a fault.
//!
//! Blame comes from evidence only (PROTOCOL.md §9.2): any fault, and any other seat's audit,
//! stops the hand at once and starts an audit. The seat sends its seed and its heads (what it
//! holds of each seat's chain) and passes on every envelope it holds from the others. When
//! every seat's audit is in and this seat holds everything the heads name, the verdict is
//! taken from the signed messages alone: equivocation first (two versions of one slot, or
//! envelopes that do not link), then `adjudicate` (proofs, shares, seeds, every shuffle
//! recomputed), then the first rules fault the script found; a card that fails to open or
//! opens twice names nobody by itself, the recomputed shuffles name the shuffler.

mod audit;
mod replay;
pub mod wire;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_core::{Card, Move, PlayerView, Position, RedThreeMode, Refusal, Rules, Seat};
use fairdeal_crypto::envelope::EnvelopeError;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{
    check_shuffle, deck_hash, hand_context, open_public, verify_commit, verify_share,
};
use fairdeal_crypto::{
    Accept, Body, CardTable, Chain, Ciphertext, CtBytes, Fault, HandCommit, HandKeys, HandSecret,
    Identity, Outbox, ProofMode, PublicKey, ShareItem, ShuffleMsg, SignedEnvelope, StepContext,
    Verified, check_step, make_step,
};

use self::wire::WireAction;

/// What a hand is played under; identical at every seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandConfig {
    /// The session (table) id.
    pub sid: [u8; 32],
    /// The seated identities, by seat index (S, W, N, E).
    pub keys: [PublicKey; 4],
    /// The rules.
    pub rules: Rules,
    /// The dealer.
    pub dealer: Seat,
    /// Team totals before the hand.
    pub scores: [i32; 2],
    /// The hand's number in the game.
    pub hand_no: u32,
    /// Hash of the previous hand's result (zeros for the first).
    pub prev_result: [u8; 32],
    /// Whether every shuffle step carries a proof (from the signed table configuration).
    pub proofs: ProofMode,
    /// Seats played by a computer player that took them over, replayed at the audit.
    pub bots: [Option<Replacement>; 4],
}

/// A computer player that took over a seat: its moves are the [`REPLACEMENT_STRATEGY`]'s
/// choices from the seat's view with [`replacement_rng`], which every seat checks at the
/// audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replacement {
    /// The seat whose client runs it (blamed if it steered it).
    pub runner: u8,
    /// The seed announced when it took the seat.
    pub seed: [u8; 32],
}

/// The strategy of every computer player that takes over a seat.
pub const REPLACEMENT_STRATEGY: &str = "expert";

/// The random numbers a replacement computer player uses in hand `hand_no`.
pub fn replacement_rng(seed: &[u8; 32], hand_no: u32) -> fairdeal_core::SplitMix64 {
    let h = fairdeal_crypto::hash::hash256(
        b"fairdeal/v1/replacement-rng",
        &[seed, &hand_no.to_le_bytes()],
    );
    let mut first = [0u8; 8];
    first.copy_from_slice(&h[..8]);
    fairdeal_core::SplitMix64::new(u64::from_le_bytes(first))
}

/// The outcome of a verified hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandReport {
    /// The hand's scores, team A and B, computed from the true hands.
    pub scores: [i32; 2],
    /// Shuffle steps recomputed from the revealed seeds.
    pub shuffles_checked: usize,
    /// Decryption shares checked during the hand.
    pub openings_checked: usize,
    /// Order-independent hash of every message of the hand.
    pub transcript_root: [u8; 32],
    /// The score item by item, team A and B (from the true hands).
    pub breakdown: [fairdeal_core::TeamScore; 2],
}

/// A seat named as a cheat, with the signed evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blame {
    /// The seat at fault (`None`: the hand is void but no seat can be proved at fault).
    pub offender: Option<u8>,
    /// What it did.
    pub fault: Fault,
    /// The signed messages that prove it.
    pub evidence: Vec<SignedEnvelope>,
}

/// What the session reports to the UI or the bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The deal is complete: this seat knows its hand.
    Dealt,
    /// A move was played and checked.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move.
        mv: Move,
    },
    /// The hand is over; the audit follows.
    HandOver,
    /// The audit passed and all four seats signed the same result.
    Complete(HandReport),
    /// A seat cheated (or the hand is void).
    Fault(Blame),
}

/// Bytes that were not accepted (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// Not a signed envelope of this table.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// Not decodable.
    #[error(transparent)]
    Decode(#[from] fairdeal_crypto::encoding::DecodeError),
    /// The hand is over or void.
    #[error("the hand is finished")]
    Finished,
}

/// Where the hand stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the four commitments.
    Commit,
    /// Waiting for shuffle step k (1..=4).
    Shuffle(u8),
    /// Dealing.
    Deal,
    /// Playing.
    Play,
    /// Waiting for the four seeds.
    Reveal,
    /// Waiting for the four signed results.
    Result,
    /// Verified and signed by all.
    Done,
    /// Stopped at a fault, its own or another seat's: every seat reveals its seed and what it
    /// holds; the verdict follows (then [`Stage::Void`]).
    Audit,
    /// Stopped by a fault.
    Void,
}

/// What the hand waits for from a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Awaiting {
    /// Its seed commitment.
    Commit,
    /// Its shuffle step.
    Shuffle,
    /// Its decryption shares.
    Shares,
    /// Its red threes shown.
    Declare,
    /// Its move: a player's decision, which may take as long as the player thinks.
    Move,
    /// Its seed, after the hand.
    Reveal,
    /// Its signed result.
    Result,
}

impl Awaiting {
    /// Whether this waits on a player's decision (any other message a client sends by itself
    /// within moments).
    pub fn is_decision(self) -> bool {
        matches!(self, Self::Move)
    }
}

/// What the script waits for next.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Need {
    /// Shares of `positions` for `to` (from the other three) or for everyone (`to: None`, all four).
    Shares { to: Option<u8>, positions: Vec<u16> },
    /// The initial deal: every seat's shares of everything but its own cards.
    InitialShares,
    /// `seat` shows the red threes among `candidates`.
    Declare { seat: u8, candidates: Vec<u16> },
}

/// The script step after the current need is met.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Script {
    /// Canasta re-turns, then red threes from the seat `k` places left of the dealer.
    Deal { k: u8 },
    /// A stock draw by `seat`, with the positions consumed so far.
    Draw { seat: u8, consumed: Vec<u16> },
}

/// How far ahead of the next expected sequence number a sender's message is kept while the
/// ones before it are missing (messages overtake each other in flight). A seat sends a few
/// hundred messages in a whole hand, so an honest gap is much smaller; a message further
/// ahead is dropped (the sender resends it), which bounds the per-sender `future` buffer.
const MAX_FUTURE: u32 = 1024;

/// The most messages kept per sender that arrived in order but that the script does not need
/// yet. An honest seat is never that far ahead (the script waits on every seat in turn); past
/// it a message is dropped before its chain advances, as if it had not arrived.
const MAX_INBOX: usize = 1024;

/// A declaration of red threes, kept for the audit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Declared {
    seat: u8,
    candidates: Vec<u16>,
    opened: Vec<u16>,
}

struct Inbound {
    body: Body,
    signed: SignedEnvelope,
}

/// One seat's side of one hand.
pub struct HandSession {
    cfg: HandConfig,
    me: u8,
    identity: Identity,
    hctx: [u8; 32],
    secret: HandSecret,
    table: Arc<CardTable>,
    outbox: Outbox,
    chains: [Chain; 4],
    future: [BTreeMap<u32, Verified>; 4],
    inbox: [VecDeque<Inbound>; 4],
    transcript: Vec<SignedEnvelope>,
    commits: [Option<HandCommit>; 4],
    keys: Option<HandKeys>,
    order: [u8; 4],
    steps: Vec<ShuffleMsg>,
    deck: Vec<Ciphertext>,
    shares: BTreeMap<(u16, u8), RistrettoPoint>,
    faces: BTreeMap<u16, Card>,
    /// The position each card id opened at (two positions with one id are a fault at once).
    ids: BTreeMap<u16, u16>,
    owner: BTreeMap<u16, u8>,
    cursor: u16,
    pile_positions: Vec<u16>,
    stage: Stage,
    need: Option<Need>,
    got: [bool; 4],
    script: Option<Script>,
    replica: Option<Position>,
    deal_public: Option<fairdeal_core::PublicState>,
    log: Vec<(Seat, Move)>,
    publics: Vec<fairdeal_core::PublicState>,
    declared: Vec<Declared>,
    seeds: [Option<[u8; 32]>; 4],
    results: [Option<([u8; 32], [i32; 2])>; 4],
    mine: Option<([u8; 32], [i32; 2])>,
    breakdown: [fairdeal_core::TeamScore; 2],
    openings_checked: usize,
    out: VecDeque<Vec<u8>>,
    events: VecDeque<Event>,
    /// Test knob (feature `cheats`): hide red threes instead of showing them.
    conceal: bool,
    concealed: std::collections::BTreeSet<u16>,
    /// Test knob (feature `cheats`): in our shuffle step, overwrite position `.1` with a
    /// re-randomised copy of position `.0`.
    copy_card: Option<(u16, u16)>,
    /// Test knob (feature `cheats`): in our shuffle step, position `.0` becomes a fresh
    /// encryption of card id `.1`.
    plant_card: Option<(u16, u16)>,
    /// Every envelope this seat signed in the hand, in order.
    sent: Vec<SignedEnvelope>,
    /// The hand is stopped: seeds and heads are being exchanged (see the module docs).
    auditing: bool,
    /// The script found a fault (or a message it cannot take): it processes nothing more.
    stopped: bool,
    /// The first fault the script found, with its suspect (`None`: nobody by itself).
    finding: Option<Blame>,
    /// Each seat's audit message, once received.
    audits: [Option<audit::AuditSeen>; 4],
    /// Proofs of equivocation by (seat, slot): two envelopes for one slot, or two that do
    /// not link.
    forks: BTreeMap<(u8, u32), Vec<SignedEnvelope>>,
}

impl std::fmt::Debug for HandSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandSession")
            .field("me", &self.me)
            .field("stage", &self.stage)
            .field("need", &self.need)
            .finish_non_exhaustive()
    }
}

/// The `cheats` knob: `deck[to]` becomes a re-randomised copy of `deck[from]`.
fn copy_card(msg: &mut ShuffleMsg, out: &[Ciphertext], keys: &HandKeys, from: u16, to: u16) {
    let (Some(src), Some(slot)) = (
        out.get(usize::from(from)),
        msg.deck.get_mut(usize::from(to)),
    ) else {
        return;
    };
    let r = curve25519_dalek::Scalar::from(7u8);
    *slot = Ciphertext {
        c1: src.c1 + r * curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT,
        c2: src.c2 + r * keys.joint(),
    }
    .to_bytes();
}

/// The core card of a card id (face `id % 54`; both jokers are the joker).
pub fn card_of_id(id: u16) -> Card {
    Card::from_index(usize::from(CardTable::face_index(id))).unwrap_or(Card::JOKER)
}

impl HandSession {
    /// Starts seat `me`'s side of a hand with a fresh `seed` (from the OS, persisted by the
    /// caller first). The commitment is queued at once.
    pub fn new(
        cfg: HandConfig,
        me: u8,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
    ) -> Self {
        let mut s = Self::build(cfg, me, identity, seed, table);
        s.pump();
        s
    }

    fn build(
        cfg: HandConfig,
        me: u8,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
    ) -> Self {
        let dealer = cfg.dealer.index() as u8;
        let hctx = hand_context(&cfg.sid, cfg.hand_no, dealer, &cfg.prev_result);
        let secret = HandSecret::new(hctx, me, seed);
        let deck_size = cfg.rules.deck_size() as u16;
        let dealt = (cfg.rules.hand_size * 4) as u16;
        Self {
            outbox: Outbox::new(hctx, me),
            order: [1, 2, 3, 4].map(|k| (dealer + k) % 4),
            cfg,
            me,
            identity,
            hctx,
            secret,
            table,
            chains: Default::default(),
            future: Default::default(),
            inbox: Default::default(),
            transcript: Vec::new(),
            commits: Default::default(),
            keys: None,
            steps: Vec::new(),
            deck: Vec::new(),
            shares: BTreeMap::new(),
            faces: BTreeMap::new(),
            ids: BTreeMap::new(),
            owner: BTreeMap::new(),
            cursor: (dealt + 1).min(deck_size),
            pile_positions: vec![dealt],
            stage: Stage::Commit,
            need: None,
            got: [false; 4],
            script: None,
            replica: None,
            deal_public: None,
            log: Vec::new(),
            publics: Vec::new(),
            declared: Vec::new(),
            seeds: [None; 4],
            results: [None; 4],
            mine: None,
            breakdown: Default::default(),
            openings_checked: 0,
            out: VecDeque::new(),
            events: VecDeque::new(),
            conceal: false,
            concealed: std::collections::BTreeSet::new(),
            copy_card: None,
            plant_card: None,
            sent: Vec::new(),
            auditing: false,
            stopped: false,
            finding: None,
            audits: Default::default(),
            forks: BTreeMap::new(),
        }
    }

    /// Makes this seat cheat by keeping red threes hidden (for tests of the audit).
    #[cfg(feature = "cheats")]
    pub fn cheat_conceal_red_threes(&mut self) {
        self.conceal = true;
    }

    /// Makes this seat cheat in its shuffle step: position `to` becomes a re-randomised copy of
    /// position `from` (its proof, if any, is left as it was), for tests of card identities.
    #[cfg(feature = "cheats")]
    pub fn cheat_copy_card(&mut self, from: u16, to: u16) {
        self.copy_card = Some((from, to));
    }

    /// Makes this seat cheat in its shuffle step: position `pos` becomes a fresh encryption of
    /// card id `id` (a wild card of its choice, say; its proof, if any, is left as it was).
    #[cfg(feature = "cheats")]
    pub fn cheat_plant_card(&mut self, pos: u16, id: u16) {
        self.plant_card = Some((pos, id));
    }

    /// The face of `pos` as this seat's replica may use it (concealed cards stay hidden).
    fn known_face(&self, pos: u16) -> Card {
        if self.concealed.contains(&pos) {
            return Card::HIDDEN;
        }
        self.faces.get(&pos).copied().unwrap_or(Card::HIDDEN)
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
        me: u8,
        identity: Identity,
        seed: [u8; 32],
        table: Arc<CardTable>,
        log: &[SignedEnvelope],
    ) -> Result<Self, SessionError> {
        let mut s = Self::build(cfg, me, identity, seed, table);
        for env in log {
            let v = env.verify(&s.hctx, &s.cfg.keys)?;
            if v.envelope.sender == me {
                s.outbox.resume(v.envelope.seq + 1, v.hash);
                s.sent.push(v.signed.clone());
                // Peers may have missed what was sent just before the crash: send it again
                // (they ignore exact duplicates).
                s.out.push_back(v.signed.to_wire());
                let body = Body::decode(&v.envelope.body)?;
                s.inbox[usize::from(me)].push_back(Inbound {
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
        self.hctx
    }

    /// This seat.
    pub fn seat(&self) -> Seat {
        Seat::from_index(usize::from(self.me))
    }

    /// Where the hand stands.
    pub fn stage(&self) -> Stage {
        if self.auditing && self.stage != Stage::Void {
            Stage::Audit
        } else {
            self.stage
        }
    }

    /// The next message to broadcast to the other three seats.
    #[must_use]
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    /// The next event for the UI or bot.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// This seat's view of the hand (once dealt).
    pub fn view(&self) -> Option<PlayerView> {
        self.replica.as_ref().map(|p| p.view(self.seat()))
    }

    /// The replica (hidden cards unknown), for display and tests.
    pub fn replica(&self) -> Option<&Position> {
        self.replica.as_ref()
    }

    /// Every message of the hand accepted so far (the log to persist and to audit).
    pub fn transcript(&self) -> &[SignedEnvelope] {
        &self.transcript
    }

    /// The seats whose message the hand is waiting for (for timeouts).
    pub fn waiting_on(&self) -> Vec<u8> {
        if self.auditing {
            return self.audit_waits();
        }
        (0..4u8)
            .filter(|&s| self.expects(s).is_some() && !self.has_queued(s))
            .collect()
    }

    /// What the hand waits for from each seat it waits on.
    pub fn awaiting(&self) -> Vec<(u8, Awaiting)> {
        if self.auditing {
            return self
                .audit_waits()
                .into_iter()
                .map(|s| (s, Awaiting::Reveal))
                .collect();
        }
        (0..4u8)
            .filter(|&s| !self.has_queued(s))
            .filter_map(|s| {
                let kind = match self.expects(s)? {
                    "commit" => Awaiting::Commit,
                    "shuffle" => Awaiting::Shuffle,
                    "shares" => Awaiting::Shares,
                    "declare" => Awaiting::Declare,
                    "move" => Awaiting::Move,
                    "reveal" => Awaiting::Reveal,
                    _ => Awaiting::Result,
                };
                Some((s, kind))
            })
            .collect()
    }

    /// The hand's scores `[A, B]` from this seat's audit, once every seed is in and the audit
    /// passed (before the four results are signed).
    pub fn audited(&self) -> Option<[i32; 2]> {
        self.mine.map(|(_, scores)| scores)
    }

    /// Moves played so far in the hand (each draw, meld, discard... counts one).
    pub fn turn_count(&self) -> usize {
        self.log.len()
    }

    /// How far the hand has come: grows with every message processed (a stuck hand stays put).
    pub fn progress(&self) -> usize {
        self.transcript.len()
            + self.results.iter().flatten().count()
            + self.audits.iter().flatten().count()
            + self.forks.len()
    }

    /// The next sequence number expected from each sender (`u32::MAX` for this seat): what a
    /// peer that resends may leave out.
    pub fn have(&self) -> [u32; 4] {
        let mut have = [0u32; 4];
        for (s, h) in have.iter_mut().enumerate() {
            *h = if s == usize::from(self.me) {
                u32::MAX
            } else {
                self.chains[s].next_seq()
            };
        }
        have
    }

    fn has_queued(&self, s: u8) -> bool {
        !self.inbox[usize::from(s)].is_empty()
    }

    /// Whether the hand waits for this seat to move.
    pub fn my_turn(&self) -> bool {
        !self.auditing
            && self.stage == Stage::Play
            && self.need.is_none()
            && self
                .replica
                .as_ref()
                .is_some_and(|p| p.actor() == self.seat())
    }

    /// Plays `mv` for this seat: validated on the replica, then signed and sent with the shares
    /// that open the cards it shows.
    ///
    /// # Errors
    ///
    /// The rules' refusal (or `not_your_turn` / `wrong_phase` outside this seat's turn).
    pub fn submit(&mut self, mv: Move) -> Result<(), Refusal> {
        if !self.my_turn() {
            return Err(Refusal::new(
                fairdeal_core::Code::NotYourTurn,
                "it is not your turn to act",
            ));
        }
        let Some(replica) = &self.replica else {
            return Err(Refusal::new(
                fairdeal_core::Code::WrongPhase,
                "the deal is not complete",
            ));
        };
        replica.validate(self.seat(), &mv)?;
        // Open the positions of the cards shown that the others cannot see.
        let me = self.seat();
        let mut public_part = replica.hand(me).clone();
        let mut mine: Vec<(u16, Card)> = self
            .owner
            .iter()
            .filter(|(p, o)| **o == self.me && !self.concealed.contains(p))
            .filter_map(|(&p, _)| self.faces.get(&p).map(|&f| (p, f)))
            .collect();
        for (_, f) in &mine {
            public_part.remove(*f);
        }
        let mut opened = Vec::new();
        for card in mv.cards() {
            if public_part.remove(card) {
                continue;
            }
            if let Some(i) = mine.iter().position(|(_, f)| *f == card) {
                let (p, _) = mine.swap_remove(i);
                opened.push(self.secret.share(p, &self.deck[usize::from(p)]));
            }
        }
        let turn = self.log.len() as u32;
        self.send(Body::Move {
            hctx: self.hctx,
            turn,
            action: WireAction::Play(mv).encode(),
            opened,
        });
        self.pump();
        Ok(())
    }

    /// Takes bytes from a peer.
    ///
    /// # Errors
    ///
    /// Bytes that are not a valid signed envelope of this table; nothing changes. Validly
    /// signed misbehaviour is not an error here: it is reported as [`Event::Fault`].
    pub fn handle_message(&mut self, bytes: &[u8]) -> Result<(), SessionError> {
        if matches!(self.stage, Stage::Void) {
            return Err(SessionError::Finished);
        }
        let env = SignedEnvelope::from_wire(bytes)?;
        let v = env.verify(&self.hctx, &self.cfg.keys)?;
        let sender = v.envelope.sender;
        if sender == self.me {
            // Our own messages come back only by replay: ignore them.
            return Ok(());
        }
        self.accept(v);
        self.pump();
        Ok(())
    }

    fn accept(&mut self, v: Verified) {
        let s = usize::from(v.envelope.sender);
        if self.inbox[s].len() >= MAX_INBOX {
            return;
        }
        match self.chains[s].accept(&v) {
            Accept::Next => {
                self.enqueue(v);
                while self.inbox[s].len() < MAX_INBOX
                    && let Some(next) = self.future[s].remove(&self.chains[s].next_seq())
                {
                    if self.chains[s].accept(&next) == Accept::Next {
                        self.enqueue(next);
                    }
                }
            }
            Accept::Duplicate => {}
            Accept::Gap { expected } => {
                if v.envelope.seq - expected < MAX_FUTURE {
                    self.future[s].insert(v.envelope.seq, v);
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
                    let first = self.chains[s].get(before).cloned();
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
        if self.forks.len() < MAX_FUTURE as usize {
            self.forks
                .entry((seat, seq))
                .or_insert_with(|| proof.clone());
        }
        self.blame(Some(seat), Fault::Equivocation, proof);
    }

    fn enqueue(&mut self, v: Verified) {
        let s = usize::from(v.envelope.sender);
        match Body::decode(&v.envelope.body) {
            Ok(body @ Body::Audit { .. }) if body.hctx() == &self.hctx => {
                self.inbox[s].push_back(Inbound {
                    body,
                    signed: v.signed,
                });
            }
            // After its audit a seat's messages count for nothing (but stay in its chain, as
            // evidence); once our script stopped, nothing more is processed.
            Ok(_) if self.audits[s].is_some() || self.stopped => {}
            Ok(body) if body.hctx() == &self.hctx => self.inbox[s].push_back(Inbound {
                body,
                signed: v.signed,
            }),
            Ok(_) => self.blame(Some(s as u8), Fault::WrongHand, vec![v.signed]),
            Err(_) => self.blame(Some(s as u8), Fault::BadEncoding, vec![v.signed]),
        }
    }

    fn send(&mut self, body: Body) {
        let signed = self.outbox.seal(&self.identity, body.encode());
        self.out.push_back(signed.to_wire());
        self.sent.push(signed.clone());
        self.inbox[usize::from(self.me)].push_back(Inbound { body, signed });
    }

    /// A fault found here: the script stops, the first finding is kept, and the audit starts
    /// (the verdict comes from the evidence, [`HandSession::verdict`]).
    fn blame(&mut self, offender: Option<u8>, fault: Fault, evidence: Vec<SignedEnvelope>) {
        if matches!(self.stage, Stage::Void | Stage::Done) {
            return;
        }
        self.stopped = true;
        if self.finding.is_none() {
            self.finding = Some(Blame {
                offender,
                fault,
                evidence,
            });
        }
        self.start_audit();
    }

    /// Processes queued messages until nothing more can move, then sends what is due; in an
    /// audit, gives the verdict once the evidence is complete.
    fn pump(&mut self) {
        self.run_script();
        if self.auditing && self.stage != Stage::Void {
            self.verdict();
        }
    }

    fn run_script(&mut self) {
        loop {
            self.act();
            let mut progress = false;
            for s in 0..4u8 {
                if self.stage == Stage::Void {
                    return;
                }
                progress |= self.take_audit(s);
                while !self.stopped
                    && let Some(front) = self.inbox[usize::from(s)].front()
                {
                    let body = front.body.clone();
                    let signed = front.signed.clone();
                    match self.process(s, &body, &signed) {
                        Ok(true) => {
                            self.inbox[usize::from(s)].pop_front();
                            if !matches!(body, Body::HandResult { .. }) {
                                self.transcript.push(signed);
                            }
                            progress = true;
                            self.act();
                        }
                        Ok(false) => break,
                        Err(fault) => {
                            let mut evidence = self.transcript.clone();
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

    /// What the script expects from `s` now, if anything (by body kind).
    fn expects(&self, s: u8) -> Option<&'static str> {
        let i = usize::from(s);
        match self.stage {
            Stage::Commit => self.commits[i].is_none().then_some("commit"),
            Stage::Shuffle(k) => (self.order[usize::from(k - 1)] == s).then_some("shuffle"),
            Stage::Deal | Stage::Play => match &self.need {
                Some(Need::InitialShares) => (!self.got[i]).then_some("shares"),
                Some(Need::Shares { to, .. }) => {
                    (*to != Some(s) && !self.got[i]).then_some("shares")
                }
                Some(Need::Declare { seat, .. }) => (*seat == s).then_some("declare"),
                None => (self.stage == Stage::Play
                    && self
                        .replica
                        .as_ref()
                        .is_some_and(|p| p.actor().index() == i))
                .then_some("move"),
            },
            Stage::Reveal => self.seeds[i].is_none().then_some("reveal"),
            Stage::Result => self.results[i].is_none().then_some("result"),
            Stage::Done | Stage::Audit | Stage::Void => None,
        }
    }

    fn process(&mut self, s: u8, body: &Body, signed: &SignedEnvelope) -> Result<bool, Fault> {
        let Some(expected) = self.expects(s) else {
            return Ok(false);
        };
        let _ = signed;
        let i = usize::from(s);
        match (expected, body) {
            ("commit", Body::HandCommit(c)) => {
                let key = verify_commit(&self.hctx, s, c)?;
                self.commits[i] = Some(c.clone());
                if self.commits.iter().all(Option::is_some) {
                    let keys: Vec<RistrettoPoint> = self
                        .commits
                        .iter()
                        .enumerate()
                        .map(|(k, c)| match c {
                            _ if k == i => Ok(key),
                            Some(c) => verify_commit(&self.hctx, k as u8, c),
                            None => Err(Fault::OutOfOrder),
                        })
                        .collect::<Result<_, _>>()?;
                    let keys =
                        HandKeys::new([keys[0], keys[1], keys[2], keys[3]]).map_err(|(_, f)| f)?;
                    self.keys = Some(keys);
                    self.deck = open_deck(&self.table);
                    self.stage = Stage::Shuffle(1);
                }
                Ok(true)
            }
            ("shuffle", Body::Shuffle(m)) => {
                let Stage::Shuffle(k) = self.stage else {
                    return Err(Fault::OutOfOrder);
                };
                let input: Vec<CtBytes> = self.steps.last().map_or_else(
                    || compress_deck(&open_deck(&self.table)),
                    |m| m.deck.clone(),
                );
                let Some(keys) = &self.keys else {
                    return Err(Fault::OutOfOrder);
                };
                // Our own step needs no proof check (we made it); every other is checked in
                // full, its proof included, before anything is built on the deck.
                let deck = if s == self.me {
                    check_shuffle(m, &self.hctx, k, &input, self.table.len())?
                } else {
                    let ctx = StepContext {
                        hctx: &self.hctx,
                        step: k,
                        seat: s,
                        input_bytes: &input,
                        input: &self.deck,
                        keys,
                        mode: self.cfg.proofs,
                    };
                    check_step(m, &ctx)?
                };
                self.deck = deck;
                self.steps.push(m.clone());
                if k == 4 {
                    self.stage = Stage::Deal;
                    self.set_need(Need::InitialShares);
                } else {
                    self.stage = Stage::Shuffle(k + 1);
                }
                Ok(true)
            }
            ("shares", Body::Shares { items, .. }) => {
                let want = self.share_positions_from(s);
                let got: Vec<u16> = items.iter().map(|it| it.pos).collect();
                if got != want {
                    return Err(Fault::OutOfOrder);
                }
                for item in items {
                    self.store_share(s, item)?;
                }
                self.got[i] = true;
                if self.need_met() {
                    self.after_shares()?;
                }
                Ok(true)
            }
            ("declare", Body::Move { action, opened, .. }) => {
                if WireAction::decode(action) != Ok(WireAction::RevealRedThrees {}) {
                    return Err(Fault::OutOfOrder);
                }
                let Some(Need::Declare { candidates, .. }) = self.need.clone() else {
                    return Err(Fault::OutOfOrder);
                };
                let mut shown = Vec::new();
                for item in opened {
                    if !candidates.contains(&item.pos) {
                        return Err(Fault::IllegalMove);
                    }
                    let face = self.open_held(s, item)?;
                    if !face.is_red_three() {
                        return Err(Fault::IllegalMove);
                    }
                    shown.push(item.pos);
                }
                self.declared.push(Declared {
                    seat: s,
                    candidates,
                    opened: shown.clone(),
                });
                self.after_declare(s, shown.len())?;
                Ok(true)
            }
            (
                "move",
                Body::Move {
                    action,
                    opened,
                    turn,
                    ..
                },
            ) => {
                if *turn as usize != self.log.len() {
                    return Err(Fault::OutOfOrder);
                }
                let Ok(WireAction::Play(mv)) = WireAction::decode(action) else {
                    return Err(Fault::IllegalMove);
                };
                self.play(s, mv, opened)?;
                Ok(true)
            }
            ("reveal", Body::HandReveal { seed, .. }) => {
                self.seeds[i] = Some(*seed);
                Ok(true)
            }
            (
                "result",
                Body::HandResult {
                    transcript_root,
                    scores,
                    ..
                },
            ) => {
                self.results[i] = Some((*transcript_root, *scores));
                if Some((*transcript_root, *scores)) != self.mine {
                    return Err(Fault::IllegalMove);
                }
                if self.results.iter().all(Option::is_some) {
                    self.stage = Stage::Done;
                    if let Some((root, scores)) = self.mine {
                        self.events.push_back(Event::Complete(HandReport {
                            scores,
                            shuffles_checked: 4,
                            openings_checked: self.openings_checked,
                            transcript_root: root,
                            breakdown: self.breakdown,
                        }));
                    }
                }
                Ok(true)
            }
            _ => Err(Fault::OutOfOrder),
        }
    }

    fn set_need(&mut self, need: Need) {
        self.need = Some(need);
        self.got = [false; 4];
    }

    fn need_met(&self) -> bool {
        (0..4u8).all(|s| self.expects(s).is_none())
    }

    /// The positions `s` must share for the current need.
    fn share_positions_from(&self, s: u8) -> Vec<u16> {
        match &self.need {
            Some(Need::InitialShares) => {
                let dealt = (self.cfg.rules.hand_size * 4) as u16;
                (0..=dealt)
                    .filter(|&p| p == dealt || self.deal_seat(p) != s)
                    .collect()
            }
            Some(Need::Shares { to, positions }) if *to != Some(s) => positions.clone(),
            _ => Vec::new(),
        }
    }

    /// The seat an initial-deal position goes to.
    fn deal_seat(&self, pos: u16) -> u8 {
        ((self.cfg.dealer.index() as u16 + 1 + pos) % 4) as u8
    }

    fn store_share(&mut self, s: u8, item: &ShareItem) -> Result<(), Fault> {
        let ct = self
            .deck
            .get(usize::from(item.pos))
            .ok_or(Fault::OutOfOrder)?;
        let d = if s == self.me {
            fairdeal_crypto::group::decompress(&item.d).ok_or(Fault::BadEncoding)?
        } else {
            let keys = self.keys.as_ref().ok_or(Fault::OutOfOrder)?;
            self.openings_checked += 1;
            verify_share(&self.hctx, s, keys, ct, item)?
        };
        self.shares.insert((item.pos, s), d);
        Ok(())
    }

    /// Opens a position held by `s` with its owner's share (the other three are in hand).
    fn open_held(&mut self, s: u8, item: &ShareItem) -> Result<Card, Fault> {
        if self.owner.get(&item.pos) != Some(&s) {
            return Err(Fault::IllegalMove);
        }
        self.store_share(s, item)?;
        // Its share checked out: a position that does not open is the deck's fault.
        let face = self
            .open_position(item.pos)?
            .ok_or(Fault::ShuffleMismatch)?;
        self.owner.remove(&item.pos);
        Ok(face)
    }

    /// Decrypts `pos` with the four shares held, or privately if it is ours and three are held
    /// (`None` if it does not open to a card).
    ///
    /// # Errors
    ///
    /// [`Fault::DuplicateCard`] if it opens to a card id another position already opened to:
    /// some shuffler copied a card, which no single message proves, so no seat is named.
    fn open_position(&mut self, pos: u16) -> Result<Option<Card>, Fault> {
        if let Some(&f) = self.faces.get(&pos) {
            return Ok(Some(f));
        }
        let Some(&ct) = self.deck.get(usize::from(pos)) else {
            return Ok(None);
        };
        let ds: Vec<RistrettoPoint> = (0..4u8)
            .filter_map(|s| self.shares.get(&(pos, s)).copied())
            .collect();
        let id = if ds.len() == 4 {
            open_public(&self.table, &ct, &ds)
        } else if ds.len() == 3 && !self.shares.contains_key(&(pos, self.me)) {
            self.secret.open_own(&self.table, &ct, &ds)
        } else {
            None
        };
        let Some(id) = id else {
            return Ok(None);
        };
        if self.ids.insert(id, pos).is_some_and(|other| other != pos) {
            return Err(Fault::DuplicateCard);
        }
        let face = card_of_id(id);
        self.faces.insert(pos, face);
        Ok(Some(face))
    }

    /// Sends what the script expects from this seat, once per need (nothing once the hand is
    /// stopped; the end-of-hand replay still runs in an audit, it sends nothing).
    fn act(&mut self) {
        if self.stopped {
            return;
        }
        if self.stage == Stage::Reveal
            && self.mine.is_none()
            && self.seeds.iter().all(Option::is_some)
        {
            self.finish_audit();
            return;
        }
        if self.auditing {
            return;
        }
        // One message at a time: ours is processed before we decide to send the next.
        if self.expects(self.me).is_none() || !self.inbox[usize::from(self.me)].is_empty() {
            return;
        }
        match self.stage {
            Stage::Commit => {
                let commit = self.secret.commit();
                self.send(Body::HandCommit(commit));
            }
            Stage::Shuffle(k)
                if self.order[usize::from(k - 1)] == self.me
                    && self.steps.len() == usize::from(k - 1) =>
            {
                let Some(keys) = &self.keys else { return };
                let input_bytes: Vec<CtBytes> = self.steps.last().map_or_else(
                    || compress_deck(&open_deck(&self.table)),
                    |m| m.deck.clone(),
                );
                let ctx = StepContext {
                    hctx: &self.hctx,
                    step: k,
                    seat: self.me,
                    input_bytes: &input_bytes,
                    input: &self.deck,
                    keys,
                    mode: self.cfg.proofs,
                };
                // The proof exists for every deck the rules deal (108, 162); were it refused,
                // the step goes out without one and the peers name this seat.
                let msg = match make_step(&self.secret, &ctx) {
                    Ok((mut msg, out)) => {
                        if let Some((from, to)) = self.copy_card {
                            copy_card(&mut msg, &out, keys, from, to);
                        }
                        if let Some((pos, id)) = self.plant_card
                            && let (Some(m), Some(slot)) =
                                (self.table.point(id), msg.deck.get_mut(usize::from(pos)))
                        {
                            let r = curve25519_dalek::Scalar::from(11u8);
                            *slot = Ciphertext {
                                c1: r * curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT,
                                c2: m + r * keys.joint(),
                            }
                            .to_bytes();
                        }
                        msg
                    }
                    Err(_) => {
                        let out = self.secret.shuffle(keys, &self.deck);
                        ShuffleMsg {
                            hctx: self.hctx,
                            step: k,
                            input_hash: deck_hash(&self.hctx, &input_bytes),
                            deck: compress_deck(&out),
                            proof: None,
                        }
                    }
                };
                self.send(Body::Shuffle(msg));
            }
            Stage::Deal | Stage::Play => {
                let Some(need) = self.need.clone() else {
                    return;
                };
                match need {
                    Need::InitialShares | Need::Shares { .. } => {
                        let items = self
                            .share_positions_from(self.me)
                            .into_iter()
                            .map(|p| self.secret.share(p, &self.deck[usize::from(p)]))
                            .collect();
                        self.send(Body::Shares {
                            hctx: self.hctx,
                            items,
                        });
                    }
                    Need::Declare { candidates, .. } => {
                        let reds: Vec<u16> = candidates
                            .iter()
                            .copied()
                            .filter(|p| self.faces.get(p).is_some_and(|f| f.is_red_three()))
                            .collect();
                        let opened = if self.conceal {
                            self.concealed.extend(reds);
                            Vec::new()
                        } else {
                            reds.iter()
                                .map(|&p| self.secret.share(p, &self.deck[usize::from(p)]))
                                .collect()
                        };
                        self.send(Body::Move {
                            hctx: self.hctx,
                            turn: self.log.len() as u32,
                            action: WireAction::RevealRedThrees {}.encode(),
                            opened,
                        });
                    }
                }
            }
            Stage::Reveal => {
                self.send(Body::HandReveal {
                    hctx: self.hctx,
                    seed: self.secret.seed(),
                });
            }
            Stage::Result => {
                if let Some((root, scores)) = self.mine {
                    self.send(Body::HandResult {
                        hctx: self.hctx,
                        transcript_root: root,
                        scores,
                    });
                }
            }
            _ => {}
        }
    }

    fn auto_red_threes(&self) -> bool {
        self.cfg.rules.red_three_mode == RedThreeMode::AutoReplace
    }

    fn stock_left(&self) -> u16 {
        self.table.len() as u16 - self.cursor
    }

    /// Takes the next `n` stock positions.
    fn take_stock(&mut self, n: u16) -> Vec<u16> {
        let n = n.min(self.stock_left());
        let out = (self.cursor..self.cursor + n).collect();
        self.cursor += n;
        out
    }

    fn after_shares(&mut self) -> Result<(), Fault> {
        let need = self.need.take();
        match need {
            Some(Need::InitialShares) => {
                let dealt = (self.cfg.rules.hand_size * 4) as u16;
                for p in 0..dealt {
                    let seat = self.deal_seat(p);
                    if seat == self.me {
                        self.open_position(p)?.ok_or(Fault::ShuffleMismatch)?;
                    }
                    self.owner.insert(p, seat);
                }
                self.open_position(dealt)?.ok_or(Fault::ShuffleMismatch)?;
                self.script = Some(Script::Deal { k: 0 });
                self.continue_deal()
            }
            Some(Need::Shares { to, positions }) => {
                match to {
                    None => {
                        for &p in &positions {
                            self.open_position(p)?.ok_or(Fault::ShuffleMismatch)?;
                        }
                    }
                    Some(t) => {
                        for &p in &positions {
                            if t == self.me {
                                self.open_position(p)?.ok_or(Fault::ShuffleMismatch)?;
                            }
                            self.owner.insert(p, t);
                        }
                    }
                }
                match self.script.clone() {
                    Some(Script::Deal { .. }) => {
                        if to.is_none() {
                            self.pile_positions.extend(&positions);
                        }
                        match to {
                            Some(t) => {
                                self.set_need(Need::Declare {
                                    seat: t,
                                    candidates: positions,
                                });
                                Ok(())
                            }
                            None => self.continue_deal(),
                        }
                    }
                    Some(Script::Draw { seat, mut consumed }) => {
                        consumed.extend(&positions);
                        self.script = Some(Script::Draw { seat, consumed });
                        if self.auto_red_threes() {
                            self.set_need(Need::Declare {
                                seat,
                                candidates: positions,
                            });
                            Ok(())
                        } else {
                            self.finish_draw()
                        }
                    }
                    None => Err(Fault::OutOfOrder),
                }
            }
            _ => Err(Fault::OutOfOrder),
        }
    }

    /// The deal after the initial shares: canasta re-turns, then red threes seat by seat.
    fn continue_deal(&mut self) -> Result<(), Fault> {
        let rules = &self.cfg.rules;
        if rules.preset == fairdeal_core::Preset::Canasta {
            let top = self
                .pile_positions
                .last()
                .and_then(|p| self.faces.get(p))
                .copied();
            if top.is_some_and(|c| c.is_wild() || c.is_red_three()) && self.stock_left() > 0 {
                let positions = self.take_stock(1);
                self.set_need(Need::Shares {
                    to: None,
                    positions,
                });
                return Ok(());
            }
        }
        let Some(Script::Deal { k }) = self.script.clone() else {
            return Err(Fault::OutOfOrder);
        };
        if self.auto_red_threes() && k < 4 {
            let seat = ((self.cfg.dealer.index() as u8) + 1 + k) % 4;
            let candidates: Vec<u16> = self
                .owner
                .iter()
                .filter(|(_, o)| **o == seat)
                .map(|(&p, _)| p)
                .collect();
            self.set_need(Need::Declare { seat, candidates });
            return Ok(());
        }
        self.build_replica()
    }

    fn after_declare(&mut self, seat: u8, red: usize) -> Result<(), Fault> {
        self.need = None;
        let more = if red > 0 && self.stock_left() > 0 {
            self.take_stock(red as u16)
        } else {
            Vec::new()
        };
        if !more.is_empty() {
            // Each red three shown is replaced by the next stock card, dealt privately.
            self.set_need(Need::Shares {
                to: Some(seat),
                positions: more,
            });
            return Ok(());
        }
        match self.script.clone() {
            Some(Script::Deal { k }) => {
                self.script = Some(Script::Deal { k: k + 1 });
                self.continue_deal()
            }
            Some(Script::Draw { .. }) => self.finish_draw(),
            None => Err(Fault::OutOfOrder),
        }
    }

    fn build_replica(&mut self) -> Result<(), Fault> {
        self.script = None;
        let deck: Vec<Card> = (0..self.table.len() as u16)
            .map(|p| self.known_face(p))
            .collect();
        let replica = Position::deal_partial(
            self.cfg.rules.clone(),
            self.cfg.dealer,
            self.cfg.scores,
            &deck,
        )
        .map_err(|_| Fault::ShuffleMismatch)?;
        if replica.stock_len() != usize::from(self.stock_left()) {
            return Err(Fault::HiddenCard);
        }
        self.deal_public = Some(replica.public_state());
        self.replica = Some(replica);
        self.stage = Stage::Play;
        self.events.push_back(Event::Dealt);
        Ok(())
    }

    fn play(&mut self, s: u8, mv: Move, opened: &[ShareItem]) -> Result<(), Fault> {
        let seat = Seat::from_index(usize::from(s));
        for item in opened {
            let face = self.open_held(s, item)?;
            if s != self.me {
                let replica = self.replica.as_mut().ok_or(Fault::OutOfOrder)?;
                if !replica.reveal_in_hand(seat, face) {
                    return Err(Fault::IllegalMove);
                }
            }
        }
        let replica = self.replica.as_mut().ok_or(Fault::OutOfOrder)?;
        if mv == (Move::Draw {}) && replica.stock_len() > 0 {
            replica
                .validate(seat, &mv)
                .map_err(|_| Fault::IllegalMove)?;
            let k = self.cfg.rules.draw_count as u16;
            let positions = self.take_stock(k);
            self.script = Some(Script::Draw {
                seat: s,
                consumed: Vec::new(),
            });
            self.set_need(Need::Shares {
                to: Some(s),
                positions,
            });
            return Ok(());
        }
        replica.apply(seat, &mv).map_err(|_| Fault::IllegalMove)?;
        self.record(seat, mv);
        Ok(())
    }

    fn finish_draw(&mut self) -> Result<(), Fault> {
        let Some(Script::Draw { seat, consumed }) = self.script.take() else {
            return Err(Fault::OutOfOrder);
        };
        self.need = None;
        let faces: Vec<Card> = consumed.iter().map(|&p| self.known_face(p)).collect();
        let who = Seat::from_index(usize::from(seat));
        let replica = self.replica.as_mut().ok_or(Fault::OutOfOrder)?;
        let before = replica.stock_len();
        replica.prime_stock(&faces);
        replica
            .apply(who, &Move::Draw {})
            .map_err(|_| Fault::IllegalMove)?;
        if before - replica.stock_len() != consumed.len() {
            return Err(Fault::HiddenCard);
        }
        // Red threes laid out are public now; the rest stays with the drawer.
        self.record(who, Move::Draw {});
        Ok(())
    }

    fn record(&mut self, seat: Seat, mv: Move) {
        let Some(replica) = &self.replica else { return };
        self.publics.push(replica.public_state());
        self.log.push((seat, mv.clone()));
        self.events.push_back(Event::Moved { seat, mv });
        if replica.is_over() {
            self.stage = Stage::Reveal;
            self.events.push_back(Event::HandOver);
        }
    }

    fn finish_audit(&mut self) {
        match replay::replay(self) {
            Ok((scores, breakdown)) => {
                self.breakdown = breakdown;
                let root = self.transcript_root();
                self.mine = Some((root, scores));
                self.stage = Stage::Result;
            }
            Err((offender, fault)) => {
                let evidence = self.transcript.clone();
                self.blame(offender, fault, evidence);
            }
        }
    }

    fn transcript_root(&self) -> [u8; 32] {
        let mut hashes: Vec<[u8; 32]> = self.transcript.iter().map(SignedEnvelope::hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        let refs: Vec<&[u8]> = hashes.iter().map(|h| h.as_slice()).collect();
        fairdeal_crypto::hash::hash256(b"fairdeal/v1/transcript", &refs)
    }
}
