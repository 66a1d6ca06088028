//! Computer players. A [`Strategy`] sees only a [`PlayerView`] (its own seat's knowledge) and
//! chooses one legal move; it never reads hidden state.
//!
//! - [`Random`]: uniform over the legal moves (the baseline).
//! - [`Greedy`]: melds as much as it can, takes the pile whenever it may, discards the least
//!   useful card.
//! - [`Expert`]: looks one move ahead with an evaluation of the team's table and hand, builds
//!   toward canastas and sambas, keeps wilds for them, takes the pile when it pays, discards
//!   what the next players can least use, and answers "May I go out?" by its own hand's risk.
//!   With `slip > 0` it plays a random legal move that often (the easier levels).
//! - [`Master`]: searches a few candidate moves over positions sampled from its view (the
//!   hidden hands and stock drawn from the cards it has not seen), with experts playing every
//!   seat ahead.

mod eval;
mod expert;
mod greedy;
mod master;
mod sample;

pub use expert::Expert;
pub use greedy::Greedy;
pub use master::Master;

use crate::moves::Move;
use crate::rng::SplitMix64;
use crate::view::PlayerView;

/// A computer player.
pub trait Strategy {
    /// The strategy's name.
    fn name(&self) -> &str;

    /// A legal move for the view's seat, or `None` if it may not act.
    fn choose(&mut self, view: &PlayerView, rng: &mut SplitMix64) -> Option<Move>;
}

/// Uniformly random legal moves.
#[derive(Debug, Clone, Copy, Default)]
pub struct Random;

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, view: &PlayerView, rng: &mut SplitMix64) -> Option<Move> {
        view.random_legal_move(rng)
    }
}

/// Going out when a legal finish is among `moves`; under the `must_ask` house rule, asking
/// first. Both players do this before anything else in their play phase.
pub(crate) fn go_out_or_ask(rules: &crate::rules::Rules, moves: &[Move]) -> Option<Move> {
    if let Some(out) = moves.iter().find(|m| matches!(m, Move::GoOut { .. })) {
        return Some(out.clone());
    }
    if rules.must_ask {
        return moves
            .iter()
            .find(|m| matches!(m, Move::AskPartner {}))
            .cloned();
    }
    None
}

/// The cards `moves` may discard.
pub(crate) fn discards(moves: &[Move]) -> impl Iterator<Item = crate::card::Card> + '_ {
    moves.iter().filter_map(|m| match m {
        Move::Discard(c) => Some(*c),
        _ => None,
    })
}

/// The strategies by name, for the command line and the client: `random`, `greedy`, `expert`,
/// and the difficulty levels `easy` (greedy), `medium` (expert with 15 % slips), `hard`
/// (expert) and `master` (the search).
pub fn by_name(name: &str) -> Option<Box<dyn Strategy + Send>> {
    Some(match name {
        "master" => Box::new(Master::default()),
        "random" => Box::new(Random),
        "greedy" | "easy" => Box::new(Greedy),
        "expert" | "hard" => Box::new(Expert::new(0.0)),
        "medium" => Box::new(Expert::new(0.15)),
        _ => return None,
    })
}

/// The names [`by_name`] knows.
pub const NAMES: [&str; 7] = [
    "random", "greedy", "expert", "easy", "medium", "hard", "master",
];
