//! Why a shuffle proof could not be made or was refused ([`ProofError`]): every part of the
//! argument reports its failures in this one type.

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
