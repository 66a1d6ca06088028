//! A team's melds on the table: numbered as in the move log, unfinished ones as a fan of
//! cards, canastas and sambas stacked like a real pile (the top card and a ribbon saying its
//! kind), the cards of each seat's last turn outlined in that seat's colour, and a moment of
//! celebration when one is completed. Our melds take clicks and dropped cards.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, RichText, Sense, Stroke, StrokeKind,
    Ui, Vec2,
};
use fairdeal_core::{Card, Meld, PlayerView, Seat, Team};

use super::cards::{self, Marks, SMALL};
use super::hand::Dragged;
use super::seen::{CELEBRATION, Place, Seen, kind_words};

/// The colour of a seat's highlights (readable in both themes).
pub fn seat_colour(seat: Seat) -> Color32 {
    match seat {
        Seat::S => Color32::from_rgb(30, 150, 70),
        Seat::W => Color32::from_rgb(230, 120, 20),
        Seat::N => Color32::from_rgb(40, 120, 230),
        Seat::E => Color32::from_rgb(190, 50, 180),
    }
}

/// The size of a completed canasta's stack.
pub const STACK: Vec2 = Vec2::new(38.0, 51.0);
/// How far the cards of a fan are apart: room for a corner's "10" (at 13 a 10♦ shows as
/// "1").
const FAN_STEP: f32 = 14.5;
/// Where an unfinished meld's fan starts below its place's top: under its number line.
const FAN_TOP: f32 = 16.0;
/// Where a completed meld's stack starts below its place's top: room for the card edges
/// drawn above it (7.5), its number beside it rather than above, so that a meld's place is
/// no taller than a fan's and two rows fit in each meld area at 1024×700.
const STACK_TOP: f32 = 8.0;
/// The height of one meld: a stack, or a number line and a fan (the shorter).
const UNIT_H: f32 = STACK_TOP + STACK.y;

/// What happened in a team's melds this frame.
#[derive(Debug, Default)]
pub struct MeldsOut {
    /// A meld clicked.
    pub clicked: Option<usize>,
    /// A card dropped on a meld.
    pub dropped: Option<(usize, Dragged)>,
}

/// The meld's accessible name ("Our meld 2: K♠ K♥ K♦ 2♣ (mixed canasta), stacked").
fn meld_name(m: &Meld, i: usize, ours: bool) -> String {
    let whose = if ours { "Our" } else { "Their" };
    let stacked = if m.is_complete() { ", stacked" } else { "" };
    let click = if ours {
        " (click to add the selected cards)"
    } else {
        ""
    };
    format!("{whose} meld {}: {}{stacked}{click}", i + 1, m.label())
}

/// The most cards an unfinished meld holds (seven make it a canasta or a samba).
const MOST_UNFINISHED: usize = 6;

/// The width of every meld's place: room for the longest unfinished fan, whatever this
/// meld holds now, so that no meld moves: a place as wide as its meld would push the melds
/// to its right sideways whenever the meld grows or becomes a stack, and a click meant for
/// meld 3 could land on meld 4.
const UNIT_W: f32 = SMALL.x + FAN_STEP * (MOST_UNFINISHED - 1) as f32 + 6.0;

/// The card shown on top of a completed meld: a red natural on a natural canasta, a black
/// one on a mixed canasta (as players stack them), the highest card of a samba.
fn top_card(m: &Meld) -> Card {
    let naturals = || m.cards().iter().copied().filter(|c| !c.is_wild());
    let red = |c: &Card| c.suit().is_some_and(fairdeal_core::Suit::is_red);
    let pick = if m.is_samba() {
        naturals().max_by_key(|c| c.rank())
    } else if m.wilds() == 0 {
        naturals().find(red)
    } else {
        naturals().find(|c| !red(c))
    };
    pick.or_else(|| naturals().next())
        .unwrap_or_else(|| m.cards()[0])
}

/// The fan's step: the usual one, closer only if a fan would not fit its place.
fn fan_step(m: &Meld) -> f32 {
    FAN_STEP.min((UNIT_W - 6.0 - SMALL.x) / m.len().saturating_sub(1).max(1) as f32)
}

/// The part of a meld's place `rect` its cards take (outlined, and where cards fly to).
fn held_rect(m: &Meld, rect: Rect) -> Rect {
    let used = if m.is_complete() {
        STACK.x + 14.0
    } else {
        SMALL.x + fan_step(m) * m.len().saturating_sub(1) as f32 + 6.0
    };
    Rect::from_min_size(
        rect.min,
        Vec2::new(used.clamp(44.0, rect.width()), rect.height()),
    )
}

