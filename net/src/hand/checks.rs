//! The proof checks of the other seats' shuffle steps, kept apart from the steps: a step from
//! another seat is taken on its form (every point decodes, it answers the deck before it) and
//! the check of its zero-knowledge proof is queued here. Nothing that opens a card is sent,
//! and no message past the shuffle is taken, until every queued check has passed
//! (PROTOCOL.md §5).
//!
//! The checks run in the session (the default), each just after the seat's own next message,
//! or, offloaded ([`HandSession::set_offload`]), they are handed out as [`ProofCheck`]s for
//! the caller to run where it likes: the node runs them on a thread of lower priority, so
//! that the seat proving the next step keeps a core. Each comes back as a [`CheckDone`]
//! through [`HandSession::check_done`]. A check owns everything it needs, so it runs without
//! the session.

use fairdeal_crypto::{
    Ciphertext, CtBytes, Fault, HandKeys, ProofMode, ShuffleMsg, StepContext, check_step_proof,
};

use super::HandSession;

/// Which check: the hand, the seat whose session asked for it, and the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckId {
    /// The hand context.
    pub hctx: [u8; 32],
    /// The seat of the session that asked (a node may run two: its own and one it stands
    /// in for).
    pub me: u8,
    /// The shuffle step (1..=4).
    pub step: u8,
}

/// The proof check of one shuffle step, with everything it needs (see [`ProofCheck::run`]).
pub struct ProofCheck {
    pub(super) id: CheckId,
    /// The step's shuffler.
    pub(super) seat: u8,
    pub(super) msg: ShuffleMsg,
    /// The deck it started from: as signed, and as points.
    pub(super) input_bytes: Vec<CtBytes>,
    pub(super) input: Vec<Ciphertext>,
    /// The deck it gave, as points.
    pub(super) output: Vec<Ciphertext>,
    pub(super) keys: HandKeys,
    pub(super) mode: ProofMode,
}

impl std::fmt::Debug for ProofCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofCheck")
            .field("id", &self.id)
            .field("seat", &self.seat)
            .finish_non_exhaustive()
    }
}

/// The result of a [`ProofCheck`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckDone {
    /// Which check.
    pub id: CheckId,
    /// `Err` names the fault of the step's shuffler.
    pub outcome: Result<(), Fault>,
}

impl ProofCheck {
    /// Which check this is.
    pub fn id(&self) -> CheckId {
        self.id
    }

    /// Checks the proof (the costly part: a few multiscalar multiplications over the deck).
    pub fn run(&self) -> CheckDone {
        let ctx = StepContext {
            hctx: &self.id.hctx,
            step: self.id.step,
            seat: self.seat,
            input_bytes: &self.input_bytes,
            input: &self.input,
            keys: &self.keys,
            mode: self.mode,
        };
        CheckDone {
            id: self.id,
            outcome: check_step_proof(&self.msg, &ctx, &self.output),
        }
    }
}

/// The checks of a hand not yet passed.
#[derive(Default)]
pub(super) struct Checks {
    /// Whether the caller runs them.
    offload: bool,
    /// Not yet run (nor handed out), in step order.
    queued: Vec<ProofCheck>,
    /// Handed out: each check's step and shuffler, its result awaited.
    out: Vec<(u8, u8)>,
}

impl Checks {
    /// Queues the check of a step taken on its form.
    pub(super) fn queue(&mut self, check: ProofCheck) {
        self.queued.push(check);
    }

    /// Whether every queued check has passed.
    pub(super) fn clear(&self) -> bool {
        self.queued.is_empty() && self.out.is_empty()
    }

    /// Whether the caller runs the checks.
    pub(super) fn offloaded(&self) -> bool {
        self.offload
    }

    /// Runs every check not handed out, in step order: `Err` names the first bad step's
    /// shuffler.
    fn run_queued(&mut self) -> Result<(), (u8, Fault)> {
        for check in std::mem::take(&mut self.queued) {
            check.run().outcome.map_err(|f| (check.seat, f))?;
        }
        Ok(())
    }

    /// Takes back a result handed out: `None` for a check it does not know (or knows no
    /// more), else `Err` with the step's shuffler for a failed one.
    fn take_result(&mut self, done: &CheckDone) -> Option<Result<(), (u8, Fault)>> {
        let at = self.out.iter().position(|&(k, _)| k == done.id.step)?;
        let (_, seat) = self.out.remove(at);
        Some(done.outcome.map_err(|f| (seat, f)))
    }
}

impl HandSession {
    /// Hands the proof checks of the other seats' shuffle steps to the caller
    /// ([`Self::poll_check`], [`Self::check_done`]) instead of running them here. Off by
    /// default. Turned off, the checks not handed out run here again.
    pub fn set_offload(&mut self, on: bool) {
        self.checks.offload = on;
        if !on {
            self.pump();
        }
    }

    /// The next proof check to run, once offloaded: run it ([`ProofCheck::run`]) and give its
    /// result to [`Self::check_done`]. Nothing past the shuffle is sent or taken before then.
    pub fn poll_check(&mut self) -> Option<ProofCheck> {
        if !self.checks.offload || self.queued_behind_void() || self.checks.queued.is_empty() {
            return None;
        }
        let check = self.checks.queued.remove(0);
        self.checks.out.push((check.id.step, check.seat));
        Some(check)
    }

    /// Takes the result of a check handed out by [`Self::poll_check`]: a failed one stops the
    /// hand, its shuffler named; a passed one lets the hand go on. A result this session did
    /// not ask for (another hand's, another seat's, a repeat) is ignored.
    pub fn check_done(&mut self, done: &CheckDone) {
        if done.id.hctx != self.ctx.hctx || done.id.me != self.ctx.me {
            return;
        }
        match self.checks.take_result(done) {
            None => {}
            Some(Ok(())) => self.pump(),
            Some(Err((seat, fault))) => self.bad_step(seat, fault),
        }
    }

    /// Whether nothing is left to check before the hand goes past the shuffle: in the
    /// session, the queued checks run now (`false` once one failed, the hand stopped); offloaded,
    /// `false` until every result is in.
    pub(super) fn checks_passed(&mut self) -> bool {
        if self.checks.clear() {
            return true;
        }
        if self.checks.offload {
            return false;
        }
        match self.checks.run_queued() {
            Ok(()) => self.checks.clear(),
            Err((seat, fault)) => {
                self.bad_step(seat, fault);
                false
            }
        }
    }

    /// A step's proof failed: the hand stops, its shuffler named from the transcript (the
    /// step is in it).
    fn bad_step(&mut self, seat: u8, fault: Fault) {
        self.checks.queued.clear();
        self.checks.out.clear();
        let evidence = self.link.transcript().to_vec();
        self.blame(Some(seat), fault, evidence);
    }

    /// Whether the hand is stopped, so that its checks no longer matter.
    fn queued_behind_void(&self) -> bool {
        self.audit.stopped() || self.stage.is_finished()
    }
}
