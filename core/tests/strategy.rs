//! Computer players choose only legal moves, use only their seat's view, and are
//! deterministic for a seed.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers unwrap what the test set up"
)]

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::strategy::{Master, NAMES, Strategy, by_name};
use fairdeal_core::{Card, HouseRules, Move, Position, Preset, Rules, Seat, SplitMix64};

/// The strategy of `name`; the master with a small budget (these tests run unoptimised).
fn strategy(name: &str) -> Box<dyn Strategy + Send> {
    if name == "master" {
        return Box::new(Master::new(4, 2));
    }
    by_name(name).unwrap()
}

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
                    let mut s = strategy(name);
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
                let a = strategy(name).choose(&pos.view(seat), &mut SplitMix64::new(1));
                let b = strategy(name).choose(&other.view(seat), &mut SplitMix64::new(1));
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
            let mut s = strategy(name);
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

#[test]
fn master_asks_and_answers_its_partner() {
    // Under "must ask", going out needs a question and a yes: a master pair that never asked
    // or never said yes could not go out at all.
    let house = HouseRules {
        must_ask: Some(true),
        ..HouseRules::default()
    };
    let (mut asked, mut answered, mut out) = (0, 0, 0);
    for preset in [Preset::Canasta, Preset::DutchSamba] {
        let rules = Rules::new(preset, house.clone());
        for seed in 0..3 {
            let mut rng = SplitMix64::new(seed);
            let mut deck = fairdeal_core::canonical_deck(&rules);
            rng.shuffle(&mut deck);
            let mut pos = Position::deal(rules.clone(), Seat::S, [0, 0], &deck).unwrap();
            let mut players: Vec<Box<dyn Strategy + Send>> = (0..4)
                .map(|i| {
                    if i % 2 == 0 {
                        Box::new(Master::new(2, 1)) as Box<dyn Strategy + Send>
                    } else {
                        by_name("expert").unwrap()
                    }
                })
                .collect();
            let mut n = 0;
            while !pos.is_over() && n < 2000 {
                n += 1;
                let seat = pos.actor();
                let mv = players[seat.index()]
                    .choose(&pos.view(seat), &mut rng)
                    .unwrap();
                if seat.team() == fairdeal_core::Team::A {
                    asked += usize::from(mv == Move::AskPartner {});
                    answered += usize::from(matches!(mv, Move::Answer(_)));
                    out += usize::from(matches!(mv, Move::GoOut { .. }));
                }
                pos.apply(seat, &mv).unwrap();
            }
        }
    }
    assert!(
        asked > 0 && answered > 0 && out > 0,
        "asked {asked}, answered {answered}, out {out}"
    );
}
