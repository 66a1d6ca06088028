//! A shuffle step as a message: making it, with its zero-knowledge proof when the table's
//! [`ProofMode`] asks for one, and everything a node checks on receipt before it builds
//! anything on that deck (PROTOCOL.md §5.5 and the proof).

use serde::{Deserialize, Serialize};

use crate::fault::Fault;
use crate::group::{Ciphertext, CtBytes, compress_deck};
use crate::hand::{HandKeys, HandSecret, check_shuffle, deck_hash};
use crate::message::ShuffleMsg;
use crate::shuffle_proof::{self, ProofError, Statement, Witness};
use crate::stream::shuffle_plan;

/// Whether shuffle steps carry proofs: part of the signed table configuration.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum ProofMode {
    /// Every step carries a shuffle proof, checked on receipt; a step without one is refused.
    #[default]
    Proved,
    /// No proofs: a bad shuffle is found at the end-of-hand audit (covert security).
    Covert,
}

/// One step's public context, as the receiver knows it.
#[derive(Debug, Clone, Copy)]
pub struct StepContext<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The step (1..=4).
    pub step: u8,
    /// The seat that runs it.
    pub seat: u8,
    /// The input deck as signed (the open deck for step 1).
    pub input_bytes: &'a [CtBytes],
    /// The input deck, decompressed.
    pub input: &'a [Ciphertext],
    /// The hand keys.
    pub keys: &'a HandKeys,
    /// The table's proof mode.
    pub mode: ProofMode,
}

/// This seat's step (`ctx.seat` is taken from `secret`): the message to sign and the output
/// deck. In [`ProofMode::Proved`] the
/// proof's randomness comes from the seat's seed and the statement, so a restored node makes
/// the same bytes.
///
/// # Errors
///
/// [`ProofError::UnsupportedSize`] if no proof exists for this deck size.
pub fn make_step(
    secret: &HandSecret,
    ctx: &StepContext<'_>,
) -> Result<(ShuffleMsg, Vec<Ciphertext>), ProofError> {
    let input_hash = deck_hash(ctx.hctx, ctx.input_bytes);
    let out = secret.shuffle_hashed(ctx.keys, ctx.input, &input_hash);
    let deck = compress_deck(&out);
    let proof = match ctx.mode {
        ProofMode::Covert => None,
        ProofMode::Proved => {
            let params = shuffle_proof::params(out.len())?;
            let seed = secret.seed();
            let plan = shuffle_plan(
                ctx.hctx,
                secret.seat(),
                &seed,
                &input_hash,
                out.len() as u16,
            );
            let st = Statement {
                hctx: ctx.hctx,
                seat: secret.seat(),
                step: ctx.step,
                input_hash: &input_hash,
                input: ctx.input,
                output_bytes: &deck,
                output: &out,
                joint: ctx.keys.joint(),
            };
            let wit = Witness {
                perm: &plan.perm,
                rho: &plan.rho,
            };
            Some(shuffle_proof::prove(&params, &st, &wit, &seed)?)
        }
    };
    Ok((
        ShuffleMsg {
            hctx: *ctx.hctx,
            step: ctx.step,
            input_hash,
            deck,
            proof,
        },
        out,
    ))
}

/// Every check of a received step: the cheap checks of [`check_shuffle`], then the proof (or
/// its absence, in covert mode); returns the decompressed deck.
///
/// # Errors
///
/// The first [`Fault`] found: [`Fault::ProofMode`] for a proof missing (or sent to a covert
/// table), [`Fault::BadShuffleProof`] for one that is malformed or does not verify.
pub fn check_step(msg: &ShuffleMsg, ctx: &StepContext<'_>) -> Result<Vec<Ciphertext>, Fault> {
    let deck = check_shuffle(msg, ctx.hctx, ctx.step, ctx.input_bytes, ctx.input.len())?;
    check_step_proof(msg, ctx, &deck)?;
    Ok(deck)
}

/// The proof part of [`check_step`], for a step whose cheap checks [`check_shuffle`] passed
/// already and gave `output`.
///
/// # Errors
///
/// [`Fault::ProofMode`] for a proof missing (or sent to a covert table),
/// [`Fault::BadShuffleProof`] for one that is malformed or does not verify.
pub fn check_step_proof(
    msg: &ShuffleMsg,
    ctx: &StepContext<'_>,
    output: &[Ciphertext],
) -> Result<(), Fault> {
    let n = ctx.input.len();
    match (ctx.mode, &msg.proof) {
        (ProofMode::Covert, None) => Ok(()),
        (ProofMode::Proved, Some(proof)) => {
            let params = shuffle_proof::params(n).map_err(|_| Fault::DeckLength)?;
            let st = Statement {
                hctx: ctx.hctx,
                seat: ctx.seat,
                step: ctx.step,
                input_hash: &msg.input_hash,
                input: ctx.input,
                output_bytes: &msg.deck,
                output,
                joint: ctx.keys.joint(),
            };
            shuffle_proof::verify(&params, &st, proof).map_err(|_| Fault::BadShuffleProof)
        }
        _ => Err(Fault::ProofMode),
    }
}
