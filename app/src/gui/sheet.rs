//! End of a hand (the score sheet and the fairness check) and end of the game.

use eframe::egui::{self, Color32, RichText, Ui};

use super::game::{Desk, Model};
use super::intent::Intent;
use super::records::GameKind;

/// The score sheet after a hand, while it is open.
pub fn report_window(ui: &mut Ui, m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    let Some((hand_no, r)) = &m.report else {
        return;
    };
    if !d.show_report {
        return;
    }
    // Our seat, also while a computer player holds it (no view of our own then).
    let us = m.our_team();
    let (mine, theirs) = (us.index(), us.other().index());
    egui::Window::new(format!("Hand {hand_no}: score sheet"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, off_centre(ui.ctx()))
        .show(ui.ctx(), |ui| {
            let (a, b) = (&r.breakdown[mine], &r.breakdown[theirs]);
            egui::Grid::new("sheet")
                .num_columns(3)
                .striped(true)
                .min_col_width(90.0)
                .show(ui, |ui| {
                    ui.strong("");
                    if m.onlooker {
                        ui.strong(m.team_names(us));
                        ui.strong(m.team_names(us.other()));
                    } else {
                        ui.strong(format!("We ({})", m.team_names(us)));
                        ui.strong(format!("They ({})", m.team_names(us.other())));
                    }
                    ui.end_row();
                    let rows: [(&str, i32, i32); 8] = [
                        ("Melded cards", a.melded_cards, b.melded_cards),
                        ("Natural canastas", a.natural_canastas, b.natural_canastas),
                        ("Mixed canastas", a.mixed_canastas, b.mixed_canastas),
                        ("Sambas", a.sambas, b.sambas),
                        ("Red threes", a.red_threes, b.red_threes),
                        ("Going out", a.going_out, b.going_out),
                        ("Cards left in hand", a.cards_in_hand, b.cards_in_hand),
                        ("Penalties (red threes held)", a.held_red_threes, b.held_red_threes),
                    ];
                    for (name, x, y) in rows {
                        ui.label(name);
                        ui.label(x.to_string());
                        ui.label(y.to_string());
                        ui.end_row();
                    }
                    ui.strong("This hand");
                    ui.strong(r.scores[mine].to_string());
                    ui.strong(r.scores[theirs].to_string());
                    ui.end_row();
                    ui.strong("Running totals");
                    ui.strong(m.totals[mine].to_string());
                    ui.strong(m.totals[theirs].to_string());
                    ui.end_row();
                });
            if a.red_threes < 0 || b.red_threes < 0 {
                ui.small(
                    "Red threes count against a team that has not yet met the condition for them (How to play, F1, says which): minus their value instead of plus.",
                );
            }
            ui.separator();
            ui.colored_label(
                Color32::from_rgb(30, 140, 60),
                if m.onlooker {
                    format!(
                        "✔ Deal verified: all {} shuffles recomputed, {} cards opened by the players checked by this computer.",
                        r.shuffles_checked, r.openings_checked
                    )
                } else {
                    format!(
                        "✔ Deal verified: all {} shuffles recomputed, {} card openings by the other players checked by this computer.",
                        r.shuffles_checked, r.openings_checked
                    )
                },
            );
            ui.small("Every player's seed was revealed and every shuffle and card re-checked against the signed log.");
            ui.separator();
            next_hand_row(ui, m, d, out);
        });
}

/// What the game came to, in hands: those scored (each deal verified here), those void.
pub fn game_over_words(m: &Model) -> String {
    let scored = crate::table_words::hands(m.scored as usize);
    let mut words = if m.onlooker {
        format!("{scored} verified by this computer.")
    } else if m.was_held {
        format!(
            "Your client verified and scored {scored}; the hands a computer player played in your seat while you were away were verified by the other players' clients."
        )
    } else if m.scored == 1 {
        "1 hand scored, its deal verified.".to_owned()
    } else {
        format!("{scored} scored, every deal verified.")
    };
    if m.voided > 0 {
        words.push_str(&format!(
            " {} void (not scored).",
            crate::table_words::hands(m.voided as usize)
        ));
    }
    words
}

/// "Next hand", or who the table still waits for and the countdown (the same at every
/// seat); at the end of the game, "Continue".
fn next_hand_row(ui: &mut Ui, m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    let enter = super::actions::key(ui, egui::Key::Enter);
    if m.looks_only() {
        // A spectator or a replay deals nothing: the sheet only closes.
        ui.horizontal(|ui| {
            if ui.button("Close (Enter)").clicked() || enter {
                d.show_report = false;
            }
            if m.over.is_none() {
                ui.label("The players deal the next hand when they are ready.");
            }
        });
        return;
    }
    if m.over.is_some() {
        if ui.button("Continue (Enter)").clicked() || enter {
            d.show_report = false;
        }
        return;
    }
    // No countdown at a table of one person with computer players: nobody waits for them.
    let left = m
        .next
        .as_ref()
        .and_then(|n| n.left_ms)
        .map(|ms| ms.div_ceil(1000));
    let ready = m.ready_sent || m.next.as_ref().is_some_and(|n| n.ready);
    if ready {
        let waiting: Vec<String> = m
            .next
            .as_ref()
            .map(|n| n.waiting.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|s| format!("{} ({})", m.name(s), s.name()))
            .collect();
        ui.label(if waiting.is_empty() {
            "Dealing the next hand…".to_owned()
        } else {
            match left {
                Some(s) => format!(
                    "Waiting for {} to press Next hand; the next hand starts in {s} s anyway.",
                    waiting.join(", ")
                ),
                None => format!("Waiting for {} to press Next hand.", waiting.join(", ")),
            }
        });
        return;
    }
    ui.horizontal(|ui| {
        let next = ui.button("Next hand (Enter)").on_hover_text(if left.is_some() {
            "The next hand is dealt once every player at the table has pressed Next hand, or when the countdown runs out."
        } else {
            "The next hand is dealt when you press Next hand."
        });
        if next.clicked() || enter {
            next_hand(m, d, out);
        }
        ui.label(match left {
            Some(s) => format!("The next hand starts in {s} s, or once everyone is ready."),
            None => "No hurry: the next hand is dealt when you press Next hand.".to_owned(),
        });
    });
}

/// "Next hand" on the score sheet: the table is told we are ready (at the end of the
/// game, the sheet just closes).
pub fn next_hand(m: &Model, d: &mut Desk, out: &mut Vec<Intent>) {
    if m.over.is_some() {
        d.show_report = false;
    } else if !m.ready_sent {
        out.push(Intent::Ready);
    }
}

/// The end of the game: the winner, and play again or leave.
pub fn game_over_window(ui: &mut Ui, m: &Model, d: &Desk, out: &mut Vec<Intent>) {
    let Some(over) = m.over.clone() else {
        return;
    };
    if d.show_report {
        return;
    }
    egui::Window::new("Game over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, off_centre(ui.ctx()))
        .show(ui.ctx(), |ui| {
            ui.label(RichText::new(over).size(22.0));
            ui.label(game_over_words(m));
            if m.looks_only() {
                if ui.button("Back to the start").clicked() {
                    out.push(Intent::Leave);
                }
                return;
            }
            let joined = m.kind == GameKind::Join;
            if joined {
                ui.label("To play again, join the host's next table from the start screen.");
            }
            ui.horizontal(|ui| {
                let again = if m.kind == GameKind::Host {
                    "Open a new table"
                } else {
                    "Play again"
                };
                if !joined && ui.button(again).clicked() {
                    out.push(Intent::PlayAgain);
                }
                if ui.button("Back to the start").clicked() {
                    out.push(Intent::Leave);
                }
            });
        });
}

/// Where the table (left of the move list) was drawn in the last frame, kept for the sheets.
fn table_area_id() -> egui::Id {
    egui::Id::unique("the table's area, for the score sheets")
}

/// Records where the table is (left of the move list and the chat), for the sheets.
pub fn set_table_area(ctx: &egui::Context, area: egui::Rect) {
    ctx.data_mut(|d| d.insert_temp(table_area_id(), area));
}

/// How far a sheet centred in the window moves to be centred on the table instead: the move
/// list and the chat at the right stay in sight (the player can say "Good game").
fn off_centre(ctx: &egui::Context) -> egui::Vec2 {
    let Some(area) = ctx.data(|d| d.get_temp::<egui::Rect>(table_area_id())) else {
        return egui::Vec2::ZERO;
    };
    let window = ctx.content_rect();
    egui::vec2(area.center().x - window.center().x, 0.0)
}
