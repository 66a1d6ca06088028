//! The table: scores, whose turn it is, the other seats with their last turns, both teams'
//! melds, stock and pile, and at the bottom — always at the same place — the plan, the hand
//! and the move buttons; the hints and the move log at the right.
//!
//! Steady: the bottom area has a fixed height and the meld areas a fixed share of what is
//! left (they scroll), so nothing moves under the pointer between turns. Cards are picked by
//! clicking (selection) or dragged: onto one of our melds, onto "new meld", onto the pile
//! (a discard) or along the hand (reorder).

use std::sync::Arc;

use eframe::egui::{self, Color32, Frame, Margin, Rect, RichText, Sense, Ui, Vec2};
use fairdeal_core::{Card, Move, PlayerView, Seat, Team};

use super::actions::{self, Asked, who_plays};
use super::cards::{self, HAND, Marks, SMALL};
use super::game::Game;
use super::hand::{self, Dragged};
use super::melds::melds_area;
use super::prefs::{SortBy, TablePrefs};
use super::seats;
use super::seen::Place;

/// Where a drag ended.
enum Drop {
    Meld(usize),
    NewMeld,
    Group(usize),
    Pile,
}

/// The colour of warnings and refusals.
pub const WARN: Color32 = Color32::from_rgb(200, 120, 0);

/// The height of the bottom area (feedback, plan, hand, buttons).
const BOTTOM: f32 = 246.0;

/// The table's felt, for the theme.
fn felt(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(24, 58, 38)
    } else {
        Color32::from_rgb(178, 212, 184)
    }
}

/// Draws the table of `g`.
pub fn table_ui(ui: &mut Ui, g: &mut Game, prefs: &mut TablePrefs) {
    // The view is lent out of the game for the frame (not cloned every frame) and put back.
    let Some(view) = g.view.take() else {
        away_ui(ui, g);
        return;
    };
    table_body(ui, g, &view, prefs);
    g.view = Some(view);
}

/// No hand of ours to show (between hands, or while a computer player holds our seat): what
/// is happening, the score, the latest moves and the chat, and the way out, on one card.
fn away_ui(ui: &mut Ui, g: &mut Game) {
    ui.painter().rect_filled(ui.max_rect(), 0.0, felt(ui));
    let (title, text) = if g.held && g.over.is_none() {
        (
            "A computer player is playing your seat",
            if g.status.is_empty() {
                "You get it back at the start of the next hand.".to_owned()
            } else {
                g.status.clone()
            },
        )
    } else if g.status.is_empty() {
        (
            "Waiting for the table",
            "The next hand is being dealt…".to_owned(),
        )
    } else {
        ("Waiting for the table", g.status.clone())
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
                    ui.label(
                        RichText::new(format!(
                            "Score: we {} · they {}",
                            g.totals[g.our_team().index()],
                            g.totals[g.our_team().other().index()]
                        ))
                        .strong(),
                    );
                    ui.separator();
                    ui.strong("Latest moves");
                    let recent = g.log.len().saturating_sub(10);
                    if g.log.is_empty() {
                        ui.weak("Nothing yet.");
                    }
                    for line in &g.log[recent..] {
                        ui.add(egui::Label::new(RichText::new(line).weak()).wrap());
                    }
                    ui.separator();
                    super::chat::chat_box(ui, g, 170.0);
                    ui.add_space(6.0);
                    if g.over.is_none() && ui.button("Leave the table").clicked() {
                        g.leave_asked = true;
                    }
                });
            });
    });
}

