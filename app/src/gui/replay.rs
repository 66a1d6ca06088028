//! A finished game replayed in the window: "Open a game file…" (a `transcript.fdt`, or a
//! player's `GAME.fdlog` with its `identity.key`), then the table as it stood after any move,
//! drawn by the table view itself (`table_ui` from a [`Model`] built as a seat's events
//! built it), a slider and step buttons (←/→ a move, PgUp/PgDn a turn, Home/End a hand),
//! each hand's score sheet at its end, and the verify report beside it. A transcript shows
//! the public table (every hand face down); a player's own log shows that player's hand.
//!
//! The positions come from `fairdeal_net::playback` (each deal made again from its audited
//! deck, each checked move applied); the model after move N is rebuilt from the deal by
//! feeding the same moves and views a seat's window took, so what is shown is what that
//! window showed.

use eframe::egui::{self, Key, RichText, Ui};
use fairdeal_core::{PlayerView, Position, Seat};
use fairdeal_net::playback::Playback;

use super::game::{Desk, Game};
use super::intent::Intent;
use super::played::Played;
use super::prefs::TablePrefs;
use super::records::{GameKind, GameRecord};

/// A step button: its text, its hint, what it does.
type Button = (&'static str, &'static str, fn(&mut Replay));

/// A game being replayed: where in it, and the table as a window showed it there.
pub struct Replay {
    /// The file's path as given.
    path: String,
    playback: Playback,
    record: GameRecord,
    /// The deal shown (an index into the playback's hands).
    hand: usize,
    /// Moves of it played (0: as dealt).
    at: usize,
    game: Game,
}

impl Replay {
    /// The game of `playback` (read from `path`), shown at the first deal as dealt.
    pub fn new(path: String, playback: Playback) -> Self {
        let config = playback.config.as_ref();
        let record = GameRecord {
            preset: config.map_or(fairdeal_core::Preset::Samba, |c| c.preset),
            house: config.map_or_else(String::new, |c| {
                fairdeal_net::table::msg::house_to_json(&fairdeal_core::HouseRules::from(&c.house))
            }),
            over: true,
            ..GameRecord::started(
                GameKind::Local,
                config
                    .map(|c| fairdeal_net::table::clean_name(&c.name))
                    .unwrap_or_default(),
            )
        };
        let game = Game::new(&record, "");
        let mut r = Self {
            path,
            playback,
            record,
            hand: 0,
            at: 0,
            game,
        };
        r.rebuild(false);
        r
    }

    /// The file replayed.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The deal shown (index into the file's deals) and the moves of it played.
    pub fn cursor(&self) -> (usize, usize) {
        (self.hand, self.at)
    }

    /// The whole position shown (every card known), if the deal can be played back.
    pub fn position(&self) -> Option<&Position> {
        self.playback.hands.get(self.hand)?.position(self.at)
    }

    /// The view the table is drawn from.
    pub fn view(&self) -> Option<&PlayerView> {
        self.game.model.view.as_ref()
    }

    /// The move list as the table shows it after the shown move.
    pub fn log(&self) -> &[String] {
        &self.game.model.log
    }

    /// The game played back.
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    fn moves_in(&self, hand: usize) -> usize {
        self.playback.hands.get(hand).map_or(0, |h| h.steps.len())
    }

    /// Shows deal `hand` after `at` moves (clamped); `animate` plays the last move's
    /// animation (one step forward), any other jump shows the table still.
    pub fn goto(&mut self, hand: usize, at: usize, animate: bool) {
        let hand = hand.min(self.playback.hands.len().saturating_sub(1));
        let at = at.min(self.moves_in(hand));
        if (hand, at) != (self.hand, self.at) {
            self.hand = hand;
            self.at = at;
            self.rebuild(animate);
        }
    }

    /// One move forward or back (across into the next or previous deal at its ends).
    pub fn step(&mut self, forward: bool) {
        let (h, at) = (self.hand, self.at);
        match forward {
            true if at < self.moves_in(h) => self.goto(h, at + 1, true),
            true => self.goto(h + 1, 0, false),
            false if at > 0 => self.goto(h, at - 1, false),
            false if h > 0 => self.goto(h - 1, self.moves_in(h - 1), false),
            false => {}
        }
    }

