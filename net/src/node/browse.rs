//! Finding tables: mDNS on the LAN (and addresses typed in), each asked "what table is this?"
//! every few seconds, so a lobby list shows names, rules and free seats as they change.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{Event as RrEvent, Message};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, mdns};
use tokio::sync::mpsc;

use super::swarm::{BehaviourEvent, build};
use super::{NetError, NodeError};
use crate::table::msg::{Reply, TableInfo, TableMsg};

/// A table found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundTable {
    /// The host.
    pub peer: PeerId,
    /// Where to join it (with `/p2p/...`), a LAN address when there is one.
    pub address: Multiaddr,
    /// What the host says about it.
    pub info: TableInfo,
}

/// What the browser reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrowseEvent {
    /// A table appeared or changed.
    Found(FoundTable),
    /// A host is gone (or no longer hosts a table).
    Lost(PeerId),
}

/// How often known hosts are asked again.
const REFRESH: Duration = Duration::from_secs(3);
/// The most hosts followed at once (a flood of announcements cannot grow the list for ever).
const MAX_HOSTS: usize = 128;

/// Looks for tables until `events` is closed: on the LAN by mDNS when `mdns` is set, and at
/// each of `direct` (addresses typed in). `secret` is a throwaway identity.
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
    let mut swarm = build(secret, mdns_on, None)?;
    for a in direct {
        swarm.dial(a).map_err(NetError::from)?;
    }
    let mut hosts: BTreeMap<PeerId, Vec<Multiaddr>> = BTreeMap::new();
    let mut tick = tokio::time::interval(REFRESH);
    loop {
        tokio::select! {
            () = events.closed() => return Ok(()),
            _ = tick.tick() => {
                for peer in hosts.keys() {
                    swarm.behaviour_mut().rr.send_request(peer, TableMsg::Query.encode());
                }
            }
            event = swarm.select_next_some() => match event {
                SwarmEvent::ConnectionEstablished { peer_id, endpoint, .. } => {
                    let addrs = hosts.entry(peer_id).or_default();
                    if endpoint.is_dialer() && addrs.is_empty() {
                        addrs.push(endpoint.get_remote_address().clone());
                        swarm.behaviour_mut().rr.send_request(&peer_id, TableMsg::Query.encode());
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                    for (peer, addr) in list {
                        if !hosts.contains_key(&peer) && hosts.len() >= MAX_HOSTS {
                            continue;
                        }
                        swarm.add_peer_address(peer, addr.clone());
                        let addrs = hosts.entry(peer).or_default();
                        if addrs.len() >= 16 {
                            continue;
                        }
                        if !addrs.contains(&addr) {
                            addrs.push(addr);
                        }
                        swarm.behaviour_mut().rr.send_request(&peer, TableMsg::Query.encode());
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Expired(list))) => {
                    for (peer, _) in list {
                        if hosts.remove(&peer).is_some() {
                            let _ = events.send(BrowseEvent::Lost(peer)).await;
                        }
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::Message {
                    peer,
                    message: Message::Response { response, .. },
                    ..
                })) => {
                    let info = Reply::decode(&response).ok().and_then(|r| r.info);
                    let event = match (info, hosts.get(&peer).and_then(|a| best(a))) {
                        (Some(info), Some(addr)) => BrowseEvent::Found(FoundTable {
                            peer,
                            address: addr.with(Protocol::P2p(peer)),
                            info,
                        }),
                        _ => BrowseEvent::Lost(peer),
                    };
                    if events.send(event).await.is_err() {
                        return Ok(());
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Rr(RrEvent::OutboundFailure {
                    peer, ..
                })) => {
                    let _ = events.send(BrowseEvent::Lost(peer)).await;
                }
                _ => {}
            },
        }
    }
}

/// The address to join by: a LAN address over a loopback one (another machine can use it).
fn best(addrs: &[Multiaddr]) -> Option<Multiaddr> {
    let loopback = |a: &Multiaddr| {
        a.iter().any(|p| match p {
            Protocol::Ip4(ip) => ip.is_loopback(),
            Protocol::Ip6(ip) => ip.is_loopback(),
            _ => false,
        })
    };
    addrs
        .iter()
        .find(|a| !loopback(a))
        .or_else(|| addrs.first())
        .map(|a| {
            a.iter()
                .filter(|p| !matches!(p, Protocol::P2p(_)))
                .collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lan_address_is_preferred_to_loopback() {
        let lo: Multiaddr = "/ip4/127.0.0.1/tcp/1".parse().unwrap();
        let lan: Multiaddr = "/ip4/192.168.1.5/tcp/1".parse().unwrap();
        assert_eq!(best(&[lo.clone(), lan.clone()]), Some(lan));
        assert_eq!(best(std::slice::from_ref(&lo)), Some(lo));
        assert_eq!(best(&[]), None);
    }
}
