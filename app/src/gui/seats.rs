//! Around the melds: whose turn it is (a band in the seat's colour), the other three seats
//! with their last turns and discards, and the stock and pile with why the pile is frozen or
//! blocked (a click on either plays or says why not).

use eframe::egui::{self, Color32, Frame, Margin, RichText, Sense, Stroke, Ui, Vec2};
use fairdeal_core::{Card, Move, Phase, PlayerView, Team};

use super::actions::{Asked, pile_refusal, pile_takes, who_plays};
use super::cards::{self, HAND, Marks, SMALL};
use super::game::{Desk, Model};
use super::hand::Dragged;
use super::melds::seat_colour;
use super::seen::Place;

/// Whose turn it is, in a band of the seat's colour that never changes height.
pub fn turn_banner(ui: &mut Ui, m: &Model, view: &PlayerView, also: Option<&str>) {
    let me = view.seat();
    let (text, colour) = if view.phase() == Phase::Over {
        ("The hand is over".to_owned(), Color32::from_gray(110))
    } else if m.my_turn {
        let what = match view.phase() {
            Phase::Draw => "Your turn: draw from the stock (D) or take the pile",
            Phase::Answer => "Your partner asks to go out: answer Yes (Y) or No (N)",
            _ => "Your turn: meld if you can, then discard a card (X) to end it",
        };
        (what.to_owned(), seat_colour(me))
    } else {
        (who_plays(m, view), seat_colour(view.actor()))
    };
    Frame::new()
        .fill(colour)
        .corner_radius(4)
        .inner_margin(Margin::symmetric(10, 4))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(text)
                        .size(18.0)
                        .strong()
                        .color(Color32::WHITE),
                );
                // Who else the table waits for, in the band (a line of its own came and went,
                // and moved the whole table under the pointer).
                if let Some(also) = also {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.add(
                            egui::Label::new(RichText::new(also).color(Color32::WHITE)).truncate(),
                        );
                    });
                }
            });
        });
}

