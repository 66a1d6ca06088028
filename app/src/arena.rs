//! `fairdeal arena`: whole games between two pairs of computer players (rules engine only).

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{GameResult, Position, Rules, Seat, SplitMix64, Team, canonical_deck};

/// What an arena run measured.
#[derive(Debug, Default, Clone)]
pub struct ArenaStats {
    /// Games won by team A, team B, drawn.
    pub wins: [usize; 2],
    /// Drawn games.
    pub draws: usize,
    /// Hands played.
    pub hands: usize,
    /// Sum of hand scores per team.
    pub hand_points: [i64; 2],
    /// Every decision's time, per team (A, B).
    pub decisions: [Vec<Duration>; 2],
    /// Every decision's CPU time on its thread, per team, where the system reports it (the
    /// work alone: the clock above also counts time other programs held the core).
    pub cpu: [Vec<Duration>; 2],
    /// Decisions that were not legal (replaced by a random legal move; must stay 0).
    pub illegal: usize,
}

/// Plays `games` games, team A (S, N) with `a`, team B (W, E) with `b`.
///
/// # Errors
///
/// An unknown strategy name.
pub fn run(rules: &Rules, a: &str, b: &str, games: usize, seed: u64) -> Result<ArenaStats> {
    run_with_progress(rules, a, b, games, seed, &mut |_, _| Ok(()))
}

/// [`run`], calling `progress` with the games played and the figures so far after each game.
///
/// # Errors
///
/// An unknown strategy name, or what `progress` returns.
pub fn run_with_progress(
    rules: &Rules,
    a: &str,
    b: &str,
    games: usize,
    seed: u64,
    progress: &mut dyn FnMut(usize, &ArenaStats) -> Result<()>,
) -> Result<ArenaStats> {
    let unknown = |n: &str| {
        anyhow!(
            "unknown strategy {n:?} (use one of {})",
            fairdeal_core::strategy::NAMES.join(", ")
        )
    };
    let mut players: Vec<Box<dyn Strategy + Send>> = Vec::new();
    for seat in Seat::ALL {
        let name = if seat.team() == Team::A { a } else { b };
        players.push(by_name(name).ok_or_else(|| unknown(name))?);
    }
    let mut rng = SplitMix64::new(seed);
    let mut stats = ArenaStats::default();
    for g in 0..games {
        let mut scores = [0, 0];
        let mut dealer = Seat::from_index(g);
        for _hand in 0..200 {
            let mut deck = canonical_deck(rules);
            rng.shuffle(&mut deck);
            let mut pos = Position::deal(rules.clone(), dealer, scores, &deck)?;
            let mut guard = 0;
            while !pos.is_over() && guard < 5_000 {
                guard += 1;
                let seat = pos.actor();
                let view = pos.view(seat);
                let cpu = crate::bench::thread_cpu_time();
                let t = Instant::now();
                let choice = players[seat.index()].choose(&view, &mut rng);
                stats.decisions[seat.team().index()].push(t.elapsed());
                if let (Some(before), Some(after)) = (cpu, crate::bench::thread_cpu_time()) {
                    stats.cpu[seat.team().index()].push(after.saturating_sub(before));
                }
                let mv = match choice {
                    Some(mv) if pos.validate(seat, &mv).is_ok() => mv,
                    _ => {
                        stats.illegal += 1;
                        match pos.random_legal_move(&mut rng) {
                            Some(mv) => mv,
                            None => break,
                        }
                    }
                };
                if pos.apply(seat, &mv).is_err() {
                    stats.illegal += 1;
                    break;
                }
            }
            let hand = pos.hand_scores();
            stats.hands += 1;
            stats.hand_points[0] += i64::from(hand[0]);
            stats.hand_points[1] += i64::from(hand[1]);
            scores = [scores[0] + hand[0], scores[1] + hand[1]];
            match pos.game_result() {
                GameResult::Continue => dealer = dealer.next(),
                GameResult::Won(t) => {
                    stats.wins[t.index()] += 1;
                    break;
                }
                GameResult::Drawn => {
                    stats.draws += 1;
                    break;
                }
            }
        }
        progress(g + 1, &stats)?;
    }
    Ok(stats)
}

/// The Wilson 95 % interval of `k` successes in `n`.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Mean, median, p99 and worst of `times`, in words.
fn summary(times: &[Duration]) -> String {
    let mut times = times.to_vec();
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |q: usize| {
        times
            .get(times.len() * q / 100)
            .copied()
            .unwrap_or_default()
    };
    let mean = if times.is_empty() {
        0.0
    } else {
        times.iter().map(|d| ms(*d)).sum::<f64>() / times.len() as f64
    };
    format!(
        "mean {mean:.3} ms, median {:.3} ms, p99 {:.3} ms, worst {:.3} ms over {} decisions",
        ms(at(50)),
        ms(at(99)),
        ms(times.last().copied().unwrap_or_default()),
        times.len()
    )
}

/// Writes the report.
///
/// # Errors
///
/// A failure to write.
pub fn report(
    out: &mut impl Write,
    rules: &Rules,
    a: &str,
    b: &str,
    games: usize,
    s: &ArenaStats,
) -> Result<()> {
    let (lo, hi) = wilson(s.wins[0], games);
    let hands = s.hands.max(1) as f64;
    writeln!(
        out,
        "{}: team A {a} vs team B {b}, {games} games, {} hands",
        rules.preset, s.hands
    )?;
    writeln!(
        out,
        "team A wins {}, team B wins {}, drawn {}",
        s.wins[0], s.wins[1], s.draws
    )?;
    writeln!(
        out,
        "team-a win rate: {:.1}% (95% interval {:.1}%–{:.1}%)",
        100.0 * s.wins[0] as f64 / games.max(1) as f64,
        100.0 * lo,
        100.0 * hi
    )?;
    writeln!(
        out,
        "average score per hand: team A {:.0}, team B {:.0}",
        s.hand_points[0] as f64 / hands,
        s.hand_points[1] as f64 / hands
    )?;
    for (team, name) in [(0, a), (1, b)] {
        let label = ["A", "B"][team];
        writeln!(
            out,
            "decision time, team {label} ({name}): {}",
            summary(&s.decisions[team])
        )?;
        if !s.cpu[team].is_empty() {
            writeln!(
                out,
                "decision CPU time, team {label} ({name}): {}",
                summary(&s.cpu[team])
            )?;
        }
    }
    writeln!(out, "illegal choices: {}", s.illegal)?;
    Ok(())
}
