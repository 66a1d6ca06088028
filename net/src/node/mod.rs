//! The libp2p event loop: carries a [`TableSession`]'s messages between machines.
//!
//! TCP + noise + yamux; request-response on [`PROTOCOL`] (each message sent directly to each
//! seat, answered with an [`Ack`]); identify (with a version gate) and ping; mDNS to find
//! tables on the LAN. Every message is written to `GAME.fdlog` before it is sent, and every
//! received message before it is handled, so a restarted peer rebuilds its state from the
//! log and the others resend what it may have missed.

mod codec;
mod restore;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use fairdeal_core::{GameResult, HouseRules, Move, Preset};
use fairdeal_crypto::PublicKey;
use futures::StreamExt;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::swarm::{NetworkBehaviour, SwarmEvent};
use libp2p::{
    Multiaddr, PeerId, StreamProtocol, identify, mdns, noise, ping, request_response, tcp, yamux,
};
use tokio::sync::mpsc;

use self::codec::TableCodec;
use crate::store::{GameLog, Meta, Record};
use crate::table::msg::{Ack, PROTOCOL, Reply, SeatInfo, TableMsg};
use crate::table::{Dest, TableEvent, TableSession};

pub use self::restore::{VerifyReport, replay_log};

/// How this peer takes part.
#[derive(Debug, Clone)]
pub enum Role {
    /// Open a table and sit South.
    Host {
        /// The table's name.
        table: String,
        /// The preset.
        preset: Preset,
        /// House rules (the target included).
        house: HouseRules,
    },
    /// Join a table by address, or by name on the LAN.
    Join {
        /// The host's address (with `/p2p/...` or not).
        address: Option<Multiaddr>,
        /// The table's name, found by mDNS.
        table: Option<String>,
    },
}

/// A node's options.
#[derive(Debug, Clone)]
pub struct NodeOptions {
    /// The data directory (identity, game log, lock).
    pub data_dir: PathBuf,
    /// Where to listen.
    pub listen: Multiaddr,
    /// LAN discovery on/off.
    pub mdns: bool,
    /// Host or join.
    pub role: Role,
    /// Computer strategy for this seat (`None`: a person at the terminal or UI).
    pub bot: Option<String>,
    /// Display name.
    pub name: String,
}

/// What a node reports to its front end.
#[derive(Debug, Clone)]
pub enum NodeEvent {
    /// Listening at this address (with `/p2p/...`).
    Listening(Multiaddr),
    /// A table event.
    Table(TableEvent),
    /// The table is waiting for these seats (for a banner and timeouts).
    Waiting(Vec<fairdeal_core::Seat>),
    /// A person's move was refused.
    Refused(String),
    /// A one-line status for the log.
    Status(String),
    /// It is this seat's turn (a person plays it): what the seat sees.
    YourTurn(Box<fairdeal_core::PlayerView>),
}

/// What a front end can ask of a node.
#[derive(Debug, Clone)]
pub enum Intent {
    /// Play a move for this seat.
    Play(Move),
    /// Leave (the node finishes and returns).
    Quit,
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Final totals, team A and B.
    pub totals: [i32; 2],
    /// The result.
    pub result: GameResult,
    /// Hands played and verified.
    pub hands: usize,
}

/// A node that failed.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The game log.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The network.
    #[error("network: {0}")]
    Net(String),
    /// Stopped before the game ended.
    #[error("stopped before the game ended")]
    Stopped,
}

#[derive(NetworkBehaviour)]
struct Behaviour {
    rr: request_response::Behaviour<TableCodec>,
    identify: identify::Behaviour,
    ping: ping::Behaviour,
    mdns: Toggle<mdns::tokio::Behaviour>,
}

/// The identity key of a peer id (ed25519 peer ids carry the key).
pub fn key_of(peer: &PeerId) -> Option<PublicKey> {
    let mh: &libp2p::multihash::Multihash<64> = peer.as_ref();
    if mh.code() != 0 {
        return None;
    }
    let pk = libp2p::identity::PublicKey::try_decode_protobuf(mh.digest()).ok()?;
    let ed = pk.try_into_ed25519().ok()?;
    Some(PublicKey(ed.to_bytes()))
}

