//! `fairdeal replay FILE`: a short local game of four computer players (over loopback, in one
//! process) printed move by move from its public transcript (public table only: no hand is
//! shown) and from a seat's private log (that seat's hand as dealt, too), each ending with the
//! verify report; a file that is not there, and a log without its identity, say why.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn fairdeal() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fairdeal"));
    c.env("FAIRDEAL_LOG", "warn");
    c
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairdeal-replay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn replay(file: &Path) -> (bool, String) {
    let out = fairdeal().arg("replay").arg(file).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The move lines (`  12. West draws`).
fn moves(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.trim_start()
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .collect()
}

#[test]
fn a_game_is_printed_move_by_move_from_its_transcript_and_from_a_log() {
    let games = temp_dir("game");
    let out = fairdeal()
        .args(["play", "--bots", "4", "--target", "50", "--data-dir"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seat = games.join("seat0");
    let (ok, text) = replay(&seat.join("transcript.fdt"));
    assert!(ok, "{text}");
    assert!(text.starts_with("table "), "{text}");
    assert!(text.contains("\nhand 1 (dealer "), "{text}");
    assert!(text.contains("\n    1. "), "the first move: {text}");
    assert!(
        text.contains("cards in hand: "),
        "the table after a turn: {text}"
    );
    assert!(
        text.contains("  scores: team A "),
        "the hand's scores: {text}"
    );
    assert!(
        !text.contains("hand as dealt"),
        "a transcript shows no hand: {text}"
    );
    // Every move of every verified deal is printed (the report counts them).
    let printed = moves(&text).len();
    assert!(printed > 10, "{printed} moves: {text}");
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("verified"),
        "{text}"
    );

    // The private log (identity.key beside it): the same game, and this seat's hand.
    let (ok, log_text) = replay(&seat.join("GAME.fdlog"));
    assert!(ok, "{log_text}");
    assert!(log_text.contains("'s hand as dealt: "), "{log_text}");
    assert_eq!(moves(&text), moves(&log_text), "the same moves");

    // A log alone, without its identity: said so, no fault.
    let alone = temp_dir("alone");
    std::fs::copy(seat.join("GAME.fdlog"), alone.join("GAME.fdlog")).unwrap();
    let (ok, text) = replay(&alone.join("GAME.fdlog"));
    assert!(!ok);
    assert!(text.contains("identity.key is missing"), "{text}");
    assert!(!text.contains("FAULT"), "{text}");
    let (ok, text) = replay(Path::new("/no/such/transcript.fdt"));
    assert!(!ok);
    assert!(
        text.starts_with("cannot replay /no/such/transcript.fdt"),
        "{text}"
    );
}
