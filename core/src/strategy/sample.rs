//! Determinisation: a full [`Position`] drawn from what one seat's [`PlayerView`] allows.
//!
//! The cards the seat has not seen (the pack less its own hand, both teams' melds and red
//! threes, and the pile) are dealt at random into the other hands (their sizes are public) and
//! the stock. Where red threes are laid out at once they can only be in the stock. Nothing but
//! the view is read, so two positions with one view give the same samples for one seed.

use crate::card::Card;
use crate::cards::Cards;
use crate::deal::canonical_deck;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::seat::Seat;
use crate::view::PlayerView;

/// The cards `view`'s seat has not seen, in face order.
pub(crate) fn unseen_pool(view: &PlayerView) -> Vec<Card> {
    let mut pool: Cards = canonical_deck(view.rules()).iter().collect();
    let pos = view.position();
    pool.remove_all(view.hand());
    for team in crate::seat::Team::ALL {
        for m in pos.melds(team) {
            for &c in m.cards() {
                pool.remove(c);
            }
        }
        for &c in pos.red_threes(team) {
            pool.remove(c);
        }
    }
    for &c in pos.pile() {
        pool.remove(c);
    }
    pool.to_vec()
}

/// Draws one full position consistent with `view` (the hidden hands and the stock order).
///
/// `pool` is [`unseen_pool`] of the view (computed once per decision).
pub(crate) fn determinise(view: &PlayerView, pool: &[Card], rng: &mut SplitMix64) -> Position {
    let mut pos = view.position().clone();
    let auto_reds = !view.rules().red_threes_in_hand();
    let (mut reds, mut others): (Vec<Card>, Vec<Card>) =
        pool.iter().partition(|c| auto_reds && c.is_red_three());
    rng.shuffle(&mut others);
    let mut next = others.into_iter();
    for seat in Seat::ALL {
        if seat == view.seat() {
            continue;
        }
        let n = view.hand_size(seat);
        pos.hands[seat.index()] = next.by_ref().take(n).collect();
    }
    let mut stock: Vec<Card> = next.collect();
    stock.append(&mut reds);
    rng.shuffle(&mut stock);
    // A view always accounts for every card; should it not, the stock keeps its length.
    stock.resize(pos.stock.len(), Card::HIDDEN);
    pos.stock = stock;
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, Rules};

    #[test]
    fn samples_keep_the_view_and_the_pack() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let mut rng = SplitMix64::new(5);
            let mut deck = canonical_deck(&rules);
            rng.shuffle(&mut deck);
            let mut pos = Position::deal(rules.clone(), Seat::S, [0, 0], &deck).unwrap();
            pos.play_out_randomly(&mut rng, 40);
            let seat = pos.actor();
            let view = pos.view(seat);
            let pool = unseen_pool(&view);
            let pack: Cards = deck.iter().collect();
            for _ in 0..20 {
                let sample = determinise(&view, &pool, &mut rng);
                assert_eq!(sample.view(seat), view, "{preset}");
                assert_eq!(sample.all_cards(), pack, "{preset}");
                if !rules.red_threes_in_hand() {
                    assert!(
                        Seat::ALL
                            .iter()
                            .all(|s| sample.hand(*s).iter().all(|c| !c.is_red_three()))
                    );
                }
            }
        }
    }
}
