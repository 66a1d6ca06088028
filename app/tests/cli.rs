//! The `fairdeal` binary as scripts use it.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::path::PathBuf;
use std::process::Command;

fn fairdeal() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fairdeal"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairdeal-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn selfplay_traces_pass_check() {
    let dir = temp_dir("trace");
    let out = fairdeal()
        .args([
            "selfplay",
            "--preset",
            "dutch-samba",
            "--hands",
            "3",
            "--seed",
            "5",
            "--trace",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("hands: 3"), "{text}");
    let out = fairdeal().arg("check").arg(&dir).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().last(), Some("3 passed, 0 failed"));
}

#[test]
fn check_reports_bad_files_without_crashing() {
    let dir = temp_dir("bad");
    std::fs::write(dir.join("a.json"), "{not json").unwrap();
    std::fs::write(
        dir.join("b.json"),
        r#"{"id": "X1", "preset": "samba", "steps": []}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("c.json"),
        r#"{"id": "X2", "preset": "samba", "deal": {"dealer": "S", "deck_top": ["KS","KS","KS","KS"]}}"#,
    )
    .unwrap();
    let out = fairdeal().arg("check").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("FAIL a: not a scenario"), "{text}");
    assert!(
        lines[1].starts_with("FAIL X1: a scenario needs exactly one of position and deal"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("FAIL X2: expected ok, got invalid_position"),
        "{text}"
    );
    assert_eq!(lines[3], "0 passed, 3 failed");
}

#[test]
fn unknown_paths_and_presets_are_one_clear_line() {
    let out = fairdeal()
        .args(["check", "/no/such/place"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim(),
        "fairdeal: no such file or folder: /no/such/place"
    );
    let out = fairdeal()
        .args(["selfplay", "--preset", "rummy"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn without_a_display_the_client_says_so_in_one_line() {
    let home = temp_dir("nodisplay");
    let out = fairdeal()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("no display"), "{err}");
    assert!(
        err.contains("fairdeal terminal"),
        "points to terminal play: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn verify_on_a_missing_file_says_it_cannot_read_it() {
    let out = fairdeal()
        .args(["verify", "/no/such/GAME.fdlog"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("cannot read /no/such/GAME.fdlog"),
        "{text}"
    );
    assert!(
        !text.contains("FAULT"),
        "a missing file is no cheating: {text}"
    );
}

#[test]
fn help_says_that_no_command_opens_the_window() {
    let out = fairdeal().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Without a command, fairdeal opens the desktop client"),
        "{text}"
    );
}

/// `fairdeal play` (three computer players by default) shows South's hand and asks for a move.
///
/// Sabotage it is meant to catch (not checked by re-making it): the host's events dropped
/// in local play, so nothing is shown and no move is ever asked for.
#[test]
fn play_shows_the_hand_and_asks_south_for_a_move() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = temp_dir("play");
    let mut child = fairdeal()
        .args(["play", "--data-dir"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if String::from_utf8_lossy(&seen).contains("your move (number):") {
                break;
            }
        }
        let _ = tx.send(String::from_utf8_lossy(&seen).into_owned());
    });
    let text = rx.recv_timeout(std::time::Duration::from_secs(120));
    let _ = child.kill();
    let _ = child.wait();
    let text = text.expect("no prompt within two minutes");
    assert!(text.contains("your hand (15)"), "{text}");
    assert!(text.contains("your move (number):"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A log in which no hand finished is never called verified.
///
/// Sabotage caught (checked): without the no-hand check, `verify` printed "verified: 0 hands, all
/// signatures … check out" and exited 0 for a game stopped in its lobby.
#[test]
fn verify_never_calls_a_log_without_a_finished_hand_verified() {
    use std::io::BufRead;
    use std::process::Stdio;
    let dir = temp_dir("nohand");
    let mut host = fairdeal()
        .args(["host", "--table", "t", "--bot", "greedy", "--no-mdns"])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(host.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.starts_with("address: ") {
        line.clear();
    }
    let _ = host.kill();
    let _ = host.wait();
    let out = fairdeal()
        .arg("verify")
        .arg(dir.join("GAME.fdlog"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("nothing verified"), "{text}");
    assert!(!text.contains("verified: 0 hands"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--grace-secs` under the table's shortest grace period is refused with the reason (it was
/// silently raised to 3 s), before anything starts.
#[test]
fn a_grace_period_too_short_is_refused_with_the_reason() {
    let dir = temp_dir("grace");
    for cmd in [
        vec!["host", "--table", "t", "--no-mdns"],
        vec!["join", "--address", "/ip4/127.0.0.1/tcp/1"],
    ] {
        let out = fairdeal()
            .args(&cmd)
            .args(["--data-dir", dir.to_str().unwrap(), "--grace-secs", "1"])
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("1 s is too short: the grace period is at least 3 s"),
            "{err}"
        );
    }
    assert!(!dir.join("game.log").exists(), "nothing started");
}

/// A guest given an address where nobody answers is told so and stops, instead of waiting
/// silently for ever.
///
/// Sabotage caught (checked): with the dial errors ignored (the old behaviour) the guest printed
/// only its own address and ran until killed.
#[test]
fn join_at_an_address_where_nobody_answers_says_so_and_stops() {
    use std::process::Stdio;
    let dir = temp_dir("unreachable");
    // A port nobody listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!(
        "/ip4/127.0.0.1/tcp/{port}/p2p/12D3KooWGGceUJ6ZFk9WkMtyq478rRTRKaBETAtVJHdA6bLjKpKp"
    );
    let mut child = fairdeal()
        .args(["join", "--bot", "greedy", "--listen"])
        .arg("/ip4/127.0.0.1/tcp/0")
        .arg("--address")
        .arg(&address)
        .arg("--data-dir")
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > std::time::Duration::from_secs(90) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let status = status.unwrap_or_else(|| panic!("still waiting after 90 s:\n{text}"));
    assert!(!status.success(), "{text}");
    assert!(text.contains("cannot reach the host at"), "{text}");
    assert!(text.contains("could not reach the host at"), "{text}");
    // A first join gives up after its 15 s, not after the minute a resumed game waits for a
    // host that restarts (the default grace); and a guest prints no address of its own.
    assert!(text.contains("trying again for 15 s"), "{text}");
    assert!(!text.contains("address: "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An address the node cannot dial (QUIC here) is refused before the node starts, in words,
/// and nothing is written to the data folder.
///
/// Sabotage caught (checked): without the check, the join tried the address for 15 s and left
/// an identity and a log behind.
#[test]
fn join_at_an_address_of_another_transport_is_refused_at_once() {
    let dir = temp_dir("quic").join("seat");
    let out = fairdeal()
        .args([
            "join",
            "--address",
            "/ip4/127.0.0.1/udp/4/quic-v1",
            "--bot",
            "greedy",
        ])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over TCP, and this address is /udp"), "{err}");
    // The node makes the folder first thing: none means it never started.
    assert!(!dir.exists(), "refused before anything was written");
}