/// The peer id of an identity key.
pub fn peer_of(key: &PublicKey) -> Option<PeerId> {
    let ed = libp2p::identity::ed25519::PublicKey::try_from_bytes(&key.0).ok()?;
    Some(libp2p::identity::PublicKey::from(ed).to_peer_id())
}

fn net<E: std::fmt::Display>(e: E) -> NodeError {
    NodeError::Net(e.to_string())
}

/// Runs a node until the game ends, the front end quits, or `intents` closes.
///
/// # Errors
///
/// The data directory is in use or damaged, or the network cannot start.
pub async fn run(
    opts: NodeOptions,
    secret: [u8; 32],
    fresh_master: [u8; 32],
    events: mpsc::Sender<NodeEvent>,
    mut intents: mpsc::Receiver<Intent>,
) -> Result<Outcome, NodeError> {
    let (mut log, loaded) = GameLog::open(&opts.data_dir)?;
    if loaded.repaired_bytes > 0 {
        tracing::warn!(
            bytes = loaded.repaired_bytes,
            "cut a torn record off the end of the game log"
        );
    }
    let keypair = libp2p::identity::Keypair::ed25519_from_bytes(secret).map_err(net)?;
    let my_key = PublicKey(fairdeal_crypto::Identity::from_secret(secret).public().0);
    let mut swarm = libp2p::SwarmBuilder::with_existing_identity(keypair)
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
                    .with_agent_version(crate::table::msg::AGENT_VERSION.to_owned()),
            );
            let mdns = if opts.mdns {
                mdns::tokio::Behaviour::new(mdns::Config::default(), key.public().to_peer_id()).ok()
            } else {
                None
            };
            Behaviour {
                rr,
                identify,
                ping: ping::Behaviour::new(
                    ping::Config::new().with_interval(Duration::from_secs(5)),
                ),
                mdns: Toggle::from(mdns),
            }
        })
        .map_err(net)?
        // A game can sit idle while a person thinks: never drop a quiet connection.
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(24 * 3600)))
        .build();
    swarm.listen_on(opts.listen.clone()).map_err(net)?;

    // Wait for the first listen address: joiners announce where they can be reached.
    let mut addrs: Vec<Multiaddr> = Vec::new();
    while addrs.is_empty() {
        if let Some(SwarmEvent::NewListenAddr { address, .. }) = swarm.next().await {
            addrs.push(address);
        }
    }
    let me_info = SeatInfo {
        key: my_key,
        name: opts.name.clone(),
        bot: opts.bot.is_some(),
        addrs: addrs.iter().map(ToString::to_string).collect(),
    };

    // Build or rebuild the session.
    let restoring = !loaded.records.is_empty();
    let (mut session, meta) = if restoring {
        let (session, meta) =
            restore::rebuild(secret, &loaded.records).map_err(|e| NodeError::Net(e.to_string()))?;
        let _ = events
            .send(NodeEvent::Status(format!(
                "restored from the game log ({} records)",
                loaded.records.len()
            )))
            .await;
        (session, meta)
    } else {
        let meta = Meta {
            role: match opts.role {
                Role::Host { .. } => "host".to_owned(),
                Role::Join { .. } => "join".to_owned(),
            },
            me: me_info.clone(),
            bot: opts.bot.clone(),
            master: fresh_master,
            table: match &opts.role {
                Role::Host {
                    table,
                    preset,
                    house,
                } => Some((
                    table.clone(),
                    *preset,
                    crate::table::msg::house_to_json(house),
                )),
                Role::Join { .. } => None,
            },
            host: None,
        };
        log.append(&Record::Meta(Box::new(meta.clone())))?;
        (restore::session_from_meta(secret, &meta), meta)
    };
    let _ = meta;
    for a in &addrs {
        let full = a
            .clone()
            .with(libp2p::multiaddr::Protocol::P2p(*swarm.local_peer_id()));
        let _ = events.send(NodeEvent::Listening(full)).await;
    }

    let mut book: BTreeMap<PublicKey, Vec<Multiaddr>> = BTreeMap::new();
    let mut connected: BTreeSet<PeerId> = BTreeSet::new();
    let mut pending = 0usize;
    let mut joined = session.host_key().is_some() || session.is_host();
    let mut queried: BTreeSet<PeerId> = BTreeSet::new();
    if let Role::Join {
        address: Some(addr),
        ..
    } = &opts.role
    {
        if !joined || restoring {
            swarm.dial(addr.clone()).map_err(net)?;
        }
    }
    if restoring {
        for seat in session.roster().iter().flatten() {
            if seat.key != my_key {
                let parsed: Vec<Multiaddr> =
                    seat.addrs.iter().filter_map(|a| a.parse().ok()).collect();
                book.insert(seat.key, parsed.clone());
                for a in parsed {
                    let _ = swarm.dial(a);
                }
            }
        }
    }
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut last_waiting: Vec<fairdeal_core::Seat> = Vec::new();
    let mut finishing: Option<tokio::time::Instant> = None;
    let mut prompted: Option<(u32, usize, fairdeal_core::Phase)> = None;

    loop {
        // Send what the session produced: logged first, then sent.
        while let Some((dest, bytes)) = session.poll_transmit() {
            log.append(&Record::Sent {
                bytes: bytes.clone(),
            })?;
            let targets: Vec<PublicKey> = match dest {
                Dest::Peer(k) => vec![k],
                Dest::Seats => session
                    .config()
                    .map(|c| c.seats.to_vec())
                    .unwrap_or_else(|| session.roster().iter().flatten().map(|s| s.key).collect())
                    .into_iter()
                    .filter(|k| *k != my_key)
                    .collect(),
            };
            for k in targets {
                if let Some(peer) = peer_of(&k) {
                    if !connected.contains(&peer) {
                        for a in book.get(&k).cloned().unwrap_or_default() {
                            swarm.add_peer_address(peer, a);
                        }
                    }
                    swarm.behaviour_mut().rr.send_request(&peer, bytes.clone());
                    pending += 1;
                }
            }
        }
        while let Some(ev) = session.poll_event() {
            if let TableEvent::Roster(seats) = &ev {
                for s in seats.iter().flatten() {
                    if s.key != my_key {
                        let parsed: Vec<Multiaddr> =
                            s.addrs.iter().filter_map(|a| a.parse().ok()).collect();
                        book.insert(s.key, parsed);
                    }
                }
            }
            if let TableEvent::Started(config) = &ev {
                // Connect to every other seat (joiners so far only know the host).
                for k in config.seats {
                    if k == my_key {
                        continue;
                    }
                    if let Some(peer) = peer_of(&k) {
                        if !connected.contains(&peer) {
                            for a in book.get(&k).cloned().unwrap_or_default() {
                                let _ = swarm.dial(a.with(libp2p::multiaddr::Protocol::P2p(peer)));
                            }
                        }
                    }
                }
            }
            if matches!(ev, TableEvent::GameOver { .. }) {
                finishing = Some(tokio::time::Instant::now());
            }
            let _ = events.send(NodeEvent::Table(ev)).await;
        }
        if opts.bot.is_none() {
            if let Some(view) = session
                .hand()
                .filter(|h| h.my_turn())
                .and_then(|h| h.view())
            {
                let key = (
                    session.hand_no(),
                    view.position().public_state().pile.len() + 1000 * view.hand().len(),
                    view.phase(),
                );
                if prompted != Some(key) {
                    prompted = Some(key);
                    let _ = events.send(NodeEvent::YourTurn(Box::new(view))).await;
                }
            }
        }
        if let (Some(since), Some(result)) = (finishing, session.finished()) {
            // Let the last messages reach the others before leaving.
            if pending == 0 || since.elapsed() > Duration::from_secs(10) {
                return Ok(Outcome {
                    totals: session.totals(),
                    result,
                    hands: session.reports().len(),
                });
            }
        }

        tokio::select! {
            event = swarm.select_next_some() => match event {
                SwarmEvent::NewListenAddr { address, .. } => {
                    let full = address.with(libp2p::multiaddr::Protocol::P2p(*swarm.local_peer_id()));
                    let _ = events.send(NodeEvent::Listening(full)).await;
                }
                SwarmEvent::ConnectionEstablished { peer_id, endpoint, .. } => {
                    connected.insert(peer_id);
                    let Some(key) = key_of(&peer_id) else { continue };
                    if endpoint.is_dialer() {
                        book.entry(key).or_default().push(endpoint.get_remote_address().clone());
                    }
                    if !joined {
                        if let Role::Join { address: Some(_), .. } = &opts.role {
                            joined = true;
                            log.append(&Record::Joined { host: key.0 })?;
                            session.join(key);
                        }
                    }
                    session.peer_connected(key);
                }
                SwarmEvent::ConnectionClosed { peer_id, num_established, .. } => {
                    if num_established == 0 {
                        connected.remove(&peer_id);
                        let _ = events.send(NodeEvent::Status(format!("connection to {peer_id} closed"))).await;
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Rr(request_response::Event::Message { peer, message, .. })) => match message {
                    request_response::Message::Request { request, channel, .. } => {
                        let reply = match key_of(&peer) {
                            Some(key) => {
                                log.append(&Record::Recv { from: key.0, bytes: request.clone() })?;
                                if let Err(e) = session.handle_message(key, &request) {
                                    tracing::debug!(%peer, "rejected message: {e}");
                                }
                                Reply { ack: session.ack(), info: session.info() }
                            }
                            None => Reply { ack: Ack { hand_no: 0, state: [0; 32] }, info: None },
                        };
                        let _ = swarm.behaviour_mut().rr.send_response(channel, reply.encode());
                    }
                    request_response::Message::Response { response, .. } => {
                        pending = pending.saturating_sub(1);
                        if let Ok(reply) = Reply::decode(&response) {
                            if let (Some(info), Role::Join { table: Some(name), .. }) = (&reply.info, &opts.role) {
                                if !joined && &info.name == name {
                                    if let Some(key) = key_of(&peer) {
                                        joined = true;
                                        log.append(&Record::Joined { host: key.0 })?;
                                        session.join(key);
                                    }
                                }
                            }
                        }
                    }
                },
                SwarmEvent::Behaviour(BehaviourEvent::Rr(request_response::Event::OutboundFailure { peer, error, .. })) => {
                    pending = pending.saturating_sub(1);
                    tracing::debug!(%peer, "send failed: {error}");
                }
                SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received { peer_id, info, .. })) => {
                    if info.protocol_version != PROTOCOL {
                        tracing::warn!(%peer_id, version = %info.protocol_version, "incompatible peer: disconnecting");
                        let _ = swarm.disconnect_peer_id(peer_id);
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                    for (peer, addr) in list {
                        swarm.add_peer_address(peer, addr);
                        if matches!(opts.role, Role::Join { table: Some(_), .. }) && !joined && queried.insert(peer) {
                            swarm.behaviour_mut().rr.send_request(&peer, TableMsg::Query.encode());
                            pending += 1;
                        }
                    }
                }
                _ => {}
            },
            intent = intents.recv() => match intent {
                Some(Intent::Play(mv)) => {
                    let json = serde_json::to_string(&mv).unwrap_or_default();
                    match session.submit(mv) {
                        Ok(()) => log.append(&Record::Intent { json })?,
                        Err(r) => { let _ = events.send(NodeEvent::Refused(r.reason.to_string())).await; }
                    }
                }
                Some(Intent::Quit) | None => return Err(NodeError::Stopped),
            },
            _ = tick.tick() => {
                let waiting = session.waiting_on();
                if waiting != last_waiting {
                    last_waiting.clone_from(&waiting);
                    let _ = events.send(NodeEvent::Waiting(waiting)).await;
                }
                // Seats we should be connected to but are not: redial.
                if let Some(config) = session.config() {
                    for k in config.seats {
                        if k == my_key { continue; }
                        if let Some(peer) = peer_of(&k) {
                            if !connected.contains(&peer) {
                                for a in book.get(&k).cloned().unwrap_or_default() {
                                    let _ = swarm.dial(a);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Helper for the front ends: the `TableSession` constructor used by a node for `meta`.
pub fn session_for(secret: [u8; 32], meta: &Meta) -> TableSession {
    restore::session_from_meta(secret, meta)
}
