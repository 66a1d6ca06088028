//! A seat that tells some seats it is ready for the next hand and the others that it quits.
//!
//! Between two hands, a modified East signs both its `Ready` and its `Quit` for the hand just
//! scored, sends each to some of the other seats, and goes silent. Wherever each message
//! lands, the three honest seats must end up at the same table: East's seat taken over by
//! the computer player its runner (West, its partner) announces, the same hands dealt and
//! scored alike, no honest seat voted out or named, and every file checking.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::net::Net;
use fairdeal_core::{Preset, Seat};
use fairdeal_net::table::msg::TableMsg;

/// One split: the seats (peer indices among South 0, West 1, North 2) East's `Quit` reaches;
/// its `Ready` reaches the others. Returns the table once the honest seats played on.
fn split(quit_to: &[usize]) -> Net {
    let (peers, _) = common::sim::table("split", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    let quit_to = quit_to.to_vec();
    let lost_to = quit_to.clone();
    net.lose = Box::new(move |from, to, bytes| {
        from == 3
            && match TableMsg::decode(bytes) {
                Ok(TableMsg::Ready { .. }) => lost_to.contains(&to),
                Ok(TableMsg::Quit { .. }) => !lost_to.contains(&to),
                _ => false,
            }
    });
    // Up to the moment East has scored hand 1 (and said it is ready for hand 2).
    net.run(900_000, &|n| n.peers[3].next_hand().is_some());
    assert_eq!(net.peers[3].next_hand().map(|h| h.after), Some(1));
    net.peers[3].quit().unwrap();
    net.collect(3);
    net.away[3] = true;
    let honest = [0, 1, 2];
    net.run(600_000, &|n| {
        honest
            .iter()
            .all(|&i| n.completed(i) >= 2 && n.peers[i].hand_no() >= 3)
    });
    let why = format!("East's quit to {quit_to:?}");
    for i in honest {
        if net.completed(i) < 2 {
            net.dump();
        }
        assert!(net.completed(i) >= 2, "{why}: peer {i} stood still");
        assert_eq!(
            net.peers[i].runners()[3],
            Some(Seat::W),
            "{why}: peer {i} has East's seat run by West"
        );
        let blamed: Vec<_> = net
            .voided(i)
            .into_iter()
            .filter(|(_, s, _)| *s != Seat::E)
            .collect();
        assert!(blamed.is_empty(), "{why}: peer {i} put out {blamed:?}");
        assert_eq!(net.faults(i), 0, "{why}: peer {i} named a fault");
        assert_eq!(
            net.peers[i].totals(),
            net.peers[0].totals(),
            "{why}: peer {i}"
        );
    }
    // Nothing an honest seat sent (a quit or a replacement passed on included) was held
    // against it.
    let against_honest: Vec<_> = net.refused.iter().filter(|(from, ..)| *from != 3).collect();
    assert!(against_honest.is_empty(), "{why}: {against_honest:?}");
    net.files.truncate(3);
    net.assert_files_verify();
    net
}

/// Sabotages caught (checked): a quit between hands acted on where it lands (the seats that
/// took it put East out and wait for West's computer player; the others dealt hand 2 with
/// East and wait on them); a quit not passed on (a seat that never hears it waits on East in
/// a deal the others started again without it); a quit passed on checked against the key of
/// the computer player that took the seat (the honest seats' copies refused as forged).
#[test]
fn a_seat_that_is_ready_for_some_and_quits_to_others_leaves_the_same_way_everywhere() {
    for quit_to in [&[0][..], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]] {
        split(quit_to);
    }
}

/// East's quit reaches West, its runner, alone: West puts it out at once, while South dealt
/// hand 2 to East (its `Ready` came first there) and deals it again when West's `Replace`
/// comes. South's file shows that deal started again, and checks; with East's quit cut out
/// of it, the file is refused: nothing in it says why the deal was started again.
#[test]
fn a_deal_started_again_for_a_seat_that_quit_needs_its_quit_in_the_file() {
    use fairdeal_net::transcript::{Entry, FaultKind, HandStatus, verify};
    let net = split(&[1]);
    let file = &net.files[0];
    let deals: Vec<u32> = file
        .iter()
        .filter_map(|e| match e {
            Entry::Hand { head, .. } => Some(head.hand_no),
            _ => None,
        })
        .collect();
    assert!(
        deals.windows(2).any(|w| w[0] == 2 && w[1] == 2),
        "South dealt hand 2 twice: {deals:?}"
    );
    // Said as a deal started again for East, nobody's fault.
    let whole = verify(&common::located(file.iter().cloned()));
    assert!(
        whole
            .hands
            .iter()
            .any(|h| h.hand_no == 2
                && matches!(h.status, HandStatus::Restarted { seat: Seat::E, .. })),
        "{}",
        whole.text()
    );
    let east = net.keys[3];
    let cut: Vec<Entry> = file
        .iter()
        .filter(|e| {
            !matches!(e, Entry::Signed { from, msg }
                if *from == east && matches!(TableMsg::decode(msg), Ok(TableMsg::Quit { .. })))
        })
        .cloned()
        .collect();
    assert!(cut.len() < file.len(), "South's file holds East's quit");
    let report = verify(&common::located(cut));
    assert!(
        report
            .faults
            .iter()
            .any(|f| f.kind == FaultKind::RestartWithoutReturn),
        "{}",
        report.text()
    );
}

