//! The node's state between events: the swarm, the session, the log and who is connected.

mod guard;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use fairdeal_core::{Move, Seat};
use fairdeal_crypto::PublicKey;
use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{Event as RrEvent, Message};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, Swarm, identify, mdns};
use tokio::sync::mpsc;

use super::swarm::{Behaviour, BehaviourEvent, build};
use super::{NodeError, NodeEvent, NodeOptions, Outcome, Role, key_of, net, peer_of, restore};
use crate::store::{GameLog, Meta, Record};
use crate::table::msg::{PROTOCOL, Reply, SeatInfo, TableMsg, house_to_json};
use crate::table::{Dest, TableEvent, TableSession};

pub(crate) struct Node {
    pub(crate) swarm: Swarm<Behaviour>,
    opts: NodeOptions,
    session: TableSession,
    log: GameLog,
    events: mpsc::Sender<NodeEvent>,
    my_key: PublicKey,
    book: BTreeMap<PublicKey, Vec<Multiaddr>>,
    connected: BTreeSet<PeerId>,
    pending: usize,
    joined: bool,
    queried: BTreeSet<PeerId>,
    last_waiting: Vec<Seat>,
    finishing: Option<tokio::time::Instant>,
    prompted: Option<u64>,
    clock: std::time::Instant,
    guard: guard::Guard,
}

impl Node {
    /// Opens the log, starts the swarm, and builds (or rebuilds) the session.
    pub(crate) async fn start(
        opts: NodeOptions,
        secret: [u8; 32],
        fresh_master: [u8; 32],
        events: mpsc::Sender<NodeEvent>,
    ) -> Result<Self, NodeError> {
        let (mut log, loaded) = GameLog::open(&opts.data_dir)?;
        if loaded.repaired_bytes > 0 {
            tracing::warn!(
                bytes = loaded.repaired_bytes,
                "cut a torn record off the end of the game log"
            );
        }
        let my_key = PublicKey(fairdeal_crypto::Identity::from_secret(secret).public().0);
        let mut swarm = build(secret, opts.mdns)?;
        // A restarted peer listens on its old port when it can: the others still dial it there.
        let previous = match loaded.records.first() {
            Some(Record::Meta(meta)) => same_port(&opts.listen, &meta.me.addrs),
            _ => None,
        };
        match previous {
            Some(addr) if swarm.listen_on(addr.clone()).is_ok() => {}
            _ => {
                swarm.listen_on(opts.listen.clone()).map_err(net)?;
            }
        }
        // Every listen address (one per interface): the others are told all of them.
        let mut addrs: Vec<Multiaddr> = Vec::new();
        while addrs.is_empty() {
            if let Some(SwarmEvent::NewListenAddr { address, .. }) = swarm.next().await {
                addrs.push(address);
            }
        }
        while let Ok(Some(event)) =
            tokio::time::timeout(Duration::from_millis(100), swarm.next()).await
        {
            if let SwarmEvent::NewListenAddr { address, .. } = event {
                addrs.push(address);
            }
        }
        let restoring = !loaded.records.is_empty();
        let session = if restoring {
            let (session, _) = restore::rebuild(secret, &loaded.records).map_err(NodeError::Net)?;
            let _ = events
                .send(NodeEvent::Status(format!(
                    "restored from the game log ({} records)",
                    loaded.records.len()
                )))
                .await;
            session
        } else {
            let meta = Meta {
                role: if matches!(opts.role, Role::Host { .. }) {
                    "host"
                } else {
                    "join"
                }
                .to_owned(),
                me: SeatInfo {
                    key: my_key,
                    name: crate::table::clean_name(&opts.name),
                    bot: opts.bot.is_some(),
                    addrs: addrs.iter().map(ToString::to_string).collect(),
                },
                bot: opts.bot.clone(),
                master: fresh_master,
                table: match &opts.role {
                    Role::Host {
                        table,
                        preset,
                        house,
                    } => Some((table.clone(), *preset, house_to_json(house))),
                    Role::Join { .. } => None,
                },
                host: None,
                hold: opts.hold,
                want: opts.want,
            };
            log.append(&Record::Meta(Box::new(meta.clone())))?;
            restore::session_from_meta(secret, &meta)
        };
        for a in &addrs {
            let _ = events
                .send(NodeEvent::Listening(
                    a.clone().with(Protocol::P2p(*swarm.local_peer_id())),
                ))
                .await;
        }
        let joined = session.host_key().is_some() || session.is_host();
        let mut node = Self {
            swarm,
            opts,
            session,
            log,
            events,
            my_key,
            book: BTreeMap::new(),
            connected: BTreeSet::new(),
            pending: 0,
            joined,
            queried: BTreeSet::new(),
            last_waiting: Vec::new(),
            finishing: None,
            prompted: None,
            clock: std::time::Instant::now(),
            guard: guard::Guard::default(),
        };
        node.sync_bypass();
        if let Some(ms) = node.opts.grace_ms {
            node.session.set_grace_ms(ms);
        }
        if let Role::Join {
            address: Some(addr),
            ..
        } = &node.opts.role
            && (!node.joined || restoring)
        {
            node.swarm.dial(addr.clone()).map_err(net)?;
        }
        if restoring {
            let seats: Vec<SeatInfo> = node.session.roster().iter().flatten().cloned().collect();
            node.learn_addresses(&seats);
            node.dial_missing();
        }
        Ok(node)
    }

