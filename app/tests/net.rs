//! Four `fairdeal` processes on loopback: a whole game, every log verifies; the same with one
//! process killed mid-hand and restarted; a tampered log fails verification.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fairdeal"));
    c.env("FAIRDEAL_LOG", "warn");
    c
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairdeal-net-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Starts the host and returns it with its address.
fn host(data: &Path, target: &str) -> (Child, String) {
    let mut child = bin()
        .args([
            "host",
            "--table",
            "t",
            "--preset",
            "canasta",
            "--target",
            target,
            "--bot",
            "expert",
            "--no-mdns",
        ])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "host exited before listening"
        );
        if let Some(a) = line.strip_prefix("address: ") {
            break a.trim().to_owned();
        }
    };
    // Keep reading the host's output so it never blocks on a full pipe.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        for l in out.lines().map_while(Result::ok) {
            rest.push_str(&l);
            rest.push('\n');
        }
        let _ = tx.send(rest);
    });
    HOST_OUT.with(|h| *h.borrow_mut() = Some(rx));
    (child, address)
}

thread_local! {
    static HOST_OUT: std::cell::RefCell<Option<std::sync::mpsc::Receiver<String>>> = const { std::cell::RefCell::new(None) };
}

fn join(data: &Path, address: &str) -> Child {
    bin()
        .args([
            "join",
            "--address",
            address,
            "--bot",
            "greedy",
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
            "--data-dir",
        ])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait(child: &mut Child, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    false
}

fn verify(data: &Path) -> (bool, String) {
    let out = bin()
        .arg("verify")
        .arg(data.join("GAME.fdlog"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn records(data: &Path) -> usize {
    std::fs::metadata(data.join("GAME.fdlog"))
        .map(|m| m.len() as usize)
        .unwrap_or(0)
}

#[test]
fn four_processes_play_a_game_and_every_log_verifies() {
    let d = dir("game");
    let seats: Vec<PathBuf> = (0..4).map(|i| d.join(format!("s{i}"))).collect();
    let (mut h, address) = host(&seats[0], "1000");
    let mut joins: Vec<Child> = seats[1..].iter().map(|s| join(s, &address)).collect();
    assert!(
        wait(&mut h, Duration::from_secs(240)),
        "host did not finish"
    );
    for j in &mut joins {
        assert!(wait(j, Duration::from_secs(60)), "a joiner did not finish");
    }
    let host_out = HOST_OUT
        .with(|h| h.borrow_mut().take())
        .unwrap()
        .recv()
        .unwrap();
    assert!(
        host_out.lines().any(|l| l.starts_with("game over:")),
        "{host_out}"
    );
    for s in &seats {
        let (ok, text) = verify(s);
        assert!(ok, "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("verified:"),
            "{text}"
        );
    }
    // A tampered log fails: flip one byte in the middle of the host's log.
    let path = seats[0].join("GAME.fdlog");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (ok, text) = verify(&seats[0]);
    assert!(!ok);
    assert!(text.lines().last().unwrap().starts_with("FAULT:"), "{text}");
}

#[test]
fn a_peer_killed_mid_hand_restarts_from_its_log_and_the_game_finishes() {
    let d = dir("kill");
    let seats: Vec<PathBuf> = (0..4).map(|i| d.join(format!("s{i}"))).collect();
    let (mut h, address) = host(&seats[0], "1000");
    let mut joins: Vec<Child> = seats[1..].iter().map(|s| join(s, &address)).collect();
    // Wait until the hand is well under way at seat 2, then kill it hard.
    let start = Instant::now();
    while records(&seats[2]) < 60_000 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    joins[1].kill().unwrap();
    let _ = joins[1].wait();
    std::thread::sleep(Duration::from_millis(500));
    joins[1] = join(&seats[2], &address);
    assert!(
        wait(&mut h, Duration::from_secs(240)),
        "host did not finish after the restart"
    );
    for j in &mut joins {
        assert!(wait(j, Duration::from_secs(60)), "a joiner did not finish");
    }
    for s in &seats {
        let (ok, text) = verify(s);
        assert!(ok, "{}: {text}", s.display());
    }
}

#[test]
fn a_peer_gone_for_good_is_replaced_by_a_computer_player_and_the_game_finishes() {
    let d = dir("gone");
    let seats: Vec<PathBuf> = (0..4).map(|i| d.join(format!("s{i}"))).collect();
    let (mut h, address) = host(&seats[0], "1000");
    let mut joins: Vec<Child> = seats[1..].iter().map(|s| join(s, &address)).collect();
    let start = Instant::now();
    while records(&seats[3]) < 60_000 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    // East leaves and never comes back.
    joins[2].kill().unwrap();
    let _ = joins[2].wait();
    assert!(
        wait(&mut h, Duration::from_secs(240)),
        "host did not finish without East"
    );
    for j in &mut joins[..2] {
        assert!(wait(j, Duration::from_secs(60)), "a joiner did not finish");
    }
    for s in &seats[..3] {
        let (ok, text) = verify(s);
        assert!(ok, "{}: {text}", s.display());
    }
}
