//! What the swarm reports to a node, and what it does about it: connections up and down,
//! identify and mDNS (addresses learnt, tables found), requests (the gate, the log, the
//! session; the reply with our state) and replies, pings as signs of life, and dials that
//! fail (a host out of reach is given up after the grace period).

use std::time::Duration;

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;
use libp2p::request_response::{Event as RrEvent, Message};
use libp2p::swarm::SwarmEvent;
use libp2p::{PeerId, identify, mdns, ping};

use super::super::swarm::BehaviourEvent;
use super::super::{NodeError, NodeEvent, Role, key_of};
use super::{FIRST_REACH, MAX_LAN_PEERS, MAX_QUERIED, Node, REACH_MIN, dial_reason, guard};
use crate::store::Record;
use crate::table::msg::{PROTOCOL, Reply, TableMsg};

impl Node {
    /// A sign of life from `peer`. What the session sends because of it (a returning player
    /// told that its seat is held) is logged at once, before anything else that peer sent, so
    /// that a replay of the log reaches the same decisions in the same order.
    async fn heard(&mut self, peer: &PeerId) -> Result<(), NodeError> {
        if let Some(key) = key_of(peer) {
            let now = self.now_ms();
            self.session.heard(key, now);
            self.flush().await?;
        }
        Ok(())
    }

