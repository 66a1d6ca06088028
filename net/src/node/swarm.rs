//! Building the libp2p swarm, with the limits that keep a stranger on the LAN from
//! exhausting a peer: connections (seated peers bypass them), memory, and streams per
//! connection.

use std::time::Duration;

use libp2p::core::Transport as _;
use libp2p::swarm::NetworkBehaviour;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::{
    Multiaddr, StreamProtocol, Swarm, allow_block_list, connection_limits, dcutr, identify, mdns,
    memory_connection_limits, noise, ping, relay, request_response, tcp, yamux,
};

use super::codec::{FrameCodec, WATCH_PROTOCOL};
use super::{NetError, NodeError};
use crate::table::msg::{AGENT_VERSION, PROTOCOL};

/// Incoming connections still in their handshake (TCP, noise, yamux; each at most the
/// transport's 10 s upgrade timeout). Seats redial each other from both sides, so a stranger
/// holding these open delays a seat's reconnection by at most one handshake timeout.
const MAX_PENDING_INCOMING: u32 = 16;
/// Established incoming connections of peers not seated here (seated peers bypass every
/// connection limit): enough for players joining and a room of lobby browsers.
const MAX_ESTABLISHED_INCOMING: u32 = 16;
/// Established connections in all (seats bypass it): a table needs three.
const MAX_ESTABLISHED: u32 = 32;
/// Connections per peer not seated here: one, plus one for a simultaneous dial.
const MAX_PER_PEER: u32 = 2;
/// Process memory above which no new connection is accepted or dialled (a last resort: a
/// seat normally runs in a few tens of MiB, and the driver already drops strangers'
/// connections when the process grows 32 MiB past its size at the start).
const MAX_MEMORY: usize = 512 * 1024 * 1024;
/// Streams of the table protocol at once per connection, both directions (each reads at most
/// one 64 KiB frame, grown as it arrives): bounds what one connection can hold, while a seat
/// coming back, which is resent up to two hands of a seat's messages (about 60 each) while it
/// resends its own, still fits.
const MAX_STREAMS: usize = 128;
/// Streams of the spectators' protocol at once per connection: a spectator has one request
/// out at a time (and a `Leave`).
const MAX_WATCH_STREAMS: usize = 4;
/// Inbound streams still choosing their protocol, per connection (libp2p's default is 128).
const MAX_NEGOTIATING: usize = 16;
/// How long a request may take, either way: a stream held open without finishing its frame
/// is dropped after this.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// How often a connection is pinged: pings are the sign of life of a player who is thinking
/// (see `table::MIN_GRACE_MS`), a few bytes each.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(1);
/// How long a ping may go unanswered. libp2p reports a connection's pings as failed at the
/// second failure in a row, so a dead connection (a router restarting, a laptop gone out of
/// range: no reset ever arrives) is noticed `PING_EVERY + 2 × PING_TIMEOUT` after it died, at
/// most, and the driver then closes it and dials again; left to TCP, its retransmissions back
/// off for minutes before the connection is given up.
pub(crate) const PING_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one dial (TCP connect, noise, yamux) or one incoming handshake may take. On a LAN
/// a handshake takes milliseconds; a dial into a network that is down hangs until this, and a
/// seat is dialled again every second meanwhile, so that a dial started after the network is
/// back connects at once instead of waiting for the ones lost in the outage.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(4);

/// The connection limits for peers not seated here; with `open` false, no new incoming
/// connection of theirs is kept (while memory they held is being given back).
pub(crate) fn limits(open: bool) -> connection_limits::ConnectionLimits {
    connection_limits::ConnectionLimits::default()
        .with_max_pending_incoming(Some(MAX_PENDING_INCOMING))
        .with_max_established_incoming(Some(if open { MAX_ESTABLISHED_INCOMING } else { 0 }))
        .with_max_established(Some(MAX_ESTABLISHED))
        .with_max_established_per_peer(Some(MAX_PER_PEER))
}

/// The protocols a table peer speaks.
#[derive(NetworkBehaviour)]
pub(crate) struct Behaviour {
    /// Strangers refused a moment ago (kept out for a while by the driver).
    pub(crate) banned: allow_block_list::Behaviour<allow_block_list::BlockedPeers>,
    pub(crate) limits: connection_limits::Behaviour,
    pub(crate) memory: memory_connection_limits::Behaviour,
    pub(crate) rr: request_response::Behaviour<FrameCodec>,
    /// Spectators (`/fairdeal/watch/1`), apart from the table's protocol.
    pub(crate) watch: request_response::Behaviour<FrameCodec>,
    pub(crate) identify: identify::Behaviour,
    pub(crate) ping: ping::Behaviour,
    pub(crate) mdns: Toggle<mdns::tokio::Behaviour>,
    /// Reaching and being reached through a relay (`--relay`): a circuit through a peer
    /// that only forwards the encrypted bytes. Idle unless a relay address is used.
    pub(crate) relay: relay::client::Behaviour,
    /// Upgrading a relayed connection to a direct one (hole punching), where the routers
    /// allow it.
    pub(crate) dcutr: dcutr::Behaviour,
}

