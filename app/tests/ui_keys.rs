//! The hand by keyboard alone (egui_kittest): the focused card is the keyboard's place, Left
//! and Right move it along the hand, and Space selects the card that has the focus.

mod common;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::app::FairdealApp;

use common::{harness, wait_for};

/// The hand's cards in order (left to right): whether each has the focus, is selected.
fn hand_state(h: &Harness<'static, FairdealApp>) -> Vec<(bool, bool)> {
    h.get_all_by_role(egui::accesskit::Role::CheckBox)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.ends_with("in your hand"))
        })
        .map(|n| {
            let node = n.accesskit_node();
            (
                node.is_focused(),
                node.toggled() == Some(egui::accesskit::Toggled::True),
            )
        })
        .collect()
}

fn press(h: &mut Harness<'static, FairdealApp>, key: egui::Key) {
    h.key_press(key);
    for _ in 0..3 {
        h.step();
    }
}

/// Left and Right go to the neighbouring card of the fanned hand (the table moves the focus
/// itself: only the card with the keyboard's place takes the focus); this test holds that.
/// The focus ring itself is painted, not in the accessibility tree: looked at, not tested.
#[test]
fn arrow_keys_move_along_the_hand_and_space_selects_the_focused_card() {
    let mut h = harness(57);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    let first = h
        .get_all_by_role(egui::accesskit::Role::CheckBox)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.ends_with("in your hand"))
        })
        .expect("a hand");
    first.focus();
    for _ in 0..3 {
        h.step();
    }
    let focused = |h: &Harness<'static, FairdealApp>| hand_state(h).iter().position(|(f, _)| *f);
    assert_eq!(focused(&h), Some(0), "the first card has the focus");
    press(&mut h, egui::Key::ArrowRight);
    press(&mut h, egui::Key::ArrowRight);
    assert_eq!(focused(&h), Some(2), "two to the right");
    press(&mut h, egui::Key::ArrowLeft);
    assert_eq!(focused(&h), Some(1), "one back");
    assert!(
        hand_state(&h).iter().all(|(_, s)| !s),
        "nothing selected yet"
    );
    press(&mut h, egui::Key::Space);
    let state = hand_state(&h);
    assert!(state[1].1, "Space selected the focused card: {state:?}");
    assert_eq!(state.iter().filter(|(_, s)| *s).count(), 1, "and only it");
}

/// Esc that closes the table settings menu is the menu's: the selection stays.
///
/// Sabotage caught (checked): with the menu not asked about, the same Esc also cleared the
/// selection.
#[test]
fn esc_that_closes_the_settings_menu_keeps_the_selection() {
    let mut h = harness(58);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    h.get_all_by_role(egui::accesskit::Role::CheckBox)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.ends_with("in your hand"))
        })
        .expect("a hand")
        .click();
    for _ in 0..3 {
        h.step();
    }
    let selected =
        |h: &Harness<'static, FairdealApp>| hand_state(h).iter().filter(|(_, s)| *s).count();
    assert_eq!(selected(&h), 1, "one card selected");
    h.get_by_label("Table settings").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        egui::Popup::is_any_open(&h.ctx),
        "the settings menu is open"
    );
    press(&mut h, egui::Key::Escape);
    assert!(!egui::Popup::is_any_open(&h.ctx), "Esc closed the menu");
    assert_eq!(selected(&h), 1, "and left the selection alone");
    press(&mut h, egui::Key::Escape);
    assert_eq!(selected(&h), 0, "a second Esc clears it");
}
