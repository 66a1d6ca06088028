//! A table's lobby before the start: who sits where, the address to share, seat changes and
//! the start (host), or waiting for the host (joiner).

use eframe::egui::{self, RichText, Ui};
use fairdeal_core::Seat;

use super::game::Model;
use super::intent::Intent;
use super::records::GameKind;

/// Draws the lobby of `g`; what the player asks for goes to `out`.
pub fn lobby_ui(ui: &mut Ui, g: &Model, out: &mut Vec<Intent>) {
    let hosting = g.kind == GameKind::Host;
    if g.resumed {
        ui.heading(if g.table.is_empty() {
            "Resuming the game".to_owned()
        } else {
            format!("Resuming the game at \"{}\"", g.table)
        });
    } else if g.table.is_empty() {
        ui.heading("A table joined by address (asking the host its name…)");
    } else {
        ui.heading(format!("Table \"{}\"", g.table));
    }
    if let Some(e) = &g.stopped {
        // Nothing was played yet: a guest's try failed, or the host's table closed; or a
        // game resumed from its logs could not be taken up again.
        let what = if g.resumed {
            "Could not resume the game (its logs are kept, and it stays on the start screen \
             to try again)"
        } else if hosting {
            "The table stopped"
        } else {
            "Could not join the table"
        };
        ui.colored_label(egui::Color32::RED, format!("{what}: {e}"));
    }
    if g.closed {
        ui.colored_label(
            egui::Color32::from_rgb(200, 120, 0),
            "The host closed this table.",
        );
        if ui.button("Back to the start").clicked() {
            out.push(Intent::Leave);
        }
        return;
    }
    let seated = g.roster.iter().flatten().count();
    if seated == 0 && g.stopped.is_none() {
        ui.label(if g.resumed {
            "Reading the game's log and finding the table again…"
        } else if hosting {
            "Opening the table…"
        } else {
            "Asking the host for a seat…"
        });
        if let Some(note) = g.note.as_ref().filter(|_| !hosting && g.stopped.is_none()) {
            ui.colored_label(egui::Color32::from_rgb(200, 120, 0), sentence(note));
        }
        if !hosting && !g.resumed && g.stopped.is_none() && g.since.elapsed().as_secs() >= 10 {
            ui.colored_label(
                egui::Color32::from_rgb(200, 120, 0),
                "No answer from the host yet: the table may be full, closed, or out of reach. Check the address, or leave and pick another table.",
            );
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        } else if !hosting {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        }
    }
    if hosting {
        ui.label("Friends on the LAN see this table in their list and pick a seat.");
        if let Some(a) = &g.address {
            copy_row(
                ui,
                "If discovery is blocked, they can join by this address:",
                &a.to_string(),
                "address copied at",
            );
        }
        if let Some(invite) = &g.invitation {
            copy_row(
                ui,
                "Friends beyond the LAN join with this invitation (send it to them, then they paste it under Join by invitation):",
                invite,
                "invitation copied at",
            );
        }
    }
    if !hosting && seated == 0 {
        // Not at the table yet: no seats or rules to show (they are the host's to tell).
        watch_offer(ui, g, out);
        ui.add_space(12.0);
        leave_button(ui, g, out);
        return;
    }
    ui.add_space(8.0);
    let free = 4 - seated;
    egui::Grid::new("seats")
        .num_columns(3)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            for seat in Seat::ALL {
                let team = if seat.index() % 2 == 0 {
                    "South–North"
                } else {
                    "West–East"
                };
                ui.label(RichText::new(format!("{} ({team})", seat.name())).strong());
                match &g.roster[seat.index()] {
                    Some(p) => {
                        let kind = if p.bot { " (computer)" } else { "" };
                        let name = fairdeal_net::table::clean_name(&p.name);
                        ui.label(format!("{name}{kind}"));
                    }
                    None => {
                        ui.weak("free");
                    }
                }
                ui.horizontal(|ui| {
                    if hosting && seat != Seat::S && g.config.is_none() {
                        for other in [Seat::W, Seat::N, Seat::E] {
                            // Two free seats swapped change nothing.
                            let someone = g.roster[seat.index()].is_some()
                                || g.roster[other.index()].is_some();
                            if other != seat
                                && other.index() > seat.index()
                                && someone
                                && ui
                                    .small_button(format!("⇄ {}", other.name()))
                                    .on_hover_text("Swap these two seats")
                                    .clicked()
                            {
                                out.push(Intent::SwapSeats(seat, other));
                            }
                        }
                    }
                });
                ui.end_row();
            }
        });
    ui.add_space(8.0);
    if g.rules_words.is_empty() {
        ui.weak("The table's rules show here once the host says what table this is.");
    } else {
        ui.label(&g.rules_words);
    }
    ui.add_space(8.0);
    if hosting {
        if g.start_asked {
            ui.label("Starting: computer players are taking the empty seats…");
        } else {
            let label = if free == 0 {
                "Start the game".to_owned()
            } else {
                format!(
                    "Start: {free} computer player{} ({}) take the empty seat{}",
                    if free == 1 { "" } else { "s" },
                    g.difficulty,
                    if free == 1 { "" } else { "s" }
                )
            };
            let ready = seated > 0 && g.address.is_some();
            if ui
                .add_enabled(ready, egui::Button::new(RichText::new(label).size(18.0)))
                .clicked()
            {
                out.push(Intent::StartTable);
            }
        }
    } else if seated > 0 {
        if g.down.contains_key(&Seat::S) {
            ui.colored_label(
                egui::Color32::from_rgb(200, 120, 0),
                "The host's connection is lost: waiting for it to come back (or leave the table).",
            );
        } else {
            ui.label("Waiting for the host to start the game…");
        }
    }
    ui.add_space(12.0);
    leave_button(ui, g, out);
}

