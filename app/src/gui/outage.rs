//! The outage band over the table: who this seat hears nothing from, for how long, that the
//! hand waits and nothing is lost (the node's `Unheard`, in the words the terminal prints).

use eframe::egui::{self, Color32, Frame, Ui};

use super::cards::WARN;
use super::game::Model;

/// Draws the band while the node hears nothing from some seat; whether it did.
pub(crate) fn band(ui: &mut Ui, m: &Model) -> bool {
    if m.unheard.is_empty() || m.over.is_some() {
        return false;
    }
    let line = crate::table_words::unheard_line(&m.unheard, |s| m.seat_words(s));
    warning(ui, "outage band", &format!("⚠ {line}."));
    true
}

/// A warning laid over the table where the turn band is, in the table's width: it takes no
/// room of its own, so nothing under the pointer moves when it comes or goes (a band that
/// pushed the table down made a click meant for a button land beside it).
pub(crate) fn warning(ui: &Ui, id: &str, text: &str) {
    let at = ui.cursor().min;
    let width = ui.available_width();
    let fill = ui
        .visuals()
        .panel_fill
        .lerp_to_gamma(Color32::from_rgb(200, 120, 0), 0.3);
    egui::Area::new(egui::Id::unique(id))
        .fixed_pos(at)
        .order(egui::Order::Middle)
        .interactable(false)
        .show(ui.ctx(), |ui| {
            Frame::new().fill(fill).inner_margin(6.0).show(ui, |ui| {
                ui.set_width(width - 12.0);
                ui.colored_label(WARN, text);
            });
        });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};
    use fairdeal_core::{Preset, Seat};
    use fairdeal_net::node::Unheard;

    use crate::gui::game::Game;
    use crate::gui::prefs::TablePrefs;
    use crate::gui::records::{GameKind, GameRecord};

    /// South's table with West to play, hearing nothing from `unheard`.
    fn game(unheard: Vec<Unheard>) -> Game {
        let record = GameRecord::started(GameKind::Local, "test".to_owned());
        let mut g = Game::new(&record, "");
        g.model.view = Some(crate::gui::testkit::view_in(Preset::Samba, "2C 9D", "W"));
        g.model.me = Some(Seat::S);
        g.model.unheard = unheard;
        g
    }

    /// The band's text, if the table shows one.
    fn band(g: Game) -> Option<String> {
        band_and_height(g).map(|(text, _)| text)
    }

    /// The band's text and the height of its line, if the table shows one.
    fn band_and_height(g: Game) -> Option<(String, f32)> {
        let h = harness(g);
        h.query_all_by(|n| n.value().is_some_and(|v| v.contains("No answer from")))
            .next()
            .and_then(|n| Some((n.value()?, n.rect().height())))
    }

    /// The table of `g` at 1024×700, drawn.
    fn harness(g: Game) -> Harness<'static, (Game, bool)> {
        crate::gui::testkit::drawn(g, [1024.0, 700.0], |ui, g| {
            let mut prefs = TablePrefs::default();
            let Game { model, desk } = g;
            crate::gui::table::table_ui(ui, model, desk, &mut prefs, &mut Vec::new());
        })
    }

    /// The band comes and goes without moving the table under the pointer: the hand's cards
    /// and the seat boxes stay where they were.
    ///
    /// Sabotage caught (checked): with the band laid out above the turn band, everything
    /// under it moved down by the band's height.
    #[test]
    fn the_band_moves_nothing_under_the_pointer() {
        let places = |g: Game| -> Vec<(String, egui::Rect)> {
            let h = harness(g);
            h.get_all_by(|n| {
                n.label()
                    .is_some_and(|l| l.ends_with("in your hand") || l.starts_with("Our meld "))
            })
            .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
            .collect()
        };
        let calm = places(game(Vec::new()));
        let unheard = vec![Unheard {
            seat: Seat::N,
            ms: 31_000,
            client: None,
            grace_left: Some((29_000, fairdeal_net::table::AfterGrace::DealtAgain)),
        }];
        assert!(band(game(unheard.clone())).is_some(), "the band is shown");
        let stormy = places(game(unheard));
        assert!(!calm.is_empty());
        assert_eq!(calm, stormy);
    }

    /// The host's client unheard, with the two computer players it runs: the line the other
    /// seats see when the host's network goes, in one line of the band at 1024×700.
    ///
    /// Sabotage caught (checked): with each computer player named and "the computer players
    /// North's client runs: back when it is", the line took two lines of the band.
    #[test]
    fn the_hosts_client_unheard_is_said_in_one_line_of_the_band() {
        let unheard = |seat, client| Unheard {
            seat,
            ms: 12_300,
            client,
            grace_left: Some((47_700, fairdeal_net::table::AfterGrace::DealtAgain)),
        };
        let (_, one_height) = band_and_height(game(vec![unheard(Seat::N, None)])).unwrap();
        let (host, height) = band_and_height(game(vec![
            unheard(Seat::N, None),
            unheard(Seat::W, Some(Seat::N)),
            unheard(Seat::E, Some(Seat::N)),
        ]))
        .unwrap();
        assert!(
            height <= one_height + 1.0,
            "{host:?}: {height} high, one line {one_height}"
        );
    }

    /// Sabotage caught (checked): the band not drawn (the table said nothing while the node
    /// heard nobody), or drawn with nobody unheard.
    #[test]
    fn the_outage_band_names_who_is_not_heard_and_that_the_hand_is_kept() {
        let unheard = vec![
            Unheard {
                seat: Seat::W,
                ms: 12_300,
                client: Some(Seat::N),
                grace_left: None,
            },
            Unheard {
                seat: Seat::N,
                ms: 12_300,
                client: None,
                grace_left: None,
            },
        ];
        let said = band(game(unheard)).expect("the band is shown");
        assert!(
            said.contains("No answer from North, whose client runs West,"),
            "{said}"
        );
        assert!(said.contains("for 12 s"), "{said}");
        assert!(said.contains("nothing is lost"), "{said}");
        assert_eq!(band(game(Vec::new())), None);
    }
}
