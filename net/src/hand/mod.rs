//! `HandSession`: one seat's side of one hand, sans-IO. This file owns the session's shape;
//! each stage of the hand is a type in its own file (the map is below).
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
//! every seat's audit is in, the verdict is taken from the signed messages alone (each chain
//! through its seat's audit): equivocation first (two versions of one slot, or envelopes that
//! do not link), then a false head, then `adjudicate` (proofs, shares, seeds, every shuffle
//! recomputed), then the first rules fault the script found; a card that fails to open or
//! opens twice names nobody by itself, the recomputed shuffles name the shuffler. An audit
//! that proves nothing counts against the seat that started it. Once the scores are audited
//! (every seed in, an audit's included) nothing stops the hand: a false result names its
//! signer and the audited scores stand.
//!
//! Where things are: `types.rs` (the public types), `ctx.rs` (what the whole hand is fixed
//! by, and the test knobs), `session.rs` (starting and restoring a seat, bytes in and out, the
//! loop that feeds the script) with `session/link.rs` (each sender's chain and queue, the
//! outbox, the transcript), `stage.rs` (the [`Phase`] enum, what each stage expects, and this
//! seat's own move), `shuffle.rs` (commitments and the four shuffle steps), `checks.rs` (the
//! steps' proof checks, run here or handed out), `cards.rs` (the shuffled deck and every card
//! opened from it), `deal.rs` (the deal, following core's `DealScript`), `head.rs` (where the game stands at
//! a deal's start, and the one rule for the next deal's head), `play.rs` (moves and
//! stock draws), `board.rs` (the position as played), `reveal.rs` (seeds, the audit of a
//! finished hand, the signed results), `replay.rs` (that audit's rules replay), `audit.rs`
//! (the audit at a fault and its verdict), `watch.rs` (a spectator's session: no seat, no
//! secret that counts, nothing sent), `wire.rs` (a move's action on the wire).

mod audit;
mod board;
mod cards;
mod checks;
mod ctx;
mod deal;
mod head;
mod play;
mod replay;
mod reveal;
mod session;
mod shuffle;
mod stage;
mod takeovers;
mod types;
mod watch;
pub mod wire;

use std::collections::VecDeque;

pub use self::cards::card_of_id;
pub use self::checks::{CheckDone, CheckId, ProofCheck};
pub use self::head::{DealHead, Ending, add_scores, void_marker};
pub use self::takeovers::{Takeovers, quit_stands};
pub use self::types::{
    Awaiting, Blame, Event, HandBug, HandConfig, HandReport, MoveEffect, REPLACEMENT_STRATEGY,
    Replacement, SessionError, Stage, replacement_rng,
};

use self::audit::Audit;
use self::checks::Checks;
use self::ctx::{Cheats, Ctx};
use self::session::link::Link;
use self::stage::Phase;
use self::types::seat;
pub use self::watch::WATCHER;

/// One seat's side of one hand.
pub struct HandSession {
    ctx: Ctx,
    /// The signed messages in and out.
    link: Link,
    /// Where the hand stands, with what that stage needs.
    stage: Phase,
    /// The audit at a fault, once one started.
    audit: Audit,
    events: VecDeque<Event>,
    cheats: Cheats,
    /// The proof checks of the other seats' shuffle steps not yet passed.
    checks: Checks,
}

impl std::fmt::Debug for HandSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandSession")
            .field("me", &self.ctx.me)
            .field("stage", &self.stage())
            .field("awaiting", &self.awaiting())
            .finish_non_exhaustive()
    }
}

impl HandSession {
    /// Makes this seat cheat by keeping red threes hidden (for tests of the audit).
    #[cfg(feature = "cheats")]
    pub fn cheat_conceal_red_threes(&mut self) {
        self.cheats.conceal = true;
    }

    /// Makes this seat cheat in its shuffle step: position `to` becomes a re-randomised copy of
    /// position `from` (its proof, if any, is left as it was), for tests of card identities.
    #[cfg(feature = "cheats")]
    pub fn cheat_copy_card(&mut self, from: u16, to: u16) {
        self.cheats.copy_card = Some((from, to));
    }

    /// Makes this seat cheat in its shuffle step: position `pos` becomes a fresh encryption of
    /// card id `id` (a wild card of its choice, say; its proof, if any, is left as it was).
    #[cfg(feature = "cheats")]
    pub fn cheat_plant_card(&mut self, pos: u16, id: u16) {
        self.cheats.plant_card = Some((pos, id));
    }

    /// Breaks this seat's own state instead of cheating: at the end-of-hand audit a card it
    /// opened during the hand is remembered as another, for tests that a bug of ours is not
    /// reported as a seat's fault.
    #[cfg(feature = "cheats")]
    pub fn break_own_memory_of_a_card(&mut self) {
        self.cheats.misremember = true;
    }
}
