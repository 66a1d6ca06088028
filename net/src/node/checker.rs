//! The node's proof-check thread: the checks of the other seats' shuffle proofs
//! ([`ProofCheck`]) run here, at a lower priority than the rest of the process, so that a seat
//! proving its own step (the critical path of a hand's start) keeps its core while the others
//! check, and a window keeps drawing while its computer players do. Results come back to the
//! node loop ([`Checker::recv`]); the thread ends with the node.

use std::sync::mpsc as std_mpsc;

use tokio::sync::mpsc;

use crate::hand::{CheckDone, ProofCheck};

/// How much nicer than the thread that starts it the thread is (Linux nice values).
const CHECK_NICE: i32 = 10;

/// Runs proof checks on a thread of its own.
pub(crate) struct Checker {
    /// To the thread, started with the first check (`None` before, or if it could not start).
    jobs: Option<std_mpsc::Sender<ProofCheck>>,
    done_tx: mpsc::UnboundedSender<CheckDone>,
    done: mpsc::UnboundedReceiver<CheckDone>,
}

impl Checker {
    /// A checker; its thread starts with the first check.
    pub(crate) fn new() -> Self {
        let (done_tx, done) = mpsc::unbounded_channel();
        Self {
            jobs: None,
            done_tx,
            done,
        }
    }

    /// Runs `check` on the thread. If the thread cannot be started (or is gone) the check
    /// runs here, at once, and its result is queued the same way.
    pub(crate) fn submit(&mut self, check: ProofCheck) {
        if self.jobs.is_none() {
            self.jobs = self.spawn();
        }
        let check = match &self.jobs {
            Some(jobs) => match jobs.send(check) {
                Ok(()) => return,
                Err(std_mpsc::SendError(check)) => check,
            },
            None => check,
        };
        self.jobs = None;
        let _ = self.done_tx.send(check.run());
    }

    /// The next result (never ends: the checker holds a sender itself).
    pub(crate) async fn recv(&mut self) -> Option<CheckDone> {
        self.done.recv().await
    }

    fn spawn(&self) -> Option<std_mpsc::Sender<ProofCheck>> {
        let (tx, rx) = std_mpsc::channel::<ProofCheck>();
        let done = self.done_tx.clone();
        let spawned = std::thread::Builder::new()
            .name("fairdeal-checks".into())
            .spawn(move || {
                super::priority::lower_this_thread(CHECK_NICE);
                while let Ok(check) = rx.recv() {
                    if done.send(check.run()).is_err() {
                        return;
                    }
                }
            });
        match spawned {
            Ok(_) => Some(tx),
            Err(e) => {
                tracing::warn!("no proof-check thread ({e}): checks run in the node's task");
                None
            }
        }
    }
}
