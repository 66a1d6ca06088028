//! The first two stages: [`Committing`] (each seat's seed commitment, from which the joint key
//! comes) and [`Shuffling`] (the four shuffle steps in the dealer's-left order), with the
//! `cheats` knobs that tamper with a step.
//!
//! Every step is checked in full, its proof included, before this seat sends anything that
//! opens a card. The seat whose step comes next builds on the step it receives after checking
//! only its form (every point decodes, it answers the deck before it), and checks the proof
//! right after sending its own step, so that the proof checks of the chain are not in series
//! with its proofs (PROTOCOL.md §5). Building on a step whose proof later fails gives nothing
//! away: a re-masking shuffle and its zero-knowledge proof hide the permutation whatever deck
//! they start from, and the hand is void with the bad step's shuffler named.

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{check_shuffle, deck_hash, verify_commit};
use fairdeal_crypto::{
    Ciphertext, CtBytes, Fault, HandCommit, HandKeys, ProofMode, ShuffleMsg, StepContext,
    check_step, check_step_proof, make_step,
};

use super::{Awaiting, Cheats, Ctx};

/// Waiting for the four commitments.
#[derive(Default)]
pub(super) struct Committing {
    commits: [Option<HandCommit>; 4],
}

impl Committing {
    /// What it expects of `s`.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.commits[usize::from(s)]
            .is_none()
            .then_some(Awaiting::Commit)
    }

    /// Takes `s`'s commitment; once all four are in, the joint key and the shuffle stage.
    pub(super) fn take(
        &mut self,
        ctx: &Ctx,
        s: u8,
        c: &HandCommit,
    ) -> Result<Option<Shuffling>, Fault> {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        let i = usize::from(s);
        let key = verify_commit(&ctx.hctx, s, c)?;
        self.commits[i] = Some(c.clone());
        let [Some(c0), Some(c1), Some(c2), Some(c3)] = &self.commits else {
            return Ok(None);
        };
        let commits = [c0, c1, c2, c3].map(Clone::clone);
        let keys: Vec<RistrettoPoint> = commits
            .iter()
            .enumerate()
            .map(|(k, c)| {
                if k == i {
                    Ok(key)
                } else {
                    verify_commit(&ctx.hctx, k as u8, c)
                }
            })
            .collect::<Result<_, _>>()?;
        let keys = HandKeys::new([keys[0], keys[1], keys[2], keys[3]]).map_err(|(_, f)| f)?;
        Ok(Some(Shuffling {
            commits,
            keys,
            steps: Vec::new(),
            deck: open_deck(&ctx.table),
            unchecked: None,
        }))
    }
}

/// The four shuffle steps.
pub(super) struct Shuffling {
    /// The four commitments (the audit checks the seeds against them).
    pub(super) commits: [HandCommit; 4],
    /// The joint key.
    pub(super) keys: HandKeys,
    /// The steps so far.
    pub(super) steps: Vec<ShuffleMsg>,
    /// The deck after the last step.
    pub(super) deck: Vec<Ciphertext>,
    /// The step this seat builds on before its proof is checked (it sends the next step).
    pub(super) unchecked: Option<Unchecked>,
}

/// A step taken on its form alone, its proof still to check.
pub(super) struct Unchecked {
    /// Its number (1..=3).
    step: u8,
    /// Its shuffler.
    seat: u8,
    /// The deck it started from: as sent, and as points.
    input_bytes: Vec<CtBytes>,
    input: Vec<Ciphertext>,
}

impl Shuffling {
    /// The step waited for (1..=4).
    pub(super) fn step(&self) -> u8 {
        self.steps.len() as u8 + 1
    }

    /// What it expects of `s`.
    pub(super) fn expects(&self, ctx: &Ctx, s: u8) -> Option<Awaiting> {
        let k = self.step();
        (ctx.order.get(usize::from(k - 1)) == Some(&s)).then_some(Awaiting::Shuffle)
    }

