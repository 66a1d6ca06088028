//! Cards drawn as vector shapes (any size, light and dark themes), with accessible labels.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Response, Sense, Stroke, StrokeKind, Ui, Vec2,
};
use fairdeal_core::Card;

/// The size of a card in hand.
pub const HAND: Vec2 = Vec2::new(46.0, 66.0);
/// The size of a card on the table.
pub const SMALL: Vec2 = Vec2::new(30.0, 42.0);

fn ink(card: Card) -> Color32 {
    if card.is_wild() {
        Color32::from_rgb(120, 60, 170)
    } else if card.suit().is_some_and(fairdeal_core::Suit::is_red) {
        Color32::from_rgb(200, 30, 40)
    } else {
        Color32::from_rgb(20, 20, 20)
    }
}

/// Draws `card` at `size`; `selected` lifts and outlines it; `place` ends its accessible name
/// ("in your hand", "on the pile"). Returns the click response.
pub fn card(ui: &mut Ui, card: Card, size: Vec2, selected: bool, place: &str) -> Response {
    card_with(ui, card, size, selected, place, Sense::click())
}

/// A card in the hand: clicked to select, dragged to play.
pub fn hand_card(ui: &mut Ui, card: Card, selected: bool) -> Response {
    card_with(
        ui,
        card,
        HAND,
        selected,
        "in your hand",
        Sense::click_and_drag(),
    )
}

fn card_with(
    ui: &mut Ui,
    card: Card,
    size: Vec2,
    selected: bool,
    place: &str,
    sense: Sense,
) -> Response {
    let (mut rect, response) = ui.allocate_exact_size(size, sense);
    if selected {
        rect = rect.translate(Vec2::new(0.0, -8.0));
    }
    let painter = ui.painter();
    let face = if card.is_hidden() {
        Color32::from_rgb(40, 80, 140)
    } else {
        Color32::from_rgb(252, 250, 244)
    };
    painter.rect_filled(rect, CornerRadius::same(4), face);
    let outline = if selected {
        Stroke::new(2.5, Color32::from_rgb(230, 160, 20))
    } else if response.hovered() {
        Stroke::new(1.5, Color32::from_rgb(90, 140, 220))
    } else {
        Stroke::new(1.0, Color32::from_gray(110))
    };
    painter.rect_stroke(rect, CornerRadius::same(4), outline, StrokeKind::Inside);
    if !card.is_hidden() {
        let label = card.label();
        let big = FontId::proportional(size.y * 0.30);
        painter.text(rect.center(), Align2::CENTER_CENTER, &label, big, ink(card));
        let mark = if card.is_wild() {
            Some("W")
        } else if card.is_three() {
            Some("3!")
        } else {
            None
        };
        if let Some(mark) = mark {
            painter.text(
                rect.left_top() + Vec2::new(3.0, 2.0),
                Align2::LEFT_TOP,
                mark,
                FontId::proportional(size.y * 0.16),
                ink(card),
            );
        }
    }
    let name = if card.is_hidden() {
        format!("hidden card {place}")
    } else {
        format!("{} {place}", card.label())
    };
    response
        .widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, selected, &name));
    response.on_hover_text(name)
}

/// The order cards are shown in a hand: naturals by rank then suit, then threes, then wilds.
pub fn sort_key(card: &Card) -> (u8, u8, u8) {
    let group = if card.is_wild() {
        2
    } else if card.is_three() {
        1
    } else {
        0
    };
    let rank = card.rank().map_or(99, |r| r.index() as u8);
    let suit = card.suit().map_or(9, |s| s as u8);
    (group, rank, suit)
}
