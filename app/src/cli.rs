//! Command-line parsing and dispatch.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use fairdeal_core::{HouseRules, Preset, Rules};

/// fairdeal: Samba and Canasta for four on a LAN, with a provably fair deal.
#[derive(Debug, Parser)]
#[command(name = "fairdeal", version, about)]
pub struct Cli {
    /// What to do (without one: play).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run rules scenarios (files or folders of *.json) and report one line each.
    Check {
        /// Scenario files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Play whole hands with a random legal-move player, checking every invariant.
    Selfplay {
        /// samba, dutch-samba or canasta.
        #[arg(long, default_value = "samba")]
        preset: Preset,
        /// How many hands.
        #[arg(long, default_value_t = 100)]
        hands: usize,
        /// Random seed (the same seed plays the same hands).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write each hand as a deal scenario into this folder.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// House rules as JSON, spelled as in scenario files (`{"must_ask": true}`).
        #[arg(long, default_value = "{}")]
        house: String,
    },
    /// Play whole games between two pairs of computer players (rules engine only).
    Arena {
        /// samba, dutch-samba or canasta.
        #[arg(long, default_value = "samba")]
        preset: Preset,
        /// Team A's strategy (South and North).
        #[arg(long = "team-a", default_value = "expert")]
        team_a: String,
        /// Team B's strategy (West and East).
        #[arg(long = "team-b", default_value = "greedy")]
        team_b: String,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Play in the terminal as South against computer players.
    Terminal {
        /// samba, dutch-samba or canasta.
        #[arg(long, default_value = "samba")]
        preset: Preset,
        /// Random seed for the deal (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Measure speed (run a release build).
    Bench {
        /// What to measure.
        #[arg(value_enum)]
        what: BenchWhat,
        /// Hands per timed run (rules).
        #[arg(long, default_value_t = 1000)]
        hands: usize,
    },
}

/// Seed for a new game from the clock (games need not be reproducible unless asked).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// What `bench` measures.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BenchWhat {
    /// The rules engine: self-play hands, validate calls and move generation per second.
    Rules,
    /// The fair deal: shuffle, hand start, draws, reveals, audit, per node.
    Crypto,
}

/// Runs the parsed command line.
///
/// # Errors
///
/// Any failure, as one clear line for the user.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Check { paths }) => {
            let tally = crate::check::run(&paths, &mut std::io::stdout().lock())?;
            Ok(if tally.failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Some(Command::Selfplay {
            preset,
            hands,
            seed,
            trace,
            house,
        }) => {
            let house: HouseRules = serde_json::from_str(&house)
                .map_err(|e| anyhow::anyhow!("--house is not valid house rules: {e}"))?;
            let rules = Rules::new(preset, house);
            let summary = crate::selfplay::run(&rules, hands, seed, trace.as_deref())?;
            crate::selfplay::report(&rules, seed, &summary, &mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench {
            what: BenchWhat::Rules,
            hands,
        }) => {
            crate::bench::rules(&mut std::io::stdout().lock(), hands)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench {
            what: BenchWhat::Crypto,
            ..
        }) => {
            crate::bench_crypto::crypto(&mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Arena {
            preset,
            team_a,
            team_b,
            games,
            seed,
        }) => {
            let rules = Rules::preset(preset);
            let stats = crate::arena::run(&rules, &team_a, &team_b, games, seed)?;
            crate::arena::report(
                &mut std::io::stdout().lock(),
                &rules,
                &team_a,
                &team_b,
                games,
                &stats,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Terminal { preset, seed }) => {
            let seed = seed.unwrap_or_else(clock_seed);
            crate::terminal::play(
                preset,
                seed,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            crate::terminal::play(
                Preset::Samba,
                clock_seed(),
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
