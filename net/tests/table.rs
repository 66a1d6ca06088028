//! Four table peers in one process: the lobby, the co-signed configuration, and a whole game.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{GameResult, HouseRules, Preset};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, TableEvent, TableSession};

fn seat(i: u8, bot: bool) -> ([u8; 32], SeatInfo) {
    let secret = [i + 21; 32];
    let key = Identity::from_secret(secret).public();
    (
        secret,
        SeatInfo {
            key,
            name: format!("p{i}"),
            bot,
            addrs: Vec::new(),
        },
    )
}

/// Host plus three joiners, all computer players, with a low target.
pub fn table(preset: Preset, target: i32) -> Vec<TableSession> {
    let house = HouseRules {
        target: Some(target),
        ..HouseRules::default()
    };
    let (s0, i0) = seat(0, true);
    let mut peers = vec![TableSession::host(
        s0,
        [100; 32],
        i0,
        Some("expert"),
        "test",
        preset,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, info) = seat(i, true);
        let mut p = TableSession::joiner(
            s,
            [100 + i; 32],
            info,
            Some(if i % 2 == 0 { "expert" } else { "greedy" }),
        );
        p.join(host);
        peers.push(p);
    }
    peers
}

/// Delivers everything until quiet; returns every peer's events.
pub fn run(peers: &mut [TableSession]) -> Vec<Vec<TableEvent>> {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut events = vec![Vec::new(); peers.len()];
    loop {
        let mut moved = false;
        for i in 0..peers.len() {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    peers[j].handle_message(keys[i], &bytes).unwrap();
                }
            }
            while let Some(e) = peers[i].poll_event() {
                events[i].push(e);
            }
        }
        if !moved {
            return events;
        }
    }
}

#[test]
fn four_peers_play_a_whole_game() {
    for preset in [Preset::Samba, Preset::Canasta] {
        let mut peers = table(preset, 2500);
        let events = run(&mut peers);
        let mut finals = Vec::new();
        for (i, p) in peers.iter().enumerate() {
            let over: Vec<_> = events[i]
                .iter()
                .filter(|e| matches!(e, TableEvent::GameOver { .. }))
                .collect();
            assert_eq!(over.len(), 1, "{preset} peer {i}: {:?}", p);
            assert!(p.finished().is_some());
            assert_ne!(p.finished(), Some(GameResult::Continue));
            finals.push((
                p.totals(),
                p.reports()
                    .iter()
                    .map(|r| (r.scores, r.transcript_root))
                    .collect::<Vec<_>>(),
            ));
        }
        assert!(
            finals.iter().all(|f| f == &finals[0]),
            "{preset}: all peers agree on every hand"
        );
        assert!(!finals[0].1.is_empty());
        assert!(finals[0].0[0] >= 2500 || finals[0].0[1] >= 2500);
    }
}
