//! The bottom of the table, where the player works: the plan (groups prepared, cards
//! planned onto melds, the "new meld" zone and the plan's buttons), the hand with its sort
//! buttons, and where a dragged card is dropped (a meld, the plan, the pile) and drawn.

use std::sync::Arc;

use eframe::egui::{self, Frame, Rect, RichText, Sense, Ui, Vec2};
use fairdeal_core::{Card, MeldKind, Move, PlayerView};

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

/// How far the cards of a planned group are apart.
const PLAN_STEP: f32 = 12.0;

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
    let mut clicked = None;
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), 56.0), Sense::hover());
    let mut row = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    // A mouse wheel (up and down) scrolls the row sideways, as the only way it scrolls.
    row.style_mut().always_scroll_the_only_direction = true;
    // A plan wider than the row shows its bar (over the row's lower edge) without a hover.
    let mut bar = egui::style::ScrollStyle::floating();
    bar.dormant_handle_opacity = 0.8;
    bar.dormant_background_opacity = 0.3;
    bar.foreground_color = true;
    row.spacing_mut().scroll = bar;
    egui::ScrollArea::horizontal()
        .id_salt("plan")
        .show(&mut row, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Plan:").strong());
                // The buttons first: after the groups they scrolled out of sight as the plan
                // grew ("Undo la…"). One above the other, so that three planned melds and
                // the "new meld" zone fit beside them at 1024 wide.
                ui.vertical(|ui| {
                    ui.spacing_mut().item_spacing.y = 2.0;
                    actions::plan_buttons(ui, m, d, view, asked);
                });
                for (i, m) in d.plan.iter().enumerate() {
                    let r = Frame::group(ui.style()).show(ui, |ui| {
                        // Overlapping as on the table: side by side, two groups filled the row.
                        if cards::fan(ui, m, SMALL, PLAN_STEP, "planned") {
                            clicked = Some(Drop::Group(i));
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
                    ui.label(format!("onto our meld {}:", to + 1));
                    if cards::fan(ui, cards_, SMALL, PLAN_STEP, "planned") {
                        clicked = Some(Drop::Meld(*to));
                    }
                }
                let zone = Frame::group(ui.style()).show(ui, |ui| {
                    // Small, as the row's words are: at 1024 wide the zone fits after three
                    // planned melds.
                    ui.label(RichText::new("drop here: new meld").small().weak());
                });
                if let Some(dragged) = zone.response.dnd_release_payload::<Dragged>() {
                    dropped = Some((Drop::NewMeld, *dragged));
                }
                if zone.response.interact(Sense::click()).clicked() {
                    clicked = Some(Drop::NewMeld);
                }
            });
        });
    if let Some(i) = undo {
        d.plan.remove(i);
    }
    // A click adds the selection, as a drop of it does (the row's words say "a click or
    // drop"); with nothing selected it says how.
    if let Some(to) = clicked {
        match d.selected.first() {
            Some(&card) => {
                dropped = Some((to, Dragged { card, index: None }));
            }
            None => {
                asked.say = Some(
                    "Select cards in your hand first, then click the planned group (or the new meld zone) to add them."
                        .to_owned(),
                );
            }
        }
    }
    dropped
}

/// For a table only looked at: the bottom seat's hand (face down to an onlooker, a
/// player's own in a replay of its log), named by its seat, with nothing to do to it.
pub(crate) fn onlooker_hand(ui: &mut Ui, view: &PlayerView) {
    let seat = view.seat();
    let cards = view.hand().to_vec();
    ui.label(RichText::new(format!("{}'s hand ({})", seat.name(), cards.len())).strong());
    hand::hand_row(ui, &cards, &[], &[], None);
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
    if out.too_soon {
        d.seen.say = Some(
            "Your hand just changed (new cards came in): look, then click the card again."
                .to_owned(),
        );
    }
    if let Some((from, to)) = out.reorder {
        d.order.move_card(&shown, from, to);
    }
}

impl Desk {
    /// Cards of the hand not in the plan.
    pub fn unplanned(&self, view: &PlayerView) -> Vec<Card> {
        let mut rest = view.hand().clone();
        for c in self
            .plan
            .iter()
            .flatten()
            .chain(self.plan_adds.iter().flat_map(|(_, c)| c))
        {
            rest.remove(*c);
        }
        rest.iter().collect()
    }

    /// The plan as a move.
    pub fn plan_move(&self) -> Move {
        Move::Meld(fairdeal_core::Plan {
            new: self.plan.clone(),
            add: self
                .plan_adds
                .iter()
                .map(|(to, cards)| fairdeal_core::Add {
                    to: *to,
                    cards: cards.clone(),
                })
                .collect(),
            ..Default::default()
        })
    }

    /// Whether anything is planned.
    pub fn has_plan(&self) -> bool {
        !self.plan.is_empty() || !self.plan_adds.is_empty()
    }

