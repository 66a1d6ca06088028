//! The game log `GAME.fdlog`: append-only, one record per message, checksummed and
//! hash-chained, synced to disk before anything is sent.
//!
//! ```text
//! file   = "FDLOG\x01\r\n" record*
//! record = u32_le len | u32_le crc32(payload) | payload
//! payload= kind u8 | prev [32] (SHA-256 of the previous payload) | data
//! ```
//!
//! A record cut short or garbled at the very end (a crash mid-write) is cut off when the log
//! is opened ("repaired"); a bad record anywhere else is corruption, reported and never
//! silently skipped.
//!
//! Everything here is for one user only: data directories are made `0700`, and the log, the
//! lock and the identity file `0600` (on Unix), since the log's first record holds the
//! game's master secret.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use fairdeal_crypto::hash::hash256;
use serde::{Deserialize, Serialize};

use crate::table::msg::SeatInfo;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"FDLOG\x01\r\n";
/// The largest record accepted.
pub const MAX_RECORD: usize = 1 << 20;

/// The largest game log read (a long game's is a few tens of MiB): a device or a huge file
/// given to `verify` is refused, never read whole.
pub const MAX_LOG_BYTES: u64 = 512 << 20;

/// Whether the log's peer hosted the table or joined it (written `host` / `join`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// It hosted the table.
    Host,
    /// It joined a table.
    Join,
}

/// How this peer took part (the first record of every log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Host or joiner.
    pub role: Part,
    /// This peer's seat card.
    pub me: SeatInfo,
    /// The computer strategy playing this seat, if any.
    pub bot: Option<String>,
    /// The per-game secret from which hand seeds derive (the local seat's hand secrets).
    pub master: [u8; 32],
    /// Host only: the table's name, preset and house rules (JSON).
    pub table: Option<(String, fairdeal_core::Preset, String)>,
    /// Joiner: the host's identity, once known.
    pub host: Option<fairdeal_crypto::PublicKey>,
    /// Host: the game starts when the host says so (not as soon as four are seated).
    #[serde(default)]
    pub hold: bool,
    /// Joiner: the seat asked for.
    #[serde(default)]
    pub want: Option<u8>,
    /// Host: the move clock (ms a turn; 0: none).
    #[serde(default)]
    pub move_clock_ms: u64,
}

/// One record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// Who we are in this game.
    Meta(Box<Meta>),
    /// A message received, exactly as received, with the sender's identity.
    Recv {
        /// Sender.
        from: [u8; 32],
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// A message this peer sent (logged before sending).
    Sent {
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// A move the local person made (computer moves are re-derived).
    Intent {
        /// The move as JSON.
        json: String,
    },
    /// The joiner learnt the host.
    Joined {
        /// The host's identity.
        host: [u8; 32],
    },
}

impl Record {
    fn kind(&self) -> u8 {
        match self {
            Self::Meta(_) => 1,
            Self::Recv { .. } => 2,
            Self::Sent { .. } => 3,
            Self::Intent { .. } => 4,
            Self::Joined { .. } => 5,
        }
    }

    fn data(&self) -> Vec<u8> {
        match self {
            Self::Meta(m) => serde_json::to_vec(m).unwrap_or_default(),
            Self::Recv { from, bytes } => [&from[..], bytes].concat(),
            Self::Sent { bytes } => bytes.clone(),
            Self::Intent { json } => json.as_bytes().to_vec(),
            Self::Joined { host } => host.to_vec(),
        }
    }

    fn parse(kind: u8, data: &[u8]) -> Option<Self> {
        Some(match kind {
            1 => Self::Meta(Box::new(serde_json::from_slice(data).ok()?)),
            2 if data.len() >= 32 => Self::Recv {
                from: data[..32].try_into().ok()?,
                bytes: data[32..].to_vec(),
            },
            3 => Self::Sent {
                bytes: data.to_vec(),
            },
            4 => Self::Intent {
                json: String::from_utf8(data.to_vec()).ok()?,
            },
            5 if data.len() == 32 => Self::Joined {
                host: data.try_into().ok()?,
            },
            _ => return None,
        })
    }
}

/// What went wrong with a log.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not a fairdeal log.
    #[error("{0}: not a fairdeal game log")]
    NotALog(PathBuf),
    /// A bad record before the end.
    #[error(
        "{path}: record {index} at byte {offset} is corrupt ({why}); the log is damaged before its end"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Record number (from 0).
        index: usize,
        /// Byte offset.
        offset: u64,
        /// What is wrong.
        why: &'static str,
    },
    /// Another process holds the data directory.
    #[error("{0} is in use by another fairdeal process")]
    Locked(PathBuf),
    /// Larger than any game log ([`MAX_LOG_BYTES`]).
    #[error("{0}: larger than any game log (over 512 MiB)")]
    TooLarge(PathBuf),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Creates `dir` and its missing parents for this user only (`0700` on Unix), and makes
