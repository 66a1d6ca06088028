//! Conformance scenarios (`../shared/conformance/FORMAT.md`): a position or a deal, steps with
//! expected outcomes, and checks of the state after each step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::deal::deck_from_top;
use crate::desc::PositionDesc;
use crate::error::Code;
use crate::moves::Move;
use crate::position::{Phase, Position};
use crate::rules::{HouseRules, Preset, Rules};
use crate::score::GameResult;
use crate::seat::{Seat, Team};

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The case number (`C47`).
    pub id: String,
    /// What it shows.
    #[serde(default)]
    pub title: String,
    /// The preset.
    pub preset: Preset,
    /// House rules.
    #[serde(default)]
    pub house_rules: HouseRules,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A position to start from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<PositionDesc>,
    /// Or a deal to start from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Deal>,
    /// The expected verdict on the position itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// State checks right after the deal (deal scenarios).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateCheck>,
    /// The moves.
    #[serde(default)]
    pub steps: Vec<Step>,
}

/// A deal: the dealer, the top of the deck and the scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// The dealer.
    pub dealer: Seat,
    /// The first cards of the deck; the canonical order follows.
    pub deck_top: Vec<Card>,
    /// Scores before the hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<BTreeMap<Team, i32>>,
}

/// `"ok"` or `{"error": CODE}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Expect {
    /// `"ok"`.
    Ok(OkWord),
    /// `{"error": CODE}`.
    Error {
        /// The code.
        error: Code,
    },
}

/// The word `ok`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OkWord {
    /// `ok`
    Ok,
}

/// One step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Who acts (default: the seat to act; for `answer`, the asker's partner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The move.
    #[serde(rename = "do")]
    pub mv: Move,
    /// The expected outcome.
    pub expect: Expect,
    /// Checks after the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateCheck>,
}

/// Checks of the state (every key optional).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateCheck {
    /// Hand sizes of the seats named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_size: Option<BTreeMap<Seat, usize>>,
    /// Cards in the pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile_size: Option<usize>,
    /// Top card of the pile (`null` when empty).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub pile_top: Option<Option<Card>>,
    /// Frozen pile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile_frozen: Option<bool>,
    /// Cards in the stock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock_size: Option<usize>,
    /// The seat to act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Seat>,
    /// The phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
    /// Red threes laid out per team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red_threes: Option<BTreeMap<Team, usize>>,
    /// Meld sizes per team, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meld_sizes: Option<BTreeMap<Team, Vec<usize>>>,
    /// Whether the hand is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_over: Option<bool>,
    /// The hand's score per team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_score: Option<BTreeMap<Team, i32>>,
    /// `continue`, `A`, `B` or `draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::card::Card;

    #[expect(
        clippy::ref_option,
        reason = "serde's `with` passes a reference to the field"
    )]
    pub(super) fn serialize<S: Serializer>(
        v: &Option<Option<Card>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<Card>>, D::Error> {
        Option::<Card>::deserialize(d).map(Some)
    }
}

/// The verdict on one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Everything matched.
    Pass,
    /// The first mismatch: the step (0 = the position itself) and what went wrong.
    Fail {
        /// 0 for the set-up, else the 1-based step number.
        step: usize,
        /// What was expected and what happened.
        why: String,
    },
}

fn fail(step: usize, why: impl Into<String>) -> Verdict {
    Verdict::Fail {
        step,
        why: why.into(),
    }
}