    /// Adds `cards` onto team meld `to` in the plan, or says why the game would refuse them
    /// there (a wild onto a sequence, a card onto a finished samba, another rank): refused
    /// cards stay in the hand. An addition short only of naturals the hand still holds (too
    /// many wilds for now) is kept: the plan's own verdict then says what it lacks.
    ///
    /// # Errors
    ///
    /// The refusal, in the words shown beside the table.
    pub fn plan_onto(
        &mut self,
        view: &PlayerView,
        to: usize,
        cards: Vec<Card>,
    ) -> Result<(), String> {
        let rules = view.rules();
        let Some(meld) = view.melds(view.seat().team()).get(to) else {
            return Err(format!("Meld {}: there is no such meld.", to + 1));
        };
        let mut adding: Vec<Card> = self
            .plan_adds
            .iter()
            .filter(|(t, _)| *t == to)
            .flat_map(|(_, c)| c.iter().copied())
            .collect();
        adding.extend(&cards);
        if let Err(refusal) = meld.with_added(rules, &adding) {
            let fixable = match meld.kind() {
                MeldKind::Group(rank) => {
                    let mut spare = self.unplanned(view);
                    for c in &cards {
                        if let Some(p) = spare.iter().position(|x| x == c) {
                            spare.remove(p);
                        }
                    }
                    adding.extend(spare.into_iter().filter(|c| c.rank() == Some(rank)));
                    meld.with_added(rules, &adding).is_ok()
                }
                _ => false,
            };
            if !fixable {
                let what: Vec<String> = cards.iter().map(|c| c.label()).collect();
                return Err(format!(
                    "{} onto our meld {}: Not allowed: {}",
                    what.join(" "),
                    to + 1,
                    refusal.reason
                ));
            }
        }
        match self.plan_adds.iter_mut().find(|(t, _)| *t == to) {
            Some((_, v)) => v.extend(cards),
            None => self.plan_adds.push((to, cards)),
        }
        Ok(())
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
            onto_meld(d, view, i, cards, asked);
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
        Drop::Pile if d.has_plan() => {
            asked.say = Some(format!(
                "Discard {}: {}",
                card.label(),
                actions::UNPLAYED_PLAN
            ));
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

/// Plans `cards` onto meld `to`; refused, they stay in the hand, selected, and the reason is
/// said beside the table.
pub(crate) fn onto_meld(
    d: &mut Desk,
    view: &PlayerView,
    to: usize,
    cards: Vec<Card>,
    asked: &mut Asked,
) {
    if let Err(why) = d.plan_onto(view, to, cards.clone()) {
        asked.say = Some(why);
        d.selected = cards;
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

#[cfg(test)]
mod tests {
    use fairdeal_core::Preset;

    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    fn view(hand: &str) -> PlayerView {
        view_in(Preset::Samba, hand)
    }

    fn view_in(preset: Preset, hand: &str) -> PlayerView {
        crate::gui::testkit::view_in(preset, hand, "S")
    }

    #[test]
    fn a_card_the_meld_refuses_stays_in_the_hand_with_the_reason() {
        let v = view("2C JC 7S KS 9D");
        let mut d = Desk::default();
        let why = d.plan_onto(&v, 0, cards("2C")).unwrap_err();
        assert!(why.starts_with("2♣ onto our meld 1: Not allowed:"), "{why}");
        let why = d.plan_onto(&v, 1, cards("JC")).unwrap_err();
        assert!(why.contains("samba is complete"), "{why}");
        assert!(d.plan_onto(&v, 2, cards("9D")).is_err(), "another rank");
        assert!(d.plan_adds.is_empty());
        assert_eq!(d.unplanned(&v).len(), 5, "nothing left the hand");
        // What the meld takes goes into the plan, and the plan plays.
        d.plan_onto(&v, 0, cards("7S")).unwrap();
        d.plan_onto(&v, 2, cards("KS")).unwrap();
        assert_eq!(d.unplanned(&v).len(), 3);
        assert_eq!(v.validate(&d.plan_move()), Ok(()));
    }

    #[test]
    fn a_wild_waiting_for_naturals_in_the_hand_is_kept() {
        // Dutch Samba: a group needs twice as many naturals as wilds. Two wilds onto three
        // kings wait for the fourth king, when the hand holds one; else they are refused.
        let with_king = view_in(Preset::DutchSamba, "2C 2D KS 9D");
        let mut d = Desk::default();
        d.plan_onto(&with_king, 2, cards("2C 2D")).unwrap();
        assert!(
            with_king.validate(&d.plan_move()).is_err(),
            "not playable yet"
        );
        d.plan_onto(&with_king, 2, cards("KS")).unwrap();
        assert_eq!(with_king.validate(&d.plan_move()), Ok(()));
        let without = view_in(Preset::DutchSamba, "2C 2D 9D");
        let why = Desk::default()
            .plan_onto(&without, 2, cards("2C 2D"))
            .unwrap_err();
        assert!(why.contains("Not allowed"), "{why}");
    }
}
