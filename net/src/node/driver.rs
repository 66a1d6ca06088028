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
use libp2p::{Multiaddr, PeerId, Swarm, identify, mdns, ping};
use tokio::sync::mpsc;

use super::NetError;
use super::swarm::{Behaviour, BehaviourEvent, build};
use super::{NodeError, NodeEvent, NodeOptions, Outcome, Role, key_of, peer_of, restore};
use crate::store::{GameLog, Meta, Record};
use crate::table::msg::{PROTOCOL, Reply, SeatInfo, TableMsg, house_to_json};
use crate::table::{Dest, TableEvent, TableSession};

/// After the game ends, how long a node stays after the last message a seat sent it: long
/// enough for a seat that lacks a message (lost on the way) to ask again twice (`Resync`
/// after 2 s standing still, then 4 s).
const LINGER_QUIET: Duration = Duration::from_secs(8);

/// The longest a node stays after the game ends.
const LINGER_MAX: Duration = Duration::from_secs(30);

/// The least time a joiner keeps trying to reach the host at the address it was given (it
/// tries for the table's grace period, `--grace-secs`, when that is longer).
const REACH_MIN: Duration = Duration::from_secs(5);

/// Every how many ticks (seconds) a joiner that could not reach its host dials again.
const REDIAL_TICKS: u64 = 5;

pub(crate) struct Node {
    pub(crate) swarm: Swarm<Behaviour>,
    opts: NodeOptions,
    /// Boxed: a session is tens of KiB, and debug builds copy what an async function holds
    /// by value many times over in its stack frame (worker threads have 2 MiB).
    session: Box<TableSession>,
    log: GameLog,
    /// The public transcript beside the log.
    transcript: crate::transcript::Writer,
    events: mpsc::Sender<NodeEvent>,
    my_key: PublicKey,
    book: BTreeMap<PublicKey, Vec<Multiaddr>>,
    connected: BTreeSet<PeerId>,
    pending: usize,
    joined: bool,
    queried: BTreeSet<PeerId>,
    last_waiting: Vec<Seat>,
    finishing: Option<tokio::time::Instant>,
    /// Nobody else at the table answered for this many seconds: the node stops.
    pub(crate) alone: Option<u64>,
    /// A joiner that could not reach the host at its address: since when, and why.
    unreached: Option<(tokio::time::Instant, String)>,
    /// When a seated peer last sent us a message (a late one may still ask us to resend).
    last_request: Option<tokio::time::Instant>,
    prompted: Option<u64>,
    clock: std::time::Instant,
    guard: guard::Guard,
    /// What the front end was last told the next hand waits for: (hand, seats, ready).
    last_next: Option<(u32, Vec<Seat>, bool)>,
    drop_out: DropOut,
    /// Peers found on the LAN (asked again while looking for a table by name).
    lan: BTreeSet<PeerId>,
    ticks: u64,
}

/// The most LAN peers remembered while looking for a table (a flood of announcements cannot
/// grow the list without bound).
const MAX_LAN_PEERS: usize = 128;

/// A test knob: `FAIRDEAL_DROP_OUT_PERCENT=N` makes the node lose about N % of the requests
/// it sends, as a lossy network would (the table must still finish: resyncs fetch what was
/// lost). Deterministic: request k is lost when a hash of k falls under N %.
#[derive(Debug, Default)]
struct DropOut {
    percent: u64,
    sent: u64,
}