    /// Tells the front end that a seated player's connection came up or went down.
    pub(super) async fn report_link(&mut self, key: PublicKey, up: bool) {
        let seat = match self.session.config() {
            Some(c) => c.seat_of(&key),
            None => self
                .session
                .roster()
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| s.key == key))
                .map(Seat::from_index),
        };
        if let Some(seat) = seat {
            let _ = self.events.send(NodeEvent::Link { seat, up }).await;
        }
    }

    fn set_host(&mut self, key: PublicKey) -> Result<(), NodeError> {
        self.joined = true;
        self.log.append(&Record::Joined { host: key.0 })?;
        self.session.join(key);
        self.sync_bypass();
        Ok(())
    }

    pub(crate) async fn on_swarm_event(
        &mut self,
        event: SwarmEvent<BehaviourEvent>,
    ) -> Result<(), NodeError> {
        self.check_memory();
        self.report_path(&event).await;
        match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                let full = crate::node::relay::with_peer(address, *self.swarm.local_peer_id());
                let _ = self.events.send(NodeEvent::Listening(full)).await;
            }
            SwarmEvent::ConnectionEstablished {
                peer_id, endpoint, ..
            } => {
                self.connected.insert(peer_id);
                self.heard(&peer_id).await?;
                let Some(key) = key_of(&peer_id) else {
                    return Ok(());
                };
                if endpoint.is_dialer() {
                    let addrs = self.book.entry(key).or_default();
                    let addr = endpoint.get_remote_address();
                    if !addrs.contains(addr) {
                        addrs.push(addr.clone());
                    }
                }
                // The host is the peer we dialled (a stranger dialling us first is not).
                if !self.joined
                    && endpoint.is_dialer()
                    && let Role::Join {
                        address: Some(addr),
                        ..
                    } = &self.opts.role
                    && crate::node::relay::last_peer(addr).is_none_or(|id| id == peer_id)
                {
                    self.set_host(key)?;
                }
                self.session.peer_connected(key);
                self.report_link(key, true).await;
            }
            SwarmEvent::OutgoingConnectionError { peer_id, error, .. } => {
                self.on_dial_error(peer_id, &error).await;
            }
            SwarmEvent::ConnectionClosed {
                peer_id,
                num_established: 0,
                ..
            } => {
                self.connected.remove(&peer_id);
                self.watcher_gone(&peer_id).await;
                if let Some(key) = key_of(&peer_id) {
                    self.report_link(key, false).await;
                    // At once: a seat whose connection died is redialled now, then every
                    // second by the tick.
                    if self.started() {
                        self.dial_seat(&key);
                    }
                }
            }
            SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::Message {
                peer, message, ..
            })) => match message {
                Message::Request {
                    request, channel, ..
                } => {
                    self.heard(&peer).await?;
                    // No reply to a refused stranger: its stream is dropped.
                    if let Some(reply) = self.on_request(&peer, &request)? {
                        let _ = self
                            .swarm
                            .behaviour_mut()
                            .rr
                            .send_response(channel, reply.encode());
                    }
                }
                Message::Response { response, .. } => {
                    self.heard(&peer).await?;
                    self.pending = self.pending.saturating_sub(1);
                    self.on_reply(&peer, &response)?;
                }
            },
            SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::OutboundFailure {
                peer,
                error,
                ..
            })) => {
                self.pending = self.pending.saturating_sub(1);
                tracing::debug!(%peer, "send failed: {error}");
            }
            SwarmEvent::Behaviour(BehaviourEvent::Watch(RrEvent::Message {
                peer,
                message:
                    Message::Request {
                        request, channel, ..
                    },
                ..
            })) => self.on_watch_request(&peer, &request, channel).await,
            SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::InboundFailure {
                peer,
                error,
                ..
            })) => self.on_inbound_failure(&peer, &error),
            SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received {
                peer_id,
                info,
                ..
            })) if info.protocol_version != PROTOCOL => {
                tracing::warn!(%peer_id, version = %info.protocol_version, "incompatible peer: disconnecting");
                let _ = self.swarm.disconnect_peer_id(peer_id);
            }
            SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received {
                peer_id,
                info,
                ..
            })) => {
                if let Some(key) = key_of(&peer_id) {
                    self.learn_seat_addresses(key, &info.listen_addrs);
                }
            }
            SwarmEvent::Behaviour(BehaviourEvent::Ping(ping::Event {
                peer,
                connection,
                result: Err(e),
            })) => {
                // The connection is dead (no reset came: a network that is down says
                // nothing); closing it makes the seat be dialled again at once.
                tracing::info!(%peer, "no answer to pings ({e}): closing the connection, dialling again");
                self.swarm.close_connection(connection);
            }
            SwarmEvent::Behaviour(BehaviourEvent::Ping(ping::Event {
                peer,
                result: Ok(_),
                ..
            })) => self.heard(&peer).await?,
            SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                for (peer, addr) in list {
                    self.swarm.add_peer_address(peer, addr);
                    if self.lan.len() < MAX_LAN_PEERS {
                        self.lan.insert(peer);
                    }
                    self.query(peer);
                }
            }
            SwarmEvent::ListenerClosed { listener_id, .. } => self.circuit_closed(listener_id),
            SwarmEvent::Behaviour(BehaviourEvent::Dcutr(libp2p::dcutr::Event {
                remote_peer_id,
                result,
            })) => match result {
                Ok(_) => {
                    tracing::info!(peer = %remote_peer_id, "hole punched: a direct connection")
                }
                Err(e) => {
                    tracing::info!(peer = %remote_peer_id, error = %e, "no direct connection: the game goes through the relay");
                }
            },
            _ => {}
        }
        Ok(())
    }

    /// A dial failed. While a joiner has not reached the host at the address it was given, it
    /// says so once, in words, and keeps trying (every few seconds) until
    /// [`Node::unreachable`] gives up.
    async fn on_dial_error(&mut self, peer: Option<PeerId>, error: &libp2p::swarm::DialError) {
        let Role::Join {
            address: Some(addr),
            ..
        } = &self.opts.role
        else {
            return;
        };
        // The host is the address's last peer: through a relay the first one is the relay's.
        let host = crate::node::relay::last_peer(addr);
        if self.joined || (peer.is_some() && host.is_some() && peer != host) {
            return;
        }
        let why = dial_reason(error);
        tracing::debug!(%addr, "cannot reach the host: {why}");
        if self.unreached.is_none() {
            let line = format!(
                "cannot reach the host at {addr} ({why}); trying again for {} s…",
                self.reach_give_up().as_secs()
            );
            let _ = self.events.send(NodeEvent::Status(line)).await;
            self.unreached = Some((tokio::time::Instant::now(), why));
        } else if let Some((_, last)) = &mut self.unreached {
            *last = why;
        }
    }

    /// How long a joiner tries to reach its host: a first join [`FIRST_REACH`] (a wrong or
    /// dead address is said soon; a host starting at the same moment is up by then), a game
    /// resumed from its log the grace period a silent player has (the host may be restarting).
    fn reach_give_up(&self) -> Duration {
        if self.session.config().is_none() {
            return FIRST_REACH;
        }
        let grace = self.opts.grace_ms.unwrap_or(crate::table::DEFAULT_GRACE_MS);
        Duration::from_millis(grace).max(REACH_MIN)
    }

    /// Gives up on a host that could not be reached at its address for
    /// [`Node::reach_give_up`].
    pub(crate) fn unreachable(&self) -> Option<NodeError> {
        let (since, why) = self.unreached.as_ref()?;
        let Role::Join {
            address: Some(addr),
            ..
        } = &self.opts.role
        else {
            return None;
        };
        (!self.joined && since.elapsed() >= self.reach_give_up()).then(|| NodeError::Unreachable {
            address: addr.to_string(),
            why: why.clone(),
        })
    }

    /// While looking for a table by name: asks `peer` what table it is (once per round).
    pub(super) fn query(&mut self, peer: PeerId) {
        let looking = matches!(self.opts.role, Role::Join { table: Some(_), .. }) && !self.joined;
        if looking && self.queried.len() < MAX_QUERIED && self.queried.insert(peer) {
            self.swarm
                .behaviour_mut()
                .rr
                .send_request(&peer, TableMsg::Query.encode());
            self.pending += 1;
        }
    }

    /// A message from a peer: checked, then logged, then handled; the reply carries our
    /// state (`None`: a refused stranger gets no reply).
    fn on_request(&mut self, peer: &PeerId, request: &[u8]) -> Result<Option<Reply>, NodeError> {
        match self.gate(peer, request) {
            guard::Gate::Store(key) => {
                self.last_request = Some(tokio::time::Instant::now());
                self.store_and_handle(peer, key, request)?;
                // What was held for later may be admitted now (in the order it came).
                while let Some((p, k, bytes)) = self.take_admitted() {
                    self.store_and_handle(&p, k, &bytes)?;
                }
            }
            guard::Gate::Show(key) => {
                // Table chat, a resync, a roster sent again that says nothing new: shown,
                // never logged (no part of the game).
                if let Err(e) = self.session.handle_message(key, request) {
                    tracing::debug!(%peer, "rejected: {e}");
                }
            }
            // A question about the table: answered, never logged.
            guard::Gate::Answer | guard::Gate::Refuse { answer: true } => {}
            guard::Gate::Refuse { answer: false } => return Ok(None),
        }
        Ok(Some(Reply {
            ack: self.session.ack(),
            info: self.session.info(),
        }))
    }

    /// Logs a message the gate let through, then hands it to the session.
    fn store_and_handle(
        &mut self,
        peer: &PeerId,
        key: PublicKey,
        bytes: &[u8],
    ) -> Result<(), NodeError> {
        self.log.append(&Record::Recv {
            from: key.0,
            bytes: bytes.to_vec(),
        })?;
        if let Err(e) = self.session.handle_message(key, bytes) {
            tracing::debug!(%peer, "rejected message: {e}");
        }
        Ok(())
    }

    /// A reply: while looking for a table by name, a matching host is joined.
    fn on_reply(&mut self, peer: &PeerId, response: &[u8]) -> Result<(), NodeError> {
        let Ok(reply) = Reply::decode(response) else {
            return Ok(());
        };
        let wanted = match &self.opts.role {
            Role::Join {
                table: Some(name), ..
            } => name.clone(),
            _ => return Ok(()),
        };
        if !self.joined
            && reply.info.is_some_and(|i| i.name == wanted)
            && let Some(key) = key_of(peer)
        {
            self.set_host(key)?;
        }
        Ok(())
    }
}
