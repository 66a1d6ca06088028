//! The `fairdeal` binary: a thin wrapper over [`fairdeal::cli`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("FAIRDEAL_LOG").unwrap_or_else(|_| {
                // libp2p's per-stream lines ("dropping inbound stream ...") say nothing about
                // who; fairdeal_net writes one rate-limited line per refused peer instead.
                tracing_subscriber::EnvFilter::new(
                    "warn,fairdeal=info,fairdeal_net=info,libp2p_request_response=error,libp2p_yamux=error",
                )
            }),
        )
        .init();
    let cli = fairdeal::cli::Cli::parse();
    match fairdeal::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fairdeal: {e:#}");
            ExitCode::FAILURE
        }
    }
}
