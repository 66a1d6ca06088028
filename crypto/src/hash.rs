//! Domain-separated hashing: a label, then length-prefixed fields (`u64_le(len) ‖ bytes`).

use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha256, Sha512};

/// Domain-separation labels. Changing one is a protocol change (golden vectors pin them).
pub mod label {
    /// Card points `M_c`.
    pub const CARD: &[u8] = b"fairdeal/v1/card";
    /// The session id.
    pub const SID: &[u8] = b"fairdeal/v1/sid";
    /// The hand context.
    pub const HAND: &[u8] = b"fairdeal/v1/hand";
    /// A seat's per-hand ElGamal key from its seed.
    pub const ELGAMAL: &[u8] = b"fairdeal/v1/elgamal";
    /// Seed commitments.
    pub const SEED_COMMIT: &[u8] = b"fairdeal/v1/seed-commit";
    /// Schnorr proof-of-knowledge challenges.
    pub const POK: &[u8] = b"fairdeal/v1/pok";
    /// DLEQ (Chaum–Pedersen) challenges.
    pub const DLEQ: &[u8] = b"fairdeal/v1/dleq";
    /// One proof for a round of shares: statement digest, weights and challenge.
    pub const DLEQ_BATCH: &[u8] = b"fairdeal/v1/dleq-batch";
    /// Deterministic proof nonces.
    pub const NONCE: &[u8] = b"fairdeal/v1/nonce";
    /// The shuffle stream (permutation and re-randomisers).
    pub const SHUFFLE: &[u8] = b"fairdeal/v1/shuffle";
    /// Deck hashes (`input_hash`).
    pub const DECK: &[u8] = b"fairdeal/v1/deck";
    /// What a signature covers.
    pub const ENVELOPE: &[u8] = b"fairdeal/v1/envelope";
    /// Envelope hashes (the chain links).
    pub const ENVELOPE_HASH: &[u8] = b"fairdeal/v1/envelope-hash";
    /// Identity fingerprints.
    pub const FINGERPRINT: &[u8] = b"fairdeal/v1/fingerprint";
    /// The shuffle proof's Fiat–Shamir transcript.
    pub const SHUFFLE_PROOF: &[u8] = b"fairdeal/v1/shuffle-proof";
    /// The shuffle proof's Pedersen generators (`h`, then `g_1..g_n`).
    pub const SHUFFLE_GENERATOR: &[u8] = b"fairdeal/v1/shuffle-generator";
    /// The shuffle prover's deterministic randomness.
    pub const SHUFFLE_PROOF_NONCE: &[u8] = b"fairdeal/v1/shuffle-proof-nonce";
}

fn absorb<D: Digest>(d: &mut D, label: &[u8], fields: &[&[u8]]) {
    d.update((label.len() as u64).to_le_bytes());
    d.update(label);
    for f in fields {
        d.update((f.len() as u64).to_le_bytes());
        d.update(f);
    }
}

/// SHA-256 of `label` and `fields`.
pub fn hash256(label: &[u8], fields: &[&[u8]]) -> [u8; 32] {
    let mut d = Sha256::new();
    absorb(&mut d, label, fields);
    d.finalize().into()
}

/// SHA-512 of `label` and `fields`.
pub fn hash512(label: &[u8], fields: &[&[u8]]) -> [u8; 64] {
    let mut d = Sha512::new();
    absorb(&mut d, label, fields);
    d.finalize().into()
}

/// A scalar from SHA-512 of `label` and `fields`, reduced wide (uniform mod ℓ).
pub fn hash_scalar(label: &[u8], fields: &[&[u8]]) -> Scalar {
    Scalar::from_bytes_mod_order_wide(&hash512(label, fields))
}
