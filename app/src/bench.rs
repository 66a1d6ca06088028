//! `fairdeal bench rules`: single-thread speed of the rules engine (run a release build).
//!
//! Each figure is a median of several runs, by the wall clock and, where the system tells
//! (Linux), by the thread's own CPU time: on a shared machine the second is the engine's speed
//! on one core, the first also counts the time other programs held that core.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;
use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{Move, Position, Preset, Rules, Seat, SplitMix64};

/// Repeated runs per figure; the median is reported.
const RUNS: usize = 5;

fn median_f64(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The CPU time this thread has used, where the system reports it (Linux
/// `/proc/thread-self/schedstat`: nanoseconds on a CPU, then waiting, then slices).
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Positions met in random play, with the seat to act, for the per-call figures.
fn sample_positions(rules: &Rules, hands: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(99);
    let mut out = Vec::new();
    for _ in 0..hands {
        let r = random_hand(rules, Seat::S, [0, 0], &mut rng);
        let Ok(mut deck_pos) = Position::deal(rules.clone(), Seat::S, [0, 0], &r.deck) else {
            continue;
        };
        for (seat, mv) in &r.moves {
            out.push(deck_pos.clone());
            if deck_pos.apply(*seat, mv).is_err() {
                break;
            }
        }
    }
    out
}

/// Runs the rules benchmark and prints medians, ending with `PRESET hands/s: N` lines.
///
/// # Errors
///
/// A failure to write.
pub fn rules(out: &mut impl Write, hands_per_run: usize) -> Result<()> {
    if cfg!(debug_assertions) {
        writeln!(
            out,
            "note: this is a debug build; run `cargo run --release -- bench rules`"
        )?;
    }
    let mut per_preset = Vec::new();
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut rates = Vec::new();
        let mut cpu_rates = Vec::new();
        let mut moves = 0usize;
        for run in 0..RUNS {
            let mut rng = SplitMix64::new(run as u64 + 1);
            let cpu = thread_cpu_time();
            let start = Instant::now();
            for _ in 0..hands_per_run {
                let r = random_hand(&rules, Seat::S, [0, 0], &mut rng);
                moves += r.moves.len();
                black_box(&r);
            }
            rates.push(hands_per_run as f64 / start.elapsed().as_secs_f64());
            if let (Some(before), Some(after)) = (cpu, thread_cpu_time())
                && after > before
            {
                cpu_rates.push(hands_per_run as f64 / (after - before).as_secs_f64());
            }
        }
        let hands_s = median_f64(rates);
        let cpu_hands_s = (cpu_rates.len() == RUNS).then(|| median_f64(cpu_rates));
        let positions = sample_positions(&rules, 20);
        let candidates: Vec<(Seat, Move, &Position)> = positions
            .iter()
            .flat_map(|p| {
                p.candidate_moves()
                    .into_iter()
                    .map(move |m| (p.actor(), m, p))
            })
            .collect();
        let mut validate_rates = Vec::new();
        let mut gen_rates = Vec::new();
        for _ in 0..RUNS {
            let start = Instant::now();
            for (seat, mv, p) in &candidates {
                black_box(p.validate(*seat, mv).is_ok());
            }
            validate_rates.push(candidates.len() as f64 / start.elapsed().as_secs_f64());
            let start = Instant::now();
            for p in &positions {
                black_box(p.legal_moves());
            }
            gen_rates.push(positions.len() as f64 / start.elapsed().as_secs_f64());
        }
        writeln!(
            out,
            "{preset}: {:.0} hands/s ({:.0} moves per hand), validate {:.0} calls/s, legal-move generation {:.0} positions/s (medians of {RUNS} runs)",
            hands_s,
            moves as f64 / (RUNS * hands_per_run) as f64,
            median_f64(validate_rates),
            median_f64(gen_rates),
        )?;
        // What the window computes when it is the player's turn (game.rs, `YourTurn`): every
        // legal move, an opening meld and a finish, from the player's view.
        let mut turn_us: Vec<f64> = positions
            .iter()
            .map(|p| {
                let view = p.view(p.actor());
                let start = Instant::now();
                black_box((view.legal_moves(), view.opening_hint(), view.find_finish()));
                start.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        turn_us.sort_by(f64::total_cmp);
        let at = |q: f64| turn_us[((turn_us.len().max(1) - 1) as f64 * q) as usize];
        if !turn_us.is_empty() {
            writeln!(
                out,
                "{preset}: a turn's hints (legal moves, opening, finish) over {} positions: median {:.0} µs, p99 {:.0} µs, worst {:.0} µs",
                turn_us.len(),
                at(0.5),
                at(0.99),
                at(1.0)
            )?;
        }
        per_preset.push((preset, hands_s, cpu_hands_s));
    }
    for (preset, hands_s, cpu_hands_s) in per_preset {
        writeln!(out, "{preset} hands/s: {hands_s:.0}")?;
        if let Some(cpu) = cpu_hands_s {
            writeln!(out, "{preset} hands per CPU second: {cpu:.0}")?;
        }
    }
    Ok(())
}
