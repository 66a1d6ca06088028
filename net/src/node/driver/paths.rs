//! How this node reaches each peer: over a connection of their own (the LAN, or a hole
//! punched through both routers), or only through a relay's circuit. Each change for a seated
//! peer is reported ([`NodeEvent::Path`]) so that every seat can say it in words.

use std::collections::BTreeMap;

use libp2p::PeerId;
use libp2p::swarm::{ConnectionId, SwarmEvent};

use libp2p::core::transport::ListenerId;

use super::Node;
use crate::node::relay::circuit_listen;
use crate::node::{NodeEvent, Path, key_of};

/// The open connections of each peer, and whether each goes through a relay.
#[derive(Debug, Default)]
pub(super) struct Paths {
    open: BTreeMap<PeerId, BTreeMap<ConnectionId, bool>>,
    /// What was last reported for each peer.
    told: BTreeMap<PeerId, Path>,
}

impl Paths {
    /// Notes a connection opened or closed; returns the peer whose best path changed, with
    /// its path now (`None`: no connection at all).
    pub(super) fn observe<E>(&mut self, event: &SwarmEvent<E>) -> Option<(PeerId, Option<Path>)> {
        let peer = match event {
            SwarmEvent::ConnectionEstablished {
                peer_id,
                connection_id,
                endpoint,
                ..
            } => {
                // A circuit we accepted shows in our own listen address, not the other's.
                let relayed = endpoint.is_relayed();
                // Bounded by the swarm's connection limits: entries exist only for open
                // connections.
                self.open
                    .entry(*peer_id)
                    .or_default()
                    .insert(*connection_id, relayed);
                *peer_id
            }
            SwarmEvent::ConnectionClosed {
                peer_id,
                connection_id,
                ..
            } => {
                if let Some(c) = self.open.get_mut(peer_id) {
                    c.remove(connection_id);
                    if c.is_empty() {
                        self.open.remove(peer_id);
                    }
                }
                *peer_id
            }
            _ => return None,
        };
        let now = self.path(&peer);
        let before = self.told.get(&peer).copied();
        if now == before {
            return None;
        }
        match now {
            Some(p) => self.told.insert(peer, p),
            None => self.told.remove(&peer),
        };
        Some((peer, now))
    }

    /// The best way to `peer` now.
    pub(super) fn path(&self, peer: &PeerId) -> Option<Path> {
        let c = self.open.get(peer)?;
        Some(if c.values().any(|relayed| !relayed) {
            Path::Direct
        } else {
            Path::Relayed
        })
    }
}

/// Every how many ticks (seconds) a node whose circuit at the relay fell asks for it again
/// (a restarted relay, or one that was down when the node started).
const RELAY_RETRY_TICKS: u64 = 5;

impl Node {
    /// Notes that the listener at the relay closed (the relay went away, or refused).
    pub(super) fn circuit_closed(&mut self, listener: ListenerId) {
        if self.circuit == Some(listener) {
            tracing::info!("the circuit at the relay closed; asking for it again");
            self.circuit = None;
        }
    }

    /// Once a second: asks the relay for a circuit again while there is none, every
    /// [`RELAY_RETRY_TICKS`], so that friends beyond the LAN can reach this node again.
    pub(super) fn retry_relay(&mut self, ticks: u64) {
        if self.circuit.is_some() || !ticks.is_multiple_of(RELAY_RETRY_TICKS) {
            return;
        }
        if let Some(relay) = self.opts.relay.clone() {
            self.circuit = self.swarm.listen_on(circuit_listen(&relay)).ok();
        }
    }

    /// Reports a change in how a seated peer is reached (once there is a relay: on a LAN
    /// every path is direct, and nothing is said).
    pub(super) async fn report_path<E>(&mut self, event: &SwarmEvent<E>) {
        let Some((peer, Some(path))) = self.paths.observe(event) else {
            return;
        };
        if self.opts.relay.is_none() && path == Path::Direct {
            return;
        }
        self.tell_path(peer, path).await;
    }

