//! The browser's list of hosts, apart from the network (so that it is tested without mDNS):
//! where each host is reached, and whether its table is listed. A host listens at one port per
//! table, so an address at a port not known yet is the host's next table and the addresses
//! of the table before are dropped (the join address must be the live one); an mDNS record
//! that expires takes its address only; a host that answers no question for a while, or
//! says it hosts no table, is no longer listed.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};

use crate::table::msg::TableInfo;

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

/// The most hosts followed at once (a flood of announcements cannot grow the list for ever).
const MAX_HOSTS: usize = 128;
/// The most addresses kept for one host.
const MAX_ADDRS: usize = 16;
/// How long a listed host may leave the questions unanswered before its table is no longer
/// listed (a few rounds of questions: one lost answer does not drop it).
pub(crate) const SILENT: Duration = Duration::from_secs(10);

/// One host: where it is reached, when it last answered, whether its table is listed.
#[derive(Debug)]
struct Host {
    addrs: Vec<Multiaddr>,
    answered: Instant,
    listed: bool,
}

/// The hosts the browser follows.
#[derive(Debug, Default)]
pub(crate) struct Hosts {
    hosts: BTreeMap<PeerId, Host>,
}

/// The TCP (or UDP) port of `a`, if it names one.
fn port(a: &Multiaddr) -> Option<u16> {
    a.iter().find_map(|p| match p {
        Protocol::Tcp(n) | Protocol::Udp(n) => Some(n),
        _ => None,
    })
}

impl Hosts {
    /// The hosts followed.
    pub(crate) fn peers(&self) -> impl Iterator<Item = &PeerId> {
        self.hosts.keys()
    }

    /// `peer` is (also) at `addr`; whether it should be asked now. An address at another
    /// port than every one known is the host's next table: it replaces them.
    fn at(&mut self, peer: PeerId, addr: Multiaddr, now: Instant) -> bool {
        if !self.hosts.contains_key(&peer) && self.hosts.len() >= MAX_HOSTS {
            return false;
        }
        let host = self.hosts.entry(peer).or_insert_with(|| Host {
            addrs: Vec::new(),
            answered: now,
            listed: false,
        });
        if host.addrs.contains(&addr) {
            return true;
        }
        let new_port = port(&addr).is_some_and(|n| host.addrs.iter().all(|a| port(a) != Some(n)));
        if new_port {
            host.addrs.clear();
            // The next table is given its own time to answer.
            host.answered = now;
        }
        if host.addrs.len() < MAX_ADDRS {
            host.addrs.push(addr);
        }
        true
    }

    /// mDNS found `peer` at `addr`; whether it should be asked now.
    pub(crate) fn discovered(&mut self, peer: PeerId, addr: Multiaddr, now: Instant) -> bool {
        self.at(peer, addr, now)
    }

    /// A connection to `peer` was established at `addr` (`dialer`: this side dialled it);
    /// whether it should be asked now. A dial that reached the host says where it is now.
    pub(crate) fn connected(
        &mut self,
        peer: PeerId,
        addr: Multiaddr,
        dialer: bool,
        now: Instant,
    ) -> bool {
        if !dialer {
            return false;
        }
        let known = self.hosts.get(&peer).is_some_and(|h| !h.addrs.is_empty());
        let moved = self.hosts.get(&peer).is_some_and(|h| {
            port(&addr).is_some_and(|n| h.addrs.iter().all(|a| port(a) != Some(n)))
        });
        if known && !moved {
            return false;
        }
        self.at(peer, addr, now)
    }

    /// mDNS's record of `peer` at `addr` expired: that address is gone; the host too (its
    /// table no longer listed) once it has none left.
    pub(crate) fn expired(&mut self, peer: PeerId, addr: &Multiaddr) -> Option<BrowseEvent> {
        let host = self.hosts.get_mut(&peer)?;
        host.addrs.retain(|a| a != addr);
        if host.addrs.is_empty() {
            self.hosts.remove(&peer);
            return Some(BrowseEvent::Lost(peer));
        }
        None
    }

    /// `peer` answered "what table is this?" with `info` (`None`: it hosts none).
    pub(crate) fn answered(
        &mut self,
        peer: PeerId,
        info: Option<TableInfo>,
        now: Instant,
    ) -> BrowseEvent {
        let Some(host) = self.hosts.get_mut(&peer) else {
            return BrowseEvent::Lost(peer);
        };
        match (info, best(&host.addrs)) {
            (Some(info), Some(addr)) => {
                host.answered = now;
                host.listed = true;
                BrowseEvent::Found(FoundTable {
                    peer,
                    address: addr.with(Protocol::P2p(peer)),
                    info,
                })
            }
            _ => {
                host.listed = false;
                BrowseEvent::Lost(peer)
            }
        }
    }

