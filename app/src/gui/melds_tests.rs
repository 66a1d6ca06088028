//! The meld areas at 1024×700 (egui_kittest): whole rows at rest, whole names.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use fairdeal_core::Preset;

use super::tests::{TableHarness, game, sliced, table, table_sized};

/// Their melds in three rows at 1024×700, the area scrolled by the wheel: a scroll that
/// stops between rows settles on the nearest row, so that at rest no meld shows sliced
/// (a third of a row back to the first row, two thirds on to the second).
///
/// Sabotage caught (checked): without the settling, the wheel left meld 1 cut by the
/// area's top.
#[test]
fn a_wheel_scroll_of_the_melds_settles_on_a_row() {
    let mut g = game(Vec::new());
    g.model.view = Some(crate::gui::testkit::view_with_theirs(
        Preset::Samba,
        &[
            "QH QD QS", "8H 8S 8H", "9H 9S 9H", "TH TS TH", "JH JS JH", "7H 7S 7H", "6H 6S 6H",
            "5H 5S 5H", "4H 4S 4H", "KH KS KH", "AH AS AH",
        ],
    ));
    let mut h = table(g);
    let area = h.state().0.desk.seen.meld_areas[1].expect("their melds' area");
    let meld_1 = |h: &TableHarness| {
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Their meld 1:")))
            .next()
            .map(|n| n.rect())
            .expect("their meld 1")
    };
    let first = meld_1(&h);
    let wheel = |h: &mut TableHarness, dy: f32| {
        h.hover_at(area.center());
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, dy),
            modifiers: egui::Modifiers::NONE,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
        });
        for _ in 0..10 {
            h.step();
        }
        h.hover_at(egui::pos2(1.0, 1.0));
        h.step();
    };
    wheel(&mut h, -first.height() / 3.0);
    assert_eq!(meld_1(&h), first, "back on the first row");
    assert_eq!(sliced(&h, area, "Their meld "), Vec::<egui::Rect>::new());
    wheel(&mut h, -first.height() * 2.0 / 3.0);
    let rect = meld_1(&h);
    assert!(
        rect.bottom() <= area.top() + 0.5,
        "meld 1's row is above the area: {rect:?} in {area:?}"
    );
    assert_eq!(sliced(&h, area, "Their meld "), Vec::<egui::Rect>::new());
}

/// At 1024×700, with computer players' names, a computer player holding a person's seat
/// and West playing: each meld area shows two whole rows of melds, no seat box's name is
/// cut, and neither is the top line's opening minimum.
///
/// Sabotage caught (checked): with a number line over each stack and spacing between rows,
/// each area showed one row (the second hidden below it); with the hints' long title (the
/// panel a third wider) and "◀ playing" kept beside a name it left no room for, West's box
/// read "Computer West (opp…".
#[test]
fn two_rows_of_melds_and_whole_names_at_1024() {
    let mut g = game(Vec::new());
    for (i, n) in ["Ann", "Computer West", "Beatrice", "Computer East"]
        .iter()
        .enumerate()
    {
        g.model.roster[i] = Some(fairdeal_net::table::msg::SeatInfo {
            key: fairdeal_crypto::Identity::from_secret([i as u8 + 1; 32]).public(),
            name: (*n).to_owned(),
            bot: n.starts_with("Computer"),
            addrs: Vec::new(),
        });
    }
    // Beatrice left: a computer player holds her seat.
    g.model.taken[2] = true;
    let theirs = [
        "QH QD QS", "8H 8S 8H", "9H 9S 9H", "TH TS TH", "JH JS JH", "7H 7S 7H", "6H 6S 6H",
    ];
    // We have not opened: the top line says what we need.
    let json = format!(
        r#"{{"dealer": "E", "scores": {{"A": 0, "B": 0}}, "turn": "W", "phase": "play",
        "hands": {{"S": ["2C", "JC", "7S", "KS", "9D"], "W": ["4D"], "N": ["4D"], "E": ["4D"]}},
        "melds": {{"A": [], "B": {:?}}},
        "red_threes": {{"A": 0, "B": 0}}, "pile": ["5D"], "stock": ["6D", "7D"]}}"#,
        theirs
            .iter()
            .map(|m| m.split_whitespace().collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
    let desc: fairdeal_core::PositionDesc = serde_json::from_str(&json).unwrap();
    g.model.view = Some(
        fairdeal_core::Position::from_desc(fairdeal_core::Rules::preset(Preset::Samba), &desc)
            .unwrap()
            .view(fairdeal_core::Seat::S),
    );
    let h = table(g);
    let area = h.state().0.desk.seen.meld_areas[1].expect("their melds' area");
    let melds: Vec<egui::Rect> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Their meld ")))
        .map(|n| n.rect())
        .collect();
    assert_eq!(melds.len(), theirs.len());
    let rows: Vec<f32> = melds.iter().fold(Vec::new(), |mut tops, r| {
        if !tops.iter().any(|t: &f32| (t - r.top()).abs() < 1.0) {
            tops.push(r.top());
        }
        tops
    });
    assert_eq!(rows.len(), 2, "their melds in two rows: {melds:?}");
    for r in &melds {
        assert!(
            r.top() >= area.top() && r.bottom() <= area.bottom(),
            "{r:?} whole in their area {area:?}"
        );
    }
    let cut: Vec<String> = h
        .query_all_by(|n| n.value().is_some_and(|v| v.ends_with('…')))
        .filter_map(|n| n.value())
        .collect();
    assert!(cut.is_empty(), "cut: {cut:?}");
    for whole in ["Computer for Beatrice (partner)", "we need 50 to open"] {
        assert!(
            h.query_all_by(|n| n.value().is_some_and(|v| v.contains(whole)))
                .next()
                .is_some(),
            "{whole:?} shown"
        );
    }
}

