//! The node's state between events: the swarm, the session, the log and who is connected;
//! starting (or rebuilding from the log), and sending what the session produced (logged
//! first). What the swarm reports is handled in `events.rs`, the front end and the clock in
//! `front.rs`, the door (who may send what, before anything is stored) in `guard.rs`.

mod events;
mod front;
mod guard;
mod paths;
mod watchers;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;
use futures::StreamExt;
use libp2p::core::transport::ListenerId;
use libp2p::multiaddr::Protocol;
use libp2p::relay::outbound::hop::ConnectError;
use libp2p::swarm::SwarmEvent;
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::{Multiaddr, PeerId, Swarm};
use tokio::sync::mpsc;

use super::NetError;
use super::swarm::{Behaviour, build};
use super::{NodeError, NodeEvent, NodeOptions, Outcome, Role, key_of, peer_of, restore};
use crate::store::{GameLog, Meta, Part, Record};
use crate::table::msg::{SeatInfo, house_to_json};
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

/// How long a first join keeps trying to reach the host at the address it was given.
const FIRST_REACH: Duration = Duration::from_secs(15);

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
    /// The table stopped before the end of the game, and why: the node stops.
    pub(crate) stopped: Option<crate::table::StopReason>,
    /// A joiner that could not reach the host at its address: since when, and why.
    unreached: Option<(tokio::time::Instant, String)>,
    /// When a seated peer last sent us a message (a late one may still ask us to resend).
    last_request: Option<tokio::time::Instant>,
    prompted: Option<u64>,
    clock: std::time::Instant,
    guard: guard::Guard,
    /// What the front end was last told the next hand waits for: (hand, seats, ready).
    last_next: Option<(u32, Vec<Seat>, bool)>,
    /// The front end was told this seat is out of the game (no next hand waits for it).
    told_out: bool,
    drop_out: DropOut,
    /// Peers found on the LAN (asked again while looking for a table by name).
    lan: BTreeSet<PeerId>,
    ticks: u64,
    /// Hashes of the messages logged as sent: one sent again (a resend after a crash, an
    /// answer to a resync) is in the log already and is not written again.
    logged_sent: BTreeSet<[u8; 32]>,
    /// Runs the proof checks of the other seats' shuffle steps.
    pub(crate) checker: super::checker::Checker,
    /// Whether the front end was last told of seats it hears nothing from.
    said_unheard: bool,
    /// Whether the front end was told that the host has not seated this joiner yet.
    said_unseated: bool,
    /// How each peer is reached (directly or through the relay).
    paths: paths::Paths,
    /// The listener at the relay while its circuit stands (asked again when it falls).
    circuit: Option<ListenerId>,
    /// Spectators watching through this seat.
    watchers: watchers::Watchers,
}

