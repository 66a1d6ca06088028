//! The table: scores, whose turn it is, the other seats with their last turns, both teams'
//! melds, stock and pile, and at the bottom — always at the same place — the plan, the hand
//! and the move buttons; the hints and the move log at the right.
//!
//! Steady: the bottom area has a fixed height and the meld areas a fixed share of what is
//! left (they scroll), so nothing moves under the pointer between turns. Cards are picked by
//! clicking (selection) or dragged: onto one of our melds, onto "new meld", onto the pile
//! (a discard) or along the hand (reorder).

use eframe::egui::{self, Color32, Frame, Margin, Rect, RichText, Sense, Ui, Vec2};
use fairdeal_core::{PlayerView, Team};

use super::actions::{self, Asked};
use super::cards::WARN;
use super::choices::Theme;
use super::game::{Desk, Model};
use super::hand::Dragged;
use super::intent::Intent;
use super::melds::melds_area;
use super::plan::{Drop, drag_preview, hand_area, on_drop, plan_row};
use super::prefs::{SortBy, TablePrefs};
use super::seats;

/// The height of the bottom area (feedback, plan, hand, buttons).
const BOTTOM: f32 = 260.0;
/// The height of the feedback line: two lines of text (a long refusal was cut to one with
/// "…", its end only in a tooltip).
const FEEDBACK_H: f32 = 34.0;

/// The table's felt, for the theme.
fn felt(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(24, 58, 38)
    } else {
        Color32::from_rgb(178, 212, 184)
    }
}

/// Draws the table of `m`, the player's work on it in `d`; what they ask for goes to `out`.
pub fn table_ui(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    prefs: &mut TablePrefs,
    out: &mut Vec<Intent>,
) {
    super::leave::confirm_leave(ui, m, d, out);
    let Some(view) = &m.view else {
        away_ui(ui, m, d, out);
        return;
    };
    table_body(ui, m, d, view, prefs, out);
}

/// No hand of ours to show (between hands, or while a computer player holds our seat): what
/// is happening, the score, the latest moves and the chat, and the way out, on one card.
fn away_ui(ui: &mut Ui, m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    ui.painter().rect_filled(ui.max_rect(), 0.0, felt(ui));
    let (title, text) = if m.held && m.over.is_none() {
        (
            "A computer player is playing your seat",
            if m.status.is_empty() {
                "You get it back at the start of the next hand.".to_owned()
            } else {
                m.status.clone()
            },
        )
    } else if m.status.is_empty() {
        (
            "Waiting for the table",
            "The next hand is being dealt…".to_owned(),
        )
    } else {
        ("Waiting for the table", m.status.clone())
    };
    let width = (ui.available_width() - 32.0).clamp(300.0, 620.0);
    ui.vertical_centered(|ui| {
        ui.add_space((ui.available_height() * 0.08).min(60.0));
        Frame::group(ui.style())
            .fill(ui.visuals().panel_fill)
            .inner_margin(Margin::same(16))
            .show(ui, |ui| {
                ui.set_width(width);
                ui.vertical(|ui| {
                    ui.heading(title);
                    ui.label(text);
                    ui.add_space(6.0);
                    let score = if m.onlooker {
                        format!(
                            "Score: {} {} · {} {}",
                            m.team_names(Team::A),
                            m.totals[Team::A.index()],
                            m.team_names(Team::B),
                            m.totals[Team::B.index()]
                        )
                    } else {
                        format!(
                            "Score: we {} · they {}",
                            m.totals[m.our_team().index()],
                            m.totals[m.our_team().other().index()]
                        )
                    };
                    ui.label(RichText::new(score).strong());
                    ui.separator();
                    ui.strong("Latest moves");
                    let recent = m.log.len().saturating_sub(10);
                    if m.held && m.over.is_none() {
                        // This client has no part in the hand under way, so it hears none of
                        // its moves: an old list here would look like a frozen table.
                        ui.weak(
                            "The moves of the hand under way are not shown here; you see the \
                             table again when your seat is back.",
                        );
                    } else if m.log.is_empty() {
                        ui.weak("Nothing yet.");
                    } else {
                        for line in &m.log[recent..] {
                            ui.add(egui::Label::new(RichText::new(line).weak()).wrap());
                        }
                    }
                    ui.separator();
                    super::chat::chat_box(ui, m, d, 170.0, out);
                    ui.add_space(6.0);
                    if m.over.is_none() {
                        super::leave::leave_button(ui, m, d, false, out);
                    }
                });
            });
    });
}

