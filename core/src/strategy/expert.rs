//! The expert player: one move of look-ahead with [`super::eval::evaluate`].
//!
//! It reads a position only through its own seat's hand and the public table, so the search
//! ([`super::Master`]) can play it for every seat of a sampled position.

use super::Strategy;
use super::eval::{danger, evaluate, evaluate_parts, usefulness};
use crate::engine::Effect;
use crate::moves::Move;
use crate::position::{Phase, Position};
use crate::rng::SplitMix64;
use crate::seat::Seat;
use crate::view::PlayerView;

/// The heuristic player; `slip` is the chance of a random legal move instead (easier levels).
#[derive(Debug, Clone, Copy)]
pub struct Expert {
    slip: f64,
}

impl Expert {
    /// An expert that slips with probability `slip` (0 = full strength).
    pub fn new(slip: f64) -> Self {
        Self { slip }
    }

    /// The evaluation after `seat` plays `mv`, if it is legal (read from the move's effect,
    /// without playing it).
    pub(super) fn value_after(pos: &Position, seat: Seat, mv: &Move) -> Option<i32> {
        let team = seat.team();
        match pos.effect(seat, mv).ok()? {
            Effect::Meld { resolved, .. } => {
                Some(evaluate_parts(pos, &resolved.melds, &resolved.hand))
            }
            Effect::Pickup { hand, melds, .. } => Some(evaluate_parts(pos, &melds, &hand)),
            Effect::TakeTop { onto } => {
                let mut melds = pos.melds(team).to_vec();
                melds[onto].push(pos.pile_top()?);
                Some(evaluate_parts(pos, &melds, pos.hand(seat)))
            }
            _ => {
                let mut next = pos.clone();
                next.apply(seat, mv).ok()?;
                Some(evaluate(&next, seat))
            }
        }
    }

    /// The pickup (or top-card take) the expert would make, with its score over a stock draw.
    pub(super) fn best_pickup<'a>(
        pos: &Position,
        seat: Seat,
        moves: &'a [Move],
    ) -> Option<(i32, &'a Move)> {
        let now = evaluate(pos, seat);
        let pile = pos.pile().len() as i32;
        let mut best: Option<(i32, &Move)> = None;
        for mv in moves
            .iter()
            .filter(|m| matches!(m, Move::Pickup { .. } | Move::TakeTop { .. }))
        {
            let gain = match mv {
                Move::TakeTop { .. } => 20,
                _ => 18 * (pile - 1),
            };
            if let Some(v) = Self::value_after(pos, seat, mv) {
                let score = v - now + gain;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, mv));
                }
            }
        }
        best
    }

    fn draw_phase(pos: &Position, seat: Seat, moves: &[Move]) -> Move {
        match Self::best_pickup(pos, seat, moves) {
            // A stock draw brings two (or one) unknown cards: worth about 30.
            Some((score, mv)) if score > pickup_threshold(pos) => mv.clone(),
            _ => Move::Draw {},
        }
    }

    /// The meld that most improves the evaluation, with its gain (positive only).
    pub(super) fn best_meld<'a>(
        pos: &Position,
        seat: Seat,
        moves: &'a [Move],
    ) -> Option<(i32, &'a Move)> {
        let now = evaluate(pos, seat);
        let mut best: Option<(i32, &Move)> = None;
        for mv in moves.iter().filter(|m| matches!(m, Move::Meld(_))) {
            if let Some(v) = Self::value_after(pos, seat, mv) {
                let gain = v - now;
                if gain > 0 && best.is_none_or(|(b, _)| gain > b) {
                    best = Some((gain, mv));
                }
            }
        }
        best
    }

    /// The discard key: lower is a better card to let go.
    pub(super) fn discard_key(pos: &Position, seat: Seat, card: crate::card::Card) -> i32 {
        usefulness(pos, seat, card) + danger(pos, seat, card)
    }

    fn play_phase(pos: &Position, seat: Seat, moves: &[Move]) -> Option<Move> {
        if let Some(mv) = super::go_out_or_ask(pos.rules(), moves) {
            return Some(mv);
        }
        if let Some(lay) = moves.iter().find(|m| matches!(m, Move::LayRedThrees(_))) {
            return Some(lay.clone());
        }
        if let Some((_, mv)) = Self::best_meld(pos, seat, moves) {
            return Some(mv.clone());
        }
        let discard = super::discards(moves).min_by_key(|&c| Self::discard_key(pos, seat, c));
        discard
            .map(Move::Discard)
            .or_else(|| moves.iter().find(|m| matches!(m, Move::Pass {})).cloned())
            .or_else(|| moves.first().cloned())
    }

    /// The expert's answer to "May I go out?": yes, unless this hand would cost a lot.
    pub(super) fn answer(pos: &Position, seat: Seat) -> Move {
        Move::Answer(pos.hand(seat).points() <= 150)
    }

    /// The expert's move for `seat` (the seat that may act) in `pos`, which may be the seat's
    /// masked view or a full position: only the seat's hand and the public table are read.
    ///
    /// At full strength it validates only the candidates it needs, in the order it prefers
    /// them (the search plays this in every seat ahead): the same move as judging every legal
    /// move ([`Expert::decide_from_legal_moves`], which a test compares).
    pub(super) fn decide(&self, pos: &Position, seat: Seat, rng: &mut SplitMix64) -> Option<Move> {
        if pos.actor() != seat {
            return None;
        }
        if self.slip > 0.0 {
            return self.decide_from_legal_moves(pos, seat, rng);
        }
        match pos.phase() {
            Phase::Over => None,
            Phase::Answer => Some(Self::answer(pos, seat)),
            Phase::Draw => {
                let cands = pos.cheap_candidates();
                let best = Self::best_pickup(pos, seat, &cands);
                if best.is_none() && pos.validate(seat, &Move::Draw {}).is_err() {
                    return None;
                }
                Some(match best {
                    Some((score, mv)) if score > pickup_threshold(pos) => mv.clone(),
                    _ => Move::Draw {},
                })
            }
            Phase::Play => Self::play_phase_lazily(pos, seat),
        }
    }

    /// [`Expert::play_phase`] validating candidates only as it needs them.
    fn play_phase_lazily(pos: &Position, seat: Seat) -> Option<Move> {
        let legal = |mv: &Move| pos.validate(seat, mv).is_ok();
        let finish = pos.find_finish(seat).filter(legal);
        if finish.is_some() {
            return finish;
        }
        let cands = pos.cheap_candidates();
        if pos.rules().must_ask
            && let Some(ask) = cands
                .iter()
                .find(|m| matches!(m, Move::AskPartner {}))
                .filter(|m| legal(m))
        {
            return Some(ask.clone());
        }
        if let Some(lay) = cands
            .iter()
            .filter(|m| matches!(m, Move::LayRedThrees(_)))
            .find(|m| legal(m))
        {
            return Some(lay.clone());
        }
        if let Some((_, mv)) = Self::best_meld(pos, seat, &cands) {
            return Some(mv.clone());
        }
        let mut discards: Vec<(i32, usize, crate::card::Card)> = super::discards(&cands)
            .enumerate()
            .map(|(i, c)| (Self::discard_key(pos, seat, c), i, c))
            .collect();
        discards.sort_unstable();
        if let Some(&(_, _, c)) = discards.iter().find(|(_, _, c)| legal(&Move::Discard(*c))) {
            return Some(Move::Discard(c));
        }
        if let Some(pass) = cands
            .iter()
            .filter(|m| matches!(m, Move::Pass {}))
            .find(|m| legal(m))
        {
            return Some(pass.clone());
        }
        cands.into_iter().find(|m| legal(m))
    }

    /// The expert's move judged from the full list of legal moves (the slipping levels, and
    /// the reference [`Expert::decide`] is tested against).
    pub(super) fn decide_from_legal_moves(
        &self,
        pos: &Position,
        seat: Seat,
        rng: &mut SplitMix64,
    ) -> Option<Move> {
        if pos.actor() != seat {
            return None;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if pos.phase() == Phase::Answer {
            return Some(Self::answer(pos, seat));
        }
        if self.slip > 0.0 && rng.unit() < self.slip {
            return Some(moves[rng.below(moves.len())].clone());
        }
        if pos.phase() == Phase::Draw {
            return Some(Self::draw_phase(pos, seat, &moves));
        }
        Self::play_phase(pos, seat, &moves)
    }
}

