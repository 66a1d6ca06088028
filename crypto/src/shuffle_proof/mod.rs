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
//! Files: `error` (why a proof is refused), `params` (split, generators), `transcript`
//! (Fiat–Shamir, nonces), `wire` (encoding), `vector` (scalar vectors), `msm` (the verifier's
//! batch), `shuffle` (the top level: the statement, the witness, proving and verifying),
//! `product` (product and Hadamard arguments), `zero`, `svp`, `multiexp` (sub-arguments).

mod error;
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

pub use error::ProofError;
pub use params::{MAX_CARDS, MAX_ROWS, ShuffleParams, generator, params, split};
pub use shuffle::{Statement, Witness};
pub use wire::proof_len;

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
