//! What a peer did wrong: a named, first-class error (rustls `PeerMisbehaved` style).

use serde::{Deserialize, Serialize};

/// A protocol violation by the signer of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum Fault {
    /// A message for another hand.
    #[error("message for another hand")]
    WrongHand,
    /// A message out of protocol order.
    #[error("message out of order")]
    OutOfOrder,
    /// An invalid or identity hand key.
    #[error("invalid hand key")]
    BadKey,
    /// Two seats with the same hand key.
    #[error("hand key equal to another seat's")]
    DuplicateKey,
    /// A proof that does not verify.
    #[error("proof does not verify")]
    BadProof,
    /// A deck of the wrong length.
    #[error("deck of the wrong length")]
    DeckLength,
    /// An undecodable point.
    #[error("invalid point encoding")]
    BadEncoding,
    /// A ciphertext whose C1 is the identity after a shuffle.
    #[error("unmasked ciphertext in a shuffled deck")]
    IdentityCiphertext,
    /// Two equal ciphertexts (a copied card).
    #[error("duplicate ciphertexts in a deck")]
    DuplicateCiphertext,
    /// A shuffle of a deck other than the previous step's.
    #[error("shuffled the wrong input deck")]
    WrongInput,
    /// A shuffle proof that is malformed or does not verify.
    #[error("shuffle proof does not verify")]
    BadShuffleProof,
    /// A shuffle step without the proof the table asked for (or with one a covert table did
    /// not ask for).
    #[error("shuffle proof missing, or sent to a table that did not ask for one")]
    ProofMode,
    /// Two deck positions opened to the same card id (a copied card: some shuffler cheated).
    #[error("two deck positions open to the same card")]
    DuplicateCard,
    /// A revealed seed that does not match its commitment.
    #[error("revealed seed does not match its commitment")]
    SeedMismatch,
    /// A revealed seed whose key is not the committed key.
    #[error("revealed seed does not give the committed key")]
    KeyMismatch,
    /// A shuffle step that does not reproduce from the revealed seed.
    #[error("shuffle does not reproduce from the revealed seed")]
    ShuffleMismatch,
    /// Two different signed messages in one slot of the sender's chain.
    #[error("two different messages signed for one slot")]
    Equivocation,
    /// A move the rules refuse, or whose shown cards are not what it claims.
    #[error("illegal move")]
    IllegalMove,
    /// A card hidden against the rules (e.g. a red three not laid out), found at the audit.
    #[error("hidden card against the rules")]
    HiddenCard,
    /// A computer player that took over a seat made a move its strategy would not have made
    /// (its runner steered it), found at the audit by replaying its decisions.
    #[error("a computer player's moves were steered by its runner")]
    Steered,
    /// An audit that the signed messages do not justify: no seat is proven at fault, so the
    /// seat that started it (stopping the hand) is answerable for the stop, as for silence.
    #[error("an audit that no signed message justifies")]
    UnfoundedAudit,
    /// A signed result that is not the hand's audited result (root and scores), or a second,
    /// different result.
    #[error("a signed result that is not the audited one")]
    FalseResult,
}
