//! The desktop app: each frame it draws the screen of the moment (the start screen, a
//! table's lobby, the table with its score sheet) from the model, collects what the screen
//! asked for, and hands it to the controller, which does the rest.

use std::path::PathBuf;

use eframe::egui::{self, Ui};

use super::autoplay::AutoPlay;
use super::controller::{Controller, Timing};
use super::frames::{FrameNote, FrameStats, SlowFrames, stats_text, thread_sched};
use super::intent::Intent;
use super::lobby::lobby_ui;
use super::settings::Settings;
use super::sheet::{game_over_window, report_window};
use super::start::start_ui;
use super::table::table_ui;

/// The app.
pub struct FairdealApp {
    /// Remembered settings.
    pub settings: Settings,
    controller: Controller,
    fonts_installed: bool,
    glyphs_warmed: bool,
    /// The previous frame showed a game.
    was_playing: bool,
    /// The zoom this window last chose to fill the screen ([`fit_zoom`]); `None` once the
    /// player zoomed by hand (their zoom stays).
    fitted_zoom: Option<f32>,
    /// Frame times (F12 shows them).
    pub frames: FrameStats,
    /// The time of our own UI code per frame (the rest is egui's tessellation and painting).
    pub ui_times: FrameStats,
    show_frames: bool,
    /// "How to play" is open on the start screen.
    start_help: bool,
    /// Measuring: the player's seat plays itself (`FAIRDEAL_AUTOPLAY=1`), so that a whole
    /// game can be rendered and its frames timed without a person.
    autoplay: Option<AutoPlay>,
    /// `FAIRDEAL_FRAME_STATS`: when the figures were last printed.
    stats_printed: Option<std::time::Instant>,
    /// `FAIRDEAL_FRAME_STATS`: the slowest frames, what was on screen in them.
    pub slow: SlowFrames,
    /// `FAIRDEAL_FRAME_STATS`: the UI thread's CPU time per frame (the frame, the buffer
    /// swap and the events until the next frame), and its time waiting for a CPU.
    pub cpu_times: FrameStats,
    /// See `cpu_times`.
    pub wait_times: FrameStats,
    /// The frame being drawn (completed with eframe's time in the next one).
    note: Option<FrameNote>,
    /// This frame's time in [`eframe::App::logic`] (ms), for its note.
    logic_ms: f32,
    /// Where the table's sounds go (when the player turns them on).
    speaker: Box<dyn super::sound::Speaker>,
    /// The UI thread's scheduler figures at the start of this frame.
    sched_at_start: Option<(u64, u64)>,
    /// The same at the end of our UI code.
    sched_at_ui_end: Option<(u64, u64)>,
    /// A request to close the window held back while a hand is played (see `closing`).
    closing: super::closing::Closing,
}

const SETTINGS_KEY: &str = "fairdeal-settings";