fn table_body(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    prefs: &mut TablePrefs,
    out: &mut Vec<Intent>,
) {
    // Esc in the chat line is the chat's (it gives the keys back). egui lets go of the
    // line's focus at Esc before the frame begins, so the table asks where the keys were
    // at the end of the last frame.
    let typing_id = egui::Id::unique("typing at the last frame's end");
    let in_chat = ui.data(|mem| mem.get_temp::<bool>(typing_id).unwrap_or(false));
    // At a table only looked at, the arrow keys step the replay (or do nothing): only Tab
    // goes into the hand there.
    super::hand_keys::keys_into_hand(ui, view.hand().len(), !m.looks_only());
    // Esc that closes a menu (the table settings) is the menu's: it does not also clear
    // the selection. The menu closes while the top line is drawn, so asked now.
    let menu_open = egui::Popup::is_any_open(ui.ctx());
    // The felt goes under everything but the move list's panel, which has its own fill:
    // with software rendering, filling the window several times over was most of a frame.
    // What is left of the window: a bar drawn above the table (the spectator's, the
    // replay's) stays uncovered.
    let table = ui.available_rect_before_wrap();
    let felt_shapes = [
        ui.painter().add(egui::Shape::Noop),
        ui.painter().add(egui::Shape::Noop),
    ];
    header(ui, m, d, view, prefs, out);
    let waiting = banner(ui, m, view);
    seats::turn_banner(ui, m, view, waiting.as_deref());
    let mut asked = Asked::default();
    let mut dropped: Option<(Drop, Dragged)> = None;
    let mut feedback = Rect::NOTHING;
    // A refusal said stays until the player does something else with the cards (selects,
    // plans, undoes): then it is old news. Copied only while there is one.
    let work_before = d
        .seen
        .say
        .is_some()
        .then(|| (d.selected.clone(), d.plan.clone(), d.plan_adds.clone()));
    // At most about a third of the window: wider content wraps or is cut, never pushes the
    // panel over the melds and the hand.
    let log_max = (ui.available_width() * 0.34).clamp(300.0, 440.0);
    let log_panel = egui::Panel::right("log")
        .resizable(true)
        .default_size(250.0)
        .min_size(220.0)
        .max_size(log_max)
        .show(ui, |ui| {
            if !m.looks_only() {
                actions::hints(ui, m, view, &mut asked);
                ui.separator();
            }
            ui.heading("Moves");
            // The moves above, the chat below them (a third of what is left, at least 170).
            let chat_height = (ui.available_height() / 3.0).max(170.0);
            let separator = ui.spacing().item_spacing.y * 2.0 + 2.0;
            super::moves::move_list(ui, m, d, chat_height + separator);
            ui.separator();
            super::chat::chat_box(ui, m, d, chat_height, out);
        })
        .response
        .rect;
    let colour = felt(ui);
    let above = Rect::from_min_max(table.min, egui::pos2(table.max.x, log_panel.min.y));
    let left = Rect::from_min_max(
        egui::pos2(table.min.x, log_panel.min.y),
        egui::pos2(log_panel.min.x, table.max.y),
    );
    // The score sheets are placed over the table, not over the move list and the chat
    // (otherwise a sheet can cover the chat's heading and first lines).
    super::sheet::set_table_area(ui.ctx(), left);
    for (idx, rect) in felt_shapes.into_iter().zip([above, left]) {
        ui.painter()
            .set(idx, egui::Shape::rect_filled(rect, 0.0, colour));
    }
    egui::Panel::bottom("hand-area")
        .exact_size(BOTTOM)
        .frame(Frame::NONE.inner_margin(Margin::symmetric(4, 2)))
        .show_separator_line(true)
        .show(ui, |ui| {
            // Written at the end of the frame, once this frame's keys and clicks are known.
            feedback = ui
                .allocate_exact_size(Vec2::new(ui.available_width(), FEEDBACK_H), Sense::hover())
                .0;
            if m.looks_only() {
                // Nothing here is played: the hand (face down) is only looked at.
                super::plan::onlooker_hand(ui, view);
            } else {
                if let Some(drop) = plan_row(ui, m, d, view, &mut asked) {
                    dropped = Some(drop);
                }
                hand_area(ui, d, view, prefs);
                ui.add_space(4.0);
                actions::actions_row(ui, m, d, view, &mut asked);
            }
        });
    egui::CentralPanel::no_frame().show(ui, |ui| {
        seats::seats_row(ui, m, d, view);
        ui.add_space(4.0);
        if let Some(drop) = middle(ui, m, d, view, prefs, &mut asked) {
            dropped = Some(drop);
        }
    });
    if m.looks_only() {
        // Clicks on the stock and the pile, and the move keys, play nothing here.
        asked = Asked::default();
        dropped = None;
    }
    if let Some((drop, dragged)) = dropped {
        on_drop(m, d, view, drop, dragged, &mut asked);
    }
    if let Some(mv) = asked.mv {
        d.seen.say = None;
        match view.validate(&mv) {
            Ok(()) => out.push(Intent::Play(mv)),
            Err(r) => d.seen.say = Some(format!("Not allowed: {}", r.reason)),
        }
    } else if let Some(say) = asked.say {
        d.seen.say = Some(say);
    } else if work_before.is_some_and(|(selected, plan, adds)| {
        selected != d.selected || plan != d.plan || adds != d.plan_adds
    }) {
        d.seen.say = None;
    }
    if !in_chat && !menu_open && !m.looks_only() && actions::key(ui, egui::Key::Escape) {
        if d.selected.is_empty() {
            d.seen.say = Some("Esc clears the selection: nothing is selected.".to_owned());
        }
        d.selected.clear();
    }
    if !m.looks_only() && dropped_nowhere(ui) {
        d.seen.say = Some(NOWHERE.to_owned());
    }
    feedback_line(ui, m, d, asked.verdict.as_deref(), feedback);
    let typing = ui.ctx().text_edit_focused();
    ui.data_mut(|mem| mem.insert_temp(typing_id, typing));
    super::hand_keys::note_focus(ui, view.hand().len());
    // Cards in flight and a canasta's celebration are painted over everything, so not while
    // the score sheet covers the table (they were drawn on top of it).
    if !d.show_report {
        super::motion::paint(ui, &mut d.seen, view, !prefs.reduced_motion);
    }
    drag_preview(ui);
}