    /// Where turns begin and end in the shown deal: as dealt, between two seats' moves,
    /// and its end.
    fn is_turn_edge(&self, k: usize) -> bool {
        let Some(h) = self.playback.hands.get(self.hand) else {
            return true;
        };
        k == 0
            || k >= h.steps.len()
            || h.steps.get(k - 1).map(|s| s.seat) != h.steps.get(k).map(|s| s.seat)
    }

    /// A whole turn forward or back (to the table between two seats' turns).
    pub fn turn(&mut self, forward: bool) {
        let (h, at, n) = (self.hand, self.at, self.moves_in(self.hand));
        if forward {
            match (at + 1..=n).find(|&k| self.is_turn_edge(k)) {
                Some(k) => self.goto(h, k, false),
                None => self.goto(h + 1, 0, false),
            }
        } else {
            match (0..at).rev().find(|&k| self.is_turn_edge(k)) {
                Some(k) => self.goto(h, k, false),
                None if h > 0 => self.goto(h - 1, self.moves_in(h - 1), false),
                None => {}
            }
        }
    }

    /// The start (or the end) of the shown deal; at it already, of the deal before (after).
    pub fn edge(&mut self, end: bool) {
        let (h, at, n) = (self.hand, self.at, self.moves_in(self.hand));
        match end {
            true if at < n => self.goto(h, n, false),
            true => self.goto(h + 1, usize::MAX, false),
            false if at > 0 => self.goto(h, 0, false),
            false if h > 0 => self.goto(h - 1, 0, false),
            false => {}
        }
    }

    /// The view a seat had of `pos`: the public one, or the log's own seat's.
    fn view_of(&self, pos: &Position) -> PlayerView {
        match self.playback.me {
            Some(me) => PlayerView::new(pos, me),
            None => PlayerView::public(pos, Seat::S),
        }
    }

    /// The model and desk after the shown move, fed as a seat's window was fed: the deal,
    /// then each move and the view after it.
    fn rebuild(&mut self, animate: bool) {
        let mut game = Game::new(&self.record, "");
        let Game { model: m, desk: d } = &mut game;
        m.config.clone_from(&self.playback.config);
        m.me = Some(self.playback.me.unwrap_or(Seat::S));
        // The public transcript is no seat's: the table is shown to an onlooker.
        m.onlooker = self.playback.me.is_none();
        m.replay = true;
        d.seen.onlooker = m.onlooker;
        let Some(h) = self.playback.hands.get(self.hand) else {
            m.status = "This file holds no deal.".to_owned();
            self.game = game;
            return;
        };
        m.hand_no = h.hand_no;
        m.totals = h.scores;
        let Some(dealt) = &h.dealt else {
            m.status = format!(
                "Hand {} cannot be replayed: {}",
                h.hand_no,
                h.gap.as_ref().map_or(String::new(), ToString::to_string)
            );
            self.game = game;
            return;
        };
        d.seen.dealt();
        m.log.push(format!("— Hand {} —", h.hand_no));
        let first = self.view_of(dealt);
        d.seen.on_view(None, &first, &mut m.log);
        m.view = Some(first);
        for (i, s) in h.steps.iter().take(self.at).enumerate() {
            m.log.push(if m.onlooker {
                super::move_words::onlooker_line(&s.mv, s.seat)
            } else {
                s.mv.describe(s.seat)
            });
            let after = self.view_of(&s.after);
            if let Some(before) = &m.view {
                let played = Played::between(before, s.seat, s.mv.clone(), &after);
                d.seen.moved(played, Some(m.log.len() - 1));
            }
            d.seen.on_view(m.view.as_ref(), &after, &mut m.log);
            m.view = Some(after);
            if !(animate && i + 1 == self.at) {
                quiet(d);
            }
        }
        d.seen.cues.clear();
        if self.at == h.steps.len()
            && let Some(r) = &h.report
        {
            m.totals = [
                m.totals[0].saturating_add(r.scores[0]),
                m.totals[1].saturating_add(r.scores[1]),
            ];
            m.report = Some((h.hand_no, r.clone()));
            d.show_report = true;
        }
        m.status = match h.steps.get(self.at.wrapping_sub(1)) {
            Some(s) if self.at > 0 => s.mv.describe(s.seat),
            _ => format!("Hand {} as dealt.", h.hand_no),
        };
        self.game = game;
    }

