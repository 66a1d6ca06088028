//! A seat proven at fault stays out, in every copy of the rules: the live gate refuses its
//! `Return` exactly as the handler does (nothing is stored).

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::sim::{Sim, table};
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::Identity;
use fairdeal_net::table::msg::{ReturnState, TableMsg, return_digest};
use fairdeal_net::table::{
    DEFAULT_GRACE_MS, ReturnRefused, TableError, TableEvent, TableSession, Unexpected, Why,
};

/// West stops the first hand with an audit that proves nothing, as soon as it holds its
/// cards; the honest seats bar it, East runs its computer player, and hand 2 is under way.
fn west_barred() -> (Sim, Vec<[u8; 32]>) {
    let (peers, secrets) = table("barred", Preset::Samba, 6000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    sim.peers[1].cheat_audit_now();
    sim.run(200 * DEFAULT_GRACE_MS, &|s| {
        [0, 2, 3]
            .iter()
            .all(|&i| s.peers[i].hand_no() >= 2 && s.peers[i].runners()[1] == Some(Seat::E))
    });
    for i in [0, 2, 3] {
        assert_eq!(sim.peers[i].runners()[1], Some(Seat::E), "peer {i}");
    }
    (sim, secrets)
}

/// West's seat given back at the next hand, signed by East (the runner of West's computer
/// player: a partner in West's cheat).
fn east_gives_west_back(peers: &[TableSession], secrets: &[[u8; 32]]) -> TableMsg {
    let config = peers[0].config().unwrap();
    let state = ReturnState {
        hand_no: peers[0].hand_no() + 1,
        seat: 1,
        dealer: 0,
        totals: peers[0].totals(),
        prev_result: [0; 32],
        keys: config.seats,
        runners: [None; 4],
    };
    let sig = Identity::from_secret(secrets[3]).sign(&return_digest(&config.sid(), &state));
    TableMsg::Return { state, sig }
}

/// Sabotage caught (checked): the gate's own checks of a `Return` (seats and signature only,
/// not the barred seat): South and North admit East's return for storing, which the handler
/// then refuses.
#[test]
fn a_barred_seats_return_is_refused_by_the_gate_as_by_the_handler() {
    let (mut sim, secrets) = west_barred();
    let bytes = east_gives_west_back(&sim.peers, &secrets).encode();
    let east = sim.keys[3];
    for i in [0, 2] {
        let refused = sim.peers[i].admit(east, &bytes).unwrap_err();
        assert_eq!(
            refused.why,
            Why::Return(ReturnRefused::Barred(1)),
            "peer {i}"
        );
        assert!(!refused.stale, "held against East at peer {i}");
        assert_eq!(
            sim.peers[i].handle_message(east, &bytes),
            Err(TableError::from(Unexpected::SeatBarred(1))),
            "peer {i}"
        );
    }
    sim.run(400 * DEFAULT_GRACE_MS, &|s| {
        [0, 2].iter().all(|&i| s.peers[i].finished().is_some())
    });
    for i in [0, 2] {
        assert!(sim.peers[i].finished().is_some(), "peer {i} finished");
        assert_eq!(sim.peers[i].runners()[1], Some(Seat::E), "peer {i}");
        assert!(
            !sim.events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::SeatBack { .. })),
            "peer {i} gave West its seat back"
        );
    }
    sim.same_totals(&[0, 2]);
}
