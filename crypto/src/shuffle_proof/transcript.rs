//! The shuffle proof's Fiat–Shamir transcript (one running SHA-512) and the prover's
//! deterministic randomness (a SHA-512 stream keyed by the seed and the statement).
//!
//! Framing: `frame(b) = u64_le(len b) ‖ b`. The transcript starts as
//! `frame("fairdeal/v1/shuffle-proof")`; `absorb(tag, data)` appends `frame(tag) ‖ frame(data)`;
//! `challenge(tag)` is `SHA-512(transcript ‖ frame(tag))` reduced wide, and then appends
//! `frame(tag) ‖ frame(those 64 bytes)`, so every later challenge depends on it.

use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha512};

use crate::hash::{hash512, label};

fn frame(d: &mut Sha512, bytes: &[u8]) {
    d.update((bytes.len() as u64).to_le_bytes());
    d.update(bytes);
}

/// The running transcript.
#[derive(Clone)]
pub(crate) struct Transcript {
    state: Sha512,
}

impl Transcript {
    /// A transcript with the protocol label absorbed.
    pub(crate) fn new() -> Self {
        let mut state = Sha512::new();
        frame(&mut state, label::SHUFFLE_PROOF);
        Self { state }
    }

    /// Appends `frame(tag) ‖ frame(data)`.
    pub(crate) fn absorb(&mut self, tag: &[u8], data: &[u8]) {
        frame(&mut self.state, tag);
        frame(&mut self.state, data);
    }

    /// `SHA-512(transcript ‖ frame(tag))` without changing the transcript.
    fn peek(&self, tag: &[u8]) -> [u8; 64] {
        let mut d = self.state.clone();
        frame(&mut d, tag);
        d.finalize().into()
    }

    /// A challenge scalar; the transcript then absorbs it.
    pub(crate) fn challenge(&mut self, tag: &[u8]) -> Scalar {
        let out = self.peek(tag);
        self.absorb(tag, &out);
        Scalar::from_bytes_mod_order_wide(&out)
    }

    /// The digest of the statement that keys the prover's randomness
    /// (`SHA-512(transcript ‖ frame("statement"))`, the transcript unchanged).
    pub(crate) fn statement_digest(&self) -> [u8; 64] {
        self.peek(b"statement")
    }
}

/// The prover's randomness: scalar j is
/// `SHA-512(frame("fairdeal/v1/shuffle-proof-nonce") ‖ frame(seed) ‖ frame(digest) ‖ frame(u64_le(j)))`
/// reduced wide, drawn in the order the proof uses them.
pub(crate) struct Nonces {
    seed: [u8; 32],
    digest: [u8; 64],
    next: u64,
}

impl Nonces {
    /// The stream for `seed` and the statement `digest`.
    pub(crate) fn new(seed: &[u8; 32], digest: [u8; 64]) -> Self {
        Self {
            seed: *seed,
            digest,
            next: 0,
        }
    }

    /// The next scalar.
    pub(crate) fn scalar(&mut self) -> Scalar {
        let block = hash512(
            label::SHUFFLE_PROOF_NONCE,
            &[&self.seed, &self.digest, &self.next.to_le_bytes()],
        );
        self.next += 1;
        Scalar::from_bytes_mod_order_wide(&block)
    }

    /// The next `k` scalars.
    pub(crate) fn scalars(&mut self, k: usize) -> Vec<Scalar> {
        (0..k).map(|_| self.scalar()).collect()
    }
}

impl Drop for Nonces {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_depend_on_everything_absorbed_and_on_each_other() {
        let mut a = Transcript::new();
        a.absorb(b"t", b"data");
        let mut b = Transcript::new();
        b.absorb(b"t", b"datb");
        assert_ne!(a.clone().challenge(b"x"), b.challenge(b"x"));
        // Framing: moving a byte from the tag into the data changes the challenge.
        let mut c = Transcript::new();
        c.absorb(b"td", b"ata");
        assert_ne!(a.clone().challenge(b"x"), c.challenge(b"x"));
        let x1 = a.challenge(b"x");
        let x2 = a.challenge(b"x");
        assert_ne!(x1, x2, "a challenge is absorbed before the next");
    }

    #[test]
    fn nonces_are_keyed_by_seed_and_statement() {
        let t = Transcript::new();
        let d = t.statement_digest();
        let mut n1 = Nonces::new(&[1; 32], d);
        let mut n2 = Nonces::new(&[1; 32], d);
        let mut n3 = Nonces::new(&[2; 32], d);
        let mut n4 = Nonces::new(&[1; 32], [0; 64]);
        let a = n1.scalars(3);
        assert_eq!(a, n2.scalars(3));
        assert_ne!(a[0], a[1]);
        assert_ne!(a[0], n3.scalar());
        assert_ne!(a[0], n4.scalar());
    }
}
