//! The stages of a hand as types: [`Phase`] holds, for each stage, only what that stage needs
//! (commitments, then the shuffle, the deal, the play, the seeds, the signed results), and a
//! stage hands what the next one needs on when it ends. This file routes what the session
//! asks of the hand (what it expects of a seat, what to do with a message, what to send, this
//! seat's own move: [`HandSession::submit`]) to the stage's own file; the public [`Stage`] is
//! the stage's name without its data.

use fairdeal_core::{Move, PlayerView, Position, Refusal, Seat};
use fairdeal_crypto::{Body, Fault};

use super::board::Board;
use super::deal::Dealing;
use super::play::Playing;
use super::replay::Finding;
use super::reveal::{Revealing, Signing};
use super::shuffle::{Committing, Shuffling};
use super::{Awaiting, Blame, Event, HandBug, HandSession, Stage};

/// Where the hand stands, with the data of that stage.
pub(super) enum Phase {
    /// Waiting for the four commitments.
    Commit(Box<Committing>),
    /// The four shuffle steps, one seat after another.
    Shuffle(Box<Shuffling>),
    /// Dealing, following core's deal script.
    Deal(Box<Dealing>),
    /// Playing.
    Play(Box<Playing>),
    /// Waiting for the four seeds.
    Reveal(Box<Revealing>),
    /// Audited; waiting for the four signed results.
    Result(Box<Signing>),
    /// Verified and signed by all.
    Done(Box<Signing>),
    /// Stopped by a fault, with the verdict and the stage it stopped at.
    Void(Box<Voided>),
}

/// A void hand: the verdict, and the stage it stopped at (what was played stays visible).
pub(super) struct Voided {
    /// The verdict: a fault, or a bug of this seat's (nobody's fault).
    verdict: Result<Blame, HandBug>,
    /// The stage the hand stopped at.
    at: Phase,
}

impl Phase {
    /// The first stage.
    pub(super) fn start() -> Self {
        Self::Commit(Box::default())
    }

    /// Whether the hand is void.
    pub(super) fn is_void(&self) -> bool {
        matches!(self, Self::Void(_))
    }

    /// Whether the hand is still at its commitments or shuffle steps (taken before their
    /// proofs are checked).
    pub(super) fn is_shuffling(&self) -> bool {
        matches!(self, Self::Commit(_) | Self::Shuffle(_))
    }

    /// Whether the scores are audited (the results stage, or done): nothing undoes them.
    pub(super) fn is_scored(&self) -> bool {
        matches!(self, Self::Result(_) | Self::Done(_))
    }

    /// Whether `s` saw the play to its end (its reveal is in, or the scores are audited).
    pub(super) fn revealed(&self, s: u8) -> bool {
        match self {
            Self::Reveal(r) => r.revealed(s),
            Self::Result(_) | Self::Done(_) => true,
            _ => false,
        }
    }

    /// Counts `s`'s result slot as filled (see [`Signing::count_out`]); the report once all
    /// four are.
    pub(super) fn count_out(&mut self, s: u8) -> Option<super::HandReport> {
        match self {
            Self::Result(r) => {
                r.count_out(s);
                r.report()
            }
            _ => None,
        }
    }

    /// Every result is in: the hand is done.
    pub(super) fn finish_signing(&mut self) {
        advance(self, |p| match p {
            Self::Result(r) => Self::Done(r),
            other => other,
        });
    }

    /// Whether `s`'s signed result is in.
    pub(super) fn has_result_of(&self, s: u8) -> bool {
        matches!(self, Self::Result(r) | Self::Done(r) if r.has_result_of(s))
    }

    /// Whether the hand is over for good (void, or verified and signed).
    pub(super) fn is_finished(&self) -> bool {
        matches!(self, Self::Void(_) | Self::Done(_))
    }

