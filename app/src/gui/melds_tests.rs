//! The meld areas at 1024×700 (egui_kittest): a meld's tooltip shows only while the pointer
//! is on the part of the meld in sight.

use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal_core::Preset;

use super::tests::{TableHarness, game, table};

/// How many widgets are named `name` (a meld, and its tooltip while one shows).
fn named(h: &TableHarness, name: &str) -> usize {
    h.query_all_by(|n| n.label().as_deref() == Some(name) || n.value().as_deref() == Some(name))
        .count()
}

/// Their melds in three rows, the area scrolled so that the first row is cut by the area's
/// top: the tooltip of a cut meld shows while the pointer is on its part in sight, and goes
/// when the pointer leaves the area onto the part out of sight.
///
/// Sabotage caught (checked): with the tooltip asked for whether or not the meld is hovered,
/// egui kept it open over the table while the pointer stayed in the meld's whole rectangle,
/// outside the area.
#[test]
fn a_melds_tooltip_goes_when_the_pointer_leaves_the_area() {
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
    let meld = |h: &TableHarness| {
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Their meld 1:")))
            .next()
            .map(|n| (n.rect(), n.accesskit_node().label().unwrap_or_default()))
            .expect("their meld 1")
    };
    // Scrolled down a little: meld 1's top is above the area's top.
    let (rect, _) = meld(&h);
    h.hover_at(rect.center());
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -30.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
    });
    for _ in 0..6 {
        h.step();
    }
    let (rect, name) = meld(&h);
    assert!(
        rect.top() < area.top(),
        "meld 1 is cut by the area's top: {rect:?} in {area:?}"
    );
    // The pointer on its part in sight, still: the tooltip shows.
    h.hover_at(egui::pos2(rect.center().x, area.top() + 10.0));
    for _ in 0..6 {
        h.step();
    }
    assert_eq!(named(&h, &name), 2, "the tooltip shows over meld 1");
    // Out of the area, onto the part of meld 1 out of sight.
    h.hover_at(egui::pos2(rect.center().x, (rect.top() + area.top()) / 2.0));
    for _ in 0..6 {
        h.step();
    }
    assert_eq!(named(&h, &name), 1, "the tooltip went with the pointer");
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
