//! Random self-play: invariants after every move.

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{Preset, Rules, Seat, SplitMix64};

#[test]
fn quick_selfplay_smoke() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(1);
        for _ in 0..20 {
            let r = random_hand(&rules, Seat::S, [0, 0], &mut rng);
            assert!(
                r.end.is_over(),
                "{preset}: hand did not end after {} moves",
                r.moves.len()
            );
        }
    }
}

#[test]
fn random_hands_keep_every_invariant() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(42);
        for i in 0..8 {
            let dealer = Seat::from_index(i);
            if let Err(e) =
                fairdeal_core::selfplay::random_hand_checked(&rules, dealer, [0, 0], &mut rng)
            {
                panic!("{preset} hand {i}: {e}");
            }
        }
    }
}

#[test]
fn same_seed_same_game() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let a = fairdeal_core::selfplay::random_game(&rules, Seat::N, &mut SplitMix64::new(11), 3);
        let b = fairdeal_core::selfplay::random_game(&rules, Seat::N, &mut SplitMix64::new(11), 3);
        let c = fairdeal_core::selfplay::random_game(&rules, Seat::N, &mut SplitMix64::new(12), 3);
        let moves = |g: &[fairdeal_core::selfplay::HandRecord]| {
            g.iter().map(|h| h.moves.clone()).collect::<Vec<_>>()
        };
        assert_eq!(moves(&a), moves(&b));
        assert_eq!(
            a.last().map(|h| h.end.clone()),
            b.last().map(|h| h.end.clone())
        );
        assert_ne!(moves(&a), moves(&c));
    }
}

#[test]
fn traces_replay_as_scenarios() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(3);
        for i in 0..3 {
            let record = random_hand(
                &rules,
                Seat::from_index(i),
                [1500 * i as i32, -20],
                &mut rng,
            );
            let json = serde_json::to_string(&record.to_scenario("trace")).unwrap();
            let scenario: fairdeal_core::scenario::Scenario = serde_json::from_str(&json).unwrap();
            assert_eq!(
                scenario.run(),
                fairdeal_core::scenario::Verdict::Pass,
                "{preset} hand {i}"
            );
            // A trace with its last move altered must fail.
            let mut bad = scenario.clone();
            bad.steps
                .last_mut()
                .unwrap()
                .state
                .as_mut()
                .unwrap()
                .stock_size = Some(9999);
            assert_ne!(bad.run(), fairdeal_core::scenario::Verdict::Pass);
        }
    }
}

#[test]
fn game_totals_are_the_sum_of_hand_scores() {
    let rules = Rules::preset(Preset::Canasta);
    let game = fairdeal_core::selfplay::random_game(&rules, Seat::S, &mut SplitMix64::new(8), 40);
    let mut totals = [0, 0];
    for h in &game {
        assert_eq!(h.scores, totals, "each hand starts from the running totals");
        let s = h.end.hand_scores();
        totals = [totals[0] + s[0], totals[1] + s[1]];
    }
    let last = game.last().unwrap();
    if game.len() < 40 {
        assert!(totals[0] >= rules.target || totals[1] >= rules.target);
        assert_ne!(last.end.game_result(), fairdeal_core::GameResult::Continue);
    }
}
