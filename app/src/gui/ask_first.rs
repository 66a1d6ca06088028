//! "A game is waiting for you": asked when Play now, opening a table or joining one would
//! start another game while one waits to be resumed, since the new game gives the waiting one
//! up for good. The safe answer (Resume, or Cancel while it cannot be resumed yet) has the
//! focus; Esc cancels.

use std::path::PathBuf;

use eframe::egui::{self, Id, RichText};

use super::intent::{AskFirst, Intent};
use super::records::GameRecord;

/// "A game is waiting for you": asked before another game starts.
pub struct Question<'a> {
    /// The waiting game.
    pub record: &'a GameRecord,
    /// Its folder, when it can be resumed now (not while its hand is still played out).
    pub resume: Option<PathBuf>,
    /// What the player asked for instead, in words ("play against the computer").
    pub instead: String,
}

/// The question, as a modal over the start screen.
pub fn ask_first_ui(ctx: &egui::Context, q: &Question<'_>, out: &mut Vec<Intent>) {
    let waiting = super::records::waiting_game(q.record);
    let mut answer = None;
    let modal = egui::Modal::new(Id::unique("ask-first")).show(ctx, |ui| {
        ui.set_max_width(420.0);
        ui.heading("A game is waiting for you");
        ui.label(waiting);
        ui.label(format!(
            "To {}, that game is left for good: it cannot be resumed afterwards.",
            q.instead
        ));
        if q.resume.is_none() {
            ui.label("Its hand is still being played out; Resume is offered once it ends.");
        }
        ui.add_space(8.0);
        ui.horizontal_wrapped(|ui| {
            let safe = if q.resume.is_some() {
                let b = ui.button(RichText::new("Resume it").strong());
                if b.clicked() {
                    answer = Some(AskFirst::Resume);
                }
                b
            } else {
                let b = ui.button(RichText::new("Cancel").strong());
                if b.clicked() {
                    answer = Some(AskFirst::Cancel);
                }
                b
            };
            if !safe.has_focus() && ui.memory(|m| m.focused().is_none()) {
                safe.request_focus();
            }
            if ui
                .button(format!("Leave it for good and {}", q.instead))
                .clicked()
            {
                answer = Some(AskFirst::LeaveForGood);
            }
            if q.resume.is_some() && ui.button("Cancel").clicked() {
                answer = Some(AskFirst::Cancel);
            }
        });
    });
    let esc = ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
    if answer.is_none() && (esc || modal.backdrop_response.clicked()) {
        answer = Some(AskFirst::Cancel);
    }
    out.extend(answer.map(Intent::AskedFirst));
}
