//! Leaving the table: the button asks first, since with the keyboard focus on "Leave the
//! table" an Enter meant for the Play-plan key would leave the game at once; the question's
//! default answer, for Enter and Esc alike, is to stay. It says what leaving does.

use eframe::egui::{self, Id, Ui};

use super::game::{Desk, Model};
use super::intent::Intent;
use super::records::GameKind;

/// Whether leaving now leaves a hand of ours under way at a LAN table, which this client
/// then plays to its end (with no hand of ours under way the node quits at once, and the
/// scored hands stand).
pub(crate) fn plays_hand_out(m: &Model) -> bool {
    m.kind != GameKind::Local && m.next.is_none() && !m.held && m.view.is_some()
}

/// What leaving does, in words for the question and the button's tooltip.
pub fn what_leaving_does(m: &Model) -> &'static str {
    if m.kind == GameKind::Local {
        "The game is kept as it stands; Resume on the start screen goes on from this very turn."
    } else if !plays_hand_out(m) {
        "A computer player takes your seat from the next hand; Resume on the start screen gives it back to you then."
    } else {
        "This hand still counts: your client plays your cards to its end (keep the window open until then; closing it earlier voids the hand for everyone). Then a computer player takes your seat; Resume on the start screen gives it back to you from the next hand."
    }
}

/// "Leave the table": a small button (the table's header) or a plain one (between hands);
/// a click, or Enter while it has the focus, asks first.
pub fn leave_button(ui: &mut Ui, m: &Model, d: &mut Desk, small: bool, out: &mut Vec<Intent>) {
    if m.replay {
        // A replay is left by its own Back: nobody sits at a table to leave.
        return;
    }
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

/// The question, while it is asked; called before the table is drawn, so that the table's
/// keys already know. "Stay" has the focus: Enter or Esc keeps the player at the table.
pub fn confirm_leave(ui: &mut Ui, m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    let ctx = ui.ctx().clone();
    super::questions::set(&ctx, super::questions::Question::Leave, d.confirm_leave);
    if !d.confirm_leave {
        return;
    }
    let modal = egui::Modal::new(Id::unique("leave-the-table")).show(&ctx, |ui| {
        ui.set_max_width(380.0);
        ui.heading("Leave the table?");
        ui.label(what_leaving_does(m));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let stay = super::questions::stay_button(ui, "Stay at the table");
            let leave = ui.button("Leave now");
            (stay, leave.clicked())
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

#[cfg(test)]
mod tests {
    use fairdeal_core::Seat;
    use fairdeal_net::node::NodeEvent;
    use fairdeal_net::table::TableEvent;
    use fairdeal_net::table::chat::ChatLine;

    use super::super::game::LEAVING_LINE;
    use crate::gui::game::Game;
    use crate::gui::records::{GameKind, GameRecord};
    use crate::gui::session::Update;

    /// Sabotage caught (checked): with the leaver's line taken as chat only, the move log
    /// said nothing of West's leaving until the hand ended.
    #[test]
    fn the_others_are_told_at_once_that_a_player_left() {
        let record = GameRecord::started(GameKind::Host, "Friday".to_owned());
        let mut g = Game::new(&record, "");
        g.model.me = Some(Seat::S);
        let said = |g: &mut Game, seat: Seat, text: &str| {
            g.apply(Update::Node(NodeEvent::Table(TableEvent::Chat(ChatLine {
                seat,
                text: text.to_owned(),
            }))));
        };
        said(&mut g, Seat::W, "see you");
        assert!(g.model.log.is_empty(), "a chat line is no move");
        said(&mut g, Seat::W, LEAVING_LINE);
        assert_eq!(
            g.model.log.last().map(String::as_str),
            Some(
                "West left; a computer player (run by West's client until the hand ends) plays West."
            )
        );
        assert_eq!(g.model.chat.len(), 2, "and it is in the chat as said");
        // Our own line: the window that sent it has gone back to the start screen.
        g.model.log.clear();
        said(&mut g, Seat::S, LEAVING_LINE);
        assert!(g.model.log.is_empty());
    }
}
