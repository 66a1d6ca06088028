//! The cards in flight and the celebration of a completed canasta, painted over the table
//! (between the places recorded this frame). Off with reduced motion: the highlights and a
//! still banner stay.

use eframe::egui::{Align2, Color32, CornerRadius, FontId, Id, LayerId, Order, Rect, Ui, Vec2};
use fairdeal_core::PlayerView;

use super::cards::{self, HAND, Marks, SMALL};
use super::melds::cheer;
use super::seen::{CELEBRATION, FLIGHT, Place, Seen};

fn ease(t: f32) -> f32 {
    1.0 - (1.0 - t).powi(3)
}

/// Paints what is moving, and keeps frames coming while anything does.
pub fn paint(ui: &Ui, seen: &mut Seen, view: &PlayerView, motion: bool) {
    let now = ui.input(|i| i.time);
    let running = seen.tick(now, motion);
    if !running {
        return;
    }
    let painter = ui
        .ctx()
        .layer_painter(LayerId::new(Order::Foreground, Id::unique("table-motion")));
    for f in &seen.flights {
        let Some(start) = f.start else { continue };
        if now < start {
            continue;
        }
        let (Some(a), Some(b)) = (seen.places.get(&f.from), seen.places.get(&f.to)) else {
            continue;
        };
        let t = ease(((now - start) / FLIGHT).clamp(0.0, 1.0) as f32);
        let size = if matches!(f.to, Place::Meld(..) | Place::RedThrees(_)) {
            HAND + (SMALL - HAND) * t
        } else {
            HAND
        };
        let centre = a.center() + (b.center() - a.center()) * t;
        cards::paint(
            &painter,
            Rect::from_center_size(centre, size),
            f.card,
            Marks::default(),
        );
    }
    for c in &seen.completed {
        let (Some(start), Some(rect)) = (c.start, seen.places.get(&Place::Meld(c.team, c.index)))
        else {
            continue;
        };
        let Some(m) = view.melds(c.team).get(c.index) else {
            continue;
        };
        let t = ((now - start) / CELEBRATION).clamp(0.0, 1.0) as f32;
        let alpha = if t < 0.8 { 1.0 } else { (1.0 - t) / 0.2 };
        let rise = if motion {
            24.0 * ease(t.min(0.5) * 2.0)
        } else {
            0.0
        };
        let size = if motion {
            16.0 + 8.0 * ease((t * 4.0).min(1.0))
        } else {
            22.0
        };
        let at = rect.center_top() - Vec2::new(0.0, 4.0 + rise);
        let text = cheer(m);
        let galley =
            painter.layout_no_wrap(text.clone(), FontId::proportional(size), Color32::WHITE);
        let back = Rect::from_center_size(at, galley.size() + Vec2::new(16.0, 8.0));
        painter.rect_filled(
            back,
            CornerRadius::same(6),
            Color32::from_rgba_unmultiplied(200, 140, 10, (230.0 * alpha) as u8),
        );
        painter.text(
            at,
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(size),
            Color32::from_white_alpha((255.0 * alpha) as u8),
        );
    }
    ui.ctx().request_repaint();
}
