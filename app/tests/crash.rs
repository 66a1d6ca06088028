//! The host's crash: South hosts and its process runs the computer players of West and East
//! (as the window does); North joins from another process. The host's process is SIGKILLed
//! mid-hand, during the deal, or during the audit, and restarted on the same folder: the
//! hand resumes and the game finishes, every log verifies (the computer players' too), and
//! nobody is voted out or benched.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod faults;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use faults::{Peer, spawn_plain, traced, verify_dir};

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// The host's arguments: South with West's and East's computer players in its process.
fn host_args(port: u16) -> Vec<String> {
    strs(&[
        "host",
        "--table",
        "t",
        "--preset",
        "canasta",
        "--target",
        "1000",
        "--bot",
        "expert",
        "--no-mdns",
        "--computers",
        "WE",
        "--grace-secs",
        "15",
        "--think-ms",
        "100",
        "--listen",
    ])
    .into_iter()
    .chain([format!("/ip4/127.0.0.1/tcp/{port}")])
    .collect()
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_or(0, |a| a.port())
}

/// Waits for `cond` up to `limit`.
fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// The host's address once it prints it.
fn address(p: &Peer) -> String {
    let mut a = None;
    assert!(wait_for(Duration::from_secs(30), || {
        a = p
            .text()
            .lines()
            .find_map(|l| l.strip_prefix("address: ").map(str::to_owned));
        a.is_some()
    }));
    a.unwrap_or_default()
}

/// Starts the table, kills the host when `at` says (given the host's trace), restarts it,
/// and checks that the game finishes with nothing lost.
fn host_killed(name: &str, at: impl Fn(&Path) -> bool) {
    let _one = serial();
    let d = std::env::temp_dir().join(format!("fairdeal-crash-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let (south, north) = (d.join("south"), d.join("north"));
    let port = free_port();
    let trace = d.join("trace-south");
    let mut host = spawn_plain(&host_args(port), &south, &trace);
    let a = address(&host);
    let join = strs(&[
        "join",
        "--address",
        &a,
        "--bot",
        "greedy",
        "--grace-secs",
        "15",
        "--listen",
        "/ip4/127.0.0.1/tcp/0",
    ]);
    let mut joiner = spawn_plain(&join, &north, &d.join("trace-north"));
    assert!(
        wait_for(Duration::from_secs(180), || at(&trace)),
        "the moment never came: {}",
        host.text()
    );
    host.child.kill().unwrap();
    let _ = host.child.wait();
    let before = host.text();
    let killed = faults::now_ns();
    let mut host = spawn_plain(&host_args(port), &south, &d.join("trace-south-2"));
    let finished = wait_for(Duration::from_secs(400), || {
        matches!(host.child.try_wait(), Ok(Some(_)))
            && matches!(joiner.child.try_wait(), Ok(Some(_)))
    });
    let out = format!(
        "--- host before the kill\n{before}--- host after\n{}--- north\n{}",
        host.text(),
        joiner.text()
    );
    assert!(finished, "the game did not finish: {out}");
    let next = host.moves().into_iter().filter(|t| *t > killed).min();
    println!(
        "{name}: the restarted host's first move came {:?} s after the kill",
        next.map(|t| faults::secs(killed, t))
    );
    assert!(joiner.text().contains("game over:"), "{out}");
    assert!(host.text().contains("game over:"), "{out}");
    assert!(!out.contains(" void: "), "a hand was void: {out}");
    assert!(
        !out.contains("is now played by"),
        "a seat was taken over: {out}"
    );
    let dirs: Vec<PathBuf> = vec![
        south.clone(),
        south.join("bot-West"),
        south.join("bot-East"),
        north,
    ];
    for dir in dirs {
        verify_dir(&dir).unwrap_or_else(|e| panic!("{e}\n{out}"));
    }
}

/// Sabotage caught: a restored host whose presence counts the time it was dead as the
/// others' silence (North voted out), computer players not restarted with their host.
#[test]
fn the_host_running_two_computer_players_killed_mid_hand_resumes_and_nobody_is_blamed() {
    host_killed("mid", |t| traced(t, "moved 1 6 "));
}

#[test]
fn the_host_killed_during_the_deal_resumes_and_nobody_is_blamed() {
    host_killed("deal", |t| {
        traced(t, "started 1 ") && !traced(t, "dealt 1 ")
    });
}

#[test]
fn the_host_killed_during_the_audit_resumes_and_nobody_is_blamed() {
    host_killed("audit", |t| traced(t, "over 1 "));
}
