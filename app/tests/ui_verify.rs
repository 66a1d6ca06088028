//! The window's "Verify a game file…" screen (egui_kittest, no GPU): a recent game picked from
//! the list shows the same report as `fairdeal verify`; a typed path that is not there says so.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::app::FairdealApp;

/// Whether any widget's name or text contains `text`.
fn shows(h: &Harness<'static, FairdealApp>, text: &str) -> bool {
    h.get_all_by(|_| true).any(|n| {
        let node = n.accesskit_node();
        node.label().is_some_and(|l| l.contains(text))
            || node.value().is_some_and(|v| v.contains(text))
    })
}

fn wait_for(h: &mut Harness<'static, FairdealApp>, text: &str, limit: Duration) {
    let start = Instant::now();
    loop {
        h.step();
        if shows(h, text) {
            return;
        }
        if start.elapsed() >= limit {
            let labels: Vec<String> = h
                .get_all_by(|_| true)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("{text:?} did not show in {limit:?}; the window shows {labels:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_verify_screen_checks_a_recent_game_and_explains_a_missing_file() {
    let root = std::env::temp_dir().join(format!("fairdeal-ui-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // A short game of four computer players, its transcript filed as one of this user's games.
    let play = root.join("play");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fairdeal"))
        .env("FAIRDEAL_LOG", "warn")
        .args(["play", "--bots", "4", "--target", "50", "--data-dir"])
        .arg(&play)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = root.join("data");
    let game = data
        .join("games")
        .join("000000000000000000000001")
        .join("me");
    std::fs::create_dir_all(&game).unwrap();
    let file = game.join("transcript.fdt");
    std::fs::copy(play.join("seat0").join("transcript.fdt"), &file).unwrap();
    let app = FairdealApp::for_tests(data, 3);
    let mut h = Harness::builder()
        .with_size([1180.0, 780.0])
        .build_ui_state(|ui, app: &mut FairdealApp| app.draw_and_pump(ui), app);
    h.step();
    h.get_by_label("Verify a game file…").click();
    wait_for(&mut h, "Your recent games", Duration::from_secs(5));
    // A path typed in that is not there is said so.
    h.get_by_label("File").click();
    h.step();
    h.get_by_label("File").type_text("/no/such/transcript.fdt");
    h.step();
    h.get_by_label("Verify").click();
    wait_for(
        &mut h,
        "cannot read /no/such/transcript.fdt",
        Duration::from_secs(10),
    );
    // A recent game picked from the list: the same report as `fairdeal verify`.
    h.get_by_label(&file.display().to_string()).click();
    wait_for(&mut h, "The game verifies.", Duration::from_secs(60));
    assert!(
        shows(&h, "hand 1: verified:"),
        "the report's hand lines show"
    );
    assert!(shows(&h, "result: team"), "and the game's result");
    h.get_by_label("Back").click();
    wait_for(&mut h, "Play now", Duration::from_secs(5));
}
