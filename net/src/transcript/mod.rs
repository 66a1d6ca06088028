//! The public transcript `transcript.fdt`: every signed message of a game, in the order this
//! peer took it, and no secret of anyone; anybody can check it with [`verify`] alone.
//!
//! ```text
//! file   = "FDTRANS\x02" entry*
//! entry  = u32_le len | bincode(Entry)         (1 ≤ len ≤ MAX_ENTRY)
//! Entry  = Table { config, accepts[4] }         the co-signed configuration, once, first
//!        | Hand { hand_no, dealer, scores, prev_result, keys, bots }   a deal begins
//!        | Envelope { hand_no, signed }         a signed hand envelope (any seat's)
//!        | Signed { from, msg }                 a signed table message: Timeout, Quit,
//!                                               Replace or Return (the reasons for a void)
//! ```
//!
//! The table session produces the entries ([`crate::table::TableSession::poll_public`]); the
//! node writes them beside the game log, bounded by [`MAX_FILE`]. The file is private to its
//! user like every file of the data folder (`0600`), but nothing in it is secret: it may be
//! handed to anybody.
//!
//! This file holds the file's bounds, its decoder and its writer. The entries are in
//! `entry.rs`; `check.rs` checks a whole file ([`verify`]), `replay.rs` each deal's envelopes,
//! `evidence.rs` what signed messages prove, and `report.rs` says what the check found.

mod check;
mod entry;
mod evidence;
mod replay;
pub mod report;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use fairdeal_crypto::encoding;

use crate::store::StoreError;

pub use self::check::{Checker, verify};
pub use self::entry::{Entry, Located, is_evidence};
pub use self::report::{FaultKind, HandStatus, Report, TranscriptFault};

/// The file's first bytes. The last is the format version, which names the rules a file is
/// checked by (2: every envelope under a hand context that hashes the seats' keys), so that a
/// file of other rules is refused as such rather than its envelopes reported as badly signed.
pub const MAGIC: &[u8; 8] = b"FDTRANS\x02";
/// The file's name in a game folder.
pub const FILE_NAME: &str = "transcript.fdt";
/// The largest entry (a hand message is at most 64 KiB; the entry adds a few bytes).
pub const MAX_ENTRY: usize = encoding::MAX_MESSAGE_BYTES + 1024;
/// The largest transcript written or read (a long game takes a few MiB).
pub const MAX_FILE: u64 = 256 << 20;

/// Why a transcript file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not a transcript.
    #[error("not a fairdeal transcript (it does not start with FDTRANS)")]
    NotATranscript,
    /// A transcript of another format version.
    #[error(
        "a fairdeal transcript of format version {0}; this program reads version {v}",
        v = MAGIC[7]
    )]
    Version(u8),
    /// Over [`MAX_FILE`].
    #[error("{0} bytes: larger than any transcript")]
    TooLarge(u64),
    /// An entry that does not decode.
    #[error("entry {index} at byte {offset}: {why}")]
    Bad {
        /// Entry number (from 0).
        index: usize,
        /// Its byte offset.
        offset: usize,
        /// What is wrong.
        why: String,
    },
}

/// Decodes a whole transcript. Never panics; memory is bounded by the input's size (entries
/// are at most [`MAX_ENTRY`] bytes, files at most [`MAX_FILE`]).
///
/// # Errors
///
/// The first thing wrong: the magic, a length, an entry that does not decode, or bytes cut
/// short (a transcript is written whole, entry by entry, so a torn tail is an error too).
pub fn decode(bytes: &[u8]) -> Result<Vec<Located>, DecodeError> {
    match decode_until_damage(bytes) {
        (entries, None) => Ok(entries),
        (_, Some(e)) => Err(e),
    }
}

/// Decodes a transcript up to its first damage: the entries before it, and what is wrong
/// there (`None`: the whole file decodes). A file that is no transcript of this version, or
/// too large, gives no entry. Never panics; memory is bounded as for [`decode`].
pub fn decode_until_damage(bytes: &[u8]) -> (Vec<Located>, Option<DecodeError>) {
    if bytes.len() as u64 > MAX_FILE {
        return (Vec::new(), Some(DecodeError::TooLarge(bytes.len() as u64)));
    }
    let Some(mut rest) = bytes.strip_prefix(MAGIC.as_slice()) else {
        let e = match bytes.strip_prefix(&MAGIC[..7]) {
            Some([version, ..]) => DecodeError::Version(*version),
            _ => DecodeError::NotATranscript,
        };
        return (Vec::new(), Some(e));
    };
    let mut out = Vec::new();
    let mut offset = MAGIC.len();
    while !rest.is_empty() {
        let index = out.len();
        let bad = |why: String| DecodeError::Bad { index, offset, why };
        let Some((len, tail)) = rest.split_first_chunk::<4>() else {
            return (out, Some(bad("cut short in its length".to_owned())));
        };
        let len = u32::from_le_bytes(*len) as usize;
        if len == 0 || len > MAX_ENTRY {
            return (out, Some(bad(format!("impossible length {len}"))));
        }
        if tail.len() < len {
            let why = format!("cut short ({} of {len} bytes)", tail.len());
            return (out, Some(bad(why)));
        }
        let (body, next) = tail.split_at(len);
        let entry: Entry = match encoding::decode_within::<_, MAX_ENTRY>(body) {
            Ok(entry) => entry,
            Err(e) => return (out, Some(bad(e.to_string()))),
        };
        out.push(Located {
            index,
            offset,
            entry,
        });
        offset += 4 + len;
        rest = next;
    }
    (out, None)
}

