//! A seat that comes back: its player was away past the grace period (a machine asleep, a
//! process stopped), a computer player took the seat over, and the player's client wakes up
//! and gets the seat back at the next deal. Nobody who stayed at the table may be voted out,
//! replaced or blamed for it, and the hands go on.
//!
//! The harness (`common/net.rs`) plays the node's part on a simulated clock, one message at a
//! time in the order sent.

mod common;

use common::net::{Net, Took, took};
use common::sim::table;
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::PublicKey;
use fairdeal_net::table::msg::TableMsg;
use fairdeal_net::table::{Gone, TableError, TableEvent, Unexpected};
use fairdeal_net::transcript::Entry;

/// East's process is stopped while it holds its cards, past the grace period: South, West
/// and North vote it out, West (its partner) runs a computer player in the seat and the hand
/// is dealt again. East wakes up while that deal is played, hears that its seat is held, and
/// takes it back at the next deal, which East and then one more are played to their end;
/// no seat that stayed is voted out, replaced or named. `slow`: links whose messages take a
/// second, which decides whether a peer starts the next deal before West's `Return` comes.
/// Returns how South and North took the seat back.
fn east_stopped_and_back(slow: &[(usize, usize)]) -> [Option<Took>; 2] {
    east_back_told(slow, &[])
}