/// Draws `team`'s red threes and melds in the space given; `ours` takes clicks and drops.
pub fn melds_area(
    ui: &mut Ui,
    view: &PlayerView,
    team: Team,
    title: &str,
    ours: bool,
    seen: &mut Seen,
    motion: bool,
) -> MeldsOut {
    let mut out = MeldsOut::default();
    let now = ui.input(|i| i.time);
    ui.horizontal(|ui| {
        ui.label(RichText::new(title).strong());
        let threes = view.red_threes(team);
        if !threes.is_empty() {
            ui.label(format!("· red threes ({}):", threes.len()));
            // No taller than the title's line: a taller line takes its height from the
            // rows below, and at 1024×700 that is the second row of melds.
            let tall = ui.spacing().interact_size.y;
            let size = Vec2::new(tall * SMALL.x / SMALL.y, tall);
            let start = ui.cursor().min;
            for &c in threes {
                cards::card_seen(ui, c, size, "laid out (red three)");
            }
            let end = ui.min_rect().right_bottom();
            seen.places.insert(
                Place::RedThrees(team),
                Rect::from_min_max(start, Pos2::new(end.x, start.y + size.y)),
            );
        } else {
            seen.places.insert(
                Place::RedThrees(team),
                Rect::from_min_size(ui.cursor().min, SMALL),
            );
        }
    });
    let melds = view.melds(team);
    // A bar always in sight while rows are hidden below: without it, at 1024×700 the rows
    // are cut at the hand with nothing to say there are more.
    let mut bar = egui::style::ScrollStyle::thin();
    // In the text's colour: the theme's bar colours hardly showed on the felt.
    bar.foreground_color = true;
    ui.spacing_mut().scroll = bar;
    // Whole rows only: the area is as tall as the rows that fit, so at rest (and after the
    // meld just played onto is scrolled into sight) no row shows sliced. The offset is left
    // to the scroll area: forcing it onto a row's top each frame would undo that scroll.
    // Rows touch (each place has its own margins: the number line above a fan, the room
    // for the card edges above a stack), so that at 1024×700 a second row fits.
    let pitch = UNIT_H;
    // No spacing in the scroll area's own content either: scrolling a meld into sight adds
    // that spacing to the offset, which would stop a few points off a row's top.
    ui.spacing_mut().item_spacing.y = 0.0;
    let rows = (ui.available_height() / pitch).floor().max(1.0);
    let snap_id = ui.make_persistent_id(("melds snap", team.index()));
    let mut area = egui::ScrollArea::vertical()
        .id_salt(("melds", team.index()))
        .max_height(rows * pitch)
        // egui's least height for a scrolling area (64 points) is more than one row: the
        // area would show a sliver of the row above the one scrolled to.
        .min_scrolled_height(rows * pitch)
        .auto_shrink([false, false])
        // A meld scrolled into sight jumps there: an animation would be taken for a scroll
        // that stopped between rows and snapped.
        .animated(false);
    if let Some(y) = ui.data_mut(|d| d.remove_temp::<f32>(snap_id)) {
        area = area.vertical_scroll_offset(y);
    }
    let shown = area.show(ui, |ui| {
        if melds.is_empty() {
            ui.weak("none yet");
        }
        ui.horizontal_wrapped(|ui| {
            for (i, m) in melds.iter().enumerate() {
                let (rect, r) = ui.allocate_exact_size(Vec2::new(UNIT_W, UNIT_H), Sense::click());
                seen.places.insert(Place::Meld(team, i), held_rect(m, rect));
                if seen.reveal == Some((team, i)) {
                    ui.scroll_to_rect(rect, None);
                    seen.reveal = None;
                }
                if ui.is_rect_visible(rect) {
                    let celebrating = seen
                        .completed
                        .iter()
                        .find(|c| c.team == team && c.index == i)
                        .map(|c| now - c.start.unwrap_or(now));
                    paint_meld(ui, rect, m, i, seen.touched(team, i), celebrating, motion);
                }
                let mut name = meld_name(m, i, ours);
                if seen
                    .completed
                    .iter()
                    .any(|c| c.team == team && c.index == i)
                {
                    name.push_str(&format!(" — just completed: {}", cheer(m)));
                }
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, ours, &name));
                if r.has_focus() {
                    // The keyboard's place: Space or Enter would add the selected cards.
                    cards::focus_ring(ui, rect);
                }
                // Only while the pointer is on the part in sight: egui keeps an open
                // tooltip while the pointer is anywhere in the widget's whole rectangle,
                // and a meld cut by the area's edge reaches past it.
                let r = if r.hovered() {
                    r.on_hover_text(&name)
                } else {
                    r
                };
                if r.clicked() {
                    out.clicked = Some(i);
                }
                if let Some(d) = r.dnd_release_payload::<Dragged>() {
                    out.dropped = Some((i, *d));
                }
                if ours && r.dnd_hover_payload::<Dragged>().is_some() {
                    ui.painter().rect_stroke(
                        rect,
                        CornerRadius::same(4),
                        Stroke::new(2.0, Color32::from_rgb(230, 160, 20)),
                        StrokeKind::Outside,
                    );
                }
            }
        });
    });
    // A wheel or a drag that stopped between rows settles on the nearest row's top, so
    // that at rest no row shows sliced.
    let settled = ui.input(|i| i.smooth_scroll_delta.y == 0.0 && !i.pointer.any_down())
        && shown.state.velocity() == Vec2::ZERO;
    // Aimed only where the area can scroll to: a row's top past the end (the content short
    // of whole rows) would be asked for again on every frame.
    let y = shown.state.clamped_offset().y;
    let most = (shown.content_size.y - shown.inner_rect.height()).max(0.0);
    let row = ((y / pitch).round() * pitch).min(most);
    if settled && (y - row).abs() > 0.5 {
        ui.data_mut(|d| d.insert_temp(snap_id, row));
        ui.ctx().request_repaint();
    }
    // The viewport (a vertical scroll area's clip rectangle is as wide as the window).
    seen.meld_areas[team.index()] = Some(shown.inner_rect);
    out
}

