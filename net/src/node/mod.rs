//! The libp2p event loop: carries a [`TableSession`]'s messages between machines.
//!
//! TCP + noise + yamux; request-response on [`PROTOCOL`] (each message sent directly to each
//! seat, answered with an [`Ack`]); identify (with a version gate) and ping; mDNS to find
//! tables on the LAN. Every message is written to `GAME.fdlog` before it is sent, and every
//! received message before it is handled, so a restarted peer rebuilds its state from the
//! log and the others resend what it may have missed.

mod browse;
mod checker;
mod codec;
mod dialable;
mod driver;
mod hosts;
pub mod invite;
pub mod priority;
mod refusals;
pub mod relay;
mod restore;
mod swarm;
mod types;
pub mod watch;

use std::time::Duration;

use futures::StreamExt;
use tokio::sync::mpsc;

use crate::table::TableSession;

pub use self::browse::{BrowseEvent, FoundTable, browse};
pub use self::dialable::dial_problem;
pub use self::restore::{ReplayError, VerifyReport, rebuild, replay_log, session_from_meta};
pub use self::types::{
    Intent, NetError, NodeError, NodeEvent, NodeOptions, Outcome, Path, Role, Unheard, key_of,
    peer_of,
};

/// The stack of each runtime thread that runs nodes: their futures are deep (libp2p's swarm,
/// the table and hand sessions), and a debug build's frames are several times a release
/// build's; tokio's default 2 MiB overflows there.
pub const NODE_STACK_BYTES: usize = 8 << 20;

/// A multi-threaded runtime fit to run nodes: `workers` threads of [`NODE_STACK_BYTES`].
///
/// # Errors
///
/// The operating system refuses the threads.
pub fn runtime(workers: usize) -> std::io::Result<tokio::runtime::Runtime> {
    runtime_niced(workers, 0)
}

/// As [`runtime`], its threads `nice` nicer than the caller (see [`priority`]): a window
/// runs its nodes so, so that their cryptography never takes a core from a frame.
///
/// # Errors
///
/// The runtime could not be built.
pub fn runtime_niced(workers: usize, nice: i32) -> std::io::Result<tokio::runtime::Runtime> {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    if nice > 0 {
        b.on_thread_start(move || priority::lower_this_thread(nice));
    }
    b.worker_threads(workers.max(1))
        .thread_name("fairdeal-net")
        .thread_stack_size(NODE_STACK_BYTES)
        .enable_all()
        .build()
}

/// How long a person who left mid-hand waits, once the hand is over and their messages are
/// answered, before the signed `Quit` goes out.
const PLAY_OUT_SETTLE: Duration = Duration::from_secs(2);

/// Runs a node until the game ends, the front end quits, or `intents` closes.
///
/// # Errors
///
/// The data directory is in use or damaged, or the network cannot start.
pub async fn run(
    opts: NodeOptions,
    secret: [u8; 32],
    fresh_master: [u8; 32],
    events: mpsc::Sender<NodeEvent>,
    mut intents: mpsc::Receiver<Intent>,
) -> Result<Outcome, NodeError> {
    let mut node = driver::Node::start(opts, secret, fresh_master, events).await?;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut leaving: Option<tokio::time::Instant> = None;
    let mut quit_due: Option<tokio::time::Instant> = None;
    loop {
        node.flush().await?;
        if let Some(outcome) = node.finished() {
            return Ok(outcome);
        }
        if let Some(secs) = node.alone {
            return Err(NodeError::NobodyAnswers { secs });
        }
        if let Some(reason) = node.stopped {
            return Err(NodeError::TableStopped(reason));
        }
        if let Some(e) = node.unreachable() {
            return Err(e);
        }
        if let Some(since) = leaving
            && (node.pending() == 0 || since.elapsed() > Duration::from_secs(3))
        {
            return Err(NodeError::Stopped);
        }
        let deadline = node.next_deadline();
        tokio::select! {
            event = node.swarm.select_next_some() => node.on_swarm_event(event).await?,
            intent = intents.recv(), if leaving.is_none() => match intent {
                Some(Intent::Leave) => {
                    let now = if node.started() {
                        node.leave_game().await
                    } else {
                        node.lobby(|s| s.leave()).await;
                        true
                    };
                    if now {
                        leaving = Some(tokio::time::Instant::now());
                    }
                }
                Some(Intent::Play(mv)) => node.play(mv).await?,
                Some(Intent::Start) => node.lobby(|s| s.request_start()).await,
                Some(Intent::SwapSeats(a, b)) => node.lobby(|s| s.swap_seats(a, b)).await,
                Some(Intent::Ready) => node.lobby(TableSession::ready).await,
                Some(Intent::Say(text)) => node.lobby(|s| s.say(&text)).await,
                Some(Intent::Quit) | None => return Err(NodeError::Stopped),
            },
            Some(done) = node.checker.recv() => node.check_done(&done),
            _ = tick.tick() => {
                node.on_tick().await;
                // The hand's last messages may still be on their way to a seat when ours are
                // answered: the `Quit` waits a tick more, so that it follows them.
                if node.play_out().await? && leaving.is_none() {
                    if quit_due.is_some_and(|since| since.elapsed() >= PLAY_OUT_SETTLE) {
                        node.quit().await;
                        leaving = Some(tokio::time::Instant::now());
                    } else {
                        quit_due.get_or_insert_with(tokio::time::Instant::now);
                    }
                } else {
                    quit_due = None;
                }
            }
            () = sleep_until(deadline) => node.on_deadline(),
        }
    }
}

/// Sleeps until `at`, or for ever when there is no deadline.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
