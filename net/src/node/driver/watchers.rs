//! A seat's spectators on the network: their requests on `/fairdeal/watch/1` go to the
//! [`Door`] and never to the table session; each is answered with the entries it lacks as soon
//! as the table publishes any, or empty after [`HOLD`]. Answering takes the loop no longer
//! than a send, so the table never waits for a spectator.

use std::collections::BTreeMap;

use fairdeal_crypto::PublicKey;
use libp2p::PeerId;
use libp2p::request_response::ResponseChannel;

use super::Node;
use crate::node::key_of;
use crate::node::watch::HOLD;
use crate::watch::{Door, FromSeat};

/// The spectators' requests held until there is something to send.
#[derive(Default)]
pub(crate) struct Watchers {
    pub(crate) door: Door,
    held: BTreeMap<PublicKey, (ResponseChannel<Vec<u8>>, tokio::time::Instant)>,
    /// The names last reported to the front end.
    said: Vec<String>,
}

impl Node {
    /// A spectator's request.
    pub(super) async fn on_watch_request(
        &mut self,
        peer: &PeerId,
        request: &[u8],
        channel: ResponseChannel<Vec<u8>>,
    ) {
        let Some(key) = key_of(peer) else { return };
        let seated = self
            .session
            .roster()
            .iter()
            .flatten()
            .map(|s| s.key)
            .collect();
        self.watchers.door.set_seated(seated);
        let answer = match self.watchers.door.handle(key, request) {
            Ok(Some(batch)) => batch,
            Ok(None) if self.watchers.door.watchers().contains(&key) => {
                // Nothing new: held until the table publishes, or `HOLD`.
                self.watchers
                    .held
                    .insert(key, (channel, tokio::time::Instant::now()));
                self.say_watching().await;
                return;
            }
            // A spectator that left: its last request is simply closed.
            Ok(None) => FromSeat::Refused,
            Err(refused) => {
                tracing::info!(%peer, "spectator refused: {refused}");
                refused.answer()
            }
        };
        let _ = self
            .swarm
            .behaviour_mut()
            .watch
            .send_response(channel, answer.encode());
        self.say_watching().await;
    }

    /// Keeps what the table published and answers the held requests that can be.
    pub(super) async fn feed_watchers(&mut self, entries: &[crate::transcript::Entry]) {
        self.watchers.door.publish(entries);
        let keys: Vec<PublicKey> = self.watchers.held.keys().copied().collect();
        for key in keys {
            let batch = self.watchers.door.next_for(&key);
            let stale = self
                .watchers
                .held
                .get(&key)
                .is_some_and(|(_, since)| since.elapsed() >= HOLD);
            let answer = match batch {
                Some(b) => b,
                None if stale => FromSeat::Entries {
                    from: 0,
                    watching: self.watchers.door.watching(),
                    entries: Vec::new(),
                },
                None => continue,
            };
            if let Some((channel, _)) = self.watchers.held.remove(&key) {
                let _ = self
                    .swarm
                    .behaviour_mut()
                    .watch
                    .send_response(channel, answer.encode());
            }
        }
    }

    /// A spectator whose connection closed is no longer watching.
    pub(super) async fn watcher_gone(&mut self, peer: &PeerId) {
        if let Some(key) = key_of(peer) {
            self.watchers.held.remove(&key);
            self.watchers.door.drop_watcher(&key);
            self.say_watching().await;
        }
    }

    /// Tells the front end who watches, when that changed ("watching: Ann, Bo").
    async fn say_watching(&mut self) {
        let now = self.watchers.door.watching();
        if now == self.watchers.said {
            return;
        }
        let line = if now.is_empty() {
            "nobody is watching".to_owned()
        } else {
            format!("watching: {}", now.join(", "))
        };
        self.watchers.said = now;
        let _ = self.events.send(crate::node::NodeEvent::Status(line)).await;
    }
}
