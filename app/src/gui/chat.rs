//! Table chat beside the move log: the last lines, a few quick phrases, and a line to write.
//! Chat is no part of the game: it goes to the table signed, and is never logged or audited.

use eframe::egui::{self, RichText, Ui};
use fairdeal_net::table::chat::{MAX_CHAT, QUICK_PHRASES};

use super::game::Game;

/// The chat box (fills the width it is given, `height` high at most).
pub fn chat_box(ui: &mut Ui, g: &mut Game, height: f32) {
    ui.heading("Chat");
    let lines_height = (height - 70.0).max(40.0);
    egui::ScrollArea::vertical()
        .id_salt("chat")
        .stick_to_bottom(true)
        .auto_shrink([false, true])
        .max_height(lines_height)
        .show(ui, |ui| {
            if g.chat.is_empty() {
                ui.weak("Nothing said yet.");
            }
            for line in &g.chat {
                ui.label(RichText::new(format!(
                    "{}: {}",
                    g.name(line.seat),
                    line.text
                )));
            }
        });
    let mut said = None;
    ui.horizontal_wrapped(|ui| {
        for phrase in QUICK_PHRASES {
            if ui
                .small_button(phrase)
                .on_hover_text("Say it to the table")
                .clicked()
            {
                said = Some(phrase.to_owned());
            }
        }
    });
    ui.horizontal(|ui| {
        let send_width = 48.0;
        let edit = ui.add(
            egui::TextEdit::singleline(&mut g.chat_draft)
                .hint_text("Say something…")
                .char_limit(MAX_CHAT)
                .desired_width((ui.available_width() - send_width).max(60.0)),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Send").clicked() || enter) && !g.chat_draft.trim().is_empty() {
            said = Some(std::mem::take(&mut g.chat_draft));
            if enter {
                edit.request_focus();
            }
        }
    });
    if let Some(text) = said {
        g.say(&text);
    }
}
