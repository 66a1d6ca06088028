//! Watching a live table in the window: "Watch" beside a table on the LAN opens this view,
//! which runs a spectator ([`fairdeal_net::node::watch::watch`]) on the window's runtime and
//! draws what it reports with the table view itself (`table_ui` from a [`Model`] fed as a
//! seat's events feed it, with every hand face down), the move list, each hand's score sheet
//! with its "Deal verified" line (this computer's own audit), and who is watching. "Leave"
//! stops the spectator; watching again catches up from the start.

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::{GameResult, PlayerView, Seat, Team, game_result};
use fairdeal_net::node::watch::{WatchFailure, WatchOutcome, WatchUpdate};
use fairdeal_net::watch::WatchEvent;
use tokio::sync::mpsc;

use super::game::{Game, Model};
use super::intent::Intent;
use super::played::Played;
use super::prefs::TablePrefs;
use super::records::{GameKind, GameRecord};

/// A table being watched.
pub struct Watching {
    game: Game,
    updates: mpsc::Receiver<WatchUpdate>,
    /// The spectator's task (`None`: fed by the caller, [`Watching::fed`]).
    task: Option<tokio::task::JoinHandle<Result<WatchOutcome, WatchFailure>>>,
    /// Who watches, as the seat last said.
    watching: Vec<String>,
    /// The last line about the connection, or how the watch ended.
    line: String,
    /// A checked move waiting for the table after it.
    moved: Option<(Seat, fairdeal_core::Move)>,
}

impl Watching {
    /// Watches the table at `address` from `rt`; `repaint` is called after each update.
    pub fn start(
        rt: &tokio::runtime::Runtime,
        table: &str,
        address: libp2p::Multiaddr,
        name: String,
        repaint: std::sync::Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let (tx, rx) = mpsc::channel(1024);
        let (fwd_tx, updates) = mpsc::channel(1024);
        let last = tx.clone();
        let task = rt.spawn(async move {
            let end =
                fairdeal_net::node::watch::watch(crate::peer::random32(), name, address, tx).await;
            // How it ended, as the last line: a full table or a lost stream said in words.
            let line = match &end {
                Ok(_) => "The game is over.".to_owned(),
                Err(e) => format!("The watch stopped: {e}."),
            };
            let _ = last.send(WatchUpdate::Status(line)).await;
            end
        });
        rt.spawn(forward(rx, fwd_tx, repaint));
        let mut w = Self::with(table, updates);
        w.task = Some(task);
        w
    }

    /// A view fed by the caller through `updates` (what [`fairdeal_net::node::watch::drain`]
    /// gives from a spectator's session), with no network.
    pub fn fed(table: &str, updates: mpsc::Receiver<WatchUpdate>) -> Self {
        Self::with(table, updates)
    }

    fn with(table: &str, updates: mpsc::Receiver<WatchUpdate>) -> Self {
        let record = GameRecord::started(GameKind::Join, fairdeal_net::table::clean_name(table));
        let mut game = Game::new(&record, "");
        game.model.me = Some(Seat::S);
        game.model.onlooker = true;
        game.desk.seen.onlooker = true;
        game.model.status = "Reaching the table…".to_owned();
        Self {
            game,
            updates,
            task: None,
            watching: Vec::new(),
            line: "Reaching the table…".to_owned(),
            moved: None,
        }
    }

    /// The model the table is drawn from.
    pub fn model(&self) -> &Model {
        &self.game.model
    }

    /// The view the table is drawn from (public: every hand face down).
    pub fn view(&self) -> Option<&PlayerView> {
        self.game.model.view.as_ref()
    }

    /// The move list as the table shows it.
    pub fn log(&self) -> &[String] {
        &self.game.model.log
    }

    /// Who watches, as the seat last said.
    pub fn watching(&self) -> &[String] {
        &self.watching
    }

    /// Takes what the spectator reported since the last frame (never blocks).
    pub fn poll(&mut self) {
        while let Ok(u) = self.updates.try_recv() {
            self.take(u);
        }
    }

