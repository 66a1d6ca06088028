//! The node's door: each request goes through the table's gate before it is logged; a
//! refused stranger is disconnected and kept out for [`BAN`], a refused seat only answered;
//! frames that cannot be read are refused alike; seated peers bypass the connection limits;
//! strangers are dropped when memory runs high. Every refusal is written through the
//! rate-limited [`Refusals`].

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::{Duration, Instant};

use fairdeal_crypto::PublicKey;
use libp2p::PeerId;
use libp2p::request_response::InboundFailure;

use super::Node;
use crate::node::refusals::Refusals;
use crate::node::{key_of, peer_of};
use crate::table::{Admit, Refused};

/// How much the process may grow past its size when the node started before every connection
/// of a peer not seated here is closed. A game grows a seat by a few MiB; what a stranger can
/// make a peer hold (streams mid-frame, buffers of a multiplexer) is what fills this. Relative,
/// because the window client holds its node in the same process as its graphics.
const STRANGER_MEMORY_BUDGET: usize = 32 * 1024 * 1024;

/// How long after strangers were dropped for memory the process's size is taken as the new
/// base (their connections are closed and their buffers freed by then); meanwhile no new
/// connection of a peer not seated here is kept. The base rises at
/// most [`STRANGER_MEMORY_BUDGET`] above the first measurement in all, so strangers coming
/// back after each purge cannot ratchet it up: the process never holds more than twice the
/// budget for them.
const PURGE_SETTLES: Duration = Duration::from_secs(2);

/// How often memory is measured (reading it costs a system call, a few microseconds): a
/// flood over loopback fills about 10 MiB in this time, so the process overshoots the budget
/// by little more than that before strangers are dropped.
const MEMORY_EVERY: Duration = Duration::from_millis(50);

/// How long a refused stranger is kept out: its redials then cost a handshake, not a read of
/// whatever it sends. An honest peer refused (a join at a full table) has nothing to retry
/// for that long.
const BAN: Duration = Duration::from_secs(30);

/// The most messages held for later (an acceptance that overtook the roster naming its
/// sender), one per sender, never stored while held: a stranger making up identities pushes
/// out only the oldest.
const MAX_DEFERRED: usize = 8;

/// The most strangers kept out at once (the oldest is let in again first): a stranger making
/// up identities cannot grow the list without bound.
const MAX_BANNED: usize = 1024;

/// What the driver does with a request after the gate.
pub(super) enum Gate {
    /// Log it, then handle it: from this seated peer.
    Store(PublicKey),
    /// Answer it, store nothing.
    Answer,
    /// Handle it without logging it (table chat): from this seated peer.
    Show(PublicKey),
    /// Refused: answered (a seated peer hears our state) or not (a stranger's stream is
    /// dropped and its connections closed).
    Refuse {
        /// Answer with our state.
        answer: bool,
    },
}

/// The door's state.
#[derive(Default)]
pub(super) struct Guard {
    refusals: Refusals,
    /// Seated peers exempted from the connection limits (kept equal to the seats).
    bypassed: BTreeSet<PeerId>,
    /// Messages the gate may admit once the table knows more: sender, key, bytes.
    deferred: VecDeque<(PeerId, PublicKey, Vec<u8>)>,
    /// Strangers kept out, and since when.
    banned: BTreeMap<PeerId, Instant>,
    /// The process's size at the first measurement.
    memory_start: Option<usize>,
    /// The size strangers' memory is counted from: the first measurement, or the size once
    /// the last purge settled (at most one budget above the first).
    memory_base: Option<usize>,
    /// When strangers were last dropped for memory.
    purged: Option<Instant>,
    memory_checked: Option<Instant>,
    memory_warned: Option<Instant>,
}

impl Node {
    /// Whether `peer` sits at this table (in the lobby's roster, or in a seat of the game),
    /// or is the host (as of the last [`Node::sync_bypass`]).
    pub(super) fn is_seated(&self, peer: &PeerId) -> bool {
        self.guard.bypassed.contains(peer)
    }

