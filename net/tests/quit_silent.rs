//! A seat that quits while another falls silent in the same hand.
//!
//! The votes that put a silent seat out come from every other client, and a client that quit
//! votes no more: counted among the voters, one quit and one silence would leave both seats
//! waiting on each other for good. A client that quit takes no part in the votes.

mod common;

use common::net::Net;
use fairdeal_core::{Preset, Seat};
use fairdeal_net::table::Gone;
use fairdeal_net::table::msg::TableMsg;

/// The table as East's person quits once hand 1 is scored and West's client, away at that
/// moment, falls silent for good.
/// Returns it with the four seats' secrets.
fn east_quits_as_west_falls_silent() -> (Net, Vec<[u8; 32]>) {
    let (peers, secrets) = common::sim::table("quit-silent", Preset::Samba, 100_000);
    let mut net = Net::new(peers);
    net.run(900_000, &|n| {
        n.peers[3].next_hand().is_some() && n.peers[1].next_hand().is_some()
    });
    net.peers[3].quit().expect("East quits");
    net.collect(3);
    net.away[3] = true;
    net.away[1] = true;
    (net, secrets)
}

/// East's person leaves once hand 1 is scored, and at that moment West, the runner who was
/// to take East's seat over, loses its network for good (a laptop shut). South and North
/// deal hand 2 (East's quit is West's to act on), West and East never answer in it, South
/// and North vote West out (East's quit standing for East), and South, the lowest player
/// left, takes both seats over; the two play on.
///
/// Sabotages caught (checked): a client that quit counted among the voters (West is never
/// voted out: East's vote never comes, and the table stands still); a vote of the deal just
/// ended, naming East now run by its voter's client, held against the voter as a vote
/// against itself.
#[test]
fn a_seat_that_quits_as_its_runner_falls_silent_leaves_the_table_playing_on() {
    let (mut net, _) = east_quits_as_west_falls_silent();
    let live = [0, 2];
    net.run(600_000, &|n| {
        live.iter()
            .all(|&i| n.completed(i) >= 2 && n.peers[i].runners()[1] == Some(Seat::S))
    });
    for i in live {
        if net.completed(i) < 2 {
            net.dump();
        }
        assert!(net.completed(i) >= 2, "peer {i} stood still");
        assert_eq!(
            net.peers[i].runners(),
            [None, Some(Seat::S), None, Some(Seat::S)],
            "peer {i}: South runs West and East"
        );
        let voided = net.voided(i);
        assert!(
            voided
                .iter()
                .all(|&(_, s, why)| s == Seat::W && why == Gone::Silent),
            "peer {i}: {voided:?}"
        );
        assert_eq!(net.peers[i].totals(), net.peers[0].totals(), "peer {i}");
    }
    // Nothing South or North sent was held against it (a vote of the deal just ended
    // included, once the seat it named is run by its voter).
    let against_honest: Vec<_> = net
        .refused
        .iter()
        .filter(|(from, ..)| live.contains(from))
        .collect();
    assert!(against_honest.is_empty(), "{against_honest:?}");
    net.files = vec![net.files[0].clone(), net.files[2].clone()];
    net.assert_files_verify();
}

/// The same table; then East's person resumes. The runner East worked out when it left was
/// West, voted out since (not quitting): South's notice shows the votes that put West out, so
/// East works out that South runs its seat, takes it back from South, and plays again; no
/// deal is voided for East after that.
///
/// Sabotages caught (checked): a notice without those votes (East refuses South's word, is
/// given its seat back, never plays it, and is voted out again at every other hand); a
/// `Return` that comes before the notice held against South; a replacement passed on to East
/// while it is out held against North.
#[test]
fn a_player_whose_runner_was_voted_out_comes_back_from_the_new_runner() {
    let (mut net, _) = east_quits_as_west_falls_silent();
    net.run(600_000, &|n| {
        [0, 2]
            .iter()
            .all(|&i| n.peers[i].runners() == [None, Some(Seat::S), None, Some(Seat::S)])
    });
    let voided_before = net.voided(0).len();
    // The first notices to East are lost: the `Return` that follows comes before East knows
    // who holds its seat, and is a leftover, not held against South.
    let mut lost_notices = 0;
    net.lose = Box::new(move |_, to, bytes| {
        let notice = to == 3 && matches!(TableMsg::decode(bytes), Ok(TableMsg::SeatHeld { .. }));
        lost_notices += usize::from(notice);
        notice && lost_notices <= 2
    });
    net.wake(3);
    net.run(600_000, &|n| {
        !n.peers[3].has_left() && n.completed(3) >= 2 && n.completed(0) >= 3
    });
    if net.peers[3].has_left() || net.completed(3) < 2 {
        net.dump();
    }
    assert!(!net.peers[3].has_left(), "East never got its seat back");
    assert!(net.completed(3) >= 2, "East never played a hand again");
    let since: Vec<_> = net.voided(0)[voided_before..].to_vec();
    assert!(since.is_empty(), "voided since East came back: {since:?}");
    assert_eq!(net.peers[3].totals(), net.peers[0].totals());
    // Nothing South or North sent was held against it, at East neither (a `Return` that
    // came before the notice showing who holds East's seat included).
    let against_honest: Vec<_> = net
        .refused
        .iter()
        .filter(|(from, ..)| [0, 2].contains(from))
        .collect();
    assert!(against_honest.is_empty(), "{against_honest:?}");
}

/// A quit signed before the seat was given back is no longer its player's word; one signed
/// since is. East is given its seat back at hand `r` (as above): a quit of hand `r - 1` (the
/// hand just scored, which the table would otherwise take) is a leftover at South, one of
/// hand `r` is taken.
///
/// Sabotage caught (checked): the check against the hand the seat was given back at as `==`
/// or `<=`.
#[test]
fn a_quit_signed_before_the_seat_was_given_back_is_no_longer_its_word() {
    use fairdeal_crypto::Identity;
    let (mut net, secrets) = east_quits_as_west_falls_silent();
    net.run(600_000, &|n| n.peers[0].runners()[3] == Some(Seat::S));
    net.wake(3);
    net.run(600_000, &|n| {
        !n.peers[3].has_left()
            && n.peers[3].hand().is_some()
            && n.peers[0].hand_no() == n.peers[3].hand_no()
            && n.peers[0].runners()[3].is_none()
    });
    let r = net.peers[0].hand_no();
    assert!(
        !net.peers[3].has_left() && r > 1,
        "East is back at hand {r}"
    );
    let sid = net.peers[0].config().expect("started").sid();
    let east = Identity::from_secret(secrets[3]);
    let quit = |hand_no| common::quit_msg(&east, &sid, hand_no, Seat::E).encode();
    let old = net.peers[0].admit(net.keys[3], &quit(r - 1));
    assert!(
        old.as_ref().is_err_and(|e| e.stale),
        "a quit of hand {}: {old:?}",
        r - 1
    );
    let new = net.peers[0].admit(net.keys[3], &quit(r));
    assert!(new.is_ok(), "a quit of hand {r}: {new:?}");
}