/// How much better than a stock draw a pickup must look before the expert takes the pile
/// (tuned with `fairdeal arena` against the greedy player; the knob is preset-specific because
/// the pile's worth differs: Samba piles are large and sambas need stock cards).
fn pickup_threshold(pos: &Position) -> i32 {
    match pos.rules().preset {
        crate::rules::Preset::Samba => 150,
        crate::rules::Preset::DutchSamba => 100,
        crate::rules::Preset::Canasta => CANASTA_THRESHOLD,
    }
}

const CANASTA_THRESHOLD: i32 = 60;

impl Strategy for Expert {
    fn name(&self) -> &str {
        if self.slip > 0.0 {
            "expert (slips)"
        } else {
            "expert"
        }
    }

    fn choose(&mut self, view: &PlayerView, rng: &mut SplitMix64) -> Option<Move> {
        self.decide(view.position(), view.seat(), rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{HouseRules, Preset, Rules};

    #[test]
    fn lazy_validation_makes_the_same_choices() {
        let expert = Expert::new(0.0);
        let mut rng = SplitMix64::new(3);
        let mut compared = 0;
        for preset in Preset::ALL {
            for must_ask in [false, true] {
                let house = HouseRules {
                    must_ask: Some(must_ask),
                    ..HouseRules::default()
                };
                let rules = Rules::new(preset, house);
                for _ in 0..8 {
                    let mut deck = crate::deal::canonical_deck(&rules);
                    rng.shuffle(&mut deck);
                    let mut pos = Position::deal(rules.clone(), Seat::S, [0, 0], &deck).unwrap();
                    while !pos.is_over() && compared < 6_000 {
                        let seat = pos.actor();
                        let fast = expert.decide(&pos, seat, &mut rng);
                        let full = expert.decide_from_legal_moves(&pos, seat, &mut rng);
                        assert_eq!(fast, full, "{preset} {:?}", pos.to_desc());
                        compared += 1;
                        let Some(mv) = fast else { break };
                        pos.apply(seat, &mv).unwrap();
                    }
                }
            }
        }
        assert!(compared > 1000);
    }
}