/// What a card dropped where no card goes is told.
const NOWHERE: &str = "A card goes on the pile (a discard), on one of our melds or on \"new meld\" (planned), or along your hand (moved): it is back in your hand.";

/// Whether a dragged card was let go where nothing takes it (the stock, the move list, the
/// chat): every target takes the card it is given, so one still carried was dropped nowhere.
fn dropped_nowhere(ui: &Ui) -> bool {
    ui.input(|i| i.pointer.any_released())
        && egui::DragAndDrop::has_payload_of_type::<Dragged>(ui.ctx())
}

fn header(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    prefs: &mut TablePrefs,
    out: &mut Vec<Intent>,
) {
    let us = view.seat().team();
    let them = us.other();
    // Once this hand is scored (the score sheet is up), the totals after it.
    let mut scores = view.scores();
    if let Some((n, r)) = &m.report
        && *n == m.hand_no
    {
        scores = [0, 1].map(|t| scores[t].saturating_add(r.scores[t]));
    }
    // The buttons at the right first, then the scores and notes in what is left (laid out
    // first, "they need …" ran under "Table settings" at 1024 wide).
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            super::leave::leave_button(ui, m, d, true, out);
            if ui.small_button("How to play (F1)").clicked() {
                d.help = !d.help;
            }
            if let Some((seat, left)) = m.clock {
                let secs = left.div_ceil(1000);
                ui.label(format!(
                    "{} to play: {}:{:02} left on the move clock",
                    m.name(seat),
                    secs / 60,
                    secs % 60
                ));
            }
            // Open until a click outside it: a player trying the settings one after another
            // had it close at every tick.
            let stays = egui::containers::menu::MenuConfig::new()
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            egui::containers::menu::MenuButton::new("Table settings")
                .config(stays)
                .ui(ui, |ui| {
                    if !m.looks_only() {
                        ui.label("Sort the hand");
                        let before = prefs.sort;
                        ui.radio_value(&mut prefs.sort, SortBy::Rank, "By rank (wilds first)");
                        ui.radio_value(&mut prefs.sort, SortBy::Suit, "By suit (for sequences)");
                        if prefs.sort != before {
                            d.order.reset();
                        }
                    }
                    ui.checkbox(
                        &mut prefs.reduced_motion,
                        "Reduced motion (cards do not move)",
                    );
                    let was = prefs.sounds;
                    ui.checkbox(
                        &mut prefs.sounds,
                        "Sounds (a draw, a discard, a canasta, your turn)",
                    );
                    if prefs.sounds && !was {
                        // A sample at once: the player hears what is coming, or learns now
                        // that nothing will.
                        d.seen.cues.push(super::sound::Cue::YourTurn);
                    }
                    if let Some(why) = d.sound_trouble.as_deref().filter(|_| prefs.sounds) {
                        ui.colored_label(ui.visuals().warn_fg_color, format!("No sound: {why}."));
                    }
                    // The theme as on the start screen: a player who finds the table too
                    // bright in the evening changes it here.
                    ui.separator();
                    ui.label("Theme");
                    let now = match ui.ctx().options(|o| o.theme_preference) {
                        egui::ThemePreference::Light => Theme::Light,
                        egui::ThemePreference::Dark => Theme::Dark,
                        egui::ThemePreference::System => Theme::System,
                    };
                    ui.horizontal(|ui| {
                        for theme in Theme::ALL {
                            if ui.radio(now == theme, theme.word()).clicked() && now != theme {
                                out.push(Intent::Theme(theme));
                            }
                        }
                    });
                });
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if m.onlooker {
                    let team = |t: Team| format!("{} {}", m.team_names(t), scores[t.index()]);
                    // Players' names can be long: cut to the room left by the buttons.
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("{} · {}", team(Team::A), team(Team::B)))
                                .strong()
                                .size(18.0),
                        )
                        .truncate(),
                    );
                } else {
                    ui.label(
                        RichText::new(format!("We {}", scores[us.index()]))
                            .strong()
                            .size(18.0),
                    );
                    ui.label(RichText::new(format!("They {}", scores[them.index()])).size(18.0));
                }
                ui.label(format!("Target {}", view.rules().target));
                ui.separator();
                if m.hand_no > 0 {
                    ui.label(format!("Hand {}", m.hand_no));
                }
                // What does not fit is cut ("…", the whole in the tooltip), never drawn under
                // the buttons; what a player needs to know to play (the opening minimum)
                // comes first, the game and the dealer after it.
                let mut notes: Vec<String> = Vec::new();
                let need = view.minimum_needed(us);
                let them_need = view.minimum_needed(them);
                if m.onlooker {
                    for t in [Team::A, Team::B] {
                        let n = view.minimum_needed(t);
                        if n > 0 {
                            notes.push(format!("{} need {n} to open", m.team_names(t)));
                        }
                    }
                } else {
                    match (need > 0, them_need > 0) {
                        (true, true) => {
                            notes.push(format!("we need {need} to open, they {them_need}"))
                        }
                        (true, false) => notes.push(format!("we need {need} to open")),
                        (false, true) => notes.push(format!("they need {them_need} to open")),
                        (false, false) => {}
                    }
                }
                notes.push(view.rules().preset.to_string());
                // "Computer East" says its seat already.
                let dealer = view.dealer();
                let name = m.name(dealer);
                notes.push(if name.contains(dealer.name()) {
                    format!("dealer {name}")
                } else {
                    format!("dealer {name} ({})", dealer.name())
                });
                let notes = notes.join(" · ");
                ui.add(egui::Label::new(notes).truncate());
            });
        });
    });
}