/// The hash a sent message is known by in [`Node::logged_sent`].
fn sent_hash(bytes: &[u8]) -> [u8; 32] {
    fairdeal_crypto::hash::hash256(b"fairdeal/node/sent", &[bytes])
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
        let announce = announce_from_env();
        let mut swarm = build(secret, opts.mdns, announce.as_ref())?;
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
        // Every listen address (one per interface, and the relay's circuit when there is a
        // relay): the others are told all of them. Other events of these first moments (an
        // mDNS discovery is reported once, a seat redialling a restarted peer and its
        // messages) are kept and handled once the node is built.
        let restoring = !loaded.records.is_empty();
        // A first start must reach its relay (else friends could never reach it); a restart
        // goes on without it and keeps asking (`retry_relay`): the others' circuits are in
        // its log, and it dials them.
        let (addrs, early, circuit) =
            first_addresses(&mut swarm, opts.relay.as_ref(), !restoring).await?;
        let logged_sent = loaded
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Sent { bytes } => Some(sent_hash(bytes)),
                _ => None,
            })
            .collect();
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
                    Part::Host
                } else {
                    Part::Join
                },
                me: SeatInfo {
                    key: my_key,
                    name: crate::table::clean_name(&opts.name),
                    bot: opts.bot.is_some(),
                    addrs: announce
                        .as_ref()
                        .map_or_else(|| addrs.clone(), |a| vec![a.clone()])
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
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
                .send(NodeEvent::Listening(super::relay::with_peer(
                    a.clone(),
                    *swarm.local_peer_id(),
                )))
                .await;
        }
        // The transcript follows from the log: written afresh from the rebuilt session.
        let mut session = session;
        let entries: Vec<crate::transcript::Entry> =
            std::iter::from_fn(|| session.poll_public()).collect();
        let transcript = crate::transcript::Writer::create(&opts.data_dir, &entries)?;
        let mut watchers = watchers::Watchers::default();
        watchers.door.publish(&entries);
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
            stopped: None,
            unreached: None,
            last_request: None,
            prompted: None,
            clock: std::time::Instant::now(),
            drop_out: DropOut::from_env(),
            lan: BTreeSet::new(),
            ticks: 0,
            guard: guard::Guard::default(),
            last_next: None,
            told_out: false,
            logged_sent,
            checker: super::checker::Checker::new(),
            said_unheard: false,
            said_unseated: false,
            paths: paths::Paths::default(),
            circuit,
            watchers,
        };
        node.sync_bypass();
        if let Some(ms) = node.opts.grace_ms {
            node.session.set_grace_ms(ms);
        }
        // After a rebuild, so that replayed turns are not held back by thinking time.
        node.session.set_think_ms(node.opts.think_ms);
        node.session.set_wait_for_person(node.opts.wait_for_person);
        if !node.opts.countdown {
            node.session.set_next_hand_ms(None);
        }
        // The other seats' shuffle proofs are checked on the checker's thread, at a lower
        // priority than the proofs (`FAIRDEAL_INLINE_CHECKS=1`, a measurement knob, checks
        // them in the session, in series with the rest).
        let inline = std::env::var_os("FAIRDEAL_INLINE_CHECKS").is_some_and(|v| v == "1");
        if inline {
            tracing::warn!("measurement knob: proof checks run in the session");
        }
        node.session.set_offload(!inline);
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

    /// Takes the result of a proof check from the checker's thread.
    pub(crate) fn check_done(&mut self, done: &crate::hand::CheckDone) {
        self.session.check_done(done);
    }

    /// Sends what the session produced (logged first) and reports its events; hands its
    /// proof checks to the checker.
    pub(crate) async fn flush(&mut self) -> Result<(), NodeError> {
        while let Some(check) = self.session.poll_check() {
            self.checker.submit(check);
        }
        let entries: Vec<crate::transcript::Entry> =
            std::iter::from_fn(|| self.session.poll_public()).collect();
        self.transcript.append(&entries)?;
        self.feed_watchers(&entries).await;
        while let Some((dest, bytes)) = self.session.poll_transmit() {
            if self.logged_sent.insert(sent_hash(&bytes)) {
                self.log.append(&Record::Sent {
                    bytes: bytes.clone(),
                })?;
            }
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
                    self.report_paths().await;
                }
                TableEvent::GameOver { .. } => self.finishing = Some(tokio::time::Instant::now()),
                TableEvent::Alone { secs } => self.alone = Some(*secs),
                TableEvent::Stopped { reason } => self.stopped = Some(*reason),
                TableEvent::HandVoided { .. } => {
                    self.sync_bypass();
                    self.dial_missing();
                }
                TableEvent::Hand { .. }
                | TableEvent::SeatBarred { .. }
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

    /// Dials every seat we should be connected to but are not (once a second, and at once
    /// when a connection closes).
    fn dial_missing(&mut self) {
        if self.session.config().is_none() {
            return;
        }
        for key in self.session.peers() {
            self.dial_seat(&key);
        }
    }

    /// Dials a seat at every address known for it, unless it is connected. A new dial every
    /// time, even with one still hanging: a dial made while the network was down hangs until
    /// the handshake timeout, and the one made the second the network is back must not wait
    /// for it.
    fn dial_seat(&mut self, key: &PublicKey) {
        let Some(peer) = peer_of(key).filter(|p| !self.connected.contains(p)) else {
            return;
        };
        let addrs = self.book.get(key).cloned().unwrap_or_default();
        if addrs.is_empty() {
            return;
        }
        let opts = DialOpts::peer_id(peer)
            .addresses(addrs)
            .condition(PeerCondition::Always)
            .build();
        let _ = self.swarm.dial(opts);
    }

    /// Whether `key` is a seat of this table (or, before the start, in its roster).
    fn is_seat(&self, key: &PublicKey) -> bool {
        *key != self.my_key
            && (self.session.peers().contains(key)
                || self
                    .session
                    .roster()
                    .iter()
                    .flatten()
                    .any(|s| s.key == *key))
    }

    /// Remembers addresses a seat says it listens on (identify), newest first, so that a seat
    /// whose address changed is dialled at its new one.
    fn learn_seat_addresses(&mut self, key: PublicKey, said: &[Multiaddr]) {
        if !self.is_seat(&key) {
            return;
        }
        let known = self.book.entry(key).or_default();
        for a in said.iter().take(MAX_ADDRS_PER_SEAT) {
            let a: Multiaddr = a
                .iter()
                .filter(|p| !matches!(p, Protocol::P2p(_)))
                .collect();
            if !known.contains(&a) {
                known.insert(0, a);
            }
        }
        known.truncate(MAX_ADDRS_PER_SEAT);
    }
}

