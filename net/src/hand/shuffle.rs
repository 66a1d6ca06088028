//! The first two stages: [`Committing`] (each seat's seed commitment, from which the joint key
//! comes) and [`Shuffling`] (the four shuffle steps in the dealer's-left order), with the
//! `cheats` knobs that tamper with a step.
//!
//! A step is taken on its form (every point decodes, it answers the deck before it); the check
//! of its proof is queued (`checks.rs`) and must pass before this seat sends anything that
//! opens a card. So the seat whose step comes next builds on a step before its proof is
//! checked, and the proof checks of the chain are not in series with its proofs (PROTOCOL.md
//! §5). Building on a step whose proof later fails gives nothing away: a re-masking shuffle
//! and its zero-knowledge proof hide the permutation whatever deck they start from, and the
//! hand is void with the bad step's shuffler named.

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{check_shuffle, deck_hash, verify_commit};
use fairdeal_crypto::{
    Ciphertext, CtBytes, Fault, HandCommit, HandKeys, ProofMode, ShuffleMsg, StepContext,
    check_step_proof, make_step,
};

use super::checks::{CheckId, Checks, ProofCheck};
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
            own: None,
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
    /// This seat's own step as built, with its output deck: taken without decoding it again.
    pub(super) own: Option<(ShuffleMsg, Vec<Ciphertext>)>,
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

    /// Takes `s`'s step on its form; `true` once the fourth is in. The proof of another
    /// seat's step is queued in `checks`, to pass before the hand goes past the shuffle; our
    /// own needs none (we made it).
    pub(super) fn take(
        &mut self,
        ctx: &Ctx,
        s: u8,
        m: &ShuffleMsg,
        checks: &mut Checks,
    ) -> Result<bool, Fault> {
        let k = self.step();
        let input_bytes = self.input_bytes(ctx);
        // Our own step, as we built it, is not decoded again (it is on the critical path: the
        // next seat waits for it); one read back from the log is.
        let deck = match self.own.take() {
            Some((sent, out)) if s == ctx.me && &sent == m => out,
            _ => check_shuffle(m, &ctx.hctx, k, &input_bytes, ctx.table.len())?,
        };
        if s != ctx.me {
            if ctx.cfg.proofs == ProofMode::Proved && m.proof.is_some() {
                checks.queue(ProofCheck {
                    id: CheckId {
                        hctx: ctx.hctx,
                        me: ctx.me,
                        step: k,
                    },
                    seat: s,
                    msg: m.clone(),
                    input_bytes,
                    input: std::mem::take(&mut self.deck),
                    output: deck.clone(),
                    keys: self.keys.clone(),
                    mode: ctx.cfg.proofs,
                });
            } else {
                // A covert table's step (no proof to check), or a proof missing or unasked for:
                // decided now, nothing costly to compute.
                let sctx = StepContext {
                    hctx: &ctx.hctx,
                    step: k,
                    seat: s,
                    input_bytes: &input_bytes,
                    input: &self.deck,
                    keys: &self.keys,
                    mode: ctx.cfg.proofs,
                };
                check_step_proof(m, &sctx, &deck)?;
            }
        }
        self.deck = deck;
        self.steps.push(m.clone());
        Ok(k == 4)
    }

    /// This seat's step.
    pub(super) fn my_step(&mut self, ctx: &Ctx, cheats: &Cheats) -> ShuffleMsg {
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
                let honest = cheats.copy_card.is_none() && cheats.plant_card.is_none();
                if honest {
                    self.own = Some((msg.clone(), out));
                    return msg;
                }
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
