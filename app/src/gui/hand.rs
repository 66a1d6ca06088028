//! The hand: one row at a fixed place, in the order the player chose (by rank, by suit, or
//! cards moved by hand), overlapping when there are many, the cards just drawn marked. Click
//! to select; drag onto a meld, the plan or the pile to play, or along the hand to reorder.

use eframe::egui::{self, Color32, Id, Pos2, Rect, Sense, Stroke, Ui, Vec2};
use fairdeal_core::Card;

use super::cards::{self, HAND, LIFT, Marks};
use super::hand_keys::{card_id, card_sense};
use super::prefs::SortBy;

/// A card being dragged (from the hand: its place in the row, for reordering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dragged {
    /// The card.
    pub card: Card,
    /// Its index in the hand row, when dragged from the hand.
    pub index: Option<usize>,
}

/// What happened in the hand row this frame.
#[derive(Debug, Default)]
pub struct HandOut {
    /// A card clicked: its index in the row.
    pub clicked: Option<usize>,
    /// A card of the row dropped along it: (from, to) as for
    /// [`HandOrder::move_card`](super::hand_order::HandOrder::move_card).
    pub reorder: Option<(usize, usize)>,
    /// The row's rectangle.
    pub rect: Option<Rect>,
    /// A card clicked just after new cards came in and moved the row (not taken: the click
    /// was likely meant for the card that was there before).
    pub too_soon: bool,
}

/// How long after new cards come into the hand a click on it is not taken, seconds.
pub const SETTLE: f64 = 0.4;

/// When cards last came into the row (its cards then, and the time).
#[derive(Clone, Default)]
struct Arrivals {
    cards: Vec<Card>,
    at: Option<f64>,
}

/// Whether the row `shown` got a card it did not have at the last frame less than
/// [`SETTLE`] ago (at `now`); remembers the row for the next frame.
fn settling(ctx: &egui::Context, shown: &[Card], now: f64) -> bool {
    let id = Id::unique("hand-arrivals");
    let mut a: Arrivals = ctx.data(|d| d.get_temp(id)).unwrap_or_default();
    // A card of the row that the last frame's row did not hold (counted as the marks are).
    let came = flags(shown, &a.cards).contains(&false);
    if came && !a.cards.is_empty() {
        a.at = Some(now);
    }
    a.cards = shown.to_vec();
    let busy = a.at.is_some_and(|at| now - at < SETTLE);
    ctx.data_mut(|d| d.insert_temp(id, a));
    busy
}

/// Where the row's cards were at the last frame. While the pointer is on the row, a card
/// that leaves it (into the plan, onto a meld) leaves a gap: the cards do not close up under
/// the pointer, so the next click lands on the card the player sees there. The row closes up
/// once the pointer leaves it.
#[derive(Clone, Default)]
struct Places {
    cards: Vec<Card>,
    xs: Vec<f32>,
    width: f32,
}

impl Places {
    /// The places of `shown` kept from these, if `shown` is these cards with some gone
    /// (in the same order) in a row as wide.
    fn kept(&self, shown: &[Card], width: f32) -> Option<Vec<f32>> {
        if (self.width - width).abs() > 0.5 || self.xs.len() != self.cards.len() {
            return None;
        }
        let mut from = 0;
        let mut xs = Vec::with_capacity(shown.len());
        for c in shown {
            let at = from + self.cards[from..].iter().position(|x| x == c)?;
            xs.push(self.xs[at]);
            from = at + 1;
        }
        Some(xs)
    }
}

/// How many of each card are marked in `marks` (selected, just drawn), as flags per position
/// of `shown`.
fn flags(shown: &[Card], marked: &[Card]) -> Vec<bool> {
    let mut left = marked.to_vec();
    shown
        .iter()
        .map(|c| match left.iter().position(|x| x == c) {
            Some(p) => {
                left.remove(p);
                true
            }
            None => false,
        })
        .collect()
}

