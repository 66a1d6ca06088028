//! The table needs no periodic tick: a caller that calls `handle_timeout` only at the times
//! `poll_timeout` gives (and delivers messages as they come) sees a silent seat reported and
//! voted out as a ticking caller does, and is never asked to wake for a time already past.

use fairdeal_core::{Preset, Seat};
use fairdeal_net::table::{DEFAULT_GRACE_MS, TableEvent};

mod common;

use common::sim::{Sim, table};

/// Sabotage caught (checked): `poll_timeout` without the seats' deadlines (the three wait on
/// East for ever: no peer has a deadline, and the test says so), and `next_due` keeping a
/// crossing already past (a deadline at or before the time just handled).
#[test]
fn a_silent_seat_is_voted_out_by_deadlines_alone() {
    let (peers, _) = table("deadlines", Preset::Canasta, 5_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let hand_no = sim.peers[0].hand_no();
    assert!(hand_no >= 1, "the first hand is dealt");
    // East goes silent; from here the clock moves only to the peers' own deadlines.
    sim.dead[3] = true;
    let from = sim.now;
    let mut wakes = 0u32;
    let voted = |s: &Sim, i: usize| {
        s.events[i].iter().any(|e| {
            matches!(
                e,
                TableEvent::HandVoided { seat: Seat::E, .. }
                    | TableEvent::HandForfeited { seat: Seat::E, .. }
            )
        })
    };
    loop {
        while sim.round() {}
        if (0..3).all(|i| voted(&sim, i)) {
            break;
        }
        let next = (0..3)
            .filter_map(|i| sim.peers[i].poll_timeout())
            .min()
            .expect("a table waiting on a silent seat has a deadline");
        assert!(
            next <= from + 3 * DEFAULT_GRACE_MS,
            "no vote by {} ms after East went silent",
            next - from
        );
        sim.now = sim.now.max(next);
        wakes += 1;
        for i in 0..3 {
            // The live peers hear each other (their pings), not East.
            for j in (0..3).filter(|&j| j != i) {
                let key = sim.keys[j];
                sim.peers[i].heard(key, sim.now);
            }
            if sim.peers[i].poll_timeout().is_some_and(|t| t <= sim.now) {
                sim.peers[i].handle_timeout(sim.now);
                assert!(
                    sim.peers[i].poll_timeout().is_none_or(|t| t > sim.now),
                    "peer {i} asks to wake at a time already handled"
                );
            }
        }
    }
    // Said paused before the vote, and voted out once the grace period ran, not before.
    for i in 0..3 {
        assert!(
            sim.events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::Paused(q) if q.contains(&Seat::E))),
            "peer {i} said East lost connection"
        );
    }
    assert!(
        sim.now >= from + DEFAULT_GRACE_MS,
        "voted at {} ms",
        sim.now - from
    );
    // Woken for what changes, not once a second.
    let secs = u32::try_from((sim.now - from) / 1_000).unwrap_or(u32::MAX);
    assert!(wakes < secs / 2, "{wakes} wakes in {secs} s");
}
