//! What the window tests share: an app on a data directory, stepping until a label shows,
//! a table with a guest in a second window.

#![allow(dead_code, reason = "each test file uses some of these")]

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::app::FairdealApp;
use fairdeal::gui::controller::Timing;
use fairdeal_core::Preset;

pub fn harness(seed: u64) -> Harness<'static, FairdealApp> {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-{seed}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    harness_in(dir, seed)
}

/// The app on data directory `dir` (kept between harnesses: a client closed and reopened).
pub fn harness_in(dir: std::path::PathBuf, seed: u64) -> Harness<'static, FairdealApp> {
    let mut app = FairdealApp::for_tests(dir, seed);
    // Computer players move at once; the grace period is the table's default.
    app.set_timing(Timing {
        pace_ms: 0,
        grace_ms: None,
    });
    app.settings.preset = Preset::Canasta;
    app.settings.difficulty = fairdeal::gui::choices::Difficulty::Hard;
    window(app, [1180.0, 780.0])
}

/// `app` in a window of `size` points.
pub fn window(app: FairdealApp, size: [f32; 2]) -> Harness<'static, FairdealApp> {
    Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut FairdealApp| app.draw_and_pump(ui), app)
}

/// Clicks the first card of the hand, if there is one (selecting it), and lets the click
/// land.
pub fn select_first_card(h: &mut Harness<'static, FairdealApp>) {
    let first = h
        .query_all_by(|n| n.label().is_some_and(|l| l.ends_with("in your hand")))
        .next()
        .map(|n| n.accesskit_node().label().unwrap_or_default());
    if let Some(name) = first {
        if let Some(card) = h.get_all_by_label(&name).next() {
            card.click();
        }
        h.step();
        h.step();
    }
}

/// Steps the UI (the network runs in the background) until `label` shows, or fails.
pub fn wait_for(h: &mut Harness<'static, FairdealApp>, label: &str, limit: Duration) {
    let start = Instant::now();
    loop {
        h.step();
        if shows(h, label) {
            return;
        }
        if start.elapsed() >= limit {
            panic!(
                "{label:?} did not show in {limit:?}; the window shows {:?}",
                labels(h)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether any widget's name or text contains `text`.
pub fn shows(h: &Harness<'static, FairdealApp>, text: &str) -> bool {
    h.get_all_by(|_| true).any(|n| {
        let node = n.accesskit_node();
        node.label().is_some_and(|l| l.contains(text))
            || node.value().is_some_and(|v| v.contains(text))
    })
}

/// The accessible names of the cards in the hand.
pub fn hand(h: &Harness<'static, FairdealApp>) -> Vec<String> {
    h.get_all_by_role(egui::accesskit::Role::CheckBox)
        .filter_map(|n| n.accesskit_node().label())
        .filter(|l| l.ends_with("in your hand"))
        .collect()
}

/// Ann opens a table for friends; Bea, in another client, joins it by the address its lobby
/// shows; both are in the lobby and the host is offered to start with two computer players.
pub fn table_with_a_guest(
    host_seed: u64,
    guest_seed: u64,
) -> (Harness<'static, FairdealApp>, Harness<'static, FairdealApp>) {
    table_with_a_guest_timed(host_seed, guest_seed, None)
}

/// [`table_with_a_guest`] with both clients' grace period `grace_ms`. The guest asks for
/// West (an opponent's seat), where these tests' guest has always sat.
pub fn table_with_a_guest_timed(
    host_seed: u64,
    guest_seed: u64,
    grace_ms: Option<u64>,
) -> (Harness<'static, FairdealApp>, Harness<'static, FairdealApp>) {
    table_with_a_guest_asking(host_seed, guest_seed, grace_ms, Some(Some(1)))
}

/// [`table_with_a_guest_timed`], the guest asking for seat `ask` (`None`: what the start
/// screen asks for unless told otherwise).
pub fn table_with_a_guest_asking(
    host_seed: u64,
    guest_seed: u64,
    grace_ms: Option<u64>,
    ask: Option<Option<u8>>,
) -> (Harness<'static, FairdealApp>, Harness<'static, FairdealApp>) {
    let mut host = harness(host_seed);
    let mut guest = harness(guest_seed);
    for h in [&mut host, &mut guest] {
        h.state_mut().set_timing(Timing {
            pace_ms: 0,
            grace_ms,
        });
    }
    host.state_mut().settings.name = "Ann".to_owned();
    guest.state_mut().settings.name = "Bea".to_owned();
    if let Some(seat) = ask {
        guest.state_mut().settings.join_seat = seat;
    }
    host.step();
    guest.step();
    host.get_by_label("Create a table for friends (LAN or internet)")
        .click();
    // Let the section finish opening before clicking in it.
    for _ in 0..20 {
        host.step();
    }
    host.get_by_label("Open the table").click();
    wait_for(&mut host, "join by this address", Duration::from_secs(60));
    let address = host
        .state()
        .table_address()
        .expect("the lobby shows an address");
    guest.state_mut().settings.address = address;
    guest.step();
    guest.get_by_label("Join").click();
    wait_for(
        &mut guest,
        "Waiting for the host to start",
        Duration::from_secs(60),
    );
    wait_for(&mut host, "2 computer players", Duration::from_secs(60));
    (host, guest)
}

/// Steps both windows once (their networks run on meanwhile).
pub fn step_both(a: &mut Harness<'static, FairdealApp>, b: &mut Harness<'static, FairdealApp>) {
    a.step();
    b.step();
    std::thread::sleep(Duration::from_millis(20));
}

/// Steps `h` until `label` shows while `other` runs too, or fails.
pub fn wait_for_with(
    h: &mut Harness<'static, FairdealApp>,
    other: &mut Harness<'static, FairdealApp>,
    label: &str,
    limit: Duration,
) {
    let start = Instant::now();
    while !shows(h, label) {
        if start.elapsed() >= limit {
            panic!(
                "{label:?} did not show in {limit:?}; the window shows {:?}",
                labels(h)
            );
        }
        step_both(h, other);
    }
}

/// Every widget's name, for a failure's message.
pub fn labels(h: &Harness<'static, FairdealApp>) -> Vec<String> {
    h.get_all_by(|_| true)
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// The host seats two computer players in the seats left, and the game starts in both
/// windows.
pub fn start_with_two_computer_players(
    host: &mut Harness<'static, FairdealApp>,
    guest: &mut Harness<'static, FairdealApp>,
) {
    host.get_by_label_contains("2 computer players").click();
    let start = Instant::now();
    while !(shows(host, "Stock") && shows(guest, "Stock")) {
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the game did not start for both"
        );
        step_both(host, guest);
    }
}

/// "Leave the table", and "Leave now" in the question it asks.
pub fn leave_now(h: &mut Harness<'static, FairdealApp>) {
    h.get_by_label("Leave the table").click();
    for _ in 0..3 {
        h.step();
    }
    h.get_by_label("Leave now").click();
}
