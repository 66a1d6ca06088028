//! Signed envelopes and per-sender hash chains.
//!
//! ```text
//! Envelope { version, sid, sender, seq, prev, body }  --encode-->  bytes
//! SignedEnvelope { bytes, sig }   (sig = ed25519 over label ‖ bytes; the exact bytes are kept)
//! SignedEnvelope::verify(key)  -->  Verified { envelope, hash }   (the only way to read one)
//! Chain::accept(&Verified)     -->  next in order, a duplicate, a gap, or equivocation
//! ```

use serde::{Deserialize, Serialize};

use crate::encoding::{self, DecodeError};
use crate::hash::{hash256, label};
use crate::identity::{BadSignature, Identity, PublicKey, Sig};

/// The protocol version carried in every envelope.
pub const PROTOCOL_VERSION: u16 = 1;

/// The signed header and an opaque body (decoded by the layer above).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// [`PROTOCOL_VERSION`].
    pub version: u16,
    /// The session (table) id.
    pub sid: [u8; 32],
    /// The sender's seat, 0..4.
    pub sender: u8,
    /// Per-sender sequence number, from 0, strictly +1.
    pub seq: u32,
    /// Hash of this sender's previous envelope (zeros for the first).
    pub prev: [u8; 32],
    /// The message.
    pub body: Vec<u8>,
}

/// An envelope as sent: its exact bytes and the signature over them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SignedEnvelope {
    /// `encode(Envelope)`, never re-encoded.
    pub bytes: Vec<u8>,
    /// The sender's signature.
    pub sig: Sig,
}

/// An envelope whose signature checked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The decoded envelope.
    pub envelope: Envelope,
    /// Its hash (the next envelope's `prev`).
    pub hash: [u8; 32],
    /// The signed original, kept as evidence.
    pub signed: SignedEnvelope,
}

/// Why an envelope was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvelopeError {
    /// Bytes that do not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A bad signature.
    #[error(transparent)]
    Signature(#[from] BadSignature),
    /// Another protocol version.
    #[error("protocol version {0} is not supported")]
    Version(u16),
    /// Another session.
    #[error("envelope for another session")]
    WrongSession,
    /// The sender seat does not match the key.
    #[error("envelope claims seat {0} but is not signed by that seat")]
    WrongSender(u8),
}

impl SignedEnvelope {
    /// Signs a new envelope.
    pub fn seal(identity: &Identity, envelope: &Envelope) -> Self {
        let bytes = encoding::encode(envelope);
        let sig = identity.sign(&bytes);
        Self { bytes, sig }
    }

    /// Decodes from wire bytes.
    ///
    /// # Errors
    ///
    /// Malformed or trailing bytes.
    pub fn from_wire(bytes: &[u8]) -> Result<Self, DecodeError> {
        encoding::decode(bytes)
    }

    /// The wire bytes.
    pub fn to_wire(&self) -> Vec<u8> {
        encoding::encode(self)
    }

    /// The hash that links the chain.
    pub fn hash(&self) -> [u8; 32] {
        hash256(label::ENVELOPE_HASH, &[&self.bytes, &self.sig.0])
    }

    /// Checks the signature against the key of the seat it claims, and the session.
    ///
    /// `keys[seat]` is the pinned key of each seat.
    ///
    /// # Errors
    ///
    /// Any failure; a bad signature says nothing more.
    pub fn verify(&self, sid: &[u8; 32], keys: &[PublicKey]) -> Result<Verified, EnvelopeError> {
        let envelope: Envelope = encoding::decode(&self.bytes)?;
        let key = keys
            .get(usize::from(envelope.sender))
            .ok_or(EnvelopeError::WrongSender(envelope.sender))?;
        key.verify(&self.bytes, &self.sig)?;
        if envelope.version != PROTOCOL_VERSION {
            return Err(EnvelopeError::Version(envelope.version));
        }
        if &envelope.sid != sid {
            return Err(EnvelopeError::WrongSession);
        }
        Ok(Verified {
            envelope,
            hash: self.hash(),
            signed: self.clone(),
        })
    }
}

/// One sender's chain as seen by a receiver.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chain {
    next_seq: u32,
    last: [u8; 32],
    /// Hashes of accepted envelopes by seq, to tell duplicates from equivocation.
    seen: Vec<([u8; 32], SignedEnvelope)>,
}

/// What a receiver does with an envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accept {
    /// The next one in order: process it.
    Next,
    /// An exact duplicate: ignore it.
    Duplicate,
    /// A later one: buffer it and ask for the gap.
    Gap {
        /// The first missing sequence number.
        expected: u32,
    },
    /// A different envelope for a slot already filled: both are evidence.
    Equivocation(Box<[SignedEnvelope; 2]>),
    /// The sequence number is right but `prev` does not link.
    BrokenLink,
}