/// The most addresses remembered for one seat (what identify says is bounded so).
const MAX_ADDRS_PER_SEAT: usize = 8;

/// A test knob: `FAIRDEAL_ANNOUNCE=MULTIADDR` makes the node tell the others that it is at
/// that address, and at no other (the fault-injection tests run each peer behind a loopback
/// proxy that drops, stalls and cuts its connections; the peer listens where `--listen` says).
fn announce_from_env() -> Option<Multiaddr> {
    let a: Multiaddr = std::env::var("FAIRDEAL_ANNOUNCE").ok()?.parse().ok()?;
    tracing::warn!(%a, "test knob: announcing another address than the one listened on");
    Some(a)
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

/// How long a node waits for its circuit at the relay before it gives up: a relay on the
/// internet answers a reservation within a few round trips.
const RELAY_WAIT: Duration = Duration::from_secs(15);

/// What a node starts with: its listen addresses, the other events of those moments (to be
/// handled once the node is built), and its listener at the relay, if any.
type FirstAddresses = (
    Vec<Multiaddr>,
    Vec<SwarmEvent<super::swarm::BehaviourEvent>>,
    Option<ListenerId>,
);

/// Waits for the node's first listen addresses: at least one, and the relay's circuit when
/// there is a relay (else, when `must_reach`, [`NodeError::NoRelay`] after [`RELAY_WAIT`]).
async fn first_addresses(
    swarm: &mut Swarm<Behaviour>,
    relay: Option<&Multiaddr>,
    must_reach: bool,
) -> Result<FirstAddresses, NodeError> {
    let mut addrs: Vec<Multiaddr> = Vec::new();
    let mut early = Vec::new();
    let give_up = tokio::time::Instant::now() + RELAY_WAIT;
    let mut why = "no answer".to_owned();
    let has_circuit = |a: &[Multiaddr]| a.iter().any(super::relay::is_relayed);
    // The circuit is asked for once TCP listens on an address the relay is reached from: the
    // connection to the relay then leaves from the listening port, so the address the relay
    // sees (and tells the other side for hole punching) is the one this node answers at.
    let mut circuit: Option<ListenerId> = None;
    // A relay on this machine (trying it out, or a test) is reached from loopback; any other
    // only from an address beyond it.
    let loopback = |a: &Multiaddr| {
        a.iter().any(|p| match p {
            Protocol::Ip4(ip) => ip.is_loopback(),
            Protocol::Ip6(ip) => ip.is_loopback(),
            _ => false,
        })
    };
    let relay_is_local = relay.is_some_and(loopback);
    let reachable = |a: &Multiaddr| {
        let ip = a
            .iter()
            .any(|p| matches!(p, Protocol::Ip4(_) | Protocol::Ip6(_)));
        ip && (relay_is_local || !loopback(a))
    };
    while addrs.is_empty() || (relay.is_some() && !has_circuit(&addrs)) {
        if let Some(relay) = relay
            && circuit.is_none()
            && addrs.iter().any(reachable)
        {
            circuit = Some(
                swarm
                    .listen_on(super::relay::circuit_listen(relay))
                    .map_err(NetError::from)?,
            );
        }
        let Ok(next) = tokio::time::timeout_at(give_up, swarm.next()).await else {
            if !must_reach && !addrs.is_empty() {
                return Ok((addrs, early, None));
            }
            let address = relay.map(ToString::to_string).unwrap_or_default();
            return Err(NodeError::NoRelay { address, why });
        };
        match next {
            Some(SwarmEvent::NewListenAddr { address, .. }) => addrs.push(address),
            Some(SwarmEvent::ListenerClosed { reason: Err(e), .. })
                if relay.is_some() && !must_reach && !addrs.is_empty() =>
            {
                tracing::warn!(error = %e, "the relay cannot be reached now; asking again later");
                return Ok((addrs, early, None));
            }
            Some(SwarmEvent::ListenerClosed { reason: Err(e), .. }) if relay.is_some() => {
                // The relay refused the reservation (or its connection failed).
                let address = relay.map(ToString::to_string).unwrap_or_default();
                return Err(NodeError::NoRelay {
                    address,
                    why: e.to_string(),
                });
            }
            Some(ev @ SwarmEvent::OutgoingConnectionError { .. }) => {
                if let SwarmEvent::OutgoingConnectionError { error, .. } = &ev {
                    why = dial_reason(error);
                }
                early.push(ev);
            }
            Some(other) => early.push(other),
            None => {}
        }
    }
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_millis(100), swarm.next()).await
    {
        match event {
            SwarmEvent::NewListenAddr { address, .. } => addrs.push(address),
            other => early.push(other),
        }
    }
    Ok((addrs, early, circuit))
}