impl FairdealApp {
    fn with(settings: Settings, data_dir: PathBuf, seed: Option<u64>, lan: bool) -> Self {
        Self {
            settings,
            controller: Controller::new(data_dir, seed, lan),
            fonts_installed: false,
            glyphs_warmed: false,
            was_playing: false,
            fitted_zoom: Some(1.0),
            frames: FrameStats::default(),
            ui_times: FrameStats::default(),
            show_frames: false,
            start_help: false,
            autoplay: None,
            stats_printed: None,
            slow: SlowFrames::default(),
            cpu_times: FrameStats::default(),
            wait_times: FrameStats::default(),
            note: None,
            logic_ms: 0.0,
            sched_at_start: None,
            sched_at_ui_end: None,
            speaker: Box::new(super::sound::DeviceSpeaker::default()),
            closing: super::closing::Closing::default(),
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
        if let Some(theme) = std::env::var("FAIRDEAL_THEME")
            .ok()
            .and_then(|t| super::choices::Theme::from_word(&t))
        {
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
    /// Sends the table's sounds to `speaker` instead of the machine's sound device (tests).
    pub fn set_speaker(&mut self, speaker: Box<dyn super::sound::Speaker>) {
        self.speaker = speaker;
    }

    /// Tests: the pacing of the games started from now on (a short grace period, no pause
    /// before computer moves).
    pub fn set_timing(&mut self, timing: Timing) {
        self.controller.set_timing(timing);
    }

    /// Tests: the player's seat plays itself (the `greedy` strategy) and presses "Next hand"
    /// on score sheets.
    pub fn autoplay(&mut self) {
        self.autoplay = AutoPlay::started(false);
    }

    /// Tests: the player's seat plays itself, but leaves score sheets to the test.
    pub fn autoplay_to_sheets(&mut self) {
        self.autoplay = AutoPlay::started(true);
    }

    /// Starts a local game against three computer players.
    pub fn play_now(&mut self, ctx: &egui::Context) {
        self.controller.play_now(ctx, &self.settings);
    }

    /// The status line (refusals, progress), for tests.
    pub fn status(&self) -> Option<&str> {
        self.controller.game().map(|g| g.model.status.as_str())
    }

    /// The move list of the game under way (what it said, oldest first), for tests: a line
    /// may have scrolled out of sight by the time a slow test looks.
    pub fn move_log(&self) -> &[String] {
        self.controller
            .game()
            .map_or(&[], |g| g.model.log.as_slice())
    }

    /// The address of the table this client hosts, once listening (tests, the lobby).
    pub fn table_address(&self) -> Option<String> {
        self.controller
            .game()
            .and_then(|g| g.model.address.as_ref())
            .map(ToString::to_string)
    }

    /// The data directory (identity, settings, game folders).
    pub fn data_dir(&self) -> &std::path::Path {
        self.controller.data_dir()
    }

    /// The game file replayed, when one is shown.
    pub fn replay(&self) -> Option<&super::replay::Replay> {
        self.controller.replay()
    }

    /// The same, to step through it as its keys and buttons do.
    pub fn replay_mut(&mut self) -> Option<&mut super::replay::Replay> {
        self.controller.replaying().0.shown_mut()
    }

    /// Whether a game is on.
    pub fn in_game(&self) -> bool {
        self.controller.game().is_some()
    }

    /// Hands of the game under way that this client saw scored, and hands void (tests).
    pub fn hands_scored_and_void(&self) -> (u32, u32) {
        self.controller
            .game()
            .map_or((0, 0), |g| (g.model.scored, g.model.voided))
    }

    /// Drains network events into the model (never blocks).
    pub fn pump(&mut self) {
        self.controller.pump();
    }

    /// Hands the intents of a frame to the controller (the rules in brief are the window's).
    fn carry_out(&mut self, ctx: &egui::Context, intents: Vec<Intent>) {
        for intent in intents {
            if matches!(intent, Intent::Help) {
                self.start_help = !self.start_help;
            }
            if let Intent::Theme(theme) = intent {
                self.settings.theme = theme;
                self.apply_theme(ctx);
                continue;
            }
            self.controller.handle(ctx, intent, &self.settings);
        }
    }

    /// The autoplayer's turn, if it plays.
    fn autoplay_step(&mut self, ctx: &egui::Context) {
        let mut intents = Vec::new();
        if let (Some(auto), Some(g)) = (&mut self.autoplay, self.controller.game_mut()) {
            auto.step(g, &mut intents);
        }
        self.carry_out(ctx, intents);
    }

    /// `FAIRDEAL_FRAME_STATS`: the figures so far, on standard output.
    fn print_frame_stats(&self) {
        print!(
            "{}",
            stats_text(
                [
                    &self.frames,
                    &self.ui_times,
                    &self.cpu_times,
                    &self.wait_times
                ],
                &self.slow,
            )
        );
    }

    /// The same from another thread, while the game goes on: sorting the figures and
    /// writing them out were themselves the slowest frames of a run when done on this one.
    fn print_frame_stats_aside(&self) {
        let (frames, ui, cpu, wait, slow) = (
            self.frames.clone(),
            self.ui_times.clone(),
            self.cpu_times.clone(),
            self.wait_times.clone(),
            self.slow.clone(),
        );
        std::thread::spawn(move || {
            use std::io::Write as _;
            let text = stats_text([&frames, &ui, &cpu, &wait], &slow);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        });
    }

    /// `FAIRDEAL_FRAME_STATS`: the previous frame's note, completed with eframe's time and
    /// the UI thread's scheduler figures since its start.
    fn note_frame(&mut self, wall: Option<f32>, counted: bool) {
        let now = thread_sched();
        let start = std::mem::replace(&mut self.sched_at_start, now);
        if let (Some(mut note), Some(wall), true) = (self.note.take(), wall, counted) {
            let ms = |ns: u64| ns as f32 / 1e6;
            if let (Some(a), Some(b)) = (start, now) {
                note.cpu = Some(ms(b.0.saturating_sub(a.0)));
                note.wait = Some(ms(b.1.saturating_sub(a.1)));
                note.after_ui = self.sched_at_ui_end.map(|u| ms(b.0.saturating_sub(u.0)));
                self.cpu_times.record(note.cpu.map(|v| v / 1e3));
                self.wait_times.record(note.wait.map(|v| v / 1e3));
            }
            note.wall = wall * 1e3;
            self.slow.record(note);
        }
    }

    /// What is on screen, in a few words (for the slowest frames).
    fn on_screen(&self) -> String {
        let Some(g) = self.controller.game() else {
            return "start screen".to_owned();
        };
        let (m, d) = (&g.model, &g.desk);
        let Some(view) = &m.view else {
            return "no hand on screen".to_owned();
        };
        let melds: usize = [fairdeal_core::Team::A, fairdeal_core::Team::B]
            .into_iter()
            .map(|t| view.melds(t).len())
            .sum();
        format!(
            "hand {}, {}{}{}, {} cards in hand, {melds} melds, {} cards in flight, {} celebrated, {} log lines",
            m.hand_no,
            if m.my_turn { "my turn" } else { "their turn" },
            if d.show_report { ", score sheet" } else { "" },
            if d.help { ", help" } else { "" },
            view.hand().len(),
            d.seen.flights.len(),
            d.seen.completed.len(),
            m.log.len()
        )
    }

    fn apply_theme(&self, ctx: &egui::Context) {
        let pref = match self.settings.theme {
            super::choices::Theme::Light => egui::ThemePreference::Light,
            super::choices::Theme::Dark => egui::ThemePreference::Dark,
            super::choices::Theme::System => egui::ThemePreference::System,
        };
        if ctx.options(|o| o.theme_preference) != pref {
            ctx.set_theme(pref);
        }
    }
}

/// The smallest window the table is laid out for, in points.
pub const TABLE_MIN: egui::Vec2 = egui::vec2(1024.0, 700.0);

/// The size the table is drawn for at 100 %: a bigger window zooms in to fill itself.
pub const TABLE_DESIGN: egui::Vec2 = egui::vec2(1180.0, 780.0);

/// Zooms so that the table fills a window bigger than [`TABLE_DESIGN`] (cards and all grow
/// with it, instead of small cards in a sea of felt), in steps of 5 %, never under 100 %.
/// Once the player zooms by hand (Ctrl and +/−) their zoom is kept: `fitted` becomes `None`.
pub fn fit_zoom(ctx: &egui::Context, fitted: &mut Option<f32>) {
    let Some(last) = *fitted else {
        return;
    };
    let zoom = ctx.zoom_factor();
    if (zoom - last).abs() > 1e-3 {
        *fitted = None;
        return;
    }
    let at_100 = ctx.content_rect().size() * zoom;
    let fill = (at_100.x / TABLE_DESIGN.x).min(at_100.y / TABLE_DESIGN.y);
    let want = ((fill * 20.0).floor() / 20.0).max(1.0);
    if (want - zoom).abs() > 1e-3 {
        ctx.set_zoom_factor(want);
        *fitted = Some(want);
    }
}

/// Keeps zoom (Ctrl and +) within what the window holds: at least [`TABLE_MIN`] points, or
/// 100 % in a smaller window. Without the limit, a zoom lays the move list over the table
/// and pushes the chat out of the window. Returns words for the player when it held the zoom
/// back.
pub fn limit_zoom(ctx: &egui::Context) -> Option<String> {
    let zoom = ctx.zoom_factor();
    let at_100 = ctx.content_rect().size() * zoom;
    // In whole percents: the window's size in points comes back from the zoom a little off.
    let most =
        ((at_100.x / TABLE_MIN.x).min(at_100.y / TABLE_MIN.y) * 100.0 + 0.05).floor() / 100.0;
    let most = most.max(1.0);
    if zoom <= most + 1e-3 {
        return None;
    }
    ctx.set_zoom_factor(most);
    Some(format!(
        "Zoom: at most {:.0} % in a window this size (the table needs {}×{} points); a bigger window zooms further.",
        most * 100.0,
        TABLE_MIN.x,
        TABLE_MIN.y
    ))
}

impl eframe::App for FairdealApp {
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        // Frames during play (the first frames load fonts and are not part of playing).
        // eframe reports the previous frame: count it only if that frame was in play too.
        let playing = self.in_game();
        let was_playing = std::mem::replace(&mut self.was_playing, playing);
        if was_playing && playing {
            self.frames.record(frame.info().cpu_usage);
        }
        if self.stats_printed.is_some() {
            self.note_frame(frame.info().cpu_usage, was_playing && playing);
        }
        if let Some(last) = &mut self.stats_printed
            && last.elapsed().as_secs() >= 10
        {
            *last = std::time::Instant::now();
            self.print_frame_stats_aside();
        }
        let logic_start = std::time::Instant::now();
        self.pump();
        self.controller.ensure_browser(ctx);
        if self.autoplay.as_ref().is_some_and(|a| !a.started)
            && !self.in_game()
            && self.glyphs_warmed
        {
            if let Some(a) = &mut self.autoplay {
                a.started = true;
            }
            self.play_now(ctx);
        }
        if self.autoplay.is_some() && self.in_game() {
            self.autoplay_step(ctx);
            // Keep frames coming while measuring.
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.logic_ms = logic_start.elapsed().as_secs_f32() * 1e3;
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        let start = std::time::Instant::now();
        let measuring = self.stats_printed.is_some();
        let atlas = measuring.then(|| ui.ctx().fonts(|f| f.font_atlas_fill_ratio()));
        self.draw(ui);
        if self.in_game() {
            let took = start.elapsed().as_secs_f32();
            self.ui_times.record(Some(took));
            if let Some(before) = atlas {
                let grew = ui.ctx().fonts(|f| f.font_atlas_fill_ratio()) != before;
                self.note = Some(FrameNote {
                    wall: 0.0,
                    ui: took * 1e3,
                    logic: self.logic_ms,
                    cpu: None,
                    after_ui: None,
                    wait: None,
                    atlas: grew,
                    what: self.on_screen(),
                });
                self.sched_at_ui_end = thread_sched();
            }
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
        let ctx = ui.ctx().clone();
        self.autoplay_step(&ctx);
        self.draw(ui);
    }

    /// Draws the whole window, then carries out what the player asked for in it.
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
        let stake = super::closing::at_stake(
            self.controller
                .game()
                .is_some_and(|g| super::leave::plays_hand_out(&g.model)),
            self.controller.is_leaving(),
        );
        self.closing.guard(ui, stake);
        if self.closing.asking()
            && let Some(g) = self.controller.game_mut()
        {
            // One question at a time: the close question replaces "Leave the table?".
            g.desk.confirm_leave = false;
        }
        fit_zoom(ui.ctx(), &mut self.fitted_zoom);
        if let Some(words) = limit_zoom(ui.ctx())
            && let Some(g) = self.controller.game_mut()
        {
            g.desk.seen.say = Some(words);
        }
        if ui.input(|i| i.key_pressed(egui::Key::F12)) {
            self.show_frames = !self.show_frames;
        }
        if ui.input(|i| i.key_pressed(egui::Key::F1)) {
            match self.controller.game_mut() {
                Some(g) => g.desk.help = !g.desk.help,
                None => self.start_help = !self.start_help,
            }
        }
        // Esc closes the help first (and only the help, when it is open).
        let help = match self.controller.game_mut() {
            Some(g) => &mut g.desk.help,
            None => &mut self.start_help,
        };
        if *help && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
            *help = false;
        }
        // The rules in brief are written only while their window is open.
        match self.controller.game_mut() {
            Some(g) if g.desk.help => {
                if let Some(view) = &g.model.view {
                    super::help::help_window(
                        ui.ctx(),
                        &mut g.desk.help,
                        view.rules(),
                        // An onlooker has no seat to say "you" from.
                        (!g.model.onlooker).then(|| view.seat()),
                    );
                }
            }
            None if self.start_help => {
                let rules = fairdeal_core::Rules::new(self.settings.preset, self.settings.house());
                super::help::help_window(ui.ctx(), &mut self.start_help, &rules, None);
            }
            _ => {}
        }
        if self.controller.is_leaving() {
            // The Resume offer comes back when the left game's nodes have stopped: draw it
            // then, even if nothing else happens.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(200));
        }
        // The background is the clear colour (see `clear_color`): a fill over the whole window
        // here, and another in the frame, were two more layers for a software renderer.
        let mut intents = Vec::new();
        egui::Frame::central_panel(ui.style())
            .fill(egui::Color32::TRANSPARENT)
            .show(ui, |ui| {
                let Self {
                    settings,
                    controller,
                    speaker,
                    ..
                } = self;
                if controller.game().is_none() {
                    if let Some(w) = controller.watching_mut() {
                        w.ui(ui, &mut settings.prefs, &mut intents);
                        return;
                    }
                    let (replaying, recent) = controller.replaying();
                    if super::replay_open::replay_ui(
                        ui,
                        replaying,
                        recent,
                        &mut settings.prefs,
                        &mut intents,
                    ) {
                        return;
                    }
                    start_ui(ui, settings, &controller.start_info(), &mut intents);
                    return;
                }
                match controller.game_mut() {
                    Some(g) if g.in_lobby() => lobby_ui(ui, &g.model, &mut intents),
                    Some(g) => {
                        table_ui(ui, &g.model, &mut g.desk, &mut settings.prefs, &mut intents);
                        // Cues are taken every frame, so turning sounds on plays none of
                        // the moves from before.
                        for cue in std::mem::take(&mut g.desk.seen.cues) {
                            if settings.prefs.sounds {
                                speaker.play(cue);
                            }
                        }
                        // Copied for the settings menu only when it changes (not every frame).
                        if g.desk.sound_trouble.as_deref() != speaker.trouble() {
                            g.desk.sound_trouble = speaker.trouble().map(str::to_owned);
                        }
                        report_window(ui, &g.model, &mut g.desk, &mut intents);
                        game_over_window(ui, &g.model, &g.desk, &mut intents);
                    }
                    None => {}
                }
            });
        if self.show_frames {
            self.frame_times_overlay(ui.ctx());
        }
        let ctx = ui.ctx().clone();
        self.carry_out(&ctx, intents);
    }

    /// F12: the frame times over the window's bottom-left corner, taking no clicks and no
    /// room (a line above the table was painted over by the felt, and pushed the table down).
    fn frame_times_overlay(&self, ctx: &egui::Context) {
        egui::Area::new(egui::Id::unique("frame-times"))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(6.0, -6.0))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.small(format!("Frame times (F12): {}", self.frames.line()));
                });
            });
    }
}

