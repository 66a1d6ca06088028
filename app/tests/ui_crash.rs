//! The window's host crash: Ann hosts from a window whose client runs the two computer
//! players, Bea joins from a second window; Ann's window is SIGKILLed mid-hand (it runs in a
//! child process: this test binary, re-run as [`host_window`]) and reopened on the same data
//! directory, where she presses "Resume it". The hand resumes at every seat and finishes, and
//! Bea, who stayed, is neither voided nor benched for it.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::{harness, harness_in, labels, wait_for};
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::controller::Timing;

/// What the child window does (unset: the child test does nothing).
const ROLE: &str = "FAIRDEAL_UI_CRASH_ROLE";
/// The child window's data directory.
const DIR: &str = "FAIRDEAL_UI_CRASH_DIR";

/// The grace period of both windows: short, so that a table which does not recover voids the
/// hand within the test's time.
const GRACE_MS: u64 = 20_000;

fn timing() -> Timing {
    Timing {
        pace_ms: 0,
        grace_ms: Some(GRACE_MS),
    }
}

/// The host's window, run in a child process until it is killed: `open` opens the table
/// (its address written to `address` in the data directory) and starts it with two computer
/// players once a guest sits; `resume` resumes the game left in the data directory. Either
/// way the player's seat plays itself.
#[test]
#[ignore = "the child window of the_hosts_window_killed_mid_hand_resumes_and_the_guest_is_not_blamed"]
fn host_window() {
    let (Some(role), Some(dir)) = (std::env::var_os(ROLE), std::env::var_os(DIR)) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let mut h = harness_in(dir.clone(), 71);
    h.state_mut().set_timing(timing());
    h.state_mut().settings.name = "Ann".to_owned();
    h.step();
    if role == "open" {
        h.get_by_label("Create a table for friends (LAN or internet)")
            .click();
        for _ in 0..20 {
            h.step();
        }
        h.get_by_label("Open the table").click();
        wait_for(&mut h, "join by this address", Duration::from_secs(60));
        let address = h.state().table_address().unwrap();
        std::fs::write(dir.join("address.tmp"), address).unwrap();
        std::fs::rename(dir.join("address.tmp"), dir.join("address")).unwrap();
        wait_for(&mut h, "2 computer players", Duration::from_secs(60));
        h.get_by_label_contains("2 computer players").click();
    } else {
        wait_for(&mut h, "Resume it", Duration::from_secs(60));
        h.get_by_label("Resume it").click();
    }
    h.state_mut().autoplay();
    loop {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The host's window as a child process.
fn spawn_host(dir: &Path, role: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "host_window", "--ignored", "--nocapture"])
        .env(ROLE, role)
        .env(DIR, dir)
        .spawn()
        .unwrap()
}

/// Kills the child when the test ends (passed or failed).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The cards left in the stock, as the table shows them ("Stock 52").
fn stock(h: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>) -> Option<usize> {
    h.get_all_by(|_| true).find_map(|n| {
        let node = n.accesskit_node();
        [node.label(), node.value()]
            .into_iter()
            .flatten()
            .find_map(|l| l.strip_prefix("Stock ")?.parse().ok())
    })
}

/// Sabotage caught: a resumed window that does not restart its computer players (West and
/// East never answer again, and hand 1 stands).
#[test]
fn the_hosts_window_killed_mid_hand_resumes_and_the_guest_is_not_blamed() {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host_dir = dir.join("ann");
    std::fs::create_dir_all(&host_dir).unwrap();
    let mut host = Killed(spawn_host(&host_dir, "open"));
    let start = Instant::now();
    while !host_dir.join("address").exists() {
        assert!(start.elapsed() < Duration::from_secs(120), "no address");
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut guest = harness(72);
    guest.state_mut().set_timing(timing());
    guest.state_mut().settings.name = "Bea".to_owned();
    guest.state_mut().settings.address = std::fs::read_to_string(host_dir.join("address")).unwrap();
    guest.step();
    guest.get_by_label("Join").click();
    // Bea's first turn: the host's window is killed then, and she draws while it is away (her
    // draw waits for the others' shares of the card).
    wait_for(
        &mut guest,
        "Your turn: draw from the stock",
        Duration::from_secs(180),
    );
    let left = stock(&guest);
    let _ = host.0.kill();
    let _ = host.0.wait();
    let killed = Instant::now();
    guest.state_mut().autoplay();
    wait_for(
        &mut guest,
        "Your move is on its way",
        Duration::from_secs(30),
    );
    // While Ann's window is away, Bea is told that the computer players are Ann's and come
    // back with her.
    wait_for(
        &mut guest,
        "No answer from Ann (South), whose client runs West and East",
        Duration::from_secs(15),
    );
    // Ann's window is reopened (as a player would, a few seconds later).
    let _host = Killed(spawn_host(&host_dir, "resume"));
    let mut moved = None;
    loop {
        guest.step();
        std::thread::sleep(Duration::from_millis(20));
        if moved.is_none() && matches!((stock(&guest), left), (Some(n), Some(l)) if n < l) {
            moved = Some(killed.elapsed());
        }
        let (scored, void) = guest.state().hands_scored_and_void();
        assert_eq!(void, 0, "hand 1 was void: {:?}", labels(&guest));
        if scored >= 1 {
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(150),
            "hand 1 did not finish after the host's window was reopened: {:?}",
            labels(&guest)
        );
    }
    println!("the host's window moved again {moved:?} after the kill");
    assert!(moved.is_some(), "nobody drew again");
    let _ = std::fs::remove_dir_all(&dir);
}
