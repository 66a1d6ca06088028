//! Command-line parsing and dispatch.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use fairdeal_core::{HouseRules, Preset, Rules};

/// fairdeal: Samba and Canasta for four on a LAN, with a provably fair deal.
#[derive(Debug, Parser)]
#[command(
    name = "fairdeal",
    version,
    about,
    after_help = "Without a command, fairdeal opens the desktop client (the window); every command runs without it."
)]
pub struct Cli {
    /// What to do (without one: open the desktop client).
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
        #[arg(long = "team-a", value_enum, default_value_t = StrategyName::Expert)]
        team_a: StrategyName,
        /// Team B's strategy (West and East).
        #[arg(long = "team-b", value_enum, default_value_t = StrategyName::Greedy)]
        team_b: StrategyName,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also print the report so far after every this many games (0: only at the end).
        #[arg(long = "report-every", default_value_t = 0)]
        report_every: usize,
    },
    /// Open a table on the LAN and play its South seat (with a computer strategy, or from the
    /// terminal without --bot). Prints `address: MULTIADDR` once listening.
    Host {
        /// The table's name (shown to others on the LAN).
        #[arg(long, default_value = "fairdeal")]
        table: String,
        /// samba, dutch-samba or canasta.
        #[arg(long, default_value = "samba")]
        preset: Preset,
        /// Target score (default: the preset's).
        #[arg(long)]
        target: Option<i32>,
        /// Data directory (identity, game log).
        #[arg(long = "data-dir")]
        data_dir: PathBuf,
        /// Computer strategy for this seat.
        #[arg(long, value_enum)]
        bot: Option<StrategyName>,
        /// Listen address.
        #[arg(long, default_value = "/ip4/0.0.0.0/tcp/0")]
        listen: libp2p::Multiaddr,
        /// Do not announce the table on the LAN (mDNS).
        #[arg(long = "no-mdns")]
        no_mdns: bool,
        /// Your display name.
        #[arg(long, default_value = "Host")]
        name: String,
        /// Seconds a silent player may pause the table before the hand is voided and a
        /// computer player takes the seat (at least 3).
        #[arg(long = "grace-secs", default_value_t = 60, value_parser = grace_secs)]
        grace_secs: u64,
        /// The move clock: seconds a player has for a turn before their own client plays a
        /// computer move for them (0: no clock).
        #[arg(long = "move-clock", default_value_t = 0)]
        move_clock: u64,
        /// Milliseconds this seat's computer player waits before each of its moves, so that
        /// people at the table can follow (0: at once).
        #[arg(long = "think-ms", default_value_t = 0)]
        think_ms: u64,
        /// Write timing lines here (used by `bench net`).
        #[arg(long, hide = true)]
        trace: Option<PathBuf>,
        /// Seats (letters of S W N E, such as `WE`) whose computer players this process runs
        /// beside the host's seat, as the window does (each in `DATA_DIR/bot-SEAT`; rebuilt
        /// from their logs when the host is restarted).
        #[arg(long, hide = true, default_value = "")]
        computers: String,
        /// A relay (as printed by `fairdeal relay`) for friends beyond the LAN: prints
        /// `invitation: TEXT` to pass to them.
        #[arg(long)]
        relay: Option<libp2p::Multiaddr>,
    },
    /// Join a table found on the LAN (--table), at an address (--address), or by an
    /// invitation from beyond the LAN (--invite).
    Join {
        /// The table's name, found on the LAN.
        #[arg(long, conflicts_with_all = ["address", "invite"], required_unless_present_any = ["address", "invite"])]
        table: Option<String>,
        /// The host's address (as printed by `fairdeal host`).
        #[arg(long, conflicts_with = "invite")]
        address: Option<libp2p::Multiaddr>,
        /// An invitation (`fairdeal:…`, as printed by `fairdeal host --relay`).
        #[arg(long)]
        invite: Option<String>,
        /// Data directory (identity, game log).
        #[arg(long = "data-dir")]
        data_dir: PathBuf,
        /// Computer strategy for this seat.
        #[arg(long, value_enum)]
        bot: Option<StrategyName>,
        /// Listen address.
        #[arg(long, default_value = "/ip4/0.0.0.0/tcp/0")]
        listen: libp2p::Multiaddr,
        /// Your display name.
        #[arg(long, default_value = "Guest")]
        name: String,
        /// Seconds a silent player may pause the table before the hand is voided (at least 3;
        /// also how long to keep trying to reach a host that does not answer at --address).
        #[arg(long = "grace-secs", default_value_t = 60, value_parser = grace_secs)]
        grace_secs: u64,
        /// Milliseconds this seat's computer player waits before each of its moves, so that
        /// people at the table can follow (0: at once).
        #[arg(long = "think-ms", default_value_t = 0)]
        think_ms: u64,
        /// Write timing lines here (used by `bench net`).
        #[arg(long, hide = true)]
        trace: Option<PathBuf>,
    },
    /// Four peers over loopback in this process: `--bots 4` computer players only; fewer puts
    /// you in the South seat at the terminal.
    Play {
        /// How many computer players (4: watch them play).
        #[arg(long, default_value_t = 3)]
        bots: usize,
        /// samba, dutch-samba or canasta.
        #[arg(long, default_value = "samba")]
        preset: Preset,
        /// Target score (default: the preset's).
        #[arg(long)]
        target: Option<i32>,
        /// Data directory (one sub-folder and game log per seat).
        #[arg(long = "data-dir")]
        data_dir: PathBuf,
    },
    /// Check a game's public transcript alone (signatures, chains, shuffle proofs, shuffles,
    /// openings, red threes, moves, scores, the signed results); prints each hand as verified,
    /// void (why) or unfinished, then the result; exits non-zero, naming the seat, on a fault.
    Verify {
        /// The game's transcript.fdt (or its private GAME.fdlog, with identity.key beside it).
        file: PathBuf,
    },
    /// Print a finished game move by move: the public table after every turn, each hand's
    /// scores, then the same report as `verify` (exits non-zero if it does not verify).
    Replay {
        /// The game's transcript.fdt (or its private GAME.fdlog, with identity.key beside it).
        file: PathBuf,
    },
    /// Watch a live table as a spectator: each move once this computer has checked it, the
    /// public table, each deal verified here, and the result (never a hidden card).
    Watch {
        /// The table's name on the LAN (found by mDNS).
        #[arg(long, conflicts_with = "address", required_unless_present = "address")]
        table: Option<String>,
        /// A seat's address, as its `address:` line prints it (with `/p2p/...`).
        #[arg(long)]
        address: Option<libp2p::Multiaddr>,
        /// The name the players see.
        #[arg(long, default_value = "spectator")]
        name: String,
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
    /// Run a relay for friends beyond the LAN: players behind home routers reach each other
    /// through it, and it helps them connect directly. Prints `relay: MULTIADDR` once
    /// listening; it holds no game and cannot read a message.
    Relay {
        /// Listen address (a public address, or all interfaces with a port that the router
        /// forwards).
        #[arg(long, default_value = "/ip4/0.0.0.0/tcp/4001")]
        listen: libp2p::Multiaddr,
        /// Data directory (the relay's identity, so its address stays the same).
        #[arg(long = "data-dir")]
        data_dir: PathBuf,
    },
    /// Measure speed (run a release build).
    Bench {
        /// What to measure.
        #[arg(value_enum)]
        what: BenchWhat,
        /// Hands per timed run (rules).
        #[arg(long, default_value_t = 1000)]
        hands: usize,
        /// Milliseconds each computer player waits before a move (net). At 0 they play flat
        /// out, and a turn's moves (draw, melds, discard) queue behind each other at every
        /// peer; a pause longer than a move takes measures each move alone, as people play.
        #[arg(long = "think-ms", default_value_t = 0)]
        think_ms: u64,
    },
}

