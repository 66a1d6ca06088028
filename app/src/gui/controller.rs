//! The controller: the one owner of the window's side effects. It holds the background
//! runtime, the game under way (its connection to the player's node, and its model), the
//! LAN browser and the games still telling their table that we left; it feeds the node's
//! events into the model (writing the game folder's record as the game starts and ends), and
//! carries out the screens' intents: starting, joining, resuming and leaving games, moves,
//! chat and seat changes to the node, computer players for empty seats, and the verify
//! screen's checks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use eframe::egui;
use fairdeal_core::HouseRules;
use fairdeal_net::node::{self, BrowseEvent, NodeEvent};
use fairdeal_net::table::TableEvent;
use fairdeal_net::transcript::Report;
use libp2p::{Multiaddr, PeerId};
use tokio::runtime::Runtime;

use super::game::Game;
use super::intent::{AskFirst, Intent};
pub use super::records::Timing;
use super::records::{self, GameKind, GameRecord};
use super::session::{self, Browser, Connection, Repaint, Update};
use super::settings::Settings;
use super::start::{Listed, StartInfo};
use super::verify::Check;

/// How long the computer players of a LAN game left during play may go on once the
/// player's node has stopped: they end the same hand, and each signs its quit after its last
/// messages are answered, settles and flushes (a few seconds, more on a loaded machine).
const LEAVE_GRACE: std::time::Duration = std::time::Duration::from_secs(15);

/// How long a left game's nodes are waited for at most once the player's node has stopped,
/// before the game is offered to resume (they stop within moments of being told; past this
/// the offer comes anyway).
const LEAVE_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

/// A game left, whose nodes are still telling the table.
struct Leaving {
    /// When the player's node stopped.
    player_gone: Option<Instant>,
    /// Its nodes.
    conn: Connection,
}

/// The game under way: the connection to the player's node, and what the screens show.
struct Current {
    conn: Connection,
    game: Game,
    /// A table joined by address: the host asked "what table is this?" until it answers.
    probe: Option<Browser>,
}

/// The window's side effects, in one place.
pub struct Controller {
    data_dir: PathBuf,
    /// Tests: derive every secret of "Play now" from this seed.
    seed: Option<u64>,
    /// Search the LAN for tables (off in tests).
    lan: bool,
    /// The pacing of new games' nodes (tests shorten the grace period).
    timing: Timing,
    runtime: Option<Arc<Runtime>>,
    repaint: Option<Repaint>,
    current: Option<Current>,
    browser: Option<Browser>,
    tables: BTreeMap<PeerId, Listed>,
    resumable: Option<(PathBuf, GameRecord)>,
    fingerprint: String,
    error: Option<String>,
    /// Games left during play, kept until their nodes have stopped (a LAN game's player node
    /// first tells the table; the computer players this client runs stop after it).
    leaving: Vec<Leaving>,
    /// The verify screen: this user's recent transcripts, the last check and where its
    /// outcome comes from (a thread of its own).
    recent: Vec<records::Recent>,
    check: Option<(
        Check,
        std::sync::mpsc::Receiver<Result<Report, fairdeal_net::transcript::ReadError>>,
    )>,
    /// Play now, a table opened or joined while a game waits to be resumed: held until the
    /// player says what becomes of the waiting game.
    ask_first: Option<Intent>,
    /// A game file replayed (or its form, or the file being read).
    replaying: super::replay_open::Replaying,
    /// A LAN table watched as a spectator.
    watching: Option<super::watch::Watching>,
}

impl Controller {
    /// The controller of a window on `data_dir`.
    pub fn new(data_dir: PathBuf, seed: Option<u64>, lan: bool) -> Self {
        let fingerprint = session::identity(&data_dir, seed)
            .map(|s| {
                fairdeal_crypto::Identity::from_secret(s)
                    .public()
                    .fingerprint()
            })
            .unwrap_or_else(|e| format!("(unavailable: {e})"));
        let resumable = records::unfinished(&data_dir);
        let error = records::unreadable(&data_dir).map(|dir| {
            format!(
                "The record of your last game ({}) cannot be read, so it cannot be offered to \
                 resume; its log and transcript are kept in that folder.",
                dir.join("game.json").display()
            )
        });
        Self {
            data_dir,
            seed,
            lan,
            timing: Timing::default(),
            runtime: None,
            repaint: None,
            current: None,
            browser: None,
            tables: BTreeMap::new(),
            resumable,
            fingerprint,
            error,
            leaving: Vec::new(),
            recent: Vec::new(),
            check: None,
            ask_first: None,
            replaying: super::replay_open::Replaying::default(),
            watching: None,
        }
    }

