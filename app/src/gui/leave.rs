//! Leaving the table: the button asks first, since with the keyboard focus on "Leave the
//! table" an Enter meant for the Play-plan key would leave the game at once; the question's
//! default answer, for Enter and Esc alike, is to stay. It says what leaving does.

use eframe::egui::{self, Id, RichText, Ui};

use super::game::{Desk, Model};
use super::intent::Intent;
use super::records::GameKind;

/// What leaving does, in words for the question and the button's tooltip.
pub fn what_leaving_does(m: &Model) -> &'static str {
    if m.kind == GameKind::Local {
        "The game is kept as it stands; Resume on the start screen goes on from this very turn."
    } else if m.next.is_some() || m.held || m.view.is_none() {
        // No hand of ours under way: the node quits at once, the scored hands stand.
        "A computer player takes your seat from the next hand; Resume on the start screen gives it back to you then."
    } else {
        "This hand still counts: your client plays your cards to its end (keep the window open until then; closing it earlier voids the hand for everyone). Then a computer player takes your seat; Resume on the start screen gives it back to you from the next hand."
    }
}

/// "Leave the table": a small button (the table's header) or a plain one (between hands);
/// a click, or Enter while it has the focus, asks first.
pub fn leave_button(ui: &mut Ui, m: &Model, d: &mut Desk, small: bool, out: &mut Vec<Intent>) {
    if m.looks_only() {
        // A spectator plays no cards: nothing stays behind it, so nothing to ask first.
        let button = if small {
            ui.small_button("Leave the table")
        } else {
            ui.button("Leave the table")
        };
        if button
            .on_hover_text("Stop watching: nothing is asked first")
            .clicked()
        {
            out.push(Intent::LeaveGame);
        }
        return;
    }
    let button = if small {
        ui.small_button("Leave the table")
    } else {
        ui.button("Leave the table")
    };
    if button.on_hover_text(what_leaving_does(m)).clicked() {
        d.confirm_leave = true;
    }
}

/// The id under which the window notes that a question covers the table (its keys wait).
fn asking_id() -> Id {
    Id::unique("fairdeal-asking")
}

/// Whether a question covers the table this frame (the table's keys do nothing then).
pub fn asking(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(asking_id()).unwrap_or(false))
}

/// The question, while it is asked; called before the table is drawn, so that the table's
/// keys already know. "Stay" has the focus: Enter or Esc keeps the player at the table.
pub fn confirm_leave(ui: &mut Ui, m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    let ctx = ui.ctx().clone();
    ctx.data_mut(|data| data.insert_temp(asking_id(), d.confirm_leave));
    if !d.confirm_leave {
        return;
    }
    let modal = egui::Modal::new(Id::unique("leave-the-table")).show(&ctx, |ui| {
        ui.set_max_width(380.0);
        ui.heading("Leave the table?");
        ui.label(what_leaving_does(m));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let stay = ui.button(RichText::new("Stay at the table").strong());
            if !stay.has_focus() && ui.memory(|mem| mem.focused().is_none()) {
                stay.request_focus();
            }
            let leave = ui.button("Leave now");
            (stay.clicked(), leave.clicked())
        })
        .inner
    });
    let (stay, leave) = modal.inner;
    let esc = ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
    if leave {
        d.confirm_leave = false;
        out.push(Intent::LeaveGame);
    } else if stay || esc || modal.backdrop_response.clicked() {
        d.confirm_leave = false;
    }
}
