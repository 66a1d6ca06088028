//! The start screen: Play now, your name and identity, tables on the LAN, create a table,
//! join by address, resume an unfinished game, verify a game file, and open one as a replay.

use std::collections::BTreeMap;
use std::path::PathBuf;

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::Preset;
use fairdeal_net::node::FoundTable;
use libp2p::PeerId;

use super::choices::{Difficulty, Theme};
use super::intent::Intent;
use super::records::GameRecord;
use super::settings::Settings;
use super::verify::Check;
use super::words::{house_words, preset_title};

pub use super::ask_first::Question;

/// A table found on the LAN, with its rules in words (written once, when it is found).
pub struct Listed {
    /// What the browser found.
    pub table: FoundTable,
    /// The preset, target and house rules in words.
    pub words: String,
}

impl From<FoundTable> for Listed {
    fn from(table: FoundTable) -> Self {
        let mut words = house_words(
            table.info.preset,
            &fairdeal_core::HouseRules::from(&table.info.house),
        );
        if table.info.move_clock_ms > 0 {
            words.push_str("; ");
            words.push_str(&clock_words(table.info.move_clock_ms.div_ceil(60_000)));
        }
        Self { table, words }
    }
}

/// What the start screen shows besides the settings.
pub struct StartInfo<'a> {
    /// The player's identity fingerprint.
    pub fingerprint: &'a str,
    /// Tables found.
    pub tables: &'a BTreeMap<PeerId, Listed>,
    /// An unfinished game.
    pub resumable: Option<&'a (PathBuf, GameRecord)>,
    /// Whether the LAN is searched.
    pub lan: bool,
    /// The last error.
    pub error: Option<&'a str>,
    /// This user's recent transcripts, for the verify screen.
    pub recent: &'a [super::records::Recent],
    /// The verify screen's last check.
    pub check: Option<&'a Check>,
    /// A LAN table left mid-hand whose hand this client still plays to its end (its name).
    pub playing_out: Option<&'a str>,
    /// Another game is about to start while one waits: the question asked first.
    pub ask_first: Option<Question<'a>>,
}

/// Draws the start screen (the settings are its form); what the player chose goes to `out`.
pub fn start_ui(ui: &mut Ui, s: &mut Settings, info: &StartInfo<'_>, out: &mut Vec<Intent>) {
    if super::verify::verify_ui(ui, info.recent, info.check, out) {
        return;
    }
    if let Some(q) = &info.ask_first {
        super::ask_first::ask_first_ui(ui.ctx(), q, out);
    }
    let mut action = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(16.0);
                ui.heading(RichText::new("fairdeal").size(36.0));
                // One line: the tagline, or the game left to resume in its place (the screen
                // below stays where it is either way).
                match info.resumable {
                    None => centred_row(ui, |ui| {
                        ui.label(
                            "Samba, Dutch Samba and Canasta for four, with a deal nobody can rig.",
                        );
                    }),
                    Some((dir, r)) => {
                        if let Some(a) = centred_row(ui, |ui| waiting_row(ui, dir, r)) {
                            action = Some(a);
                        }
                    }
                }
                if let Some(table) = info.playing_out {
                    ui.label(format!(
                        "Your seat at \"{table}\" is being played to the end of this hand, so \
                         that the hand counts; then a computer player takes it. Keep this \
                         window open until then."
                    ));
                }
                ui.add_space(8.0);
                if let Some(e) = info.error {
                    ui.colored_label(Color32::RED, e);
                }
            });
            ui.add_space(8.0);
            // The two columns in a block of at most START_WIDTH, centred: in a wide window
            // each column's content kept to its left edge, the settings at the window's.
            let width = ui.available_width().min(START_WIDTH);
            let margin = ((ui.available_width() - width) / 2.0).max(0.0);
            ui.horizontal_top(|ui| {
                ui.add_space(margin);
                ui.vertical(|ui| {
                    ui.set_width(width);
                    ui.columns(2, |cols| {
                        if let Some(a) = left(&mut cols[0], s, info) {
                            action = Some(a);
                        }
                        if let Some(a) = right(&mut cols[1], s, info) {
                            action = Some(a);
                        }
                    });
                });
            });
        });
    out.extend(action);
}

/// The widest the start screen's two columns grow (points).
const START_WIDTH: f32 = 1000.0;

/// The game waiting to be resumed, in one row: Resume it, or give it up for good. Giving
/// it up asks once more in the same row, and the yes is not taken in the first moments (a
/// double click on the first button never gives a game up).
fn waiting_row(ui: &mut Ui, dir: &std::path::Path, r: &GameRecord) -> Option<Intent> {
    const SETTLE: f64 = 1.0;
    let id = ui.make_persistent_id("abandon-asked");
    let now = ui.input(|i| i.time);
    let asked: Option<f64> = ui.data(|d| d.get_temp(id));
    let mut action = None;
    match asked {
        None => {
            ui.strong(super::records::waiting_game(r));
            let resume = if r.unanswered {
                "Try again"
            } else {
                "Resume it"
            };
            if ui.button(resume).clicked() {
                action = Some(Intent::Resume(dir.to_owned()));
            }
            if ui.button("Leave it for good…").clicked() {
                ui.data_mut(|d| d.insert_temp(id, now));
            }
        }
        Some(at) => {
            ui.strong("Leave that game for good? It cannot be resumed afterwards.");
            if ui.button("Keep it").clicked() {
                ui.data_mut(|d| d.remove::<f64>(id));
            }
            let settled = now - at >= SETTLE;
            if !settled {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_secs_f64(SETTLE));
            }
            if ui
                .add_enabled(settled, egui::Button::new("Yes, leave it for good"))
                .clicked()
            {
                ui.data_mut(|d| d.remove::<f64>(id));
                action = Some(Intent::Abandon(dir.to_owned()));
            }
        }
    }
    action
}