/// [`east_stopped_and_back`], with West's `Return` never reaching the peers in `not_told`
/// from West itself (only as passed on by the others).
fn east_back_told(slow: &[(usize, usize)], not_told: &[usize]) -> [Option<Took>; 2] {
    let (peers, _) = table("returning", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    let not_told = not_told.to_vec();
    net.lose = Box::new(move |from, to, bytes| {
        from == 1
            && not_told.contains(&to)
            && matches!(TableMsg::decode(bytes), Ok(TableMsg::Return { .. }))
    });
    net.run(120_000, &|n| n.peers[3].view().is_some());
    assert!(net.peers[3].view().is_some(), "East holds its cards");
    net.away[3] = true;
    net.run(120_000, &|n| {
        [0, 1, 2]
            .iter()
            .all(|&i| n.peers[i].runners()[3] == Some(Seat::W) && n.peers[i].hand().is_some())
    });
    for i in 0..3 {
        assert_eq!(net.peers[i].runners()[3], Some(Seat::W), "peer {i}");
        assert_eq!(net.voided(i), vec![(1, Seat::E, Gone::Silent)], "peer {i}");
    }
    let held_at = net.peers[0].hand_no();
    let faults_before: Vec<usize> = (0..4).map(|i| net.faults(i)).collect();
    net.slow = slow.to_vec();
    net.wake(3);
    net.run(900_000, &|n| {
        n.peers[3].hand().is_some() && (0..4).all(|i| n.completed(i) >= 2)
    });
    let what = || {
        net.dump();
        format!("slow links {slow:?}")
    };
    assert!(
        net.events[3]
            .iter()
            .any(|e| matches!(e, TableEvent::SeatBack { seat: Seat::E, .. })),
        "East has its seat back: {}",
        what()
    );
    for (i, &before) in faults_before.iter().enumerate() {
        assert_eq!(net.peers[i].runners(), [None; 4], "peer {i}: {}", what());
        let voided: Vec<_> = net.voided(i).into_iter().filter(|v| v.0 > 1).collect();
        assert!(voided.is_empty(), "peer {i} voided {voided:?}: {}", what());
        assert_eq!(net.faults(i), before, "peer {i} named: {}", what());
        assert!(net.completed(i) >= 2, "peer {i}: {}", what());
    }
    let against_stayers: Vec<_> = net
        .votes
        .iter()
        .filter(|(_, h, s)| *h >= held_at && *s != Seat::E)
        .collect();
    assert!(
        against_stayers.is_empty(),
        "votes against seats that stayed: {against_stayers:?}: {}",
        what()
    );
    // Every transcript, with both deals of the hand given back, checks.
    net.assert_files_verify();
    let took = [took(&net.events[0]), took(&net.events[2])];
    eprintln!("slow {slow:?}: South and North took the seat back by {took:?}");
    took
}

/// Sabotage caught (checked): the hand under way dealt again without the seat given back (the
/// computer player's key kept in it): the new deal waits on a computer player West no longer
/// runs, and East is voted out again.
#[test]
fn a_seat_back_from_a_stopped_process_costs_the_seats_that_stayed_nothing() {
    let mut seen = Vec::new();
    // Nothing slow (South and North start the next deal with the computer player, and start
    // it again); South's and North's words to each other slow (each starts it after West's
    // `Return` came); West's word slow to South (South's first deal lasts a second).
    for slow in [&[][..], &[(2, 0), (0, 2)][..], &[(1, 0)][..]] {
        seen.extend(east_stopped_and_back(slow).into_iter().flatten());
    }
    assert!(seen.contains(&Took::Restart), "{seen:?}");
    assert!(seen.contains(&Took::AtStart), "{seen:?}");
}

/// West gives East's seat back telling South alone (a runner whose word to North is lost,
/// or that lies by leaving it out), or East alone: every seat that takes a `Return` passes
/// it on, so North deals the hand with East's player as the others do, and nobody who stayed
/// is voted out. Without it North dealt the hand with the computer player, waited on a deal
/// the others had dropped, and was voted out by them.
///
/// Sabotage caught (checked): a return not passed on.
#[test]
fn a_seat_given_back_telling_some_seats_only_is_given_back_at_all() {
    for not_told in [&[2][..], &[0, 2][..]] {
        east_back_told(&[], not_told);
    }
}

/// Two players away one after the other (North, then West: South runs North's computer
/// player, East West's) wake up in the same hand: both get their seats back, every peer then
/// deals the same deal (one hand context), the hands go on, and every transcript checks.
#[test]
fn two_seats_back_in_one_hand_from_two_runners() {
    let (peers, _) = table("returning", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(120_000, &|n| n.peers[2].view().is_some());
    net.away[2] = true;
    net.run(120_000, &|n| {
        [0, 1, 3]
            .iter()
            .all(|&i| n.peers[i].runners()[2] == Some(Seat::S) && n.peers[i].hand().is_some())
    });
    net.away[1] = true;
    net.run(300_000, &|n| {
        [0, 3]
            .iter()
            .all(|&i| n.peers[i].runners()[1] == Some(Seat::E) && n.peers[i].hand().is_some())
    });
    for i in [0, 3] {
        assert_eq!(
            net.peers[i].runners(),
            [None, Some(Seat::E), Some(Seat::S), None],
            "peer {i}"
        );
    }
    both_back(&mut net, [2, 1]);
}

/// The host leaves at the end of hand 1 (its client plays the hand out and quits) and the
/// computer player its window ran for East stops with it: South's seat goes to North, East's,
/// voted out, to West. Later the host resumes, and East's computer player with it: both seats
/// come back at one hand from their two runners, every peer deals the same deals, and every
/// transcript checks.
#[test]
fn a_host_that_left_comes_back_with_the_computer_player_it_ran() {
    let (peers, _) = table("returning", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    // The host's client quits once hand 1 is scored (as a node does after playing it out).
    net.run(600_000, &|n| n.completed(0) >= 1);
    assert_eq!(net.completed(0), 1, "hand 1 scored at the host");
    net.peers[0].quit().unwrap();
    net.collect(0);
    net.deliver();
    net.away[0] = true;
    net.away[3] = true;
    net.run(600_000, &|n| {
        [1, 2].iter().all(|&i| {
            n.peers[i].runners() == [Some(Seat::N), None, None, Some(Seat::W)]
                && n.peers[i].hand().is_some()
        })
    });
    for i in [1, 2] {
        assert_eq!(
            net.peers[i].runners(),
            [Some(Seat::N), None, None, Some(Seat::W)],
            "peer {i}"
        );
    }
    both_back(&mut net, [0, 3]);
}

/// The players of seats `back` wake up at once, and get their seats back from their runners:
/// the table runs until no computer player is left and every peer has scored three hands.
/// Each hand from the next one on, as every peer dealt it last, has one hand context for all
/// four, and every transcript checks.
fn both_back(net: &mut Net, back: [usize; 2]) {
    let stayed = (0..4).find(|i| !back.contains(i)).unwrap_or(0);
    let from = net.peers[stayed].hand_no() + 1;
    for i in back {
        net.wake(i);
    }
    net.run(1_800_000, &|n| {
        (0..4).all(|i| n.peers[i].runners() == [None; 4] && n.completed(i) >= 3)
    });
    let what = || {
        net.dump();
        format!("seats {back:?} back")
    };
    for i in 0..4 {
        assert_eq!(net.peers[i].runners(), [None; 4], "peer {i}: {}", what());
        assert!(net.completed(i) >= 3, "peer {i}: {}", what());
    }
    let upto = (0..4).map(|i| net.peers[i].hand_no()).min().unwrap_or(0);
    let dealt = |i: usize, h: u32| net.deals[i].iter().rev().find(|d| d.0 == h).map(|d| d.1);
    for h in from..upto {
        let all: Vec<_> = (0..4).map(|i| dealt(i, h)).collect();
        assert!(
            all[0].is_some() && all.windows(2).all(|w| w[0] == w[1]),
            "hand {h}: {all:?}: {}",
            what()
        );
    }
    net.assert_files_verify();
    // Each seat's `Return`, told again now that the table has played past it (its runner
    // tells it until it hears the player play), is a leftover everywhere: never taken, and
    // never refused as coming from a seat that does not run the seat's computer player.
    let returns: Vec<(PublicKey, Vec<u8>)> = net.files[stayed]
        .iter()
        .filter_map(|e| match e {
            Entry::Signed { from, msg } => Some((*from, msg.clone())),
            _ => None,
        })
        .filter(|(_, msg)| matches!(TableMsg::decode(msg), Ok(TableMsg::Return { .. })))
        .collect();
    assert!(!returns.is_empty(), "{}", what());
    for (from, msg) in &returns {
        for i in (0..4).filter(|&i| net.keys[i] != *from) {
            let answer = net.peers[i].handle_message(*from, msg);
            assert!(
                matches!(answer, Err(TableError::Unexpected(Unexpected::StaleReturn))),
                "peer {i}: {answer:?}"
            );
        }
    }
}

/// A `Return` that gives a seat back to a key other than its player's is refused by every
/// peer, gate and handler alike, whoever signs it: the table would seat the player's own key
/// whatever the `Return` said, and a transcript takes a seat given back only on a `Return`
/// naming that key, so taking it would leave every honest file failing its check.
#[test]
fn a_seat_given_back_to_a_key_not_its_players_is_refused() {
    use common::sim::Sim;
    use fairdeal_crypto::Identity;
    use fairdeal_net::table::msg::{ReturnState, Statement};
    let (peers, secrets) = table("returning", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let config = sim.peers[1].config().unwrap().clone();
    let state = ReturnState {
        hand_no: sim.peers[1].hand_no(),
        seat: Seat::N,
        dealer: Seat::S,
        totals: sim.peers[1].totals(),
        prev_result: [0; 32],
        keys: {
            let mut keys = config.seats;
            keys[Seat::N.index()] = Identity::from_secret([7; 32]).public();
            keys
        },
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig =
        Identity::from_secret(secrets[1]).sign(&Statement::Return(&state).digest(&config.sid()));
    let bytes = TableMsg::Return { state, sig }.encode();
    // North itself plays its seat: any return of it is a leftover there.
    assert!(sim.peers[2].handle_message(sim.keys[1], &bytes).is_err());
    for i in [0, 3] {
        let gate = sim.peers[i].admit(sim.keys[1], &bytes);
        let answer = sim.peers[i].handle_message(sim.keys[1], &bytes);
        assert!(
            matches!(
                answer,
                Err(TableError::Unexpected(Unexpected::ReturnToAnotherKey))
            ),
            "peer {i}: {answer:?}"
        );
        assert!(gate.is_err(), "peer {i}: the gate admitted it");
    }
}
