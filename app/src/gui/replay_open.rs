//! "Open a game file…": a game file's path typed in (or one of this user's recent games
//! picked), read and played back on a thread of its own (every deal is checked again, which
//! takes a moment), then shown as a [`Replay`]. The controller owns the [`Replaying`] state
//! and the thread; this screen only shows it and pushes intents.

use std::sync::mpsc::Receiver;

use eframe::egui::{self, Color32, Ui};
use fairdeal_net::playback::Playback;

use super::intent::Intent;
use super::prefs::TablePrefs;
use super::replay::Replay;

/// Where the window is with a replay.
#[derive(Default)]
pub enum Replaying {
    /// No replay: the start screen.
    #[default]
    Closed,
    /// The form is open (with the last failure, if the last file did not open).
    Form {
        /// The path as typed.
        path: String,
        /// Why the last file did not open.
        failed: Option<String>,
    },
    /// A file is being read and played back.
    Loading {
        /// Its path.
        path: String,
        /// The playback, or why there is none.
        done: Receiver<Result<Playback, String>>,
    },
    /// A game replayed.
    Shown(Box<Replay>),
}

impl Replaying {
    /// Takes the outcome of a file being read, if it came (never blocks).
    pub fn poll(&mut self) {
        let Self::Loading { path, done } = self else {
            return;
        };
        let Ok(outcome) = done.try_recv() else {
            return;
        };
        *self = match outcome {
            Ok(p) => Self::Shown(Box::new(Replay::new(std::mem::take(path), p))),
            Err(why) => Self::Form {
                path: std::mem::take(path),
                failed: Some(why),
            },
        };
    }

    /// The replay shown, if one is.
    pub fn shown(&self) -> Option<&Replay> {
        match self {
            Self::Shown(r) => Some(r),
            _ => None,
        }
    }

    /// The replay shown, to step through (tests drive it as the keys do).
    pub fn shown_mut(&mut self) -> Option<&mut Replay> {
        match self {
            Self::Shown(r) => Some(r),
            _ => None,
        }
    }
}

/// Draws the replay or its form when one is open, with this user's `recent` game files;
/// returns whether it drew (else the start screen is drawn).
pub fn replay_ui(
    ui: &mut Ui,
    state: &mut Replaying,
    recent: &[super::records::Recent],
    prefs: &mut TablePrefs,
    out: &mut Vec<Intent>,
) -> bool {
    match state {
        Replaying::Closed => false,
        Replaying::Shown(r) => {
            r.ui(ui, prefs, out);
            true
        }
        Replaying::Loading { path, .. } => {
            ui.heading("Open a game file");
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Reading and checking {path}…"));
            });
            true
        }
        Replaying::Form { path, failed } => {
            form(ui, path, failed.as_deref(), recent, out);
            true
        }
    }
}

fn form(
    ui: &mut Ui,
    path: &mut String,
    failed: Option<&str>,
    recent: &[super::records::Recent],
    out: &mut Vec<Intent>,
) {
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.heading("Open a game file");
            ui.label(
                "A game's transcript (transcript.fdt in its folder) replays the public table move by move; your own GAME.fdlog (with identity.key beside it) shows your hand too.",
            );
            ui.add_space(6.0);
            let mut go = None;
            ui.horizontal(|ui| {
                let l = ui.label("Game file");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(path)
                            .hint_text("/path/to/transcript.fdt")
                            .desired_width(520.0),
                    )
                    .labelled_by(l.id);
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let open = ui.add_enabled(!path.trim().is_empty(), egui::Button::new("Open"));
                if open.clicked() || enter {
                    go = Some(path.trim().to_owned());
                }
                if ui.button("Back").clicked() {
                    out.push(Intent::CloseReplay);
                }
            });
            if let Some(why) = failed {
                ui.colored_label(Color32::RED, why);
            }
            if !recent.is_empty() {
                ui.label("Your recent games:");
                for g in recent {
                    let text = g.path.display().to_string();
                    if ui.link(&g.words).on_hover_text(&text).clicked() {
                        go = Some(text);
                    }
                }
            }
            if let Some(p) = go {
                out.push(Intent::Replay(p));
            }
        });
}
