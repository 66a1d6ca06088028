//! The rows under the hand at 1024×700 (egui_kittest): the ways to take the pile and a plan
//! of three melds stay inside the window, and a click on them does what it says.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fairdeal_core::{Move, Preset, Seat};

use super::table_ui;
use crate::gui::game::{Game, TurnMoves};
use crate::gui::intent::Intent;
use crate::gui::prefs::TablePrefs;
use crate::gui::records::{GameKind, GameRecord};

type Rows = Harness<'static, (Game, bool, Vec<Intent>)>;

/// South's table at 1024×700 in `phase`, holding `hand`, the pile `pile`.
fn south(hand: &str, phase: &str, pile: &str) -> Rows {
    let record = GameRecord::started(GameKind::Local, "test".to_owned());
    let mut g = Game::new(&record, "");
    let view = crate::gui::testkit::view_at(Preset::Samba, hand, "S", "4S 5S 6S", phase, pile);
    g.model.moves = TurnMoves {
        legal: view.legal_moves(),
        opening: None,
        finish: None,
    };
    g.model.view = Some(view);
    g.model.me = Some(Seat::S);
    g.model.my_turn = true;
    let mut h = Harness::builder()
        .with_size([1024.0, 700.0])
        .build_ui_state(
            |ui, (g, fonts, out): &mut (Game, bool, Vec<Intent>)| {
                if !*fonts {
                    crate::gui::install_fonts(ui.ctx());
                    *fonts = true;
                    return;
                }
                let mut prefs = TablePrefs::default();
                let Game { model, desk } = g;
                table_ui(ui, model, desk, &mut prefs, out);
            },
            (g, false, Vec::new()),
        );
    for _ in 0..3 {
        h.step();
    }
    h
}

/// Sabotage caught (checked): the ways side by side in a row that scrolls ran past the
/// move list's edge (the last one cut).
#[test]
fn the_ways_to_take_the_pile_fit_and_a_click_takes() {
    let mut h = south("KS KD KH 7S 9D", "draw", "5D KC");
    let takes: Vec<_> = h
        .state()
        .0
        .model
        .moves
        .legal
        .iter()
        .filter(|m| matches!(m, Move::Pickup { .. } | Move::TakeTop { .. }))
        .cloned()
        .collect();
    assert!(takes.len() > 1, "several ways: {takes:?}");
    let moves_left = h
        .get_all_by(|n| {
            n.label().is_some_and(|l| l == "Moves") || n.value().is_some_and(|v| v == "Moves")
        })
        .next()
        .unwrap()
        .rect()
        .left();
    let take = h.get_by_label_contains("Take the pile (T): ");
    assert!(
        take.rect().right() <= moves_left,
        "{:?} reaches the move list at {moves_left}",
        take.rect()
    );
    take.click();
    for _ in 0..3 {
        h.step();
    }
    let first = h
        .get_all_by(|n| {
            n.label().is_some_and(|l| {
                l.starts_with("Take the pile with") || l.starts_with("Take the top")
            })
        })
        .next()
        .expect("the ways are listed");
    assert!(first.rect().right() <= 1024.0, "{:?}", first.rect());
    first.click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        h.state()
            .2
            .iter()
            .any(|i| matches!(i, Intent::Play(m) if takes.contains(m))),
        "a click on a way takes the pile: {:?}",
        h.state().2
    );
}

/// The plan row at 1024×700 with three melds planned: every group, its ✖ and the "new meld"
/// zone inside the row, left of the move list.
#[test]
fn a_plan_of_three_melds_fits_the_row() {
    let mut h = south("KS KD KH 7S 7D 7H 9D 9C 9H JC", "play", "5D");
    let c = |s: &str| s.parse::<fairdeal_core::Card>().unwrap();
    h.state_mut().0.desk.plan = vec![
        vec![c("KS"), c("KD"), c("KH")],
        vec![c("7S"), c("7D"), c("7H")],
        vec![c("9D"), c("9C"), c("9H")],
    ];
    for _ in 0..5 {
        h.step();
    }
    let moves_left = h
        .get_all_by(|n| {
            n.label().is_some_and(|l| l == "Moves") || n.value().is_some_and(|v| v == "Moves")
        })
        .next()
        .unwrap()
        .rect()
        .left();
    let zone = h
        .get_all_by(|n| {
            n.value().is_some_and(|v| v == "drop here: new meld")
                || n.label().is_some_and(|l| l == "drop here: new meld")
        })
        .next()
        .unwrap()
        .rect();
    let planned: Vec<egui::Rect> = h
        .get_all_by(|n| n.label().is_some_and(|l| l.ends_with("planned")))
        .map(|n| n.rect())
        .collect();
    assert_eq!(planned.len(), 9);
    for r in planned.iter().chain([&zone]) {
        assert!(
            r.right() <= moves_left,
            "{r:?} past the move list at {moves_left}"
        );
    }
}

/// The one way to take the pile, as the legal moves offer it, `also` melding more.
fn one_way(also: &str) -> Rows {
    let mut h = south("KS KD 7S 7H 7D JK 9D", "draw", "5D KC");
    let card = |c: &str| c.parse::<fairdeal_core::Card>().unwrap();
    let also: Vec<fairdeal_core::Card> = also.split_whitespace().map(card).collect();
    let take = Move::Pickup {
        with: vec![card("KS"), card("KD")],
        onto: None,
        also: fairdeal_core::Plan {
            new: if also.is_empty() {
                Vec::new()
            } else {
                vec![also]
            },
            ..Default::default()
        },
    };
    h.state_mut().0.model.moves.legal = vec![Move::Draw {}, take];
    h.step();
    h
}

fn press_t(h: &mut Rows) {
    h.key_press(egui::Key::T);
    for _ in 0..3 {
        h.step();
    }
}

/// T takes the pile at once when its one way melds only the top card's meld; when that way
/// also lays down more of the hand (a joker, say), T shows it first and a click plays it.
///
/// Sabotage caught (checked): with T taking the only way whatever it melded, a press laid
/// down the joker with nothing shown.
#[test]
fn t_shows_a_way_that_melds_more_before_it_is_played() {
    let played = |h: &Rows| {
        h.state()
            .2
            .iter()
            .any(|i| matches!(i, Intent::Play(Move::Pickup { .. })))
    };
    let mut h = one_way("");
    press_t(&mut h);
    assert!(played(&h), "T takes the plain way at once");
    let mut h = one_way("7S 7H 7D JK");
    press_t(&mut h);
    assert!(!played(&h), "a key alone does not meld the joker");
    h.get_by_label_contains("Take the pile with").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(played(&h), "the way shown is played with a click");
}
