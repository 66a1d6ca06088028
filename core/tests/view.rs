//! A seat's view validates and generates its moves exactly as the full position does, and
//! reveals no hidden card.

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{Card, Cards, Position, Preset, Rules, Seat, SplitMix64, Team};

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

/// Checks one position: every seat's view holds exactly what that seat may know.
fn assert_masked(pos: &Position, context: &str) {
    for seat in Seat::ALL {
        let view = pos.view(seat);
        let masked = view.position();
        assert_eq!(
            masked.hand(seat),
            pos.hand(seat),
            "{context}: {seat} own hand"
        );
        for other in Seat::ALL.into_iter().filter(|&s| s != seat) {
            let n = pos.hand(other).len();
            assert_eq!(
                masked.hand(other).len(),
                n,
                "{context}: {seat} sees {other}'s size"
            );
            assert_eq!(view.hand_size(other), n, "{context}");
            assert!(
                masked.hand(other).iter().all(Card::is_hidden),
                "{context}: {seat} sees a card of {other}: {:?}",
                masked.hand(other)
            );
        }
        assert_eq!(masked.stock_len(), pos.stock_len(), "{context}");
        assert!(
            masked.stock_top_first().all(Card::is_hidden),
            "{context}: {seat} sees the stock"
        );
        for team in Team::ALL {
            assert_eq!(masked.melds(team), pos.melds(team), "{context}");
            assert_eq!(masked.red_threes(team), pos.red_threes(team), "{context}");
        }
        assert_eq!(masked.pile(), pos.pile(), "{context}");
        // No face anywhere else: the faces of the masked position are exactly the seat's own
        // hand and the public cards (as a multiset, so one leaked copy of a held face shows).
        let faces: Cards = masked
            .all_cards()
            .iter()
            .filter(|c| !c.is_hidden())
            .collect();
        let mut public = pos.hand(seat).clone();
        public.add_all(&pos.pile().iter().copied().collect());
        for team in Team::ALL {
            public.add_all(&pos.red_threes(team).iter().copied().collect());
            for m in pos.melds(team) {
                public.add_all(&m.cards().iter().copied().collect());
            }
        }
        assert_eq!(
            faces, public,
            "{context}: {seat}'s view shows a card it may not know"
        );
    }
}

/// At every step of random hands of every preset, each seat's view shows its own hand, the
/// pile, the melds and the red threes as they are, every other hand as hidden cards of the
/// right number, the stock as hidden cards of the right length, and no other face.
///
/// Sabotage caught (each made in `PlayerView::new`, seen to fail, undone): the partner's hand
/// left unmasked (`s != seat && s != seat.partner()`); the stock left unmasked; another hand
/// masked with one card too few.
#[test]
fn view_hides_other_hands_and_the_stock() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(9);
        for h in 0..3 {
            let record = random_hand(&rules, Seat::S, [0, 0], &mut rng);
            let mut pos = Position::deal(rules.clone(), Seat::S, [0, 0], &record.deck).unwrap();
            assert_masked(&pos, &format!("{preset} hand {h} deal"));
            for (i, (seat, mv)) in record.moves.iter().enumerate() {
                pos.apply(*seat, mv).unwrap();
                assert_masked(&pos, &format!("{preset} hand {h} move {i}"));
            }
        }
    }
}

/// At every step of random hands of every preset, the public view (a transcript's replay, a
/// spectator) shows the pile, the melds and the red threes as they are, every hand (the
/// chair's own too) and the stock as hidden cards of the right number, and the same public
/// state as every seat's own view.
///
/// Sabotage caught (checked): `PlayerView::public` leaving the chair's own hand unmasked.
#[test]
fn the_public_view_hides_every_hand_and_the_stock() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rng = SplitMix64::new(31);
        let record = random_hand(&rules, Seat::W, [0, 0], &mut rng);
        let mut pos = Position::deal(rules.clone(), Seat::W, [0, 0], &record.deck).unwrap();
        for (i, (seat, mv)) in record.moves.iter().enumerate() {
            for chair in Seat::ALL {
                let view = fairdeal_core::PlayerView::public(&pos, chair);
                let masked = view.position();
                assert!(
                    masked.all_cards().iter().filter(|c| !c.is_hidden()).count()
                        == masked.pile().len()
                            + Team::ALL
                                .iter()
                                .map(|&t| {
                                    masked.red_threes(t).len()
                                        + masked
                                            .melds(t)
                                            .iter()
                                            .map(|m| m.cards().len())
                                            .sum::<usize>()
                                })
                                .sum::<usize>(),
                    "{preset} move {i}: the public view shows a hidden card"
                );
                for s in Seat::ALL {
                    assert_eq!(view.hand_size(s), pos.hand(s).len(), "{preset} move {i}");
                    assert!(masked.hand(s).iter().all(Card::is_hidden), "{preset} {s}");
                }
                assert_eq!(
                    masked.public_state(),
                    pos.view(chair).position().public_state(),
                    "{preset} move {i}"
                );
            }
            pos.apply(*seat, mv).unwrap();
        }
    }
}