    /// The stage's name.
    fn name(&self) -> Stage {
        match self {
            Self::Commit(_) => Stage::Commit,
            Self::Shuffle(s) => Stage::Shuffle(s.step()),
            Self::Deal(_) => Stage::Deal,
            Self::Play(_) => Stage::Play,
            Self::Reveal(_) => Stage::Reveal,
            Self::Result(_) => Stage::Result,
            Self::Done(_) => Stage::Done,
            Self::Void(_) => Stage::Void,
        }
    }

    /// The position as played, once dealt.
    fn board(&self) -> Option<&Board> {
        match self {
            Self::Play(p) => Some(p.board()),
            Self::Reveal(r) => Some(r.board()),
            Self::Result(s) | Self::Done(s) => Some(s.board()),
            Self::Void(v) => v.at.board(),
            Self::Commit(_) | Self::Shuffle(_) | Self::Deal(_) => None,
        }
    }

    /// The results stage, once the audit passed.
    fn signing(&self) -> Option<&Signing> {
        match self {
            Self::Result(s) | Self::Done(s) => Some(s),
            Self::Void(v) => v.at.signing(),
            _ => None,
        }
    }

    /// How many signed results are in.
    pub(super) fn results_in(&self) -> usize {
        self.signing().map_or(0, Signing::results_in)
    }
}

/// Replaces `stage` by what `next` makes of it (a stage hands its data on).
fn advance(stage: &mut Phase, next: impl FnOnce(Phase) -> Phase) {
    let old = std::mem::replace(stage, Phase::start());
    *stage = next(old);
}

impl HandSession {
    /// Where the hand stands.
    pub fn stage(&self) -> Stage {
        if self.audit.auditing() && !self.stage.is_void() {
            Stage::Audit
        } else {
            self.stage.name()
        }
    }

    /// This seat's view of the hand (once dealt).
    pub fn view(&self) -> Option<PlayerView> {
        self.replica().map(|p| {
            if self.is_watcher() {
                PlayerView::public(p, self.seat())
            } else {
                p.view(self.seat())
            }
        })
    }

    /// The replica (hidden cards unknown), for display and tests.
    pub fn replica(&self) -> Option<&Position> {
        self.stage.board().map(Board::replica)
    }

    /// The verdict, once the hand is void by a fault (also reported as [`Event::Fault`];
    /// `None` too when it is void by a bug of this seat's, [`Event::Broken`]).
    pub fn verdict_of_void(&self) -> Option<&Blame> {
        match &self.stage {
            Phase::Void(v) => v.verdict.as_ref().ok(),
            _ => None,
        }
    }

    /// Moves played so far in the hand (each draw, meld, discard... counts one).
    pub fn turn_count(&self) -> usize {
        self.stage.board().map_or(0, Board::turns)
    }

    /// The hand's scores `[A, B]` from this seat's audit, once every seed is in and the audit
    /// passed (before the four results are signed; also of a hand stopped after that).
    pub fn audited(&self) -> Option<[i32; 2]> {
        self.stage.signing().map(Signing::scores)
    }

    /// The report of this seat's audit (the audited scores), once every seed is in and the
    /// audit passed, whether or not the four results were signed (also of a hand stopped
    /// after that).
    pub fn audited_report(&self) -> Option<super::HandReport> {
        self.stage.signing().map(Signing::audited_report)
    }

    /// The seats whose message the hand is waiting for (for timeouts).
    pub fn waiting_on(&self) -> Vec<Seat> {
        self.awaiting().into_iter().map(|(s, _)| s).collect()
    }

    /// What the hand waits for from each seat it waits on.
    pub fn awaiting(&self) -> Vec<(Seat, Awaiting)> {
        if self.audit.auditing() {
            return self
                .audit_waits()
                .into_iter()
                .filter_map(super::seat)
                .map(|s| (s, Awaiting::Reveal))
                .collect();
        }
        Seat::ALL
            .into_iter()
            .filter(|s| !self.has_queued(s.number()))
            .filter_map(|s| Some((s, self.expects(s.number())?)))
            .collect()
    }

