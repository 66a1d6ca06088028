//! Fuzz-style properties: hostile text, files, positions and moves never panic, and a refused
//! move never changes anything.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers unwrap what the test set up"
)]

use fairdeal_core::scenario::Scenario;
use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{
    Add, Card, Move, Plan, Position, PositionDesc, Preset, Rules, Seat, SplitMix64,
};
use proptest::prelude::*;

fn card() -> impl Strategy<Value = Card> {
    (0usize..53).prop_map(|i| Card::from_index(i).unwrap())
}

fn cards(max: usize) -> impl Strategy<Value = Vec<Card>> {
    prop::collection::vec(card(), 0..max)
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        prop::collection::vec(cards(8), 0..3),
        prop::collection::vec(
            (0usize..6, cards(4)).prop_map(|(to, cards)| Add { to, cards }),
            0..3,
        ),
        prop::collection::vec((0usize..6, 0usize..6).prop_map(|(a, b)| [a, b]), 0..2),
    )
        .prop_map(|(new, add, merge)| Plan { new, add, merge })
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::Draw {}),
        (cards(4), prop::option::of(0usize..6), plan())
            .prop_map(|(with, onto, also)| Move::Pickup { with, onto, also }),
        (0usize..6).prop_map(|onto| Move::TakeTop { onto }),
        plan().prop_map(Move::Meld),
        (plan(), prop::option::of(card()))
            .prop_map(|(plan, discard)| Move::GoOut { plan, discard }),
        cards(3).prop_map(Move::LayRedThrees),
        card().prop_map(Move::Discard),
        Just(Move::Pass {}),
        Just(Move::AskPartner {}),
        any::<bool>().prop_map(Move::Answer),
    ]
}

/// A position reached by `steps` random legal moves from a shuffled deal.
fn played_position(preset: Preset, seed: u64, steps: usize) -> Position {
    let rules = Rules::preset(preset);
    let mut rng = SplitMix64::new(seed);
    let record = random_hand(&rules, Seat::S, [0, 0], &mut rng);
    let mut pos = Position::deal(rules, Seat::S, [0, 0], &record.deck).unwrap();
    for (seat, mv) in record.moves.iter().take(steps) {
        pos.apply(*seat, mv).unwrap();
    }
    pos
}

proptest! {
    #[test]
    fn card_text_never_panics(s in "\\PC{0,6}") {
        if let Ok(c) = s.parse::<Card>() {
            prop_assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
    }

    #[test]
    fn scenario_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(s) = serde_json::from_slice::<Scenario>(&bytes) {
            let _ = s.run();
        }
    }

    #[test]
    fn arbitrary_moves_on_played_positions(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        seed in 0u64..1000,
        steps in 0usize..200,
        seat in 0usize..4,
        mv in any_move(),
    ) {
        let pos = played_position(preset, seed, steps);
        let seat = Seat::from_index(seat);
        let mut after = pos.clone();
        let verdict = pos.validate(seat, &mv);
        let applied = after.apply(seat, &mv);
        prop_assert_eq!(verdict.is_ok(), applied.is_ok());
        if applied.is_err() {
            prop_assert_eq!(&after, &pos);
        } else {
            prop_assert_eq!(after.all_cards(), pos.all_cards());
        }
    }

    #[test]
    fn arbitrary_position_descriptions_never_panic(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        hands in prop::collection::vec(cards(6), 4),
        melds in prop::collection::vec(cards(5), 0..3),
        pile in cards(4),
        stock in cards(5),
        turn in 0usize..4,
        play in any::<bool>(),
        mv in any_move(),
    ) {
        let seats = ["S", "W", "N", "E"];
        let json = serde_json::json!({
            "dealer": "S",
            "scores": {"A": 0, "B": 0},
            "turn": seats[turn],
            "phase": if play { "play" } else { "draw" },
            "hands": {"S": hands[0], "W": hands[1], "N": hands[2], "E": hands[3]},
            "melds": {"A": melds, "B": []},
            "red_threes": {"A": 0, "B": 0},
            "pile": pile,
            "stock": stock,
        });
        let desc: PositionDesc = serde_json::from_value(json).unwrap();
        if let Ok(pos) = Position::from_desc(Rules::preset(preset), &desc) {
            let mut after = pos.clone();
            let seat = Seat::from_index(turn);
            if after.apply(seat, &mv).is_err() {
                prop_assert_eq!(&after, &pos);
            }
            let again = Position::from_desc(Rules::preset(preset), &pos.to_desc()).unwrap();
            prop_assert_eq!(again, pos);
        }
    }
}
