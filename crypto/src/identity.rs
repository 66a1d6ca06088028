//! Player identities: one 32-byte secret gives the ed25519 signing key (and, in `net`, the
//! libp2p identity with the same public key).

use std::fmt;

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use zeroize::Zeroize;

use crate::hash::{hash256, label};

/// A player's secret identity. The secret is wiped on drop and never printed.
pub struct Identity {
    key: SigningKey,
}

impl Identity {
    /// The identity of a 32-byte secret (persisted by the caller).
    pub fn from_secret(mut secret: [u8; 32]) -> Self {
        let key = SigningKey::from_bytes(&secret);
        secret.zeroize();
        Self { key }
    }

    /// The 32-byte secret, for the caller to persist.
    pub fn secret(&self) -> [u8; 32] {
        self.key.to_bytes()
    }

    /// The public half.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.key.verifying_key().to_bytes())
    }

    /// Signs `message` under the envelope label.
    pub fn sign(&self, message: &[u8]) -> Sig {
        let sig = self.key.sign(&signed_bytes(message));
        Sig(sig.to_bytes().to_vec())
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({})", self.public().fingerprint())
    }
}

fn signed_bytes(message: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(label::ENVELOPE.len() + message.len());
    m.extend_from_slice(label::ENVELOPE);
    m.extend_from_slice(message);
    m
}

/// An ed25519 public key (32 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PublicKey(pub [u8; 32]);

/// An ed25519 signature (64 bytes; a `Vec` so that serde and bincode carry it as is).
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sig(pub Vec<u8>);

impl fmt::Debug for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sig({} bytes)", self.0.len())
    }
}

/// A signature that does not verify (no detail is given to the peer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("signature invalid")]
pub struct BadSignature;

impl PublicKey {
    /// Verifies `sig` on `message` with `verify_strict` (rejects weak keys and malleable
    /// signatures).
    ///
    /// # Errors
    ///
    /// [`BadSignature`] for any failure.
    pub fn verify(&self, message: &[u8], sig: &Sig) -> Result<(), BadSignature> {
        let key = VerifyingKey::from_bytes(&self.0).map_err(|_| BadSignature)?;
        let bytes: [u8; 64] = sig.0.as_slice().try_into().map_err(|_| BadSignature)?;
        let sig = Signature::from_bytes(&bytes);
        key.verify_strict(&signed_bytes(message), &sig)
            .map_err(|_| BadSignature)
    }

    /// A fingerprint people can compare aloud: 16 hex digits in four groups.
    pub fn fingerprint(&self) -> String {
        let h = hash256(label::FINGERPRINT, &[&self.0]);
        h[..8]
            .chunks(2)
            .map(|c| format!("{:02x}{:02x}", c[0], c[1]))
            .collect::<Vec<_>>()
            .join("-")
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.fingerprint())
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fingerprint())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_verify_and_tamper() {
        let id = Identity::from_secret([3; 32]);
        let sig = id.sign(b"hello");
        assert!(id.public().verify(b"hello", &sig).is_ok());
        assert!(id.public().verify(b"hellp", &sig).is_err());
        let other = Identity::from_secret([4; 32]);
        assert!(other.public().verify(b"hello", &sig).is_err());
        assert!(id.public().verify(b"hello", &Sig(vec![0; 63])).is_err());
    }

    /// Two forgeries that ed25519's lenient `verify` accepts and `verify_strict` refuses: the
    /// identity point as the key with `R` = identity and `s` = 0 (valid for every message), and a
    /// real key with a small-order `R` (the identity) and `s = k·a`. The test asserts that the
    /// lenient verifier accepts both, so it can tell the two verifiers apart.
    ///
    /// Sabotage caught (checked): `PublicKey::verify` calling `key.verify` (the `Verifier`
    /// trait) instead of `key.verify_strict`.
    #[test]
    fn weak_keys_and_small_order_commitments_are_rejected() {
        use curve25519_dalek::scalar::Scalar;
        use ed25519_dalek::Verifier;
        use sha2::{Digest, Sha512};

        let mut identity = [0u8; 32];
        identity[0] = 1;
        // 1. The identity as the key: s·B = R + k·A holds with R = identity, s = 0.
        let mut forged = [0u8; 64];
        forged[0] = 1;
        let weak = VerifyingKey::from_bytes(&identity).unwrap();
        for m in [&b"m"[..], b"another message"] {
            let sig = Signature::from_bytes(&forged);
            assert!(
                weak.verify(&signed_bytes(m), &sig).is_ok(),
                "lenient verify accepts"
            );
            assert_eq!(
                PublicKey(identity).verify(m, &Sig(forged.to_vec())),
                Err(BadSignature)
            );
        }
        // 2. A real key and R = identity (small order): s = k·a with k = H(R ‖ A ‖ M).
        let id = Identity::from_secret([5; 32]);
        let a = id.key.to_scalar();
        let public = id.public();
        let message = b"move 7";
        let k = Scalar::from_bytes_mod_order_wide(
            &Sha512::new()
                .chain_update(identity)
                .chain_update(public.0)
                .chain_update(signed_bytes(message))
                .finalize()
                .into(),
        );
        let mut forged = [0u8; 64];
        forged[..32].copy_from_slice(&identity);
        forged[32..].copy_from_slice((k * a).as_bytes());
        let key = VerifyingKey::from_bytes(&public.0).unwrap();
        assert!(
            key.verify(&signed_bytes(message), &Signature::from_bytes(&forged))
                .is_ok(),
            "lenient verify accepts a small-order R"
        );
        assert_eq!(
            public.verify(message, &Sig(forged.to_vec())),
            Err(BadSignature)
        );
        // The honest signature on the same message still verifies.
        assert!(public.verify(message, &id.sign(message)).is_ok());
    }

    /// s + ℓ (a non-canonical s) is refused. Both dalek verifiers refuse it (the scalar check
    /// is shared), so this pins that no lenient path (`legacy_compatibility`) is switched on.
    #[test]
    fn malleable_signatures_are_rejected() {
        let id = Identity::from_secret([5; 32]);
        let mut sig = id.sign(b"m").0;
        let l: [u8; 32] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
            0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ];
        let mut carry = 0u16;
        for i in 0..32 {
            let v = u16::from(sig[32 + i]) + u16::from(l[i]) + carry;
            sig[32 + i] = v as u8;
            carry = v >> 8;
        }
        assert!(id.public().verify(b"m", &Sig(sig)).is_err());
    }

    #[test]
    fn fingerprint_shape() {
        let fp = Identity::from_secret([1; 32]).public().fingerprint();
        assert_eq!(fp.len(), 19);
        assert_eq!(fp.matches('-').count(), 3);
    }
}
