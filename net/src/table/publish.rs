//! What a table sends and what it publishes: messages queued for the peers, and the public
//! transcript's entries (the signed table messages that explain the game, once each).

use fairdeal_crypto::PublicKey;

use super::msg::TableMsg;
use super::{Dest, MAX_HELD, MAX_PUBLIC, TableSession};

impl TableSession {
    pub(super) fn send(&mut self, dest: Dest, msg: TableMsg) {
        let bytes = msg.encode();
        if crate::transcript::is_evidence(&msg) {
            let at = self.public.len();
            self.publish_signed(at, self.me.key, &bytes);
        }
        self.out.push_back((dest, bytes));
    }

    /// The next entry of the public transcript (`transcript.fdt`): the configuration, each
    /// deal's header, every signed envelope of it this peer accepted or sent, and the signed
    /// table messages that explain a void or a change of seat.
    #[must_use]
    pub fn poll_public(&mut self) -> Option<crate::transcript::Entry> {
        self.public.pop_front()
    }

    /// Puts a signed table message into the transcript at `at` (once).
    pub(super) fn publish_signed(&mut self, at: usize, from: PublicKey, bytes: &[u8]) {
        if self.public_signed.len() < MAX_HELD && self.public_signed.insert(bytes.to_vec()) {
            let entry = crate::transcript::Entry::Signed {
                from,
                msg: bytes.to_vec(),
            };
            self.publish(Some(at), entry);
        }
    }

    /// Queues a transcript entry (at `at`, or last), unless [`MAX_PUBLIC`] are waiting: the
    /// node takes them after every message, so only a session nobody drains gets there.
    pub(super) fn publish(&mut self, at: Option<usize>, entry: crate::transcript::Entry) {
        if self.public.len() >= MAX_PUBLIC {
            return;
        }
        match at {
            Some(at) => self.public.insert(at.min(self.public.len()), entry),
            None => self.public.push_back(entry),
        }
    }
}
