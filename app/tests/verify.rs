//! `fairdeal verify` on a game's public transcript: a short local game of four computer
//! players (over loopback, in one process), its transcript copied alone into an empty folder
//! verifies there, the four seats' transcripts name the same result roots, and a changed byte
//! is a fault.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn fairdeal() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fairdeal"));
    c.env("FAIRDEAL_LOG", "warn");
    c
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairdeal-verify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn verify(file: &Path) -> (bool, String) {
    let out = fairdeal().arg("verify").arg(file).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Sabotage caught (checked): with the report's own lines alone, the terminal named the
/// teams "team A" and "team B", not by their players.
#[test]
fn a_transcript_alone_verifies_and_the_four_seats_agree() {
    let games = temp_dir("game");
    let out = fairdeal()
        .args([
            "play",
            "--bots",
            "4",
            "--target",
            "50",
            "--preset",
            "samba",
            "--data-dir",
        ])
        .arg(&games)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A copy of the transcript alone, in an empty folder: no identity, no log, no secret.
    let alone = temp_dir("alone");
    let copy = alone.join("transcript.fdt");
    std::fs::copy(games.join("seat0").join("transcript.fdt"), &copy).unwrap();
    let (ok, text) = verify(&copy);
    assert!(ok, "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("hand 1: verified:")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("result: team")),
        "{text}"
    );
    // The players' words come first, teams by their players, as the window says them; the
    // report's own lines (teams by letter) follow as details.
    let people = text
        .split_once("Details (for checking by hand):")
        .map_or("", |(p, _)| p);
    assert!(
        people.contains("Hand 1: dealt fairly and scored right"),
        "{text}"
    );
    assert!(!people.contains("team A"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("verified:"),
        "{text}"
    );
    // The four seats' transcripts: the same result roots.
    let roots = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(": verified:"))
            .filter_map(|l| l.rsplit("result root ").next().map(str::to_owned))
            .collect()
    };
    let first = roots(&text);
    assert!(!first.is_empty());
    for seat in 1..4 {
        let (ok, other) = verify(&games.join(format!("seat{seat}")).join("transcript.fdt"));
        assert!(ok, "seat {seat}: {other}");
        assert_eq!(roots(&other), first, "seat {seat}");
    }
    // A byte changed anywhere is a fault, and the last line says so.
    let good = std::fs::read(&copy).unwrap();
    for k in 1..=4 {
        let mut bad = good.clone();
        bad[good.len() * k / 5] ^= 0x10;
        std::fs::write(&copy, &bad).unwrap();
        let (ok, text) = verify(&copy);
        assert!(!ok, "{text}");
        assert!(text.lines().last().unwrap().starts_with("FAULT:"), "{text}");
    }
    // A file cut short in its last entry (a copy stopped part way): the deals before the
    // damage are still checked and said, and the verdict names the damage.
    std::fs::write(&copy, &good[..good.len() - 3]).unwrap();
    let (ok, text) = verify(&copy);
    assert!(!ok, "{text}");
    // (The game is one hand, and the cut takes a signed result: that hand is unfinished.)
    assert!(
        text.lines()
            .any(|l| l.starts_with("hand 1: unfinished: audited")),
        "the deals before the damage are reported: {text}"
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("FAULT: no seat can be named: the file is damaged from here to its end"),
        "{text}"
    );
    std::fs::write(&copy, &good).unwrap();
    // A file that is not there is said so, and is no fault.
    let (ok, text) = verify(&alone.join("missing.fdt"));
    assert!(!ok && text.starts_with("cannot read"), "{text}");
    // Nor is a file that is something else (text, nothing at all), or a folder: nobody
    // cheated, and the words say what verify wants.
    let notes = alone.join("notes.txt");
    for body in [&b"shopping: milk, cards"[..], b""] {
        std::fs::write(&notes, body).unwrap();
        let (ok, text) = verify(&notes);
        assert!(!ok, "{text}");
        assert!(!text.contains("FAULT"), "{text}");
        assert!(text.starts_with("not a fairdeal game file"), "{text}");
    }
    let (ok, text) = verify(&alone);
    assert!(!ok, "{text}");
    assert!(
        text.starts_with("cannot read") && text.contains("a folder, not a file"),
        "{text}"
    );

    // A player's private log alone (no identity.key beside it) is not a fault: the words say
    // what it needs, and point to the transcript.
    let log = alone.join("GAME.fdlog");
    std::fs::copy(games.join("seat0").join("GAME.fdlog"), &log).unwrap();
    let (ok, text) = verify(&log);
    assert!(!ok, "{text}");
    assert!(!text.contains("FAULT"), "{text}");
    assert!(
        text.contains("identity.key") && text.contains("transcript.fdt"),
        "{text}"
    );
    // Beside its identity it verifies; a byte flipped in its last record is said to be
    // damaged (not quietly taken for a record cut short by a crash).
    std::fs::copy(
        games.join("seat0").join("identity.key"),
        alone.join("identity.key"),
    )
    .unwrap();
    let (ok, text) = verify(&log);
    assert!(ok, "{text}");
    let mut bytes = std::fs::read(&log).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x01;
    std::fs::write(&log, &bytes).unwrap();
    let (_, text) = verify(&log);
    assert!(text.contains("is damaged"), "{text}");
    assert!(!text.contains("cut short"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        !last.starts_with("verified:") || last.contains("the damaged last record was not checked"),
        "{text}"
    );
}
