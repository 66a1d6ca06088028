//! A seat's view validates and generates its moves exactly as the full position does, and
//! reveals no hidden card.

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{Position, Preset, Rules, Seat, SplitMix64};

#[test]
fn view_gives_the_same_moves_and_verdicts_as_the_full_position() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(5);
        for _ in 0..4 {
            let record = random_hand(&rules, Seat::E, [0, 0], &mut rng);
            let mut pos = Position::deal(rules.clone(), Seat::E, [0, 0], &record.deck).unwrap();
            for (seat, mv) in &record.moves {
                let view = pos.view(*seat);
                assert_eq!(view.legal_moves(), pos.legal_moves(), "{preset}");
                for cand in pos.candidate_moves() {
                    assert_eq!(
                        view.validate(&cand),
                        pos.validate(*seat, &cand),
                        "{preset} {cand:?}"
                    );
                }
                pos.apply(*seat, mv).unwrap();
            }
        }
    }
}

#[test]
fn view_hides_other_hands_and_the_stock() {
    let rules = Rules::preset(Preset::Samba);
    let mut rng = SplitMix64::new(9);
    let record = random_hand(&rules, Seat::S, [0, 0], &mut rng);
    let pos = Position::deal(rules, Seat::S, [0, 0], &record.deck).unwrap();
    let view = pos.view(Seat::W);
    assert_eq!(view.hand(), pos.hand(Seat::W));
    assert_eq!(view.hand_size(Seat::N), pos.hand(Seat::N).len());
    assert_eq!(view.stock_len(), pos.stock_len());
    let text = format!("{view:?}");
    // The Debug form shows the masked position: another seat's cards appear nowhere in it
    // unless the viewer holds the same face or it is public.
    let public: fairdeal_core::Cards = view
        .hand()
        .iter()
        .chain(view.pile().iter().copied())
        .chain(
            fairdeal_core::Team::ALL
                .iter()
                .flat_map(|t| view.red_threes(*t).iter().copied()),
        )
        .collect();
    for c in pos.hand(Seat::N).distinct() {
        if !public.contains(c) {
            assert!(
                !text.contains(&format!("{c:?},")) && !text.contains(&format!("{c:?}]")),
                "{c} leaked"
            );
        }
    }
}