/// The x offset of each card in a row of `n` cards `width` wide, with a small gap where
/// `group` changes if there is room; cards overlap when there is not.
fn offsets(n: usize, width: f32, group: &dyn Fn(usize) -> u8) -> Vec<f32> {
    let step = HAND.x + 4.0;
    let gaps = (1..n).filter(|&i| group(i) != group(i - 1)).count();
    let full = n.saturating_sub(1) as f32 * step + gaps as f32 * 8.0 + HAND.x;
    if full <= width {
        let mut x = 0.0;
        (0..n)
            .map(|i| {
                if i > 0 {
                    x += step + if group(i) != group(i - 1) { 8.0 } else { 0.0 };
                }
                x
            })
            .collect()
    } else {
        let step = ((width - HAND.x) / n.saturating_sub(1).max(1) as f32).max(8.0);
        (0..n).map(|i| i as f32 * step).collect()
    }
}

/// Draws the hand `shown` in a row of fixed height; `selected` lift, `drawn` are marked.
pub fn hand_row(
    ui: &mut Ui,
    shown: &[Card],
    selected: &[Card],
    drawn: &[Card],
    sort: Option<SortBy>,
) -> HandOut {
    let mut out = HandOut::default();
    let height = HAND.y + LIFT + 4.0;
    let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::hover());
    out.rect = Some(rect);
    let zone = ui.interact(rect, Id::unique("hand-row"), Sense::hover());
    let sel = flags(shown, selected);
    let new = flags(shown, drawn);
    let group = |i: usize| -> u8 {
        match sort {
            Some(SortBy::Rank) => {
                let k = cards::rank_key(&shown[i]);
                if k.0 == 1 { k.1 } else { 100 + k.0 }
            }
            Some(SortBy::Suit) => {
                let k = cards::suit_key(&shown[i]);
                if k.0 == 1 { k.1 } else { 100 + k.0 }
            }
            None => 0,
        }
    };
    let fresh = offsets(shown.len(), rect.width(), &group);
    let on_row = ui
        .ctx()
        .pointer_hover_pos()
        .is_some_and(|p| rect.contains(p));
    let places_id = Id::unique("hand-places");
    let last: Option<Places> = ui.data(|d| d.get_temp(places_id));
    let xs = last
        .filter(|_| on_row)
        .and_then(|p| p.kept(shown, rect.width()))
        .unwrap_or(fresh);
    ui.data_mut(|d| {
        d.insert_temp(
            places_id,
            Places {
                cards: shown.to_vec(),
                xs: xs.clone(),
                width: rect.width(),
            },
        );
    });
    let top = rect.top() + LIFT;
    let dragging = egui::DragAndDrop::payload::<Dragged>(ui.ctx()).and_then(|d| d.index);
    let settling = settling(ui.ctx(), shown, ui.input(|i| i.time));
    for (i, &card) in shown.iter().enumerate() {
        let x = rect.left() + xs[i];
        let next = xs.get(i + 1).map_or(x + HAND.x, |n| rect.left() + n);
        let face = Rect::from_min_size(Pos2::new(x, top), HAND);
        let hit = Rect::from_min_max(
            Pos2::new(x, rect.top()),
            Pos2::new(next.min(x + HAND.x), top + HAND.y),
        );
        let r = ui.interact(hit, card_id(i), card_sense(ui, i));
        r.dnd_set_drag_payload(Dragged {
            card,
            index: Some(i),
        });
        let lifted = if sel[i] {
            face.translate(Vec2::new(0.0, -LIFT))
        } else {
            face
        };
        let marks = Marks {
            selected: sel[i],
            hovered: r.hovered(),
            ring: None,
            new: new[i],
        };
        let mut painter = ui.painter().clone();
        if dragging == Some(i) {
            painter.set_opacity(0.35);
        }
        cards::paint(&painter, lifted, card, marks);
        if r.has_focus() {
            // The keyboard's place in the hand: Space or Enter would select this card.
            cards::focus_ring(ui, lifted);
        }
        let place = if new[i] {
            "just drawn, in your hand"
        } else {
            "in your hand"
        };
        if cards::named(r, card, sel[i], place).clicked() {
            if settling {
                out.too_soon = true;
            } else {
                out.clicked = Some(i);
            }
        }
    }
    if let Some(d) = zone.dnd_hover_payload::<Dragged>()
        && let (Some(from), Some(pos)) = (d.index, ui.ctx().pointer_interact_pos())
    {
        let to = insertion(&xs, rect.left(), pos.x);
        let x = xs.get(to).map_or(
            rect.left() + xs.last().copied().unwrap_or(0.0) + HAND.x + 2.0,
            |x| rect.left() + x - 2.0,
        );
        if to != from && to != from + 1 {
            ui.painter().vline(
                x,
                top..=top + HAND.y,
                Stroke::new(3.0, Color32::from_rgb(230, 160, 20)),
            );
        }
    }
    if let Some(d) = zone.dnd_release_payload::<Dragged>()
        && let (Some(from), Some(pos)) = (d.index, ui.ctx().pointer_interact_pos())
    {
        out.reorder = Some((from, insertion(&xs, rect.left(), pos.x)));
    }
    out
}

