//! The gate is the handler's check without its effect: for every signed table message about
//! a seat (timeout votes, quits, replacements, returns, readies, game overs, held seats),
//! sent by any seat with any fields at any moment (mid-hand and between hands), a peer's gate
//! admits it exactly when its handler takes it. A message the gate stores but the handler
//! refuses makes the log say more than the game did; one the gate refuses but the handler
//! would take is lost.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::hostile::hostile;
use common::sim::{Sim, table};
use fairdeal_core::{Preset, SplitMix64};
use fairdeal_crypto::PublicKey;
use fairdeal_net::table::DEFAULT_GRACE_MS;
use fairdeal_net::table::msg::TableMsg;

/// Sends `n` hostile messages from random seats to every other peer, checking at each that
/// the gate's answer is the handler's.
fn gate_is_handler(sim: &mut Sim, secrets: &[[u8; 32]], seed: u64, n: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut taken_here = 0;
    for case in 0..n {
        let from = rng.below(4);
        let bytes = hostile(&mut rng, &sim.peers, secrets, &[0, 1, 2, 3], from);
        let key: PublicKey = sim.keys[from];
        for j in (0..4).filter(|&j| j != from) {
            let admitted = sim.peers[j].admit(key, &bytes);
            let taken = sim.peers[j].handle_message(key, &bytes);
            assert_eq!(
                admitted.is_ok(),
                taken.is_ok(),
                "case {case}: {:?} from {from} at {j}: gate {admitted:?}, handler {taken:?}",
                TableMsg::decode(&bytes).unwrap()
            );
            taken_here += usize::from(taken.is_ok());
        }
        sim.drain();
    }
    taken_here
}

/// Sabotage caught (checked): the gate's old checks of a quit (the hand number and the
/// signature only): a quit between hands is admitted, which the handler refuses.
#[test]
fn the_gate_admits_a_seats_message_exactly_when_its_handler_takes_it() {
    let (peers, secrets) = table("rulebook", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let taken = gate_is_handler(&mut sim, &secrets, 1, 200);
    assert!(taken > 0, "some were taken mid-hand");
    // As the first hand is scored: a peer between hands, the others finishing theirs or
    // dealing the next.
    let (peers, secrets) = table("rulebook", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(400 * DEFAULT_GRACE_MS, &|s| {
        s.peers.iter().any(|p| !p.reports().is_empty())
    });
    assert!(
        sim.peers.iter().any(|p| !p.reports().is_empty()),
        "a hand scored"
    );
    let taken = gate_is_handler(&mut sim, &secrets, 2, 200);
    assert!(taken > 0, "some were taken as the hand was scored");
    eprintln!("taken: {taken}");
}