/// The tokio runtime for the network commands.
fn runtime() -> Result<tokio::runtime::Runtime> {
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    Ok(fairdeal_net::node::runtime(workers)?)
}

/// A computer player's strategy, as the command line names it (clap refuses any other name
/// and lists these). The game log keeps the name as a string ([`Self::name`]), as
/// `fairdeal_core::strategy::by_name` reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StrategyName {
    /// Any legal move, at random.
    Random,
    /// The best move now, no look-ahead.
    Greedy,
    /// One move of look-ahead.
    Expert,
    /// The window's "easy" (greedy).
    Easy,
    /// The window's "medium" (expert, with some mistakes).
    Medium,
    /// The window's "hard" (expert).
    Hard,
    /// Determinised search.
    Master,
}

impl StrategyName {
    /// The name the rules engine and the game log know.
    pub fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Greedy => "greedy",
            Self::Expert => "expert",
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
            Self::Master => "master",
        }
    }
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
    /// Four peers on loopback in separate processes: move propagation, hand start, memory.
    Net,
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
            ..
        }) => {
            crate::bench::rules(&mut std::io::stdout().lock(), hands)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Bench {
            what: BenchWhat::Net,
            think_ms,
            ..
        }) => {
            let dir =
                std::env::temp_dir().join(format!("fairdeal-bench-net-{}", std::process::id()));
            let out = &mut std::io::stdout().lock();
            crate::bench_net::net(out, &dir, "samba", 10_000, think_ms)?;
            let _ = std::fs::remove_dir_all(&dir);
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
            report_every,
        }) => {
            let (team_a, team_b) = (team_a.name(), team_b.name());
            let rules = Rules::preset(preset);
            let mut so_far = |played: usize, stats: &crate::arena::ArenaStats| {
                if report_every > 0 && played.is_multiple_of(report_every) && played < games {
                    let mut out = std::io::stdout().lock();
                    writeln!(out, "-- after {played} of {games} games")?;
                    crate::arena::report(&mut out, &rules, team_a, team_b, played, stats)?;
                    out.flush()?;
                }
                Ok(())
            };
            let stats =
                crate::arena::run_with_progress(&rules, team_a, team_b, games, seed, &mut so_far)?;
            crate::arena::report(
                &mut std::io::stdout().lock(),
                &rules,
                team_a,
                team_b,
                games,
                &stats,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Host {
            table,
            preset,
            target,
            data_dir,
            bot,
            listen,
            no_mdns,
            name,
            trace,
            grace_secs,
            think_ms,
            move_clock,
            computers,
            relay,
        }) => {
            let computers = seat_letters(&computers).map_err(anyhow::Error::msg)?;
            let bot = bot.map(|b| b.name().to_owned());
            if let Some(r) = &relay {
                fairdeal_net::node::relay::check_relay(r)
                    .map_err(|e| anyhow::anyhow!("--relay {r}: {e}"))?;
            }
            let args = crate::peer::HostArgs {
                table,
                preset,
                target,
                data_dir,
                bot,
                listen,
                mdns: !no_mdns,
                name,
                grace_secs,
                think_ms,
                move_clock_secs: move_clock,
                computers,
                relay,
            };
            ended(runtime()?.block_on(crate::peer::host(args, trace)))
        }
        Some(Command::Join {
            table,
            address,
            invite,
            data_dir,
            bot,
            listen,
            name,
            trace,
            grace_secs,
            think_ms,
        }) => {
            let bot = bot.map(|b| b.name().to_owned());
            let (address, relay) = match invite {
                Some(text) => {
                    let inv = fairdeal_net::node::invite::Invitation::parse(&text)
                        .map_err(|e| anyhow::anyhow!("not an invitation: {e}"))?;
                    println!("joining {} through the relay", inv.table);
                    (Some(inv.address.clone()), inv.relay())
                }
                None => (address, None),
            };
            // Refused before anything is written: the node would try it until its timeout.
            if let Some(why) = address.as_ref().and_then(fairdeal_net::node::dial_problem) {
                anyhow::bail!("cannot join at that address: {why}");
            }
            let opts = fairdeal_net::node::NodeOptions {
                data_dir,
                listen,
                mdns: table.is_some(),
                role: fairdeal_net::node::Role::Join { address, table },
                bot,
                name,
                grace_ms: Some(grace_secs * 1000),
                hold: false,
                want: None,
                think_ms,
                move_clock_ms: 0,
                wait_for_person: false,
                countdown: true,
                relay,
            };
            ended(runtime()?.block_on(crate::peer::run_node_traced(opts, false, trace)))
        }
        Some(Command::Relay { listen, data_dir }) => {
            runtime()?.block_on(crate::peer::relay(listen, data_dir))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Play {
            bots,
            preset,
            target,
            data_dir,
        }) => {
            let outcome =
                runtime()?.block_on(crate::peer::play_local(preset, target, bots, &data_dir))?;
            println!("{}", crate::peer::game_over_line(&outcome));
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Verify { file }) => {
            let ok = crate::verify::run(&file, &mut std::io::stdout().lock())?;
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Some(Command::Replay { file }) => {
            let ok = crate::replay::run(&file, &mut std::io::stdout().lock())?;
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Some(Command::Watch {
            table,
            address,
            name,
        }) => {
            let outcome = runtime()?.block_on(crate::watch::run(
                name,
                address,
                table,
                &mut std::io::stdout(),
            ))?;
            println!("{}", crate::peer::game_over_line(&outcome));
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
            crate::gui::run()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `--grace-secs`: whole seconds, at least the table's shortest grace period (its pings come
/// once a second, so a shorter one would put out players whose connection is fine).
/// Seats as letters ("WE": West and East; never South, the host's).
fn seat_letters(text: &str) -> Result<Vec<fairdeal_core::Seat>, String> {
    text.chars()
        .map(|c| match c.to_ascii_uppercase() {
            'W' => Ok(fairdeal_core::Seat::W),
            'N' => Ok(fairdeal_core::Seat::N),
            'E' => Ok(fairdeal_core::Seat::E),
            other => Err(format!("{other:?} is not W, N or E")),
        })
        .collect()
}

fn grace_secs(text: &str) -> Result<u64, String> {
    let min = fairdeal_net::table::MIN_GRACE_MS / 1000;
    let secs: u64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number of seconds"))?;
    if secs < min {
        return Err(format!(
            "{secs} s is too short: the grace period is at least {min} s (players' clients are heard once a second)"
        ));
    }
    Ok(secs)
}

/// How a `host` or `join` ends: the game's result, or the person's leave (a success when the
/// table was told), or the error.
fn ended(outcome: Result<fairdeal_net::node::Outcome>) -> Result<ExitCode> {
    match outcome {
        Ok(o) => {
            println!("{}", crate::peer::game_over_line(&o));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => match e.downcast_ref::<crate::peer::Left>() {
            Some(left) => {
                println!("{left}");
                Ok(if left.told() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                })
            }
            None => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum as _;

    use super::StrategyName;

    /// Every name the command line takes is one the rules engine plays, and it takes them all.
    #[test]
    fn the_strategy_names_are_the_engines() {
        let names: Vec<&str> = StrategyName::value_variants()
            .iter()
            .map(|s| s.name())
            .collect();
        assert_eq!(names, fairdeal_core::strategy::NAMES);
        for s in StrategyName::value_variants() {
            let spelled = s.to_possible_value().map(|v| v.get_name().to_owned());
            assert_eq!(
                spelled.as_deref(),
                Some(s.name()),
                "clap spells it as the log does"
            );
        }
    }
}
