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
