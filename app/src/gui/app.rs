//! The desktop app: a start screen ("Play now"), the table, the score sheet.

use std::path::PathBuf;

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::{Card, Move, Phase, PlayerView, Preset, Seat, Team};
use fairdeal_net::hand::{Event as HandEvent, HandReport};
use fairdeal_net::node::{Intent, NodeEvent};
use fairdeal_net::table::TableEvent;
use serde::{Deserialize, Serialize};

use super::cards::{self, HAND, SMALL};
use super::controller::{self, Connection};

/// What is remembered between runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The player's name.
    pub name: String,
    /// The preset of "Play now".
    pub preset: Preset,
    /// The computer players' level.
    pub difficulty: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            name: std::env::var("USER").unwrap_or_else(|_| "You".to_owned()),
            preset: Preset::Samba,
            difficulty: "medium".to_owned(),
        }
    }
}

/// A game on screen.
pub struct Game {
    conn: Connection,
    view: Option<PlayerView>,
    my_turn: bool,
    selected: Vec<Card>,
    /// New melds prepared but not yet played (taken from the hand only when played).
    plan: Vec<Vec<Card>>,
    moves: TurnMoves,
    log: Vec<String>,
    status: String,
    report: Option<(u32, HandReport)>,
    show_report: bool,
    totals: [i32; 2],
    over: Option<String>,
    waiting: Vec<Seat>,
}

/// This seat's options for the current turn.
#[derive(Debug, Clone, Default)]
struct TurnMoves {
    legal: Vec<Move>,
    opening: Option<Move>,
    finish: Option<Move>,
}

/// The app.
pub struct FairdealApp {
    /// Remembered settings.
    pub settings: Settings,
    data_dir: PathBuf,
    game: Option<Game>,
    error: Option<String>,
    /// Tests: derive every secret of "Play now" from this seed.
    seed: Option<u64>,
    fonts_installed: bool,
}

const SETTINGS_KEY: &str = "fairdeal-settings";

impl FairdealApp {
    /// The app with remembered settings.
    pub fn new(cc: &eframe::CreationContext<'_>, data_dir: PathBuf) -> Self {
        let settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .unwrap_or_default();
        Self {
            settings,
            data_dir,
            game: None,
            error: None,
            seed: None,
            fonts_installed: false,
        }
    }

    /// The app without storage, its games dealt from `seed` (tests).
    pub fn for_tests(data_dir: PathBuf, seed: u64) -> Self {
        Self {
            settings: Settings::default(),
            data_dir,
            game: None,
            error: None,
            seed: Some(seed),
            fonts_installed: false,
        }
    }

    /// Starts a local game against three computer players.
    pub fn play_now(&mut self, ctx: &egui::Context) {
        let repaint_ctx = ctx.clone();
        match controller::start_local(
            self.settings.preset,
            &self.settings.difficulty,
            &self.settings.name,
            self.data_dir.clone(),
            self.seed,
            move || repaint_ctx.request_repaint(),
        ) {
            Ok(conn) => {
                self.game = Some(Game {
                    conn,
                    view: None,
                    my_turn: false,
                    selected: Vec::new(),
                    plan: Vec::new(),
                    moves: TurnMoves::default(),
                    log: Vec::new(),
                    status: "Shuffling: every player shuffles the deck in turn…".to_owned(),
                    report: None,
                    show_report: false,
                    totals: [0, 0],
                    over: None,
                    waiting: Vec::new(),
                });
                self.error = None;
            }
            Err(e) => self.error = Some(format!("could not start the game: {e}")),
        }
    }

    /// The status line (refusals, progress), for tests.
    pub fn status(&self) -> Option<&str> {
        self.game.as_ref().map(|g| g.status.as_str())
    }

    /// Whether a game is on.
    pub fn in_game(&self) -> bool {
        self.game.is_some()
    }

    /// Drains network events into the model (never blocks).
    pub fn pump(&mut self) {
        let Some(g) = &mut self.game else { return };
        while let Ok(ev) = g.conn.events.try_recv() {
            g.apply(ev);
        }
    }
}