/// East quits once hand 1 is scored, and West, its runner, never hears it: West deals hand
/// 2 to East, as South and North do (East's quit is West's to act on). A modified West then
/// tells South alone that it took East over before hand 2 (a `Replace` for hand 1): South
/// deals hand 2 again with that computer player. Every seat that takes a replacement passes
/// it on, so North deals it again too; West, whose client runs no such computer player, is
/// voted out by South and North, and the two play on. Neither is put out.
///
/// Sabotage caught (checked): a replacement not passed on (South alone deals again, North
/// and West wait on East in the first deal, and the table stands still).
#[test]
fn a_runner_that_tells_one_seat_only_that_a_leaver_was_taken_over_cannot_get_it_put_out() {
    use fairdeal_crypto::Identity;
    let (peers, secrets) = common::sim::table("split", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    // West never hears East's quit, from East or passed on.
    net.lose = Box::new(|from, to, bytes| {
        to == 1
            && match TableMsg::decode(bytes) {
                Ok(TableMsg::Quit { .. }) => from == 3,
                Ok(TableMsg::QuitPassed { .. }) => true,
                _ => false,
            }
    });
    net.run(900_000, &|n| n.peers[3].next_hand().is_some());
    net.peers[3].quit().unwrap();
    net.collect(3);
    net.away[3] = true;
    net.run(60_000, &|n| (0..3).all(|i| n.peers[i].hand_no() == 2));
    assert!((0..3).all(|i| net.peers[i].hand_no() == 2), "hand 2 dealt");
    // South and North hold East's quit.
    net.deliver();
    let sid = net.peers[0].config().unwrap().sid();
    let west = Identity::from_secret(secrets[1]);
    let forged = common::replace_msg(
        &west,
        &sid,
        1,
        Seat::E,
        Identity::from_secret([77; 32]).public(),
        [78; 32],
    );
    let (bytes, from) = (forged.encode(), net.keys[1]);
    net.peers[0]
        .admit(from, &bytes)
        .expect("South takes West's word");
    net.peers[0].handle_message(from, &bytes).unwrap();
    net.collect(0);
    let honest = [0, 2];
    net.run(600_000, &|n| {
        honest
            .iter()
            .all(|&i| n.completed(i) >= 2 && n.peers[i].hand_no() >= 3)
    });
    for i in honest {
        if net.completed(i) < 2 {
            net.dump();
        }
        assert!(net.completed(i) >= 2, "peer {i} stood still");
        let blamed: Vec<_> = net
            .voided(i)
            .into_iter()
            .filter(|(_, s, _)| *s == Seat::S || *s == Seat::N)
            .collect();
        assert!(blamed.is_empty(), "peer {i} put out {blamed:?}");
        assert_eq!(net.faults(i), 0, "peer {i} named a fault");
        assert_eq!(net.peers[i].totals(), net.peers[0].totals(), "peer {i}");
    }
    net.files = vec![net.files[0].clone(), net.files[2].clone()];
    net.assert_files_verify();
}

/// A quit names the hand under way, or the one just scored when the seat dealt the next
/// already: any other number is a leftover, refused by the gate as by the handler.
///
/// Sabotage caught (checked): a quit of any hand taken while a hand is played.
#[test]
fn a_quit_names_the_hand_under_way_or_the_one_just_scored() {
    use fairdeal_crypto::Identity;
    let (peers, secrets) = common::sim::table("split", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(900_000, &|n| {
        n.peers[0].hand_no() == 2 && n.peers[0].view().is_some()
    });
    let sid = net.peers[0].config().unwrap().sid();
    let east = Identity::from_secret(secrets[3]);
    let quit = |hand_no| common::quit_msg(&east, &sid, hand_no, Seat::E).encode();
    for hand_no in [0, 3, 4, 9] {
        let refused = net.peers[0].admit(net.keys[3], &quit(hand_no));
        assert!(
            refused.as_ref().is_err_and(|r| r.stale),
            "a quit of hand {hand_no} in hand 2: {refused:?}"
        );
    }
    for hand_no in [1, 2] {
        assert!(
            net.peers[0].admit(net.keys[3], &quit(hand_no)).is_ok(),
            "a quit of hand {hand_no} in hand 2"
        );
    }
}
