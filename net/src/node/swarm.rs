//! Building the libp2p swarm.

use std::time::Duration;

use libp2p::swarm::NetworkBehaviour;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::{StreamProtocol, Swarm, identify, mdns, noise, ping, request_response, tcp, yamux};

use super::codec::TableCodec;
use super::{NodeError, net};
use crate::table::msg::{AGENT_VERSION, PROTOCOL};

/// The protocols a table peer speaks.
#[derive(NetworkBehaviour)]
pub(crate) struct Behaviour {
    pub(crate) rr: request_response::Behaviour<TableCodec>,
    pub(crate) identify: identify::Behaviour,
    pub(crate) ping: ping::Behaviour,
    pub(crate) mdns: Toggle<mdns::tokio::Behaviour>,
}

/// TCP + noise + yamux, with the table protocols; mDNS only when asked.
pub(crate) fn build(secret: [u8; 32], with_mdns: bool) -> Result<Swarm<Behaviour>, NodeError> {
    let keypair = libp2p::identity::Keypair::ed25519_from_bytes(secret).map_err(net)?;
    Ok(libp2p::SwarmBuilder::with_existing_identity(keypair)
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(net)?
        .with_behaviour(|key| {
            let rr = request_response::Behaviour::with_codec(
                TableCodec,
                [(
                    StreamProtocol::new(PROTOCOL),
                    request_response::ProtocolSupport::Full,
                )],
                request_response::Config::default().with_request_timeout(Duration::from_secs(30)),
            );
            let identify = identify::Behaviour::new(
                identify::Config::new(PROTOCOL.to_owned(), key.public())
                    .with_agent_version(AGENT_VERSION.to_owned()),
            );
            let mdns = with_mdns
                .then(|| {
                    mdns::tokio::Behaviour::new(mdns::Config::default(), key.public().to_peer_id())
                        .ok()
                })
                .flatten();
            Behaviour {
                rr,
                identify,
                // Pings are the sign of life of a player who is thinking (see
                // `table::MIN_GRACE_MS`): one a second, a few bytes each.
                ping: ping::Behaviour::new(
                    ping::Config::new().with_interval(Duration::from_secs(1)),
                ),
                mdns: Toggle::from(mdns),
            }
        })
        .map_err(net)?
        // A game can sit idle while a person thinks: never drop a quiet connection.
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(24 * 3600)))
        .build())
}
