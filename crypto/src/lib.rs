//! fairdeal-crypto: identities, signed hash-chained logs and the mental-poker deal.
//!
//! Threat model in brief: up to three of the four seats may collude and deviate arbitrarily.
//! Nobody controls the shuffle while one seat is honest; no coalition sees a card dealt to an
//! honest seat before the audit; every deviation is either refused at once (bad proof, bad
//! deck, bad signature) or caught at the end-of-hand audit, and named from signed evidence that
//! cannot frame an honest seat. Pure: randomness (seeds) is passed in; no IO, no clock.
//!
//! ```text
//! HandSecret::new(seed) ─ commit ─▶ HandCommit ──verify_commit──▶ HandKeys (joint key H)
//! open_deck ─ make_step ×4 (shuffle + proof; check_step on each) ─▶ final deck E4
//! shares(round) ─▶ SharePoint×k + one proof ──verify_shares──▶ open_own / open_public ─▶ card id
//! share(pos) ─▶ ShareItem (a card shown in a move) ──verify_share──▶ the same
//! HandReveal(seed) ×4 ─▶ audit ─▶ plaintext deck, or (seat, Fault)
//! signed evidence ─▶ adjudicate ─▶ Verdict { offender, fault }
//! ```

#![forbid(unsafe_code)]

pub mod adjudicate;
pub mod audit;
pub mod batch;
pub mod encoding;
pub mod envelope;
pub mod fault;
pub mod group;
pub mod hand;
pub mod hash;
pub mod identity;
pub mod message;
pub mod proofs;
pub mod shuffle_proof;
pub mod step;
pub mod stream;

pub use adjudicate::{Court, Verdict, adjudicate};
pub use audit::{AuditInput, audit};
pub use envelope::{Accept, Chain, Envelope, Outbox, SignedEnvelope, Verified};
pub use fault::Fault;
pub use group::{CardTable, Ciphertext, CtBytes};
pub use hand::{HandKeys, HandSecret};
pub use identity::{Identity, PublicKey, Sig};
pub use message::{Body, HandCommit, Head, ShareItem, SharePoint, ShuffleMsg};
pub use step::{ProofMode, StepContext, check_step, check_step_proof, make_step};