/// The other three seats, left to right as they sit: West, North (partner), East; the seat
/// to play outlined, each with its last turn and its last discard.
pub fn seats_row(ui: &mut Ui, m: &Model, d: &mut Desk, view: &PlayerView) {
    let me = view.seat();
    let seats = [me.next(), me.partner(), me.partner().next()];
    let gap = ui.spacing().item_spacing.x;
    let width = ((ui.available_width() - 2.0 * gap) / 3.0).max(120.0);
    ui.horizontal(|ui| {
        for seat in seats {
            let (rect, seat_box) = ui.allocate_exact_size(Vec2::new(width, 64.0), Sense::hover());
            d.seen.places.insert(Place::Seat(seat), rect);
            let playing = view.actor() == seat && view.phase() != Phase::Over;
            let colour = seat_colour(seat);
            let painter = ui.painter();
            let fill = if playing {
                colour.gamma_multiply(0.35)
            } else {
                ui.visuals().extreme_bg_color.gamma_multiply(0.6)
            };
            painter.rect_filled(rect, 6, fill);
            painter.rect_stroke(
                rect,
                6,
                Stroke::new(if playing { 3.0 } else { 1.0 }, colour),
                egui::StrokeKind::Inside,
            );
            let mut inner = ui.new_child(
                egui::UiBuilder::new()
                    .max_rect(rect.shrink2(Vec2::new(8.0, 4.0)))
                    .layout(egui::Layout::top_down(egui::Align::Min)),
            );
            // An onlooker has no partner: the seat's colour and name say whose it is.
            let who = if m.onlooker {
                ""
            } else if seat == me.partner() {
                " (partner)"
            } else {
                " (opponent)"
            };
            let n = view.hand_size(seat);
            let mut cards = format!("{n} card{}", if n == 1 { "" } else { "s" });
            // Beyond the LAN, how this client reaches the seat ("direct" once a hole is
            // punched, or "through the relay").
            // Not while the seat is unheard: the band says so, and the path is stale.
            let unheard = m.down.contains_key(&seat) || m.unheard.iter().any(|u| u.seat == seat);
            if let Some(path) = m.paths.get(&seat).filter(|_| !unheard) {
                cards.push_str(" · ");
                cards.push_str(path.words());
            }
            // "Computer West" says its seat already: the seat's name only for a person's.
            let name = m.seat_name(seat);
            let name = if name.contains(seat.name()) {
                name
            } else {
                format!("{} · {name}", seat.name())
            };
            // One line, cut to the box (a long name ends in "…"); the cards held and the
            // last turn get two lines below it (at 1024 wide, one line cut "discarded …" off).
            // "◀ playing" is never the part cut: at 1024 wide it was ("… ◀ pl…").
            inner.set_clip_rect(rect);
            inner.horizontal(|ui| {
                let title = RichText::new(format!("{name}{who}")).strong().color(colour);
                if !playing {
                    ui.add(egui::Label::new(title).truncate());
                    return;
                }
                let width = |text: &RichText| {
                    egui::WidgetText::from(text.clone())
                        .into_galley(
                            ui,
                            Some(egui::TextWrapMode::Extend),
                            f32::INFINITY,
                            egui::TextStyle::Body,
                        )
                        .size()
                        .x
                };
                // "◀ playing" where the name leaves room for it, else "◀" alone (the box's
                // fill and border say the rest): the name is never cut to make room for
                // the word.
                let gap = ui.spacing().item_spacing.x;
                let words = RichText::new("◀ playing").strong().color(colour);
                let turn = if width(&title) + gap + width(&words) <= ui.available_width() {
                    words
                } else {
                    RichText::new("◀").strong().color(colour)
                };
                let room = ui.available_width() - width(&turn) - gap;
                let height = ui.spacing().interact_size.y;
                ui.allocate_ui(Vec2::new(room.max(0.0), height), |ui| {
                    ui.add(egui::Label::new(title).truncate());
                });
                ui.add(egui::Label::new(turn).extend());
            });
            let last = &d.seen.last[seat.index()];
            let words = last.words(crate::gui::move_words::whose_to(
                seat.team(),
                (!m.onlooker).then_some(me),
            ));
            // The box as a whole, for assistive technology: whose seat, what it holds, what
            // it did last (its parts are painted and labelled apart).
            let playing_words = if playing { ", playing" } else { "" };
            let said = if words.is_empty() {
                String::new()
            } else {
                format!("; {words}")
            };
            let box_name = format!("{name}{who}{playing_words}: {cards}{said}");
            seat_box.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, &box_name));
            inner.horizontal_top(|ui| {
                if let Some(c) = last.discard {
                    cards::card_marked(
                        ui,
                        c,
                        SMALL * 0.55,
                        Marks {
                            ring: Some(colour),
                            ..Marks::default()
                        },
                        &format!("discarded by {}", seat.name()),
                    );
                }
                let text = if words.is_empty() {
                    cards
                } else {
                    format!("{cards} · {words}")
                };
                ui.add(egui::Label::new(two_lines(ui, &text)).wrap());
            });
        }
    });
}

/// `text` in small type, wrapped to the width left and cut to two lines ("…").
fn two_lines(ui: &Ui, text: &str) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::single_section(
        text.to_owned(),
        egui::TextFormat::simple(
            egui::TextStyle::Small.resolve(ui.style()),
            ui.visuals().text_color(),
        ),
    );
    job.wrap = egui::text::TextWrapping {
        max_width: ui.available_width(),
        max_rows: 2,
        break_anywhere: false,
        overflow_character: Some('…'),
    };
    job
}

/// Why the pile is frozen, said to an onlooker (by the teams' seats).
fn onlooker_frozen(view: &PlayerView) -> Option<String> {
    if view.pile_frozen() {
        return Some(
            "❄ Frozen (a wild card is in it): taking it needs a natural pair of the top card"
                .to_owned(),
        );
    }
    let teams: Vec<&str> = [Team::A, Team::B]
        .into_iter()
        .filter(|&t| view.pile_frozen_for(t))
        .map(super::move_words::team_seats)
        .collect();
    if teams.is_empty() {
        return None;
    }
    let why = if view.rules().pile_always_frozen {
        "the house rule keeps it frozen"
    } else if teams.len() == 2 {
        "neither team has opened yet"
    } else {
        "they have not opened yet"
    };
    Some(format!(
        "❄ Frozen for {} ({why}): taking it needs a natural pair of the top card",
        teams.join(" and for ")
    ))
}