impl Chain {
    /// The sequence number expected next.
    pub fn next_seq(&self) -> u32 {
        self.next_seq
    }

    /// The hash of the last envelope accepted (zeros before the first).
    pub fn last(&self) -> [u8; 32] {
        self.last
    }

    /// The hash of the envelope accepted at `seq`, if any.
    pub fn hash_at(&self, seq: u32) -> Option<[u8; 32]> {
        self.seen.get(seq as usize).map(|(h, _)| *h)
    }

    /// The envelope accepted at `seq`, if any.
    pub fn get(&self, seq: u32) -> Option<&SignedEnvelope> {
        self.seen.get(seq as usize).map(|(_, e)| e)
    }

    /// Classifies `v`; on [`Accept::Next`] the chain advances.
    pub fn accept(&mut self, v: &Verified) -> Accept {
        let seq = v.envelope.seq;
        if seq < self.next_seq {
            let (hash, first) = &self.seen[seq as usize];
            return if *hash == v.hash {
                Accept::Duplicate
            } else {
                Accept::Equivocation(Box::new([first.clone(), v.signed.clone()]))
            };
        }
        if seq > self.next_seq {
            return Accept::Gap {
                expected: self.next_seq,
            };
        }
        if v.envelope.prev != self.last {
            return Accept::BrokenLink;
        }
        self.next_seq += 1;
        self.last = v.hash;
        self.seen.push((v.hash, v.signed.clone()));
        Accept::Next
    }
}

/// Writes one seat's envelopes with the right sequence numbers and links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbox {
    sid: [u8; 32],
    sender: u8,
    next_seq: u32,
    last: [u8; 32],
}

impl Outbox {
    /// A fresh outbox for `sender` in session `sid`.
    pub fn new(sid: [u8; 32], sender: u8) -> Self {
        Self {
            sid,
            sender,
            next_seq: 0,
            last: [0; 32],
        }
    }

    /// Continues after a restart: the next envelope has `next_seq` and links to `last`.
    pub fn resume(&mut self, next_seq: u32, last: [u8; 32]) {
        self.next_seq = next_seq;
        self.last = last;
    }

    /// Signs `body` as the next envelope.
    pub fn seal(&mut self, identity: &Identity, body: Vec<u8>) -> SignedEnvelope {
        let envelope = Envelope {
            version: PROTOCOL_VERSION,
            sid: self.sid,
            sender: self.sender,
            seq: self.next_seq,
            prev: self.last,
            body,
        };
        let signed = SignedEnvelope::seal(identity, &envelope);
        self.next_seq += 1;
        self.last = signed.hash();
        signed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (Identity, Vec<PublicKey>, [u8; 32]) {
        let id = Identity::from_secret([9; 32]);
        let keys = vec![id.public(), Identity::from_secret([8; 32]).public()];
        (id, keys, [1; 32])
    }

    #[test]
    fn chain_accepts_in_order_and_flags_duplicates_gaps_and_equivocation() {
        let (id, keys, sid) = setup();
        let mut out = Outbox::new(sid, 0);
        let a = out.seal(&id, b"a".to_vec()).verify(&sid, &keys).unwrap();
        let b = out.seal(&id, b"b".to_vec()).verify(&sid, &keys).unwrap();
        let mut chain = Chain::default();
        assert_eq!(chain.accept(&b), Accept::Gap { expected: 0 });
        assert_eq!(chain.accept(&a), Accept::Next);
        assert_eq!(chain.accept(&a), Accept::Duplicate);
        assert_eq!(chain.accept(&b), Accept::Next);
        // Another envelope signed for seq 1.
        let mut fork = Outbox::new(sid, 0);
        let _ = fork.seal(&id, b"a".to_vec());
        let b2 = fork.seal(&id, b"B".to_vec()).verify(&sid, &keys).unwrap();
        assert!(matches!(chain.accept(&b2), Accept::Equivocation(_)));
    }

    #[test]
    fn wrong_session_sender_or_bytes_are_rejected() {
        let (id, keys, sid) = setup();
        let mut out = Outbox::new(sid, 0);
        let env = out.seal(&id, b"x".to_vec());
        assert_eq!(
            env.verify(&[2; 32], &keys),
            Err(EnvelopeError::WrongSession)
        );
        let mut as_seat1 = Outbox::new(sid, 1);
        let forged = as_seat1.seal(&id, b"x".to_vec());
        assert!(matches!(
            forged.verify(&sid, &keys),
            Err(EnvelopeError::Signature(_))
        ));
        let mut flipped = env.clone();
        flipped.bytes[3] ^= 1;
        assert!(flipped.verify(&sid, &keys).is_err());
        assert_eq!(SignedEnvelope::from_wire(&env.to_wire()).unwrap(), env);
    }
}
