//! Four table peers in one process for the transcript tests: a host and three joiners (all
//! computer players), and delivery between them that collects each peer's public transcript.

use fairdeal_core::{HouseRules, Preset};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, TableSession};
use fairdeal_net::transcript::Entry;

/// The identity secret of the peer in seat `i`.
pub fn secret(i: u8) -> [u8; 32] {
    [i + 81; 32]
}

/// A table `name` of four computer players (the host South plays `expert`, the others
/// `greedy`), joined but not yet delivered to.
pub fn table(name: &str, preset: Preset, target: i32) -> Vec<TableSession> {
    let house = HouseRules {
        target: Some(target),
        ..HouseRules::default()
    };
    let info = |i: u8| SeatInfo {
        key: Identity::from_secret(secret(i)).public(),
        name: format!("p{i}"),
        bot: true,
        addrs: Vec::new(),
    };
    let mut peers = vec![TableSession::host(
        secret(0),
        [70; 32],
        info(0),
        Some("expert"),
        name,
        preset,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let mut p = TableSession::joiner(secret(i), [70 + i; 32], info(i), Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    peers
}

/// Delivers everything until quiet (or until `stop` says so, checked between deliveries),
/// collecting each peer's transcript entries. Peers in `gone` neither send nor receive.
pub fn run(
    peers: &mut [TableSession],
    files: &mut [Vec<Entry>],
    gone: &[usize],
    stop: &dyn Fn(&[TableSession]) -> bool,
) {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    loop {
        let mut moved = false;
        for i in 0..peers.len() {
            files[i].extend(std::iter::from_fn(|| peers[i].poll_public()));
            if stop(peers) {
                return;
            }
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                if gone.contains(&i) {
                    continue;
                }
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                };
                for j in targets.into_iter().filter(|j| !gone.contains(j)) {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                }
            }
            while peers[i].poll_event().is_some() {}
            files[i].extend(std::iter::from_fn(|| peers[i].poll_public()));
        }
        if !moved {
            return;
        }
    }
}

/// Like [`run`], but with a clock: whenever nothing is on its way, a second passes (the live
/// peers hear each other, then run their timers), for at most `ms` in all from `*now`. Peers
/// in `gone` are not heard from, so their silence counts.
pub fn run_clocked(
    peers: &mut [TableSession],
    files: &mut [Vec<Entry>],
    gone: &[usize],
    now: &mut u64,
    ms: u64,
    stop: &dyn Fn(&[TableSession]) -> bool,
) {
    let end = *now + ms;
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    loop {
        run(peers, files, gone, stop);
        if stop(peers) || *now >= end {
            return;
        }
        *now += 1_000;
        super::sim::tick(peers, &keys, &|i| !gone.contains(&i), *now);
    }
}

/// Seat `quitter` signs a quit during the hand and stops; the others wait out what it still
/// owes (it ends nothing by itself) and vote it out. Runs until a computer player has its
/// seat at every other peer.
pub fn quit_mid_hand(peers: &mut [TableSession], files: &mut [Vec<Entry>], quitter: usize) {
    peers[quitter].quit().expect("a seat quits during the hand");
    run(peers, files, &[], &|_| false);
    let others: Vec<usize> = (0..peers.len()).filter(|&i| i != quitter).collect();
    let mut now = 0;
    run_clocked(peers, files, &[quitter], &mut now, 600_000, &|p| {
        others.iter().all(|&i| p[i].runners()[quitter].is_some())
    });
    assert!(
        others
            .iter()
            .all(|&i| peers[i].runners()[quitter].is_some()),
        "a computer player took the seat that quit"
    );
}

/// Whether `bytes` (a table message) carry a seat's seed reveal.
pub fn is_reveal(bytes: &[u8]) -> bool {
    use fairdeal_crypto::{Body, Envelope, SignedEnvelope, encoding};
    use fairdeal_net::table::msg::TableMsg;
    let Ok(TableMsg::Hand { bytes }) = TableMsg::decode(bytes) else {
        return false;
    };
    SignedEnvelope::from_wire(&bytes)
        .ok()
        .and_then(|s| encoding::decode::<Envelope>(&s.bytes).ok())
        .and_then(|e| Body::decode(&e.body).ok())
        .is_some_and(|b| matches!(b, Body::HandReveal { .. }))
}
