//! The games' nodes, on one tokio runtime in the background: the player's node (its events
//! forwarded to the UI thread, which drains them without ever blocking), the computer
//! players this client runs, and the LAN browser. Each game has a folder `games/<stamp>/`
//! under the data directory: `game.json` (see [`super::records`]), `me/` (the player's game
//! log) and `bot-N/` (the computer players run here), so a client closed mid-game resumes it
//! from the logs. Only the controller calls these.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use fairdeal_core::Seat;
use fairdeal_net::node::{self, BrowseEvent, Intent, NodeEvent, NodeOptions, Role};
use libp2p::Multiaddr;
use tokio::runtime::Runtime;
use tokio::sync::{mpsc, oneshot, watch};

use super::records::GameRecord;
use crate::local::{Computers, listen_addr};

mod start;

pub use self::start::{host, join, resume, start_local};
use crate::peer::random32;

/// Called after every event, to wake the UI.
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// What the UI thread hears from the player's node.
#[derive(Debug)]
pub enum Update {
    /// An event of the node's.
    Node(NodeEvent),
    /// The node stopped with this error (nothing follows).
    Stopped(String),
}

/// How much nicer than the window the nodes' threads run (Linux nice values).
const NODE_NICE: i32 = 10;

/// The background runtime (one per app).
pub fn runtime() -> Result<Arc<Runtime>> {
    // The UI thread keeps a core of its own on a two-core machine, and the nodes' threads run
    // at a lower priority: their cryptography (four nodes in a local game) waits for a frame,
    // never a frame for it.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1));
    Ok(Arc::new(node::runtime_niced(workers, NODE_NICE)?))
}

/// A game seen from the UI thread.
pub struct Connection {
    /// Intents to the player's node.
    pub intents: mpsc::Sender<Intent>,
    /// Events from it (drained by the controller in `App::logic`).
    pub events: mpsc::Receiver<Update>,
    /// The game's folder.
    pub game_dir: PathBuf,
    /// What it is.
    pub record: GameRecord,
    /// The player's identity at the table.
    pub key: fairdeal_crypto::PublicKey,
    runtime: Arc<Runtime>,
    /// Dropped with the connection (or by [`Connection::stop_computers`]): stops the computer
    /// players run here.
    stop: Option<watch::Sender<()>>,
    /// Set by [`Connection::leave_computers`]: the computer players run here leave the table
    /// as a person does (the hand played out, then a signed quit).
    leave: watch::Sender<bool>,
    secrets: Secrets,
    /// Held by the player's node task while it runs.
    player_alive: Arc<()>,
    /// Held by each computer player's task while it runs.
    computers_alive: Arc<()>,
    /// The relay of a table beyond the LAN: the computer players run here reserve a circuit
    /// there too, so that friends in other homes can reach them.
    relay: Option<Multiaddr>,
}

/// Where identities and per-game secrets come from: the OS, or (tests) one seed.
#[derive(Debug, Clone, Copy)]
struct Secrets {
    seed: Option<u64>,
}

impl Secrets {
    fn fresh(&self, what: &str, n: u64) -> [u8; 32] {
        match self.seed {
            Some(s) => fairdeal_crypto::hash::hash256(
                b"fairdeal/test-secrets",
                &[&s.to_le_bytes(), what.as_bytes(), &n.to_le_bytes()],
            ),
            None => random32(),
        }
    }
}

/// The player's identity secret, kept in `me/identity.key` under the data directory (made on
/// first use: from the OS, or in tests from `seed`).
///
/// # Errors
///
/// The file cannot be read or written.
pub fn identity(data_dir: &Path, seed: Option<u64>) -> Result<[u8; 32]> {
    let secrets = Secrets { seed };
    fairdeal_net::store::identity_secret(&data_dir.join("me"), || secrets.fresh("identity", 0))
        .map_err(|e| anyhow!("{e}"))
}

/// Makes a new game folder for `record`: `game.json`, and `me/` with a copy of the player's
/// identity (it lives outside the game folders, its fingerprint is theirs; the copy beside
/// the game log lets `fairdeal verify` read it). Returns the folder and the identity.
fn new_folder(
    data_dir: &Path,
    record: &GameRecord,
    seed: Option<u64>,
) -> Result<(PathBuf, [u8; 32])> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let game_dir = data_dir.join("games").join(format!("{stamp:024}"));
    fairdeal_net::store::private_dir(&game_dir.join("me"))
        .with_context(|| format!("creating {}", game_dir.display()))?;
    record.write(&game_dir)?;
    let secret = identity(data_dir, seed)?;
    fairdeal_net::store::identity_secret(&game_dir.join("me"), || secret)
        .map_err(|e| anyhow!("{e}"))?;
    Ok((game_dir, secret))
}

