//! Whether a question covers the table this frame ("Leave the table?", "Close fairdeal?"):
//! the table's keys and actions wait while one does. Each question says so once a frame,
//! before the table is drawn, under its own flag, so that one question cannot clear another's.

use eframe::egui::{self, Id, RichText, Ui};

/// The questions that cover the table.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Question {
    /// "Leave the table?"
    Leave,
    /// "Close fairdeal?"
    Close,
}

impl Question {
    fn id(self) -> Id {
        match self {
            Self::Leave => Id::unique("fairdeal-asking-leave"),
            Self::Close => Id::unique("fairdeal-asking-close"),
        }
    }
}

/// Notes whether `question` is on screen this frame.
pub(crate) fn set(ctx: &egui::Context, question: Question, on: bool) {
    ctx.data_mut(|d| d.insert_temp(question.id(), on));
}

/// Whether any question covers the table this frame (the table's keys do nothing then).
pub fn asking(ctx: &egui::Context) -> bool {
    ctx.data(|d| {
        [Question::Leave, Question::Close]
            .iter()
            .any(|q| d.get_temp::<bool>(q.id()).unwrap_or(false))
    })
}

/// A question's answer that keeps things as they are, in bold and with the focus unless
/// another widget holds it (Enter on it answers it); returns whether it was clicked.
pub(crate) fn stay_button(ui: &mut Ui, text: &str) -> bool {
    let stay = ui.button(RichText::new(text).strong());
    if !stay.has_focus() && ui.memory(|mem| mem.focused().is_none()) {
        stay.request_focus();
    }
    stay.clicked()
}