    /// One update into the model, as a seat's window takes its node's events.
    pub fn take(&mut self, u: WatchUpdate) {
        let Game { model: m, desk: d } = &mut self.game;
        match u {
            WatchUpdate::Status(s) => self.line = s,
            WatchUpdate::Watching(w) => self.watching = w,
            WatchUpdate::Config(c) => {
                m.table = fairdeal_net::table::clean_name(&c.name);
                m.config = Some(*c);
            }
            WatchUpdate::Table(pos) => {
                let after = PlayerView::public(&pos, Seat::S);
                if let (Some((seat, mv)), Some(before)) = (self.moved.take(), &m.view) {
                    let played = Played::between(before, seat, mv, &after);
                    d.seen.moved(played, Some(m.log.len() - 1));
                }
                d.seen.on_view(m.view.as_ref(), &after, &mut m.log);
                m.view = Some(after);
            }
            WatchUpdate::Event(ev) => match ev {
                WatchEvent::Table { .. } => {}
                WatchEvent::Hand {
                    hand_no, scores, ..
                } => {
                    m.hand_no = hand_no;
                    m.totals = scores;
                    m.view = None;
                    // The last hand's sheet stays until it is closed: the players may deal
                    // the next one at once, and a spectator reads at its own pace.
                    m.log.push(format!("— Hand {hand_no} —"));
                    m.status = format!("Hand {hand_no} is being dealt.");
                }
                WatchEvent::Dealt => d.seen.dealt(),
                WatchEvent::Moved { seat, mv, .. } => {
                    let line = super::move_words::onlooker_line(&mv, seat);
                    m.status.clone_from(&line);
                    m.log.push(line);
                    // The table after it comes next (`Table`): the move is shown against it.
                    self.moved = Some((seat, mv));
                }
                WatchEvent::HandOver => {
                    m.status = "The play is over: the seeds are being revealed.".to_owned();
                }
                WatchEvent::Verified(r) => {
                    m.totals = [
                        m.totals[0].saturating_add(r.scores[0]),
                        m.totals[1].saturating_add(r.scores[1]),
                    ];
                    m.report = Some((m.hand_no, r));
                    m.scored += 1;
                    d.show_report = true;
                    if let Some(cfg) = &m.config {
                        let rules = cfg.rules();
                        let result = game_result(m.totals, rules.target, rules.tie_rule);
                        m.over = over_words(m, result);
                        if let Some(over) = &m.over {
                            m.status = format!("Game over: {over}");
                        }
                    }
                }
                WatchEvent::Fault(b) => {
                    m.status = format!("The hand stopped: {}", b.fault);
                }
            },
        }
    }

    /// Stops watching.
    pub fn leave(&self) {
        if let Some(t) = &self.task {
            t.abort();
        }
    }

    /// Draws the view: a bar (Leave, the connection, who watches) and the table.
    pub fn ui(&mut self, ui: &mut Ui, prefs: &mut TablePrefs, out: &mut Vec<Intent>) {
        self.poll();
        egui::Panel::top("watch-bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Leave").clicked() {
                    out.push(Intent::CloseWatch);
                }
                ui.strong(format!("Watching {}", self.game.model.table));
                ui.label(RichText::new(&self.line).weak());
            });
            ui.horizontal(|ui| {
                if !self.watching.is_empty() {
                    ui.label(format!("watching: {}", self.watching.join(", ")));
                }
                ui.label(
                    RichText::new(
                        "Every move is checked by this computer before it is shown; every hand is face down.",
                    )
                    .color(Color32::from_rgb(0x2e, 0x8b, 0x57)),
                );
            });
        });
        let mut asked = Vec::new();
        let Game { model, desk } = &mut self.game;
        super::table::table_ui(ui, model, desk, prefs, &mut asked);
        super::sheet::report_window(ui, model, desk, &mut asked);
        super::sheet::game_over_window(ui, model, desk, &mut asked);
        for i in asked {
            if matches!(i, Intent::LeaveGame | Intent::Leave) {
                out.push(Intent::CloseWatch);
            }
            if matches!(i, Intent::Ready) {
                desk.show_report = false;
            }
        }
    }
}

/// The end of the game for an onlooker, with the teams by their players (`None`: not over).
fn over_words(m: &Model, result: GameResult) -> Option<String> {
    let [a, b] = m.totals;
    match result {
        GameResult::Continue => None,
        GameResult::Won(Team::A) => Some(format!("{} win, {a} to {b}.", m.team_names(Team::A))),
        GameResult::Won(Team::B) => Some(format!("{} win, {b} to {a}.", m.team_names(Team::B))),
        GameResult::Drawn => Some(format!("A drawn game at {a}.")),
    }
}

/// Passes updates on to the window and asks it to draw them.
async fn forward(
    mut rx: mpsc::Receiver<WatchUpdate>,
    tx: mpsc::Sender<WatchUpdate>,
    repaint: std::sync::Arc<dyn Fn() + Send + Sync>,
) {
    while let Some(u) = rx.recv().await {
        if tx.send(u).await.is_err() {
            return;
        }
        repaint();
    }
}
