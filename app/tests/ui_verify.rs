//! The window's "Verify a game file…" screen (egui_kittest, no GPU): a recent game picked from
//! the list (by its date) shows the same report as `fairdeal verify`; a typed path that is not
//! there says so, a file that is no transcript is said to be none, a transcript cut short
//! does not verify; the next visit starts afresh.
//!
//! Sabotage caught (checked): the old words ("FAULT: no seat can be named" for /etc/passwd, no
//! headline for a cut file, folders listed by their stamp, the last outcome kept).

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
    // A file that is no transcript at all is said so plainly, not as a fault.
    let not_a_game = root.join("passwd");
    std::fs::write(&not_a_game, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    verify_path(&mut h, &not_a_game);
    wait_for(
        &mut h,
        "This is not a fairdeal game file.",
        Duration::from_secs(10),
    );
    assert!(!shows(&h, "FAULT"), "nobody is at fault");
    // Nor is a file larger than any game's (a sparse one: it takes no room on the disk).
    let huge = root.join("huge.bin");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(fairdeal_net::transcript::MAX_FILE + 1)
        .unwrap();
    verify_path(&mut h, &huge);
    wait_for(
        &mut h,
        "larger than any transcript",
        Duration::from_secs(10),
    );
    assert!(shows(&h, "This is not a fairdeal game file."));
    assert!(!shows(&h, "damaged or cut short"));
    let _ = std::fs::remove_file(&huge);
    // A transcript cut short does not verify, and says so in its headline.
    let cut = root.join("cut.fdt");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    verify_path(&mut h, &cut);
    wait_for(&mut h, "The game does not verify.", Duration::from_secs(60));
    // A recent game picked from the list (named by its date, not its folder): the same
    // report as `fairdeal verify`.
    h.get_by_label("1970-01-01 00:00 UTC").click();
    wait_for(&mut h, "The game verifies.", Duration::from_secs(60));
    assert!(
        shows(&h, "Hand 1: dealt fairly and scored right"),
        "the report's hand lines show, in players' words"
    );
    assert!(
        shows(&h, " won, ") || shows(&h, "Not over in this file"),
        "and the game's result"
    );
    // The report's own words (hashes, share counts, teams by letter) wait under Details.
    for word in ["team A", "result root", "decryption shares"] {
        assert!(!shows(&h, word), "{word:?} on the verify screen");
    }
    h.get_by_label("Details (for checking by hand)").click();
    h.step();
    assert!(shows(&h, "hand 1: verified:"), "the details open");
    h.get_by_label("Back").click();
    wait_for(&mut h, "Play now", Duration::from_secs(5));
    // The next visit starts afresh: the last outcome is not shown again.
    h.get_by_label("Verify a game file…").click();
    wait_for(&mut h, "Your recent games", Duration::from_secs(5));
    assert!(
        !shows(&h, "The game verifies."),
        "the last visit's report is gone"
    );
}

/// Types `path` into the File field (replacing what was there) and presses Verify.
fn verify_path(h: &mut Harness<'static, FairdealApp>, path: &std::path::Path) {
    h.get_by_label("File").click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_label("File")
        .type_text(&path.display().to_string());
    h.step();
    h.get_by_label("Verify").click();
    h.step();
}
