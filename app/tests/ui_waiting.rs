//! A game waiting to be resumed is never dropped without a word: Play now (or opening or
//! joining a table) asks first, and the answer is carried out — Resume, Cancel, or leaving
//! the waiting game for good.

mod common;

use std::time::Duration;

use egui_kittest::kittest::Queryable;

use common::{harness_in, shows, wait_for};

/// Sabotage caught (checked): Play now with a game waiting started a new game at once and
/// marked the waiting one over, so that Resume was never offered again.
#[test]
fn play_now_with_a_game_waiting_asks_first() {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-waiting-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut h = harness_in(dir.clone(), 41);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    // The client closes mid-game (a crash, say); the game waits in its folder.
    drop(h);
    let mut h = harness_in(dir.clone(), 42);
    h.step();
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the game is offered back"
    );
    // Play now asks; Esc keeps everything as it was.
    h.get_by_label("Play now").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        shows(&h, "A game is waiting for you"),
        "the question is asked"
    );
    assert!(!h.state().in_game(), "no game started before the answer");
    h.key_press(egui::Key::Escape);
    for _ in 0..3 {
        h.step();
    }
    assert!(!shows(&h, "A game is waiting for you"), "Esc answered it");
    assert!(!h.state().in_game(), "Esc starts nothing");
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the game is still offered"
    );
    // Asked again, "Resume it" in the question resumes the waiting game.
    h.get_by_label("Play now").click();
    for _ in 0..3 {
        h.step();
    }
    let resume = h
        .get_all_by_label("Resume it")
        .last()
        .expect("the question offers Resume");
    resume.click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    assert!(h.state().in_game(), "the waiting game is back");
    drop(h);
    // And "Leave it for good" gives it up and starts the new game.
    let mut h = harness_in(dir.clone(), 43);
    h.step();
    h.get_by_label("Play now").click();
    for _ in 0..3 {
        h.step();
    }
    h.get_by_label("Leave it for good and play against the computer")
        .click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    drop(h);
    let mut h = harness_in(dir.clone(), 44);
    h.step();
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the new game waits now"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mistyped address with a game waiting: the start screen says what is wrong with it and
/// asks nothing, and the waiting game is still offered (a typo never costs it).
///
/// Sabotage caught (checked): with the address parsed only after the question, "Leave it for
/// good" gave the waiting game up and then said the address was none.
#[test]
fn a_mistyped_address_is_refused_before_a_waiting_game_is_touched() {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-waiting-typo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut h = harness_in(dir.clone(), 45);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    drop(h);
    let mut h = harness_in(dir.clone(), 46);
    h.step();
    h.state_mut().settings.address = "/ip4/999.1.1.1/tcp/abc".to_owned();
    h.step();
    h.get_by_label("Join").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(!shows(&h, "A game is waiting for you"), "nothing is asked");
    assert!(shows(&h, "that is not an address"), "the typo is named");
    assert!(!h.state().in_game());
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the game is still offered"
    );
    drop(h);
    let h = harness_in(dir.clone(), 47);
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "and still there after a restart"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game against the computer started in a fresh data folder and interrupted mid-hand (the
/// window closed): the data folder and the game's folder.
fn interrupted_game(name: &str, seed: u64) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut h = harness_in(dir.clone(), seed);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    drop(h);
    let games: Vec<_> = std::fs::read_dir(dir.join("games"))
        .expect("the game's folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert_eq!(games.len(), 1, "one game played");
    let game = games[0].clone();
    (dir, game)
}

/// A game whose log is damaged is not given up when it cannot be resumed: the window says
/// the resume failed, and the start screen still offers the game. Giving a game up asks once
/// more, and a yes in the first moments (a double click) is not taken.
///
/// Sabotage caught (checked): with Back after the failed resume marking the game over, the
/// start screen no longer offered it; with "Leave it for good" acting at once, the game was
/// gone after the first click.
#[test]
fn a_damaged_log_is_kept_and_giving_a_game_up_asks_twice() {
    let (dir, game) = interrupted_game("damaged", 48);
    let log = game.join("me").join("GAME.fdlog");
    let mut bytes = std::fs::read(&log).expect("the game's log");
    assert!(bytes.len() > 64, "the log holds the game");
    for b in &mut bytes[..64] {
        *b ^= 0x5a;
    }
    std::fs::write(&log, &bytes).expect("the log damaged");

    let mut h = harness_in(dir.clone(), 49);
    h.step();
    h.get_by_label("Resume it").click();
    wait_for(&mut h, "Could not resume the game", Duration::from_secs(60));
    h.get_by_label("Back to the start").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the game is still offered after a failed resume"
    );

    // Each frame is a quarter of a second of the window's time, and a queued click is taken
    // by the next step: the yes comes half a second after the first click (a frame to show
    // the question, one to take the yes).
    h.get_by_label("Leave it for good…").click();
    h.step();
    h.step();
    assert!(shows(&h, "Leave that game for good?"), "asked once more");
    h.get_by_label("Yes, leave it for good").click_accesskit();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        shows(&h, "Leave that game for good?"),
        "a yes in the first moments is not taken"
    );
    h.get_by_label("Keep it").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "Keep it keeps the game"
    );
    h.get_by_label("Leave it for good…").click();
    for _ in 0..60 {
        h.step();
    }
    h.get_by_label("Yes, leave it for good").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(
        !shows(&h, "was interrupted; it can be resumed"),
        "the game is given up"
    );
    drop(h);
    let h = harness_in(dir.clone(), 50);
    assert!(
        !shows(&h, "was interrupted; it can be resumed"),
        "and stays given up after a restart"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game whose record (`game.json`) is damaged is not dropped without a word: the start
/// screen says that its record cannot be read and that its log is kept, and nothing in its
/// folder is removed.
///
/// Sabotage caught (checked): without the notice, the start screen showed nothing of the game.
#[test]
fn a_game_whose_record_is_damaged_is_said_not_dropped() {
    let (dir, game) = interrupted_game("record", 51);
    std::fs::write(game.join("game.json"), b"{\"kind\": \"loc").expect("record damaged");
    let mut h = harness_in(dir.clone(), 52);
    for _ in 0..3 {
        h.step();
    }
    assert!(
        shows(&h, "cannot be read, so it cannot be offered to resume"),
        "the damaged record is said"
    );
    assert!(
        game.join("me").join("GAME.fdlog").exists(),
        "the game's log is kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
