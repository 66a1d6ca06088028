//! A friend who asks for a seat at a table whose every seat is taken is offered to watch it
//! (egui_kittest, two windows on loopback): the lobby says the table is full and "Watch this
//! table" opens the spectator's view of that table, which the players see watching.

mod common;

use std::time::Duration;

use egui_kittest::kittest::Queryable;

use common::{harness, shows, wait_for, wait_for_with};

/// Sabotage caught (checked): with the host's "every seat is taken" answer ignored (the
/// lobby's `full` never set) the guest saw only "Asking the host for a seat…" until its
/// ten seconds ran out, and the first wait below failed.
#[test]
fn a_full_table_offers_to_watch_it() {
    let mut host = harness(71);
    let mut guest = harness(72);
    host.state_mut().settings.name = "Ann".to_owned();
    guest.state_mut().settings.name = "Bea".to_owned();
    host.step();
    guest.step();
    host.get_by_label("Create a table for friends (LAN or internet)")
        .click();
    for _ in 0..20 {
        host.step();
    }
    host.get_by_label("Open the table").click();
    wait_for(&mut host, "join by this address", Duration::from_secs(60));
    let address = host.state().table_address().expect("an address");
    host.get_by_label_contains("3 computer players").click();
    // The computer players take the three seats: the table is full and its game under way.
    wait_for(&mut host, "Stock", Duration::from_secs(120));
    guest.state_mut().settings.address = address;
    guest.step();
    guest.get_by_label("Join").click();
    // Well within the ten seconds after which a silent host is offered for watching too.
    wait_for_with(
        &mut guest,
        &mut host,
        "Every seat at this table is taken",
        Duration::from_secs(8),
    );
    guest.get_by_label("Watch this table").click();
    wait_for_with(&mut guest, &mut host, "Watching", Duration::from_secs(10));
    assert!(!guest.state().in_game(), "the guest took no seat");
    wait_for_with(
        &mut host,
        &mut guest,
        "Watching this table: Bea",
        Duration::from_secs(60),
    );
    assert!(
        shows(&guest, "every hand is face down"),
        "the spectator's view"
    );
}
