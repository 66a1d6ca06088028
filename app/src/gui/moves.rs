//! The move list at the table's right: every line the game said, newest at the bottom,
//! kept in sight as lines come; a long game shows its newest lines unless asked for all.

use eframe::egui::{self, Ui};

use super::game::{Desk, Model};

/// How many of the newest lines the move list shows unless asked for all. Laying out every
/// line of the game (566 at hand 6) in every frame makes the slowest frames come late in
/// long games; this many hold more than a hand.
pub(crate) const LOG_RECENT: usize = 200;

/// The move list, in what is left of the column but `below` (the chat under it).
pub(crate) fn move_list(ui: &mut Ui, m: &Model, d: &mut Desk, below: f32) {
    let height = (ui.available_height() - below).max(60.0);
    let mut list = egui::ScrollArea::vertical()
        .id_salt("moves")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .max_height(height);
    // The list's scroll area and its bottom offset, as of the last frame.
    let last_id = egui::Id::unique("move list: scroll area and bottom");
    let last: Option<(egui::Id, f32)> = ui.data(|mem| mem.get_temp(last_id));
    if log_jumped(height, &mut d.log_shown, m.log.len())
        && let Some((id, bottom)) = last
    {
        // Back to a list stuck to its bottom, shown from the last bottom this frame. Not
        // by a scroll to the newest line: egui unsticks a list while it carries out a
        // scroll, and lines that come meanwhile would leave it short of the newest.
        ui.data_mut(|mem| mem.remove::<egui::scroll_area::State>(id));
        list = list.vertical_scroll_offset(bottom.max(0.0));
    }
    let shown = list.show(ui, |ui| {
        let first = log_first(m.log.len(), d.log_all);
        if first > 0
            && ui
                .small_button(format!("Show the {first} earlier lines"))
                .clicked()
        {
            d.log_all = true;
        } else if d.log_all
            && m.log.len() > LOG_RECENT
            && ui
                .small_button(format!("Show only the newest {LOG_RECENT} lines"))
                .clicked()
        {
            d.log_all = false;
        }
        for line in &m.log[first..] {
            ui.label(line);
        }
    });
    let bottom = shown.content_size.y - shown.inner_rect.height();
    ui.data_mut(|mem| mem.insert_temp(last_id, (shown.id, bottom)));
}

/// The first line the move list shows, of `lines`.
fn log_first(lines: usize, all: bool) -> usize {
    if all {
        0
    } else {
        lines.saturating_sub(LOG_RECENT)
    }
}

/// Whether the move list must be put at its newest line although it sticks to the bottom:
/// a game just put on screen (a resume: the list kept the scroll of the game left, scrolled
/// up by hand), its `height` changed (F12, a resize, zoom) or many lines came at once.
/// `shown` is what the list held and its height in the last frame.
fn log_jumped(height: f32, shown: &mut Option<(usize, i32)>, lines: usize) -> bool {
    let height = height.round() as i32;
    let was = shown.replace((lines, height));
    was.is_none_or(|(n, h)| h != height || lines > n + 3)
}