impl Game {
    fn apply(&mut self, ev: NodeEvent) {
        match ev {
            NodeEvent::View(v) => {
                self.my_turn = false;
                self.view = Some(*v);
            }
            NodeEvent::YourTurn(v) => {
                self.my_turn = true;
                // Worked out once per turn, not once per frame.
                self.moves = TurnMoves {
                    legal: v.legal_moves(),
                    opening: v.opening_hint(),
                    finish: v.find_finish(),
                };
                self.view = Some(*v);
                self.selected
                    .retain(|c| self.view.as_ref().is_some_and(|v| v.hand().contains(*c)));
            }
            NodeEvent::Refused(why) => self.status = format!("Not allowed: {why}"),
            NodeEvent::Waiting(seats) => self.waiting = seats,
            NodeEvent::Table(TableEvent::Hand { hand_no, event }) => match event {
                HandEvent::Moved { seat, mv } => {
                    self.log.push(mv.describe(seat));
                    self.status.clear();
                }
                HandEvent::Dealt => {
                    self.status = format!(
                        "Hand {hand_no} dealt: every card was shuffled by all four players."
                    )
                }
                HandEvent::HandOver => self.status = "Hand over: checking the deal…".to_owned(),
                HandEvent::Complete(r) => {
                    self.totals = [self.totals[0] + r.scores[0], self.totals[1] + r.scores[1]];
                    self.report = Some((hand_no, r));
                    self.show_report = true;
                }
                HandEvent::Fault(b) => {
                    self.status = format!(
                        "Cheating detected: {} — {}",
                        b.offender.map_or("no seat can be named".to_owned(), |s| {
                            Seat::from_index(usize::from(s)).name().to_owned()
                        }),
                        b.fault
                    );
                }
            },
            NodeEvent::Table(TableEvent::GameOver { totals, result }) => {
                self.over = Some(match result {
                    fairdeal_core::GameResult::Won(Team::A) => {
                        format!("You and North win, {} to {}!", totals[0], totals[1])
                    }
                    fairdeal_core::GameResult::Won(Team::B) => {
                        format!("West and East win, {} to {}.", totals[1], totals[0])
                    }
                    _ => format!("A drawn game at {}.", totals[0]),
                });
            }
            NodeEvent::Table(TableEvent::Paused(seats)) => self.waiting = seats,
            NodeEvent::Table(TableEvent::Resumed) => self.waiting.clear(),
            _ => {}
        }
    }

    fn send(&mut self, mv: Move) {
        if self.conn.intents.try_send(Intent::Play(mv)).is_err() {
            self.status = "The game is busy; try again.".to_owned();
        }
        self.my_turn = false;
        self.selected.clear();
        self.plan.clear();
        self.status.clear();
    }
}

impl eframe::App for FairdealApp {
    fn logic(&mut self, _ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.pump();
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.pump();
        self.draw(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }
}

impl FairdealApp {
    /// Takes network events, then draws (what a frame does; used by tests).
    pub fn draw_and_pump(&mut self, ui: &mut Ui) {
        self.pump();
        self.draw(ui);
    }

    /// Draws the whole window.
    pub fn draw(&mut self, ui: &mut Ui) {
        if !self.fonts_installed {
            // The suit symbols need the bundled font (it applies from the next frame).
            super::install_fonts(ui.ctx());
            self.fonts_installed = true;
        }
        let fill = ui.visuals().panel_fill;
        ui.painter().rect_filled(ui.max_rect(), 0.0, fill);
        egui::Frame::central_panel(ui.style()).show(ui, |ui| {
            if self.game.is_none() {
                self.lobby_ui(ui);
            } else {
                self.table_ui(ui);
            }
        });
    }

