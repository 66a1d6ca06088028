//! A whole table on a simulated clock: four computer players delivering to each other, and
//! every five simulated seconds each live peer "pings" the others (`heard`), as libp2p's ping
//! does; peers marked dead neither send nor receive.

use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_crypto::{Fault, Identity, PublicKey};
use fairdeal_net::hand::Event as HandEvent;
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, Gone, TableEvent, TableSession};
use fairdeal_net::transcript::Entry;

pub fn card(i: u8) -> ([u8; 32], SeatInfo) {
    let secret = [i + 81; 32];
    (
        secret,
        SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: Vec::new(),
        },
    )
}

/// Four computer players (South hosts) at table `name`, playing to `target`; and their
/// identity secrets.
pub fn table(name: &str, preset: Preset, target: i32) -> (Vec<TableSession>, Vec<[u8; 32]>) {
    let house = HouseRules {
        target: Some(target),
        ..HouseRules::default()
    };
    let (s0, c0) = card(0);
    let mut peers = vec![TableSession::host(
        s0,
        [60; 32],
        c0,
        Some("greedy"),
        name,
        preset,
        house,
    )];
    let mut secrets = vec![s0];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, c) = card(i);
        let mut p = TableSession::joiner(s, [60 + i; 32], c, Some("greedy"));
        p.join(host);
        peers.push(p);
        secrets.push(s);
    }
    (peers, secrets)
}

/// The clock reads `now`: the peers for which `live` says true hear each other (their pings),
/// then run their timers.
pub fn tick(
    peers: &mut [TableSession],
    keys: &[PublicKey],
    live: &dyn Fn(usize) -> bool,
    now: u64,
) {
    for i in (0..peers.len()).filter(|&i| live(i)) {
        for j in (0..peers.len()).filter(|&j| j != i && live(j)) {
            peers[i].heard(keys[j], now);
        }
    }
    for i in (0..peers.len()).filter(|&i| live(i)) {
        peers[i].handle_timeout(now);
    }
}

/// The table, the clock, and who is gone.
pub struct Sim {
    pub peers: Vec<TableSession>,
    pub keys: Vec<PublicKey>,
    pub events: Vec<Vec<TableEvent>>,
    pub now: u64,
    /// Peers that are gone: they neither send nor receive nor ping.
    pub dead: Vec<bool>,
    /// Each peer's public transcript so far.
    pub files: Vec<Vec<Entry>>,
    /// Messages lost on the way: `(sender, bytes)` for which it says true are not delivered.
    pub lose: fn(usize, &[u8]) -> bool,
}

impl Sim {
    pub fn new(peers: Vec<TableSession>) -> Self {
        let keys = peers.iter().map(TableSession::key).collect();
        Self {
            peers,
            keys,
            events: vec![Vec::new(); 4],
            now: 0,
            dead: vec![false; 4],
            files: vec![Vec::new(); 4],
            lose: |_, _| false,
        }
    }

    /// Delivers what every peer has queued now (one round); true if anything moved.
    pub fn round(&mut self) -> bool {
        {
            let mut moved = false;
            for i in 0..4 {
                self.files[i].extend(std::iter::from_fn(|| self.peers[i].poll_public()));
                while let Some((dest, bytes)) = self.peers[i].poll_transmit() {
                    moved = true;
                    if self.dead[i] || (self.lose)(i, &bytes) {
                        continue;
                    }
                    let targets: Vec<usize> = match dest {
                        Dest::Peer(k) => {
                            self.keys.iter().position(|x| *x == k).into_iter().collect()
                        }
                        Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                    };
                    for j in targets {
                        if !self.dead[j] {
                            let _ = self.peers[j].handle_message(self.keys[i], &bytes);
                            let peer = &mut self.peers[j];
                            self.files[j].extend(std::iter::from_fn(|| peer.poll_public()));
                        }
                    }
                }
                while let Some(e) = self.peers[i].poll_event() {
                    self.events[i].push(e);
                }
                self.files[i].extend(std::iter::from_fn(|| self.peers[i].poll_public()));
            }
            moved
        }
    }

    /// Takes every peer's pending events and transcript entries (without delivering).
    pub fn drain(&mut self) {
        for i in 0..4 {
            while let Some(e) = self.peers[i].poll_event() {
                self.events[i].push(e);
            }
            self.files[i].extend(std::iter::from_fn(|| self.peers[i].poll_public()));
        }
    }

    /// Advances the clock by `ms`: pings between live peers, then every live peer's timers.
    pub fn tick(&mut self, ms: u64) {
        self.now += ms;
        let dead = &self.dead;
        tick(&mut self.peers, &self.keys, &|i| !dead[i], self.now);
    }

    /// Runs until `done`, bounded by `limit_ms` of simulated time.
    pub fn run(&mut self, limit_ms: u64, done: &dyn Fn(&Self) -> bool) {
        while self.now < limit_ms && !done(self) {
            while self.round() {
                if done(self) {
                    return;
                }
            }
            self.tick(5_000);
        }
    }

    /// Whether every peer in `who` saw its game end.
    pub fn over(&self, who: &[usize]) -> bool {
        who.iter().all(|&i| self.peers[i].finished().is_some())
    }

    pub fn voided(&self, i: usize) -> Vec<(Seat, Gone)> {
        self.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::HandVoided { seat, why, .. } => Some((*seat, *why)),
                _ => None,
            })
            .collect()
    }

    pub fn faults(&self, i: usize) -> Vec<(Option<Seat>, Fault)> {
        self.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::Hand {
                    event: HandEvent::Fault(b),
                    ..
                } => Some((b.offender, b.fault)),
                _ => None,
            })
            .collect()
    }

    pub fn has(&self, i: usize, f: &dyn Fn(&TableEvent) -> bool) -> bool {
        self.events[i].iter().any(f)
    }

    /// The honest peers' totals, all equal.
    pub fn same_totals(&self, who: &[usize]) {
        let t: Vec<[i32; 2]> = who.iter().map(|&i| self.peers[i].totals()).collect();
        assert!(t.iter().all(|x| *x == t[0]), "totals differ: {t:?}");
    }
}
