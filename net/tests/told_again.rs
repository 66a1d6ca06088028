//! A player back at a held seat that missed its runner's notice (`SeatHeld`, lost on the way)
//! believes it still plays its seat, so it refuses the seat given back: told once, it would be
//! voted out again at the next hand, and at every hand after. The runner tells it again, the
//! notice and then the `Return`, until it is heard playing the seat.
//!
//! The harness (`common/net.rs`) plays the node's part on a simulated clock, one message at a
//! time in the order sent.

mod common;

use common::net::Net;
use common::sim::table;
use fairdeal_core::{Preset, Seat};
use fairdeal_net::table::TableEvent;
use fairdeal_net::table::msg::TableMsg;

const WEST: usize = 1;
const EAST: usize = 3;

/// East is stopped while it holds its cards, past the grace period: the others vote it out and
/// West (its partner) runs its computer player. East wakes up; West's first notice to it is
/// lost. East still takes its seat back from the next deal on, that deal and one more are
/// played to their end, and nobody is voted out again.
///
/// Sabotage caught (checked): the runner not telling the player again once the seat is given
/// back (`tell_again` doing nothing): East refuses the `Return` and is voted out of the next
/// deal.
#[test]
fn a_player_whose_first_notice_is_lost_still_gets_its_seat_back() {
    let (peers, _) = table("told-again", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(120_000, &|n| n.peers[EAST].view().is_some());
    net.away[EAST] = true;
    net.run(120_000, &|n| {
        (0..3).all(|i| n.peers[i].runners()[EAST] == Some(Seat::W) && n.peers[i].hand().is_some())
    });
    let held_at = net.peers[0].hand_no();
    let mut dropped = false;
    net.lose = Box::new(move |from, to, bytes| {
        let notice = matches!(TableMsg::decode(bytes), Ok(TableMsg::SeatHeld { .. }));
        let lose = from == WEST && to == EAST && notice && !dropped;
        dropped |= lose;
        lose
    });
    net.wake(EAST);
    let back = |n: &Net| {
        n.events[EAST].iter().any(|e| {
            matches!(
                e,
                TableEvent::SeatBack {
                    seat: Seat::E,
                    yours: true,
                    ..
                }
            )
        })
    };
    net.run(900_000, &|n| {
        back(n) && n.peers[EAST].hand().is_some() && (0..4).all(|i| n.completed(i) >= 2)
    });
    assert_eq!(net.lost, 1, "West's first notice to East was lost");
    if !back(&net) {
        net.dump();
    }
    assert!(back(&net), "East has its seat back");
    let told = net.events[EAST]
        .iter()
        .filter(|e| matches!(e, TableEvent::SeatHeld { seat: Seat::E }))
        .count();
    assert_eq!(told, 1, "East is told its seat is held, once");
    for i in 0..4 {
        assert_eq!(net.peers[i].runners(), [None; 4], "peer {i}");
        let voided: Vec<_> = net.voided(i).into_iter().filter(|v| v.0 > 1).collect();
        assert!(voided.is_empty(), "peer {i} voided {voided:?}");
        assert!(net.completed(i) >= 2, "peer {i}");
    }
    let again: Vec<_> = net
        .votes
        .iter()
        .filter(|(v, h, _)| *h >= held_at && *v != EAST)
        .collect();
    assert!(again.is_empty(), "votes after East came back: {again:?}");
    net.assert_files_verify();
}