    fn lobby_ui(&mut self, ui: &mut Ui) {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading(RichText::new("fairdeal").size(40.0));
            ui.label("Samba, Dutch Samba and Canasta for four, with a deal nobody can rig.");
            ui.add_space(24.0);
            let play = ui.add_sized([260.0, 56.0], egui::Button::new(RichText::new("Play now").size(24.0)));
            if play.clicked() {
                let ctx = ui.ctx().clone();
                self.play_now(&ctx);
            }
            ui.add_space(16.0);
            egui::Grid::new("settings").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
                let l = ui.label("Your name");
                ui.text_edit_singleline(&mut self.settings.name).labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Game");
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(self.settings.preset.name())
                    .show_ui(ui, |ui| {
                        for p in Preset::ALL {
                            ui.selectable_value(&mut self.settings.preset, p, p.name());
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Computer players");
                egui::ComboBox::from_id_salt("difficulty")
                    .selected_text(self.settings.difficulty.clone())
                    .show_ui(ui, |ui| {
                        for d in ["easy", "medium", "hard"] {
                            ui.selectable_value(&mut self.settings.difficulty, d.to_owned(), d);
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
            });
            ui.add_space(12.0);
            ui.label(RichText::new("To play with friends on the LAN, use `fairdeal host` and `fairdeal join` for now.").small());
            if let Some(e) = &self.error {
                ui.colored_label(Color32::RED, e);
            }
        });
    }

    fn table_ui(&mut self, ui: &mut Ui) {
        let Some(g) = &mut self.game else { return };
        let Some(view) = g.view.clone() else {
            ui.centered_and_justified(|ui| ui.label(RichText::new(&g.status).size(20.0)));
            return;
        };
        let us = view.seat().team();
        let them = us.other();
        // Header.
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!("We {}", view.scores()[us.index()]))
                    .strong()
                    .size(18.0),
            );
            ui.label(RichText::new(format!("They {}", view.scores()[them.index()])).size(18.0));
            ui.label(format!("target {}", view.rules().target));
            ui.separator();
            ui.label(format!(
                "{} · dealer {}",
                view.rules().preset,
                view.dealer().name()
            ));
            let need = view.minimum_needed(us);
            if need > 0 {
                ui.separator();
                ui.label(format!("we need {need} to open"));
            }
        });
        let others: Vec<Seat> = g
            .waiting
            .iter()
            .copied()
            .filter(|s| *s != view.seat())
            .collect();
        if !others.is_empty() && view.actor() != view.seat() {
            let names: Vec<&str> = others.iter().map(|s| s.name()).collect();
            ui.colored_label(
                Color32::from_rgb(200, 120, 0),
                format!("Waiting for {}…", names.join(", ")),
            );
        }
        ui.separator();
        egui::Panel::right("log")
            .resizable(true)
            .default_size(240.0)
            .show(ui, |ui| {
                ui.heading("Moves");
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &g.log {
                            ui.label(line);
                        }
                    });
            });
        let me = view.seat();
        ui.horizontal(|ui| {
            for seat in [me.next(), me.partner(), me.partner().next()] {
                let who = if seat == me.partner() {
                    "partner"
                } else {
                    "opponent"
                };
                let turn = if view.turn() == seat {
                    " ◀ to play"
                } else {
                    ""
                };
                ui.label(format!(
                    "{} ({who}): {} cards{turn}",
                    seat.name(),
                    view.hand_size(seat)
                ));
                ui.separator();
            }
        });
        ui.add_space(6.0);
        melds_ui(ui, &view, them, "Their melds", None);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label(format!("Stock {}", view.stock_len()));
            ui.separator();
            let pile = view.pile();
            ui.label(format!("Pile {}", pile.len()));
            if let Some(&top) = pile.last() {
                cards::card(ui, top, HAND, false, "on the pile");
            }
            if view.pile_frozen_for(us) {
                ui.colored_label(Color32::from_rgb(60, 140, 220), "❄ frozen for us");
            }
            if pile.last().is_some_and(|c| c.is_wild() || c.is_three()) {
                ui.label("(blocked: a wild or a three is on top)");
            }
        });
        ui.add_space(6.0);
        let clicked_meld = melds_ui(
            ui,
            &view,
            us,
            "Our melds (click one to add the selected cards)",
            Some(&g.selected),
        );
        if let (Some(i), true) = (clicked_meld, g.my_turn && !g.selected.is_empty()) {
            let cards = std::mem::take(&mut g.selected);
            g.send(Move::Meld(fairdeal_core::Plan {
                add: vec![fairdeal_core::Add { to: i, cards }],
                ..Default::default()
            }));
        }
        ui.separator();
        // Hand.
        let mut rest = view.hand().clone();
        for c in g.plan.iter().flatten() {
            rest.remove(*c);
        }
        let mut hand: Vec<Card> = rest.iter().collect();
        hand.sort_by_key(cards::sort_key);
        ui.label(RichText::new(format!("Your hand ({})", hand.len())).strong());
        let mut selected_count = std::collections::BTreeMap::<Card, usize>::new();
        for c in &g.selected {
            *selected_count.entry(*c).or_default() += 1;
        }
        ui.horizontal_wrapped(|ui| {
            let mut shown = std::collections::BTreeMap::<Card, usize>::new();
            for c in hand {
                let k = shown.entry(c).or_default();
                let is_sel = *k < selected_count.get(&c).copied().unwrap_or(0);
                *k += 1;
                if cards::card(ui, c, HAND, is_sel, "in your hand").clicked() {
                    if is_sel {
                        if let Some(p) = g.selected.iter().position(|x| *x == c) {
                            g.selected.remove(p);
                        }
                    } else {
                        g.selected.push(c);
                    }
                }
            }
        });
        if !g.plan.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Plan:").strong());
                for m in &g.plan {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        for &c in m {
                            cards::card(ui, c, SMALL, false, "planned");
                        }
                    });
                }
            });
        }
        ui.add_space(8.0);
        actions_ui(ui, g, &view);
        if !g.status.is_empty() {
            ui.label(RichText::new(&g.status).italics());
        }
        report_window(ui, g);
        if let Some(over) = g.over.clone() {
            egui::Window::new("Game over")
                .collapsible(false)
                .show(ui.ctx(), |ui| {
                    ui.label(RichText::new(over).size(20.0));
                    if ui.button("Back to the start").clicked() {
                        self.game = None;
                    }
                });
        }
    }
}

