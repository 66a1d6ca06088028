//! The master player: determinised search with the expert as its model of every seat.
//!
//! For each decision it lists a few candidate moves (the expert's choice first, then the other
//! pickups, melds and discards the expert rates highest), draws full positions consistent with
//! its own [`PlayerView`] ([`super::sample`]), plays each candidate in each sampled position and
//! lets four experts play on for a few turns (or to the end of the hand), then judges the
//! result by the hand score as it stands plus credit for melds on the way to canastas and
//! sambas. The budget is a number of rollouts per decision (sequential halving spends it on
//! the candidates still in the running, the same positions for each), so a seed always gives
//! the same move and the time a decision takes hardly depends on how many candidates it has.

use super::Strategy;
use super::expert::Expert;
use super::sample::{determinise, unseen_pool};
use crate::moves::Move;
use crate::position::{Phase, Position};
use crate::rng::SplitMix64;
use crate::seat::{Seat, Team};
use crate::view::PlayerView;

/// The search player; see the module docs.
#[derive(Debug, Clone, Copy)]
pub struct Master {
    /// Rollouts per decision (an equal share for each halving round).
    rollouts: usize,
    /// Turns each rollout plays before the position is judged.
    horizon: usize,
    /// How many points better than the expert's choice an alternative must look.
    margin: i32,
}

impl Default for Master {
    fn default() -> Self {
        Self::new(160, 8)
    }
}

/// The most candidates searched per decision.
const MAX_CANDIDATES: usize = 8;

impl Master {
    /// A master that plays `rollouts` rollouts per decision, each `horizon` turns ahead.
    pub fn new(rollouts: usize, horizon: usize) -> Self {
        Self {
            rollouts: rollouts.max(1),
            horizon,
            margin: 20,
        }
    }

    /// The same master, preferring the expert's choice unless another candidate looks at least
    /// `margin` points better.
    pub fn with_margin(self, margin: i32) -> Self {
        Self { margin, ..self }
    }

    /// The candidates for `seat` in `pos` (its masked view), the expert's choice first.
    fn candidates(pos: &Position, seat: Seat, rng: &mut SplitMix64) -> Vec<Move> {
        let moves = pos.legal_moves();
        let mut out: Vec<Move> = Vec::new();
        let Some(first) = Expert::new(0.0).decide(pos, seat, rng) else {
            return out;
        };
        let push = |out: &mut Vec<Move>, mv: &Move| {
            if out.len() < MAX_CANDIDATES && !out.contains(mv) {
                out.push(mv.clone());
            }
        };
        push(&mut out, &first);
        match pos.phase() {
            Phase::Answer => {
                push(&mut out, &Move::Answer(true));
                push(&mut out, &Move::Answer(false));
            }
            Phase::Draw => {
                push(&mut out, &Move::Draw {});
                let mut pickups: Vec<(i32, &Move)> = moves
                    .iter()
                    .filter(|m| matches!(m, Move::Pickup { .. } | Move::TakeTop { .. }))
                    .filter_map(|m| Some((Expert::value_after(pos, seat, m)?, m)))
                    .collect();
                pickups.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
                for (_, m) in pickups.into_iter().take(3) {
                    push(&mut out, m);
                }
            }
            Phase::Play => {
                if matches!(first, Move::LayRedThrees(_)) {
                    return out;
                }
                for m in &moves {
                    let ask = matches!(m, Move::AskPartner {}) && pos.rules().must_ask;
                    if matches!(m, Move::GoOut { .. }) || ask {
                        push(&mut out, m);
                    }
                }
                let mut melds: Vec<(i32, &Move)> = moves
                    .iter()
                    .filter(|m| matches!(m, Move::Meld(_)))
                    .filter_map(|m| Some((Expert::value_after(pos, seat, m)?, m)))
                    .collect();
                melds.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
                for (_, m) in melds.into_iter().take(2) {
                    push(&mut out, m);
                }
                let mut discards: Vec<(i32, crate::card::Card)> = super::discards(&moves)
                    .map(|c| (Expert::discard_key(pos, seat, c), c))
                    .collect();
                discards.sort_by_key(|(k, c)| (*k, *c));
                for (_, c) in discards.into_iter().take(3) {
                    push(&mut out, &Move::Discard(c));
                }
                if let Some(pass) = moves.iter().find(|m| matches!(m, Move::Pass {})) {
                    push(&mut out, pass);
                }
            }
            Phase::Over => {}
        }
        out
    }

