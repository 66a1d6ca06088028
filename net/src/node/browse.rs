//! Finding tables: mDNS on the LAN (and addresses typed in), each asked "what table is this?"
//! every few seconds, so a lobby list shows names, rules and free seats as they change.

use std::time::{Duration, Instant};

use futures::StreamExt;
use libp2p::request_response::{Event as RrEvent, Message};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, mdns};
use tokio::sync::mpsc;

use super::hosts::Hosts;
pub use super::hosts::{BrowseEvent, FoundTable};
use super::swarm::{BehaviourEvent, build_with};
use super::{NetError, NodeError};
use crate::table::msg::{Reply, TableMsg};

/// How often known hosts are asked again.
const REFRESH: Duration = Duration::from_secs(3);
/// How often the browser asks the LAN for hosts by mDNS. Hosts answer a question and say
/// nothing unasked: with mDNS's default (five minutes) a table opened after the browser
/// started would be listed only minutes later.
const MDNS_QUERY: Duration = Duration::from_secs(5);

/// Looks for tables until `events` is closed: on the LAN by mDNS when `mdns` is set, and at
/// each of `direct` (addresses typed in). `secret` is a throwaway identity. A table is listed
/// at the address its host answers at now, and no longer listed when the host stops
/// answering or its mDNS record expires (see [`Hosts`]).
///
/// # Errors
///
/// The network cannot start.
pub async fn browse(
    secret: [u8; 32],
    mdns_on: bool,
    direct: Vec<Multiaddr>,
    events: mpsc::Sender<BrowseEvent>,
) -> Result<(), NodeError> {
    let query = mdns::Config {
        query_interval: MDNS_QUERY,
        ..mdns::Config::default()
    };
    let mut swarm = build_with(secret, mdns_on.then_some(query), None)?;
    for a in direct {
        swarm.dial(a).map_err(NetError::from)?;
    }
    let mut hosts = Hosts::default();
    let mut tick = tokio::time::interval(REFRESH);
    loop {
        let mut said = Vec::new();
        tokio::select! {
            () = events.closed() => return Ok(()),
            _ = tick.tick() => {
                for peer in hosts.peers() {
                    swarm.behaviour_mut().rr.send_request(peer, TableMsg::Query.encode());
                }
                said = hosts.silent(Instant::now());
            }
            event = swarm.select_next_some() => match event {
                SwarmEvent::ConnectionEstablished { peer_id, endpoint, .. } => {
                    let at = endpoint.get_remote_address().clone();
                    if hosts.connected(peer_id, at, endpoint.is_dialer(), Instant::now()) {
                        swarm.behaviour_mut().rr.send_request(&peer_id, TableMsg::Query.encode());
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                    let mut ask = Vec::new();
                    for (peer, addr) in list {
                        swarm.add_peer_address(peer, addr.clone());
                        if hosts.discovered(peer, addr, Instant::now()) && !ask.contains(&peer) {
                            ask.push(peer);
                        }
                    }
                    for peer in ask {
                        swarm.behaviour_mut().rr.send_request(&peer, TableMsg::Query.encode());
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Expired(list))) => {
                    said = list.iter().filter_map(|(peer, a)| hosts.expired(*peer, a)).collect();
                }
                SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::Message {
                    peer,
                    message: Message::Response { response, .. },
                    ..
                })) => {
                    let info = Reply::decode(&response).ok().and_then(|r| r.info);
                    said.push(hosts.answered(peer, info, Instant::now()));
                }
                SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::OutboundFailure {
                    peer, ..
                })) => {
                    said.push(hosts.failed(peer));
                }
                _ => {}
            },
        }
        for event in said {
            if events.send(event).await.is_err() {
                return Ok(());
            }
        }
    }
}