/// Draws a team's melds; returns the index of a meld the player clicked.
fn melds_ui(
    ui: &mut Ui,
    view: &PlayerView,
    team: Team,
    title: &str,
    _selected: Option<&Vec<Card>>,
) -> Option<usize> {
    let mut clicked = None;
    ui.label(
        RichText::new(format!(
            "{title} · red threes: {}",
            view.red_threes(team).len()
        ))
        .strong(),
    );
    ui.horizontal_wrapped(|ui| {
        for (i, m) in view.melds(team).iter().enumerate() {
            let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.vertical(|ui| {
                    ui.horizontal(|ui| {
                        let mut shown: Vec<Card> = m.cards().to_vec();
                        shown.sort_by_key(cards::sort_key);
                        for c in shown {
                            cards::card(ui, c, SMALL, false, "in a meld");
                        }
                    });
                    let tag = if m.is_samba() {
                        "SAMBA ✓".to_owned()
                    } else if m.is_canasta() {
                        if m.wilds() == 0 {
                            "natural canasta ✓".to_owned()
                        } else {
                            "mixed canasta ✓".to_owned()
                        }
                    } else {
                        format!("{} cards, {} wild", m.len(), m.wilds())
                    };
                    ui.small(tag);
                });
            });
            if frame.response.interact(egui::Sense::click()).clicked() {
                clicked = Some(i);
            }
        }
        if view.melds(team).is_empty() {
            ui.weak("none yet");
        }
    });
    clicked
}

