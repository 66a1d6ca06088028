//! A relay anyone can run (`fairdeal relay`): a peer with a reachable address through which
//! players behind home routers reach each other (circuit relay v2), and which helps them punch
//! through to a direct connection (it tells each side the address it is seen at).
//!
//! The relay holds no game state. It forwards bytes that are noise-encrypted end to end
//! between the two players, so it can neither read nor change a message (and every message is
//! signed by its seat anyway). What it spends is bounded by the limits below.

use std::num::NonZeroU32;
use std::time::Duration;

use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::{NetworkBehaviour, SwarmEvent};
use libp2p::{
    Multiaddr, PeerId, Swarm, connection_limits, identify, memory_connection_limits, noise, ping,
    relay, tcp, yamux,
};
use tokio::sync::mpsc;

use super::{NetError, NodeError};

/// Reservations held at once: a peer behind a router reserves one to be reachable, so this is
/// how many players can be reached through the relay at once (a few tables of four).
pub const MAX_RESERVATIONS: usize = 64;
/// Reservations per player: one, plus one while a restarted client's new one overlaps the old.
pub const MAX_RESERVATIONS_PER_PEER: usize = 2;
/// How long a reservation lasts before the client renews it (libp2p renews it by itself).
pub const RESERVATION_DURATION: Duration = Duration::from_secs(60 * 60);
/// Circuits at once: a table of four with every pair relayed needs six (each seat dials the
/// others), so this serves about ten such tables.
pub const MAX_CIRCUITS: usize = 64;
/// Circuits per player: a seat has three others, plus redials that overlap a closing circuit
/// (libp2p refuses a player's circuit once it has more than this many).
pub const MAX_CIRCUITS_PER_PEER: usize = 8;
/// The longest one circuit lives: an evening's game. A closed circuit is redialled by the
/// seats like any lost connection.
pub const MAX_CIRCUIT_DURATION: Duration = Duration::from_secs(6 * 60 * 60);
/// Bytes one circuit may carry (both ways): a whole game between two seats that cannot hole
/// punch (a hand of shuffle proofs and shares is a few MiB per pair). Past it the circuit is
/// closed: a flood through the relay is cut off.
pub const MAX_CIRCUIT_BYTES: u64 = 256 * 1024 * 1024;
/// New circuits a player may open per minute (a redial storm is throttled, a table is not).
pub const CIRCUITS_PER_MINUTE: u32 = 30;
/// New reservations a player may make per minute.
pub const RESERVATIONS_PER_MINUTE: u32 = 10;
/// Connections at once, in all: each player keeps one to the relay.
pub const MAX_CONNECTIONS: u32 = 256;
/// Connections per peer.
pub const MAX_CONNECTIONS_PER_PEER: u32 = 4;
/// Process memory above which no new connection is accepted: the relay's memory bound.
pub const MAX_MEMORY: usize = 256 * 1024 * 1024;

/// What a relay runs.
#[derive(NetworkBehaviour)]
struct RelayBehaviour {
    limits: connection_limits::Behaviour,
    memory: memory_connection_limits::Behaviour,
    relay: relay::Behaviour,
    identify: identify::Behaviour,
    ping: ping::Behaviour,
}

/// A relay's limits: the constants above by default; tests make them small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayLimits {
    /// Reservations at once.
    pub reservations: usize,
    /// Reservations per player.
    pub reservations_per_peer: usize,
    /// Circuits at once.
    pub circuits: usize,
    /// Circuits per player.
    pub circuits_per_peer: usize,
    /// The longest a circuit lives.
    pub circuit_duration: Duration,
    /// Bytes a circuit may carry.
    pub circuit_bytes: u64,
}

impl Default for RelayLimits {
    fn default() -> Self {
        Self {
            reservations: MAX_RESERVATIONS,
            reservations_per_peer: MAX_RESERVATIONS_PER_PEER,
            circuits: MAX_CIRCUITS,
            circuits_per_peer: MAX_CIRCUITS_PER_PEER,
            circuit_duration: MAX_CIRCUIT_DURATION,
            circuit_bytes: MAX_CIRCUIT_BYTES,
        }
    }
}

