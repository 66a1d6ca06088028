//! Cards drawn as vector shapes (any size, light and dark themes), with accessible labels:
//! one card, a card at a place the caller lays out (fans that overlap), a completed canasta
//! as a stack, and the two orders a hand can be sorted in.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Response, Sense, Stroke,
    StrokeKind, Ui, Vec2,
};
use fairdeal_core::Card;

/// The size of a card in hand.
pub const HAND: Vec2 = Vec2::new(46.0, 66.0);
/// The size of a card on the table.
pub const SMALL: Vec2 = Vec2::new(30.0, 42.0);

/// The colour of warnings and refusals.
pub const WARN: Color32 = Color32::from_rgb(200, 120, 0);

/// How far a selected card lifts.
pub const LIFT: f32 = 10.0;

/// Every text a card's face is written with: corner ranks and suits, centre labels, the
/// wild and three marks. Each is laid out on its own, so its glyphs fall on the same
/// sub-pixel positions every time (what the font atlas keys them by).
pub fn face_texts() -> Vec<String> {
    use fairdeal_core::{Rank, Suit};
    let mut cards: Vec<Card> = Suit::ALL
        .into_iter()
        .flat_map(|s| Rank::ALL.into_iter().map(move |r| Card::new(r, s)))
        .collect();
    cards.extend([Card::JOKER, Card::HIDDEN]);
    let mut texts: Vec<String> = cards
        .into_iter()
        .flat_map(|c| {
            let (rank, suit) = corner(c);
            [rank, suit, c.label()]
        })
        .chain(["W".to_owned(), "3!".to_owned()])
        .collect();
    texts.sort();
    texts.dedup();
    texts
}

/// A font size on the half-point grid. Each size the font atlas has not seen yet is
/// rasterised in the frame that first uses it: a card shrinking in flight would otherwise
/// write its face at a new size every frame (and grow the atlas mid-game).
pub fn text_size(size: f32) -> f32 {
    (size * 2.0).round() / 2.0
}

/// The sizes a card of height `h` writes its face in: corner, centre, mark.
pub fn face_sizes(h: f32) -> [f32; 3] {
    [
        text_size((h * 0.22).max(9.0)),
        text_size(h * 0.26),
        text_size(h * 0.16),
    ]
}

/// The ink of a card's face: wilds purple, red suits red, black suits near black.
pub fn ink(card: Card) -> Color32 {
    if card.is_wild() {
        Color32::from_rgb(120, 60, 170)
    } else if card.suit().is_some_and(fairdeal_core::Suit::is_red) {
        Color32::from_rgb(200, 30, 40)
    } else {
        Color32::from_rgb(20, 20, 20)
    }
}

/// What a card shows besides its face.
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks {
    /// Selected (lifted, outlined).
    pub selected: bool,
    /// Under the pointer.
    pub hovered: bool,
    /// Outlined in this colour (the seat that just played it).
    pub ring: Option<Color32>,
    /// A "new" corner (just drawn).
    pub new: bool,
}

/// Paints `card` in `rect` (no interaction): corner index (rank over suit, readable when
/// cards overlap), a large centre label, W for wilds and 3! for threes.
pub fn paint(painter: &Painter, rect: Rect, card: Card, marks: Marks) {
    let round = CornerRadius::same((rect.width() * 0.09).round().clamp(2.0, 6.0) as u8);
    painter.rect_filled(
        rect.translate(Vec2::new(1.0, 1.5)),
        round,
        Color32::from_black_alpha(50),
    );
    if card.is_hidden() {
        painter.rect_filled(rect, round, Color32::from_rgb(40, 80, 140));
        let inner = rect.shrink(rect.width() * 0.12);
        painter.rect_stroke(
            inner,
            CornerRadius::same(2),
            Stroke::new(1.0, Color32::from_rgb(120, 160, 220)),
            StrokeKind::Inside,
        );
    } else {
        painter.rect_filled(rect, round, Color32::from_rgb(252, 250, 244));
        let ink = ink(card);
        let h = rect.height();
        let (rank, suit) = corner(card);
        let [corner_size, centre_size, mark_size] = face_sizes(h);
        let corner_font = FontId::proportional(corner_size);
        // Close to the edge: in a fan only a strip of each card shows.
        let x = rect.left() + (rect.width() * 0.06).max(1.5);
        painter.text(
            Pos2::new(x, rect.top() + 1.0),
            Align2::LEFT_TOP,
            rank,
            corner_font.clone(),
            ink,
        );
        painter.text(
            Pos2::new(x, rect.top() + h * 0.22),
            Align2::LEFT_TOP,
            suit,
            corner_font,
            ink,
        );
        painter.text(
            rect.center() + Vec2::new(rect.width() * 0.12, h * 0.1),
            Align2::CENTER_CENTER,
            card.label(),
            FontId::proportional(centre_size),
            ink,
        );
        let mark = if card.is_wild() {
            Some("W")
        } else if card.is_three() {
            Some("3!")
        } else {
            None
        };
        if let Some(mark) = mark {
            painter.text(
                Pos2::new(x, rect.bottom() - 1.0),
                Align2::LEFT_BOTTOM,
                mark,
                FontId::proportional(mark_size),
                ink,
            );
        }
    }
    let outline = if marks.selected {
        Stroke::new(2.5, Color32::from_rgb(230, 160, 20))
    } else if let Some(c) = marks.ring {
        Stroke::new(2.5, c)
    } else if marks.hovered {
        Stroke::new(1.5, Color32::from_rgb(90, 140, 220))
    } else {
        Stroke::new(1.0, Color32::from_gray(110))
    };
    painter.rect_stroke(rect, round, outline, StrokeKind::Inside);
    if marks.new {
        let r = (rect.width() * 0.12).clamp(3.0, 6.0);
        let at = rect.right_top() + Vec2::new(-r - 2.0, r + 2.0);
        painter.circle_filled(at, r, Color32::from_rgb(30, 130, 230));
    }
}