#[cfg(test)]
mod tests {
    use eframe::egui;

    /// The zoom a window of `size` points at 100 % allows when `asked` is asked for.
    fn zoom_allowed(size: egui::Vec2, asked: f32) -> (f32, Option<String>) {
        let ctx = egui::Context::default();
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let run = |f: &mut dyn FnMut(&mut egui::Ui)| {
            ctx.run_ui(input(), |ui| f(ui)).textures_delta.clear();
        };
        run(&mut |_| {});
        ctx.set_zoom_factor(asked);
        let mut said = None;
        run(&mut |ui| said = super::limit_zoom(ui.ctx()));
        run(&mut |_| {});
        (ctx.zoom_factor(), said)
    }

    /// Sabotage caught (checked): without the fit a 1920×1080 window stayed at 100 %.
    #[test]
    fn a_big_window_zooms_to_fill_itself_and_a_hand_zoom_is_kept() {
        let ctx = egui::Context::default();
        let run = |ctx: &egui::Context, size: egui::Vec2, f: &mut dyn FnMut(&egui::Context)| {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            ctx.run_ui(input, |ui| f(ui.ctx())).textures_delta.clear();
        };
        let mut fitted = Some(1.0);
        for _ in 0..3 {
            run(&ctx, egui::vec2(1920.0, 1080.0), &mut |c| {
                super::fit_zoom(c, &mut fitted)
            });
        }
        assert!(
            (ctx.zoom_factor() - 1.35).abs() < 1e-3,
            "{}",
            ctx.zoom_factor()
        );
        let mut small = Some(1.0);
        let ctx2 = egui::Context::default();
        run(&ctx2, egui::vec2(1024.0, 700.0), &mut |c| {
            super::fit_zoom(c, &mut small)
        });
        assert!((ctx2.zoom_factor() - 1.0).abs() < 1e-3, "never under 100 %");
        // The player zooms by hand: kept.
        ctx.set_zoom_factor(1.1);
        run(&ctx, egui::vec2(1920.0, 1080.0), &mut |c| {
            super::fit_zoom(c, &mut fitted)
        });
        assert_eq!(fitted, None);
        assert!((ctx.zoom_factor() - 1.1).abs() < 1e-3);
    }

    #[test]
    fn zoom_stays_within_what_the_window_holds() {
        use egui::vec2;
        let (z, said) = zoom_allowed(vec2(1024.0, 700.0), 1.2);
        assert_eq!(z, 1.0);
        assert!(said.unwrap().contains("at most 100 %"));
        let (z, said) = zoom_allowed(vec2(2048.0, 1400.0), 1.5);
        assert_eq!((z, said), (1.5, None), "room for it");
        let (z, _) = zoom_allowed(vec2(2048.0, 1400.0), 3.0);
        assert!((z - 2.0).abs() < 1e-3, "{z}");
        let (z, said) = zoom_allowed(vec2(800.0, 600.0), 0.8);
        assert_eq!((z, said), (0.8, None), "zooming out is always allowed");
    }
}
