//! The one place where bytes are encoded and decoded (bincode 2, standard config).
//!
//! Every decode has a size limit, rejects trailing bytes, and accepts only the canonical
//! encoding (the bytes `encode` gives for the value decoded: bincode 2 also reads
//! non-minimal varints, so without this check two byte strings could mean one message and be
//! signed as two); a switch to another format would touch only this file.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest message accepted (PROTOCOL.md §8 P11).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Why bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Longer than the limit ([`MAX_MESSAGE_BYTES`] for a message).
    #[error("message of {0} bytes is over the limit")]
    TooLong(usize),
    /// Not a valid encoding.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// Valid, but followed by extra bytes.
    #[error("{0} trailing bytes after the message")]
    Trailing(usize),
    /// A valid value, but not in its one encoding (a non-minimal integer).
    #[error("message not in its canonical encoding")]
    NotCanonical,
}

fn config<const LIMIT: usize>() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<LIMIT>()
}

/// Encodes `value`.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    encode_within::<T, MAX_MESSAGE_BYTES>(value)
}

/// Encodes `value`, which may take up to `LIMIT` bytes (a record that wraps a whole message
/// and a few bytes more, say).
pub fn encode_within<T: Serialize, const LIMIT: usize>(value: &T) -> Vec<u8> {
    // INVARIANT: encoding into a Vec only fails for values over the limit, and every type we
    // encode is bounded below it; an empty result then fails to decode, never panics.
    bincode::serde::encode_to_vec(value, config::<LIMIT>()).unwrap_or_default()
}

/// Decodes exactly one `T` from all of `bytes`, which must be its canonical encoding.
///
/// # Errors
///
/// Too long, malformed, trailing bytes, or not the canonical encoding.
pub fn decode<T: Serialize + DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    decode_within::<T, MAX_MESSAGE_BYTES>(bytes)
}

/// [`decode`] for a value of up to `LIMIT` bytes.
///
/// # Errors
///
/// As [`decode`], with `LIMIT` for the length.
pub fn decode_within<T: Serialize + DeserializeOwned, const LIMIT: usize>(
    bytes: &[u8],
) -> Result<T, DecodeError> {
    if bytes.len() > LIMIT {
        return Err(DecodeError::TooLong(bytes.len()));
    }
    let (value, used) = bincode::serde::decode_from_slice(bytes, config::<LIMIT>())
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if used != bytes.len() {
        return Err(DecodeError::Trailing(bytes.len() - used));
    }
    if encode_within::<T, LIMIT>(&value) != bytes {
        return Err(DecodeError::NotCanonical);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_bytes_and_huge_lengths_are_rejected() {
        let mut bytes = encode(&(7u32, vec![1u8, 2, 3]));
        assert_eq!(decode::<(u32, Vec<u8>)>(&bytes), Ok((7, vec![1, 2, 3])));
        bytes.push(0);
        assert_eq!(
            decode::<(u32, Vec<u8>)>(&bytes),
            Err(DecodeError::Trailing(1))
        );
        // A length prefix claiming 2^60 elements must fail without allocating.
        let huge = [0xFFu8, 0, 0, 0, 0, 0, 0, 0, 0x10];
        assert!(decode::<Vec<u64>>(&huge).is_err());
    }

    /// Sabotage caught (checked): without the re-encoding check, 7 written as a 3-byte varint
    /// (`0xFB 7 0`) decoded as 7.
    #[test]
    fn only_the_canonical_encoding_is_accepted() {
        assert_eq!(encode(&7u32), vec![7]);
        assert_eq!(decode::<u32>(&[0xFB, 7, 0]), Err(DecodeError::NotCanonical));
        assert_eq!(encode(&300u32), vec![0xFB, 0x2C, 0x01]);
        assert_eq!(decode::<u32>(&[0xFB, 0x2C, 0x01]), Ok(300));
        // A length prefix written long.
        assert_eq!(
            decode::<Vec<u8>>(&[0xFB, 1, 0, 9]),
            Err(DecodeError::NotCanonical)
        );
    }

    proptest::proptest! {
        /// Any bytes either decode to a value whose encoding is exactly those bytes, or are
        /// refused.
        #[test]
        fn bytes_decode_to_their_own_encoding_or_are_refused(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            if let Ok(v) = decode::<(u32, Vec<u16>, Option<u64>)>(&bytes) {
                proptest::prop_assert_eq!(encode(&v), bytes);
            }
        }
    }
}