    /// What the script expects from `s` now, if anything.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        match &self.stage {
            Phase::Commit(c) => c.expects(s),
            Phase::Shuffle(sh) => sh.expects(&self.ctx, s),
            Phase::Deal(d) => d.expects(s),
            Phase::Play(p) => p.expects(s),
            Phase::Reveal(r) => r.expects(s),
            Phase::Result(r) => r.expects(s),
            Phase::Done(_) | Phase::Void(_) => None,
        }
    }

    /// The hand is void with `verdict` (the stage it stopped at stays readable).
    pub(super) fn void(&mut self, verdict: Result<Blame, HandBug>) {
        advance(&mut self.stage, |at| {
            let at = match at {
                Phase::Void(v) => v.at,
                at => at,
            };
            Phase::Void(Box::new(Voided { verdict, at }))
        });
    }

    /// Takes `s`'s message `body` if the script expects it now: `Ok(false)` if it is not due
    /// yet, `Err` if it is not what the script expects of `s` (or breaks the rules).
    pub(super) fn process(&mut self, s: u8, body: &Body) -> Result<bool, Fault> {
        // Every stage below indexes its four seats by `s`.
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        let Some(expected) = self.expects(s) else {
            return Ok(false);
        };
        let ctx = &self.ctx;
        match (&mut self.stage, expected, body) {
            (Phase::Commit(c), Awaiting::Commit, Body::HandCommit(m)) => {
                if let Some(shuffling) = c.take(ctx, s, m)? {
                    self.stage = Phase::Shuffle(Box::new(shuffling));
                }
            }
            (Phase::Shuffle(sh), Awaiting::Shuffle, Body::Shuffle(m)) => {
                if sh.take(ctx, s, m, &mut self.checks)? {
                    let ctx = &self.ctx;
                    advance(&mut self.stage, |p| match p {
                        Phase::Shuffle(sh) => Phase::Deal(Box::new(Dealing::new(ctx, *sh))),
                        other => other,
                    });
                }
            }
            (Phase::Deal(d), Awaiting::Shares, Body::Shares { items, proof, .. }) => {
                let dealt = d.take_shares(ctx, s, items, proof)?;
                self.dealt(dealt);
            }
            (Phase::Deal(d), Awaiting::Declare, Body::Move { action, opened, .. }) => {
                let dealt = d.take_declare(ctx, s, action, opened)?;
                self.dealt(dealt);
            }
            (Phase::Play(p), Awaiting::Shares, Body::Shares { items, proof, .. }) => {
                let over = p.take_shares(ctx, s, items, proof, &mut self.events)?;
                self.played(over);
            }
            (Phase::Play(p), Awaiting::Declare, Body::Move { action, opened, .. }) => {
                let over = p.take_declare(ctx, s, action, opened, &mut self.events)?;
                self.played(over);
            }
            (
                Phase::Play(p),
                Awaiting::Move,
                Body::Move {
                    action,
                    opened,
                    turn,
                    ..
                },
            ) => {
                let over = p.take_move(ctx, s, *turn, action, opened, &mut self.events)?;
                self.played(over);
            }
            (Phase::Reveal(r), Awaiting::Reveal, Body::HandReveal { seed, .. }) => {
                r.take_seed(s, *seed);
            }
            (
                Phase::Result(r),
                Awaiting::Result,
                Body::HandResult {
                    transcript_root,
                    scores,
                    ..
                },
            ) => {
                let agrees = r.take_result(s, *transcript_root, *scores);
                if let Some(report) = r.report() {
                    self.stage.finish_signing();
                    self.events.push_back(Event::Complete(report));
                }
                if !agrees {
                    return Err(Fault::FalseResult);
                }
            }
            _ => return Err(Fault::OutOfOrder),
        }
        Ok(true)
    }

    /// The deal is complete once `dealt` holds the replica: the play starts.
    fn dealt(&mut self, dealt: Option<Position>) {
        let Some(replica) = dealt else { return };
        let ctx = &self.ctx;
        advance(&mut self.stage, |p| match p {
            Phase::Deal(d) => Phase::Play(Box::new(d.into_play(ctx, replica))),
            other => other,
        });
        self.events.push_back(Event::Dealt);
    }

    /// The hand is over once `over`: the seeds are revealed.
    fn played(&mut self, over: bool) {
        if !over {
            return;
        }
        advance(&mut self.stage, |p| match p {
            Phase::Play(p) => Phase::Reveal(Box::new(p.into_reveal())),
            other => other,
        });
        self.events.push_back(Event::HandOver);
    }

    /// Sends what the script expects from this seat, once per need (nothing once the hand is
    /// stopped; the end-of-hand audit still runs in an audit at a fault, it sends nothing).
    pub(super) fn act(&mut self) {
        if self.audit.stopped() {
            return;
        }
        if let Phase::Reveal(r) = &mut self.stage {
            for (s, a) in self.audit.seeds() {
                r.seed_from_audit(s, a);
            }
        }
        if let Phase::Reveal(r) = &self.stage
            && r.all_seeds()
        {
            self.finish_audit();
            return;
        }
        if self.audit.auditing() {
            return;
        }
        // Past the shuffle, every step's proof is checked before anything opens a card.
        if !self.stage.is_shuffling() && !self.checks_passed() {
            return;
        }
        // One message at a time: ours is processed before we decide to send the next.
        let me = self.ctx.me;
        if me == super::watch::WATCHER || self.expects(me).is_none() || self.has_queued(me) {
            return;
        }
        let ctx = &self.ctx;
        let body = match &mut self.stage {
            Phase::Commit(_) => Some(Body::HandCommit(ctx.secret.commit())),
            Phase::Shuffle(sh) => Some(Body::Shuffle(sh.my_step(ctx, &self.cheats))),
            Phase::Deal(d) => d.my_message(ctx, &self.cheats),
            Phase::Play(p) => p.my_message(ctx, &self.cheats),
            Phase::Reveal(_) => Some(Body::HandReveal {
                hctx: ctx.hctx,
                seed: ctx.secret.seed(),
            }),
            Phase::Result(r) => Some(r.my_result(ctx)),
            Phase::Done(_) | Phase::Void(_) => None,
        };
        if let Some(body) = body {
            self.send(body);
        }
    }

    /// The audit of a finished hand, once every seed is in: the scores to sign, or a fault.
    fn finish_audit(&mut self) {
        if self.cheats.misremember
            && let Phase::Reveal(r) = &mut self.stage
        {
            r.deck.misremember_a_face();
        }
        let Phase::Reveal(r) = &self.stage else {
            return;
        };
        match r.replay(&self.ctx) {
            Ok((scores, breakdown)) => {
                let root = self.link.transcript_root();
                advance(&mut self.stage, |p| match p {
                    Phase::Reveal(r) => {
                        Phase::Result(Box::new(r.into_signing((root, scores), breakdown)))
                    }
                    other => other,
                });
                self.count_out_audits_after_play();
            }
            Err(Finding::Fault(offender, fault)) => {
                let evidence = self.link.transcript().to_vec();
                self.blame(offender, fault, evidence);
            }
            Err(Finding::Bug(bug)) => self.broken(bug),
        }
    }

    /// Whether the hand waits for this seat to move.
    pub fn my_turn(&self) -> bool {
        !self.audit.auditing() && matches!(&self.stage, Phase::Play(p) if p.turn_of(self.ctx.me))
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
        let Phase::Play(p) = &self.stage else {
            return Err(Refusal::new(
                fairdeal_core::Code::WrongPhase,
                "the deal is not complete",
            ));
        };
        let body = p.my_move(&self.ctx, mv)?;
        self.send(body);
        self.pump();
        Ok(())
    }
}