    /// Messages sent and not yet answered.
    pub(crate) fn pending(&self) -> usize {
        self.pending
    }

    /// The outcome once the game is over and the last messages are out.
    pub(crate) fn finished(&self) -> Option<Outcome> {
        let since = self.finishing?;
        let result = self.session.finished()?;
        (self.pending == 0 || since.elapsed() > Duration::from_secs(10)).then(|| Outcome {
            totals: self.session.totals(),
            result,
            hands: self.session.reports().len(),
        })
    }

    /// Sends what the session produced (logged first) and reports its events.
    pub(crate) async fn flush(&mut self) -> Result<(), NodeError> {
        while let Some((dest, bytes)) = self.session.poll_transmit() {
            self.log.append(&Record::Sent {
                bytes: bytes.clone(),
            })?;
            for key in self.targets(&dest) {
                let Some(peer) = peer_of(&key) else { continue };
                if !self.connected.contains(&peer) {
                    for a in self.book.get(&key).cloned().unwrap_or_default() {
                        self.swarm.add_peer_address(peer, a);
                    }
                }
                self.swarm
                    .behaviour_mut()
                    .rr
                    .send_request(&peer, bytes.clone());
                self.pending += 1;
            }
        }
        while let Some(ev) = self.session.poll_event() {
            match &ev {
                TableEvent::Roster(seats) => {
                    let seats: Vec<SeatInfo> = seats.iter().flatten().cloned().collect();
                    self.learn_addresses(&seats);
                    self.sync_bypass();
                }
                TableEvent::Started(_) => {
                    self.sync_bypass();
                    self.dial_missing();
                    // Seats are known now: say who is connected already.
                    let keys: Vec<PublicKey> = self.connected.iter().filter_map(key_of).collect();
                    for key in keys {
                        self.report_link(key, true).await;
                    }
                }
                TableEvent::GameOver { .. } => self.finishing = Some(tokio::time::Instant::now()),
                TableEvent::HandVoided { .. } => {
                    self.sync_bypass();
                    self.dial_missing();
                }
                TableEvent::Hand { .. }
                | TableEvent::Closed
                | TableEvent::HandStarted(_)
                | TableEvent::Paused(_)
                | TableEvent::Resumed => {}
            }
            let _ = self.events.send(NodeEvent::Table(ev)).await;
        }
        self.prompt_person().await;
        Ok(())
    }

    fn targets(&self, dest: &Dest) -> Vec<PublicKey> {
        match dest {
            Dest::Peer(k) => vec![*k],
            Dest::Seats if self.session.config().is_some() => self.session.peers(),
            Dest::Seats => self
                .session
                .roster()
                .iter()
                .flatten()
                .map(|s| s.key)
                .filter(|k| *k != self.my_key)
                .collect(),
        }
    }

    fn learn_addresses(&mut self, seats: &[SeatInfo]) {
        for s in seats.iter().filter(|s| s.key != self.my_key) {
            let parsed: Vec<Multiaddr> = s.addrs.iter().filter_map(|a| a.parse().ok()).collect();
            if !parsed.is_empty() {
                self.book.insert(s.key, parsed);
            }
        }
    }

    /// Dials every seat we should be connected to but are not.
    fn dial_missing(&mut self) {
        if self.session.config().is_none() {
            return;
        }
        for key in self.session.peers() {
            let Some(peer) = peer_of(&key).filter(|p| !self.connected.contains(p)) else {
                continue;
            };
            for a in self.book.get(&key).cloned().unwrap_or_default() {
                let _ = self.swarm.dial(a.with(Protocol::P2p(peer)));
            }
        }
    }