    /// The pacing of the games started from now on.
    pub fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }

    /// The data directory (identity, settings, game folders).
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The game under way.
    pub fn game(&self) -> Option<&Game> {
        self.current.as_ref().map(|c| &c.game)
    }

    /// The game under way, for the screens (its desk changes as the player works).
    pub fn game_mut(&mut self) -> Option<&mut Game> {
        self.current.as_mut().map(|c| &mut c.game)
    }

    /// Whether a game left during play is still telling its table.
    pub fn is_leaving(&self) -> bool {
        !self.leaving.is_empty()
    }

    /// What the start screen shows besides the settings.
    pub fn start_info(&self) -> StartInfo<'_> {
        StartInfo {
            fingerprint: &self.fingerprint,
            tables: &self.tables,
            // A game still telling the table that we leave is not offered yet (its log is in
            // use for a few more seconds).
            resumable: self
                .resumable
                .as_ref()
                .filter(|(dir, _)| !self.leaving.iter().any(|l| &l.conn.game_dir == dir)),
            playing_out: self
                .leaving
                .iter()
                .find(|l| l.conn.record.kind != GameKind::Local && !l.conn.player_stopped())
                .map(|l| l.conn.record.table.as_str()),
            ask_first: self.ask_first.as_ref().and_then(|a| {
                let (dir, r) = self.waiting_game()?;
                Some(super::start::Question {
                    record: r,
                    resume: (!self.leaving.iter().any(|l| &l.conn.game_dir == dir))
                        .then(|| dir.clone()),
                    instead: a.words(),
                })
            }),
            lan: self.lan,
            error: self.error.as_deref(),
            recent: &self.recent,
            check: self.check.as_ref().map(|(c, _)| c),
        }
    }

    fn runtime(&mut self) -> anyhow::Result<Arc<Runtime>> {
        if let Some(rt) = &self.runtime {
            return Ok(rt.clone());
        }
        let rt = session::runtime()?;
        self.runtime = Some(rt.clone());
        Ok(rt)
    }

    fn repaint_fn(&mut self, ctx: &egui::Context) -> Repaint {
        self.repaint
            .get_or_insert_with(|| {
                let ctx = ctx.clone();
                Arc::new(move || ctx.request_repaint())
            })
            .clone()
    }

    /// Drains the network's events into the model (never blocks); the game folder's record
    /// is marked as the game starts and ends.
    pub fn pump(&mut self) {
        for l in &mut self.leaving {
            let c = &mut l.conn;
            if c.player_stopped() {
                l.player_gone.get_or_insert_with(Instant::now);
            }
            // A LAN game's computer players run here play their hand out and quit with the
            // player (stopped at once, they would leave their seats silent and the table
            // would wait out the grace period for them); a while after the player's node
            // stopped they are stopped anyway. The grace counts from then, not from the
            // leave, as the player may play a long hand out first. (A game against the
            // computer stopped them as it was left.)
            if l.player_gone.is_some_and(|t| t.elapsed() >= LEAVE_GRACE) {
                c.stop_computers();
            }
        }
        // Dropping a connection stops its computer players, so it is kept until they stop.
        self.leaving.retain(|l| {
            !l.conn.all_stopped() && l.player_gone.is_none_or(|t| t.elapsed() < LEAVE_LIMIT)
        });
        if let Some(Current { conn, game, probe }) = &mut self.current {
            while let Ok(update) = conn.events.try_recv() {
                record_progress(conn, &update);
                let said = matches!(update, Update::Node(NodeEvent::Table(TableEvent::Chat(_))));
                game.apply(update);
                if said {
                    super::chat_file::save(&conn.game_dir, &game.model.chat);
                }
            }
            if let Some(p) = probe
                && let Ok(BrowseEvent::Found(t)) = p.events.try_recv()
            {
                let listed = Listed::from(t);
                game.table_found(&listed);
                let name = fairdeal_net::table::clean_name(&listed.table.info.name);
                if conn.record.table != name {
                    records::rename(&conn.game_dir, &name);
                    conn.record.table = name;
                }
                *probe = None;
            }
        }
        if let Some((check, done)) = &mut self.check
            && let Ok(outcome) = done.try_recv()
        {
            check.outcome = Some(outcome);
        }
        self.replaying.poll();
        if let Some(b) = &mut self.browser {
            while let Ok(ev) = b.events.try_recv() {
                match ev {
                    BrowseEvent::Found(t) => {
                        self.tables.insert(t.peer, Listed::from(t));
                    }
                    BrowseEvent::Lost(p) => {
                        self.tables.remove(&p);
                    }
                }
            }
        }
    }

    /// Starts the LAN search while the start screen shows.
    pub fn ensure_browser(&mut self, ctx: &egui::Context) {
        if !self.lan || self.browser.is_some() || self.current.is_some() {
            return;
        }
        let repaint = self.repaint_fn(ctx);
        if let Ok(rt) = self.runtime() {
            self.browser = Some(session::browse(&rt, repaint));
        }
    }

    /// Carries out what a screen asked for (`settings`: the start screen's choices).
    pub fn handle(&mut self, ctx: &egui::Context, intent: Intent, settings: &Settings) {
        if let Some(wrong) = typed_wrong(&intent) {
            // Said before anything is asked or given up: a typo never costs a waiting game.
            self.error = Some(wrong);
            return;
        }
        if intent.starts_a_game() && self.waiting_game().is_some() {
            // Starting another game gives the waiting one up: never without asking.
            self.ask_first = Some(intent);
            return;
        }
        match intent {
            Intent::AskedFirst(answer) => self.asked_first(ctx, answer, settings),
            Intent::PlayNow => self.play_now(ctx, settings),
            Intent::Host => self.host(ctx, settings),
            Intent::Join { table, want } => {
                self.join(
                    ctx,
                    table.address.clone(),
                    Some(&table.info),
                    want,
                    settings,
                );
            }
            Intent::JoinInvite(text) => match invitation(&text) {
                Ok(inv) => {
                    let relay = inv.relay();
                    self.join_via(ctx, inv.address, None, settings.join_seat, relay, settings);
                }
                Err(e) => self.error = Some(e),
            },
            Intent::JoinAddress(text) => match address(&text) {
                Ok(a) => self.join(ctx, a, None, settings.join_seat, settings),
                Err(e) => self.error = Some(e),
            },
            Intent::Resume(dir) => {
                records::note_left(&dir, false);
                // Tried afresh: said again if nobody answers this time either.
                records::note_unanswered(&dir, false);
                let repaint = self.repaint_fn(ctx);
                let result = self
                    .runtime()
                    .and_then(|rt| session::resume(rt, &dir, repaint));
                self.begin(result, "Resuming from the game log…");
                self.resumable = None;
            }
            Intent::Abandon(dir) => {
                records::mark(&dir, true, true);
                records::abandon_others(&self.data_dir, None);
                self.resumable = records::unfinished(&self.data_dir);
            }
            // The window's own (no side effect): the app opens the rules.
            Intent::Help => {}
            Intent::OpenVerify => {
                // Each visit starts afresh: the last visit's outcome is not shown again.
                self.check = None;
                self.recent = records::recent(&self.data_dir);
            }
            Intent::Verify(path) => self.verify(ctx, path),
            Intent::OpenReplay => {
                self.recent = records::recent(&self.data_dir);
                self.replaying = super::replay_open::Replaying::Form {
                    path: String::new(),
                    failed: None,
                };
            }
            Intent::Replay(path) => self.open_replay(ctx, path),
            Intent::CloseReplay => self.replaying = super::replay_open::Replaying::Closed,
            Intent::Watch(t) => {
                self.open_watch(ctx, &t.info.name, t.address.clone(), &settings.name)
            }
            Intent::WatchLobby => {
                let asked = self.current.as_ref().and_then(|c| {
                    let m = &c.game.model;
                    m.host_at.clone().map(|a| (m.table.clone(), a))
                });
                if let Some((table, address)) = asked {
                    self.leave();
                    self.open_watch(ctx, &table, address, &settings.name);
                }
            }
            Intent::CloseWatch => {
                if let Some(w) = self.watching.take() {
                    w.leave();
                }
            }
            Intent::LeaveGame => self.leave_game(),
            Intent::Leave => self.leave(),
            Intent::PlayAgain => {
                let kind = self.current.as_ref().map(|c| c.conn.record.kind);
                self.leave();
                match kind {
                    Some(GameKind::Local) => self.play_now(ctx, settings),
                    Some(GameKind::Host) => self.host(ctx, settings),
                    Some(GameKind::Join) | None => {}
                }
            }
            intent => {
                if let Some(Current { conn, game, .. }) = &mut self.current {
                    to_node(conn, game, intent);
                }
            }
        }
    }

    /// The game that waits to be resumed (or is still being played out after its player
    /// left), if any.
    fn waiting_game(&self) -> Option<(&PathBuf, &GameRecord)> {
        self.resumable.as_ref().map(|(d, r)| (d, r))
    }

    /// The player's answer to "a game waits to be resumed": resume it, give it up and do what
    /// was asked, or neither.
    fn asked_first(&mut self, ctx: &egui::Context, answer: AskFirst, settings: &Settings) {
        let (Some(held), Some(dir)) = (
            self.ask_first.take(),
            self.waiting_game().map(|(d, _)| d.clone()),
        ) else {
            return;
        };
        match answer {
            AskFirst::Resume => self.handle(ctx, Intent::Resume(dir), settings),
            AskFirst::LeaveForGood => {
                self.handle(ctx, Intent::Abandon(dir), settings);
                self.resumable = None;
                self.handle(ctx, held, settings);
            }
            AskFirst::Cancel => {}
        }
    }

    /// Starts a local game against three computer players.
    pub fn play_now(&mut self, ctx: &egui::Context, settings: &Settings) {
        let house = HouseRules {
            target: settings.house().target,
            ..HouseRules::default()
        };
        let setup = settings.setup(house, "local", self.timing);
        let repaint = self.repaint_fn(ctx);
        let (data_dir, seed) = (self.data_dir.clone(), self.seed);
        let result = self
            .runtime()
            .and_then(|rt| session::start_local(rt, &setup, &data_dir, seed, repaint));
        self.begin(result, "Shuffling: every player shuffles the deck in turn…");
    }

    fn host(&mut self, ctx: &egui::Context, settings: &Settings) {
        let setup = settings.setup(settings.house(), &settings.table_name(), self.timing);
        if let Err(e) = node::relay::parse_relay(&setup.relay) {
            self.error = Some(format!(
                "\"{}\" is not a relay's address: {e}. It looks like /ip4/203.0.113.7/tcp/4001/p2p/12D3Koo… (fairdeal relay prints it); leave it empty for a LAN table.",
                setup.relay
            ));
            return;
        }
        let repaint = self.repaint_fn(ctx);
        let data_dir = self.data_dir.clone();
        let result = self
            .runtime()
            .and_then(|rt| session::host(rt, &setup, &data_dir, repaint));
        self.begin(result, "Opening the table…");
    }

    fn join(
        &mut self,
        ctx: &egui::Context,
        address: Multiaddr,
        info: Option<&fairdeal_net::table::msg::TableInfo>,
        want: Option<u8>,
        settings: &Settings,
    ) {
        self.join_via(ctx, address, info, want, None, settings);
    }

    /// Joins at `address`, through `relay` when the table is beyond the LAN.
    fn join_via(
        &mut self,
        ctx: &egui::Context,
        address: Multiaddr,
        info: Option<&fairdeal_net::table::msg::TableInfo>,
        want: Option<u8>,
        relay: Option<Multiaddr>,
        settings: &Settings,
    ) {
        let repaint = self.repaint_fn(ctx);
        let (data_dir, timing) = (self.data_dir.clone(), self.timing);
        let direct = relay.is_none();
        let result = self.runtime().and_then(|rt| {
            session::join(
                rt,
                address.clone(),
                info,
                want,
                relay,
                &settings.name,
                &data_dir,
                timing,
                repaint,
            )
        });
        self.begin(result, "Asking the host for a seat…");
        // The host's answer to "what table is this?" names a table joined by address and
        // says whether every seat is taken (then the lobby offers to watch instead). A table
        // beyond the LAN is reached only through its relay, which neither the probe nor a
        // spectator uses.
        let repaint = self.repaint_fn(ctx);
        if let (Some(c), Some(rt), true) = (&mut self.current, &self.runtime, direct) {
            c.game.model.host_at = Some(address.clone());
            c.probe = Some(session::probe(rt, address, repaint));
        }
    }

    fn begin(&mut self, result: anyhow::Result<Connection>, status: &str) {
        match result {
            Ok(conn) => {
                records::abandon_others(&self.data_dir, Some(&conn.game_dir));
                records::sweep_unstarted(&self.data_dir, &conn.game_dir);
                // Off the window's thread: the first time, many games' folders may go.
                let (data_dir, keep) = (self.data_dir.clone(), conn.game_dir.clone());
                std::thread::spawn(move || records::prune_over(&data_dir, &keep));
                let mut game = Game::new(&conn.record, status);
                game.model.key = Some(conn.key);
                // The chat this client kept for the game (a game resumed shows it again).
                game.model.chat = super::chat_file::load(&conn.game_dir);
                self.current = Some(Current {
                    conn,
                    game,
                    probe: None,
                });
                self.error = None;
                self.browser = None;
                self.tables.clear();
            }
            Err(e) => self.error = Some(format!("could not start the game: {e:#}")),
        }
    }

    /// Checks the transcript at `path` on a thread of its own (the window shows the outcome
    /// when it comes).
    fn verify(&mut self, ctx: &egui::Context, path: String) {
        let (tx, rx) = std::sync::mpsc::channel();
        let repaint = self.repaint_fn(ctx);
        let file = PathBuf::from(&path);
        std::thread::spawn(move || {
            let _ = tx.send(crate::verify::check(&file));
            repaint();
        });
        let check = Check {
            path,
            outcome: None,
        };
        self.check = Some((check, rx));
    }

    /// Reads and plays back the game file at `path` on a thread of its own (every deal is
    /// checked again); the window shows the replay when it is ready.
    fn open_replay(&mut self, ctx: &egui::Context, path: String) {
        let (tx, rx) = std::sync::mpsc::channel();
        let repaint = self.repaint_fn(ctx);
        let file = PathBuf::from(&path);
        std::thread::spawn(move || {
            let _ = tx.send(fairdeal_net::playback::open(&file).map_err(|e| e.to_string()));
            repaint();
        });
        self.replaying = super::replay_open::Replaying::Loading { path, done: rx };
    }

    /// Watches the table `table` at `address` as a spectator, on the window's runtime.
    fn open_watch(&mut self, ctx: &egui::Context, table: &str, address: Multiaddr, name: &str) {
        let repaint = self.repaint_fn(ctx);
        match self.runtime() {
            Ok(rt) => {
                if let Some(w) = self.watching.take() {
                    w.leave();
                }
                self.watching = Some(super::watch::Watching::start(
                    &rt,
                    table,
                    address,
                    name.to_owned(),
                    repaint,
                ));
            }
            Err(e) => self.error = Some(format!("cannot watch: {e}")),
        }
    }

    /// The table watched, if one is.
    pub fn watching_mut(&mut self) -> Option<&mut super::watch::Watching> {
        self.watching.as_mut()
    }

    /// The replay shown, if one is.
    pub fn replay(&self) -> Option<&super::replay::Replay> {
        self.replaying.shown()
    }

    /// The replay (or its form) and this user's recent game files, for the window.
    pub fn replaying(&mut self) -> (&mut super::replay_open::Replaying, &[records::Recent]) {
        (&mut self.replaying, &self.recent)
    }

    /// Leaves a game under way; the start screen comes back. A game on the LAN is told (a
    /// computer player takes the seat at once) and Resume gives the seat back at the next
    /// hand. A game against this client's own computer players is put aside as it stands:
    /// every node stops, as when the window closes, and Resume goes on from the same turn.
    fn leave_game(&mut self) {
        if let Some(mut c) = self.current.take() {
            records::note_left(&c.conn.game_dir, true);
            if c.conn.record.kind == GameKind::Local {
                let _ = c.conn.intents.try_send(node::Intent::Quit);
                c.conn.stop_computers();
            } else {
                if super::leave::plays_hand_out(&c.game.model) {
                    // The others are told now, not only when the hand ends.
                    let line = super::game::LEAVING_LINE.to_owned();
                    let _ = c.conn.intents.try_send(node::Intent::Say(line));
                }
                let _ = c.conn.intents.try_send(node::Intent::Leave);
                c.conn.leave_computers();
            }
            self.leaving.push(Leaving {
                player_gone: None,
                conn: c.conn,
            });
        }
        self.resumable = records::unfinished(&self.data_dir);
    }

    /// Back to the start screen from a lobby or a game that is over.
    fn leave(&mut self) {
        if let Some(c) = self.current.take()
            && c.game.model.config.is_none()
        {
            // A table left before it started: the others are told, and there is nothing to
            // resume. A started game whose resume failed (a damaged log, say) stays
            // resumable: only the player gives it up.
            let _ = c.conn.intents.try_send(node::Intent::Leave);
            if !c.conn.record.started {
                records::mark(&c.conn.game_dir, false, true);
            }
        }
        self.resumable = records::unfinished(&self.data_dir);
    }
}