fn table_body(ui: &mut Ui, g: &mut Game, view: &PlayerView, prefs: &mut TablePrefs) {
    ui.painter().rect_filled(ui.max_rect(), 0.0, felt(ui));
    header(ui, g, view, prefs);
    banner(ui, g, view);
    seats::turn_banner(ui, g, view);
    let mut asked = Asked::default();
    let mut dropped: Option<(Drop, Dragged)> = None;
    let mut feedback = Rect::NOTHING;
    // At most about a third of the window: wider content wraps or is cut, never pushes the
    // panel over the melds and the hand.
    let log_max = (ui.available_width() * 0.34).clamp(300.0, 440.0);
    egui::Panel::right("log")
        .resizable(true)
        .default_size(250.0)
        .min_size(220.0)
        .max_size(log_max)
        .show(ui, |ui| {
            actions::hints(ui, g, view, &mut asked);
            ui.separator();
            ui.heading("Moves");
            // The moves above, the chat below them (a third of what is left, at least 170).
            let chat_height = (ui.available_height() / 3.0).max(170.0);
            let separator = ui.spacing().item_spacing.y * 2.0 + 2.0;
            egui::ScrollArea::vertical()
                .id_salt("moves")
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .max_height((ui.available_height() - chat_height - separator).max(60.0))
                .show(ui, |ui| {
                    for line in &g.log {
                        ui.label(line);
                    }
                });
            ui.separator();
            super::chat::chat_box(ui, g, chat_height);
        });
    egui::Panel::bottom("hand-area")
        .exact_size(BOTTOM)
        .frame(Frame::NONE.inner_margin(Margin::symmetric(4, 2)))
        .show_separator_line(true)
        .show(ui, |ui| {
            // Written at the end of the frame, once this frame's keys and clicks are known.
            feedback = ui
                .allocate_exact_size(Vec2::new(ui.available_width(), 20.0), Sense::hover())
                .0;
            if let Some(d) = plan_row(ui, g, view, &mut asked) {
                dropped = Some(d);
            }
            hand_area(ui, g, view, prefs);
            ui.add_space(4.0);
            actions::actions_row(ui, g, view, &mut asked);
        });
    egui::CentralPanel::no_frame().show(ui, |ui| {
        seats::seats_row(ui, g, view);
        ui.add_space(4.0);
        if let Some(d) = middle(ui, g, view, prefs, &mut asked) {
            dropped = Some(d);
        }
    });
    if let Some((drop, d)) = dropped {
        on_drop(g, view, drop, d, &mut asked);
    }
    if let Some(mv) = asked.mv {
        g.seen.say = None;
        match view.validate(&mv) {
            Ok(()) => g.send(mv),
            Err(r) => g.seen.say = Some(format!("Not allowed: {}", r.reason)),
        }
    } else if let Some(say) = asked.say {
        g.seen.say = Some(say);
    }
    if actions::key(ui, egui::Key::Escape) {
        g.selected.clear();
    }
    feedback_line(ui, g, feedback);
    // Cards in flight and a canasta's celebration are painted over everything, so not while
    // the score sheet covers the table (they were drawn on top of it).
    if !g.show_report {
        super::motion::paint(ui, &mut g.seen, view, !prefs.reduced_motion);
    }
    drag_preview(ui);
}

fn header(ui: &mut Ui, g: &mut Game, view: &PlayerView, prefs: &mut TablePrefs) {
    let us = view.seat().team();
    let them = us.other();
    // Once this hand is scored (the score sheet is up), the totals after it.
    let mut scores = view.scores();
    if let Some((n, r)) = &g.report
        && *n == g.hand_no
    {
        scores = [0, 1].map(|t| scores[t].saturating_add(r.scores[t]));
    }
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!("We {}", scores[us.index()]))
                .strong()
                .size(18.0),
        );
        ui.label(RichText::new(format!("They {}", scores[them.index()])).size(18.0));
        ui.label(format!("Target {}", view.rules().target));
        ui.separator();
        if g.hand_no > 0 {
            ui.label(format!("Hand {}", g.hand_no));
        }
        let dealer = view.dealer();
        ui.label(format!(
            "{} · dealer {} ({})",
            view.rules().preset,
            g.name(dealer),
            dealer.name()
        ));
        let need = view.minimum_needed(us);
        if need > 0 {
            ui.separator();
            ui.label(format!("We need {need} to open"));
        }
        let them_need = view.minimum_needed(them);
        if them_need > 0 {
            ui.label(format!("· they need {them_need}"));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .small_button("Leave the table")
                .on_hover_text("A computer player takes your seat at once; Resume on the start screen gives it back to you from the next hand.")
                .clicked()
            {
                g.leave_asked = true;
            }
            if ui.small_button("How to play (F1)").clicked() {
                g.help = !g.help;
            }
            if let Some((seat, left)) = g.clock {
                let secs = left.div_ceil(1000);
                ui.label(format!(
                    "{} to play: {}:{:02} left on the move clock",
                    g.name(seat),
                    secs / 60,
                    secs % 60
                ));
            }
            ui.menu_button("Table settings", |ui| {
                ui.label("Sort the hand");
                let before = prefs.sort;
                ui.radio_value(&mut prefs.sort, SortBy::Rank, "By rank (wilds first)");
                ui.radio_value(&mut prefs.sort, SortBy::Suit, "By suit (for sequences)");
                if prefs.sort != before {
                    g.order.reset();
                }
                ui.checkbox(
                    &mut prefs.reduced_motion,
                    "Reduced motion (cards do not move)",
                );
            });
        });
    });
}

