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

/// The font size of a celebration. One size whatever the moment: a size that grew with the
/// animation was a new size in every frame, each rasterised into the font atlas as it came.
pub const CHEER_SIZE: f32 = 22.0;

/// How a celebration looks at `t` (0 to 1): how far it has risen, the margin of its box
/// (which pops, then settles) and its opacity.
pub fn cheer_style(t: f32, motion: bool) -> (f32, Vec2, f32) {
    let t = t.clamp(0.0, 1.0);
    let alpha = if t < 0.8 { 1.0 } else { (1.0 - t) / 0.2 };
    if !motion {
        return (0.0, Vec2::new(16.0, 8.0), alpha);
    }
    let rise = 24.0 * ease(t.min(0.5) * 2.0);
    let pop = 1.0 - ease((t * 4.0).min(1.0));
    (rise, Vec2::new(16.0, 8.0) + Vec2::splat(14.0 * pop), alpha)
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
        let (rise, margin, alpha) = cheer_style(t, motion);
        // Over the meld's own cards, rising from their middle to near their top: from above
        // the meld it would cover the "Our melds" heading.
        let at = rect.center() + Vec2::new(0.0, 12.0 - rise);
        let text = cheer(m);
        let font = FontId::proportional(CHEER_SIZE);
        let galley = painter.layout_no_wrap(text.clone(), font.clone(), Color32::WHITE);
        let mut back = Rect::from_center_size(at, galley.size() + margin);
        // Wider than a meld: kept inside the meld area, so it covers no pile or stock words
        // (such as "Blocked for the next player").
        if let Some(area) = seen.meld_areas[c.team.index()] {
            back = inside(back, area);
        }
        let at = back.center();
        painter.rect_filled(
            back,
            CornerRadius::same(6),
            Color32::from_rgba_unmultiplied(200, 140, 10, (230.0 * alpha) as u8),
        );
        painter.text(
            at,
            Align2::CENTER_CENTER,
            text,
            font,
            Color32::from_white_alpha((255.0 * alpha) as u8),
        );
    }
    // About 60 frames a second, not as fast as the machine goes: where nothing paces the
    // swap (software rendering, no vsync) back-to-back frames took the CPU from the renderer's
    // own threads, and each frame then waited for the one before it.
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(ANIMATION_FRAME_MS));
}

/// `r` moved sideways, as little as it takes, to lie within `area`'s left and right edges
/// (left-aligned when it is wider).
fn inside(r: Rect, area: Rect) -> Rect {
    let dx = if r.right() > area.right() {
        area.right() - r.right()
    } else {
        0.0
    };
    let r = r.translate(Vec2::new(dx, 0.0));
    let dx = (area.left() - r.left()).max(0.0);
    r.translate(Vec2::new(dx, 0.0))
}

/// The time between two frames of an animation (ms).
const ANIMATION_FRAME_MS: u64 = 15;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_celebration_pops_rises_and_fades_in_one_font_size() {
        let at = |t: f32| cheer_style(t, true);
        assert!(at(0.0).1.x > at(0.5).1.x, "the box pops, then settles");
        assert_eq!(at(0.5).1, at(0.9).1);
        assert!(at(0.0).0 < at(0.5).0, "it rises");
        assert!(at(1.0).2 < 0.01 && at(0.5).2 == 1.0, "it fades at the end");
        let still = cheer_style(0.3, false);
        assert_eq!((still.0, still.1), (0.0, Vec2::new(16.0, 8.0)));
    }

    #[test]
    fn a_celebration_wider_than_its_meld_stays_inside_the_meld_area() {
        let area = Rect::from_min_max(egui::pos2(180.0, 140.0), egui::pos2(670.0, 290.0));
        let box_at =
            |x0: f32, x1: f32| Rect::from_min_max(egui::pos2(x0, 250.0), egui::pos2(x1, 280.0));
        // Over the area's left edge (the first meld of a row): moved right, to the edge.
        assert_eq!(inside(box_at(100.0, 316.0), area), box_at(180.0, 396.0));
        // Over the right edge: moved left.
        assert_eq!(inside(box_at(600.0, 700.0), area), box_at(570.0, 670.0));
        // Inside: where it was.
        assert_eq!(inside(box_at(300.0, 400.0), area), box_at(300.0, 400.0));
        // Wider than the area: from its left edge.
        assert_eq!(inside(box_at(0.0, 600.0), area).left(), 180.0);
    }
}