    /// The question to `peer` failed (it cannot be reached, or did not answer in time).
    pub(crate) fn failed(&mut self, peer: PeerId) -> BrowseEvent {
        if let Some(host) = self.hosts.get_mut(&peer) {
            host.listed = false;
        }
        BrowseEvent::Lost(peer)
    }

    /// At each round of questions: the listed hosts that have answered none for
    /// [`SILENT`], no longer listed.
    pub(crate) fn silent(&mut self, now: Instant) -> Vec<BrowseEvent> {
        let mut out = Vec::new();
        for (peer, host) in &mut self.hosts {
            if host.listed && now.saturating_duration_since(host.answered) >= SILENT {
                host.listed = false;
                out.push(BrowseEvent::Lost(*peer));
            }
        }
        out
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
    use fairdeal_core::Preset;

    use super::*;
    use crate::table::msg::House;

    fn info(taken: usize) -> TableInfo {
        let mut seated: [Option<String>; 4] = Default::default();
        for s in seated.iter_mut().take(taken) {
            *s = Some("Ann".to_owned());
        }
        TableInfo {
            name: "Ann's table".to_owned(),
            preset: Preset::Samba,
            house: House::default(),
            seated,
            version: "test".to_owned(),
            move_clock_ms: 0,
        }
    }

    fn addr(port: u16) -> Multiaddr {
        format!("/ip4/192.168.1.5/tcp/{port}").parse().unwrap()
    }

    fn found_at(e: &BrowseEvent) -> Option<u16> {
        match e {
            BrowseEvent::Found(t) => port(&t.address),
            BrowseEvent::Lost(_) => None,
        }
    }

    /// Sabotage caught (checked): with the addresses of the table before kept first, the
    /// host's next table was listed at the closed table's port, and the closed table's record
    /// expiring dropped the host's next table from the list.
    #[test]
    fn a_hosts_next_table_replaces_its_closed_one() {
        let ann = PeerId::random();
        let t0 = Instant::now();
        let mut hosts = Hosts::default();
        assert!(hosts.discovered(ann, addr(40_001), t0));
        assert_eq!(
            found_at(&hosts.answered(ann, Some(info(1)), t0)),
            Some(40_001)
        );
        // The table closes; the host opens another, at another port.
        assert!(hosts.discovered(ann, addr(40_002), t0));
        assert_eq!(
            found_at(&hosts.answered(ann, Some(info(2)), t0)),
            Some(40_002)
        );
        // The closed table's record expires: the next table stays listed.
        assert_eq!(hosts.expired(ann, &addr(40_001)), None);
        assert_eq!(
            found_at(&hosts.answered(ann, Some(info(2)), t0)),
            Some(40_002)
        );
        // A dial that reached the host at a third port says where it is now.
        assert!(hosts.connected(ann, addr(40_003), true, t0));
        assert_eq!(
            found_at(&hosts.answered(ann, Some(info(1)), t0)),
            Some(40_003)
        );
        assert!(!hosts.connected(ann, addr(40_003), true, t0));
        // Its last record expiring drops the host.
        assert_eq!(
            hosts.expired(ann, &addr(40_003)),
            Some(BrowseEvent::Lost(ann))
        );
        assert_eq!(hosts.peers().count(), 0);
    }

    /// Sabotage caught (checked): with no silence check, a host whose questions went
    /// unanswered (neither an answer nor a failure) stayed listed.
    #[test]
    fn a_host_that_stops_answering_is_no_longer_listed() {
        let ann = PeerId::random();
        let t0 = Instant::now();
        let mut hosts = Hosts::default();
        hosts.discovered(ann, addr(40_001), t0);
        hosts.answered(ann, Some(info(1)), t0);
        assert!(hosts.silent(t0 + SILENT / 2).is_empty(), "still answering");
        assert_eq!(hosts.silent(t0 + SILENT), vec![BrowseEvent::Lost(ann)]);
        assert!(hosts.silent(t0 + SILENT * 2).is_empty(), "said once");
        // It answers again: listed again.
        let later = t0 + SILENT * 3;
        assert_eq!(
            found_at(&hosts.answered(ann, Some(info(1)), later)),
            Some(40_001)
        );
        // A host that says it hosts no table, or cannot be reached, is not listed.
        assert_eq!(hosts.answered(ann, None, later), BrowseEvent::Lost(ann));
        assert_eq!(hosts.failed(ann), BrowseEvent::Lost(ann));
        assert!(hosts.silent(later + SILENT).is_empty());
    }

    #[test]
    fn a_lan_address_is_preferred_to_loopback() {
        let lo: Multiaddr = "/ip4/127.0.0.1/tcp/1".parse().unwrap();
        let lan: Multiaddr = "/ip4/192.168.1.5/tcp/1".parse().unwrap();
        assert_eq!(best(&[lo.clone(), lan.clone()]), Some(lan));
        assert_eq!(best(std::slice::from_ref(&lo)), Some(lo));
        assert_eq!(best(&[]), None);
    }
}