/// The relay's limits as libp2p's configuration.
fn relay_config(l: RelayLimits) -> relay::Config {
    let per_minute = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    let mut c = relay::Config {
        max_reservations: l.reservations,
        max_reservations_per_peer: l.reservations_per_peer,
        reservation_duration: RESERVATION_DURATION,
        max_circuits: l.circuits,
        max_circuits_per_peer: l.circuits_per_peer,
        max_circuit_duration: l.circuit_duration,
        max_circuit_bytes: l.circuit_bytes,
        ..relay::Config::default()
    };
    c.reservation_rate_limiters.clear();
    c.circuit_src_rate_limiters.clear();
    c.reservation_rate_per_peer(per_minute(RESERVATIONS_PER_MINUTE), Duration::from_secs(60))
        .circuit_src_per_peer(per_minute(CIRCUITS_PER_MINUTE), Duration::from_secs(60))
}

/// What a relay reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelayEvent {
    /// Listening at this address (with `/p2p/...`): what players pass as `--relay`.
    Listening(Multiaddr),
    /// A player reserved a place (it can be reached through the relay now).
    Reserved(PeerId),
    /// A circuit between two players opened.
    CircuitOpened {
        /// Who dialled.
        src: PeerId,
        /// Who was dialled.
        dst: PeerId,
    },
    /// A circuit closed (its time or bytes ran out, or a side left).
    CircuitClosed {
        /// Who dialled.
        src: PeerId,
        /// Who was dialled.
        dst: PeerId,
        /// Closed for running past a limit (bytes or time) rather than by a side.
        cut: bool,
    },
    /// A request was refused by a limit.
    Refused(String),
}

fn build(secret: [u8; 32], limits: RelayLimits) -> Result<Swarm<RelayBehaviour>, NodeError> {
    let keypair = libp2p::identity::Keypair::ed25519_from_bytes(secret).map_err(NetError::from)?;
    Ok(libp2p::SwarmBuilder::with_existing_identity(keypair)
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(|e| NetError::Setup(Box::new(e)))?
        .with_behaviour(|key| RelayBehaviour {
            limits: connection_limits::Behaviour::new(
                connection_limits::ConnectionLimits::default()
                    .with_max_established(Some(MAX_CONNECTIONS))
                    .with_max_established_per_peer(Some(MAX_CONNECTIONS_PER_PEER)),
            ),
            memory: memory_connection_limits::Behaviour::with_max_bytes(MAX_MEMORY),
            relay: relay::Behaviour::new(key.public().to_peer_id(), relay_config(limits)),
            identify: identify::Behaviour::new(
                identify::Config::new(crate::table::msg::PROTOCOL.to_owned(), key.public())
                    .with_agent_version(format!("fairdeal-relay/{}", env!("CARGO_PKG_VERSION"))),
            ),
            ping: ping::Behaviour::new(ping::Config::new()),
        })
        .map_err(|e| NetError::Setup(Box::new(e)))?
        // A circuit can be quiet while a person thinks; it lives by its own limits.
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(24 * 3600)))
        .build())
}

/// Whether an address can be told to players as this relay's (a wildcard cannot).
fn announceable(addr: &Multiaddr) -> bool {
    !addr.iter().any(|p| match p {
        Protocol::Ip4(ip) => ip.is_unspecified(),
        Protocol::Ip6(ip) => ip.is_unspecified(),
        _ => false,
    })
}