/// `dir` itself so if it already existed.
///
/// # Errors
///
/// IO errors.
pub fn private_dir(dir: &Path) -> Result<(), StoreError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(io(dir))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io(dir))?;
    }
    Ok(())
}

/// Options that create a file readable and writable by this user only (`0600` on Unix).
fn private_options() -> OpenOptions {
    let mut o = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o
}

/// Makes an existing file this user's only (`0600` on Unix; files made before this rule).
fn make_private(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(io(path))?;
    }
    let _ = path;
    Ok(())
}

/// Writes `bytes` to `path` (replacing it), synced, readable by this user only. The bytes go
/// to a temporary file beside it, which is then renamed over `path`: a crash mid-write
/// leaves the old file whole (an identity or the settings are never half written).
///
/// # Errors
///
/// IO errors.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // tempfile creates the file owner-only (0600 on Unix).
    let mut f = tempfile::NamedTempFile::new_in(dir).map_err(io(path))?;
    f.write_all(bytes)
        .and_then(|()| f.as_file().sync_all())
        .map_err(io(path))?;
    f.persist(path).map_err(|e| io(path)(e.error))?;
    make_private(path)?;
    // The rename itself is made durable by syncing the directory (where the OS allows it).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What reading a log found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The good records, in order.
    pub records: Vec<Record>,
    /// Bytes cut off a torn last record (0 if the log was whole).
    pub repaired_bytes: u64,
    /// Whether that last record was whole but failed its checksum (half written by a crash,
    /// or altered) rather than cut short.
    pub tail_damaged: bool,
    /// The hash of the last record (the next record's `prev`).
    pub head: [u8; 32],
    /// Where the good part ends.
    pub end: u64,
}

/// Opens a file a person named (a game log, a transcript, a scenario) for reading. A folder,
/// a named pipe or a socket is refused, not opened: a folder opens on some systems and then
/// fails to read with words of the system's own, and opening a pipe waits until something
/// writes to it, so a command given one would wait for ever. Devices open (each reader stops
/// at its own size limit).
///
/// # Errors
///
/// The file cannot be opened, or is a folder, a pipe or a socket.
pub fn open_named(path: &Path) -> std::io::Result<File> {
    let refuse = |what: &str| Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, what));
    let kind = std::fs::metadata(path)?.file_type();
    if kind.is_dir() {
        return refuse("a folder, not a file");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() || kind.is_socket() {
            return refuse("a named pipe or a socket, not a file");
        }
    }
    File::open(path)
}

/// Whether `path` is a private game log (it starts with the log's magic).
pub fn is_game_log(path: &Path) -> bool {
    let mut head = [0u8; 8];
    open_named(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == MAGIC)
}

/// Reads and checks a log; a torn tail is reported in `repaired_bytes` (not cut here).
///
/// # Errors
///
/// IO errors, a file that is not a log, or corruption before the end.
pub fn read(path: &Path) -> Result<Loaded, StoreError> {
    let mut bytes = Vec::new();
    open_named(path)
        .and_then(|f| f.take(MAX_LOG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io(path))?;
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(StoreError::TooLarge(path.to_owned()));
    }
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(StoreError::NotALog(path.to_owned()));
    }
    let mut loaded = Loaded::default();
    let mut at = MAGIC.len();
    let total = bytes.len();
    while at < total {
        let index = loaded.records.len();
        let corrupt = |why| StoreError::Corrupt {
            path: path.to_owned(),
            index,
            offset: at as u64,
            why,
        };
        if total - at < 8 {
            loaded.repaired_bytes = (total - at) as u64;
            break;
        }
        let len =
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let crc = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
        let end = at + 8 + len;
        if end > total {
            // Cut short by a crash: the tail is repaired.
            loaded.repaired_bytes = (total - at) as u64;
            break;
        }
        if !(33..=MAX_RECORD).contains(&len) {
            return Err(corrupt("impossible length"));
        }
        let payload = &bytes[at + 8..end];
        if crc32fast::hash(payload) != crc {
            if end == total {
                loaded.repaired_bytes = (total - at) as u64;
                loaded.tail_damaged = true;
                break;
            }
            return Err(corrupt("checksum mismatch"));
        }
        if payload[1..33] != loaded.head {
            return Err(corrupt("broken hash chain"));
        }
        let record =
            Record::parse(payload[0], &payload[33..]).ok_or_else(|| corrupt("unknown record"))?;
        loaded.head = hash256(b"fairdeal/v1/log", &[payload]);
        loaded.records.push(record);
        at = end;
        loaded.end = at as u64;
    }
    if loaded.end == 0 {
        loaded.end = MAGIC.len() as u64;
    }
    Ok(loaded)
}