    /// Runs the table's gate on a request from `peer`.
    pub(super) fn gate(&mut self, peer: &PeerId, request: &[u8]) -> Gate {
        let Some(key) = key_of(peer) else {
            self.refuse(peer, "a peer id without an ed25519 key", false);
            return Gate::Refuse { answer: false };
        };
        match self.session.admit(key, request) {
            Ok(Admit::Store) => Gate::Store(key),
            Ok(Admit::Answer) => Gate::Answer,
            Ok(Admit::Show) => Gate::Show(key),
            Err(Refused {
                why, later: true, ..
            }) => {
                tracing::debug!(%peer, "held for later: {why}");
                let held = &mut self.guard.deferred;
                held.retain(|(p, _, _)| p != peer);
                if held.len() >= MAX_DEFERRED {
                    held.pop_front();
                }
                held.push_back((*peer, key, request.to_vec()));
                Gate::Refuse {
                    answer: self.is_seated(peer),
                }
            }
            Err(Refused { why, stale, .. }) => {
                let what = why.what();
                let seated = self.is_seated(peer);
                match (stale, seated) {
                    (true, true) => tracing::debug!(%peer, "ignored: {what}"),
                    // Possibly a seat this peer does not know yet: counted, not kept out.
                    (true, false) => self.guard.refusals.note(*peer, what),
                    (false, _) => self.refuse(peer, what, seated),
                }
                Gate::Refuse { answer: seated }
            }
        }
    }

    /// The first held message the gate admits now (those it refuses for good are dropped).
    pub(super) fn take_admitted(&mut self) -> Option<(PeerId, PublicKey, Vec<u8>)> {
        let mut i = 0;
        while let Some((_, key, bytes)) = self.guard.deferred.get(i) {
            match self.session.admit(*key, bytes) {
                Ok(Admit::Store) => return self.guard.deferred.remove(i),
                Err(r) if r.later => i += 1,
                _ => {
                    self.guard.deferred.remove(i);
                }
            }
        }
        None
    }

    /// Notes a refusal (rate-limited warning); a stranger is disconnected and kept out.
    fn refuse(&mut self, peer: &PeerId, what: &'static str, seated: bool) {
        self.guard.refusals.note(*peer, what);
        if !seated {
            self.ban(*peer);
        }
        self.check_memory();
    }

    /// Closes a stranger's connections and keeps it out for [`BAN`].
    fn ban(&mut self, peer: PeerId) {
        if self.guard.banned.len() >= MAX_BANNED
            && let Some((&oldest, _)) = self.guard.banned.iter().min_by_key(|(_, t)| **t)
        {
            self.guard.banned.remove(&oldest);
            self.swarm.behaviour_mut().banned.unblock_peer(oldest);
        }
        self.guard.banned.insert(peer, Instant::now());
        // Closes its connections, and refuses new ones either way.
        self.swarm.behaviour_mut().banned.block_peer(peer);
    }