/// Our melds in two rows and five red threes laid out, at 1024×700, the last meld just
/// played (scrolled into sight): the area still shows both rows whole, and it comes to rest
/// (no frame asks for another).
///
/// Sabotage caught (checked): with the red threes drawn taller than the title's line, the
/// area lost its second row.
#[test]
fn red_threes_and_a_reveal_keep_our_two_rows_whole_and_at_rest() {
    let mut g = ours_in_two_rows(5);
    g.desk.seen.reveal = Some((fairdeal_core::Team::A, 5));
    let mut h = table(g);
    for _ in 0..5 {
        h.step();
    }
    let area = h.state().0.desk.seen.meld_areas[0].expect("our melds' area");
    let ours: Vec<egui::Rect> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Our meld ")))
        .map(|n| n.rect())
        .collect();
    assert_eq!(ours.len(), 6);
    for r in &ours {
        assert!(
            r.top() >= area.top() - 0.5 && r.bottom() <= area.bottom() + 0.5,
            "{r:?} whole in our area {area:?}"
        );
    }
    h.run_ok().expect("the table comes to rest");
}

/// In a window too low for two rows (one row in each area), the last of our melds just
/// played: it is scrolled into sight whole, no meld shows sliced, and the table comes to
/// rest.
///
/// Sabotage caught (checked): with egui's least scrolling height (64 points, more than a
/// row) the area showed a sliver of the first row above the second, and the settling,
/// aiming at a row's top the area could not reach, asked for a frame on every frame.
#[test]
fn one_row_in_sight_scrolls_to_a_whole_row_and_rests() {
    let mut g = ours_in_two_rows(0);
    let ours = 6;
    g.desk.seen.reveal = Some((fairdeal_core::Team::A, ours - 1));
    let mut h = table_sized(g, [1024.0, 560.0]);
    for _ in 0..5 {
        h.step();
    }
    let area = h.state().0.desk.seen.meld_areas[0].expect("our melds' area");
    let last = h
        .query_all_by(|n| {
            n.label()
                .is_some_and(|l| l.starts_with(&format!("Our meld {ours}:")))
        })
        .next()
        .map(|n| n.rect())
        .expect("our last meld");
    assert!(
        last.top() >= area.top() - 0.5 && last.bottom() <= area.bottom() + 0.5,
        "{last:?} whole in our area {area:?}"
    );
    assert_eq!(
        sliced(&h, area, "Our meld "),
        Vec::<egui::Rect>::new(),
        "sliced in {area:?}"
    );
    h.run_ok().expect("the table comes to rest");
}

/// West to play; we have six melds (two rows at 1024 wide) and `threes` red threes laid out.
fn ours_in_two_rows(threes: usize) -> crate::gui::game::Game {
    let mut g = game(Vec::new());
    let json = format!(
        r#"{{"dealer": "E", "scores": {{"A": 0, "B": 0}}, "turn": "W", "phase": "play",
        "hands": {{"S": ["2C", "JC", "7S"], "W": ["4D"], "N": ["4D"], "E": ["4D"]}},
        "melds": {{"A": [["QH", "QD", "QS"], ["8H", "8S", "8H"], ["9H", "9S", "9H"],
                        ["TH", "TS", "TH"], ["JH", "JS", "JH"], ["7H", "7S", "7H"]],
                  "B": [["KH", "KS", "KD"]]}},
        "red_threes": {{"A": {threes}, "B": 0}}, "pile": ["5D"], "stock": ["6D", "7D"]}}"#
    );
    let desc: fairdeal_core::PositionDesc = serde_json::from_str(&json).unwrap();
    g.model.view = Some(
        fairdeal_core::Position::from_desc(fairdeal_core::Rules::preset(Preset::Samba), &desc)
            .unwrap()
            .view(fairdeal_core::Seat::S),
    );
    g
}
