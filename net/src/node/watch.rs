//! Watching a table over the network: the spectator's event loop ([`watch`]) on the
//! `/fairdeal/watch/1` protocol ([`WATCH_PROTOCOL`], its codec in `codec.rs`). A spectator asks one seat for the entries it lacks
//! (`Watch { from }`); the seat answers when it has new ones, or after [`HOLD`] with none, and
//! the spectator asks again at once. Everything is checked by [`crate::watch::Watch`] before
//! it is reported. The seat's side is `driver/watchers.rs`.

use std::time::Duration;

use fairdeal_core::{GameResult, game_result};
use futures::StreamExt;
use libp2p::request_response::{self, Message};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId};
use tokio::sync::mpsc;

pub use super::codec::WATCH_PROTOCOL;
use super::swarm::{BehaviourEvent, build};
use super::{NetError, NodeError};
use crate::watch::{FromSeat, FromWatcher, Watch, WatchError, WatchEvent};

/// How long a seat holds a spectator's request when it has nothing new (well under the
/// request timeout, so that an idle table's spectator is answered, not timed out).
pub(crate) const HOLD: Duration = Duration::from_secs(5);

/// How often a spectator that lost its seat dials it again.
const REDIAL: Duration = Duration::from_secs(1);

/// How long a spectator keeps trying to reach a seat it never reached.
const FIRST_REACH: Duration = Duration::from_secs(15);

/// What a spectator's loop reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchUpdate {
    /// A checked event.
    Event(WatchEvent),
    /// Who watches (the seat's list, this spectator included).
    Watching(Vec<String>),
    /// A line about the connection.
    Status(String),
    /// The public table after the deal and after each checked move (every card no seat has
    /// shown is hidden).
    Table(Box<fairdeal_core::Position>),
    /// The table's configuration, once its signatures checked (before its `Table` event).
    Config(Box<crate::table::msg::TableConfig>),
}

/// How a watch ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchOutcome {
    /// The totals after the last verified deal.
    pub totals: [i32; 2],
    /// The game's result.
    pub result: GameResult,
    /// Deals verified by this spectator.
    pub verified: usize,
}

/// Why a watch stopped early.
#[derive(Debug, thiserror::Error)]
pub enum WatchFailure {
    /// The network.
    #[error(transparent)]
    Node(#[from] NodeError),
    /// What the seat sent does not check.
    #[error("what the seat sent does not check: {0}")]
    Check(#[from] WatchError),
    /// Every spectator's place is taken.
    #[error("{0} spectators already watch this table")]
    Full(u16),
    /// The seat refused.
    #[error("the seat refused to be watched")]
    Refused,
    /// The seat could not be reached.
    #[error("could not reach the table at {0}")]
    Unreached(Multiaddr),
}

/// Watches the table whose seat listens at `address` (with its `/p2p/` id) until the game is
/// over, reporting every checked event.
///
/// # Errors
///
/// The network, a stream that does not check, a full or refusing seat.
pub async fn watch(
    secret: [u8; 32],
    name: String,
    address: Multiaddr,
    updates: mpsc::Sender<WatchUpdate>,
) -> Result<WatchOutcome, WatchFailure> {
    let mut swarm = build(secret, false, None)?;
    let seat: Option<PeerId> = super::relay::last_peer(&address);
    swarm
        .dial(address.clone())
        .map_err(|e| WatchFailure::Node(NetError::from(e).into()))?;
    let mut w = Watch::new();
    let mut connected: Option<PeerId> = None;
    let mut ever = false;
    let started = tokio::time::Instant::now();
    let mut tick = tokio::time::interval(REDIAL);
    let mut verified = 0;
    let ask = |w: &Watch| {
        FromWatcher::Watch {
            name: name.clone(),
            from: w.held(),
        }
        .encode()
    };
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if connected.is_none() {
                    if !ever && started.elapsed() > FIRST_REACH {
                        return Err(WatchFailure::Unreached(address));
                    }
                    let _ = swarm.dial(address.clone());
                }
            }
            event = swarm.select_next_some() => match event {
                SwarmEvent::ConnectionEstablished { peer_id, .. }
                    if seat.is_none_or(|s| s == peer_id) && connected.is_none() =>
                {
                    connected = Some(peer_id);
                    let line = if ever { "back at the table" } else { "watching" };
                    ever = true;
                    let _ = updates.send(WatchUpdate::Status(line.to_owned())).await;
                    swarm.behaviour_mut().watch.send_request(&peer_id, ask(&w));
                }
                SwarmEvent::ConnectionClosed { peer_id, num_established: 0, .. }
                    if connected == Some(peer_id) =>
                {
                    connected = None;
                    let line = "lost the table; trying again".to_owned();
                    let _ = updates.send(WatchUpdate::Status(line)).await;
                }
                SwarmEvent::Behaviour(BehaviourEvent::Watch(request_response::Event::Message {
                    peer,
                    message: Message::Response { response, .. },
                    ..
                })) => {
                    match FromSeat::decode(&response) {
                        Ok(FromSeat::Entries { from, watching, entries }) => {
                            let _ = updates.send(WatchUpdate::Watching(watching)).await;
                            // Entry by entry: each event goes out as soon as it is checked.
                            for (k, e) in entries.into_iter().enumerate() {
                                w.take_from(from.saturating_add(k as u64), vec![e])?;
                                for u in drain(&mut w) {
                                    if let WatchUpdate::Event(WatchEvent::Verified(r)) = &u
                                        && let Some(cfg) = w.config()
                                    {
                                        verified += 1;
                                        let before = w.hand_scores().unwrap_or([0, 0]);
                                        let totals = crate::hand::add_scores(before, r.scores);
                                        let rules = cfg.rules();
                                        let result =
                                            game_result(totals, rules.target, rules.tie_rule);
                                        let _ = updates.send(u).await;
                                        if result != GameResult::Continue {
                                            let _ = swarm
                                                .behaviour_mut()
                                                .watch
                                                .send_request(&peer, FromWatcher::Leave.encode());
                                            return Ok(WatchOutcome { totals, result, verified });
                                        }
                                        continue;
                                    }
                                    let _ = updates.send(u).await;
                                }
                            }
                            swarm.behaviour_mut().watch.send_request(&peer, ask(&w));
                        }
                        Ok(FromSeat::Full { max }) => return Err(WatchFailure::Full(max)),
                        Ok(FromSeat::Refused) | Err(_) => return Err(WatchFailure::Refused),
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Watch(
                    request_response::Event::OutboundFailure { peer, .. },
                )) if connected == Some(peer) => {
                    // A request lost or timed out: ask again from what is held.
                    swarm.behaviour_mut().watch.send_request(&peer, ask(&w));
                }
                _ => {}
            }
        }
    }
}

/// The updates a front end draws from `w`'s pending events: the configuration before the
/// table's first event, and the public table after the deal and after every checked move.
pub fn drain(w: &mut Watch) -> Vec<WatchUpdate> {
    let mut out = Vec::new();
    while let Some(ev) = w.poll_event() {
        let table = matches!(ev, WatchEvent::Moved { .. } | WatchEvent::Dealt);
        if let (WatchEvent::Table { .. }, Some(c)) = (&ev, w.config()) {
            out.push(WatchUpdate::Config(Box::new(c.clone())));
        }
        out.push(WatchUpdate::Event(ev));
        if table && let Some(p) = w.replica() {
            out.push(WatchUpdate::Table(Box::new(p.clone())));
        }
    }
    out
}
