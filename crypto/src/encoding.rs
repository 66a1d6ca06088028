//! The one place where bytes are encoded and decoded (bincode 2, standard config).
//!
//! Every decode has a size limit and rejects trailing bytes, so a message has exactly one
//! encoding; a switch to another format would touch only this file.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest message accepted (PROTOCOL.md §8 P11).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Why bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Longer than [`MAX_MESSAGE_BYTES`].
    #[error("message of {0} bytes is over the limit")]
    TooLong(usize),
    /// Not a valid encoding.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// Valid, but followed by extra bytes.
    #[error("{0} trailing bytes after the message")]
    Trailing(usize),
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_MESSAGE_BYTES>()
}

/// Encodes `value`.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // INVARIANT: encoding into a Vec only fails for values over the limit, and every type we
    // encode is bounded well below it; an empty result then fails to decode, never panics.
    bincode::serde::encode_to_vec(value, config()).unwrap_or_default()
}

/// Decodes exactly one `T` from all of `bytes`.
///
/// # Errors
///
/// Too long, malformed, or trailing bytes.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(DecodeError::TooLong(bytes.len()));
    }
    let (value, used) = bincode::serde::decode_from_slice(bytes, config())
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if used != bytes.len() {
        return Err(DecodeError::Trailing(bytes.len() - used));
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
}