/// The player's node in `game_dir` (a person: it waits for them between hands).
fn player_options(game_dir: &Path, record: &GameRecord, role: Role, name: &str) -> NodeOptions {
    NodeOptions {
        data_dir: game_dir.join("me"),
        listen: listen_addr(record.lan()),
        mdns: record.lan(),
        role,
        bot: None,
        name: name.to_owned(),
        grace_ms: record.grace_ms,
        hold: false,
        want: None,
        think_ms: 0,
        move_clock_ms: 0,
        wait_for_person: true,
        // A local game (resumed) has one person: the sheet waits for them.
        countdown: record.lan(),
        relay: None,
    }
}

/// The player's node started on the runtime: its events go to the UI (and its first listen
/// address to `on_listen`); the UI's intents to it.
struct Player {
    opts: NodeOptions,
    secret: [u8; 32],
    master: [u8; 32],
    on_listen: Option<oneshot::Sender<Multiaddr>>,
}

fn spawn_player(
    runtime: Arc<Runtime>,
    player: Player,
    game_dir: PathBuf,
    record: GameRecord,
    secrets: Secrets,
    repaint: Repaint,
) -> Connection {
    let Player {
        opts,
        secret,
        master,
        mut on_listen,
    } = player;
    let relay = opts.relay.clone();
    let key = fairdeal_crypto::Identity::from_secret(secret).public();
    let (ui_tx, ui_rx) = mpsc::channel(4096);
    let (in_tx, in_rx) = mpsc::channel(64);
    let (ev_tx, mut ev_rx) = mpsc::channel(4096);
    let player_alive = Arc::new(());
    let alive = player_alive.clone();
    runtime.spawn(async move {
        let _alive = alive;
        let mut run = Box::pin(node::run(opts, secret, master, ev_tx, in_rx));
        loop {
            tokio::select! {
                ev = ev_rx.recv() => match ev {
                    Some(ev) => {
                        if let NodeEvent::Listening(a) = &ev
                            && let Some(tx) = on_listen.take()
                        {
                            let _ = tx.send(a.clone());
                        }
                        // The UI may be gone (the player left): the node still finishes what
                        // it was doing (telling the host it leaves), then stops.
                        if ui_tx.send(Update::Node(ev)).await.is_ok() {
                            repaint();
                        }
                    }
                    None => {
                        let _ = (&mut run).await;
                        return;
                    }
                },
                result = &mut run => {
                    // Pass on what is left, then say how it ended.
                    while let Ok(ev) = ev_rx.try_recv() {
                        let _ = ui_tx.send(Update::Node(ev)).await;
                    }
                    if let Err(e) = result {
                        let _ = ui_tx.send(Update::Stopped(e.to_string())).await;
                    }
                    repaint();
                    return;
                }
            }
        }
    });
    let (stop, _) = watch::channel(());
    let (leave, _) = watch::channel(false);
    Connection {
        intents: in_tx,
        events: ui_rx,
        game_dir,
        record,
        key,
        runtime,
        stop: Some(stop),
        leave,
        secrets,
        player_alive,
        computers_alive: Arc::new(()),
        relay,
    }
}

/// What a computer player task run here watches.
#[derive(Clone)]
struct ComputerHandles {
    /// Fires (or closes) when the computer players stop at once.
    stop: watch::Receiver<()>,
    /// Turns true when they leave the table as a person does.
    leave: watch::Receiver<bool>,
    /// Held while the task runs.
    alive: Arc<()>,
}

/// Runs the computer player `opts` (the `n`th of this client's game, from 1) on `runtime`
/// until its game ends or `stop` fires; its events are dropped. Told to leave, it leaves the
/// table as a person does: its node plays the hand out and quits, so that the table takes its
/// seat over at the next hand rather than waiting out its silence. It holds `alive` while it
/// runs (its log is locked until then).
fn run_computer(
    runtime: &Runtime,
    opts: NodeOptions,
    n: u64,
    secrets: Secrets,
    handles: ComputerHandles,
) -> tokio::task::JoinHandle<()> {
    let ComputerHandles {
        mut stop,
        mut leave,
        alive,
    } = handles;
    runtime.spawn(async move {
        let _alive = alive;
        let Ok(secret) =
            fairdeal_net::store::identity_secret(&opts.data_dir, || secrets.fresh("bot", n))
        else {
            return;
        };
        let master = secrets.fresh("bot-master", n);
        let (tx, mut rx) = mpsc::channel(256);
        let (itx, irx) = mpsc::channel(4);
        tokio::spawn(async move { while rx.recv().await.is_some() {} });
        let mut run = Box::pin(node::run(opts, secret, master, tx, irx));
        let mut told = *leave.borrow_and_update();
        if told {
            let _ = itx.try_send(Intent::Leave);
        }
        loop {
            tokio::select! {
                _ = &mut run => break,
                _ = stop.changed() => break,
                changed = leave.changed(), if !told => {
                    // A closed channel has nothing more to say.
                    told = changed.is_err() || *leave.borrow_and_update();
                    if changed.is_ok() && told {
                        let _ = itx.try_send(Intent::Leave);
                    }
                }
            }
        }
    })
}

