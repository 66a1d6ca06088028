//! The chat as a player lives it (egui_kittest): a line sent with Enter keeps the keys (a
//! second line goes to the chat, never to the game) until Esc, and what was said is there again when the game is resumed after the window
//! went away mid-game.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;

use common::{hand, harness_in, shows, wait_for};

/// Sabotage caught (checked): with the chat kept only in the window's memory, the resumed
/// game showed "Nothing said yet.".
#[test]
fn after_a_line_the_chat_keeps_the_keys_until_esc_and_outlives_the_window() {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-chat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut h = harness_in(dir.clone(), 61);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    let before = hand(&h).len();
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.step();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("hello there");
    h.step();
    h.key_press(egui::Key::Enter);
    wait_for(&mut h, ": hello there", Duration::from_secs(30));
    assert!(
        h.ctx.text_edit_focused(),
        "the chat line keeps the keys once the line was sent"
    );
    // Esc gives them to the table: D draws.
    h.key_press(egui::Key::Escape);
    h.step();
    h.step();
    assert!(!h.ctx.text_edit_focused(), "Esc gave the keys back");
    h.key_press(egui::Key::D);
    let start = Instant::now();
    while hand(&h).len() != before + 1 {
        assert!(start.elapsed() < Duration::from_secs(60), "D drew a card");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!shows(&h, "hello thered"), "nothing went into the chat");
    // The window goes away mid-game (as in a crash: nothing is said to anyone) and comes back.
    drop(h);
    let mut h = harness_in(dir.clone(), 62);
    h.step();
    h.get_by_label("Resume it").click();
    wait_for(&mut h, "Stock", Duration::from_secs(120));
    for _ in 0..5 {
        h.step();
    }
    assert!(shows(&h, ": hello there"), "the chat is kept");
    assert!(!shows(&h, "Nothing said yet."));
    let _ = std::fs::remove_dir_all(&dir);
}