/// Why a transcript file gave no entries: it could not be read, or does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read (the words say which file and why).
    #[error("{0}")]
    Io(String),
    /// Its bytes are not a transcript this program reads.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// Reads and decodes `path`.
///
/// # Errors
///
/// The file cannot be read (a folder, a pipe, no permission), or does not decode.
pub fn read(path: &Path) -> Result<Vec<Located>, ReadError> {
    Ok(decode(&read_bytes(path)?)?)
}

/// Checks the transcript at `path` ([`verify`]): a file damaged part of the way through (a
/// disk fault, a copy cut short) has the entries before the damage checked, and the damage
/// is the report's last fault, naming no seat.
///
/// # Errors
///
/// The file cannot be read, is no transcript this program reads, or is damaged before its
/// first entry.
pub fn verify_file(path: &Path) -> Result<Report, ReadError> {
    let (entries, damage) = read_until_damage(path)?;
    let mut report = verify(&entries);
    report.faults.extend(damage);
    Ok(report)
}

/// Reads the transcript at `path` up to its first damage: the entries before it, and the
/// damage as a fault of the file (naming no seat), to be the last of a report on them.
///
/// # Errors
///
/// The file cannot be read, is no transcript this program reads, or is damaged before its
/// first entry (nothing in it can be checked).
pub fn read_until_damage(
    path: &Path,
) -> Result<(Vec<Located>, Option<TranscriptFault>), ReadError> {
    let (entries, damage) = decode_until_damage(&read_bytes(path)?);
    match damage {
        None => Ok((entries, None)),
        Some(DecodeError::Bad { index, offset, why }) if !entries.is_empty() => {
            let fault = TranscriptFault {
                seat: None,
                hand_no: None,
                kind: FaultKind::Damaged(why),
                at: Some((index, offset)),
            };
            Ok((entries, Some(fault)))
        }
        Some(e) => Err(e.into()),
    }
}

/// The bytes of the file at `path`, at most [`MAX_FILE`].
fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    let cannot = |e: std::io::Error| ReadError::Io(format!("cannot read {}: {e}", path.display()));
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > MAX_FILE {
        return Err(DecodeError::TooLarge(size).into());
    }
    // Read at most one byte past the limit: a device (or a file that grows) reports no size.
    let mut bytes = Vec::new();
    crate::store::open_named(path)
        .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(DecodeError::TooLarge(bytes.len() as u64).into());
    }
    Ok(bytes)
}

/// The transcript being written beside a game log.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: std::fs::File,
    size: u64,
}