/// The buttons for this seat's legal moves.
fn actions_ui(ui: &mut Ui, g: &mut Game, view: &PlayerView) {
    if !g.my_turn {
        ui.weak(format!("{} is playing…", view.actor().name()));
        return;
    }
    let legal = g.moves.legal.clone();
    let me = view.seat();
    let mut chosen: Option<Move> = None;
    ui.horizontal_wrapped(|ui| match view.phase() {
        Phase::Answer => {
            ui.label("Your partner asks: \"May I go out?\"");
            if ui.button("Yes").clicked() {
                chosen = Some(Move::Answer(true));
            }
            if ui.button("No").clicked() {
                chosen = Some(Move::Answer(false));
            }
        }
        Phase::Draw => {
            if ui.button("Draw (D)").clicked() || ui.input(|i| i.key_pressed(egui::Key::D)) {
                chosen = Some(Move::Draw {});
            }
            for mv in legal.iter().filter(|m| !matches!(m, Move::Draw {})) {
                if ui
                    .button(mv.describe(me).replace(&format!("{} ", me.name()), ""))
                    .clicked()
                {
                    chosen = Some(mv.clone());
                }
            }
        }
        _ => {
            let sel = g.selected.clone();
            if ui
                .add_enabled(
                    !sel.is_empty(),
                    egui::Button::new("Meld selected as a new meld (M)"),
                )
                .clicked()
                || (!sel.is_empty() && ui.input(|i| i.key_pressed(egui::Key::M)))
            {
                chosen = Some(Move::Meld(fairdeal_core::Plan {
                    new: vec![sel.clone()],
                    ..Default::default()
                }));
            }
            if ui
                .add_enabled(
                    !sel.is_empty(),
                    egui::Button::new("Plan selected as a new meld (P)"),
                )
                .clicked()
                || (!sel.is_empty() && ui.input(|i| i.key_pressed(egui::Key::P)))
            {
                g.plan.push(sel.clone());
                g.selected.clear();
            }
            if !g.plan.is_empty() {
                let points: i32 = g.plan.iter().flatten().map(|c| c.points()).sum();
                let need = view.minimum_needed(me.team());
                let label = if need > 0 {
                    format!("Play plan ({points} of {need} needed) (Enter)")
                } else {
                    format!("Play plan ({points} points) (Enter)")
                };
                if ui.button(label).clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    chosen = Some(Move::Meld(fairdeal_core::Plan {
                        new: g.plan.clone(),
                        ..Default::default()
                    }));
                }
                if ui.button("Undo planned meld").clicked() {
                    g.plan.pop();
                }
            }
            if ui
                .add_enabled(sel.len() == 1, egui::Button::new("Discard selected (X)"))
                .clicked()
                || (sel.len() == 1 && ui.input(|i| i.key_pressed(egui::Key::X)))
            {
                chosen = Some(Move::Discard(sel[0]));
            }
            for mv in &legal {
                let label = match mv {
                    Move::GoOut { .. } => Some("Go out"),
                    Move::Pass {} => Some("Pass"),
                    Move::AskPartner {} => Some("Ask partner: may I go out?"),
                    Move::LayRedThrees(_) => Some("Lay out red threes"),
                    _ => None,
                };
                if let Some(label) = label
                    && ui.button(label).clicked()
                {
                    chosen = Some(mv.clone());
                }
            }
        }
    });
    ui.collapsing("Hints: every legal move", |ui| {
        if let Some(open) = g.moves.opening.clone() {
            ui.horizontal(|ui| {
                ui.label(format!("A legal way to open: {}", open.describe(me)));
                if ui.small_button("Play it").clicked() {
                    chosen = Some(open.clone());
                }
            });
        }
        if let Some(finish) = g.moves.finish.clone() {
            ui.horizontal(|ui| {
                ui.label(format!("A legal finish: {}", finish.describe(me)));
                if ui.small_button("Play it").clicked() {
                    chosen = Some(finish.clone());
                }
            });
        }
        egui::ScrollArea::vertical()
            .max_height(160.0)
            .show(ui, |ui| {
                for mv in &legal {
                    if ui.small_button(mv.describe(me)).clicked() {
                        chosen = Some(mv.clone());
                    }
                }
            });
    });
    if let Some(mv) = chosen {
        match view.validate(&mv) {
            Ok(()) => g.send(mv),
            Err(r) => g.status = format!("Not allowed: {}", r.reason),
        }
    }
}

/// The score sheet after a hand.
fn report_window(ui: &mut Ui, g: &mut Game) {
    let Some((hand_no, r)) = g.report.clone() else {
        return;
    };
    if !g.show_report {
        return;
    }
    egui::Window::new(format!("Hand {hand_no}: score sheet"))
        .collapsible(false)
        .show(ui.ctx(), |ui| {
            egui::Grid::new("sheet")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    ui.strong("");
                    ui.strong("We (S+N)");
                    ui.strong("They (W+E)");
                    ui.end_row();
                    let [a, b] = r.breakdown;
                    let rows: [(&str, i32, i32); 8] = [
                        ("Melded cards", a.melded_cards, b.melded_cards),
                        ("Natural canastas", a.natural_canastas, b.natural_canastas),
                        ("Mixed canastas", a.mixed_canastas, b.mixed_canastas),
                        ("Sambas", a.sambas, b.sambas),
                        ("Red threes", a.red_threes, b.red_threes),
                        ("Going out", a.going_out, b.going_out),
                        ("Cards left in hand", a.cards_in_hand, b.cards_in_hand),
                        ("Red threes held", a.held_red_threes, b.held_red_threes),
                    ];
                    for (name, x, y) in rows {
                        ui.label(name);
                        ui.label(x.to_string());
                        ui.label(y.to_string());
                        ui.end_row();
                    }
                    ui.strong("This hand");
                    ui.strong(r.scores[0].to_string());
                    ui.strong(r.scores[1].to_string());
                    ui.end_row();
                    ui.strong("Totals");
                    ui.strong(g.totals[0].to_string());
                    ui.strong(g.totals[1].to_string());
                    ui.end_row();
                });
            ui.separator();
            ui.colored_label(
                Color32::from_rgb(30, 140, 60),
                format!(
                    "Deal verified: all {} shuffles recomputed, {} card openings checked.",
                    r.shuffles_checked, r.openings_checked
                ),
            );
            if ui.button("Continue").clicked() {
                g.show_report = false;
            }
        });
}