/// A joiner without a seat: when the host says every seat is taken (or has not answered for
/// a while, which is how a full table that refuses joins looks), watching it is offered
/// rather than a wait that leads nowhere.
fn watch_offer(ui: &mut Ui, g: &Model, out: &mut Vec<Intent>) {
    if g.host_at.is_none() || g.closed {
        return;
    }
    let quiet = g.stopped.is_none() && g.since.elapsed().as_secs() >= 10;
    if !g.full && !quiet {
        return;
    }
    ui.add_space(8.0);
    if g.full {
        ui.label(RichText::new("Every seat at this table is taken.").strong());
    }
    if ui
        .button(RichText::new("Watch this table").size(18.0))
        .on_hover_text(
            "Follow the game as a spectator: every hand face down, every deal checked here.",
        )
        .clicked()
    {
        out.push(Intent::WatchLobby);
    }
}

/// "Leave the table", or "Back to the start" once the client has stopped.
fn leave_button(ui: &mut Ui, g: &Model, out: &mut Vec<Intent>) {
    let label = if g.stopped.is_some() {
        "Back to the start"
    } else {
        "Leave the table"
    };
    if ui.button(label).clicked() {
        out.push(Intent::Leave);
    }
}

/// `text` with its first letter in capitals (the node's status lines are lower case).
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A line to pass on, with a Copy button that says when it copied (the clipboard shows
/// nothing by itself).
fn copy_row(ui: &mut Ui, label: &str, text: &str, salt: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label(label);
        ui.monospace(text);
        let copied_id = egui::Id::unique(salt);
        let now = ui.input(|i| i.time);
        let at: Option<f64> = ui.data(|d| d.get_temp(copied_id));
        if ui.small_button("Copy").clicked() {
            ui.ctx().copy_text(text.to_owned());
            ui.data_mut(|d| d.insert_temp(copied_id, now));
        }
        if at.is_some_and(|t| now - t < 3.0) {
            ui.label("✔ Copied");
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(500));
        }
    });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use fairdeal_core::Preset;
    use fairdeal_crypto::Identity;
    use fairdeal_net::table::msg::SeatInfo;

    use super::super::choices::Difficulty;
    use super::super::game::{Game, Model};
    use super::super::records::{GameKind, GameRecord};

    /// A host's lobby with South and, if `west`, West seated.
    fn lobby(west: bool) -> Model {
        let record = GameRecord {
            kind: GameKind::Host,
            table: "t".to_owned(),
            preset: Preset::Samba,
            difficulty: Difficulty::Easy,
            house: "{}".to_owned(),
            bots: Vec::new(),
            started: false,
            over: false,
            pace_ms: 0,
            grace_ms: None,
            left: false,
            unanswered: false,
        };
        let mut m = Game::new(&record, "").model;
        let seat = |i: u8| SeatInfo {
            key: Identity::from_secret([i + 1; 32]).public(),
            name: format!("p{i}"),
            bot: false,
            addrs: Vec::new(),
        };
        m.roster[0] = Some(seat(0));
        if west {
            m.roster[1] = Some(seat(1));
        }
        m
    }

    /// The host swaps seats to sit friends as partners; two free seats swapped change
    /// nothing, so no button offers it.
    #[test]
    fn the_host_is_offered_swaps_only_that_move_someone() {
        let swaps = |m: Model| {
            let mut fonts = false;
            let mut h = Harness::new_ui(move |ui| {
                // The arrows need the bundled font, which applies from the next frame.
                if !fonts {
                    crate::gui::install_fonts(ui.ctx());
                    fonts = true;
                    return;
                }
                super::lobby_ui(ui, &m, &mut Vec::new());
            });
            h.run();
            h.run();
            h.query_all_by_label_contains("⇄").count()
        };
        // West seated: West with North and with East; North with East would move nobody.
        assert_eq!(swaps(lobby(true)), 2);
        assert_eq!(swaps(lobby(false)), 0);
    }
}
