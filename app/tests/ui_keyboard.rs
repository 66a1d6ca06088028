//! The table for a person who plays by keyboard, or with a screen reader (egui_kittest): a
//! whole hand played with keys alone (the focus moved only by keys), and the accessibility
//! tree naming every card of the hand, every meld and every seat box.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::app::FairdealApp;

use common::{hand, harness, labels, shows, wait_for};

fn press(h: &mut Harness<'static, FairdealApp>, key: egui::Key) {
    h.key_press(key);
    for _ in 0..3 {
        h.step();
    }
}

/// The name of the widget that has the keyboard's focus.
fn focused(h: &Harness<'static, FairdealApp>) -> Option<String> {
    h.get_all_by(|_| true)
        .find(|n| n.accesskit_node().is_focused())
        .and_then(|n| n.accesskit_node().label())
}

/// Whether the button named `label` is there and enabled.
fn enabled(h: &Harness<'static, FairdealApp>, label: &str) -> bool {
    h.query_by_label(label)
        .is_some_and(|n| !n.accesskit_node().is_disabled())
}

/// Sabotage caught (checked): without the Tab into the hand, the first Tab went to the
/// table's header and the move list (the focus was no card); a card focused and selected
/// by keys is what X discards.
#[test]
fn a_whole_hand_played_with_keys_alone() {
    let mut h = harness(71);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    let start = Instant::now();
    let mut turns = 0;
    while !shows(&h, "score sheet") {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the hand did not end; the window shows {:?}",
            labels(&h)
        );
        if enabled(&h, "Draw (D)") {
            press(&mut h, egui::Key::D);
            continue;
        }
        if h.query_by_label("Discard selected (X)").is_some() {
            let before = hand(&h).len();
            if focused(&h).is_none() {
                press(&mut h, egui::Key::Tab);
            }
            let on = focused(&h).unwrap_or_default();
            assert!(
                on.ends_with("in your hand"),
                "Tab went to the hand first, not to {on:?}"
            );
            // The card under the focus, selected by Space (one card: a plan or a meld is
            // not wanted here), then X.
            press(&mut h, egui::Key::Space);
            press(&mut h, egui::Key::X);
            let t = Instant::now();
            while hand(&h).len() == before && t.elapsed() < Duration::from_secs(5) {
                h.step();
                std::thread::sleep(Duration::from_millis(20));
            }
            if hand(&h).len() == before {
                // Refused (a card that may not go): clear the selection, one card along.
                press(&mut h, egui::Key::Escape);
                press(&mut h, egui::Key::ArrowRight);
            } else {
                turns += 1;
            }
            continue;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(turns >= 3, "several turns were played by keys ({turns})");
}

/// On a fresh table the arrow keys go along the hand at once, with no Tab first (nothing
/// has the focus when a table comes on screen), and Space selects the card they are on;
/// Esc clears the selection but keeps the place; the hand is one Tab stop; while the chat
/// line has the keys, an arrow stays in the line.
///
/// Sabotage caught (checked): with only Tab leading into the hand, → left the focus on
/// nothing; with every card a Tab stop, Tab went to the next card; with egui's Esc, the
/// focus was let go and ← started again from the hand's last card.
#[test]
fn the_arrow_keys_move_along_a_fresh_tables_hand_without_a_tab() {
    let mut h = harness(73);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    assert_eq!(focused(&h), None, "nothing has the focus on a fresh table");
    let cards = hand(&h);
    press(&mut h, egui::Key::ArrowRight);
    assert_eq!(
        focused(&h).as_ref(),
        cards.first(),
        "→ went to the first card"
    );
    press(&mut h, egui::Key::ArrowRight);
    assert_eq!(focused(&h).as_ref(), cards.get(1), "→ went along the hand");
    press(&mut h, egui::Key::Space);
    let on = focused(&h).unwrap_or_default();
    let selected = h
        .get_all_by_label(&on)
        .any(|n| n.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True));
    assert!(selected, "Space selected the card under the focus ({on:?})");
    // Esc clears the selection and keeps the place in the hand: ← goes one card back.
    press(&mut h, egui::Key::Escape);
    assert_eq!(focused(&h).as_ref(), cards.get(1), "Esc kept the place");
    assert!(
        !h.get_all_by_label(&on)
            .any(|n| n.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)),
        "Esc cleared the selection"
    );
    press(&mut h, egui::Key::ArrowLeft);
    assert_eq!(focused(&h).as_ref(), cards.first(), "← went one card back");
    // The hand is one Tab stop: Tab leaves it for the move buttons, Shift+Tab comes back
    // to the card it left.
    press(&mut h, egui::Key::Tab);
    let out = focused(&h).unwrap_or_default();
    assert!(
        !out.ends_with("in your hand"),
        "one Tab left the hand: {out:?}"
    );
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::Tab);
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(focused(&h).as_ref(), cards.first(), "Shift+Tab came back");
    // The chat line keeps its keys.
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.ctx.text_edit_focused(), "the chat line has the keys");
    press(&mut h, egui::Key::ArrowRight);
    assert!(
        h.ctx.text_edit_focused(),
        "→ stayed in the chat line: {:?}",
        focused(&h)
    );
    assert!(
        !focused(&h).is_some_and(|f| f.ends_with("in your hand")),
        "→ did not go into the hand"
    );
}

/// Sabotage caught (checked): seat boxes with no name of their own are not found (their
/// parts are labels, not a box).
#[test]
fn every_card_meld_and_seat_box_has_a_name() {
    let mut h = harness(72);
    h.state_mut().autoplay();
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Stock", Duration::from_secs(120));
    let start = Instant::now();
    // The computer players (this seat's too) play until both teams have melds.
    while !(shows(&h, "Our meld 1") && shows(&h, "Their meld 1")) {
        assert!(start.elapsed() < Duration::from_secs(600), "no melds came");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    let names: Vec<String> = h
        .get_all_by(|_| true)
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    let cards = names.iter().filter(|l| l.ends_with("in your hand")).count();
    let view_cards = hand(&h).len();
    assert!(cards > 0 && cards == view_cards, "{cards} cards named");
    for whose in ["Our", "Their"] {
        let melds: Vec<&String> = names
            .iter()
            .filter(|l| l.starts_with(&format!("{whose} meld ")))
            .collect();
        assert!(!melds.is_empty(), "{whose} melds named");
        for (i, _) in melds.iter().enumerate() {
            let n = format!("{whose} meld {}: ", i + 1);
            assert!(
                melds.iter().any(|l| l.starts_with(&n)),
                "{n:?} among {melds:?}"
            );
        }
    }
    let boxes: Vec<&String> = names
        .iter()
        .filter(|l| (l.contains("(opponent)") || l.contains("(partner)")) && l.contains(" card"))
        .collect();
    assert_eq!(boxes.len(), 3, "the three other seats' boxes: {boxes:?}");
    for seat in ["West", "North", "East"] {
        assert!(
            boxes.iter().any(|b| b.contains(seat)),
            "{seat}'s box among {boxes:?}"
        );
    }
}
