//! Forgeries of who sits where: a `Quit` or `Replace` signed by the wrong seat, a seat given
//! back by a seat that did not run its computer player, a header's change of a seat's key or
//! computer player that no signed message of that seat, key and seed (or keys and hand)
//! backs: each refused in a transcript with the typed fault that names it. And live: a
//! player whose seat a computer player holds takes the table's state (`Return`) and the game's
//! end (`Over`) only from that computer player's runner, signed.

use fairdeal_core::Seat;
use fairdeal_crypto::{Envelope, Identity, encoding};
use fairdeal_net::table::TableSession;
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::transcript::{Entry, FaultKind};

mod common;

use common::files::{
    blocks, check, first_quit, first_replace, honest_game, join, quit_game, refused, sid, signed,
};
use common::table::secret;

#[test]
fn a_quit_or_replace_signed_by_the_wrong_seat_is_refused() {
    let (peers, file) = quit_game();
    let sid = sid(&peers);
    let west = Identity::from_secret(secret(1));
    // North's quit, its signature made by West.
    let (at, from, hand_no) = first_quit(&file);
    let mut forged = file.clone();
    let sig = west.sign(
        &Statement::Quit {
            hand_no,
            seat: Seat::N,
        }
        .digest(&sid),
    );
    forged[at] = Entry::Signed {
        from,
        msg: TableMsg::Quit { hand_no, sig }.encode(),
    };
    assert_eq!(refused(&forged), FaultKind::BadSignature(Seat::N));
    // North's replacement, signed by West (South runs it).
    assert_eq!(refused(&replaced_by_west(&peers, &file)), WEST_NOT_RUNNER);
}

/// The file with North's replacement signed by West instead of South, its runner.
fn replaced_by_west(peers: &[TableSession], file: &[Entry]) -> Vec<Entry> {
    let west = Identity::from_secret(secret(1));
    let (at, hand_no, seat, key, seed) = first_replace(file);
    let mut forged = file.to_vec();
    forged[at] = signed(
        1,
        &common::replace_msg(&west, &sid(peers), hand_no, seat, key, seed),
    );
    forged
}

/// North's computer player replaced by West, which the table would not pick to run it.
const WEST_NOT_RUNNER: FaultKind = FaultKind::ReplaceNotFromRunner {
    seat: Seat::N,
    signer: Seat::W,
    runner: Seat::S,
};

/// West writes itself in as the runner of North's computer player: the replacement signed
/// by West, and every header from then on naming West as its runner. The table picks South
/// (North's partner, running none), so the file is refused, naming South as the runner.
///
/// Sabotage caught (checked): the header check taking whichever runner the header names.
#[test]
fn a_runner_the_table_would_not_pick_is_refused() {
    let (peers, file) = quit_game();
    let mut forged = replaced_by_west(&peers, &file);
    for e in &mut forged {
        if let Entry::Hand { bots, .. } = e
            && let Some(b) = bots[Seat::N.index()].as_mut()
        {
            b.runner = Seat::W;
        }
    }
    assert_eq!(refused(&forged), WEST_NOT_RUNNER);
}

/// South, North's runner, signs a return of North's seat at hand 3 that keeps the computer
/// player's key in it, and hand 3's header names no computer player there: the computer
/// player's moves would then be replayed as a person's, unchecked against its strategy. A
/// seat is given back only to its player's own key.
///
/// Sabotage caught (checked): the return taken for whatever key the header seats.
#[test]
fn a_seat_given_back_keeps_no_computer_players_key() {
    let (peers, file) = quit_game();
    let forged = given_back_to(&peers, &file, 0, |_| {}, false);
    assert_eq!(refused(&forged), FaultKind::UnsignedSeatChange(Seat::N));
}

/// North's seat given back at hand 3 by `signer`'s signed return; hand 3's header names
/// North's own key again, and North's computer player's envelopes are left out.
fn given_back(peers: &[TableSession], file: &[Entry], signer: u8) -> Vec<Entry> {
    given_back_as(peers, file, signer, |_| {})
}

/// [`given_back`], with the signed return's state changed by `spoil` before it is signed.
fn given_back_as(
    peers: &[TableSession],
    file: &[Entry],
    signer: u8,
    spoil: fn(&mut ReturnState),
) -> Vec<Entry> {
    given_back_to(peers, file, signer, spoil, true)
}

