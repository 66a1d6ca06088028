//! Four in-process seats play whole hands exchanging only signed bytes.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::sync::Arc;

use fairdeal_core::{Move, Preset, Rules, Seat, SplitMix64};
use fairdeal_crypto::{Body, CardTable, Identity};
use fairdeal_net::hand::{DealHead, Event, HandConfig, HandReport, HandSession, Stage};

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
        head: DealHead {
            hand_no: 1,
            dealer,
            totals: [0, 0],
            prev_result: [0; 32],
        },
        proofs: fairdeal_crypto::ProofMode::Proved,
        bots: Default::default(),
    };
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| {
            let mut seed = [salt; 32];
            seed[0] = i as u8;
            HandSession::new(cfg.clone(), Seat::from_index(i), id, seed, table.clone())
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
        // Every share another seat sent was checked, once: each of a round's positions and
        // each card shown in a move (the count a node reports is the count in its transcript).
        // Sabotage caught (checked): `openings_checked -= 1` for a shown card (a mutant the
        // old `> 100` let through).
        let sent_by_others: usize = seats[0]
            .transcript()
            .iter()
            .filter_map(|signed| signed.verify(&seats[0].hctx(), &keys()).ok())
            .filter(|v| v.envelope.sender != 0)
            .map(|v| match Body::decode(&v.envelope.body) {
                Ok(Body::Shares { items, .. }) => items.len(),
                Ok(Body::Move { opened, .. }) => opened.len(),
                _ => 0,
            })
            .sum();
        assert!(sent_by_others > 100, "{preset}: {sent_by_others}");
        assert_eq!(r[0].openings_checked, sent_by_others, "{preset}");
        // Every seat saw the same moves with the same public effects; the cards a move drew
        // only the mover's own seat was told.
        let moves: Vec<Vec<_>> = events
            .iter()
            .enumerate()
            .map(|(i, es)| {
                es.iter()
                    .filter_map(|e| match e {
                        Event::Moved { seat, mv, effect } => {
                            if seat.index() != i {
                                assert!(effect.drawn.is_empty(), "seat {i} saw {seat:?} draw");
                            }
                            Some((
                                *seat,
                                mv.clone(),
                                effect.pile.clone(),
                                effect.red_threes.clone(),
                            ))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        assert!(moves.iter().all(|m| m == &moves[0]));
        assert!(moves[0].len() > 20);
        let own_draws = events
            .iter()
            .enumerate()
            .flat_map(|(i, es)| es.iter().map(move |e| (i, e)))
            .filter(|(i, e)| {
                matches!(e, Event::Moved { seat, mv: Move::Draw {}, effect } if seat.index() == *i && !effect.drawn.is_empty())
            })
            .count();
        assert!(
            own_draws > 4,
            "{preset}: a seat is told what its own draws brought"
        );
    }
}

/// What the other seats know of N's (seat 2's) hand, checked after every delivery of a whole
/// hand: the hand's size, and as faces only cards that N took from the public pile (and still
/// holds). Right after the deal, and whenever N has taken nothing, every one of N's cards is
/// hidden to them.
///
/// Sabotage caught (checked): `share_positions_from` making each seat share its own deal
/// positions too (`p == dealt || true`), so that every seat can open every card.
/// Plays one whole hand, checking after every delivery what the others know of N's hand;
/// returns how many of N's cards were ever known to another seat at once.
fn check_what_others_know_of_north(salt: u8) -> usize {
    use fairdeal_core::{Cards, Move};
    let north = Seat::N;
    let mut seats = sessions(Preset::Samba, Seat::S, salt);
    let mut rng = SplitMix64::new(u64::from(salt));
    // The cards N took from the pile (everyone saw them), as a multiset.
    let mut taken = Cards::new();
    let mut checks = 0usize;
    let mut max_known = 0usize;
    for _ in 0..100_000 {
        while deliver(&mut seats) {}
        for s in seats.iter_mut() {
            while s.poll_event().is_some() {}
        }
        if let Some(truth) = seats[2].replica() {
            let truth = truth.hand(north).clone();
            assert!(truth.iter().all(|c| !c.is_hidden()), "N knows its own hand");
            for (i, s) in seats.iter().enumerate().filter(|(i, _)| *i != 2) {
                let r = s.replica().expect("every seat is dealt together");
                let seen = r.hand(north);
                assert_eq!(seen.len(), truth.len(), "seat {i} sees N's hand size");
                let known: Cards = seen.iter().filter(|c| !c.is_hidden()).collect();
                assert!(
                    truth.contains_all(&known),
                    "seat {i} knows a card N does not hold"
                );
                assert!(
                    taken.contains_all(&known),
                    "seat {i} knows {known:?} of N's hand, but N only took {taken:?} in public"
                );
                max_known = max_known.max(known.len());
                checks += 1;
            }
        }
        let Some(i) = seats.iter().position(HandSession::my_turn) else {
            break;
        };
        let view = seats[i].view().unwrap();
        let mv = view.random_legal_move(&mut rng).unwrap();
        if i == 2 {
            match &mv {
                Move::Pickup { .. } => taken.add_all(&view.pile().iter().copied().collect()),
                Move::TakeTop { .. } => taken.add_all(&view.pile().last().into_iter().collect()),
                _ => {}
            }
        }
        seats[i].submit(mv).unwrap();
    }
    assert!(
        seats.iter().all(|s| s.stage() == Stage::Done),
        "the whole hand was played and audited"
    );
    assert!(checks > 100, "{checks} checks");
    // And nobody could have opened them: a seat never gives its share of a card dealt to it
    // (only a move that shows the card opens it), so the others hold three shares at most.
    let dealt = (Rules::preset(Preset::Samba).hand_size * 4) as u16;
    let mut shares_seen = 0;
    for signed in seats[0].transcript() {
        let v = signed.verify(&seats[0].hctx(), &keys()).unwrap();
        if let Ok(Body::Shares { items, .. }) = Body::decode(&v.envelope.body) {
            for item in items.iter().filter(|it| it.pos < dealt) {
                let owner = ((Seat::S.index() as u16 + 1 + item.pos) % 4) as u8;
                assert_ne!(
                    owner, v.envelope.sender,
                    "seat {owner} gave away its share of its own card at {}",
                    item.pos
                );
                shares_seen += 1;
            }
        }
    }
    assert!(shares_seen > 100, "{shares_seen} deal shares checked");
    max_known
}

fn keys() -> [fairdeal_crypto::PublicKey; 4] {
    [0u8, 1, 2, 3].map(|i| Identity::from_secret([i + 1; 32]).public())
}

/// What the other seats know of N's (seat 2's) hand, checked after every delivery of whole
/// hands: the hand's size, and as faces only cards that N took from the public pile (and still
/// holds). Right after the deal, and whenever N has taken nothing, every one of N's cards is
/// hidden to them. Hands are played until one in which N took the pile and others knew some
/// of its cards, so the known-card branch is exercised too.
///
/// Sabotage caught (checked): `share_positions_from` making each seat share its own deal
/// positions too, so that every seat could open every card (the replica would not show it:
/// the transcript check catches it).
#[test]
fn other_seats_never_see_a_hidden_card_before_the_audit() {
    let north = Seat::N;
    let exercised = (5..15u8).any(|salt| check_what_others_know_of_north(salt) > 0);
    assert!(
        exercised,
        "in some hand N took the pile and others knew those cards"
    );
    // Right after the deal of another hand, every card of N is hidden to the others.
    let mut seats = sessions(Preset::Samba, Seat::S, 6);
    while deliver(&mut seats) {}
    let n = seats[2].replica().unwrap().hand(north).len();
    assert_eq!(n, Rules::preset(Preset::Samba).hand_size);
    for (i, s) in seats.iter().enumerate().filter(|(i, _)| *i != 2) {
        let seen = s.replica().unwrap().hand(north);
        assert_eq!(seen.len(), n, "seat {i}");
        assert!(seen.iter().all(|c| c.is_hidden()), "seat {i}: {seen:?}");
    }
}