/// Who is gone or awaited.
fn banner(ui: &mut Ui, g: &Game, view: &PlayerView) {
    if !g.down.is_empty() && g.over.is_none() {
        // The seconds count on even when nothing arrives.
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs(1));
        let who: Vec<String> = g
            .down
            .iter()
            .map(|(s, since)| {
                format!(
                    "{} ({}) lost connection ({} s)",
                    g.name(*s),
                    s.name(),
                    since.elapsed().as_secs()
                )
            })
            .collect();
        Frame::new()
            .fill(Color32::from_rgba_unmultiplied(200, 120, 0, 40))
            .inner_margin(6.0)
            .show(ui, |ui| {
                ui.colored_label(
                    WARN,
                    format!(
                        "⚠ {}. The table waits for them to come back; if they stay away past the grace period, the hand is void and a computer player takes the seat.",
                        who.join(", ")
                    ),
                );
            });
        return;
    }
    // The seat to play is awaited as a matter of course (the turn band says so): only the
    // others are named, so that this line does not come and go with every turn.
    let others: Vec<String> = g
        .waiting
        .iter()
        .filter(|s| **s != view.seat() && **s != view.actor())
        .map(|s| g.name(*s))
        .collect();
    if !others.is_empty() && view.actor() != view.seat() {
        ui.colored_label(WARN, format!("Waiting for {}…", others.join(", ")));
    }
}

/// Stock and pile at the left, their melds above ours at the right (each scrolls).
fn middle(
    ui: &mut Ui,
    g: &mut Game,
    view: &PlayerView,
    prefs: &TablePrefs,
    asked: &mut Asked,
) -> Option<(Drop, Dragged)> {
    let mut dropped = None;
    let height = ui.available_height();
    ui.horizontal_top(|ui| {
        ui.allocate_ui(Vec2::new(150.0, height), |ui| {
            ui.set_width(150.0);
            if let Some(d) = seats::stock_and_pile(ui, g, view, asked) {
                dropped = Some((Drop::Pile, d));
            }
        });
        ui.separator();
        ui.vertical(|ui| {
            let motion = !prefs.reduced_motion;
            let half = ((height - 8.0) / 2.0).max(60.0);
            let us = view.seat().team();
            let them = us.other();
            ui.allocate_ui(Vec2::new(ui.available_width(), half), |ui| {
                let out = melds_area(
                    ui,
                    view,
                    them,
                    &format!("Their melds ({})", team_names(g, them)),
                    false,
                    &mut g.seen,
                    motion,
                );
                if out.clicked.is_some() {
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
                    "Our melds (click or drop cards on one to add them)",
                    true,
                    &mut g.seen,
                    motion,
                );
                if let Some((i, d)) = out.dropped {
                    dropped = Some((Drop::Meld(i), d));
                }
                if let Some(i) = out.clicked {
                    if !g.my_turn {
                        asked.say = Some(format!("Our meld {}: wait for your turn.", i + 1));
                    } else if g.selected.is_empty() {
                        asked.say = Some(format!(
                            "Our meld {}: select cards in your hand first, then click the meld to add them.",
                            i + 1
                        ));
                    } else {
                        let cards = std::mem::take(&mut g.selected);
                        g.plan_onto(i, cards);
                    }
                }
            });
        });
    });
    dropped
}

/// The feedback line: why a key or click did nothing, else the game's status (always one
/// line high).
fn feedback_line(ui: &mut Ui, g: &Game, rect: Rect) {
    let (text, colour) = match &g.seen.say {
        Some(say) => (say.as_str(), WARN),
        None => (g.status.as_str(), ui.visuals().strong_text_color()),
    };
    if !text.is_empty() {
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        child.add(egui::Label::new(RichText::new(text).strong().color(colour)).truncate());
    }
}

/// The plan: planned groups (drop targets), cards planned onto melds, the "new meld" zone,
/// and its buttons; one row of fixed height that scrolls sideways.
fn plan_row(
    ui: &mut Ui,
    g: &mut Game,
    view: &PlayerView,
    asked: &mut Asked,
) -> Option<(Drop, Dragged)> {
    let mut dropped = None;
    let mut undo = None;
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), 56.0), Sense::hover());
    let mut row = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    egui::ScrollArea::horizontal()
        .id_salt("plan")
        .show(&mut row, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Plan:").strong());
                for (i, m) in g.plan.iter().enumerate() {
                    let r = Frame::group(ui.style()).show(ui, |ui| {
                        for &c in m {
                            cards::card(ui, c, SMALL, false, "planned");
                        }
                        if ui
                            .small_button("✖")
                            .on_hover_text("Undo this group")
                            .clicked()
                        {
                            undo = Some(i);
                        }
                    });
                    if let Some(d) = r.response.dnd_release_payload::<Dragged>() {
                        dropped = Some((Drop::Group(i), *d));
                    }
                }
                for (to, cards_) in &g.plan_adds {
                    ui.label(format!("onto meld {}:", to + 1));
                    for &c in cards_ {
                        cards::card(ui, c, SMALL, false, "planned");
                    }
                }
                let zone = Frame::group(ui.style()).show(ui, |ui| {
                    ui.weak("drop here: new meld");
                });
                if let Some(d) = zone.response.dnd_release_payload::<Dragged>() {
                    dropped = Some((Drop::NewMeld, *d));
                }
                actions::plan_buttons(ui, g, view, asked);
            });
        });
    if let Some(i) = undo {
        g.plan.remove(i);
    }
    dropped
}

