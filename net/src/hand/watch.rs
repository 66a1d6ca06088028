//! A hand followed by someone who holds no seat: a spectator's [`HandSession`]. It runs the
//! same script over the four seats' envelopes (every signature, chain, shuffle proof and share
//! checked, every move applied to the replica, the end-of-hand audit once the seeds are in),
//! but it has no secret that counts and never signs or sends anything, so a card opens to it
//! only when all four shares are public: it sees exactly what the table shows.

use std::sync::Arc;

use fairdeal_crypto::{CardTable, Identity};

use super::{HandConfig, HandSession};

/// The seat number a spectator's session stands at: none of the four, so no position is ever
/// dealt to it and no message is ever expected from it.
pub const WATCHER: u8 = 4;

impl HandSession {
    /// Follows a hand as a spectator: nothing is dealt to it, it sends nothing, and it opens a
    /// card only from the four seats' public shares.
    pub fn watch(cfg: HandConfig, table: Arc<CardTable>) -> Self {
        // The identity and seed are placeholders the script never uses: a watcher signs
        // nothing (`send` refuses to) and opens no card privately (`open_position` needs the
        // four shares).
        let nobody = Identity::from_secret([0; 32]);
        let mut s = Self::build(cfg, WATCHER, nobody, [0; 32], table);
        s.pump();
        s
    }

    /// Whether this session is a spectator's.
    pub fn is_watcher(&self) -> bool {
        self.ctx.me == WATCHER
    }
}