    /// The deck the next step starts from, as bytes.
    fn input_bytes(&self, ctx: &Ctx) -> Vec<CtBytes> {
        self.steps
            .last()
            .map_or_else(|| compress_deck(&open_deck(&ctx.table)), |m| m.deck.clone())
    }

    /// Takes `s`'s step; `true` once the fourth is in. The step this seat builds on next is
    /// taken on its form, its proof left to [`Self::check_unchecked`].
    pub(super) fn take(&mut self, ctx: &Ctx, s: u8, m: &ShuffleMsg) -> Result<bool, Fault> {
        let k = self.step();
        let input = self.input_bytes(ctx);
        let builds_next = ctx.order.get(usize::from(k)) == Some(&ctx.me);
        // Our own step needs no proof check (we made it); every other is checked in full,
        // its proof included, the one we build on just after our own step is out.
        let deck = if s == ctx.me {
            check_shuffle(m, &ctx.hctx, k, &input, ctx.table.len())?
        } else if builds_next && ctx.cfg.proofs == ProofMode::Proved && m.proof.is_some() {
            let deck = check_shuffle(m, &ctx.hctx, k, &input, ctx.table.len())?;
            // INVARIANT: at most one step is unchecked: it is checked before our own step,
            // the next one, is taken.
            self.unchecked = Some(Unchecked {
                step: k,
                seat: s,
                input_bytes: input,
                input: std::mem::take(&mut self.deck),
            });
            deck
        } else {
            let sctx = StepContext {
                hctx: &ctx.hctx,
                step: k,
                seat: s,
                input_bytes: &input,
                input: &self.deck,
                keys: &self.keys,
                mode: ctx.cfg.proofs,
            };
            check_step(m, &sctx)?
        };
        self.deck = deck;
        self.steps.push(m.clone());
        Ok(k == 4)
    }

    /// Checks the proof of the step taken on its form alone, if any: `Err` names its shuffler.
    pub(super) fn check_unchecked(&mut self, ctx: &Ctx) -> Result<(), (u8, Fault)> {
        let Some(u) = self.unchecked.take() else {
            return Ok(());
        };
        let fail = |f| (u.seat, f);
        let msg = self
            .steps
            .get(usize::from(u.step) - 1)
            .ok_or(fail(Fault::OutOfOrder))?;
        let sctx = StepContext {
            hctx: &ctx.hctx,
            step: u.step,
            seat: u.seat,
            input_bytes: &u.input_bytes,
            input: &u.input,
            keys: &self.keys,
            mode: ctx.cfg.proofs,
        };
        // INVARIANT: nothing was taken since the step (this runs before any other message),
        // so the deck is still the one it gave.
        check_step_proof(msg, &sctx, &self.deck).map_err(fail)
    }

    /// This seat's step.
    pub(super) fn my_step(&self, ctx: &Ctx, cheats: &Cheats) -> ShuffleMsg {
        let k = self.step();
        let keys = &self.keys;
        let input_bytes = self.input_bytes(ctx);
        let sctx = StepContext {
            hctx: &ctx.hctx,
            step: k,
            seat: ctx.me,
            input_bytes: &input_bytes,
            input: &self.deck,
            keys,
            mode: ctx.cfg.proofs,
        };
        // The proof exists for every deck the rules deal (108, 162); were it refused,
        // the step goes out without one and the peers name this seat.
        match make_step(&ctx.secret, &sctx) {
            Ok((mut msg, out)) => {
                if let Some((from, to)) = cheats.copy_card {
                    copy_card(&mut msg, &out, keys, from, to);
                }
                if let Some((pos, id)) = cheats.plant_card
                    && let (Some(m), Some(slot)) =
                        (ctx.table.point(id), msg.deck.get_mut(usize::from(pos)))
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
                let out = ctx.secret.shuffle(keys, &self.deck);
                ShuffleMsg {
                    hctx: ctx.hctx,
                    step: k,
                    input_hash: deck_hash(&ctx.hctx, &input_bytes),
                    deck: compress_deck(&out),
                    proof: None,
                }
            }
        }
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