impl Writer {
    /// Writes `dir/transcript.fdt` afresh with `entries` (a rebuilt session gives them all
    /// again, so the file always follows the game log).
    ///
    /// # Errors
    ///
    /// IO errors.
    pub fn create(dir: &Path, entries: &[Entry]) -> Result<Self, StoreError> {
        let path = dir.join(FILE_NAME);
        let mut bytes = MAGIC.to_vec();
        for e in entries {
            let r = e.to_record();
            if (bytes.len() + r.len()) as u64 > MAX_FILE {
                break;
            }
            bytes.extend_from_slice(&r);
        }
        crate::store::write_private(&path, &bytes)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|source| StoreError::Io {
                path: path.clone(),
                source,
            })?;
        Ok(Self {
            path,
            file,
            size: bytes.len() as u64,
        })
    }

    /// Appends `entries`; past [`MAX_FILE`] nothing more is written.
    ///
    /// # Errors
    ///
    /// IO errors.
    pub fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError> {
        let mut buf = Vec::new();
        for e in entries {
            let r = e.to_record();
            if self.size + (buf.len() + r.len()) as u64 > MAX_FILE {
                break;
            }
            buf.extend_from_slice(&r);
        }
        if buf.is_empty() {
            return Ok(());
        }
        self.file.write_all(&buf).map_err(|source| StoreError::Io {
            path: self.path.clone(),
            source,
        })?;
        self.size += buf.len() as u64;
        Ok(())
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::Seat;
    use fairdeal_crypto::PublicKey;
    use proptest::prelude::*;

    /// A device reports no size: it is read only up to the limit, then refused.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_file_is_refused_after_the_limit_not_read_whole() {
        let e = read(Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(e, ReadError::Decode(DecodeError::TooLarge(_))),
            "{e}"
        );
    }

    fn sample() -> Vec<Entry> {
        vec![
            Entry::Signed {
                from: PublicKey([3; 32]),
                msg: vec![1, 2, 3],
            },
            Entry::Hand {
                head: crate::hand::DealHead {
                    hand_no: 1,
                    dealer: Seat::E,
                    totals: [0, 0],
                    prev_result: [0; 32],
                },
                keys: Box::new([PublicKey([1; 32]); 4]),
                bots: Box::new([
                    None,
                    Some(crate::hand::Replacement {
                        runner: Seat::N,
                        seed: [9; 32],
                    }),
                    None,
                    None,
                ]),
            },
        ]
    }

    fn file(entries: &[Entry]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for e in entries {
            b.extend_from_slice(&e.to_record());
        }
        b
    }

    #[test]
    fn entries_round_trip_and_a_cut_is_an_error() {
        let b = file(&sample());
        let got: Vec<Entry> = decode(&b).unwrap().into_iter().map(|l| l.entry).collect();
        assert_eq!(got, sample());
        // Cut inside an entry: an error; between entries: the entries before the cut.
        let first = MAGIC.len() + sample()[0].to_record().len();
        for cut in MAGIC.len() + 1..b.len() {
            match decode(&b[..cut]) {
                Ok(entries) => assert!(cut == first && entries.len() == 1, "cut at {cut}"),
                Err(_) => assert_ne!(cut, first),
            }
            // Up to the damage: the entries whole before the cut, and the cut named where
            // it starts.
            let (before, damage) = decode_until_damage(&b[..cut]);
            let whole = usize::from(cut >= first);
            assert_eq!(before.len(), whole, "cut at {cut}");
            if cut != first {
                let start = if whole == 1 { first } else { MAGIC.len() };
                assert!(
                    matches!(damage, Some(DecodeError::Bad { index, offset, .. }) if index == whole && offset == start),
                    "cut at {cut}: {damage:?}"
                );
            }
        }
        assert_eq!(decode(b"hello"), Err(DecodeError::NotATranscript));
        assert_eq!(decode(b"FDTRANS"), Err(DecodeError::NotATranscript));
        assert_eq!(decode(MAGIC).unwrap(), Vec::new());
        // Another version is named as one, not as a file of another kind.
        let mut v1 = b.clone();
        v1[7] = 1;
        assert_eq!(decode(&v1), Err(DecodeError::Version(1)));
        assert!(
            DecodeError::Version(1)
                .to_string()
                .contains("format version 1; this program reads version 2")
        );
    }

    /// An entry holds the largest message a peer may send, with its framing; a length of
    /// two messages is refused (each entry's memory is bounded by one message).
    #[test]
    fn an_entry_holds_the_largest_message_and_no_more() {
        let largest = Entry::Signed {
            from: PublicKey([3; 32]),
            msg: vec![7; encoding::MAX_MESSAGE_BYTES],
        };
        let entries = decode(&file(std::slice::from_ref(&largest))).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].entry, largest);
        let mut b = MAGIC.to_vec();
        let two = u32::try_from(2 * encoding::MAX_MESSAGE_BYTES).unwrap();
        b.extend_from_slice(&two.to_le_bytes());
        b.extend_from_slice(&vec![0; 2 * encoding::MAX_MESSAGE_BYTES]);
        assert!(
            matches!(decode(&b), Err(DecodeError::Bad { why, .. }) if why.starts_with("impossible length")),
            "refused from its length alone"
        );
    }

    #[test]
    fn the_writer_appends_what_it_was_given() {
        let d = std::env::temp_dir().join(format!("fairdeal-fdt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let all = sample();
        let mut w = Writer::create(&d, &all[..1]).unwrap();
        w.append(&all[1..]).unwrap();
        assert_eq!(std::fs::read(w.path()).unwrap(), file(&all));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Random bytes after the magic never panic and give at most one entry per 5 bytes.
        #[test]
        fn random_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..4096)) {
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&tail);
            if let Ok(entries) = decode(&b) {
                prop_assert!(entries.len() <= tail.len() / 5);
            }
        }

        /// A valid file cut anywhere, or with one byte changed, never panics.
        #[test]
        fn cut_or_changed_files_never_panic(cut in any::<usize>(), at in any::<usize>(), x in 1u8..) {
            let b = file(&sample());
            let cut = cut % (b.len() + 1);
            let _ = decode(&b[..cut]);
            let mut c = b.clone();
            let at = at % c.len();
            c[at] ^= x;
            let _ = decode(&c);
        }

        /// A huge claimed length is refused without allocating it.
        #[test]
        fn huge_lengths_are_refused(len in (MAX_ENTRY as u32 + 1)..) {
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&len.to_le_bytes());
            b.extend_from_slice(&[0; 16]);
            let refused = matches!(decode(&b), Err(DecodeError::Bad { .. }));
            prop_assert!(refused);
        }
    }
}
