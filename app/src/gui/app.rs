//! The desktop app: the start screen, a table's lobby, the table, the score sheet.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui::{self, Ui};
use fairdeal_core::{HouseRules, Preset, StockEnd};
use fairdeal_net::node::BrowseEvent;
use libp2p::{Multiaddr, PeerId};
use serde::{Deserialize, Serialize};
use tokio::runtime::Runtime;

use super::controller::{self, Browser, GameKind, GameRecord, Repaint, Setup};
use super::frames::FrameStats;
use super::game::Game;
use super::lobby::{LobbyAction, lobby_ui};
use super::sheet::{AfterGame, game_over_window, report_window};
use super::start::{Listed, StartAction, StartInfo, start_ui};
use super::table::table_ui;

/// What is remembered between runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The player's name.
    pub name: String,
    /// The preset.
    pub preset: Preset,
    /// The computer players' level.
    pub difficulty: String,
    /// `system`, `light` or `dark`.
    pub theme: String,
    /// The name of a table this player opens.
    pub table: String,
    /// Its target score.
    pub target: i32,
    /// House rule: ask partner before going out.
    pub must_ask: bool,
    /// House rule (canasta): the pile is always frozen.
    pub pile_always_frozen: bool,
    /// House rule (canasta): classic stock end.
    pub classic_stock_end: bool,
    /// House rule (samba): no steal onto a finished canasta.
    pub no_steal_onto_canasta: bool,
    /// The last address typed in to join.
    pub address: String,
    /// How the table looks and moves (hand order, reduced motion).
    pub prefs: super::prefs::TablePrefs,
    /// A table this player opens: the move clock, minutes a turn (0: none).
    pub move_clock_min: u64,
}

impl Default for Settings {
    fn default() -> Self {
        let name = std::env::var("USER")
            .ok()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Player".to_owned());
        Self {
            // Empty: named after the player when opened (see `table_name`).
            table: String::new(),
            name,
            preset: Preset::Samba,
            difficulty: "medium".to_owned(),
            theme: "system".to_owned(),
            target: 10_000,
            must_ask: false,
            pile_always_frozen: false,
            classic_stock_end: false,
            no_steal_onto_canasta: false,
            address: String::new(),
            prefs: super::prefs::TablePrefs::default(),
            move_clock_min: 0,
        }
    }
}

impl Settings {
    /// The name of the table this player opens: the one typed in, else "Ann's table".
    pub fn table_name(&self) -> String {
        let typed = self.table.trim();
        if !typed.is_empty() {
            return typed.to_owned();
        }
        match self.name.trim() {
            "" | "You" => "A table for four".to_owned(),
            name => format!("{name}'s table"),
        }
    }

    /// The house rules chosen (only what differs from the preset).
    pub fn house(&self) -> HouseRules {
        let default_target = fairdeal_core::Rules::new(self.preset, HouseRules::default()).target;
        let canasta = self.preset == Preset::Canasta;
        HouseRules {
            target: (self.target != default_target).then_some(self.target),
            must_ask: self.must_ask.then_some(true),
            pile_always_frozen: (canasta && self.pile_always_frozen).then_some(true),
            stock_end: (canasta && self.classic_stock_end).then_some(StockEnd::Classic),
            steal_onto_completed_canasta: (!canasta && self.no_steal_onto_canasta).then_some(false),
            ..HouseRules::default()
        }
    }

    fn setup(&self, house: HouseRules, table: &str) -> Setup {
        Setup {
            name: self.name.clone(),
            table: table.to_owned(),
            preset: self.preset,
            house,
            difficulty: self.difficulty.clone(),
            move_clock_ms: self.move_clock_min * 60_000,
            timing: controller::Timing::default(),
        }
    }
}