/// TCP + noise + yamux (directly, or through a relay's circuit), with the table protocols;
/// mDNS only when asked. With `announce`, the peer tells others (identify) only that address,
/// never the ones it listens on (a test runs each peer behind a proxy so; see the node's
/// `FAIRDEAL_ANNOUNCE`).
pub(crate) fn build(
    secret: [u8; 32],
    with_mdns: bool,
    announce: Option<&Multiaddr>,
) -> Result<Swarm<Behaviour>, NodeError> {
    build_with(secret, with_mdns.then(mdns::Config::default), announce)
}

/// As [`build`], with mDNS configured by `mdns` (none: no mDNS).
pub(crate) fn build_with(
    secret: [u8; 32],
    mdns_config: Option<mdns::Config>,
    announce: Option<&Multiaddr>,
) -> Result<Swarm<Behaviour>, NodeError> {
    let keypair = libp2p::identity::Keypair::ed25519_from_bytes(secret).map_err(NetError::from)?;
    let hide = announce.is_some();
    let mut swarm = libp2p::SwarmBuilder::with_existing_identity(keypair)
        .with_tokio()
        .with_other_transport(|key| {
            let noise = noise::Config::new(key)
                .map_err(|e| -> Box<dyn std::error::Error + Send + Sync> { Box::new(e) })?;
            Ok(
                tcp::tokio::Transport::new(tcp::Config::default().nodelay(true))
                    .upgrade(libp2p::core::upgrade::Version::V1Lazy)
                    .authenticate(noise)
                    .multiplex(yamux::Config::default())
                    .timeout(HANDSHAKE_TIMEOUT),
            )
        })
        .map_err(|e| NetError::Setup(Box::new(e)))?
        .with_relay_client(noise::Config::new, yamux::Config::default)
        .map_err(|e| NetError::Setup(Box::new(e)))?
        .with_behaviour(|key, relay| {
            let rr = request_response::Behaviour::with_codec(
                FrameCodec::TABLE,
                [(
                    StreamProtocol::new(PROTOCOL),
                    request_response::ProtocolSupport::Full,
                )],
                request_response::Config::default()
                    .with_request_timeout(REQUEST_TIMEOUT)
                    .with_max_concurrent_streams(MAX_STREAMS),
            );
            let watch = request_response::Behaviour::with_codec(
                FrameCodec::WATCH,
                [(
                    StreamProtocol::new(WATCH_PROTOCOL),
                    request_response::ProtocolSupport::Full,
                )],
                request_response::Config::default()
                    .with_request_timeout(REQUEST_TIMEOUT)
                    .with_max_concurrent_streams(MAX_WATCH_STREAMS),
            );
            let identify = identify::Behaviour::new(
                identify::Config::new(PROTOCOL.to_owned(), key.public())
                    .with_agent_version(AGENT_VERSION.to_owned())
                    .with_hide_listen_addrs(hide),
            );
            let mdns = mdns_config
                .and_then(|c| mdns::tokio::Behaviour::new(c, key.public().to_peer_id()).ok());
            let limits = limits(true);
            Behaviour {
                banned: allow_block_list::Behaviour::default(),
                limits: connection_limits::Behaviour::new(limits),
                memory: memory_connection_limits::Behaviour::with_max_bytes(MAX_MEMORY),
                rr,
                watch,
                identify,
                ping: ping::Behaviour::new(
                    ping::Config::new()
                        .with_interval(PING_EVERY)
                        .with_timeout(PING_TIMEOUT),
                ),
                mdns: Toggle::from(mdns),
                relay,
                dcutr: dcutr::Behaviour::new(key.public().to_peer_id()),
            }
        })
        .map_err(|e| NetError::Setup(Box::new(e)))?
        // A game can sit idle while a person thinks: never drop a quiet connection.
        .with_swarm_config(|c| {
            c.with_idle_connection_timeout(Duration::from_secs(24 * 3600))
                .with_max_negotiating_inbound_streams(MAX_NEGOTIATING)
        })
        .build();
    if let Some(a) = announce {
        swarm.add_external_address(a.clone());
    }
    Ok(swarm)
}