/// The corner index: rank and suit symbol ("10", "♥"; "Jk", "" for a joker).
fn corner(card: Card) -> (String, String) {
    match (card.rank(), card.suit()) {
        (Some(r), Some(s)) => (r.label().to_owned(), s.symbol().to_string()),
        _ => ("Jk".to_owned(), "★".to_owned()),
    }
}

/// The accessible name of a card at `place` ("9♣ in your hand").
pub fn name(card: Card, place: &str) -> String {
    if card.is_hidden() {
        format!("hidden card {place}")
    } else {
        format!("{} {place}", card.label())
    }
}

/// Draws `card` at `size`; `selected` lifts and outlines it; `place` ends its accessible name
/// ("in your hand", "on the pile"). Returns the click response.
pub fn card(ui: &mut Ui, card: Card, size: Vec2, selected: bool, place: &str) -> Response {
    card_marked(
        ui,
        card,
        size,
        Marks {
            selected,
            ..Marks::default()
        },
        place,
    )
}

/// [`card`] with every mark.
pub fn card_marked(ui: &mut Ui, card: Card, size: Vec2, marks: Marks, place: &str) -> Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    let lifted = if marks.selected {
        rect.translate(Vec2::new(0.0, -LIFT))
    } else {
        rect
    };
    let marks = Marks {
        hovered: response.hovered(),
        ..marks
    };
    paint(ui.painter(), lifted, card, marks);
    if response.has_focus() {
        focus_ring(ui, lifted);
    }
    described(response, card, marks.selected, place)
}

/// The keyboard's place, drawn around `rect` (a card, a meld, the pile): Space or Enter
/// would act on what it rings, so it shows before they are pressed.
pub fn focus_ring(ui: &Ui, rect: Rect) {
    ui.painter().rect_stroke(
        rect.expand(3.0),
        CornerRadius::same(6),
        ui.visuals().selection.stroke,
        StrokeKind::Outside,
    );
}

/// Draws `card` to be seen only (a red three laid out): named for assistive technology,
/// but no Tab stop, since there is nothing to do with it.
pub fn card_seen(ui: &mut Ui, card: Card, size: Vec2, place: &str) -> Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    paint(ui.painter(), rect, card, Marks::default());
    described(response, card, false, place)
}

/// `cards` overlapping in a fan `step` apart (each still named and hovered on the part
/// that shows), taking the width of one card and the steps; whether a card of it was clicked.
pub fn fan(ui: &mut Ui, cards: &[Card], size: Vec2, step: f32, place: &str) -> bool {
    let mut clicked = false;
    let n = cards.len();
    let width = size.x + step * n.saturating_sub(1) as f32;
    let (rect, fan) = ui.allocate_exact_size(Vec2::new(width, size.y), Sense::hover());
    for (k, &c) in cards.iter().enumerate() {
        let at = Rect::from_min_size(rect.min + Vec2::new(k as f32 * step, 0.0), size);
        let shows = if k + 1 == n {
            at
        } else {
            Rect::from_min_size(at.min, Vec2::new(step, size.y))
        };
        // Each card's id from its fan's own: two fans in one scope (the plan's groups) must
        // not name the same widgets.
        let r = ui.interact(shows, fan.id.with(("fan", place, k)), Sense::click());
        clicked |= r.clicked();
        paint(
            ui.painter(),
            at,
            c,
            Marks {
                hovered: r.hovered(),
                ..Marks::default()
            },
        );
        described(r, c, false, place);
    }
    clicked
}

