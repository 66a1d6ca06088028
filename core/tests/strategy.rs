//! Computer players choose only legal moves, use only their seat's view, and are
//! deterministic for a seed.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers unwrap what the test set up"
)]

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::strategy::{NAMES, by_name};
use fairdeal_core::{Card, Position, Preset, Rules, Seat, SplitMix64};

/// Positions met in random play.
fn positions(preset: Preset, seed: u64, every: usize) -> Vec<Position> {
    let rules = Rules::preset(preset);
    let mut rng = SplitMix64::new(seed);
    let record = random_hand(&rules, Seat::N, [1600, -40], &mut rng);
    let mut pos = Position::deal(rules, Seat::N, [1600, -40], &record.deck).unwrap();
    let mut out = Vec::new();
    for (i, (seat, mv)) in record.moves.iter().enumerate() {
        if i % every == 0 {
            out.push(pos.clone());
        }
        pos.apply(*seat, mv).unwrap();
    }
    out
}

#[test]
fn strategies_choose_only_legal_moves() {
    for preset in Preset::ALL {
        for seed in 0..4 {
            for pos in positions(preset, seed, 3) {
                let seat = pos.actor();
                let view = pos.view(seat);
                for name in NAMES {
                    let mut s = by_name(name).unwrap();
                    let mv = s.choose(&view, &mut SplitMix64::new(seed)).unwrap();
                    assert!(pos.validate(seat, &mv).is_ok(), "{preset} {name}: {mv:?}");
                }
            }
        }
    }
}

/// The same position with the hidden part changed: the stock reversed and the other seats'
/// cards dealt around among them (sizes kept).
fn reshuffle_hidden(pos: &Position, viewer: Seat) -> Position {
    let mut desc = pos.to_desc();
    desc.stock.reverse();
    let others: Vec<Seat> = Seat::ALL.into_iter().filter(|s| *s != viewer).collect();
    let mut pool: Vec<Card> = others.iter().flat_map(|s| desc.hands[s].clone()).collect();
    pool.rotate_left(5);
    for s in &others {
        let n = desc.hands[s].len();
        desc.hands.insert(*s, pool.drain(..n).collect());
    }
    Position::from_desc(pos.rules().clone(), &desc).unwrap()
}

#[test]
fn strategies_never_use_hidden_information() {
    for preset in Preset::ALL {
        for pos in positions(preset, 9, 5) {
            let seat = pos.actor();
            let other = reshuffle_hidden(&pos, seat);
            assert_eq!(pos.view(seat), other.view(seat));
            for name in NAMES {
                let a = by_name(name)
                    .unwrap()
                    .choose(&pos.view(seat), &mut SplitMix64::new(1));
                let b = by_name(name)
                    .unwrap()
                    .choose(&other.view(seat), &mut SplitMix64::new(1));
                assert_eq!(a, b, "{preset} {name}");
            }
        }
    }
}

#[test]
fn strategies_are_deterministic_for_a_seed() {
    for name in NAMES {
        let play = || {
            let rules = Rules::preset(Preset::Samba);
            let mut rng = SplitMix64::new(77);
            let mut deck = fairdeal_core::canonical_deck(&rules);
            rng.shuffle(&mut deck);
            let mut pos = Position::deal(rules, Seat::S, [0, 0], &deck).unwrap();
            let mut s = by_name(name).unwrap();
            let mut moves = Vec::new();
            while !pos.is_over() && moves.len() < 3000 {
                let seat = pos.actor();
                let mv = s.choose(&pos.view(seat), &mut rng).unwrap();
                pos.apply(seat, &mv).unwrap();
                moves.push(mv);
            }
            moves
        };
        assert_eq!(play(), play(), "{name}");
    }
}
