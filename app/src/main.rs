//! The `fairdeal` binary: a thin wrapper over [`fairdeal::cli`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = fairdeal::cli::Cli::parse();
    if cli.command.is_none() {
        leave_a_cpu_to_the_window();
    }
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
    match fairdeal::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fairdeal: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// With no GPU (a virtual machine, a remote desktop, no driver) the window is drawn by Mesa's
/// software renderer, llvmpipe, which by default starts one rasteriser thread per CPU: on two
/// cores they took both from the window's own thread, and the slowest frames waited for
/// them (five-minute runs: p99 8.5–9.5 ms and worst 18–29 ms with two rasterisers, p99
/// 6.1–6.9 ms and worst 15.7–19.5 ms with one). One CPU is left free. Only llvmpipe reads
/// the variable; a setting of the user's own is kept.
#[allow(unsafe_code)]
fn leave_a_cpu_to_the_window() {
    if std::env::var_os("LP_NUM_THREADS").is_some() {
        return;
    }
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cpus.saturating_sub(1).max(1);
    // SAFETY: called first thing in `main`, before the log is set up or anything else starts
    // a thread: no other thread can be reading or writing the environment.
    unsafe { std::env::set_var("LP_NUM_THREADS", threads.to_string()) };
}
