//! The bridge between the UI thread and the network. One tokio runtime in the background runs
//! the nodes (the player's, and the computer players this client hosts) and the LAN browser;
//! the UI sends intents with `try_send` and drains events without ever blocking.
//!
//! Every game has a folder `games/<stamp>/` under the data directory: `game.json` (what to
//! restart), `me/` (the player's game log) and `bot-N/` (the computer players run here), so a
//! client closed mid-game resumes it from the logs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_net::node::{self, BrowseEvent, Intent, NodeEvent, NodeOptions, Role};
use fairdeal_net::table::msg::TableInfo;
use libp2p::Multiaddr;
use serde::{Deserialize, Serialize};
use tokio::runtime::Runtime;
use tokio::sync::{mpsc, watch};

use crate::peer::random32;

/// How the status line that ends a player's node begins.
pub(crate) const STOPPED: &str = "the game stopped";

/// Called after every event, to wake the UI.
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// How this client takes part in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// "Play now": this client runs all four seats over loopback.
    Local,
    /// A table this client opened on the LAN.
    Host,
    /// A table on the LAN this client joined.
    Join,
}

/// What a game folder's `game.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// How this client takes part.
    pub kind: GameKind,
    /// The table's name.
    pub table: String,
    /// The preset.
    pub preset: Preset,
    /// The computer players' level.
    pub difficulty: String,
    /// House rules as JSON.
    #[serde(default)]
    pub house: String,
    /// Folders (in the game folder) of the computer players this client runs.
    pub bots: Vec<String>,
    /// The game started (four seats signed the table).
    pub started: bool,
    /// The game ended or was left for good.
    pub over: bool,
    /// How long the computer players this client runs wait before each move (ms).
    #[serde(default = "pace_ms")]
    pub pace_ms: u64,
    /// How long this client's nodes wait for a silent seat before voting it out (ms; `None`:
    /// the table's default).
    #[serde(default)]
    pub grace_ms: Option<u64>,
}

/// The pacing of a new game's nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How long the computer players this client runs wait before each move (ms).
    pub pace_ms: u64,
    /// How long a silent seat is waited for (ms; `None`: the table's default).
    pub grace_ms: Option<u64>,
}

impl Default for Timing {
    fn default() -> Self {
        Self {
            pace_ms: pace_ms(),
            grace_ms: None,
        }
    }
}

/// How long computer players wait before each move in the window, so that a person can follow
/// (ms; `FAIRDEAL_PACE_MS` overrides it, e.g. 0 for tests and measurements).
pub const WINDOW_PACE_MS: u64 = 700;