/// The app.
pub struct FairdealApp {
    /// Remembered settings.
    pub settings: Settings,
    data_dir: PathBuf,
    runtime: Option<Arc<Runtime>>,
    game: Option<Game>,
    error: Option<String>,
    /// Tests: derive every secret of "Play now" from this seed.
    seed: Option<u64>,
    fonts_installed: bool,
    glyphs_warmed: bool,
    /// The previous frame showed a game.
    was_playing: bool,
    /// Search the LAN for tables (off in tests).
    lan: bool,
    browser: Option<Browser>,
    tables: BTreeMap<PeerId, Listed>,
    resumable: Option<(PathBuf, GameRecord)>,
    fingerprint: String,
    /// Frame times (F12 shows them).
    pub frames: FrameStats,
    /// The time of our own UI code per frame (the rest is egui's tessellation and painting).
    pub ui_times: FrameStats,
    show_frames: bool,
    /// "How to play" is open on the start screen.
    start_help: bool,
    repaint: Option<Repaint>,
    /// Measuring: the player's seat plays itself (`FAIRDEAL_AUTOPLAY=1`), so that a whole
    /// game can be rendered and its frames timed without a person.
    autoplay: Option<AutoPlay>,
    /// `FAIRDEAL_FRAME_STATS`: when the figures were last printed.
    stats_printed: Option<std::time::Instant>,
    /// Games left during play, kept a few seconds so that their `Quit` reaches the table
    /// (the computer players this client runs stop when their connection is dropped).
    leaving: Vec<(std::time::Instant, controller::Connection)>,
    /// The pacing of new games' nodes (tests shorten the grace period).
    timing: controller::Timing,
}

/// How long a game left during play is kept running to tell the table.
const LEAVE_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// The player's seat played by a strategy, for frame-time measurements.
struct AutoPlay {
    strategy: Box<dyn fairdeal_core::strategy::Strategy + Send>,
    rng: fairdeal_core::SplitMix64,
    sheet_since: Option<std::time::Instant>,
    started: bool,
    /// `FAIRDEAL_AUTOPLAY=sheet`: stop at the first score sheet (for a screenshot).
    hold_sheet: bool,
}

impl AutoPlay {
    fn from_env() -> Option<Self> {
        let mode = std::env::var("FAIRDEAL_AUTOPLAY").ok()?;
        Self::new(mode == "sheet")
    }

    fn new(hold_sheet: bool) -> Option<Self> {
        Some(Self {
            strategy: fairdeal_core::strategy::by_name("greedy")?,
            rng: fairdeal_core::SplitMix64::new(1),
            sheet_since: None,
            started: false,
            hold_sheet,
        })
    }

    /// Plays the seat's turn, and presses "Next hand" on a score sheet after two seconds.
    fn step(&mut self, g: &mut Game) {
        if g.show_report {
            if self.hold_sheet {
                return;
            }
            let since = *self.sheet_since.get_or_insert_with(std::time::Instant::now);
            if since.elapsed().as_secs() >= 2 && !g.ready_sent {
                g.next_hand();
            }
            return;
        }
        self.sheet_since = None;
        if !g.my_turn {
            return;
        }
        if let Some(view) = g.view.clone()
            && let Some(mv) = self.strategy.choose(&view, &mut self.rng)
        {
            g.send(mv);
        }
    }
}

const SETTINGS_KEY: &str = "fairdeal-settings";

impl FairdealApp {
    fn with(settings: Settings, data_dir: PathBuf, seed: Option<u64>, lan: bool) -> Self {
        let fingerprint = controller::identity(&data_dir, seed)
            .map(|s| {
                fairdeal_crypto::Identity::from_secret(s)
                    .public()
                    .fingerprint()
            })
            .unwrap_or_else(|e| format!("(unavailable: {e})"));
        let resumable = controller::unfinished(&data_dir);
        Self {
            settings,
            data_dir,
            runtime: None,
            game: None,
            error: None,
            seed,
            fonts_installed: false,
            glyphs_warmed: false,
            was_playing: false,
            lan,
            browser: None,
            tables: BTreeMap::new(),
            resumable,
            fingerprint,
            frames: FrameStats::default(),
            ui_times: FrameStats::default(),
            show_frames: false,
            start_help: false,
            repaint: None,
            autoplay: None,
            stats_printed: None,
            leaving: Vec::new(),
            timing: controller::Timing::default(),
        }
    }