/// Runs a relay listening at `listen`, with `limits`, until `stop` fires or the channel of
/// events closes.
///
/// # Errors
///
/// The identity does not make a key, or the address cannot be listened on.
pub async fn serve(
    secret: [u8; 32],
    listen: Multiaddr,
    limits: RelayLimits,
    events: mpsc::Sender<RelayEvent>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> Result<(), NodeError> {
    let mut swarm = build(secret, limits)?;
    swarm.listen_on(listen).map_err(NetError::from)?;
    let me = *swarm.local_peer_id();
    loop {
        let event = tokio::select! {
            e = swarm.select_next_some() => e,
            _ = &mut stop => return Ok(()),
        };
        let out = match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                // The relay tells each reserving player the addresses it is reached at.
                if announceable(&address) {
                    swarm.add_external_address(address.clone());
                }
                Some(RelayEvent::Listening(address.with(Protocol::P2p(me))))
            }
            SwarmEvent::Behaviour(RelayBehaviourEvent::Relay(e)) => relay_event(e),
            _ => None,
        };
        if let Some(out) = out
            && events.send(out).await.is_err()
        {
            return Ok(());
        }
    }
}

fn relay_event(e: relay::Event) -> Option<RelayEvent> {
    use relay::Event as E;
    Some(match e {
        E::ReservationReqAccepted { src_peer_id, .. } => RelayEvent::Reserved(src_peer_id),
        E::CircuitReqAccepted {
            src_peer_id,
            dst_peer_id,
        } => RelayEvent::CircuitOpened {
            src: src_peer_id,
            dst: dst_peer_id,
        },
        E::CircuitClosed {
            src_peer_id,
            dst_peer_id,
            error,
        } => RelayEvent::CircuitClosed {
            src: src_peer_id,
            dst: dst_peer_id,
            cut: error.is_some(),
        },
        E::ReservationReqDenied { src_peer_id, .. } => {
            RelayEvent::Refused(format!("a reservation of {src_peer_id} (a limit)"))
        }
        E::CircuitReqDenied {
            src_peer_id,
            dst_peer_id,
            ..
        } => RelayEvent::Refused(format!(
            "a circuit from {src_peer_id} to {dst_peer_id} (a limit, or no reservation)"
        )),
        _ => return None,
    })
}

/// Why a text is not a relay's address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelayAddrError {
    /// It does not read as an address.
    #[error("it is not an address ({0})")]
    NotAnAddress(String),
    /// It does not end with the relay's `/p2p/ID`, which the relay prints.
    #[error(
        "it does not end with the relay's /p2p/12D3Koo… (copy the whole line the relay prints)"
    )]
    NoPeerId,
    /// It is a circuit through a relay (an invitation's address), not a relay.
    #[error(
        "it is a circuit through a relay, not a relay (an invitation goes under Join by invitation)"
    )]
    Circuit,
}

/// Reads a relay's address as typed: empty (spaces only) is no relay; otherwise it must be an
/// address ending with the relay's `/p2p/ID` (an empty text would parse as the empty
/// address, and listening "through" it fails with no word of why).
///
/// # Errors
///
/// What is wrong with it, in words.
pub fn parse_relay(text: &str) -> Result<Option<Multiaddr>, RelayAddrError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let addr: Multiaddr = text
        .parse()
        .map_err(|e: libp2p::multiaddr::Error| RelayAddrError::NotAnAddress(e.to_string()))?;
    check_relay(&addr).map(|()| Some(addr))
}

/// Checks that `addr` can be a relay's address (see [`parse_relay`]).
///
/// # Errors
///
/// What is wrong with it.
pub fn check_relay(addr: &Multiaddr) -> Result<(), RelayAddrError> {
    if is_relayed(addr) {
        return Err(RelayAddrError::Circuit);
    }
    if !matches!(addr.iter().last(), Some(Protocol::P2p(_))) {
        return Err(RelayAddrError::NoPeerId);
    }
    Ok(())
}

/// Whether `addr` goes through a relay (it holds `/p2p-circuit`).
pub fn is_relayed(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| matches!(p, Protocol::P2pCircuit))
}

/// The address to listen at to be reachable through the relay at `relay` (its
/// `/p2p/RELAY_ID` included): `relay/p2p-circuit`.
pub fn circuit_listen(relay: &Multiaddr) -> Multiaddr {
    relay.clone().with(Protocol::P2pCircuit)
}