/// One meld: its number, then a fan or a stack; outlined in the colour of the seat whose
/// last turn played onto it, those cards outlined too; glowing while just completed.
fn paint_meld(
    ui: &Ui,
    rect: Rect,
    m: &Meld,
    i: usize,
    touched: Option<(Seat, &[Card])>,
    celebrating: Option<f64>,
    motion: bool,
) {
    let painter = ui.painter();
    let text = ui.visuals().text_color();
    let ring = touched.map(|(s, _)| seat_colour(s));
    let step = fan_step(m);
    let held = held_rect(m, rect);
    if let Some(c) = ring {
        painter.rect_stroke(
            held,
            CornerRadius::same(5),
            Stroke::new(2.0, c),
            StrokeKind::Inside,
        );
    }
    let caption = if m.is_complete() {
        format!("{} · {}", i + 1, m.len())
    } else if m.wilds() > 0 {
        format!("{} · {}w", i + 1, m.wilds())
    } else {
        (i + 1).to_string()
    };
    // A stack's number beside it, right of the card edges drawn behind it.
    let number_at = if m.is_complete() {
        Vec2::new(3.0 + STACK.x + 12.0, 1.0)
    } else {
        Vec2::new(4.0, 1.0)
    };
    painter.text(
        rect.left_top() + number_at,
        Align2::LEFT_TOP,
        caption,
        FontId::proportional(12.5),
        text,
    );
    let origin = rect.left_top() + Vec2::new(3.0, FAN_TOP);
    if m.is_complete() {
        let stack = Rect::from_min_size(rect.left_top() + Vec2::new(3.0, STACK_TOP), STACK);
        if let Some(t) = celebrating {
            let pulse = if motion {
                (t * std::f64::consts::TAU * 1.5).sin().abs() as f32
            } else {
                1.0
            };
            let fade = (1.0 - t / CELEBRATION).clamp(0.0, 1.0) as f32;
            let glow = Color32::from_rgba_unmultiplied(255, 200, 40, (200.0 * fade) as u8);
            painter.rect_stroke(
                stack.expand(3.0 + 3.0 * pulse),
                CornerRadius::same(6),
                Stroke::new(3.0, glow),
                StrokeKind::Outside,
            );
        }
        let (ribbon, colour) = if m.is_samba() {
            ("SAMBA", Color32::from_rgb(200, 140, 10))
        } else if m.wilds() == 0 {
            ("NATURAL", Color32::from_rgb(190, 35, 45))
        } else {
            ("MIXED", Color32::from_rgb(60, 60, 70))
        };
        cards::paint_stack(painter, stack, top_card(m), ribbon, colour);
    } else {
        let mut shown: Vec<Card> = m.cards().to_vec();
        shown.sort_by_key(cards::sort_key);
        let mut marked: Vec<Card> = touched.map(|(_, c)| c.to_vec()).unwrap_or_default();
        for (k, c) in shown.into_iter().enumerate() {
            let at = Rect::from_min_size(origin + Vec2::new(k as f32 * step, 0.0), SMALL);
            let hit = marked
                .iter()
                .position(|x| *x == c)
                .map(|p| marked.remove(p));
            cards::paint(
                painter,
                at,
                c,
                Marks {
                    ring: hit.and(ring),
                    ..Marks::default()
                },
            );
        }
    }
}

/// The words for a completed meld's celebration ("Natural canasta! +500").
pub fn cheer(m: &Meld) -> String {
    let what = kind_words(m);
    let mut s = what.to_owned();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{s}! +{}", m.bonus())
}