/// Why a dial failed, in a few words: the innermost cause (for a refused TCP connection,
/// "Connection refused (os error 111)"), not libp2p's nested list of attempts.
fn dial_reason(error: &libp2p::swarm::DialError) -> String {
    let deepest = |mut e: &(dyn std::error::Error + 'static)| {
        loop {
            if let Some(refused) = e.downcast_ref::<ConnectError>() {
                return circuit_refusal(refused);
            }
            match e.source() {
                Some(next) => e = next,
                None => return e.to_string(),
            }
        }
    };
    let why = match error {
        libp2p::swarm::DialError::Transport(tries) => tries
            .last()
            .map_or_else(|| error.to_string(), |(_, e)| deepest(e)),
        other => deepest(other),
    };
    why.chars().take(200).collect()
}

/// Why a relay would not open a circuit to a host, in the words a joiner can act on.
fn circuit_refusal(refused: &ConnectError) -> String {
    match refused {
        ConnectError::NoReservation => "the relay holds no table for this host: the host has \
            closed it or restarted, or the invitation is old; ask the host for a fresh one"
            .to_owned(),
        ConnectError::ResourceLimitExceeded => {
            "the relay is full just now; try again in a minute".to_owned()
        }
        ConnectError::ConnectionFailed => "the relay could not reach the host".to_owned(),
        ConnectError::PermissionDenied => "the relay refused to connect us".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circuit_to_a_host_without_a_reservation_is_said_in_words() {
        let err = libp2p::swarm::DialError::Transport(vec![(
            "/ip4/127.0.0.1/tcp/1/p2p-circuit".parse().unwrap(),
            libp2p::TransportError::Other(std::io::Error::other(
                libp2p::relay::client::transport::Error::Connect(ConnectError::NoReservation),
            )),
        )]);
        let why = dial_reason(&err);
        assert!(why.contains("holds no table for this host"), "{why}");
    }

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