/// An open log for appending.
#[derive(Debug)]
pub struct GameLog {
    path: PathBuf,
    file: File,
    head: [u8; 32],
    _lock: File,
}

impl GameLog {
    /// Opens (or creates) `dir/GAME.fdlog`, locking `dir` for this process, repairing a torn
    /// tail; returns the log and the records already in it.
    ///
    /// # Errors
    ///
    /// The directory is in use, IO errors, or corruption before the end.
    pub fn open(dir: &Path) -> Result<(Self, Loaded), StoreError> {
        private_dir(dir)?;
        let lock_path = dir.join("LOCK");
        let lock = private_options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io(&lock_path))?;
        if lock.try_lock().is_err() {
            return Err(StoreError::Locked(dir.to_owned()));
        }
        let path = dir.join("GAME.fdlog");
        if path.exists() {
            make_private(&path)?;
        } else {
            write_private(&path, MAGIC)?;
        }
        let loaded = read(&path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        if loaded.repaired_bytes > 0 {
            file.set_len(loaded.end)
                .and_then(|()| file.sync_all())
                .map_err(io(&path))?;
        }
        file.seek(SeekFrom::Start(loaded.end)).map_err(io(&path))?;
        Ok((
            Self {
                path,
                file,
                head: loaded.head,
                _lock: lock,
            },
            loaded,
        ))
    }

