//! The greedy player: meld the most cards, take any pile, discard the least useful card.

use super::Strategy;
use super::eval::usefulness;
use crate::moves::Move;
use crate::position::Phase;
use crate::rng::SplitMix64;
use crate::view::PlayerView;

/// Melds as much as possible; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

fn cards_melded(mv: &Move) -> usize {
    match mv {
        Move::Meld(p) => p.cards().count() + p.merge.len(),
        Move::Pickup { with, also, .. } => 1 + with.len() + also.cards().count(),
        Move::TakeTop { .. } => 1,
        _ => 0,
    }
}

impl Strategy for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, view: &PlayerView, _rng: &mut SplitMix64) -> Option<Move> {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return None;
        }
        match view.phase() {
            Phase::Answer => return Some(Move::Answer(true)),
            Phase::Draw => {
                let best = moves
                    .iter()
                    .filter(|m| matches!(m, Move::Pickup { .. } | Move::TakeTop { .. }))
                    .max_by_key(|m| cards_melded(m));
                return best.cloned().or(Some(Move::Draw {}));
            }
            _ => {}
        }
        if let Some(mv) = super::go_out_or_ask(view.rules(), &moves) {
            return Some(mv);
        }
        if let Some(best) = moves
            .iter()
            .filter(|m| matches!(m, Move::Meld(_)))
            .max_by_key(|m| cards_melded(m))
        {
            return Some(best.clone());
        }
        if let Some(lay) = moves.iter().find(|m| matches!(m, Move::LayRedThrees(_))) {
            return Some(lay.clone());
        }
        let discard =
            super::discards(&moves).min_by_key(|&c| usefulness(view.position(), view.seat(), c));
        discard
            .map(Move::Discard)
            .or_else(|| moves.into_iter().next())
    }
}