/// [`given_back_as`], with North's own key in hand 3's header (`own_key`) or the computer
/// player's kept there.
fn given_back_to(
    peers: &[TableSession],
    file: &[Entry],
    signer: u8,
    spoil: fn(&mut ReturnState),
    own_key: bool,
) -> Vec<Entry> {
    let (head, mut deals) = blocks(file);
    let north = Identity::from_secret(secret(2)).public();
    let Entry::Hand {
        head: h,
        keys,
        bots,
    } = &mut deals[2][0]
    else {
        unreachable!("a deal starts with its header")
    };
    assert!(bots[2].is_some(), "South runs North's computer player");
    if own_key {
        keys[2] = north;
    }
    bots[2] = None;
    let mut state = ReturnState {
        hand_no: h.hand_no,
        seat: Seat::N,
        dealer: h.dealer,
        totals: h.totals,
        prev_result: h.prev_result,
        keys: **keys,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    spoil(&mut state);
    let sig =
        Identity::from_secret(secret(signer)).sign(&Statement::Return(&state).digest(&sid(peers)));
    deals[1].push(signed(signer, &TableMsg::Return { state, sig }));
    // The bot's envelopes no longer verify under North's key: left out, with every deal after.
    deals.truncate(3);
    deals[2].retain(|e| match e {
        Entry::Envelope { signed, .. } => {
            encoding::decode::<Envelope>(&signed.bytes).map_or(true, |e| e.sender != 2)
        }
        _ => true,
    });
    join(&head, &deals)
}

/// A seat given back by a seat that did not run its computer player is named; the runner's
/// own return of it is taken, and the report says the seat is its player's again.
///
/// Sabotage caught (checked): the header check without its arm for a genuine `Return` (the
/// runner's own return is then named as an unsigned seat change).
#[test]
fn a_return_signed_by_a_seat_that_did_not_run_the_computer_player_is_refused() {
    let (peers, file) = quit_game();
    assert_eq!(
        refused(&given_back(&peers, &file, 1)),
        FaultKind::ReturnNotFromRunner {
            seat: Seat::N,
            signer: Seat::W,
            runner: Some(Seat::S)
        }
    );
    // The runner's own return of the same seat is taken (the header check passes it, and
    // says so).
    let report = check(&given_back(&peers, &file, 0));
    assert!(
        !report.faults.iter().any(|f| matches!(
            f.kind,
            FaultKind::ReturnNotFromRunner { .. } | FaultKind::UnsignedSeatChange(_)
        )),
        "{}",
        report.text()
    );
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("North is played by its player again")),
        "{}",
        report.text()
    );
    // Given back at the next hand, as the table does: no hand was missed.
    assert!(
        !report.notes.iter().any(|n| n.contains("away")),
        "{}",
        report.text()
    );
}

/// A seat given back in a header is backed only by the runner's `Return` of that seat, to
/// the key the header seats it with, for that hand: the runner's return of another seat, to
/// another key or for a later hand backs nothing. (The return's other seats are its signer's
/// view when it signed, and back nothing either way.)
///
/// Sabotage caught (checked): the `Return` taken for any seat, key or hand.
#[test]
fn a_seat_given_back_needs_the_return_of_that_seat_keys_and_hand() {
    let (peers, file) = quit_game();
    let spoils: [fn(&mut ReturnState); 3] = [
        |s| s.seat = Seat::E,
        |s| s.keys[2] = Identity::from_secret([77; 32]).public(),
        |s| s.hand_no += 1,
    ];
    for spoil in spoils {
        assert_eq!(
            refused(&given_back_as(&peers, &file, 0, spoil)),
            FaultKind::UnsignedSeatChange(Seat::N)
        );
    }
}