    /// Carries out what the table view asked for: its score sheet's "Next hand" goes to the
    /// next deal, leaving the table leaves the replay; moves and chat mean nothing here.
    fn take(&mut self, intents: Vec<Intent>, out: &mut Vec<Intent>) {
        for i in intents {
            match i {
                Intent::Ready => self.goto(self.hand + 1, 0, false),
                Intent::LeaveGame | Intent::Leave => out.push(Intent::CloseReplay),
                _ => {}
            }
        }
    }

    /// The keys of the replay (when no text field has the keys).
    fn keys(&mut self, ui: &Ui) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let pressed = |k| ui.input(|i| i.key_pressed(k));
        if pressed(Key::ArrowRight) {
            self.step(true);
        } else if pressed(Key::ArrowLeft) {
            self.step(false);
        } else if pressed(Key::PageDown) {
            self.turn(true);
        } else if pressed(Key::PageUp) {
            self.turn(false);
        } else if pressed(Key::End) {
            self.edge(true);
        } else if pressed(Key::Home) {
            self.edge(false);
        }
    }

    /// Draws the replay: its bar (the deal, the buttons, the slider), the verify report at
    /// the left, the table; what is asked for beyond the replay goes to `out`.
    pub fn ui(&mut self, ui: &mut Ui, prefs: &mut TablePrefs, out: &mut Vec<Intent>) {
        self.keys(ui);
        egui::Panel::top("replay-bar").show(ui, |ui| self.bar(ui, out));
        egui::Panel::left("replay-report")
            .resizable(true)
            .default_size(300.0)
            .min_size(220.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.report(ui));
            });
        let mut asked = Vec::new();
        let Game { model, desk } = &mut self.game;
        super::table::table_ui(ui, model, desk, prefs, &mut asked);
        super::sheet::report_window(ui, model, desk, &mut asked);
        self.take(asked, out);
    }

    fn bar(&mut self, ui: &mut Ui, out: &mut Vec<Intent>) {
        let n = self.moves_in(self.hand);
        let hands = self.playback.hands.len();
        let hand_no = self.playback.hands.get(self.hand).map_or(0, |h| h.hand_no);
        // Wrapped: at 1024 wide the buttons, the slider and "Move x of n" need two rows.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Back").clicked() {
                out.push(Intent::CloseReplay);
            }
            ui.strong(format!(
                "Replay: hand {hand_no} ({} of {hands})",
                self.hand + 1
            ));
            let buttons: [Button; 6] = [
                ("Start (Home)", "The hand as dealt", |r| r.edge(false)),
                ("« Turn (PgUp)", "A turn back", |r| r.turn(false)),
                ("‹ Move (←)", "A move back", |r| r.step(false)),
                ("Move › (→)", "A move forward", |r| r.step(true)),
                ("Turn » (PgDn)", "A turn forward", |r| r.turn(true)),
                ("End (End)", "The end of the hand", |r| r.edge(true)),
            ];
            for (text, hint, act) in buttons {
                if ui.button(text).on_hover_text(hint).clicked() {
                    act(self);
                }
            }
            let mut at = self.at;
            let slider = ui.add(egui::Slider::new(&mut at, 0..=n).show_value(false));
            if slider.changed() {
                self.goto(self.hand, at, false);
            }
            ui.label(format!("Move {} of {n}", self.at));
        });
        if !self.playback.report.ok() {
            // Said above the table as well as in the report: what a file that does not
            // verify shows may not be what was played.
            ui.colored_label(
                egui::Color32::RED,
                "This file does not verify (see the report at the left): it is damaged or altered, and what it shows may not be what was played.",
            );
        }
        ui.label(RichText::new(&self.game.model.status).weak());
    }

    fn report(&self, ui: &mut Ui) {
        let report = &self.playback.report;
        ui.heading("Verify report");
        super::verify_words::report_ui(ui, report, "replay-details");
        ui.separator();
        ui.small(match self.playback.me {
            Some(me) => format!("Your own log: your hand ({}) is shown.", me.name()),
            None => "A public transcript: every hand is shown face down.".to_owned(),
        });
    }
}

/// Stops what a move started on screen (cards in flight, celebrations): the table shows
/// still after a jump.
fn quiet(d: &mut Desk) {
    d.seen.flights.clear();
    d.seen.completed.clear();
}