impl Scenario {
    /// Runs the scenario.
    pub fn run(&self) -> Verdict {
        let rules = Rules::new(self.preset, self.house_rules.clone());
        let built = match (&self.position, &self.deal) {
            (Some(desc), None) => Position::from_desc(rules, desc),
            (None, Some(deal)) => {
                let scores = deal.scores.clone().unwrap_or_default();
                let scores = [Team::A, Team::B].map(|t| scores.get(&t).copied().unwrap_or(0));
                deck_from_top(&rules, &deal.deck_top)
                    .and_then(|deck| Position::deal(rules, deal.dealer, scores, &deck))
            }
            _ => return fail(0, "a scenario needs exactly one of position and deal"),
        };
        let mut pos = match (built, self.expect) {
            (Ok(_), Some(Expect::Error { error })) => {
                return fail(0, format!("expected {error}, got ok"));
            }
            (Err(r), Some(Expect::Error { error })) if r.code == error => return Verdict::Pass,
            (Err(r), _) => return fail(0, format!("expected ok, got {} ({})", r.code, r.reason)),
            (Ok(p), _) => p,
        };
        if let Some(Err(why)) = self.state.as_ref().map(|c| c.check(&pos)) {
            return fail(0, why);
        }
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            let seat = step.seat.unwrap_or_else(|| pos.actor());
            let before = pos.clone();
            let got = pos.apply(seat, &step.mv);
            match (got, step.expect) {
                (Ok(()), Expect::Ok(_)) => {}
                (Ok(()), Expect::Error { error }) => {
                    return fail(n, format!("expected {error}, got ok"));
                }
                (Err(r), Expect::Ok(_)) => {
                    return fail(n, format!("expected ok, got {} ({})", r.code, r.reason));
                }
                (Err(r), Expect::Error { error }) => {
                    if r.code != error {
                        return fail(
                            n,
                            format!("expected {error}, got {} ({})", r.code, r.reason),
                        );
                    }
                    if pos != before {
                        return fail(n, "a refused move changed the position");
                    }
                }
            }
            if let Some(Err(why)) = step.state.as_ref().map(|c| c.check(&pos)) {
                return fail(n, why);
            }
        }
        Verdict::Pass
    }
}

impl StateCheck {
    /// Compares every key given with `pos`.
    ///
    /// # Errors
    ///
    /// The first mismatch, in words.
    pub fn check(&self, pos: &Position) -> Result<(), String> {
        if let Some(sizes) = &self.hand_size {
            for (seat, &n) in sizes {
                same(&format!("hand_size {seat}"), Some(n), pos.hand(*seat).len())?;
            }
        }
        same("pile_size", self.pile_size, pos.pile().len())?;
        same("pile_top", self.pile_top, pos.pile_top())?;
        same("pile_frozen", self.pile_frozen, pos.pile_frozen())?;
        same("stock_size", self.stock_size, pos.stock_len())?;
        same("turn", self.turn, pos.turn())?;
        same("phase", self.phase, pos.phase())?;
        if let Some(reds) = &self.red_threes {
            for (team, &n) in reds {
                same(
                    &format!("red_threes {team}"),
                    Some(n),
                    pos.red_threes(*team).len(),
                )?;
            }
        }
        if let Some(sizes) = &self.meld_sizes {
            for (team, want) in sizes {
                let got: Vec<usize> = pos.melds(*team).iter().map(|m| m.len()).collect();
                same(&format!("meld_sizes {team}"), Some(want.clone()), got)?;
            }
        }
        same("hand_over", self.hand_over, pos.is_over())?;
        if let Some(scores) = &self.hand_score {
            if !pos.is_over() {
                return Err("hand_score: the hand is not over".to_owned());
            }
            let got = pos.hand_scores();
            for (team, &n) in scores {
                same(&format!("hand_score {team}"), Some(n), got[team.index()])?;
            }
        }
        if let Some(game) = &self.game {
            let got = match pos.game_result() {
                GameResult::Continue => "continue",
                GameResult::Won(Team::A) => "A",
                GameResult::Won(Team::B) => "B",
                GameResult::Drawn => "draw",
            };
            same("game", Some(game.as_str()), got)?;
        }
        Ok(())
    }
}

/// Compares `want` (when given) with `got`.
fn same<T: PartialEq + std::fmt::Debug>(what: &str, want: Option<T>, got: T) -> Result<(), String> {
    match want {
        Some(w) if w != got => Err(format!("{what}: expected {w:?}, got {got:?}")),
        _ => Ok(()),
    }
}