#[test]
fn a_held_seats_player_takes_its_return_and_the_games_end_only_from_its_runner() {
    let (mut peers, _) = quit_game();
    let sid = sid(&peers);
    let keys = peers[0].config().unwrap().seats;
    let (west, south) = (
        Identity::from_secret(secret(1)),
        Identity::from_secret(secret(0)),
    );
    // South, the runner, tells North its seat is held (as it does when North is heard from).
    let held = TableMsg::SeatHeld {
        hand_no: peers[0].hand_no(),
        seat: Seat::N,
        hctx: [0; 32],
        votes: Vec::new(),
        quits: Vec::new(),
        outs: Vec::new(),
    };
    peers[2]
        .handle_message(south.public(), &held.encode())
        .unwrap();
    let before = (peers[2].totals(), peers[2].hand_no());
    let state = ReturnState {
        hand_no: peers[0].hand_no() + 1,
        seat: Seat::N,
        dealer: Seat::S,
        totals: [0, 9_999],
        prev_result: [0; 32],
        keys,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let ret = |by: &Identity| TableMsg::Return {
        state: state.clone(),
        sig: by.sign(&Statement::Return(&state).digest(&sid)),
    };
    let over = |by: &Identity, totals: [i32; 2]| TableMsg::Over {
        totals,
        sig: by.sign(
            &Statement::Over {
                seat: Seat::N,
                totals,
            }
            .digest(&sid),
        ),
    };
    // West never ran North's computer player: its word on the table's state is refused.
    assert!(
        peers[2]
            .handle_message(west.public(), &ret(&west).encode())
            .is_err()
    );
    assert_eq!((peers[2].totals(), peers[2].hand_no()), before);
    // Nor does West end North's game, and South's word needs South's signature.
    let end = [100_001, 0];
    assert!(
        peers[2]
            .handle_message(west.public(), &over(&west, end).encode())
            .is_err()
    );
    assert!(
        peers[2]
            .handle_message(south.public(), &over(&west, end).encode())
            .is_err()
    );
    assert_eq!(peers[2].finished(), None);
    // The runner's signed return is taken.
    peers[2]
        .handle_message(south.public(), &ret(&south).encode())
        .unwrap();
    assert_eq!(peers[2].totals(), [0, 9_999]);
}

/// A header may change a seat's key or computer player only as a signed `Replace` of that
/// seat, with that key and that seed, by the runner the header names says: a change with no
/// message at all, or backed by a `Replace` of another seat, key or seed (signed by the right
/// runner), is named as unsigned.
///
/// Sabotage caught (checked): the header check skipping a seat whose key or whose computer
/// player alone is unchanged (`||` for `&&`), and a `Replace` taken for any seat, key or seed.
#[test]
fn a_seat_change_needs_the_replace_of_that_seat_key_and_seed() {
    let (_, file) = honest_game();
    let (head, deals) = blocks(&file);
    let stranger = Identity::from_secret([77; 32]).public();
    // West's key alone changed in hand 2's header; then West's computer player alone.
    let mut deal = deals.clone();
    let Entry::Hand { keys, .. } = &mut deal[1][0] else {
        unreachable!("a deal starts with its header")
    };
    keys[1] = stranger;
    assert_eq!(
        refused(&join(&head, &deal)),
        FaultKind::UnsignedSeatChange(Seat::W)
    );
    let mut deal = deals.clone();
    let Entry::Hand { bots, .. } = &mut deal[1][0] else {
        unreachable!("a deal starts with its header")
    };
    bots[1] = Some(fairdeal_net::hand::Replacement {
        runner: Seat::E,
        seed: [5; 32],
    });
    assert_eq!(
        refused(&join(&head, &deal)),
        FaultKind::UnsignedSeatChange(Seat::W)
    );
    // North's genuine replacement, signed by its runner South, for another seat, key or seed.
    let (peers, file) = quit_game();
    let sid = sid(&peers);
    let south = Identity::from_secret(secret(0));
    let (at, hand_no, seat, key, seed) = first_replace(&file);
    assert_eq!(seat, Seat::N);
    for (seat, key, seed) in [
        (Seat::E, key, seed),
        (seat, stranger, seed),
        (seat, key, [6; 32]),
    ] {
        let mut forged = file.clone();
        forged[at] = Entry::Signed {
            from: south.public(),
            msg: common::replace_msg(&south, &sid, hand_no, seat, key, seed).encode(),
        };
        assert_eq!(
            refused(&forged),
            FaultKind::UnsignedSeatChange(Seat::N),
            "{seat} {key:?}"
        );
    }
}

/// A quit signed by its seat's own player, written where the table would not have taken it:
/// for a hand after the deal the file is at, or for none (hand 0). The table takes a quit only for
/// the deal under way or the hand just scored, so the file stands no such quit either (it
/// would change who is leaving, hence the runners picked and the votes counted).
///
/// Sabotage caught (checked): the file's quits taken for any hand.
#[test]
fn a_quit_for_a_hand_the_table_would_not_take_is_refused() {
    let (peers, file) = quit_game();
    let sid = sid(&peers);
    let north = Identity::from_secret(secret(2));
    let (at, from, hand_no) = first_quit(&file);
    // The deal the file is at when the quit comes: the last header before it.
    let now = file[..at]
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Hand { head, .. } => Some(head.hand_no),
            _ => None,
        })
        .unwrap();
    for other in [now + 1, now + 5, 0] {
        assert_ne!(other, hand_no);
        let mut forged = file.clone();
        forged[at] = Entry::Signed {
            from,
            msg: common::quit_msg(&north, &sid, other, Seat::N).encode(),
        };
        assert_eq!(
            refused(&forged),
            FaultKind::QuitOtherHand {
                seat: Seat::N,
                hand_no: other,
                at: now
            },
            "a quit for hand {other} at hand {now}"
        );
    }
}

/// West cuts hand 2 from its own file and explains the gap with a `Return` of South's seat it
/// signs itself: South never left. Deals are skipped only by a file whose peer was away, and
/// only a seat the file shows leaving (its quit standing, or the votes that put it out of the
/// last deal the file has) can be given back across them. (Hand 3's envelopes confirm the
/// state, since it is the true one: the lie is only that South was away.)
///
/// Sabotage caught (checked): a seat given back across skipped deals without a quit or votes.
#[test]
fn a_file_that_skips_deals_gives_back_only_a_seat_that_left() {
    let (peers, file) = honest_game();
    let (head, mut deals) = blocks(&file);
    assert!(deals.len() >= 3, "three deals");
    let Entry::Hand { head: h, keys, .. } = &deals[2][0] else {
        unreachable!("a deal starts with its header")
    };
    let state = ReturnState {
        hand_no: h.hand_no,
        seat: Seat::S,
        dealer: h.dealer,
        totals: h.totals,
        prev_result: h.prev_result,
        keys: **keys,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig =
        Identity::from_secret(secret(1)).sign(&Statement::Return(&state).digest(&sid(&peers)));
    deals[0].push(signed(1, &TableMsg::Return { state, sig }));
    deals.remove(1);
    assert_eq!(
        refused(&join(&head, &deals)),
        FaultKind::BackWithoutLeaving(Seat::S)
    );
}