    /// The app with remembered settings.
    pub fn new(cc: &eframe::CreationContext<'_>, data_dir: PathBuf) -> Self {
        let settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .unwrap_or_default();
        let mut app = Self::with(settings, data_dir, None, true);
        app.autoplay = AutoPlay::from_env();
        // Screenshots: `FAIRDEAL_THEME=light` (or `dark`, `system`) for this run.
        if let Ok(theme) = std::env::var("FAIRDEAL_THEME") {
            app.settings.theme = theme;
        }
        app.stats_printed = std::env::var_os("FAIRDEAL_FRAME_STATS")
            .is_some()
            .then(std::time::Instant::now);
        app
    }

    /// The app without storage or LAN search, its games dealt from `seed` (tests).
    pub fn for_tests(data_dir: PathBuf, seed: u64) -> Self {
        Self::with(Settings::default(), data_dir, Some(seed), false)
    }

    /// Tests: the pacing of the games started from now on (a short grace period, no pause
    /// before computer moves).
    pub fn set_timing(&mut self, timing: controller::Timing) {
        self.timing = timing;
    }

    /// Tests: the player's seat plays itself (the `greedy` strategy) and presses "Next hand"
    /// on score sheets.
    pub fn autoplay(&mut self) {
        self.autoplay = AutoPlay::new(false).map(|a| AutoPlay { started: true, ..a });
    }

    /// Tests: the player's seat plays itself, but leaves score sheets to the test.
    pub fn autoplay_to_sheets(&mut self) {
        self.autoplay = AutoPlay::new(true).map(|a| AutoPlay { started: true, ..a });
    }

    /// The settings of a new game, with this app's pacing.
    fn new_setup(&self, house: HouseRules, table: &str) -> Setup {
        Setup {
            timing: self.timing,
            ..self.settings.setup(house, table)
        }
    }