    /// Shows a person the table whenever it changes, and their turn once per state.
    async fn prompt_person(&mut self) {
        if self.opts.bot.is_some() {
            return;
        }
        let Some(hand) = self.session.hand() else {
            return;
        };
        let Some(view) = hand.view() else { return };
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.session.hand_no().hash(&mut h);
            view.position().public_state().hash(&mut h);
            view.hand().hash(&mut h);
            view.turn_state().hash(&mut h);
            h.finish()
        };
        if self.prompted == Some(key) {
            return;
        }
        self.prompted = Some(key);
        let mine = hand.my_turn();
        let _ = self
            .events
            .send(NodeEvent::View(Box::new(view.clone())))
            .await;
        if mine {
            let _ = self.events.send(NodeEvent::YourTurn(Box::new(view))).await;
        }
    }

    /// A lobby action of the host (logged through the messages it produces).
    pub(crate) async fn lobby(
        &mut self,
        action: impl FnOnce(&mut TableSession) -> Result<(), crate::table::TableError>,
    ) {
        if let Err(e) = action(&mut self.session) {
            let _ = self.events.send(NodeEvent::Refused(e.to_string())).await;
        }
    }

    /// A person's move.
    pub(crate) async fn play(&mut self, mv: Move) -> Result<(), NodeError> {
        let json = serde_json::to_string(&mv).unwrap_or_default();
        match self.session.submit(mv) {
            Ok(()) => self.log.append(&Record::Intent { json })?,
            Err(r) => {
                let _ = self
                    .events
                    .send(NodeEvent::Refused(r.reason.to_string()))
                    .await;
            }
        }
        Ok(())
    }

    /// Once a second: report who the table waits for, and redial lost seats.
    pub(crate) async fn on_tick(&mut self) {
        self.session
            .handle_timeout(self.clock.elapsed().as_millis() as u64);
        let waiting = self.session.waiting_on();
        if waiting != self.last_waiting {
            self.last_waiting.clone_from(&waiting);
            let _ = self.events.send(NodeEvent::Waiting(waiting)).await;
        }
        self.dial_missing();
        self.guard_tick();
    }

    /// Tells the front end that a seated player's connection came up or went down.
    async fn report_link(&mut self, key: PublicKey, up: bool) {
        let seat = match self.session.config() {
            Some(c) => c.seat_of(&key),
            None => self
                .session
                .roster()
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| s.key == key))
                .map(|i| i as u8),
        };
        if let Some(seat) = seat {
            let seat = Seat::from_index(usize::from(seat));
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
        match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                let full = address.with(Protocol::P2p(*self.swarm.local_peer_id()));
                let _ = self.events.send(NodeEvent::Listening(full)).await;
            }
            SwarmEvent::ConnectionEstablished {
                peer_id, endpoint, ..
            } => {
                self.connected.insert(peer_id);
                self.check_memory();
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
                    && addr.iter().all(|p| match p {
                        Protocol::P2p(id) => id == peer_id,
                        _ => true,
                    })
                {
                    self.set_host(key)?;
                }
                self.session.peer_connected(key);
                self.report_link(key, true).await;
            }
            SwarmEvent::ConnectionClosed {
                peer_id,
                num_established: 0,
                ..
            } => {
                self.connected.remove(&peer_id);
                if let Some(key) = key_of(&peer_id) {
                    self.report_link(key, false).await;
                }
            }
            SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::Message {
                peer, message, ..
            })) => match message {
                Message::Request {
                    request, channel, ..
                } => {
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
            SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                for (peer, addr) in list {
                    self.swarm.add_peer_address(peer, addr);
                    let looking =
                        matches!(self.opts.role, Role::Join { table: Some(_), .. }) && !self.joined;
                    if looking && self.queried.len() < MAX_QUERIED && self.queried.insert(peer) {
                        self.swarm
                            .behaviour_mut()
                            .rr
                            .send_request(&peer, TableMsg::Query.encode());
                        self.pending += 1;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A message from a peer: checked, then logged, then handled; the reply carries our
    /// state (`None`: a refused stranger gets no reply).
    fn on_request(&mut self, peer: &PeerId, request: &[u8]) -> Result<Option<Reply>, NodeError> {
        match self.gate(peer, request) {
            guard::Gate::Store(key) => {
                self.log.append(&Record::Recv {
                    from: key.0,
                    bytes: request.to_vec(),
                })?;
                if let Err(e) = self.session.handle_message(key, request) {
                    tracing::debug!(%peer, "rejected message: {e}");
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

/// The most LAN peers asked "what table is this?" while looking for a table by name.
const MAX_QUERIED: usize = 128;

/// `listen` with the TCP port of the first of `previous` (text multiaddrs), if any.
fn same_port(listen: &Multiaddr, previous: &[String]) -> Option<Multiaddr> {
    let port = previous
        .iter()
        .filter_map(|a| a.parse::<Multiaddr>().ok())
        .find_map(|a| {
            a.iter().find_map(|p| match p {
                Protocol::Tcp(port) if port != 0 => Some(port),
                _ => None,
            })
        })?;
    Some(
        listen
            .iter()
            .map(|p| match p {
                Protocol::Tcp(_) => Protocol::Tcp(port),
                other => other,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restarted_peer_asks_for_its_old_port() {
        let listen: Multiaddr = "/ip4/0.0.0.0/tcp/0".parse().unwrap();
        let old = vec!["/ip4/127.0.0.1/tcp/4242".to_owned()];
        assert_eq!(
            same_port(&listen, &old),
            Some("/ip4/0.0.0.0/tcp/4242".parse().unwrap())
        );
        assert_eq!(same_port(&listen, &[]), None);
        assert_eq!(same_port(&listen, &["garbage".to_owned()]), None);
    }
}
