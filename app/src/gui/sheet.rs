//! End of a hand (the score sheet and the fairness check) and end of the game.

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::Team;

use super::controller::GameKind;
use super::game::Game;
use super::table::team_names;

/// What the player chose at the end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterGame {
    /// Another game with the same settings.
    PlayAgain,
    /// Back to the start screen.
    Leave,
}

/// The score sheet after a hand, while it is open.
pub fn report_window(ui: &mut Ui, g: &mut Game) {
    let Some((hand_no, r)) = g.report.clone() else {
        return;
    };
    if !g.show_report {
        return;
    }
    let us = g.view.as_ref().map_or(Team::A, |v| v.seat().team());
    let (mine, theirs) = (us.index(), us.other().index());
    egui::Window::new(format!("Hand {hand_no}: score sheet"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            egui::Grid::new("sheet")
                .num_columns(3)
                .striped(true)
                .min_col_width(90.0)
                .show(ui, |ui| {
                    ui.strong("");
                    ui.strong(format!("We ({})", team_names(g, us)));
                    ui.strong(format!("They ({})", team_names(g, us.other())));
                    ui.end_row();
                    let (a, b) = (&r.breakdown[mine], &r.breakdown[theirs]);
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
                    ui.strong(g.totals[mine].to_string());
                    ui.strong(g.totals[theirs].to_string());
                    ui.end_row();
                });
            ui.separator();
            ui.colored_label(
                Color32::from_rgb(30, 140, 60),
                format!(
                    "✔ Deal verified: all {} shuffles recomputed, {} card openings checked.",
                    r.shuffles_checked, r.openings_checked
                ),
            );
            ui.small("Every player's seed was revealed and every shuffle and card re-checked against the signed log.");
            if ui.button("Continue (Enter)").clicked()
                || ui.input(|i| i.key_pressed(egui::Key::Enter))
            {
                g.show_report = false;
            }
        });
}

/// The end of the game: the winner, and play again or leave.
pub fn game_over_window(ui: &mut Ui, g: &Game) -> Option<AfterGame> {
    let over = g.over.clone()?;
    if g.show_report {
        return None;
    }
    let mut choice = None;
    egui::Window::new("Game over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            ui.label(RichText::new(over).size(22.0));
            let verified = g.report.as_ref().map_or(0, |(n, _)| *n);
            ui.label(if g.was_held {
                format!(
                    "Your client verified {verified} hands; the hands a computer player played in your seat while you were away were verified by the other players' clients."
                )
            } else {
                format!("{verified} hands, every deal verified.")
            });
            let joined = g.conn.record.kind == GameKind::Join;
            if joined {
                ui.label("To play again, join the host's next table from the start screen.");
            }
            ui.horizontal(|ui| {
                let again = if g.conn.record.kind == GameKind::Host {
                    "Open a new table"
                } else {
                    "Play again"
                };
                if !joined && ui.button(again).clicked() {
                    choice = Some(AfterGame::PlayAgain);
                }
                if ui.button("Back to the start").clicked() {
                    choice = Some(AfterGame::Leave);
                }
            });
        });
    choice
}
