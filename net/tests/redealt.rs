//! A hand dealt again for a player who came back is another deal: its hand context hashes the
//! seats' keys, so nothing signed in the first deal counts in the second. A timeout vote is an
//! observation of one deal; were the first deal's votes taken in the second, a seat that
//! stayed could be voted out of it on what the others saw before it even started. And the
//! envelopes a seat passes on to one that asks for what it lacks are the second deal's, never
//! the first deal's in the same places.
//!
//! The harness (`common/net.rs`) plays the node's part on a simulated clock, one message at a
//! time in the order sent.

mod common;

use common::net::Net;
use common::sim::table;
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::encoding::decode;
use fairdeal_crypto::{Envelope, Identity, SignedEnvelope};
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::table::{Dest, TimeoutRefused, Why};
use fairdeal_net::transcript::{self, Entry, FaultKind, MAGIC};

const NORTH: usize = 2;
const EAST: usize = 3;

/// The seat that stayed and dealt a hand again for East, with that hand's number and the
/// contexts of its two deals.
fn redealt(net: &Net) -> Option<(usize, u32, [u8; 32], [u8; 32])> {
    (0..3).find_map(|i| {
        net.deals[i]
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| (i, w[0].0, w[0].1, w[1].1))
    })
}

/// East is stopped past the grace period, voted out and replaced, and wakes up; the table runs
/// until a seat that stayed has started the next deal with the computer player and dealt it
/// again with East (`TableSession::on_return`'s `Restart`).
fn east_back_and_a_hand_dealt_again() -> (Net, Vec<[u8; 32]>) {
    let (peers, secrets) = table("redealt", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(120_000, &|n| n.peers[EAST].view().is_some());
    net.away[EAST] = true;
    net.run(120_000, &|n| {
        (0..3).all(|i| n.peers[i].runners()[EAST] == Some(Seat::W) && n.peers[i].hand().is_some())
    });
    net.wake(EAST);
    net.run(300_000, &|n| redealt(n).is_some());
    (net, secrets)
}

/// East is stopped past the grace period, voted out and replaced, and wakes up; a seat that
/// stayed starts the next deal with the computer player and deals it again with East. The
/// genuine votes of every other client against the other seat that stayed, signed over the
/// first deal, are refused in the second by the gate and the handler; with this seat's own
/// vote in the second deal the count is still one short, nobody who stayed is voted out, and
/// the hands go on.
///
/// Sabotage caught (checked): the hand context without the seats' keys (both deals under one
/// context): the gate admits the first deal's votes against the seat that stayed.
#[test]
fn a_vote_signed_in_the_first_deal_of_a_hand_dealt_again_never_counts_in_the_second() {
    let (mut net, secrets) = east_back_and_a_hand_dealt_again();
    let Some((i, hand_no, first, second)) = redealt(&net) else {
        net.dump();
        panic!("no seat that stayed dealt a hand again");
    };
    assert_eq!(
        net.peers[i].hand_no(),
        hand_no,
        "peer {i} is in the second deal"
    );
    // The other seat that stayed (South or North), and every client but its own.
    let target = if i == NORTH { 0 } else { NORTH };
    let sid = net.peers[0].config().unwrap().sid();
    for voter in (0..4).filter(|&v| v != target && v != i) {
        let sig = Identity::from_secret(secrets[voter]).sign(
            &Statement::Timeout {
                hand_no,
                hctx: &first,
                seat: Seat::from_index(target),
            }
            .digest(&sid),
        );
        let vote = TableMsg::Timeout {
            hand_no,
            hctx: first,
            seat: Seat::from_index(target),
            sig,
        }
        .encode();
        let from = net.keys[voter];
        let refused = net.peers[i].admit(from, &vote).map(|_| ());
        assert_eq!(
            refused.map_err(|r| r.why),
            Err(Why::Timeout(TimeoutRefused::OtherHand)),
            "peer {i}: seat {voter}'s vote of the first deal"
        );
        assert!(net.peers[i].handle_message(from, &vote).is_err());
    }
    assert_ne!(first, second, "the two deals have two hand contexts");
    // This seat's own vote in the second deal (as if it heard nothing from the target).
    net.peers[i].vote_timeout(hand_no, Seat::from_index(target));
    net.collect(i);
    assert_eq!(net.peers[i].runners(), [None; 4], "peer {i}");
    assert!(
        net.voided(i).iter().all(|v| v.0 < hand_no),
        "peer {i} voided {:?}",
        net.voided(i)
    );
    net.run(900_000, &|n| {
        n.peers[EAST].hand().is_some() && (0..4).all(|k| n.completed(k) >= 2)
    });
    for k in 0..4 {
        assert!(net.completed(k) >= 2, "peer {k}");
        assert_eq!(net.peers[k].runners(), [None; 4], "peer {k}");
        let voided: Vec<_> = net
            .voided(k)
            .into_iter()
            .filter(|v| v.1 != Seat::E)
            .collect();
        assert!(voided.is_empty(), "peer {k} voided {voided:?}");
    }
    let against: Vec<_> = net
        .votes
        .iter()
        .filter(|(v, h, s)| *h >= hand_no && *s != Seat::E && *v != i)
        .collect();
    assert!(
        against.is_empty(),
        "votes against seats that stayed: {against:?}"
    );
    net.assert_files_verify();
}

/// The seat that dealt the hand again is asked by East, through the gate as a node asks, for
/// everything it holds of that hand (`Resync` from sequence number 0 of every seat). What it
/// sends back is the second deal's: every envelope under the second deal's hand context, its
/// own first message of the second deal among them; East takes each one.
///
/// Sabotage caught (checked): `forget_first_deal` (`table/back.rs`) emptied: the first deal's
/// envelopes stay in the places (hand, sender, sequence number) the second deal fills, and a
/// place keeps the envelope put in it first, so the answer carries the first deal's commitment
/// of the seat that dealt again (South: sender 0, sequence 0, under the first deal's context)
/// in place of the second deal's.
#[test]
fn a_seat_that_asks_for_a_hand_dealt_again_is_sent_the_second_deal() {
    let (mut net, _) = east_back_and_a_hand_dealt_again();
    let Some((i, hand_no, first, second)) = redealt(&net) else {
        net.dump();
        panic!("no seat that stayed dealt a hand again");
    };
    assert_ne!(first, second, "the two deals have two hand contexts");
    net.run(60_000, &|n| {
        n.peers[EAST].hand().map(|h| h.hctx()) == Some(second)
    });
    assert_eq!(
        net.peers[EAST].hand().map(|h| h.hctx()),
        Some(second),
        "East plays the second deal"
    );
    let east = net.keys[EAST];
    let ask = TableMsg::Resync {
        hand_no,
        have: [0; 4],
    }
    .encode();
    net.peers[i].admit(east, &ask).unwrap();
    net.peers[i].handle_message(east, &ask).unwrap();
    let mut answer = Vec::new();
    while let Some((dest, bytes)) = net.peers[i].poll_transmit() {
        if dest == Dest::Peer(east)
            && let Ok(TableMsg::Hand { bytes }) = TableMsg::decode(&bytes)
        {
            answer.push(bytes);
        }
    }
    let headers: Vec<Envelope> = answer
        .iter()
        .map(|b| decode(&SignedEnvelope::from_wire(b).unwrap().bytes).unwrap())
        .collect();
    let of_first: Vec<(u8, u32)> = headers
        .iter()
        .filter(|h| h.sid != second)
        .map(|h| (h.sender, h.seq))
        .collect();
    assert!(
        of_first.is_empty(),
        "peer {i} passed on envelopes (sender, seq) of another deal: {of_first:?}"
    );
    assert!(
        headers
            .iter()
            .any(|h| usize::from(h.sender) == i && h.seq == 0),
        "peer {i} did not pass on its own first message of the second deal: {} sent",
        headers.len()
    );
    let from = net.keys[i];
    for bytes in answer {
        let msg = TableMsg::Hand { bytes }.encode();
        net.peers[EAST].handle_message(from, &msg).unwrap();
    }
}

/// The file of the seat that dealt the hand again, with the runner's `Return` changed by
/// `change` (its state, and the seat whose key signs it again), and the faults its check
/// finds.
fn return_changed(change: &dyn Fn(&mut ReturnState, &mut usize)) -> Vec<FaultKind> {
    let (net, secrets) = east_back_and_a_hand_dealt_again();
    let Some((i, hand_no, _, _)) = redealt(&net) else {
        net.dump();
        panic!("no seat that stayed dealt a hand again");
    };
    let sid = net.peers[0].config().expect("started").sid();
    let mut file = net.files[i].clone();
    let mut changed = 0;
    for e in &mut file {
        let Entry::Signed { from, msg } = e else {
            continue;
        };
        let Ok(TableMsg::Return { mut state, .. }) = TableMsg::decode(msg) else {
            continue;
        };
        assert_eq!(state.hand_no, hand_no, "the return restarts this hand");
        let mut signer = (0..4)
            .find(|&k| net.keys[k] == *from)
            .expect("a seat signed it");
        change(&mut state, &mut signer);
        let id = Identity::from_secret(secrets[signer]);
        *from = id.public();
        let sig = id.sign(&Statement::Return(&state).digest(&sid));
        *msg = TableMsg::Return { state, sig }.encode();
        changed += 1;
    }
    assert_eq!(changed, 1, "peer {i}'s file holds the runner's return");
    let mut bytes = MAGIC.to_vec();
    for e in &file {
        bytes.extend_from_slice(&e.to_record());
    }
    let report = transcript::verify(&transcript::decode(&bytes).expect("decodes"));
    report.faults.into_iter().map(|f| f.kind).collect()
}

/// The runner's `Return` signed again (by its own key) for the next hand instead: the hand
/// was started again with no return for it, and the check says so.
#[test]
fn a_hand_started_again_needs_a_return_for_that_hand() {
    let faults = return_changed(&|state, _| state.hand_no += 1);
    assert_eq!(faults, [FaultKind::RestartWithoutReturn]);
}

/// The same return signed by North, which runs no computer player: only East's runner
/// (West) gives East's seat back.
#[test]
fn a_hand_started_again_needs_the_return_of_the_seats_runner() {
    let faults = return_changed(&|_, signer| *signer = NORTH);
    assert_eq!(
        faults,
        [FaultKind::ReturnNotFromRunner {
            seat: Seat::E,
            signer: Seat::N,
            runner: Some(Seat::W)
        }]
    );
}