/// Who is gone (a warning band), or who else is awaited (returned, for the turn band).
fn banner(ui: &mut Ui, m: &Model, view: &PlayerView) -> Option<String> {
    if super::outage::band(ui, m) {
        return None;
    }
    if !m.down.is_empty() && m.over.is_none() {
        // The seconds count on even when nothing arrives.
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs(1));
        let who: Vec<String> = m
            .down
            .iter()
            .map(|(s, since)| {
                format!(
                    "{} ({}) lost connection ({} s)",
                    m.name(*s),
                    s.name(),
                    since.elapsed().as_secs()
                )
            })
            .collect();
        super::outage::warning(
            ui,
            "lost connection band",
            &format!(
                "⚠ {}. The table waits for them to come back; if they stay away past the grace period, the hand is void and a computer player takes the seat.",
                who.join(", ")
            ),
        );
        return None;
    }
    // The seat to play is awaited as a matter of course (the turn band says so): only the
    // others are named, so that this line does not come and go with every turn.
    let others: Vec<String> = m
        .waiting
        .iter()
        .filter(|s| **s != view.seat() && **s != view.actor())
        .map(|s| m.name(*s))
        .collect();
    (!others.is_empty() && view.actor() != view.seat())
        .then(|| format!("also waiting for an answer from {}…", others.join(", ")))
}