    /// Plays experts from `pos` for `horizon` turns or to the end of the hand; returns the
    /// moves played.
    fn rollout(&self, pos: &mut Position, rng: &mut SplitMix64) -> usize {
        let expert = Expert::new(0.0);
        let mut turns = 0;
        let mut turn = pos.turn();
        let mut guard = 0;
        while !pos.is_over() && turns < self.horizon && guard < 400 {
            guard += 1;
            let seat = pos.actor();
            let Some(mv) = expert.decide(pos, seat, rng) else {
                break;
            };
            if pos.apply(seat, &mv).is_err() {
                break;
            }
            if pos.turn() != turn {
                turn = pos.turn();
                turns += 1;
            }
        }
        guard
    }

    /// The most rollout moves one decision plays (half again the usual four per turn): a bound on
    /// its time in positions where turns run long, counted in moves so a seed still gives one
    /// answer.
    fn move_budget(&self) -> usize {
        self.rollouts * self.horizon.max(1) * 6
    }

    /// The position's worth to `team`: the hand score as it stands (final once the hand is
    /// over) against the other team's, with credit for unfinished melds.
    fn judge(pos: &Position, team: Team) -> i32 {
        let worth = |t: Team| {
            let mut v = pos.team_score(t).total();
            if !pos.is_over() {
                v += pos.melds(t).iter().map(super::eval::progress).sum::<i32>();
            }
            v
        };
        worth(team) - worth(team.other())
    }

    /// The worth of answering "yes" in `world`: the partner goes out now, melding its hand.
    fn judge_yes(world: &Position, seat: Seat) -> i32 {
        let asker = seat.partner();
        let team = seat.team();
        let mut out = world.clone();
        out.end = Some(crate::position::HandEnd::WentOut {
            seat: asker,
            concealed: false,
        });
        let melded = 2 * world.hand(asker).points();
        Self::judge(&out, team) + melded
    }

    /// The searched move for `seat`, whose masked view is `view`.
    fn search(&self, view: &PlayerView, rng: &mut SplitMix64) -> Option<Move> {
        let pos = view.position();
        let seat = view.seat();
        let candidates = Self::candidates(pos, seat, rng);
        if candidates.len() <= 1 {
            return candidates.into_iter().next();
        }
        let pool = unseen_pool(view);
        let team = seat.team();
        let mut alive: Vec<usize> = (0..candidates.len()).collect();
        let mut total = vec![0i64; candidates.len()];
        let mut runs = vec![0i64; candidates.len()];
        let rounds = (usize::BITS - (candidates.len() - 1).leading_zeros()) as usize;
        let mut moves = 0;
        for round in 0..rounds {
            // Each round has an equal share of the rollouts, split among those still in it.
            let worlds = (self.rollouts / rounds / alive.len()).max(1);
            for _ in 0..worlds {
                let world = determinise(view, &pool, rng);
                let seed = rng.next_u64();
                for &i in &alive {
                    let value = if candidates[i] == Move::Answer(true) {
                        Self::judge_yes(&world, seat)
                    } else {
                        let mut p = world.clone();
                        if p.apply(seat, &candidates[i]).is_err() {
                            continue;
                        }
                        moves += self.rollout(&mut p, &mut SplitMix64::new(seed));
                        Self::judge(&p, team)
                    };
                    total[i] += i64::from(value);
                    runs[i] += 1;
                }
                if moves > self.move_budget() {
                    break;
                }
            }
            if round + 1 == rounds || moves > self.move_budget() {
                break;
            }
            // Keep the better half (the expert's choice always stays).
            let mean = |i: usize| total[i] / runs[i].max(1);
            alive.sort_by_key(|&i| (std::cmp::Reverse(mean(i)), i));
            let keep = alive.len().div_ceil(2);
            let expert_kept = alive[..keep].contains(&0);
            alive.truncate(keep);
            if !expert_kept {
                alive.push(0);
            }
            alive.sort_unstable();
        }
        let mean = |i: usize| total[i] / runs[i].max(1);
        let best = alive
            .iter()
            .copied()
            .max_by_key(|&i| (mean(i), std::cmp::Reverse(i)))
            .unwrap_or(0);
        let pick = if mean(best) > mean(0) + i64::from(self.margin) {
            best
        } else {
            0
        };
        candidates.into_iter().nth(pick)
    }
}

impl Strategy for Master {
    fn name(&self) -> &str {
        "master"
    }

    fn choose(&mut self, view: &PlayerView, rng: &mut SplitMix64) -> Option<Move> {
        if view.actor() != view.seat() {
            return None;
        }
        self.search(view, rng)
    }
}