/// The relay part of a circuit address (everything before `/p2p-circuit`), if it is one.
pub fn relay_of(addr: &Multiaddr) -> Option<Multiaddr> {
    let mut out = Multiaddr::empty();
    for p in addr {
        if matches!(p, Protocol::P2pCircuit) {
            return Some(out);
        }
        out.push(p);
    }
    None
}

/// `addr` ending at `peer`: `/p2p/PEER` added unless the address ends with it already (a
/// circuit address as the relay client reports it does).
pub fn with_peer(addr: Multiaddr, peer: PeerId) -> Multiaddr {
    if matches!(addr.iter().last(), Some(Protocol::P2p(id)) if id == peer) {
        addr
    } else {
        addr.with(Protocol::P2p(peer))
    }
}

/// The peer an address ends at (its last `/p2p/...`): for a circuit, the peer behind the relay.
pub fn last_peer(addr: &Multiaddr) -> Option<PeerId> {
    addr.iter()
        .filter_map(|p| match p {
            Protocol::P2p(id) => Some(id),
            _ => None,
        })
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> Multiaddr {
        s.parse().expect("a valid multiaddr")
    }

    const RELAY: &str = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN";
    const HOST: &str = "12D3KooWRBhwfeP2Y4TCx1SM6s9rUoHhR5STiGwxBhgFRcw3UERE";

    #[test]
    fn a_circuit_address_names_its_relay_and_its_peer() {
        let relay = addr(&format!("/ip4/10.99.0.1/tcp/4001/p2p/{RELAY}"));
        let circuit = circuit_listen(&relay).with(Protocol::P2p(HOST.parse().expect("peer")));
        assert!(is_relayed(&circuit));
        assert!(!is_relayed(&relay));
        assert_eq!(relay_of(&circuit), Some(relay.clone()));
        assert_eq!(relay_of(&relay), None);
        assert_eq!(last_peer(&circuit), HOST.parse().ok());
        assert_eq!(last_peer(&relay), RELAY.parse().ok());
        let host: PeerId = HOST.parse().expect("peer");
        assert_eq!(with_peer(circuit.clone(), host), circuit);
        assert_eq!(
            with_peer(relay.clone(), host),
            relay.clone().with(Protocol::P2p(host))
        );
    }

    #[test]
    fn a_relay_address_is_read_as_typed_or_refused_in_words() {
        assert_eq!(parse_relay("  "), Ok(None));
        let relay = format!("/ip4/10.99.0.1/tcp/4001/p2p/{RELAY}");
        assert_eq!(parse_relay(&format!(" {relay} ")), Ok(Some(addr(&relay))));
        assert_eq!(
            parse_relay("/ip4/10.99.0.1/tcp/4001"),
            Err(RelayAddrError::NoPeerId)
        );
        assert_eq!(
            parse_relay(&format!("{relay}/p2p-circuit/p2p/{HOST}")),
            Err(RelayAddrError::Circuit)
        );
        assert!(matches!(
            parse_relay("relay.example"),
            Err(RelayAddrError::NotAnAddress(_))
        ));
    }

    #[test]
    fn wildcards_are_not_announced() {
        assert!(!announceable(&addr("/ip4/0.0.0.0/tcp/4001")));
        assert!(announceable(&addr("/ip4/10.99.0.1/tcp/4001")));
    }

    #[test]
    fn the_limits_fit_a_table() {
        // A table of four, every pair relayed: six circuits, three per seat.
        const { assert!(MAX_CIRCUITS >= 6 && MAX_CIRCUITS_PER_PEER >= 3) };
        const { assert!(MAX_RESERVATIONS >= 4) };
        let c = relay_config(RelayLimits::default());
        assert_eq!(c.max_circuit_bytes, MAX_CIRCUIT_BYTES);
        assert_eq!(c.reservation_rate_limiters.len(), 1);
        assert_eq!(c.circuit_src_rate_limiters.len(), 1);
    }
}