/// "Your hand" with the sort buttons, then the hand row.
fn hand_area(ui: &mut Ui, g: &mut Game, view: &PlayerView, prefs: &mut TablePrefs) {
    let cards = g.unplanned(view);
    let shown = g.order.arrange(&cards, prefs.sort);
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Your hand ({})", shown.len())).strong());
        ui.weak("click to select, drag onto a meld, the plan or the pile, or along the hand");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            for (sort, label) in [(SortBy::Suit, "By suit"), (SortBy::Rank, "By rank")] {
                let on = prefs.sort == sort && !g.order.is_manual();
                if ui.selectable_label(on, label).clicked() {
                    prefs.sort = sort;
                    g.order.reset();
                }
            }
            ui.weak("Sort:");
        });
    });
    let sort = (!g.order.is_manual()).then_some(prefs.sort);
    let out = hand::hand_row(ui, &shown, &g.selected, &g.seen.drawn, sort);
    if let Some(r) = out.rect {
        g.seen.places.insert(Place::Hand, r);
    }
    if let Some(i) = out.clicked {
        let c = shown[i];
        let selected_before = g.selected.iter().filter(|x| **x == c).count();
        let position = shown[..i].iter().filter(|x| **x == c).count();
        if position < selected_before {
            if let Some(p) = g.selected.iter().position(|x| *x == c) {
                g.selected.remove(p);
            }
        } else {
            g.selected.push(c);
        }
    }
    if let Some((from, to)) = out.reorder {
        g.order.move_card(&shown, from, to);
    }
}

/// The cards a drag moves: the whole selection when the dragged card is in it.
fn dragged_cards(g: &mut Game, card: Card) -> Vec<Card> {
    if g.selected.contains(&card) {
        std::mem::take(&mut g.selected)
    } else {
        vec![card]
    }
}

fn on_drop(g: &mut Game, view: &PlayerView, drop: Drop, d: Dragged, asked: &mut Asked) {
    if !g.my_turn {
        asked.say = Some(format!("Not your turn — {}.", who_plays(g, view)));
        return;
    }
    let card = d.card;
    match drop {
        Drop::Meld(i) => {
            let cards = dragged_cards(g, card);
            g.plan_onto(i, cards);
        }
        Drop::NewMeld => {
            let cards = dragged_cards(g, card);
            g.plan.push(cards);
        }
        Drop::Group(i) => {
            let cards = dragged_cards(g, card);
            if let Some(group) = g.plan.get_mut(i) {
                group.extend(cards);
            }
        }
        Drop::Pile => {
            let mv = Move::Discard(card);
            match view.validate(&mv) {
                Ok(()) => asked.mv = Some(mv),
                Err(r) => {
                    asked.say = Some(format!(
                        "Discard {}: Not allowed: {}",
                        card.label(),
                        r.reason
                    ));
                }
            }
        }
    }
}

/// The dragged card follows the pointer.
fn drag_preview(ui: &mut Ui) {
    let ctx = ui.ctx().clone();
    let Some(d) = egui::DragAndDrop::payload::<Dragged>(&ctx) else {
        return;
    };
    let Some(pos) = ctx.pointer_interact_pos() else {
        return;
    };
    let d: Arc<Dragged> = d;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Tooltip,
        egui::Id::unique("drag-card"),
    ));
    cards::paint(
        &painter,
        Rect::from_center_size(pos, HAND),
        d.card,
        Marks {
            selected: true,
            ..Marks::default()
        },
    );
}

/// The seat names of a team, for the score sheet ("Ann + Bea").
pub fn team_names(g: &Game, team: Team) -> String {
    let seats: Vec<Seat> = Seat::ALL.into_iter().filter(|s| s.team() == team).collect();
    seats
        .iter()
        .map(|s| g.name(*s))
        .collect::<Vec<_>>()
        .join(" + ")
}
