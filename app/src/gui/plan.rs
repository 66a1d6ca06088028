//! The bottom of the table, where the player works: the plan (groups prepared, cards
//! planned onto melds, the "new meld" zone and the plan's buttons), the hand with its sort
//! buttons, and where a dragged card is dropped (a meld, the plan, the pile) and drawn.

use std::sync::Arc;

use eframe::egui::{self, Frame, Rect, RichText, Sense, Ui, Vec2};
use fairdeal_core::{Card, Move, PlayerView};

use super::actions::{self, Asked, who_plays};
use super::cards::{self, HAND, Marks, SMALL};
use super::game::{Desk, Model};
use super::hand::{self, Dragged};
use super::prefs::{SortBy, TablePrefs};
use super::seen::Place;

/// Where a drag ended.
pub(crate) enum Drop {
    Meld(usize),
    NewMeld,
    Group(usize),
    Pile,
}

/// The plan: its buttons, planned groups (drop targets), cards planned onto melds and the
/// "new meld" zone; one row of fixed height that scrolls sideways (a plain mouse wheel too).
pub(crate) fn plan_row(
    ui: &mut Ui,
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    asked: &mut Asked,
) -> Option<(Drop, Dragged)> {
    let mut dropped = None;
    let mut undo = None;
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), 56.0), Sense::hover());
    let mut row = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    // A mouse wheel (up and down) scrolls the row sideways, as the only way it scrolls.
    row.style_mut().always_scroll_the_only_direction = true;
    egui::ScrollArea::horizontal()
        .id_salt("plan")
        .show(&mut row, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Plan:").strong());
                // The buttons first: after the groups they scrolled out of sight as the plan
                // grew ("Undo la…").
                actions::plan_buttons(ui, m, d, view, asked);
                for (i, m) in d.plan.iter().enumerate() {
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
                    if let Some(dragged) = r.response.dnd_release_payload::<Dragged>() {
                        dropped = Some((Drop::Group(i), *dragged));
                    }
                }
                for (to, cards_) in &d.plan_adds {
                    ui.label(format!("onto meld {}:", to + 1));
                    for &c in cards_ {
                        cards::card(ui, c, SMALL, false, "planned");
                    }
                }
                let zone = Frame::group(ui.style()).show(ui, |ui| {
                    ui.weak("drop here: new meld");
                });
                if let Some(dragged) = zone.response.dnd_release_payload::<Dragged>() {
                    dropped = Some((Drop::NewMeld, *dragged));
                }
            });
        });
    if let Some(i) = undo {
        d.plan.remove(i);
    }
    dropped
}

/// "Your hand" with the sort buttons, then the hand row.
pub(crate) fn hand_area(ui: &mut Ui, d: &mut Desk, view: &PlayerView, prefs: &mut TablePrefs) {
    let cards = d.unplanned(view);
    let shown = d.order.arrange(&cards, prefs.sort);
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Your hand ({})", shown.len())).strong());
        ui.weak("click to select, drag onto a meld, the plan or the pile, or along the hand");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            for (sort, label) in [(SortBy::Suit, "By suit"), (SortBy::Rank, "By rank")] {
                let on = prefs.sort == sort && !d.order.is_manual();
                if ui.selectable_label(on, label).clicked() {
                    prefs.sort = sort;
                    d.order.reset();
                }
            }
            ui.weak("Sort:");
        });
    });
    let sort = (!d.order.is_manual()).then_some(prefs.sort);
    let out = hand::hand_row(ui, &shown, &d.selected, &d.seen.drawn, sort);
    if let Some(r) = out.rect {
        d.seen.places.insert(Place::Hand, r);
    }
    if let Some(i) = out.clicked {
        let c = shown[i];
        let selected_before = d.selected.iter().filter(|x| **x == c).count();
        let position = shown[..i].iter().filter(|x| **x == c).count();
        if position < selected_before {
            if let Some(p) = d.selected.iter().position(|x| *x == c) {
                d.selected.remove(p);
            }
        } else {
            d.selected.push(c);
        }
    }
    if let Some((from, to)) = out.reorder {
        d.order.move_card(&shown, from, to);
    }
}

/// The cards a drag moves: the whole selection when the dragged card is in it.
fn dragged_cards(d: &mut Desk, card: Card) -> Vec<Card> {
    if d.selected.contains(&card) {
        std::mem::take(&mut d.selected)
    } else {
        vec![card]
    }
}

pub(crate) fn on_drop(
    m: &Model,
    d: &mut Desk,
    view: &PlayerView,
    drop: Drop,
    dragged: Dragged,
    asked: &mut Asked,
) {
    if !m.my_turn {
        asked.say = Some(format!("Not your turn — {}.", who_plays(m, view)));
        return;
    }
    let card = dragged.card;
    match drop {
        Drop::Meld(i) => {
            let cards = dragged_cards(d, card);
            d.plan_onto(i, cards);
        }
        Drop::NewMeld => {
            let cards = dragged_cards(d, card);
            d.plan.push(cards);
        }
        Drop::Group(i) => {
            let cards = dragged_cards(d, card);
            if let Some(group) = d.plan.get_mut(i) {
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
pub(crate) fn drag_preview(ui: &mut Ui) {
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
