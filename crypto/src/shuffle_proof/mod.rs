//! The zero-knowledge proof that a shuffle step is a permutation and re-encryption of its input
//! deck under the joint key: Bayer–Groth 2012 ("Efficient zero-knowledge argument for
//! correctness of a shuffle", EUROCRYPT 2012), made non-interactive with a SHA-512 Fiat–Shamir
//! transcript over the whole statement, on ristretto255.
//!
//! The deck of N ciphertexts is split into m rows of n (`params::split`); the proof is a fixed
//! sequence of `11m + 2` points and `5n + 7` scalars (9 and `3n + 4` for m = 1), 9,984 bytes for
//! 162 cards. The prover's randomness is derived from a secret seed and the statement, so a
//! restored node re-creates the same bytes. The verifier folds every check equation into one
//! multiscalar multiplication.
//!
//! Files: `params` (split, generators), `transcript` (Fiat–Shamir, nonces), `wire` (encoding),
//! `vector` (scalar vectors), `msm` (the verifier's batch), `shuffle` (the top level),
//! `product` (product and Hadamard arguments), `zero`, `svp`, `multiexp` (sub-arguments).

mod msm;
mod multiexp;
mod params;
mod product;
mod shuffle;
mod svp;
mod transcript;
mod vector;
mod wire;
mod zero;

#[cfg(test)]
mod tests;

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

pub use params::{MAX_CARDS, MAX_ROWS, ShuffleParams, generator, params, split};
pub use wire::proof_len;

use crate::group::{Ciphertext, CtBytes};

/// What a shuffle proof is about: everything public about one shuffle step.
#[derive(Debug, Clone, Copy)]
pub struct Statement<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The shuffling seat.
    pub seat: u8,
    /// The step (1..=4).
    pub step: u8,
    /// The hash of the input deck as sent (`deck_hash`); `input` must be that deck.
    pub input_hash: &'a [u8; 32],
    /// The input deck.
    pub input: &'a [Ciphertext],
    /// The output deck as sent.
    pub output_bytes: &'a [CtBytes],
    /// The output deck, decompressed (the same ciphertexts as `output_bytes`).
    pub output: &'a [Ciphertext],
    /// The joint key `H`.
    pub joint: &'a RistrettoPoint,
}

/// What only the shuffler knows: `output[j] = input[perm[j]] + Enc(0; rho[j])`.
#[derive(Debug, Clone, Copy)]
pub struct Witness<'a> {
    /// The permutation.
    pub perm: &'a [u16],
    /// The re-randomisers.
    pub rho: &'a [Scalar],
}

/// Why a proof could not be made or was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// No proof is defined for this deck size.
    #[error("no shuffle proof for a deck of {0} cards")]
    UnsupportedSize(usize),
    /// The statement's decks do not have the parameters' size.
    #[error("the statement's decks do not fit the parameters")]
    Statement,
    /// The witness is not a permutation with one re-randomiser per card.
    #[error("the witness does not fit the statement")]
    Witness,
    /// A proof of the wrong length.
    #[error("a shuffle proof of {got} bytes, expected {expected}")]
    Length {
        /// The only valid length.
        expected: usize,
        /// The length received.
        got: usize,
    },
    /// An invalid (or non-canonical) point encoding at this byte offset.
    #[error("invalid point at byte {0} of the shuffle proof")]
    BadPoint(usize),
    /// A non-canonical scalar at this byte offset.
    #[error("non-canonical scalar at byte {0} of the shuffle proof")]
    BadScalar(usize),
    /// Well formed, but the equations do not hold.
    #[error("the shuffle proof does not verify")]
    Rejected,
}

/// Proves that `st.output` is `st.input` permuted and re-encrypted by `wit`; every random value
/// is derived from `seed` (secret, e.g. the seat's hand seed) and the statement.
///
/// # Errors
///
/// [`ProofError::Statement`] or [`ProofError::Witness`] if they do not fit the parameters. A
/// witness that fits but does not produce `st.output` gives a proof that fails to verify.
pub fn prove(
    params: &ShuffleParams,
    st: &Statement<'_>,
    wit: &Witness<'_>,
    seed: &[u8; 32],
) -> Result<Vec<u8>, ProofError> {
    shuffle::prove(params, st, wit, seed)
}

/// Checks a proof of `st`.
///
/// # Errors
///
/// [`ProofError::Statement`] if the statement does not fit the parameters; a malformed proof
/// (length, point, scalar); [`ProofError::Rejected`] if it does not verify.
pub fn verify(params: &ShuffleParams, st: &Statement<'_>, proof: &[u8]) -> Result<(), ProofError> {
    shuffle::verify(params, st, proof)
}
