//! `fairdeal selfplay`: whole hands by the random legal-move player, with every invariant
//! checked after every move, a summary, and optional traces as deal scenarios.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use fairdeal_core::selfplay::random_hand_checked;
use fairdeal_core::{GameResult, HandEnd, Rules, Seat, SplitMix64};

/// What a self-play run saw.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    /// Moves per hand.
    pub moves: Vec<usize>,
    /// Hand scores, team A and team B.
    pub scores: Vec<[i32; 2]>,
    /// Hands ended by a player going out.
    pub went_out: usize,
    /// Games finished.
    pub games: usize,
}

/// Plays `hands` hands (as a series of games, so scores and minimums vary) from `seed`.
///
/// # Errors
///
/// An invariant violation (with the hand and move), or a trace that cannot be written.
pub fn run(rules: &Rules, hands: usize, seed: u64, trace: Option<&Path>) -> Result<Summary> {
    if let Some(dir) = trace {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut rng = SplitMix64::new(seed);
    let mut summary = Summary::default();
    let mut totals = [0, 0];
    let mut dealer = Seat::S;
    for i in 0..hands {
        let record = random_hand_checked(rules, dealer, totals, &mut rng)
            .map_err(|e| anyhow::anyhow!("invariant violated in hand {}: {e}", i + 1))?;
        let score = record.end.hand_scores();
        summary.moves.push(record.moves.len());
        summary.scores.push(score);
        if matches!(record.end.end(), Some(HandEnd::WentOut { .. })) {
            summary.went_out += 1;
        }
        if let Some(dir) = trace {
            let id = format!("{}-seed{seed}-hand{:05}", rules.preset, i + 1);
            let json = serde_json::to_string_pretty(&record.to_scenario(&id))?;
            let path = dir.join(format!("{id}.json"));
            fs::write(&path, json).with_context(|| format!("writing {}", path.display()))?;
        }
        if record.end.game_result() == GameResult::Continue {
            totals = [totals[0] + score[0], totals[1] + score[1]];
            dealer = dealer.next();
        } else {
            summary.games += 1;
            totals = [0, 0];
            dealer = Seat::S;
        }
    }
    Ok(summary)
}

/// The median of `values` (0 when empty).
pub fn median<T: Copy + Ord + Default>(values: &[T]) -> T {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Writes the summary.
///
/// # Errors
///
/// A failure to write.
pub fn report(rules: &Rules, seed: u64, s: &Summary, out: &mut impl Write) -> Result<()> {
    let n = s.moves.len();
    writeln!(
        out,
        "preset: {}  hands: {n}  seed: {seed}  games finished: {}",
        rules.preset, s.games
    )?;
    writeln!(
        out,
        "moves per hand: median {}, min {}, max {}, total {}",
        median(&s.moves),
        s.moves.iter().min().copied().unwrap_or(0),
        s.moves.iter().max().copied().unwrap_or(0),
        s.moves.iter().sum::<usize>()
    )?;
    let pct = |k: usize| {
        if n == 0 {
            0.0
        } else {
            100.0 * k as f64 / n as f64
        }
    };
    writeln!(
        out,
        "hand ends: went out {} ({:.1}%), stock exhausted {} ({:.1}%)",
        s.went_out,
        pct(s.went_out),
        n - s.went_out,
        pct(n - s.went_out)
    )?;
    let mut all: Vec<i32> = s.scores.iter().flatten().copied().collect();
    all.sort_unstable();
    let q = |f: f64| {
        all.get(((all.len().saturating_sub(1)) as f64 * f) as usize)
            .copied()
            .unwrap_or(0)
    };
    writeln!(
        out,
        "hand score per team: min {}, p10 {}, median {}, p90 {}, max {}",
        q(0.0),
        q(0.1),
        q(0.5),
        q(0.9),
        q(1.0)
    )?;
    writeln!(out, "invariants: checked after every move; no violation")?;
    Ok(())
}
