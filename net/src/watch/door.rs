//! A seat's side of watching: [`Door`] admits at most [`MAX_WATCHERS`] spectators, keeps the
//! seat's public transcript entries, and answers each spectator with the entries it lacks. It
//! stands beside the table session, never in front of it: nothing a spectator sends is handed
//! to the table, and the table never waits for a spectator (the node sends what `Door` gives
//! when it can; a spectator that is slow only falls behind).

use std::collections::BTreeMap;

use fairdeal_crypto::PublicKey;

use super::wire::{FromSeat, FromWatcher, WIRE_LIMIT, clean_name};
use crate::transcript::{self, Entry};

/// The most spectators one seat serves at once. Each costs the seat a copy of every entry of
/// the game on its upload (a whole game is a few MiB, a catch-up sends it all at once), and a
/// seat's upload must stay free for the table's own messages; eight is more than a room of
/// onlookers around one table and keeps a seat's extra upload under eight times its own.
pub const MAX_WATCHERS: usize = 8;

/// Why a spectator's message was not taken (the table is not told; nothing changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Every place is taken.
    #[error("{MAX_WATCHERS} spectators already watch")]
    Full,
    /// Not a message a spectator may send (a move, a vote, an audit, anything else).
    #[error("a spectator may only ask to watch or leave")]
    NotAWatchMessage,
    /// A seated identity asking to watch its own table.
    #[error("a seat does not watch its own table")]
    Seated,
}

/// One spectator admitted.
#[derive(Debug, Clone)]
struct Seen {
    name: String,
    /// The first entry it lacks.
    next: u64,
}

/// A seat's spectators and the entries they are sent.
#[derive(Debug, Default)]
pub struct Door {
    /// The transcript's records so far, in order.
    records: Vec<Entry>,
    size: u64,
    watchers: BTreeMap<PublicKey, Seen>,
    /// The seated identities (refused as spectators).
    seated: Vec<PublicKey>,
}

impl Door {
    /// A door with no spectators; `seated` are the table's identities.
    pub fn new(seated: Vec<PublicKey>) -> Self {
        Self {
            seated,
            ..Self::default()
        }
    }

    /// The table's identities (refused as spectators).
    pub fn set_seated(&mut self, seated: Vec<PublicKey>) {
        self.seated = seated;
    }

    /// Keeps the entries the table published (the same the transcript file gets), up to
    /// [`transcript::MAX_FILE`] bytes.
    pub fn publish(&mut self, entries: &[Entry]) {
        for e in entries {
            let len = e.to_record().len() as u64;
            if self.size + len > transcript::MAX_FILE {
                return;
            }
            self.size += len;
            self.records.push(e.clone());
        }
    }

    /// Takes `from`'s message and gives the answer to send back.
    ///
    /// # Errors
    ///
    /// The message is refused; the answer to send is then [`FromSeat::Full`] or
    /// [`FromSeat::Refused`] ([`Refused::answer`]).
    pub fn handle(&mut self, from: PublicKey, bytes: &[u8]) -> Result<Option<FromSeat>, Refused> {
        let msg = FromWatcher::decode(bytes).map_err(|_| Refused::NotAWatchMessage)?;
        match msg {
            FromWatcher::Watch { name, from: next } => {
                if self.seated.contains(&from) {
                    return Err(Refused::Seated);
                }
                if !self.watchers.contains_key(&from) && self.watchers.len() >= MAX_WATCHERS {
                    return Err(Refused::Full);
                }
                let name = clean_name(&name);
                self.watchers.insert(from, Seen { name, next });
                Ok(self.next_for(&from))
            }
            FromWatcher::Leave => {
                self.watchers.remove(&from);
                Ok(None)
            }
        }
    }

    /// The next batch for `who` (entries it lacks, at most [`WIRE_LIMIT`] bytes, at least
    /// one), or `None` if it holds everything.
    pub fn next_for(&mut self, who: &PublicKey) -> Option<FromSeat> {
        let watching = self.watching();
        let seen = self.watchers.get_mut(who)?;
        let from = seen.next.min(self.records.len() as u64);
        let start = usize::try_from(from).ok()?;
        let mut size = 4096;
        let mut entries = Vec::new();
        for e in &self.records[start..] {
            let len = e.to_record().len();
            if !entries.is_empty() && size + len > WIRE_LIMIT {
                break;
            }
            size += len;
            entries.push(e.clone());
        }
        if entries.is_empty() {
            return None;
        }
        seen.next = from + entries.len() as u64;
        Some(FromSeat::Entries {
            from,
            watching,
            entries,
        })
    }

    /// Who is admitted.
    pub fn watchers(&self) -> Vec<PublicKey> {
        self.watchers.keys().copied().collect()
    }

    /// The spectators' names, for the players' "watching:" line.
    pub fn watching(&self) -> Vec<String> {
        self.watchers.values().map(|s| s.name.clone()).collect()
    }

    /// A spectator that cannot be reached any more.
    pub fn drop_watcher(&mut self, who: &PublicKey) {
        self.watchers.remove(who);
    }
}

impl Refused {
    /// What to answer.
    pub fn answer(self) -> FromSeat {
        match self {
            Self::Full => FromSeat::Full {
                max: MAX_WATCHERS as u16,
            },
            Self::NotAWatchMessage | Self::Seated => FromSeat::Refused,
        }
    }
}