/// The stock (click: draw) and the pile (click: take it; drop a card: discard), with why the
/// pile is frozen or blocked; returns a card dropped on the pile.
pub fn stock_and_pile(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    asked: &mut Asked,
) -> Option<Dragged> {
    let us = view.seat().team();
    let mut dropped = None;
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            ui.label(format!("Stock {}", view.stock_len()));
            let r = cards::card(
                ui,
                Card::HIDDEN,
                HAND,
                false,
                "on the stock (click to draw)",
            );
            d.seen.places.insert(Place::Stock, r.rect);
            if r.clicked() {
                if !m.my_turn {
                    asked.say = Some(format!("Stock: not your turn — {}.", who_plays(m, view)));
                } else {
                    match view.validate(&Move::Draw {}) {
                        Ok(()) => asked.mv = Some(Move::Draw {}),
                        Err(r) => asked.say = Some(format!("Draw (D): Not allowed: {}", r.reason)),
                    }
                }
            }
        });
        ui.vertical(|ui| {
            let pile = view.pile();
            ui.label(format!("Pile {}", pile.len()));
            let r = match pile.last() {
                Some(&top) => {
                    let ring = d
                        .seen
                        .last_discarder
                        .filter(|s| d.seen.last[s.index()].discard == Some(top))
                        .map(seat_colour);
                    cards::card_marked(
                        ui,
                        top,
                        HAND,
                        Marks {
                            ring,
                            ..Marks::default()
                        },
                        "on the pile",
                    )
                }
                None => {
                    let (rect, r) = ui.allocate_exact_size(HAND, Sense::click());
                    ui.painter().rect_stroke(
                        rect,
                        4,
                        Stroke::new(1.0, Color32::from_gray(120)),
                        egui::StrokeKind::Inside,
                    );
                    if r.has_focus() {
                        cards::focus_ring(ui, rect);
                    }
                    r
                }
            };
            d.seen.places.insert(Place::Pile, r.rect);
            if let Some(dragged) = r.dnd_release_payload::<Dragged>() {
                dropped = Some(*dragged);
            }
            if r.clicked() {
                let takes = pile_takes(&m.moves.legal);
                asked.say = Some(if !m.my_turn {
                    format!("Pile: not your turn — {}.", who_plays(m, view))
                } else if view.phase() != Phase::Draw {
                    // After the draw, a click on the pile means a discard.
                    if let [card] = d.selected.as_slice() {
                        asked.mv = Some(Move::Discard(*card));
                        String::new()
                    } else if d.selected.is_empty() {
                        "To discard, select one card, then click the pile (or press X).".to_owned()
                    } else {
                        "To discard, select only one card, then click the pile (or press X)."
                            .to_owned()
                    }
                } else if let Some(only) = super::actions::taken_at_once(&takes) {
                    asked.mv = Some(only.clone());
                    String::new()
                } else if takes.is_empty() {
                    format!("Take the pile (T): {}", pile_refusal(view))
                } else if let [_] = takes.as_slice() {
                    "Take the pile (T): that way also melds cards from your hand; see it under \"Take the pile (T): 1 way…\" below your hand, and click it there"
                        .to_owned()
                } else {
                    "Take the pile (T): there are several ways; choose one under \"Take the pile (T): … ways\" below your hand"
                        .to_owned()
                });
                if asked.mv.is_some() {
                    asked.say = None;
                }
            }
        });
    });
    // One label under the cards, wrapped to the column, so that the notes never overlap.
    let mut notes = Vec::new();
    if m.onlooker {
        // No "us" here: frozen for everyone, or for the teams that have not opened.
        notes.extend(onlooker_frozen(view));
    } else if view.pile_frozen_for(us) {
        let why = if view.pile_frozen() {
            "a wild card is in it"
        } else if view.rules().pile_always_frozen {
            "the house rule keeps it frozen"
        } else {
            "we have not opened yet"
        };
        notes.push(format!(
            "❄ Frozen for us ({why}): taking it needs a natural pair of the top card"
        ));
    }
    match view.pile().last() {
        Some(c) if c.is_wild() => {
            notes.push(format!("blocked: a wild card, {}, is on top", c.label()));
        }
        Some(c) if c.is_three() => {
            notes.push(format!(
                "blocked for the next player: a three, {}, is on top",
                c.label()
            ));
        }
        _ => {}
    }
    if !notes.is_empty() {
        let mut text = notes.join("; ");
        if let Some(first) = text.get(..1) {
            text = first.to_uppercase() + &text[1..];
        }
        let label =
            egui::Label::new(RichText::new(text).color(Color32::from_rgb(60, 140, 220))).wrap();
        ui.add(label);
    }
    dropped
}
