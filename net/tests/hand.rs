//! Four in-process seats play whole hands exchanging only signed bytes.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::sync::Arc;

use fairdeal_core::{Preset, Rules, Seat, SplitMix64};
use fairdeal_crypto::{CardTable, Identity};
use fairdeal_net::hand::{Event, HandConfig, HandReport, HandSession, Stage};

#[allow(dead_code)]
fn sessions(preset: Preset, dealer: Seat, salt: u8) -> Vec<HandSession> {
    let rules = Rules::preset(preset);
    let table = Arc::new(CardTable::new(rules.deck_size() as u16).unwrap());
    let ids: Vec<Identity> = (0..4).map(|i| Identity::from_secret([i + 1; 32])).collect();
    let keys = [
        ids[0].public(),
        ids[1].public(),
        ids[2].public(),
        ids[3].public(),
    ];
    let cfg = HandConfig {
        sid: [9; 32],
        keys,
        rules,
        dealer,
        scores: [0, 0],
        hand_no: 1,
        prev_result: [0; 32],
        proofs: fairdeal_crypto::ProofMode::Proved,
        bots: Default::default(),
    };
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| {
            let mut seed = [salt; 32];
            seed[0] = i as u8;
            HandSession::new(cfg.clone(), i as u8, id, seed, table.clone())
        })
        .collect()
}

/// Delivers every queued message to the other seats; true if anything moved.
fn deliver(seats: &mut [HandSession]) -> bool {
    let mut moved = false;
    for i in 0..seats.len() {
        while let Some(bytes) = seats[i].poll_transmit() {
            moved = true;
            for (j, other) in seats.iter_mut().enumerate() {
                if j != i {
                    other.handle_message(&bytes).unwrap();
                }
            }
        }
    }
    moved
}

/// Plays with random legal moves until every seat is done (or a fault); returns each seat's
/// events.
fn play(seats: &mut [HandSession], seed: u64) -> Vec<Vec<Event>> {
    let mut rng = SplitMix64::new(seed);
    let mut events = vec![Vec::new(); seats.len()];
    for _ in 0..100_000 {
        let moved = deliver(seats);
        for (i, s) in seats.iter_mut().enumerate() {
            while let Some(e) = s.poll_event() {
                events[i].push(e);
            }
        }
        let mut acted = false;
        for s in seats.iter_mut() {
            if s.my_turn() {
                let mv = s.view().unwrap().random_legal_move(&mut rng).unwrap();
                s.submit(mv).unwrap();
                acted = true;
            }
        }
        if !moved && !acted {
            break;
        }
    }
    events
}

fn reports(events: &[Vec<Event>]) -> Vec<HandReport> {
    events
        .iter()
        .filter_map(|es| {
            es.iter().find_map(|e| {
                if let Event::Complete(r) = e {
                    Some(r.clone())
                } else {
                    None
                }
            })
        })
        .collect()
}

#[test]
fn four_seats_play_and_verify_whole_hands() {
    for (preset, dealer, salt) in [
        (Preset::Samba, Seat::S, 1u8),
        (Preset::DutchSamba, Seat::W, 2),
        (Preset::Canasta, Seat::E, 3),
    ] {
        let mut seats = sessions(preset, dealer, salt);
        let events = play(&mut seats, u64::from(salt));
        for (i, s) in seats.iter().enumerate() {
            let faults: Vec<_> = events[i]
                .iter()
                .filter(|e| matches!(e, Event::Fault(_)))
                .collect();
            assert!(faults.is_empty(), "{preset} seat {i}: {faults:?}");
            assert_eq!(s.stage(), Stage::Done, "{preset} seat {i}");
        }
        let r = reports(&events);
        assert_eq!(r.len(), 4);
        assert!(
            r.iter()
                .all(|x| x.scores == r[0].scores && x.transcript_root == r[0].transcript_root),
            "{preset}: every seat signs the same result"
        );
        assert_eq!(r[0].shuffles_checked, 4);
        assert!(r[0].openings_checked > 100);
        // Every seat saw the same moves.
        let moves: Vec<Vec<_>> = events
            .iter()
            .map(|es| {
                es.iter()
                    .filter(|e| matches!(e, Event::Moved { .. }))
                    .cloned()
                    .collect()
            })
            .collect();
        assert!(moves.iter().all(|m| m == &moves[0]));
        assert!(moves[0].len() > 20);
    }
}

#[test]
fn other_seats_never_see_a_hidden_card_before_the_audit() {
    let mut seats = sessions(Preset::Samba, Seat::S, 5);
    let mut rng = SplitMix64::new(5);
    for _ in 0..60 {
        while deliver(&mut seats) {}
        for s in seats.iter_mut() {
            while s.poll_event().is_some() {}
        }
        // N's cards in hand are hidden in every other replica.
        let north = seats[2].replica().map(|r| r.hand(Seat::N).len());
        for (i, s) in seats.iter().enumerate() {
            if i == 2 {
                continue;
            }
            if let (Some(r), Some(n)) = (s.replica(), north) {
                let hidden = r.hidden_in_hand(Seat::N);
                let known = r.hand(Seat::N).len() - hidden;
                // Only cards N took from the public pile can be known to others.
                assert!(hidden + known == n);
                assert!(known <= r.pile().len() + 60, "seat {i}");
                assert!(r.hand(Seat::N).iter().filter(|c| !c.is_hidden()).count() == known);
            }
        }
        if let Some(s) = seats.iter_mut().find(|s| s.my_turn()) {
            let mv = s.view().unwrap().random_legal_move(&mut rng).unwrap();
            s.submit(mv).unwrap();
        }
    }
    // Right after the deal, every card of N is hidden to the others.
    let fresh = sessions(Preset::Samba, Seat::S, 6);
    let mut seats = fresh;
    while deliver(&mut seats) {}
    for (i, s) in seats.iter().enumerate() {
        if i != 2 {
            let r = s.replica().unwrap();
            assert_eq!(r.hidden_in_hand(Seat::N), r.hand(Seat::N).len());
        }
    }
}