/// The game folder's record follows the game (see `records::follow`).
fn record_progress(conn: &mut Connection, update: &Update) {
    if let Update::Node(NodeEvent::Table(ev)) = update {
        records::follow(&conn.game_dir, &mut conn.record, ev);
    }
}

/// What the player's node is told for an intent of the table or the lobby, and what the
/// model learns of it.
fn to_node(conn: &mut Connection, game: &mut Game, intent: Intent) {
    const BUSY: &str = "The game is busy; try again.";
    let m = &mut game.model;
    match intent {
        Intent::Play(mv) => {
            if conn.intents.try_send(node::Intent::Play(mv)).is_ok() {
                game.sent();
            } else {
                m.status = BUSY.to_owned();
            }
        }
        Intent::Say(text) => {
            let text = fairdeal_net::table::chat::clean_chat(&text);
            if !text.is_empty() && conn.intents.try_send(node::Intent::Say(text)).is_err() {
                m.status = BUSY.to_owned();
            }
        }
        Intent::Ready => {
            // Once a hand: the table counts who is ready.
            let sent = !m.ready_sent && conn.intents.try_send(node::Intent::Ready).is_ok();
            m.ready_sent |= sent;
        }
        Intent::SwapSeats(a, b) => {
            let _ = conn.intents.try_send(node::Intent::SwapSeats(a, b));
        }
        Intent::StartTable => {
            if let Some(address) = m.address.clone()
                && !m.start_asked
            {
                m.start_asked = true;
                let seats: Vec<_> = fairdeal_core::Seat::ALL
                    .into_iter()
                    .filter(|s| m.roster[s.index()].is_none())
                    .collect();
                conn.fill_and_start(&seats, address);
            }
        }
        _ => {}
    }
}

/// A typed address, or what is wrong with it in words.
fn address(text: &str) -> Result<Multiaddr, String> {
    let a = text.parse::<Multiaddr>().map_err(|e| {
        format!(
            "that is not an address ({e}); it looks like /ip4/192.168.1.20/tcp/40123/p2p/12D3Koo…"
        )
    })?;
    match node::dial_problem(&a) {
        None => Ok(a),
        Some(why) => Err(format!("that address cannot be reached: {why}")),
    }
}

/// A pasted invitation, or what is wrong with it in words.
fn invitation(text: &str) -> Result<node::invite::Invitation, String> {
    node::invite::Invitation::parse(text).map_err(|e| format!("That is not an invitation: {e}."))
}

/// What is wrong with an address or invitation the player typed, if anything.
fn typed_wrong(intent: &Intent) -> Option<String> {
    match intent {
        Intent::JoinAddress(text) => address(text).err(),
        Intent::JoinInvite(text) => invitation(text).err(),
        _ => None,
    }
}
