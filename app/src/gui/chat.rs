//! Table chat beside the move log: the last lines, a few quick phrases, and a line to write.
//! Chat is no part of the game: it goes to the table signed, and is never logged or audited
//! (the window keeps what it showed in the game's folder, for Resume).

use eframe::egui::{self, RichText, Ui};
use fairdeal_net::table::chat::{MAX_CHAT, QUICK_PHRASES};

use super::game::{Desk, Model};
use super::intent::Intent;

/// The height of everything in the chat box but its lines: the heading, two rows of quick
/// phrases, the line to write, and the spacing between them.
fn fixed_height(ui: &Ui) -> f32 {
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let heading = ui.text_style_height(&egui::TextStyle::Heading) + ui.spacing().item_spacing.y;
    heading + 3.0 * row + ui.spacing().item_spacing.y
}

/// The chat box, exactly `height` high (its lines get what the rest leaves), the width it is
/// given.
pub fn chat_box(ui: &mut Ui, m: &Model, d: &mut Desk, height: f32, out: &mut Vec<Intent>) {
    ui.heading("Chat");
    // The note under the line (a line not sent) takes a row of the lines' room.
    let note = if m.chat_note.is_some() {
        ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y
    } else {
        0.0
    };
    let lines_height = (height - fixed_height(ui) - note).max(24.0);
    egui::ScrollArea::vertical()
        .id_salt("chat")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .max_height(lines_height)
        .show(ui, |ui| {
            if m.chat.is_empty() {
                ui.weak("Nothing said yet.");
            }
            for line in &m.chat {
                ui.label(RichText::new(format!(
                    "{}: {}",
                    m.name(line.seat),
                    line.text
                )));
            }
        });
    if m.looks_only() {
        // A spectator holds no seat: nothing it wrote could be signed for the table.
        ui.weak("Only the players chat: a spectator or a replay reads along.");
        return;
    }
    let mut said = None;
    // Two fixed rows of two (a wrapped row would change the box's height with its width).
    egui::Grid::new("quick-phrases")
        .num_columns(2)
        .show(ui, |ui| {
            for (i, phrase) in QUICK_PHRASES.iter().enumerate() {
                if ui
                    .small_button(*phrase)
                    .on_hover_text("Say it to the table")
                    .clicked()
                {
                    said = Some((*phrase).to_owned());
                }
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    // The Send button first, from the right, then the line in exactly the width left (a
    // line asking for more would widen the panel a little every frame).
    let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(
        row,
        egui::Layout::right_to_left(egui::Align::Center),
        |ui| {
            let send = ui.button("Send");
            let used = d.chat_draft.chars().count();
            if used + 40 >= MAX_CHAT {
                // Near the limit, what is left shows (the box stops taking characters there).
                ui.weak(format!("{used}/{MAX_CHAT}"));
            }
            let id = egui::Id::unique("chat-line");
            let typing = ui.memory(|mem| mem.has_focus(id));
            let edit = ui.add(
                egui::TextEdit::singleline(&mut d.chat_draft)
                    .id(id)
                    .hint_text(if typing {
                        "Typing to the table… (Enter sends, Esc: keys to the game)"
                    } else {
                        "Say something… (Enter sends)"
                    })
                    .char_limit(MAX_CHAT)
                    .desired_width(ui.available_width()),
            );
            // Enter sends the line, and is used up: it is not also "Next hand" or "Play plan".
            let enter = edit.lost_focus()
                && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
            if (send.clicked() || enter) && !d.chat_draft.trim().is_empty() {
                said = Some(std::mem::take(&mut d.chat_draft));
            }
            // Sent with Enter, the line keeps the keys, as any chat does: friends type a
            // second line straight after the first, and a letter meant for the chat must
            // never make a move (one that cannot be taken back). Esc or a click on the table
            // gives the keys to the game; the hint says so while the line has them.
            if enter {
                edit.request_focus();
            }
        },
    );
    if let Some(note) = &m.chat_note {
        ui.colored_label(ui.visuals().warn_fg_color, note);
    }
    if let Some(text) = said {
        out.push(Intent::Say(text));
    }
}
