//! Closing the window while this client still plays a hand at a LAN table: the window asks
//! first. Closed then, the client stops in the middle of the hand: the others wait for it,
//! and the hand is void for all four unless the player is back within the grace period.
//! (The window's close button or the desktop's close keys are one click or keystroke away; the
//! "Leave the table" button already asks, and has the hand played out.) A game against this
//! client's own computer players is kept as it stands, so nothing is at stake there.

use eframe::egui::{self, Id, Ui, ViewportCommand};

use super::questions::{Question, set};

/// How long the "Close anyway" button stays greyed once asked, seconds: a double press of
/// the close keys never closes in the middle of a hand.
const SETTLE: f64 = 1.0;

/// What the window knows of a request to close it.
#[derive(Debug, Default)]
pub struct Closing {
    /// When the player was asked (the frame's time).
    asked: Option<f64>,
    /// The player said to close anyway: the next request goes through.
    confirmed: bool,
}

/// What closing now would leave unfinished at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stake {
    /// What closing does, in words.
    pub words: &'static str,
    /// The answer that keeps the window open.
    pub stay: &'static str,
}

/// What closing now would leave unfinished at the table; `None` when nothing is.
/// `playing`: a hand of the player's is being played at a LAN table
/// ([`super::leave::plays_hand_out`]); `leaving`: a game left from the table whose hand the
/// client still plays out.
pub fn at_stake(playing: bool, leaving: bool) -> Option<Stake> {
    if playing {
        Some(Stake {
            words: "A hand of yours is being played at the table. Closing the window now stops your client in the middle of it: the others wait for you, and the hand is void for everyone unless you are back within the grace period (a minute, unless the table set another). To leave without that, use \"Leave the table\": your client plays the hand out first.",
            stay: "Stay at the table",
        })
    } else if leaving {
        Some(Stake {
            words: "Your client is still playing your cards to the end of the hand you left (and then tells the table you left). Closing the window now stops it in the middle of the hand: the others wait for you, and the hand is void for everyone unless you are back within the grace period (a minute, unless the table set another).",
            stay: "Keep the window open",
        })
    } else {
        None
    }
}

impl Closing {
    /// Once a frame, before the table is drawn: a request to close while something is at
    /// `stake` is held back and the question shown, over everything (the table's keys and
    /// clicks wait), until the player answers or nothing is at stake any more.
    pub fn guard(&mut self, ui: &mut Ui, stake: Option<Stake>) {
        let ctx = ui.ctx().clone();
        let requested = ctx.input(|i| i.viewport().close_requested());
        let Some(stake) = stake else {
            self.asked = None;
            set(&ctx, Question::Close, false);
            return;
        };
        let now = ctx.input(|i| i.time);
        if requested && !self.confirmed {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.asked.get_or_insert(now);
        }
        set(&ctx, Question::Close, self.asked.is_some());
        let Some(at) = self.asked else { return };
        let modal = egui::Modal::new(Id::unique("fairdeal-close")).show(&ctx, |ui| {
            ui.set_max_width(420.0);
            ui.heading("Close fairdeal?");
            ui.label(stake.words);
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                let stay = super::questions::stay_button(ui, stake.stay);
                let settled = now - at >= SETTLE;
                if !settled {
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_secs_f64(SETTLE));
                }
                let close = ui.add_enabled(settled, egui::Button::new("Close anyway"));
                (stay, close.clicked())
            })
            .inner
        });
        let (stay, close) = modal.inner;
        let esc = ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
        if close {
            self.confirmed = true;
            ctx.send_viewport_cmd(ViewportCommand::Close);
        } else if stay || esc || modal.backdrop_response.clicked() {
            self.asked = None;
            set(&ctx, Question::Close, false);
        }
    }

    /// Whether the question is on screen.
    pub fn asking(&self) -> bool {
        self.asked.is_some()
    }
}

#[cfg(test)]
mod tests {
    use eframe::egui::{ViewportEvent, ViewportId};
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};

    use super::{Closing, Stake, at_stake};

    const WORDS: &str = "A hand of yours is being played";
    const STAKE: Stake = Stake {
        words: WORDS,
        stay: "Stay at the table",
    };

    /// The window's close button pressed in this frame.
    fn press_close(h: &mut Harness<'_, (Closing, Option<Stake>)>) {
        h.input_mut()
            .viewports
            .entry(ViewportId::ROOT)
            .or_default()
            .events
            .push(ViewportEvent::Close);
        h.run();
    }

    fn harness(stake: Option<Stake>) -> Harness<'static, (Closing, Option<Stake>)> {
        Harness::new_ui_state(
            |ui, (closing, stake): &mut (Closing, Option<Stake>)| closing.guard(ui, *stake),
            (Closing::default(), stake),
        )
    }

    /// Sabotage caught (checked): a guard that lets the close through (no question), or one
    /// whose "Close anyway" works at once (a double press closes).
    #[test]
    fn closing_during_a_hand_asks_first_and_stay_keeps_the_window() {
        let mut h = harness(Some(STAKE));
        h.run();
        assert!(!h.state().0.asking());
        press_close(&mut h);
        assert!(h.state().0.asking(), "asked");
        assert!(
            super::super::questions::asking(&h.ctx),
            "the table's keys wait"
        );
        h.get_by_label_contains(WORDS);
        assert!(
            h.get_by_label("Close anyway")
                .accesskit_node()
                .is_disabled(),
            "greyed at first"
        );
        h.get_by_label("Stay at the table").click();
        h.run();
        assert!(!h.state().0.asking());
        assert!(
            !super::super::questions::asking(&h.ctx),
            "the table's keys work again"
        );
        assert!(!h.state().0.confirmed);
        // Asked again later, "Close anyway" works once a second has passed.
        press_close(&mut h);
        h.input_mut().time = Some(h.ctx.input(|i| i.time) + 2.0);
        h.run();
        h.get_by_label("Close anyway").click();
        h.run();
        assert!(h.state().0.confirmed);
    }

    /// Nothing at stake (a game against the computer, the start screen): no question.
    #[test]
    fn with_nothing_at_stake_the_window_closes_without_a_question() {
        let mut h = harness(None);
        press_close(&mut h);
        assert!(!h.state().0.asking());
        assert!(h.query_by_label("Close anyway").is_none());
        assert_eq!(at_stake(false, false), None);
        assert!(
            at_stake(false, true).is_some_and(|s| s.words.contains("end of the hand you left")
                && s.stay == "Keep the window open")
        );
    }
}