    /// A request that failed before it reached the gate (its frame could not be read).
    pub(super) fn on_inbound_failure(&mut self, peer: &PeerId, error: &InboundFailure) {
        let what = match error {
            InboundFailure::Io(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                "a frame over the size limit"
            }
            InboundFailure::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                "a frame cut short"
            }
            InboundFailure::Timeout => "a request not finished in time",
            InboundFailure::UnsupportedProtocols => "an unknown protocol",
            InboundFailure::Io(_) | InboundFailure::ConnectionClosed => {
                tracing::debug!(%peer, "inbound request failed: {error}");
                return;
            }
            // Our own choice (a refused stranger's stream).
            InboundFailure::ResponseOmission => return,
        };
        let seated = self.is_seated(peer);
        self.refuse(peer, what, seated);
    }

    /// Exempts exactly the seated peers from the connection limits.
    pub(super) fn sync_bypass(&mut self) {
        let s = &self.session;
        let mut keys: Vec<PublicKey> = s.roster().iter().flatten().map(|i| i.key).collect();
        keys.extend(s.host_key());
        if s.config().is_some() {
            keys.extend(s.peers());
        }
        let seated: BTreeSet<PeerId> = keys
            .iter()
            .filter(|k| **k != self.my_key)
            .filter_map(peer_of)
            .collect();
        let limits = &mut self.swarm.behaviour_mut().limits;
        for gone in self.guard.bypassed.difference(&seated) {
            limits.remove_peer_id(gone);
        }
        for new in seated.difference(&self.guard.bypassed) {
            limits.bypass_peer_id(new);
        }
        self.guard.bypassed = seated;
    }

    /// Once a second: due warning lines, and the memory check.
    pub(super) fn guard_tick(&mut self) {
        self.guard.refusals.tick();
        let now = Instant::now();
        let due: Vec<PeerId> = self
            .guard
            .banned
            .iter()
            .filter(|(_, t)| now.duration_since(**t) >= BAN)
            .map(|(p, _)| *p)
            .collect();
        for p in due {
            self.guard.banned.remove(&p);
            self.swarm.behaviour_mut().banned.unblock_peer(p);
        }
        self.check_memory();
    }

    /// Strangers' connections closed when memory runs high (measured at most every
    /// [`MEMORY_EVERY`]; called on every tick and swarm event).
    pub(super) fn check_memory(&mut self) {
        let now = Instant::now();
        if self
            .guard
            .memory_checked
            .is_some_and(|t| now.duration_since(t) < MEMORY_EVERY)
        {
            return;
        }
        self.guard.memory_checked = Some(now);
        let Some(used) = memory_stats::memory_stats().map(|m| m.physical_mem) else {
            return;
        };
        // Memory freed after a purge often stays with the process (the allocator keeps it
        // for reuse): once the purge has settled, that size is the new base, so that strangers
        // are not turned away for memory nobody holds.
        if self
            .guard
            .purged
            .is_some_and(|t| now.duration_since(t) >= PURGE_SETTLES)
        {
            let start = *self.guard.memory_start.get_or_insert(used);
            self.guard.purged = None;
            *self.swarm.behaviour_mut().limits.limits_mut() = crate::node::swarm::limits(true);
            self.guard.memory_base = Some(used.min(start + STRANGER_MEMORY_BUDGET));
        }
        self.guard.memory_start.get_or_insert(used);
        let base = *self.guard.memory_base.get_or_insert(used);
        // While a purge settles, strangers coming straight back are dropped again only past
        // twice the budget (what the allocator kept of theirs is not counted twice).
        let limit = if self.guard.purged.is_some() {
            base + 2 * STRANGER_MEMORY_BUDGET
        } else {
            base + STRANGER_MEMORY_BUDGET
        };
        if used <= limit {
            return;
        }
        let strangers: Vec<PeerId> = self
            .connected
            .iter()
            .filter(|p| !self.guard.bypassed.contains(p))
            .copied()
            .collect();
        if self
            .guard
            .memory_warned
            .is_none_or(|t| now.duration_since(t) >= crate::node::refusals::WARN_EVERY)
        {
            tracing::warn!(
                mib = used >> 20,
                strangers = strangers.len(),
                "memory is high: closing the connections of peers not seated here"
            );
            self.guard.memory_warned = Some(now);
        }
        for p in strangers {
            let _ = self.swarm.disconnect_peer_id(p);
        }
        if self.guard.purged.is_none() {
            self.guard.purged = Some(now);
            // Strangers coming straight back (with new identities) would fill it again:
            // none is let in until the purge settles (seated peers bypass the limit).
            *self.swarm.behaviour_mut().limits.limits_mut() = crate::node::swarm::limits(false);
        }
    }
}