    /// Once the seats are known: how each connected seat is reached (a path found before
    /// the peer was seated was not said).
    pub(super) async fn report_paths(&mut self) {
        let told: Vec<(PeerId, Path)> = self.paths.told.iter().map(|(p, w)| (*p, *w)).collect();
        for (peer, path) in told {
            if self.opts.relay.is_some() || path == Path::Relayed {
                self.tell_path(peer, path).await;
            }
        }
    }

    async fn tell_path(&mut self, peer: PeerId, path: Path) {
        let Some(key) = key_of(&peer) else { return };
        let seat = self
            .session
            .roster()
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.key == key));
        if let Some(i) = seat {
            let seat = fairdeal_core::Seat::from_index(i);
            let _ = self.events.send(NodeEvent::Path { seat, path }).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use libp2p::core::ConnectedPoint;
    use libp2p::core::Endpoint;
    use libp2p::core::transport::PortUse;

    use super::*;

    fn opened(peer: PeerId, id: usize, addr: &str) -> SwarmEvent<()> {
        SwarmEvent::ConnectionEstablished {
            peer_id: peer,
            connection_id: ConnectionId::new_unchecked(id),
            endpoint: ConnectedPoint::Dialer {
                address: addr.parse().expect("a multiaddr"),
                role_override: Endpoint::Dialer,
                port_use: PortUse::Reuse,
            },
            num_established: std::num::NonZeroU32::MIN,
            concurrent_dial_errors: None,
            established_in: std::time::Duration::ZERO,
        }
    }

    fn accepted(peer: PeerId, id: usize, local: &str) -> SwarmEvent<()> {
        SwarmEvent::ConnectionEstablished {
            peer_id: peer,
            connection_id: ConnectionId::new_unchecked(id),
            endpoint: ConnectedPoint::Listener {
                local_addr: local.parse().expect("a multiaddr"),
                send_back_addr: format!("/p2p/{peer}").parse().expect("a multiaddr"),
            },
            num_established: std::num::NonZeroU32::MIN,
            concurrent_dial_errors: None,
            established_in: std::time::Duration::ZERO,
        }
    }

    fn closed(peer: PeerId, id: usize, addr: &str) -> SwarmEvent<()> {
        SwarmEvent::ConnectionClosed {
            peer_id: peer,
            connection_id: ConnectionId::new_unchecked(id),
            endpoint: ConnectedPoint::Dialer {
                address: addr.parse().expect("a multiaddr"),
                role_override: Endpoint::Dialer,
                port_use: PortUse::Reuse,
            },
            num_established: 0,
            cause: None,
        }
    }

    #[test]
    fn a_relayed_peer_becomes_direct_when_a_hole_is_punched() {
        let relay = PeerId::random();
        let peer = PeerId::random();
        let circuit = format!("/ip4/10.99.0.1/tcp/4001/p2p/{relay}/p2p-circuit");
        let direct = "/ip4/10.99.0.3/tcp/40000";
        let mut p = Paths::default();
        assert_eq!(
            p.observe(&opened(peer, 1, &circuit)),
            Some((peer, Some(Path::Relayed)))
        );
        assert_eq!(
            p.observe(&opened(peer, 2, direct)),
            Some((peer, Some(Path::Direct)))
        );
        // The relayed connection closing changes nothing: the direct one carries the game.
        assert_eq!(p.observe(&closed(peer, 1, &circuit)), None);
        assert_eq!(p.observe(&closed(peer, 2, direct)), Some((peer, None)));
        assert!(p.open.is_empty() && p.told.is_empty());
    }

    #[test]
    fn a_circuit_accepted_is_relayed_though_the_other_seems_near() {
        let relay = PeerId::random();
        let peer = PeerId::random();
        let me = PeerId::random();
        let local = format!("/ip4/10.99.0.1/tcp/4001/p2p/{relay}/p2p-circuit/p2p/{me}");
        let mut p = Paths::default();
        assert_eq!(
            p.observe(&accepted(peer, 1, &local)),
            Some((peer, Some(Path::Relayed)))
        );
    }
}
