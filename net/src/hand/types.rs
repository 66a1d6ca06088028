//! The public types of a hand: what it is played under ([`HandConfig`]), what it reports
//! ([`Event`], [`HandReport`], [`Blame`]), where it stands ([`Stage`], [`Awaiting`]) and the
//! computer players that take over a seat.

use fairdeal_core::{Card, Cards, Move, Rules, Seat};
use fairdeal_crypto::envelope::EnvelopeError;
use fairdeal_crypto::{Fault, ProofMode, PublicKey, SignedEnvelope};
use serde::{Deserialize, Serialize};

use super::DealHead;

/// What a hand is played under; identical at every seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandConfig {
    /// The session (table) id.
    pub sid: [u8; 32],
    /// The seated identities, by seat index (S, W, N, E).
    pub keys: [PublicKey; 4],
    /// The rules.
    pub rules: Rules,
    /// The deal's number, dealer, team totals before it and the previous deal's result: what
    /// its header states and its hand context binds.
    pub head: DealHead,
    /// Whether every shuffle step carries a proof (from the signed table configuration).
    pub proofs: ProofMode,
    /// Seats played by a computer player that took them over, replayed at the audit.
    pub bots: [Option<Replacement>; 4],
}

impl HandConfig {
    /// The deal's hand context: the table id, its head and the keys that sign it, hashed.
    pub fn hctx(&self) -> [u8; 32] {
        self.head.hctx(&self.sid, &self.keys)
    }
}

/// A computer player that took over a seat: its moves are the [`REPLACEMENT_STRATEGY`]'s
/// choices from the seat's view with [`replacement_rng`], which every seat checks at the
/// audit. A deal's header in the transcript names each one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    /// The seat whose client runs it (blamed if it steered it).
    #[serde(with = "crate::seat_wire::one")]
    pub runner: Seat,
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

/// The seat of a sender number inside the hand (an envelope that verified against the four
/// keys names one of them; anything else names nobody).
pub(crate) fn seat(n: u8) -> Option<Seat> {
    Seat::try_from(n).ok()
}

/// A seat named as a cheat, with the signed evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blame {
    /// The seat at fault (`None`: the hand is void but no seat can be proved at fault).
    pub offender: Option<Seat>,
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
        /// What it did that the move alone does not say.
        effect: MoveEffect,
    },
    /// The hand is over; the audit follows.
    HandOver,
    /// The audit passed and all four seats signed the same result.
    Complete(HandReport),
    /// A seat cheated (or the hand is void).
    Fault(Blame),
    /// This seat's own state broke a promise the hand relies on (a fault in this program,
    /// not evidence against any seat). The audit that follows is this seat's own: unless it
    /// proves another seat at fault, it counts against this seat ([`Event::Fault`] names it).
    Broken(HandBug),
    /// A seat proven at fault once the hand's scores were audited (a result that is not the
    /// audited one, two versions of one message): the audited scores stand, the seat is named
    /// and is out of the game.
    Named(Blame),
}

/// What a move did that the move alone does not say, as this seat sees it (so that a front
/// end can show it without the position before the move, after a resume say).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// This seat's own move: the cards it brought into this seat's hand (a draw's stock
    /// cards, the pile's cards a pickup kept in hand). Empty for the others' moves.
    pub drawn: Vec<Card>,
    /// A pickup or take of the top card: the pile as it was before, bottom first. Empty for
    /// other moves.
    pub pile: Vec<Card>,
    /// The red threes the move laid out beside the mover's team (a draw's, replaced from the
    /// stock, or a pickup's).
    pub red_threes: Vec<Card>,
}

impl MoveEffect {
    /// What `mv` did: `hands` is the mover's hand before and after (given for this seat's own
    /// move only), `pile` the pile before it, `red_threes` the mover's team's red threes
    /// before and after.
    pub fn of(
        mv: &Move,
        hands: Option<(&Cards, &Cards)>,
        pile: &[Card],
        red_threes: (&[Card], &[Card]),
    ) -> Self {
        let drawn = hands.map_or_else(Vec::new, |(before, after)| {
            let mut had = before.clone();
            after.iter().filter(|&c| !had.remove(c)).collect()
        });
        let pile = if matches!(mv, Move::Pickup { .. } | Move::TakeTop { .. }) {
            pile.to_vec()
        } else {
            Vec::new()
        };
        let (old, new) = red_threes;
        Self {
            drawn,
            pile,
            red_threes: new.get(old.len()..).unwrap_or_default().to_vec(),
        }
    }
}

/// A promise of this seat's own state that the end-of-hand audit found broken: a bug here,
/// never a seat's fault. (A seat's fault found by the same audit is a [`Fault`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HandBug {
    /// The audit ran before every seed was in.
    #[error("the end-of-hand audit ran before every seed was in")]
    SeedsMissing,
    /// The deck as dealt holds other than four shuffle steps.
    #[error("the end-of-hand audit found the deck without its four shuffle steps")]
    ShuffleSteps,
    /// A card opened during the hand (through checked shares) is not the card the audit
    /// recomputed from the seeds.
    #[error("a card opened during the hand is not the one the audit recomputed")]
    FacesDisagree,
    /// The cards the audit recomputed do not make a deal.
    #[error("the cards the audit recomputed do not make a deal")]
    NoDeal,
    /// The hand replayed from the true hands is not over, though it was played to its end.
    #[error("the hand replayed from the true hands is not over")]
    NotOver,
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

/// What the hand waits for from a seat (also what the script expects of a seat next).
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