/// The pace for a new game: [`WINDOW_PACE_MS`] unless `FAIRDEAL_PACE_MS` says otherwise.
pub fn pace_ms() -> u64 {
    std::env::var("FAIRDEAL_PACE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(WINDOW_PACE_MS)
}

impl GameRecord {
    /// Whether the game is played over the LAN (listening on every interface, with mDNS).
    pub fn lan(&self) -> bool {
        self.kind != GameKind::Local
    }

    fn write(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        fairdeal_net::store::write_private(&dir.join("game.json"), text.as_bytes())
            .with_context(|| format!("writing {}", dir.join("game.json").display()))
    }

    fn read(dir: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(dir.join("game.json")).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// The newest game that started and did not end, if any: (its folder, what it is).
pub fn unfinished(data_dir: &Path) -> Option<(PathBuf, GameRecord)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(data_dir.join("games"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    dirs.sort();
    dirs.into_iter().rev().find_map(|d| {
        GameRecord::read(&d)
            .filter(|r| r.started && !r.over && d.join("me").join("GAME.fdlog").exists())
            .map(|r| (d, r))
    })
}

/// Marks a game folder started or over.
pub fn mark(game_dir: &Path, started: bool, over: bool) {
    if let Some(mut r) = GameRecord::read(game_dir) {
        r.started |= started;
        r.over |= over;
        let _ = r.write(game_dir);
    }
}

/// Gives a game folder's table its name (a guest who joined by address learns it when the
/// game starts).
pub fn rename(game_dir: &Path, table: &str) {
    if let Some(mut r) = GameRecord::read(game_dir)
        && r.table != table
    {
        table.clone_into(&mut r.table);
        let _ = r.write(game_dir);
    }
}

/// Marks every game that started and did not end over, but `keep`: only the newest game is
/// ever offered back, so the older ones would otherwise come back one after another.
pub fn abandon_others(data_dir: &Path, keep: Option<&Path>) {
    let Ok(entries) = std::fs::read_dir(data_dir.join("games")) else {
        return;
    };
    for dir in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if keep.is_some_and(|k| k == dir) {
            continue;
        }
        if GameRecord::read(&dir).is_some_and(|r| r.started && !r.over) {
            mark(&dir, true, true);
        }
    }
}

/// Removes the folders of games that never started (a lobby left, a table closed, a host
/// out of reach), but `keep`: nothing in them was signed by the table, and they would
/// otherwise pile up, one per try.
pub fn sweep_unstarted(data_dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(data_dir.join("games")) else {
        return;
    };
    for dir in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if dir != keep && GameRecord::read(&dir).is_some_and(|r| !r.started) {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// The background runtime (one per app).
pub fn runtime() -> Result<Arc<Runtime>> {
    // The UI thread keeps a core of its own on a two-core machine: the nodes' crypto (four of
    // them in a local game) never delays a frame.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1));
    Ok(Arc::new(node::runtime(workers)?))
}

/// A game seen from the UI thread.
pub struct Connection {
    /// Intents to the player's node.
    pub intents: mpsc::Sender<Intent>,
    /// Events from it (drained in `App::logic`).
    pub events: mpsc::Receiver<NodeEvent>,
    /// The game's folder.
    pub game_dir: PathBuf,
    /// What it is.
    pub record: GameRecord,
    runtime: Arc<Runtime>,
    /// Dropped with the connection: stops the computer players run here.
    stop: watch::Sender<()>,
    secrets: Secrets,
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

/// How a game is set up from the start screen.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The player's name.
    pub name: String,
    /// The table's name.
    pub table: String,
    /// The preset.
    pub preset: Preset,
    /// House rules (the target included).
    pub house: HouseRules,
    /// The computer players' level.
    pub difficulty: String,
    /// The move clock, ms a turn (0: none).
    pub move_clock_ms: u64,
    /// The pacing of this client's nodes.
    pub timing: Timing,
}

/// A new game of the player's.
struct NewGame<'a> {
    record: GameRecord,
    role: Role,
    hold: bool,
    want: Option<u8>,
    name: &'a str,
    seed: Option<u64>,
    move_clock_ms: u64,
}

/// Starts the player's node in a new game folder.
fn start_game(
    runtime: Arc<Runtime>,
    data_dir: &Path,
    new: NewGame<'_>,
    repaint: Repaint,
) -> Result<Connection> {
    let NewGame {
        record,
        role,
        hold,
        want,
        name,
        seed,
        move_clock_ms,
    } = new;
    let secrets = Secrets { seed };
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let game_dir = data_dir.join("games").join(format!("{stamp:024}"));
    fairdeal_net::store::private_dir(&game_dir.join("me"))
        .with_context(|| format!("creating {}", game_dir.display()))?;
    record.write(&game_dir)?;
    // The player's identity lives outside the game folders (its fingerprint is theirs); a
    // copy sits beside each game log so that `fairdeal verify` can read it.
    let secret = identity(data_dir, seed)?;
    fairdeal_net::store::identity_secret(&game_dir.join("me"), || secret)
        .map_err(|e| anyhow!("{e}"))?;
    let opts = NodeOptions {
        data_dir: game_dir.join("me"),
        listen: listen_addr(record.lan()),
        mdns: record.lan(),
        role,
        bot: None,
        name: name.to_owned(),
        grace_ms: record.grace_ms,
        hold,
        want,
        think_ms: 0,
        move_clock_ms,
        wait_for_person: true,
    };
    let master = secrets.fresh("master", 0);
    Ok(spawn_player(
        runtime, opts, secret, master, game_dir, record, secrets, repaint,
    ))
}

fn listen_addr(lan: bool) -> Multiaddr {
    let text = if lan {
        "/ip4/0.0.0.0/tcp/0"
    } else {
        "/ip4/127.0.0.1/tcp/0"
    };
    text.parse().unwrap_or_else(|_| Multiaddr::empty())
}

#[allow(clippy::too_many_arguments)]
fn spawn_player(
    runtime: Arc<Runtime>,
    opts: NodeOptions,
    secret: [u8; 32],
    master: [u8; 32],
    game_dir: PathBuf,
    record: GameRecord,
    secrets: Secrets,
    repaint: Repaint,
) -> Connection {
    let (ui_tx, ui_rx) = mpsc::channel(4096);
    let (in_tx, in_rx) = mpsc::channel(64);
    let (ev_tx, mut ev_rx) = mpsc::channel(4096);
    runtime.spawn(async move {
        let mut run = Box::pin(node::run(opts, secret, master, ev_tx, in_rx));
        loop {
            tokio::select! {
                ev = ev_rx.recv() => match ev {
                    Some(ev) => {
                        // The UI may be gone (the player left): the node still finishes what
                        // it was doing (telling the host it leaves), then stops.
                        if ui_tx.send(ev).await.is_ok() {
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
                        let _ = ui_tx.send(ev).await;
                    }
                    if let Err(e) = result {
                        let _ = ui_tx.send(NodeEvent::Status(format!("{STOPPED}: {e}"))).await;
                    }
                    repaint();
                    return;
                }
            }
        }
    });
    let (stop, _) = watch::channel(());
    Connection {
        intents: in_tx,
        events: ui_rx,
        game_dir,
        record,
        runtime,
        stop,
        secrets,
    }
}

impl Connection {
    /// Runs computer players in this client's folders `bot-N` (new, or resumed from their
    /// logs), joining the table at `address`; each `(N, seat)` asks for that seat and is named
    /// after it. They stop when the connection is dropped.
    pub fn spawn_bots(&self, bots: &[(usize, Option<u8>)], address: Option<Multiaddr>) {
        for &(i, want) in bots {
            let dir = self.game_dir.join(format!("bot-{i}"));
            let secrets = self.secrets;
            let Ok(secret) =
                fairdeal_net::store::identity_secret(&dir, || secrets.fresh("bot", i as u64 + 1))
            else {
                continue;
            };
            let name = want.map_or_else(
                || "Computer".to_owned(),
                |w| format!("Computer {}", Seat::from_index(usize::from(w)).name()),
            );
            let opts = NodeOptions {
                data_dir: dir,
                listen: listen_addr(self.record.lan()),
                mdns: false,
                role: Role::Join {
                    address: address.clone(),
                    table: None,
                },
                bot: Some(self.record.difficulty.clone()),
                name,
                grace_ms: self.record.grace_ms,
                hold: false,
                want,
                think_ms: self.record.pace_ms,
                move_clock_ms: 0,
                wait_for_person: false,
            };
            let master = secrets.fresh("bot-master", i as u64 + 1);
            let mut stop = self.stop.subscribe();
            self.runtime.spawn(async move {
                let (tx, mut rx) = mpsc::channel(256);
                let (_keep, irx) = mpsc::channel(4);
                tokio::spawn(async move { while rx.recv().await.is_some() {} });
                tokio::select! {
                    _ = Box::pin(node::run(opts, secret, master, tx, irx)) => {}
                    _ = stop.changed() => {}
                }
            });
        }
    }

    /// Host: computer players take the empty `seats` and the game starts.
    pub fn fill_and_start(&mut self, seats: &[u8], address: Multiaddr) {
        let first = self.record.bots.len();
        let bots: Vec<(usize, Option<u8>)> = seats
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

/// Starts a local table: this player at South, three computer players, over loopback.
///
/// # Errors
///
/// The game folder cannot be written.
pub fn start_local(
    runtime: Arc<Runtime>,
    setup: &Setup,
    data_dir: &Path,
    seed: Option<u64>,
    repaint: Repaint,
) -> Result<Connection> {
    // The computer players join once the player's node listens (see `fill_and_start`).
    open_table(runtime, setup, data_dir, GameKind::Local, seed, repaint)
}

/// Opens a table on the LAN (held: the host starts it from the lobby).
///
/// # Errors
///
/// The game folder cannot be written.
pub fn host(
    runtime: Arc<Runtime>,
    setup: &Setup,
    data_dir: &Path,
    repaint: Repaint,
) -> Result<Connection> {
    open_table(runtime, setup, data_dir, GameKind::Host, None, repaint)
}

/// A table this player opens and sits South at: local, or held for the LAN lobby.
fn open_table(
    runtime: Arc<Runtime>,
    setup: &Setup,
    data_dir: &Path,
    kind: GameKind,
    seed: Option<u64>,
    repaint: Repaint,
) -> Result<Connection> {
    let record = GameRecord {
        kind,
        table: setup.table.clone(),
        preset: setup.preset,
        difficulty: setup.difficulty.clone(),
        house: fairdeal_net::table::msg::house_to_json(&setup.house),
        bots: Vec::new(),
        started: false,
        over: false,
        pace_ms: setup.timing.pace_ms,
        grace_ms: setup.timing.grace_ms,
    };
    let role = Role::Host {
        table: setup.table.clone(),
        preset: setup.preset,
        house: setup.house.clone(),
    };
    start_game(
        runtime,
        data_dir,
        NewGame {
            record,
            role,
            hold: kind == GameKind::Host,
            want: None,
            name: &setup.name,
            seed,
            move_clock_ms: setup.move_clock_ms,
        },
        repaint,
    )
}

/// Joins the table at `address` (`info`: what the browser said about it), asking for seat
/// `want`.
///
/// # Errors
///
/// The game folder cannot be written.
#[allow(clippy::too_many_arguments)]
pub fn join(
    runtime: Arc<Runtime>,
    address: Multiaddr,
    info: Option<&TableInfo>,
    want: Option<u8>,
    name: &str,
    data_dir: &Path,
    timing: Timing,
    repaint: Repaint,
) -> Result<Connection> {
    let record = GameRecord {
        kind: GameKind::Join,
        // Joined by address: the name comes with the game's start (see `rename`).
        table: info.map_or_else(String::new, |i| i.name.clone()),
        preset: info.map_or(Preset::Samba, |i| i.preset),
        difficulty: String::new(),
        house: info.map_or_else(
            || "{}".to_owned(),
            |i| fairdeal_net::table::msg::house_to_json(&HouseRules::from(&i.house)),
        ),
        bots: Vec::new(),
        started: false,
        over: false,
        pace_ms: timing.pace_ms,
        grace_ms: timing.grace_ms,
    };
    let role = Role::Join {
        address: Some(address),
        table: None,
    };
    start_game(
        runtime,
        data_dir,
        NewGame {
            record,
            role,
            hold: false,
            want,
            name,
            seed: None,
            move_clock_ms: 0,
        },
        repaint,
    )
}

/// Resumes the game in `game_dir` from its logs (the player's and its computer players').
///
/// # Errors
///
/// The folder holds no game to resume.
pub fn resume(runtime: Arc<Runtime>, game_dir: &Path, repaint: Repaint) -> Result<Connection> {
    let record = GameRecord::read(game_dir).ok_or_else(|| anyhow!("no game.json here"))?;
    let me = game_dir.join("me");
    let secret = fairdeal_net::store::read_identity(&me)
        .ok_or_else(|| anyhow!("the game's identity is missing"))?;
    let opts = NodeOptions {
        data_dir: me,
        listen: listen_addr(record.lan()),
        mdns: record.lan(),
        // Rebuilt from the log: the role only matters for a new game.
        role: Role::Join {
            address: None,
            table: None,
        },
        bot: None,
        name: String::new(),
        grace_ms: record.grace_ms,
        hold: false,
        want: None,
        think_ms: 0,
        move_clock_ms: 0,
        wait_for_person: true,
    };
    let bots = record.bots.len();
    let conn = spawn_player(
        runtime,
        opts,
        secret,
        random32(),
        game_dir.to_owned(),
        record,
        Secrets { seed: None },
        repaint,
    );
    let bots: Vec<(usize, Option<u8>)> = (0..bots).map(|i| (i, None)).collect();
    conn.spawn_bots(&bots, None);
    Ok(conn)
}

/// The LAN browser: tables found, as events.
pub struct Browser {
    /// Tables appearing, changing and leaving.
    pub events: mpsc::Receiver<BrowseEvent>,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(started: bool, over: bool) -> GameRecord {
        GameRecord {
            kind: GameKind::Local,
            table: "t".to_owned(),
            preset: Preset::Samba,
            difficulty: "easy".to_owned(),
            house: "{}".to_owned(),
            bots: Vec::new(),
            started,
            over,
            pace_ms: 0,
            grace_ms: None,
        }
    }

    fn game(root: &Path, name: &str, r: &GameRecord, log: bool) -> PathBuf {
        let dir = root.join("games").join(name);
        std::fs::create_dir_all(dir.join("me")).unwrap();
        r.write(&dir).unwrap();
        if log {
            std::fs::write(dir.join("me").join("GAME.fdlog"), b"x").unwrap();
        }
        dir
    }

    #[test]
    fn the_newest_started_unfinished_game_with_a_log_is_offered() {
        let root = std::env::temp_dir().join(format!("fairdeal-unfinished-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        assert!(unfinished(&root).is_none(), "no games folder yet");
        game(&root, "001", &record(true, false), true);
        game(&root, "002", &record(false, false), true); // never started
        game(&root, "003", &record(true, true), true); // over
        game(&root, "004", &record(true, false), false); // no log
        std::fs::create_dir_all(root.join("games").join("005")).unwrap(); // no game.json
        std::fs::write(root.join("games").join("006"), b"not a folder").unwrap();
        let (dir, r) = unfinished(&root).unwrap();
        assert!(dir.ends_with("001"));
        assert!(r.started && !r.over);
        // Abandoned: nothing is offered any more.
        mark(&dir, true, true);
        assert!(unfinished(&root).is_none());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_damaged_game_record_is_ignored() {
        let root = std::env::temp_dir().join(format!("fairdeal-damaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = game(&root, "001", &record(true, false), true);
        std::fs::write(dir.join("game.json"), b"{ not json").unwrap();
        assert!(unfinished(&root).is_none());
        mark(&dir, true, true); // no panic, nothing to mark
        let _ = std::fs::remove_dir_all(&root);
    }
}