/// The index a card dropped at `x` goes before.
fn insertion(xs: &[f32], left: f32, x: f32) -> usize {
    xs.iter()
        .position(|&cx| x < left + cx + HAND.x / 2.0)
        .unwrap_or(xs.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_gone_leaves_its_gap_and_nothing_else_is_kept() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let places = Places {
            cards: vec![c("2C"), c("7S"), c("KS"), c("9D")],
            xs: vec![0.0, 50.0, 100.0, 150.0],
            width: 600.0,
        };
        assert_eq!(
            places.kept(&[c("2C"), c("KS"), c("9D")], 600.0),
            Some(vec![0.0, 100.0, 150.0]),
            "7♠ went: the others stay where they were"
        );
        assert_eq!(places.kept(&[c("9D"), c("2C")], 600.0), None, "reordered");
        assert_eq!(places.kept(&[c("2C"), c("AH")], 600.0), None, "a card came");
        assert_eq!(
            places.kept(&[c("2C")], 500.0),
            None,
            "the row changed width"
        );
    }
    use fairdeal_core::{Rank, Suit};

    fn c(r: Rank, s: Suit) -> Card {
        Card::new(r, s)
    }

    /// Sabotage caught (checked): without the settle time the click went to whatever card
    /// had just slid under the pointer.
    #[test]
    fn a_click_just_after_new_cards_came_in_waits() {
        let ctx = egui::Context::default();
        let (a, b, n) = (
            c(Rank::Four, Suit::Hearts),
            c(Rank::King, Suit::Spades),
            c(Rank::Nine, Suit::Clubs),
        );
        assert!(!settling(&ctx, &[a, b], 1.0), "the first hand is no news");
        assert!(!settling(&ctx, &[a, b], 5.0));
        assert!(
            settling(&ctx, &[a, n, b], 6.0),
            "a drawn card moved the row"
        );
        assert!(settling(&ctx, &[a, n, b], 6.0 + SETTLE / 2.0));
        assert!(!settling(&ctx, &[a, n, b], 6.0 + SETTLE * 1.5));
        // Cards leaving (planned, melded) or moved by hand are the player's own doing.
        assert!(!settling(&ctx, &[n, a], 8.0));
        assert!(!settling(&ctx, &[a, n], 8.1));
    }

    #[test]
    fn a_long_hand_overlaps_to_fit_and_a_short_one_does_not() {
        let xs = offsets(30, 600.0, &|_| 0);
        assert!(xs[29] + HAND.x <= 600.5, "{xs:?}");
        let xs = offsets(5, 600.0, &|_| 0);
        assert!(xs[1] - xs[0] >= HAND.x);
        assert_eq!(insertion(&xs, 0.0, -5.0), 0);
        assert_eq!(insertion(&xs, 0.0, 1e4), 5);
    }
}
