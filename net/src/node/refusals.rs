//! Rate-limited `warn` lines about refused peers: one line per peer and reason when it first
//! happens, then at most one line per [`WARN_EVERY`] with how many were refused since the
//! last line, so a flood shows as a handful of lines that name the peer, never one per packet.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use libp2p::PeerId;

/// The shortest time between two lines about the same peer and reason.
pub(crate) const WARN_EVERY: Duration = Duration::from_secs(10);

/// The most (peer, reason) pairs followed at once: a flood from many identities cannot grow
/// this table; pairs beyond it are counted together and reported as "other peers".
const MAX_TRACKED: usize = 256;

struct Count {
    /// Refusals since the last line.
    since: u64,
    /// When the last line was written.
    last: Instant,
}

/// Counts refusals by peer and reason and writes the lines.
#[derive(Default)]
pub(crate) struct Refusals {
    counts: BTreeMap<(PeerId, &'static str), Count>,
    /// Refusals of pairs that did not fit in the table, since the last line about them.
    others: u64,
    others_last: Option<Instant>,
}

impl Refusals {
    /// `peer` was refused for `what` (a short phrase: "hand message from a stranger").
    pub(crate) fn note(&mut self, peer: PeerId, what: &'static str) {
        self.note_at(peer, what, Instant::now());
    }

    fn note_at(&mut self, peer: PeerId, what: &'static str, now: Instant) {
        if !self.counts.contains_key(&(peer, what)) && self.counts.len() >= MAX_TRACKED {
            self.evict(now);
        }
        if self.counts.len() >= MAX_TRACKED && !self.counts.contains_key(&(peer, what)) {
            self.others += 1;
            if self
                .others_last
                .is_none_or(|t| now.duration_since(t) >= WARN_EVERY)
            {
                tracing::warn!(
                    count = self.others,
                    "refused messages from other peers (too many peers to name each)"
                );
                self.others = 0;
                self.others_last = Some(now);
            }
            return;
        }
        match self.counts.get_mut(&(peer, what)) {
            None => {
                tracing::warn!(%peer, count = 1, "refused: {what}");
                self.counts.insert(
                    (peer, what),
                    Count {
                        since: 0,
                        last: now,
                    },
                );
            }
            Some(c) => {
                c.since += 1;
                if now.duration_since(c.last) >= WARN_EVERY {
                    tracing::warn!(%peer, count = c.since, "refused: {what} (count since the last line)");
                    c.since = 0;
                    c.last = now;
                }
            }
        }
    }

    /// Writes the pending counts that are due, and forgets pairs quiet for a while (call
    /// about once a second).
    pub(crate) fn tick(&mut self) {
        self.tick_at(Instant::now());
    }

    fn tick_at(&mut self, now: Instant) {
        for ((peer, what), c) in &mut self.counts {
            if c.since > 0 && now.duration_since(c.last) >= WARN_EVERY {
                tracing::warn!(%peer, count = c.since, "refused: {what} (count since the last line)");
                c.since = 0;
                c.last = now;
            }
        }
        self.counts
            .retain(|_, c| c.since > 0 || now.duration_since(c.last) < 6 * WARN_EVERY);
    }

    /// Makes room: pairs with nothing pending go first (their last line said it all).
    fn evict(&mut self, now: Instant) {
        self.counts
            .retain(|_, c| c.since > 0 || now.duration_since(c.last) < WARN_EVERY);
    }

    /// Refusals counted and not yet written (for tests).
    #[cfg(test)]
    fn pending(&self) -> u64 {
        self.counts.values().map(|c| c.since).sum::<u64>() + self.others
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_counted_not_written_line_by_line() {
        let mut r = Refusals::default();
        let peer = PeerId::random();
        let t0 = Instant::now();
        for i in 0..10_000u64 {
            r.note_at(peer, "garbage", t0 + Duration::from_micros(i));
        }
        // The first was written at once, the rest wait for the next line.
        assert_eq!(r.pending(), 9_999);
        r.tick_at(t0 + WARN_EVERY + Duration::from_secs(1));
        assert_eq!(r.pending(), 0);
    }

    #[test]
    fn many_identities_cannot_grow_the_table() {
        let mut r = Refusals::default();
        let t0 = Instant::now();
        for _ in 0..10 * MAX_TRACKED {
            r.note_at(PeerId::random(), "garbage", t0);
        }
        assert!(r.counts.len() <= MAX_TRACKED);
        // A long quiet time forgets them.
        r.tick_at(t0 + 7 * WARN_EVERY);
        assert!(r.counts.is_empty());
    }
}
