//! The meld areas at 1024×700 (egui_kittest): whole rows at rest, whole names.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use fairdeal_core::Preset;

use super::tests::{TableHarness, game, table};

/// The melds cut by `area`'s top or bottom edge (partly in sight).
fn sliced(h: &TableHarness, area: egui::Rect) -> Vec<egui::Rect> {
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Their meld ")))
        .map(|n| n.rect())
        .filter(|r| {
            let inside = r.top() >= area.top() - 0.5 && r.bottom() <= area.bottom() + 0.5;
            let apart = r.bottom() <= area.top() + 0.5 || r.top() >= area.bottom() - 0.5;
            !inside && !apart
        })
        .collect()
}

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
    assert_eq!(sliced(&h, area), Vec::<egui::Rect>::new());
    wheel(&mut h, -first.height() * 2.0 / 3.0);
    let rect = meld_1(&h);
    assert!(
        rect.bottom() <= area.top() + 0.5,
        "meld 1's row is above the area: {rect:?} in {area:?}"
    );
    assert_eq!(sliced(&h, area), Vec::<egui::Rect>::new());
}

/// At 1024×700, with computer players' names and West playing: each meld area shows two
/// whole rows of melds, and no seat box's name is cut.
///
/// Sabotage caught (checked): with a number line over each stack and spacing between rows,
/// each area showed one row (the second hidden below it); with the hints' long title (the
/// panel a third wider) and "◀ playing" kept beside a name it left no room for, West's box
/// read "Computer West (opp…".
#[test]
fn two_rows_of_melds_and_whole_names_at_1024() {
    let mut g = game(Vec::new());
    for (i, n) in ["Ann", "Computer West", "Computer North", "Computer East"]
        .iter()
        .enumerate()
    {
        g.model.roster[i] = Some(fairdeal_net::table::msg::SeatInfo {
            key: fairdeal_crypto::Identity::from_secret([i as u8 + 1; 32]).public(),
            name: (*n).to_owned(),
            bot: i > 0,
            addrs: Vec::new(),
        });
    }
    let theirs = [
        "QH QD QS", "8H 8S 8H", "9H 9S 9H", "TH TS TH", "JH JS JH", "7H 7S 7H", "6H 6S 6H",
    ];
    g.model.view = Some(crate::gui::testkit::view_with_theirs(
        Preset::Samba,
        &theirs,
    ));
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
}
