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

/// Traces replay as passing scenarios, and the runner really checks them: the same trace with
/// its last move replaced (by a refused move, or by another legal move that ends elsewhere) or
/// with its final state check altered fails, at that last step.
///
/// Sabotage caught (checked): `Scenario::run` treating a refused move as `ok`; `Scenario::run`
/// skipping the state checks after a step.
#[test]
fn traces_replay_as_scenarios() {
    use fairdeal_core::scenario::Verdict;
    use fairdeal_core::{Card, Move, Position};
    let mut other_legal_tried = 0;
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(3);
        for i in 0..3 {
            let dealer = Seat::from_index(i);
            let scores = [1500 * i as i32, -20];
            let record = random_hand(&rules, dealer, scores, &mut rng);
            let json = serde_json::to_string(&record.to_scenario("trace")).unwrap();
            let scenario: fairdeal_core::scenario::Scenario = serde_json::from_str(&json).unwrap();
            assert_eq!(scenario.run(), Verdict::Pass, "{preset} hand {i}");
            let n = scenario.steps.len();
            // Fails at the last step, for the reason named by `needle`.
            let fails_last = |s: &fairdeal_core::scenario::Scenario, needle: &str| {
                let v = s.run();
                assert!(
                    matches!(&v, Verdict::Fail { step, why } if *step == n && why.contains(needle)),
                    "{preset} hand {i}, expected a failure at step {n} for {needle:?}: {v:?}"
                );
            };
            // The position before the last move.
            let mut before = Position::deal(rules.clone(), dealer, scores, &record.deck).unwrap();
            for (seat, mv) in &record.moves[..n - 1] {
                before.apply(*seat, mv).unwrap();
            }
            let (seat, last) = record.moves[n - 1].clone();
            // 1. A refused move in its place.
            let refused = [
                Move::Draw {},
                Move::Pass {},
                Move::Answer(true),
                Move::Discard(Card::JOKER),
            ]
            .into_iter()
            .find(|m| before.validate(seat, m).is_err())
            .unwrap();
            let mut bad = scenario.clone();
            bad.steps[n - 1].mv = refused;
            fails_last(&bad, "expected ok, got");
            // 2. Another legal move whose end differs from the recorded one.
            let other = before.legal_moves().into_iter().find(|m| {
                let mut p = before.clone();
                *m != last && p.apply(seat, m).is_ok() && p != record.end
            });
            if let Some(m) = other {
                other_legal_tried += 1;
                let mut bad = scenario.clone();
                bad.steps[n - 1].mv = m;
                fails_last(&bad, "expected");
            }
            // 3. The final check altered.
            let mut bad = scenario.clone();
            let state = bad.steps[n - 1].state.as_mut().unwrap();
            state.stock_size = Some(state.stock_size.unwrap() + 1);
            fails_last(&bad, "stock_size");
            let mut bad = scenario.clone();
            let state = bad.steps[n - 1].state.as_mut().unwrap();
            state.hand_over = state.hand_over.map(|o| !o);
            fails_last(&bad, "hand_over");
        }
    }
    assert!(
        other_legal_tried >= 3,
        "{other_legal_tried} traces had another legal last move"
    );
}

/// A whole game of random hands: every hand starts from the running totals, no hand before the
/// last ends the game, and the last one does (the game must finish well before the cap, so the
/// end-of-game checks always run).
///
/// Sabotage caught (checked): `random_game` not stopping at the end of the game (it then plays
/// on to the cap), and not adding the hand's scores to the totals.
#[test]
fn game_totals_are_the_sum_of_hand_scores() {
    use fairdeal_core::{GameResult, HouseRules};
    let cap = 200;
    for (preset, seed) in [
        (Preset::Canasta, 8u64),
        (Preset::Samba, 9),
        (Preset::DutchSamba, 10),
    ] {
        // Twice the usual target, so that a game runs over several hands.
        let target = 2 * Rules::preset(preset).target;
        let rules = Rules::new(
            preset,
            HouseRules {
                target: Some(target),
                ..HouseRules::default()
            },
        );
        let game =
            fairdeal_core::selfplay::random_game(&rules, Seat::S, &mut SplitMix64::new(seed), cap);
        assert!(
            game.len() < cap,
            "{preset}: the game ended before {cap} hands"
        );
        let mut totals = [0, 0];
        for (k, h) in game.iter().enumerate() {
            assert_eq!(
                h.scores, totals,
                "{preset}: hand {k} starts from the running totals"
            );
            let s = h.end.hand_scores();
            totals = [totals[0] + s[0], totals[1] + s[1]];
            if k + 1 < game.len() {
                assert_eq!(
                    h.end.game_result(),
                    GameResult::Continue,
                    "{preset} hand {k}"
                );
                assert!(
                    totals[0] < target && totals[1] < target,
                    "{preset} hand {k}"
                );
            }
        }
        let last = game.last().unwrap();
        assert!(
            totals[0] >= target || totals[1] >= target,
            "{preset}: {totals:?}"
        );
        let want = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => GameResult::Won(fairdeal_core::Team::A),
            std::cmp::Ordering::Less => GameResult::Won(fairdeal_core::Team::B),
            std::cmp::Ordering::Equal => GameResult::Drawn,
        };
        assert_eq!(last.end.game_result(), want, "{preset}: {totals:?}");
        eprintln!(
            "{preset}: {} hands to {target}, totals {totals:?}",
            game.len()
        );
    }
}
