//! Four table peers in one process: the lobby, the co-signed configuration, and a whole game.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{GameResult, HouseRules, Preset, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::msg::{SeatInfo, TableMsg};
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

#[test]
fn a_peer_rebuilt_from_its_log_mid_game_finishes_with_the_others() {
    use fairdeal_net::store::{Meta, Record};
    let preset = Preset::Canasta;
    let house = HouseRules {
        target: Some(3000),
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
    let (s2_secret, s2_info) = seat(2, true);
    let meta2 = Meta {
        role: fairdeal_net::store::Part::Join,
        me: s2_info.clone(),
        bot: Some("greedy".into()),
        master: [102; 32],
        table: None,
        host: None,
        hold: false,
        want: None,
        move_clock_ms: 0,
    };
    for i in 1..4u8 {
        let (s, info) = seat(i, true);
        let mut p = TableSession::joiner(s, [100 + i; 32], info, Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    let mut log2 = vec![
        Record::Meta(Box::new(meta2.clone())),
        Record::Joined { host: host.0 },
    ];
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut delivered = 0usize;
    let mut crashed = false;
    let mut lost = 0usize;
    let mut back = false;
    for _round in 0..100_000 {
        let mut moved = false;
        for i in 0..peers.len() {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    if j == 2 && crashed && !back {
                        // Peer 2 is down: these messages are lost.
                        lost += 1;
                        continue;
                    }
                    if j == 2 {
                        log2.push(Record::Recv {
                            from: keys[i].0,
                            bytes: bytes.clone(),
                        });
                    }
                    let _ = peers[j].handle_message(keys[i], &bytes);
                    delivered += 1;
                }
            }
            while peers[i].poll_event().is_some() {}
        }
        if delivered > 400 && !crashed {
            // Crash peer 2 and bring it back from its log.
            crashed = true;
            let (rebuilt, _) = fairdeal_net::node::rebuild(s2_secret, &log2).unwrap();
            peers[2] = rebuilt;
            continue;
        }
        if crashed && !back && !moved {
            // Back online: the others notice the new connection and resend.
            back = true;
            for j in [0usize, 1, 3] {
                peers[j].peer_connected(keys[2]);
                peers[2].peer_connected(keys[j]);
            }
            moved = true;
        }
        if !moved {
            break;
        }
    }
    assert!(crashed && back && lost > 0);

    for (i, p) in peers.iter().enumerate() {
        assert!(
            p.finished().is_some(),
            "peer {i} did not finish: hand {} waiting {:?}",
            p.hand_no(),
            p.waiting_on()
        );
    }
}

#[test]
fn arbitrary_bytes_from_any_peer_never_panic_a_table() {
    use proptest::prelude::*;
    let peers = std::cell::RefCell::new(table(Preset::Samba, 2000));
    // Bring the table into a running hand first.
    {
        let mut p = peers.borrow_mut();
        let keys: Vec<PublicKey> = p.iter().map(TableSession::key).collect();
        for _ in 0..3 {
            for i in 0..4 {
                while let Some((_, bytes)) = p[i].poll_transmit() {
                    for j in (0..4).filter(|&j| j != i) {
                        let _ = p[j].handle_message(keys[i], &bytes);
                    }
                }
            }
        }
    }
    let from = peers.borrow()[1].key();
    proptest!(ProptestConfig::with_cases(300), |(bytes in proptest::collection::vec(any::<u8>(), 0..2000))| {
        let _ = peers.borrow_mut()[0].handle_message(from, &bytes);
    });
    // Wrapped garbage inside a well-formed table message, too.
    proptest!(ProptestConfig::with_cases(300), |(inner in proptest::collection::vec(any::<u8>(), 0..2000))| {
        let msg = TableMsg::Hand { bytes: inner }.encode();
        let _ = peers.borrow_mut()[0].handle_message(from, &msg);
    });
}

/// Fuzzing from valid traffic at the table: the first hand of a real game, one of its hand
/// messages mutated in its body and re-signed with its sender's key (so it passes every
/// envelope check), wrapped as the table sends it. No peer ever names another seat than the
/// signer's; a peer refuses a message only once its hand is void; the other peers finish the
/// hand or blame the signer. The test counts the cases that blamed and requires some.
///
/// Sabotage caught (checked): `HandSession::process` blaming the next shuffler for a bad
/// shuffle step.
#[test]
fn mutated_hand_traffic_at_a_table_blames_only_its_signer() {
    use fairdeal_crypto::encoding;
    use fairdeal_crypto::{Body, Envelope, SignedEnvelope};
    use fairdeal_net::hand::Event;
    use proptest::prelude::*;
    use std::cell::Cell;

    /// XOR one byte of the hand message's body and re-sign it as `secret`.
    fn mutate(bytes: &[u8], secret: [u8; 32], at: usize, mask: u8) -> Option<Vec<u8>> {
        let TableMsg::Hand { bytes: inner } = TableMsg::decode(bytes).ok()? else {
            return None;
        };
        let signed = SignedEnvelope::from_wire(&inner).ok()?;
        let mut env: Envelope = encoding::decode(&signed.bytes).ok()?;
        Body::decode(&env.body).ok()?;
        let i = at % env.body.len();
        env.body[i] ^= mask;
        let resigned = SignedEnvelope::seal(&Identity::from_secret(secret), &env).to_wire();
        Some(TableMsg::Hand { bytes: resigned }.encode())
    }

    // The honest first hand, once: how many hand messages the table carries.
    let total = {
        let mut peers = table(Preset::Samba, 1);
        let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
        let mut n = 0usize;
        for _ in 0..100_000 {
            let mut moved = false;
            for i in 0..4 {
                while let Some((dest, bytes)) = peers[i].poll_transmit() {
                    moved = true;
                    if matches!(TableMsg::decode(&bytes), Ok(TableMsg::Hand { .. })) {
                        n += 1;
                    }
                    let targets: Vec<usize> = match dest {
                        Dest::Peer(key) => {
                            keys.iter().position(|x| *x == key).into_iter().collect()
                        }
                        Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                    };
                    for j in targets {
                        peers[j].handle_message(keys[i], &bytes).unwrap();
                    }
                }
                while peers[i].poll_event().is_some() {}
            }
            if !moved || peers.iter().any(|p| p.hand_no() > 1) {
                break;
            }
        }
        n
    };
    // Half the cases hit the commitments and shuffle steps (the first messages), half any.
    let target = prop_oneof![0usize..8, 0..total];
    let (blamed, finished, mutated) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .map_or(16, |c: u32| c.min(16));
    proptest!(ProptestConfig::with_cases(cases), |(k in target, at in any::<usize>(), mask in 1u8..=255)| {
        let mut peers = table(Preset::Samba, 1);
        let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
        let mut events = vec![Vec::new(); 4];
        let mut hand_msgs = 0usize;
        let mut signer: Option<usize> = None;
        for _ in 0..100_000 {
            let mut moved = false;
            for i in 0..4 {
                while let Some((dest, mut bytes)) = peers[i].poll_transmit() {
                    moved = true;
                    if matches!(TableMsg::decode(&bytes), Ok(TableMsg::Hand { .. })) {
                        if hand_msgs == k && signer.is_none()
                            && let Some(new) = mutate(&bytes, [i as u8 + 21; 32], at, mask)
                        {
                            bytes = new;
                            signer = Some(i);
                        }
                        hand_msgs += 1;
                    }
                    let targets: Vec<usize> = match dest {
                        Dest::Peer(key) => keys.iter().position(|x| *x == key).into_iter().collect(),
                        Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                    };
                    for j in targets {
                        let r = peers[j].handle_message(keys[i], &bytes);
                        while let Some(e) = peers[j].poll_event() {
                            events[j].push(e);
                        }
                        let void = events[j].iter().any(|e| matches!(e, TableEvent::Hand { event: Event::Fault(_), .. }));
                        prop_assert!(r.is_ok() || void, "peer {} refused a message of peer {}: {:?}", j, i, r);
                    }
                }
                while let Some(e) = peers[i].poll_event() {
                    events[i].push(e);
                }
            }
            if !moved || peers.iter().any(|p| p.hand_no() > 1) {
                break;
            }
        }
        if signer.is_some() {
            mutated.set(mutated.get() + 1);
        }
        let seat_of = |i: usize| peers[i].config().and_then(|c| c.seat_of(&keys[i]));
        let signer_seat = signer.and_then(seat_of);
        for (j, es) in events.iter().enumerate() {
            if Some(j) == signer {
                continue;
            }
            for e in es {
                if let TableEvent::Hand { event: Event::Fault(b), .. } = e {
                    prop_assert_eq!(b.offender, signer_seat, "peer {} blamed {:?}", j, b);
                    blamed.set(blamed.get() + 1);
                }
                if let TableEvent::Hand { event: Event::Complete(_), .. } = e {
                    finished.set(finished.get() + 1);
                }
            }
        }
    });
    eprintln!(
        "mutated table traffic: {total} hand messages; {} cases mutated one; honest peers \
         finished the hand {} times, blamed the signer {} times",
        mutated.get(),
        finished.get(),
        blamed.get()
    );
    assert!(blamed.get() > 0);
}

#[test]
fn a_silent_seat_pauses_the_table_then_a_computer_player_takes_it() {
    let mut peers = table(Preset::Canasta, 2000);
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut events = vec![Vec::new(); 4];
    let mut silent = false;
    let mut waiting = None;
    let mut now = 0u64;
    for _ in 0..200_000 {
        let mut moved = false;
        for i in 0..4 {
            if silent && i == 3 {
                continue;
            }
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    if silent && j == 3 {
                        continue;
                    }
                    // Every message is taken, but the count of votes each voter tells the
                    // others once its own count is done, and the replacement each seat that
                    // took it passes on: leftovers where they were taken too.
                    let told = matches!(
                        TableMsg::decode(&bytes),
                        Ok(TableMsg::VotedOut { .. }
                            | TableMsg::ReplacePassed { .. }
                            | TableMsg::ReturnPassed { .. })
                    );
                    let taken = peers[j].handle_message(keys[i], &bytes);
                    assert!(told || taken.is_ok(), "{taken:?}");
                }
            }
            while let Some(e) = peers[i].poll_event() {
                events[i].push(e);
            }
        }
        // East's machine goes away in the middle of the first hand's play (ten moves in).
        let moves = events[0]
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TableEvent::Hand {
                        event: fairdeal_net::hand::Event::Moved { .. },
                        ..
                    }
                )
            })
            .count();
        if moves >= 10 {
            silent = true;
        }
        if !moved {
            if peers[..3].iter().all(|p| p.finished().is_some()) {
                break;
            }
            now += 30_000;
            for p in &mut peers[..3] {
                p.handle_timeout(now);
            }
            if silent && waiting.is_none() {
                waiting = peers[0].grace_left(Seat::E);
            }
        }
    }
    // While East was quiet in the hand, the table said how long it would still wait, and that
    // the hand would then be dealt again.
    let (left, after) = waiting.expect("a grace period left while East was quiet");
    assert!(
        left < fairdeal_net::table::DEFAULT_GRACE_MS,
        "{left} ms left"
    );
    assert_eq!(after, fairdeal_net::table::AfterGrace::DealtAgain);
    for (i, p) in peers[..3].iter().enumerate() {
        assert!(p.finished().is_some(), "peer {i} did not finish");
        assert!(
            events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::Paused(s) if s == &vec![Seat::E])),
            "peer {i} reported East quiet: {:?}",
            events[i]
                .iter()
                .filter(|e| matches!(
                    e,
                    TableEvent::Paused(_) | TableEvent::Resumed | TableEvent::HandVoided { .. }
                ))
                .collect::<Vec<_>>()
        );
        assert!(
            events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::HandVoided { seat: Seat::E, .. })),
            "peer {i} voided East's hand: {:?}",
            events[i]
                .iter()
                .filter(|e| !matches!(e, TableEvent::Hand { .. }))
                .collect::<Vec<_>>()
        );
    }
    // East's partner, West, runs the computer player that takes the seat.
    assert_eq!(peers[1].proxy_seats().iter().collect::<Vec<_>>(), [Seat::E]);
    let totals: Vec<[i32; 2]> = peers[..3].iter().map(TableSession::totals).collect();
    assert!(totals.iter().all(|t| *t == totals[0]));
}