/// Stock and pile at the left, their melds above ours at the right (each scrolls).
fn middle(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    prefs: &TablePrefs,
    asked: &mut Asked,
) -> Option<(Drop, Dragged)> {
    let mut dropped = None;
    let height = ui.available_height();
    ui.horizontal_top(|ui| {
        ui.allocate_ui(Vec2::new(150.0, height), |ui| {
            ui.set_width(150.0);
            // Stock and pile side by side, the pile's notes under them (in the row's own
            // horizontal layout they were cut to "Bloc…" beside the pile).
            ui.vertical(|ui| {
                if let Some(dragged) = seats::stock_and_pile(ui, m, d, view, asked) {
                    dropped = Some((Drop::Pile, dragged));
                }
            });
        });
        ui.separator();
        ui.vertical(|ui| {
            let motion = !prefs.reduced_motion;
            let half = ((height - 8.0) / 2.0).max(60.0);
            let us = view.seat().team();
            let them = us.other();
            let title = |team: Team, ours: &str| {
                if m.onlooker {
                    format!("{} melds", super::move_words::team_words(team))
                } else {
                    ours.to_owned()
                }
            };
            ui.allocate_ui(Vec2::new(ui.available_width(), half), |ui| {
                let out = melds_area(
                    ui,
                    view,
                    them,
                    &title(them, &format!("Their melds ({})", m.team_names(them))),
                    false,
                    &mut d.seen,
                    motion,
                );
                // A click or a card dropped there: the same word (a drop said nothing).
                if !m.looks_only() && (out.clicked.is_some() || out.dropped.is_some()) {
                    asked.say = Some(
                        "That is their meld: add cards to one of ours (below).".to_owned(),
                    );
                }
            });
            ui.separator();
            ui.allocate_ui(Vec2::new(ui.available_width(), half), |ui| {
                let out = melds_area(
                    ui,
                    view,
                    us,
                    &title(us, "Our melds (click or drop cards on one to plan them)"),
                    !m.looks_only(),
                    &mut d.seen,
                    motion,
                );
                if m.looks_only() {
                    return;
                }
                if let Some((i, dragged)) = out.dropped {
                    dropped = Some((Drop::Meld(i), dragged));
                }
                if let Some(i) = out.clicked {
                    if !m.my_turn {
                        asked.say = Some(format!("Our meld {}: wait for your turn.", i + 1));
                    } else if d.selected.is_empty() {
                        asked.say = Some(format!(
                            "Our meld {}: select cards in your hand first, then click the meld to add them.",
                            i + 1
                        ));
                    } else {
                        let cards = std::mem::take(&mut d.selected);
                        super::plan::onto_meld(d, view, i, cards, asked);
                    }
                }
            });
        });
    });
    dropped
}

/// The feedback line: why a key or click did nothing, else why the plan cannot be played,
/// else the game's status (always two lines high).
fn feedback_line(ui: &mut Ui, m: &Model, d: &Desk, verdict: Option<&str>, rect: Rect) {
    let (text, colour) = match (&d.seen.say, verdict) {
        (Some(say), _) => (say.as_str(), WARN),
        (None, Some(verdict)) => (verdict, WARN),
        (None, None) => (m.status.as_str(), ui.visuals().strong_text_color()),
    };
    if !text.is_empty() {
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        // Wrapped onto the second line; anything longer is cut at the line's bottom edge.
        child.set_clip_rect(rect.intersect(child.clip_rect()));
        child.add(egui::Label::new(RichText::new(text).strong().color(colour)).wrap());
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "rows_tests.rs"]
mod rows_tests;

#[cfg(test)]
#[path = "melds_tests.rs"]
mod melds_tests;