    fn runtime(&mut self) -> anyhow::Result<Arc<Runtime>> {
        if let Some(rt) = &self.runtime {
            return Ok(rt.clone());
        }
        let rt = controller::runtime()?;
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

    /// Starts a local game against three computer players.
    pub fn play_now(&mut self, ctx: &egui::Context) {
        let house = HouseRules {
            target: self.settings.house().target,
            ..HouseRules::default()
        };
        let setup = self.new_setup(house, "local");
        let repaint = self.repaint_fn(ctx);
        let result = self
            .runtime()
            .and_then(|rt| controller::start_local(rt, &setup, &self.data_dir, self.seed, repaint));
        self.begin(result, "Shuffling: every player shuffles the deck in turn…");
    }

    fn begin(&mut self, result: anyhow::Result<controller::Connection>, status: &str) {
        match result {
            Ok(conn) => {
                controller::abandon_others(&self.data_dir, Some(&conn.game_dir));
                controller::sweep_unstarted(&self.data_dir, &conn.game_dir);
                self.game = Some(Game::new(conn, status));
                self.error = None;
                self.browser = None;
                self.tables.clear();
            }
            Err(e) => self.error = Some(format!("could not start the game: {e:#}")),
        }
    }

    fn act(&mut self, ctx: &egui::Context, action: StartAction) {
        match action {
            StartAction::PlayNow => self.play_now(ctx),
            StartAction::Host => {
                let setup = self.new_setup(self.settings.house(), &self.settings.table_name());
                let repaint = self.repaint_fn(ctx);
                let result = self
                    .runtime()
                    .and_then(|rt| controller::host(rt, &setup, &self.data_dir, repaint));
                self.begin(result, "Opening the table…");
            }
            StartAction::Join { table, want } => {
                self.join(ctx, table.address.clone(), Some(&table.info), want);
            }
            StartAction::JoinAddress(text) => match text.parse::<Multiaddr>() {
                Ok(a) => self.join(ctx, a, None, None),
                Err(e) => {
                    self.error = Some(format!(
                        "that is not an address ({e}); it looks like /ip4/192.168.1.20/tcp/40123/p2p/12D3Koo…"
                    ));
                }
            },
            StartAction::Resume(dir) => {
                let repaint = self.repaint_fn(ctx);
                let result = self
                    .runtime()
                    .and_then(|rt| controller::resume(rt, &dir, repaint));
                self.begin(result, "Resuming from the game log…");
                self.resumable = None;
            }
            StartAction::Help => self.start_help = !self.start_help,
            StartAction::Abandon(dir) => {
                controller::mark(&dir, true, true);
                controller::abandon_others(&self.data_dir, None);
                self.resumable = controller::unfinished(&self.data_dir);
            }
        }
    }

    fn join(
        &mut self,
        ctx: &egui::Context,
        address: Multiaddr,
        info: Option<&fairdeal_net::table::msg::TableInfo>,
        want: Option<u8>,
    ) {
        let repaint = self.repaint_fn(ctx);
        let name = self.settings.name.clone();
        let timing = self.timing;
        let result = self.runtime().and_then(|rt| {
            controller::join(
                rt,
                address,
                info,
                want,
                &name,
                &self.data_dir,
                timing,
                repaint,
            )
        });
        self.begin(result, "Asking the host for a seat…");
    }

    /// The status line (refusals, progress), for tests.
    pub fn status(&self) -> Option<&str> {
        self.game.as_ref().map(|g| g.status.as_str())
    }

    /// The address of the table this client hosts, once listening (tests, the lobby).
    pub fn table_address(&self) -> Option<String> {
        self.game
            .as_ref()
            .and_then(|g| g.address.as_ref())
            .map(ToString::to_string)
    }

    /// The data directory (identity, settings, game folders).
    pub fn data_dir(&self) -> &std::path::Path {
        &self.data_dir
    }

    /// Whether a game is on.
    pub fn in_game(&self) -> bool {
        self.game.is_some()
    }

    /// Drains network events into the model (never blocks).
    pub fn pump(&mut self) {
        self.leaving
            .retain(|(since, _)| since.elapsed() < LEAVE_GRACE);
        if let Some(g) = &mut self.game {
            while let Ok(ev) = g.conn.events.try_recv() {
                g.apply(ev);
            }
        }
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
    fn ensure_browser(&mut self, ctx: &egui::Context) {
        if !self.lan || self.browser.is_some() || self.game.is_some() {
            return;
        }
        let repaint = self.repaint_fn(ctx);
        if let Ok(rt) = self.runtime() {
            self.browser = Some(controller::browse(&rt, repaint));
        }
    }

    /// `FAIRDEAL_FRAME_STATS`: the figures so far, on standard output.
    fn print_frame_stats(&self) {
        println!("frame times: {}", self.frames.line());
        println!("  of which our UI code: {}", self.ui_times.line());
    }

    fn apply_theme(&self, ctx: &egui::Context) {
        let pref = match self.settings.theme.as_str() {
            "light" => egui::ThemePreference::Light,
            "dark" => egui::ThemePreference::Dark,
            _ => egui::ThemePreference::System,
        };
        if ctx.options(|o| o.theme_preference) != pref {
            ctx.set_theme(pref);
        }
    }
}

impl eframe::App for FairdealApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        // Frames during play (the first frames load fonts and are not part of playing).
        // eframe reports the previous frame: count it only if that frame was in play too.
        let was_playing = std::mem::replace(&mut self.was_playing, self.game.is_some());
        if was_playing && self.game.is_some() {
            self.frames.record(frame.info().cpu_usage);
        }
        if let Some(last) = &mut self.stats_printed
            && last.elapsed().as_secs() >= 10
        {
            *last = std::time::Instant::now();
            self.print_frame_stats();
        }
        self.pump();
        self.ensure_browser(ctx);
        if self.autoplay.as_ref().is_some_and(|a| !a.started)
            && self.game.is_none()
            && self.glyphs_warmed
        {
            if let Some(a) = &mut self.autoplay {
                a.started = true;
            }
            self.play_now(ctx);
        }
        if let (Some(auto), Some(g)) = (&mut self.autoplay, &mut self.game) {
            auto.step(g);
            // Keep frames coming while measuring.
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        let start = std::time::Instant::now();
        self.draw(ui);
        if self.game.is_some() {
            self.ui_times.record(Some(start.elapsed().as_secs_f32()));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if self.stats_printed.is_some() {
            self.print_frame_stats();
        }
    }
}

impl FairdealApp {
    /// Takes network events, then draws (what a frame does; used by tests).
    pub fn draw_and_pump(&mut self, ui: &mut Ui) {
        self.pump();
        if let (Some(auto), Some(g)) = (&mut self.autoplay, &mut self.game) {
            auto.step(g);
        }
        self.draw(ui);
    }

    /// Draws the whole window.
    pub fn draw(&mut self, ui: &mut Ui) {
        if !self.fonts_installed {
            // The suit symbols need the bundled font (it applies from the next frame).
            super::install_fonts(ui.ctx());
            self.fonts_installed = true;
        } else if !self.glyphs_warmed {
            super::warm_glyphs(ui.ctx());
            self.glyphs_warmed = true;
        }
        self.apply_theme(ui.ctx());
        if ui.input(|i| i.key_pressed(egui::Key::F12)) {
            self.show_frames = !self.show_frames;
        }
        if ui.input(|i| i.key_pressed(egui::Key::F1)) {
            match &mut self.game {
                Some(g) => g.help = !g.help,
                None => self.start_help = !self.start_help,
            }
        }
        // The rules in brief are written only while their window is open.
        match &mut self.game {
            Some(g) if g.help => {
                if let Some(view) = &g.view {
                    super::help::help_window(ui.ctx(), &mut g.help, view.rules());
                }
            }
            None if self.start_help => {
                let rules = fairdeal_core::Rules::new(self.settings.preset, self.settings.house());
                super::help::help_window(ui.ctx(), &mut self.start_help, &rules);
            }
            _ => {}
        }
        if !self.leaving.is_empty() {
            // The Resume offer comes back when the table has been told: draw it then, even
            // if nothing else happens.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(500));
        }
        let fill = ui.visuals().panel_fill;
        ui.painter().rect_filled(ui.max_rect(), 0.0, fill);
        egui::Frame::central_panel(ui.style()).show(ui, |ui| {
            if self.show_frames {
                ui.small(self.frames.line());
            }
            let ctx = ui.ctx().clone();
            match &mut self.game {
                None => {
                    let info = StartInfo {
                        fingerprint: &self.fingerprint,
                        tables: &self.tables,
                        // A game still telling the table that we leave is not offered yet
                        // (its log is in use for a few more seconds).
                        resumable: self.resumable.as_ref().filter(|(dir, _)| {
                            !self.leaving.iter().any(|(_, c)| &c.game_dir == dir)
                        }),
                        lan: self.lan,
                        error: self.error.as_deref(),
                        data_dir: &self.data_dir,
                    };
                    if let Some(action) = start_ui(ui, &mut self.settings, &info) {
                        self.act(&ctx, action);
                    }
                }
                Some(g) if g.view.is_none() && g.config.is_none() => {
                    if lobby_ui(ui, g) == Some(LobbyAction::Leave) {
                        self.leave();
                    }
                }
                Some(g) => {
                    table_ui(ui, g, &mut self.settings.prefs);
                    if std::mem::take(&mut g.leave_asked) {
                        self.leave_game();
                        return;
                    }
                    report_window(ui, g);
                    let kind = g.conn.record.kind;
                    match game_over_window(ui, g) {
                        Some(AfterGame::PlayAgain) => {
                            self.leave();
                            match kind {
                                GameKind::Local => self.play_now(&ctx),
                                GameKind::Host => self.act(&ctx, StartAction::Host),
                                GameKind::Join => {}
                            }
                        }
                        Some(AfterGame::Leave) => self.leave(),
                        None => {}
                    }
                }
            }
        });
    }

    /// Leaves a game under way: the table is told (a computer player takes the seat at
    /// once), the start screen comes back, and Resume there gives the seat back.
    fn leave_game(&mut self) {
        if let Some(g) = self.game.take() {
            let _ = g.conn.intents.try_send(fairdeal_net::node::Intent::Leave);
            self.leaving.push((std::time::Instant::now(), g.conn));
        }
        self.resumable = controller::unfinished(&self.data_dir);
    }

    fn leave(&mut self) {
        if let Some(g) = self.game.take()
            && g.config.is_none()
        {
            // A table left before it started: the others are told, and there is nothing to
            // resume.
            let _ = g.conn.intents.try_send(fairdeal_net::node::Intent::Leave);
            controller::mark(&g.conn.game_dir, false, true);
        }
        self.resumable = controller::unfinished(&self.data_dir);
    }
}
