//! The `fairdeal` binary: a thin wrapper over [`fairdeal::cli`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = fairdeal::cli::Cli::parse();
    match fairdeal::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fairdeal: {e:#}");
            ExitCode::FAILURE
        }
    }
}