impl DropOut {
    fn from_env() -> Self {
        let percent = std::env::var("FAIRDEAL_DROP_OUT_PERCENT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0u64)
            .min(100);
        if percent > 0 {
            tracing::warn!(percent, "test knob: losing outgoing requests on purpose");
        }
        Self { percent, sent: 0 }
    }

    /// Whether to lose the next request.
    fn drops(&mut self) -> bool {
        if self.percent == 0 {
            return false;
        }
        self.sent += 1;
        let h = fairdeal_crypto::hash::hash256(b"fairdeal/test/drop", &[&self.sent.to_le_bytes()]);
        u64::from(h[0]) * 100 < self.percent * 256
    }
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
                swarm
                    .listen_on(opts.listen.clone())
                    .map_err(NetError::from)?;
            }
        }
        // Every listen address (one per interface): the others are told all of them. Other
        // events of these first moments (an mDNS discovery is reported once, a seat redialling
        // a restarted peer and its messages) are kept and handled once the node is built.
        let mut addrs: Vec<Multiaddr> = Vec::new();
        let mut early = Vec::new();
        while addrs.is_empty() {
            match swarm.next().await {
                Some(SwarmEvent::NewListenAddr { address, .. }) => addrs.push(address),
                Some(other) => early.push(other),
                None => {}
            }
        }
        while let Ok(Some(event)) =
            tokio::time::timeout(Duration::from_millis(100), swarm.next()).await
        {
            match event {
                SwarmEvent::NewListenAddr { address, .. } => addrs.push(address),
                other => early.push(other),
            }
        }
        let restoring = !loaded.records.is_empty();
        let session = Box::new(if restoring {
            let (session, _) = restore::rebuild(secret, &loaded.records)?;
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
                move_clock_ms: opts.move_clock_ms,
            };
            log.append(&Record::Meta(Box::new(meta.clone())))?;
            restore::session_from_meta(secret, &meta)
        });
        for a in &addrs {
            let _ = events
                .send(NodeEvent::Listening(
                    a.clone().with(Protocol::P2p(*swarm.local_peer_id())),
                ))
                .await;
        }
        // The transcript follows from the log: written afresh from the rebuilt session.
        let mut session = session;
        let entries: Vec<crate::transcript::Entry> =
            std::iter::from_fn(|| session.poll_public()).collect();
        let transcript = crate::transcript::Writer::create(&opts.data_dir, &entries)?;
        let joined = session.host_key().is_some() || session.is_host();
        let mut node = Self {
            swarm,
            opts,
            session,
            log,
            transcript,
            events,
            my_key,
            book: BTreeMap::new(),
            connected: BTreeSet::new(),
            pending: 0,
            joined,
            queried: BTreeSet::new(),
            last_waiting: Vec::new(),
            finishing: None,
            alone: None,
            unreached: None,
            last_request: None,
            prompted: None,
            clock: std::time::Instant::now(),
            drop_out: DropOut::from_env(),
            lan: BTreeSet::new(),
            ticks: 0,
            guard: guard::Guard::default(),
            last_next: None,
        };
        node.sync_bypass();
        if let Some(ms) = node.opts.grace_ms {
            node.session.set_grace_ms(ms);
        }
        // After a rebuild, so that replayed turns are not held back by thinking time.
        node.session.set_think_ms(node.opts.think_ms);
        node.session.set_wait_for_person(node.opts.wait_for_person);
        if let Role::Join {
            address: Some(addr),
            ..
        } = &node.opts.role
            && (!node.joined || restoring)
        {
            node.swarm.dial(addr.clone()).map_err(NetError::from)?;
        }
        if restoring {
            let seats: Vec<SeatInfo> = node.session.roster().iter().flatten().cloned().collect();
            node.learn_addresses(&seats);
            node.dial_missing();
        }
        if let Role::Join {
            table: Some(name), ..
        } = &node.opts.role
            && !node.joined
        {
            let line = format!("looking for {name} on the LAN…");
            let _ = node.events.send(NodeEvent::Status(line)).await;
        }
        for event in early {
            node.on_swarm_event(event).await?;
        }
        Ok(node)
    }

    /// Whether the game has started (every seat signed the configuration).
    pub(crate) fn started(&self) -> bool {
        self.session.config().is_some()
    }

    /// Messages sent and not yet answered.
    pub(crate) fn pending(&self) -> usize {
        self.pending
    }

    /// The outcome once the game is over, the last messages are out, and nobody has asked
    /// for anything for [`LINGER_QUIET`]: a seat still missing one of our messages (or one
    /// we hold of another's) asks for it again within that time, and is answered. Bounded by
    /// [`LINGER_MAX`].
    pub(crate) fn finished(&self) -> Option<Outcome> {
        let since = self.finishing?;
        let result = self.session.finished()?;
        let quiet = self
            .last_request
            .is_none_or(|t| t.elapsed() >= LINGER_QUIET);
        let done = (self.pending == 0 && quiet && since.elapsed() >= LINGER_QUIET)
            || since.elapsed() > LINGER_MAX;
        done.then(|| Outcome {
            totals: self.session.totals(),
            result,
            hands: self.session.reports().len(),
        })
    }

    /// Sends what the session produced (logged first) and reports its events.
    pub(crate) async fn flush(&mut self) -> Result<(), NodeError> {
        let entries: Vec<crate::transcript::Entry> =
            std::iter::from_fn(|| self.session.poll_public()).collect();
        self.transcript.append(&entries)?;
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
                if self.drop_out.drops() {
                    continue;
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
                TableEvent::Alone { secs } => self.alone = Some(*secs),
                TableEvent::HandVoided { .. } => {
                    self.sync_bypass();
                    self.dial_missing();
                }
                TableEvent::Hand { .. }
                | TableEvent::Closed
                | TableEvent::HandStarted(_)
                | TableEvent::Paused(_)
                | TableEvent::SeatTaken { .. }
                | TableEvent::SeatHeld { .. }
                | TableEvent::SeatBack { .. }
                | TableEvent::HandForfeited { .. }
                | TableEvent::Chat(_)
                | TableEvent::Resumed => {}
            }
            let _ = self.events.send(NodeEvent::Table(ev)).await;
        }
        self.prompt_person().await;
        self.report_next_hand(false).await;
        Ok(())
    }

    /// Between hands: tells the front end what the next hand waits for when that changed
    /// (`always`: the countdown too).
    async fn report_next_hand(&mut self, always: bool) {
        let next = self.session.next_hand();
        let key = next.as_ref().map(|n| (n.after, n.waiting.clone(), n.ready));
        if (always || key != self.last_next)
            && let Some(next) = next
        {
            let _ = self.events.send(NodeEvent::NextHand(next)).await;
        }
        self.last_next = key;
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

    /// Milliseconds on the node's monotonic clock.
    fn now_ms(&self) -> u64 {
        u64::try_from(self.clock.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// When the session next wants the clock (a computer player thinking), as an instant.
    pub(crate) fn next_deadline(&self) -> Option<tokio::time::Instant> {
        let at = self.session.poll_timeout()?;
        let wait = at.saturating_sub(self.now_ms());
        Some(tokio::time::Instant::now() + Duration::from_millis(wait))
    }

    /// The session's deadline came: let it act.
    pub(crate) fn on_deadline(&mut self) {
        let now = self.now_ms();
        self.session.handle_timeout(now);
    }

    /// A sign of life from `peer`.
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

    /// A person leaves a game under way: the others are told (signed) and a computer player
    /// takes the seat at once.
    pub(crate) async fn quit(&mut self) {
        if let Err(e) = self.session.quit() {
            let _ = self.events.send(NodeEvent::Refused(e.to_string())).await;
        }
    }

    /// Once a second: report who the table waits for, and redial lost seats; while looking for
    /// a table by name, ask the peers found on the LAN again every few seconds.
    pub(crate) async fn on_tick(&mut self) {
        let now = self.now_ms();
        self.session.handle_timeout(now);
        if let Some((seat, left_ms)) = self.session.move_clock() {
            let _ = self.events.send(NodeEvent::Clock { seat, left_ms }).await;
        }
        self.report_next_hand(true).await;
        if let Some(mv) = self.session.timed_out_move() {
            // The move clock ran out on the person's turn: their client plays for them,
            // logged as their own move.
            if let Err(e) = self.play(mv).await {
                tracing::warn!("playing the move the clock chose: {e}");
            }
        }
        self.ticks += 1;
        if self.ticks.is_multiple_of(REDIAL_TICKS)
            && !self.joined
            && self.unreached.is_some()
            && let Role::Join {
                address: Some(addr),
                ..
            } = &self.opts.role
        {
            let _ = self.swarm.dial(addr.clone());
        }
        if self.ticks.is_multiple_of(3) && !self.joined {
            self.queried.clear();
            let found: Vec<PeerId> = self.lan.iter().copied().collect();
            for peer in found {
                self.query(peer);
            }
        }
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
        self.check_memory();
        match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                let full = address.with(Protocol::P2p(*self.swarm.local_peer_id()));
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
            SwarmEvent::OutgoingConnectionError { peer_id, error, .. } => {
                self.on_dial_error(peer_id, &error).await;
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
        let host = addr.iter().find_map(|p| match p {
            Protocol::P2p(id) => Some(id),
            _ => None,
        });
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

    /// How long a joiner tries to reach its host: the grace period a silent player has.
    fn reach_give_up(&self) -> Duration {
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
    fn query(&mut self, peer: PeerId) {
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
                // Table chat: shown, never logged (no part of the game).
                if let Err(e) = self.session.handle_message(key, request) {
                    tracing::debug!(%peer, "rejected chat: {e}");
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

/// Why a dial failed, in a few words: the innermost cause (for a refused TCP connection,
/// "Connection refused (os error 111)"), not libp2p's nested list of attempts.
fn dial_reason(error: &libp2p::swarm::DialError) -> String {
    let deepest = |mut e: &(dyn std::error::Error + 'static)| {
        while let Some(next) = e.source() {
            e = next;
        }
        e.to_string()
    };
    let why = match error {
        libp2p::swarm::DialError::Transport(tries) => tries
            .last()
            .map_or_else(|| error.to_string(), |(_, e)| deepest(e)),
        other => deepest(other),
    };
    why.chars().take(200).collect()
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