/// A row of widgets centred in the width (its width is the one it took last frame). When
/// the row's width changes (other words, other buttons), the frame is laid out again before
/// it is shown: a row drawn off centre for a frame would move its buttons under the pointer.
fn centred_row<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> R {
    let id = ui.make_persistent_id("centred-row");
    let last: Option<f32> = ui.data(|d| d.get_temp(id));
    ui.horizontal(|ui| {
        ui.add_space(((ui.available_width() - last.unwrap_or(0.0)) / 2.0).max(0.0));
        let start = ui.cursor().min.x;
        let out = add(ui);
        let width = ui.min_rect().right() - start;
        if last.is_none_or(|w| (w - width).abs() > 0.5) {
            ui.ctx().request_discard("a centred row changed its width");
        }
        ui.data_mut(|d| d.insert_temp(id, width));
        out
    })
    .inner
}

/// Play now, name, identity, game and level.
fn left(ui: &mut Ui, s: &mut Settings, info: &StartInfo<'_>) -> Option<Intent> {
    let mut action = None;
    ui.vertical_centered(|ui| {
        let play = ui.add_sized(
            [240.0, 52.0],
            egui::Button::new(RichText::new("Play now").size(24.0)),
        );
        if play.clicked() {
            action = Some(Intent::PlayNow);
        }
        ui.weak("You against three computer players, dealt by the full fair-deal protocol.");
        if ui.button("How to play (F1)").clicked() {
            action = Some(Intent::Help);
        }
        if ui
            .button("Verify a game file…")
            .on_hover_text("Check a game's transcript: every shuffle, card, move and score.")
            .clicked()
        {
            super::verify::open(ui);
            action = Some(Intent::OpenVerify);
        }
        if ui
            .button("Open a game file…")
            .on_hover_text("Replay a finished game move by move, with its verify report.")
            .clicked()
        {
            action = Some(Intent::OpenReplay);
        }
    });
    ui.add_space(10.0);
    egui::Grid::new("settings")
        .num_columns(2)
        .spacing([12.0, 8.0])
        .show(ui, |ui| {
            let l = ui.label("Your name");
            ui.text_edit_singleline(&mut s.name).labelled_by(l.id);
            ui.end_row();
            ui.label("Your identity");
            ui.monospace(info.fingerprint).on_hover_text(
                "Compare it aloud with your friends: it is the key that signs your moves.",
            );
            ui.end_row();
            let l = ui.label("Game");
            egui::ComboBox::from_id_salt("preset")
                .selected_text(preset_title(s.preset))
                .show_ui(ui, |ui| {
                    for p in Preset::ALL {
                        ui.selectable_value(&mut s.preset, p, preset_title(p));
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            choice(ui, "Computer players", &mut s.difficulty, &Difficulty::ALL);
            choice(ui, "Theme", &mut s.theme, &Theme::ALL);
        });
    ui.add_space(10.0);
    ui.collapsing("Create a table for friends (LAN or internet)", |ui| {
        egui::Grid::new("create")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("Table name");
                let named = s.table_name();
                ui.add(egui::TextEdit::singleline(&mut s.table).hint_text(named))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Target score");
                ui.add(egui::DragValue::new(&mut s.target).range(500..=20_000).speed(50))
                    .labelled_by(l.id);
                ui.end_row();
                ui.label("House rules");
                ui.vertical(|ui| {
                    ui.checkbox(&mut s.must_ask, "Ask partner before going out");
                    if s.preset == Preset::Canasta {
                        ui.checkbox(&mut s.pile_always_frozen, "Pile always frozen");
                        ui.checkbox(&mut s.classic_stock_end, "Classic stock end");
                    } else {
                        ui.checkbox(&mut s.no_steal_onto_canasta, "No steal onto a canasta");
                    }
                });
                ui.end_row();
                let l = ui.label("Move clock");
                egui::ComboBox::from_id_salt("move clock")
                    .selected_text(clock_words(s.move_clock_min))
                    .show_ui(ui, |ui| {
                        for m in [0, 1, 2, 5] {
                            ui.selectable_value(&mut s.move_clock_min, m, clock_words(m));
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text("When the time is up, the player's own client plays a computer move for them. Off: everyone may think as long as they like.");
                ui.end_row();
            });
        let clock = if s.move_clock_min > 0 {
            format!("; {}", clock_words(s.move_clock_min))
        } else {
            String::new()
        };
        ui.horizontal(|ui| {
            let l = ui.label("Friends on the internet:");
            ui.add(
                egui::TextEdit::singleline(&mut s.relay)
                    .hint_text("a relay's address; empty: the LAN only")
                    .desired_width(320.0),
            )
            .labelled_by(l.id)
            .on_hover_text("Friends beyond the LAN reach the table through this relay, and connect directly where their routers allow. The lobby then shows an invitation to send them.");
        });
        ui.label(format!("{}{clock}", house_words(s.preset, &s.house())));
        ui.small("You sit South and choose the other seats in the lobby; computer players take the seats left empty when you start.");
        if ui.button("Open the table").clicked() {
            action = Some(Intent::Host);
        }
    });
    action
}

/// A labelled grid row choosing `value` among `options`.
fn choice<T: Copy + PartialEq + std::fmt::Display>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    options: &[T],
) {
    let l = ui.label(label);
    egui::ComboBox::from_id_salt(label)
        .selected_text(value.to_string())
        .show_ui(ui, |ui| {
            for &o in options {
                ui.selectable_value(value, o, o.to_string());
            }
        })
        .response
        .labelled_by(l.id);
    ui.end_row();
}

/// Tables on the LAN, and join by address.
fn right(ui: &mut Ui, s: &mut Settings, info: &StartInfo<'_>) -> Option<Intent> {
    let mut action = None;
    ui.heading("Tables on the LAN");
    if info.tables.is_empty() {
        ui.weak(if info.lan {
            "Looking for tables… none found yet."
        } else {
            "LAN discovery is off."
        });
    }
    for Listed { table: t, words } in info.tables.values() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(fairdeal_net::table::clean_name(&t.info.name)).strong());
            ui.label(words);
            let taken = t.info.seated.iter().flatten().count();
            ui.horizontal(|ui| {
                ui.label(format!("{taken} of 4 seats taken"));
                if ui
                    .button("Watch")
                    .on_hover_text("Follow this table as a spectator: every hand face down, every deal checked here.")
                    .clicked()
                {
                    action = Some(Intent::Watch(Box::new(t.clone())));
                }
            });
            ui.horizontal_wrapped(|ui| {
                for (i, who) in t.info.seated.iter().enumerate() {
                    let seat = fairdeal_core::Seat::from_index(i);
                    match who {
                        Some(name) => {
                            let name = fairdeal_net::table::clean_name(name);
                            ui.label(format!("{}: {name}", seat.name()));
                        }
                        None => {
                            if ui.button(format!("Sit {}", seat.name())).clicked() {
                                action = Some(Intent::Join {
                                    table: Box::new(t.clone()),
                                    want: Some(i as u8),
                                });
                            }
                        }
                    }
                }
            });
        });
    }
    ui.add_space(8.0);
    seat_wish(ui, &mut s.join_seat);
    ui.label("Discovery blocked? Ask the host for the address their lobby shows:");
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut s.address)
                .hint_text("/ip4/192.168.1.20/tcp/40123/p2p/12D3Koo…")
                .desired_width(300.0),
        );
        let go = ui.add_enabled(!s.address.trim().is_empty(), egui::Button::new("Join"));
        if go.clicked() || (field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))) {
            action = Some(Intent::JoinAddress(s.address.trim().to_owned()));
        }
    });
    ui.add_space(8.0);
    ui.label("Friends beyond the LAN? Paste the invitation the host sent you:");
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut s.invite)
                .hint_text("fairdeal:/ip4/…/p2p-circuit/p2p/12D3Koo…#Friday samba")
                .desired_width(300.0),
        );
        let go = ui.add_enabled(
            !s.invite.trim().is_empty(),
            egui::Button::new("Join by invitation"),
        );
        if go.clicked() || (field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))) {
            action = Some(Intent::JoinInvite(s.invite.trim().to_owned()));
        }
    });
    action
}

/// The seats a guest may ask for by address or invitation, in words (the host sits South).
const SEAT_WISHES: [(Option<u8>, &str); 4] = [
    (Some(2), "North (the host's partner)"),
    (Some(1), "West (an opponent)"),
    (Some(3), "East (an opponent)"),
    (None, "any free seat"),
];

/// The seat asked for when joining by address or invitation; a seat taken by then is
/// replaced by the first free one (the host decides).
fn seat_wish(ui: &mut Ui, want: &mut Option<u8>) {
    ui.horizontal(|ui| {
        let l = ui.label("Joining by address or invitation, ask for:");
        let shown = SEAT_WISHES
            .iter()
            .find(|(w, _)| w == want)
            .map_or("any free seat", |(_, words)| words);
        egui::ComboBox::from_id_salt("join-seat")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (w, words) in SEAT_WISHES {
                    ui.selectable_value(want, w, words);
                }
            })
            .response
            .labelled_by(l.id);
    });
}

/// The move clock in words ("no move clock", "2 minutes a turn").
pub fn clock_words(minutes: u64) -> String {
    match minutes {
        0 => "no move clock".to_owned(),
        1 => "1 minute a turn".to_owned(),
        m => format!("{m} minutes a turn"),
    }
}
