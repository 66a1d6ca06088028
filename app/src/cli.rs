//! Command-line parsing and dispatch.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
            Ok(if tally.failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        None => {
            anyhow::bail!("no command given: try `fairdeal --help`")
        }
    }
}