    /// Appends a record and syncs it to disk.
    ///
    /// # Errors
    ///
    /// IO errors.
    pub fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        let mut payload = vec![record.kind()];
        payload.extend_from_slice(&self.head);
        payload.extend_from_slice(&record.data());
        let mut buf = Vec::with_capacity(payload.len() + 8);
        buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        buf.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        buf.extend_from_slice(&payload);
        self.file
            .write_all(&buf)
            .and_then(|()| self.file.sync_data())
            .map_err(io(&self.path))?;
        self.head = hash256(b"fairdeal/v1/log", &[&payload]);
        Ok(())
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The identity secret in `dir/identity.key`, if there is a well-formed one (never creates it).
pub fn read_identity(dir: &Path) -> Option<[u8; 32]> {
    std::fs::read(dir.join("identity.key"))
        .ok()
        .and_then(|b| b.as_slice().try_into().ok())
}

/// Reads or creates the identity secret `dir/identity.key` (32 bytes).
///
/// # Errors
///
/// IO errors, or a key file of the wrong size.
pub fn identity_secret(
    dir: &Path,
    fresh: impl FnOnce() -> [u8; 32],
) -> Result<[u8; 32], StoreError> {
    private_dir(dir)?;
    let path = dir.join("identity.key");
    if let Ok(bytes) = std::fs::read(&path) {
        make_private(&path)?;
        return bytes
            .as_slice()
            .try_into()
            .map_err(|_| StoreError::NotALog(path.clone()));
    }
    let secret = fresh();
    write_private(&path, &secret)?;
    Ok(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device reports no size: it is read only up to the limit, then refused.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_endless_log_is_refused_after_the_limit_not_read_whole() {
        let e = read(Path::new("/dev/zero")).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("/dev/zero: larger than any game log (over 512 MiB)")
        );
    }

    /// A named pipe is refused at once: opened, it would wait for a writer for ever (the
    /// open runs on a thread, so that the test fails rather than hangs with the check undone).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_named_pipe_is_refused_not_waited_on() {
        let d = dir("fifo");
        std::fs::create_dir_all(&d).unwrap();
        let pipe = d.join("game.fdt");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (tx, rx) = std::sync::mpsc::channel();
        let p = pipe.clone();
        std::thread::spawn(move || {
            let _ = tx.send((
                open_named(&p).map(|_| ()).map_err(|e| e.to_string()),
                is_game_log(&p),
                read(&p).err().map(|e| e.to_string()),
            ));
        });
        let (opened, log, read) = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("opening a named pipe waited");
        assert_eq!(
            opened,
            Err("a named pipe or a socket, not a file".to_owned())
        );
        assert!(!log);
        assert!(read.is_some_and(|e| e.contains("a named pipe")));
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fairdeal-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn the_part_is_written_as_the_words_older_logs_carry() {
        assert_eq!(serde_json::to_string(&Part::Host).unwrap(), "\"host\"");
        assert_eq!(serde_json::to_string(&Part::Join).unwrap(), "\"join\"");
        assert_eq!(
            serde_json::from_str::<Part>("\"join\"").unwrap(),
            Part::Join
        );
        assert!(serde_json::from_str::<Part>("\"guest\"").is_err());
    }

    fn sample() -> Vec<Record> {
        vec![
            Record::Sent {
                bytes: vec![1, 2, 3],
            },
            Record::Recv {
                from: [7; 32],
                bytes: vec![9; 100],
            },
            Record::Intent {
                json: "{\"draw\":{}}".to_owned(),
            },
        ]
    }

    #[test]
    fn records_round_trip_and_the_directory_is_locked() {
        let d = dir("roundtrip");
        {
            let (mut log, loaded) = GameLog::open(&d).unwrap();
            assert!(loaded.records.is_empty());
            for r in sample() {
                log.append(&r).unwrap();
            }
            assert!(matches!(GameLog::open(&d), Err(StoreError::Locked(_))));
        }
        let (_, loaded) = GameLog::open(&d).unwrap();
        assert_eq!(loaded.records, sample());
        assert_eq!(loaded.repaired_bytes, 0);
    }

    #[cfg(unix)]
    #[test]
    fn the_data_directory_and_its_files_are_the_users_only() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("private");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // A log from before the rule, readable by all, is made private when opened again.
        std::fs::create_dir_all(&d).unwrap();
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        drop(GameLog::open(&d).unwrap());
        std::fs::set_permissions(d.join("GAME.fdlog"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        drop(GameLog::open(&d).unwrap());
        identity_secret(&d, || [5; 32]).unwrap();
        assert_eq!(mode(&d), 0o700);
        for f in ["GAME.fdlog", "LOCK", "identity.key"] {
            assert_eq!(mode(&d.join(f)), 0o600, "{f}");
        }
        let nested = d.join("a").join("b");
        private_dir(&nested).unwrap();
        assert_eq!(mode(&d.join("a")), 0o700);
        assert_eq!(mode(&nested), 0o700);
        write_private(&nested.join("game.json"), b"{}").unwrap();
        assert_eq!(mode(&nested.join("game.json")), 0o600);
    }

    /// The old file is never written into: a second name for it (as a crash's reader would
    /// hold) still reads the old bytes whole, and no temporary file is left behind.
    #[cfg(unix)]
    #[test]
    fn a_private_file_is_replaced_whole_never_written_in_place() {
        let d = dir("replace");
        private_dir(&d).unwrap();
        let path = d.join("settings.json");
        write_private(&path, b"old settings").unwrap();
        std::fs::hard_link(&path, d.join("old")).unwrap();
        write_private(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read(d.join("old")).unwrap(), b"old settings");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            2,
            "no temporary file left"
        );
    }

    #[test]
    fn a_torn_tail_is_repaired_and_corruption_elsewhere_is_reported() {
        let d = dir("torn");
        {
            let (mut log, _) = GameLog::open(&d).unwrap();
            for r in sample() {
                log.append(&r).unwrap();
            }
        }
        let path = d.join("GAME.fdlog");
        let full = std::fs::read(&path).unwrap();
        // Cut the last record in half.
        std::fs::write(&path, &full[..full.len() - 10]).unwrap();
        let (mut log, loaded) = GameLog::open(&d).unwrap();
        assert_eq!(loaded.records, sample()[..2].to_vec());
        assert!(loaded.repaired_bytes > 0);
        log.append(&sample()[2]).unwrap();
        drop(log);
        let (_, again) = GameLog::open(&d).unwrap();
        assert_eq!(again.records, sample());
        // Flip a byte inside the first record: reported, not skipped.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[MAGIC.len() + 8 + 34] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            read(&path),
            Err(StoreError::Corrupt { index: 0, .. })
        ));
        std::fs::write(&path, b"hello").unwrap();
        assert!(matches!(read(&path), Err(StoreError::NotALog(_))));
    }
}