/// Gives `response` the card's accessible name and hover text.
pub fn described(response: Response, card: Card, selected: bool, place: &str) -> Response {
    named(response.clone(), card, selected, place);
    response.on_hover_text(name(card, place))
}

/// Gives `response` the card's accessible name only: a card big enough to read needs no
/// hover text (in the hand, "7♦ in your hand" covered the move buttons below it).
pub fn named(response: Response, card: Card, selected: bool, place: &str) -> Response {
    let name = name(card, place);
    response
        .widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, selected, &name));
    response
}

/// Paints a completed canasta or samba as one pile: a few card edges under `top`, and a
/// ribbon across saying what it is.
pub fn paint_stack(painter: &Painter, rect: Rect, top: Card, ribbon: &str, colour: Color32) {
    for k in (1..=3).rev() {
        let r = rect.translate(Vec2::new(k as f32 * 2.5, k as f32 * -2.5));
        painter.rect_filled(r, CornerRadius::same(4), Color32::from_rgb(236, 232, 222));
        painter.rect_stroke(
            r,
            CornerRadius::same(4),
            Stroke::new(1.0, Color32::from_gray(120)),
            StrokeKind::Inside,
        );
    }
    paint(painter, rect, top, Marks::default());
    let band = Rect::from_min_max(
        Pos2::new(rect.left(), rect.bottom() - rect.height() * 0.3),
        Pos2::new(rect.right(), rect.bottom() - rect.height() * 0.08),
    );
    painter.rect_filled(band, CornerRadius::ZERO, colour);
    painter.text(
        band.center(),
        Align2::CENTER_CENTER,
        ribbon,
        FontId::proportional(text_size((band.height() * 0.8).max(8.0))),
        Color32::WHITE,
    );
}

/// Hand order by rank: wilds first (jokers, then twos), then naturals from ace down, then
/// threes; suits together within a rank.
pub fn rank_key(card: &Card) -> (u8, u8, u8) {
    let group = if card.is_wild() {
        0
    } else if card.is_three() {
        2
    } else {
        1
    };
    // Jokers before twos; then from ace down.
    let rank = card.rank().map_or(0, |r| 13 - r.index() as u8);
    let suit = card.suit().map_or(9, |s| s as u8);
    (group, rank, suit)
}

/// Hand order by suit, for sequences: wilds first, then each suit from low to high (♠ ♥ ♣ ♦,
/// colours alternating), then threes.
pub fn suit_key(card: &Card) -> (u8, u8, u8) {
    use fairdeal_core::Suit;
    let group = if card.is_wild() {
        0
    } else if card.is_three() {
        2
    } else {
        1
    };
    // Jokers (no suit) before twos.
    let suit = match card.suit() {
        None => 0,
        Some(Suit::Spades) => 1,
        Some(Suit::Hearts) => 2,
        Some(Suit::Clubs) => 3,
        Some(Suit::Diamonds) => 4,
    };
    let rank = card.rank().map_or(99, |r| r.index() as u8);
    (group, suit, rank)
}

/// The order cards are shown in a meld: naturals by rank then suit, then threes, then wilds.
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

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::{Rank, Suit};

    #[test]
    fn by_rank_puts_wilds_first_and_aces_high() {
        let mut v = [
            Card::new(Rank::Three, Suit::Clubs),
            Card::new(Rank::Four, Suit::Spades),
            Card::new(Rank::Ace, Suit::Hearts),
            Card::JOKER,
            Card::new(Rank::Two, Suit::Clubs),
        ];
        v.sort_by_key(rank_key);
        let labels: Vec<String> = v.iter().map(|c| c.label()).collect();
        assert_eq!(labels[0], Card::JOKER.label());
        assert_eq!(labels[2], Card::new(Rank::Ace, Suit::Hearts).label());
        assert_eq!(labels[4], Card::new(Rank::Three, Suit::Clubs).label());
    }

    #[test]
    fn by_suit_keeps_each_suit_together_in_sequence() {
        let mut v = [
            Card::new(Rank::Nine, Suit::Hearts),
            Card::new(Rank::Five, Suit::Spades),
            Card::new(Rank::Seven, Suit::Hearts),
            Card::new(Rank::King, Suit::Spades),
        ];
        v.sort_by_key(suit_key);
        let ranks: Vec<Rank> = v.iter().filter_map(|c| c.rank()).collect();
        assert_eq!(ranks, [Rank::Five, Rank::King, Rank::Seven, Rank::Nine]);
    }
}