impl Connection {
    /// What a computer player task run here watches: the stop signal (a closed one when the
    /// computer players were stopped already), the leave signal, and the token it holds while
    /// it runs.
    fn computer_handles(&self) -> ComputerHandles {
        let stop = self
            .stop
            .as_ref()
            .map_or_else(|| watch::channel(()).1, watch::Sender::subscribe);
        ComputerHandles {
            stop,
            leave: self.leave.subscribe(),
            alive: self.computers_alive.clone(),
        }
    }

    /// Stops the computer players run here (at once; their logs stay).
    pub fn stop_computers(&mut self) {
        self.stop = None;
    }

    /// The computer players run here leave the table as their person does: each plays its
    /// hand out and signs its quit, and stops.
    pub fn leave_computers(&self) {
        self.leave.send_replace(true);
    }

    /// Whether every computer player run here has stopped.
    pub fn computers_stopped(&self) -> bool {
        Arc::strong_count(&self.computers_alive) == 1
    }

    /// Whether the player's node has stopped.
    pub fn player_stopped(&self) -> bool {
        Arc::strong_count(&self.player_alive) == 1
    }

    /// Whether every node of this game run here has stopped (their logs are free again).
    pub fn all_stopped(&self) -> bool {
        self.player_stopped() && self.computers_stopped()
    }

    /// How this game's computer players play.
    fn computers(&self) -> Computers {
        start::computers(&self.record)
    }

    /// Runs computer players in this client's folders `bot-N` (new, or resumed from their
    /// logs), joining the table at `address`; each `(N, seat)` asks for that seat and is named
    /// after it. They stop when the connection is dropped.
    fn spawn_bots(&self, bots: &[(usize, Option<Seat>)], address: Option<Multiaddr>) {
        let computers = self.computers();
        for &(i, want) in bots {
            let dir = self.game_dir.join(format!("bot-{i}"));
            let opts = NodeOptions {
                relay: self.relay.clone(),
                ..computers.options(dir, want, address.clone())
            };
            run_computer(
                &self.runtime,
                opts,
                i as u64 + 1,
                self.secrets,
                self.computer_handles(),
            );
        }
    }

    /// Host: computer players take the empty `seats` and the game starts.
    pub fn fill_and_start(&mut self, seats: &[Seat], address: Multiaddr) {
        let first = self.record.bots.len();
        let bots: Vec<(usize, Option<Seat>)> = seats
            .iter()
            .enumerate()
            .map(|(k, &seat)| (first + k, Some(seat)))
            .collect();
        for (i, _) in &bots {
            self.record.bots.push(format!("bot-{i}"));
        }
        let _ = self.record.write(&self.game_dir);
        self.spawn_bots(&bots, Some(address));
        let _ = self.intents.try_send(Intent::Start);
    }
}

/// The LAN browser: tables found, as events.
pub struct Browser {
    /// Tables appearing, changing and leaving.
    pub events: mpsc::Receiver<BrowseEvent>,
}

/// Asks the host at `address` what table it holds (no LAN search): its answer comes as a
/// [`BrowseEvent::Found`]; stops when dropped.
pub fn probe(runtime: &Runtime, address: Multiaddr, repaint: Repaint) -> Browser {
    let (tx, rx) = mpsc::channel(16);
    let (inner_tx, mut inner_rx) = mpsc::channel(16);
    runtime.spawn(async move {
        let _ = node::browse(random32(), false, vec![address], inner_tx).await;
    });
    runtime.spawn(async move {
        while let Some(ev) = inner_rx.recv().await {
            if tx.send(ev).await.is_err() {
                return;
            }
            repaint();
        }
    });
    Browser { events: rx }
}

/// Starts looking for tables on the LAN; stops when dropped.
pub fn browse(runtime: &Runtime, repaint: Repaint) -> Browser {
    let (tx, rx) = mpsc::channel(256);
    let (inner_tx, mut inner_rx) = mpsc::channel(256);
    runtime.spawn(async move {
        let _ = node::browse(random32(), true, Vec::new(), inner_tx).await;
    });
    runtime.spawn(async move {
        while let Some(ev) = inner_rx.recv().await {
            if tx.send(ev).await.is_err() {
                return;
            }
            repaint();
        }
    });
    Browser { events: rx }
}
