//! Transcript forgeries: an honest game's transcript changed by one seat with only its own
//! key (deals cut, inserted or reordered, a header re-totalled, with or without a return it
//! signed itself carrying the totals it chose, a `Return`, `Quit` or `Replace` signed by
//! the wrong seat) is refused, each with the typed fault that names what is wrong. And live:
//! a player whose seat a computer player holds takes the table's state (`Return`) and the
//! game's end (`Over`) only from that computer player's runner, signed.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::{Envelope, Identity, PublicKey, encoding};
use fairdeal_net::table::TableSession;
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::transcript::{self, Entry, FaultKind, MAGIC, Report};

mod common;

use common::table::{run, secret};

fn table(preset: Preset, target: i32) -> Vec<TableSession> {
    common::table::table("forgery", preset, target)
}

fn check(entries: &[Entry]) -> Report {
    let mut b = MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    transcript::verify(&transcript::decode(&b).unwrap())
}

/// The first fault's kind (the check stops there), or the report if it passed.
fn refused(entries: &[Entry]) -> FaultKind {
    let report = check(entries);
    let Some(f) = report.faults.first() else {
        panic!("the forgery passed:\n{}", report.text());
    };
    // The words name what is wrong; no honest seat is blamed for the file's bytes.
    assert!(f.seat.is_none(), "{}", report.text());
    assert!(report.text().contains(&f.to_string()), "{}", report.text());
    f.kind.clone()
}

/// The file split into what comes before the first deal and one block per deal (its header
/// and every entry up to the next header).
fn blocks(file: &[Entry]) -> (Vec<Entry>, Vec<Vec<Entry>>) {
    let first = file
        .iter()
        .position(|e| matches!(e, Entry::Hand { .. }))
        .unwrap();
    let mut deals: Vec<Vec<Entry>> = Vec::new();
    for e in &file[first..] {
        if matches!(e, Entry::Hand { .. }) {
            deals.push(Vec::new());
        }
        deals.last_mut().unwrap().push(e.clone());
    }
    (file[..first].to_vec(), deals)
}

fn join(head: &[Entry], deals: &[Vec<Entry>]) -> Vec<Entry> {
    head.iter().chain(deals.iter().flatten()).cloned().collect()
}

fn sid(peers: &[TableSession]) -> [u8; 32] {
    peers[0].config().unwrap().sid()
}

fn signed(signer: u8, msg: &TableMsg) -> Entry {
    Entry::Signed {
        from: Identity::from_secret(secret(signer)).public(),
        msg: msg.encode(),
    }
}

/// An honest Samba game of at least three verified deals, and West's transcript of it (run
/// into the fifth hand: a peer may start the fourth before West has every signed result of
/// the third).
fn honest_game() -> (Vec<TableSession>, Vec<Entry>) {
    let mut peers = table(Preset::Samba, 100_000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| {
        p.iter().all(|p| p.hand_no() > 4)
    });
    let file = files.swap_remove(1);
    let report = check(&file);
    assert!(report.ok(), "{}", report.text());
    assert!(report.roots().len() >= 3, "{}", report.text());
    (peers, file)
}

#[test]
fn deals_cut_inserted_or_reordered_are_refused_by_number() {
    let (_, file) = honest_game();
    let (head, deals) = blocks(&file);
    // Cut: hand 2 left out.
    let cut = [&deals[..1], &deals[2..]].concat();
    assert_eq!(
        refused(&join(&head, &cut)),
        FaultKind::OutOfSequence {
            expected: 2,
            found: 3
        }
    );
    // Inserted: hand 2 a second time after itself.
    let twice = [&deals[..2], &deals[1..]].concat();
    assert_eq!(
        refused(&join(&head, &twice)),
        FaultKind::OutOfSequence {
            expected: 3,
            found: 2
        }
    );
    // Reordered: hands 2 and 3 swapped.
    let mut swapped = deals.clone();
    swapped.swap(1, 2);
    assert_eq!(
        refused(&join(&head, &swapped)),
        FaultKind::OutOfSequence {
            expected: 2,
            found: 3
        }
    );
    let words = FaultKind::OutOfSequence {
        expected: 2,
        found: 3,
    }
    .to_string();
    assert!(words.contains("hand 2 is missing"), "{words}");
}

/// The header of `deal` with its totals replaced.
fn retotal(deal: &mut [Entry], to: [i32; 2]) -> [i32; 2] {
    let Entry::Hand { head, .. } = &mut deal[0] else {
        unreachable!("a deal starts with its header")
    };
    std::mem::replace(&mut head.totals, to)
}

#[test]
fn a_re_totalled_header_is_refused() {
    let (_, file) = honest_game();
    let (head, mut deals) = blocks(&file);
    let real = retotal(&mut deals[2], [0, 9_999]);
    assert_eq!(
        refused(&join(&head, &deals)),
        FaultKind::Retotalled {
            expected: real,
            found: [0, 9_999]
        }
    );
}

/// West cuts the end of hand 2 and inserts a return it signed, carrying totals it chose, then
/// hand 3's header with those totals.
fn self_totalled(peers: &[TableSession], file: &[Entry], seat: Seat) -> (Vec<Entry>, Vec<Entry>) {
    let (head, deals) = blocks(file);
    let Entry::Hand { head: h, keys, .. } = &deals[2][0] else {
        unreachable!("a deal starts with its header")
    };
    let state = ReturnState {
        hand_no: h.hand_no,
        seat,
        dealer: h.dealer,
        totals: [0, 9_999],
        prev_result: h.prev_result,
        keys: **keys,
        runners: fairdeal_core::SeatMap::default(),
    };
    let sig = Identity::from_secret(secret(1)).sign(&Statement::Return(&state).digest(&sid(peers)));
    let mut forged = join(&head, &deals[..2]);
    // The end of hand 2 cut off: the signed results and seeds are gone.
    forged.truncate(forged.len() - deals[1].len() / 2);
    forged.push(signed(1, &TableMsg::Return { state, sig }));
    let mut third = deals[2].clone();
    retotal(&mut third, [0, 9_999]);
    (forged, third)
}

#[test]
fn a_return_its_own_seat_signed_with_chosen_totals_is_refused() {
    let (peers, file) = honest_game();
    let (mut forged, third) = self_totalled(&peers, &file, Seat::W);
    forged.extend(third);
    assert_eq!(
        refused(&forged),
        FaultKind::ReturnNotFromRunner {
            seat: Seat::W,
            signer: Seat::W,
            runner: None
        }
    );
}

#[test]
fn another_seats_return_with_chosen_totals_is_refused_by_the_hand_context() {
    let (peers, file) = honest_game();
    // West gives South's seat back with its totals, and keeps hand 3's real envelopes: they
    // were signed under a hand context that binds the real totals.
    let (mut forged, third) = self_totalled(&peers, &file, Seat::S);
    let header = third[0].clone();
    forged.extend(third);
    assert!(matches!(refused(&forged), FaultKind::BadEnvelope(_)));
    // The file ends at the forged header: no other seat confirms the totals.
    let (mut bare, _) = self_totalled(&peers, &file, Seat::S);
    bare.push(header);
    assert_eq!(
        refused(&bare),
        FaultKind::ReturnUnconfirmed {
            seat: Seat::S,
            signer: Seat::W,
            missing: vec![Seat::N, Seat::E]
        }
    );
}

/// A game in which North quits in hand 1 and South runs its computer player from hand 2, to
/// hand 4; West's transcript.
fn quit_game() -> (Vec<TableSession>, Vec<Entry>) {
    let mut peers = table(Preset::Canasta, 100_000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| p[2].view().is_some());
    peers[2].quit().unwrap();
    run(&mut peers, &mut files, &[], &|p| p[0].hand_no() > 1);
    run(&mut peers, &mut files, &[2], &|p| {
        [0, 1, 3].iter().all(|&i| p[i].hand_no() > 3)
    });
    assert_eq!(peers[1].runners()[2], Some(Seat::S), "South runs North");
    let file = files.swap_remove(1);
    let report = check(&file);
    assert!(report.ok(), "{}", report.text());
    (peers, file)
}

/// The decoded table message of a `Signed` entry.
fn table_msg(e: &Entry) -> Option<(PublicKey, TableMsg)> {
    match e {
        Entry::Signed { from, msg } => Some((*from, TableMsg::decode(msg).ok()?)),
        _ => None,
    }
}

#[test]
fn a_quit_or_replace_signed_by_the_wrong_seat_is_refused() {
    let (peers, file) = quit_game();
    let sid = sid(&peers);
    let west = Identity::from_secret(secret(1));
    // North's quit, its signature made by West.
    let at = file
        .iter()
        .position(|e| matches!(table_msg(e), Some((_, TableMsg::Quit { .. }))))
        .unwrap();
    let mut forged = file.clone();
    let Some((from, TableMsg::Quit { hand_no, .. })) = table_msg(&file[at]) else {
        unreachable!()
    };
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
    let at = file
        .iter()
        .position(|e| matches!(table_msg(e), Some((_, TableMsg::Replace { .. }))))
        .unwrap();
    let Some((
        _,
        TableMsg::Replace {
            hand_no,
            seat,
            key,
            seed,
            ..
        },
    )) = table_msg(&file[at])
    else {
        unreachable!()
    };
    let mut forged = file.clone();
    forged[at] = signed(
        1,
        &common::replace_msg(&west, &sid, hand_no, seat, key, seed),
    );
    assert_eq!(
        refused(&forged),
        FaultKind::ReplaceNotFromRunner {
            seat: Seat::N,
            signer: Seat::W,
            runner: Seat::S
        }
    );
}

/// North's seat given back at hand 3 by `signer`'s signed return; hand 3's header names
/// North's own key again, and North's computer player's envelopes are left out.
fn given_back(peers: &[TableSession], file: &[Entry], signer: u8) -> Vec<Entry> {
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
    keys[2] = north;
    bots[2] = None;
    let state = ReturnState {
        hand_no: h.hand_no,
        seat: Seat::N,
        dealer: h.dealer,
        totals: h.totals,
        prev_result: h.prev_result,
        keys: **keys,
        runners: fairdeal_core::SeatMap::default(),
    };
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
    // The runner's own return of the same seat is taken (the header check passes it).
    let report = check(&given_back(&peers, &file, 0));
    assert!(
        !report
            .faults
            .iter()
            .any(|f| matches!(f.kind, FaultKind::ReturnNotFromRunner { .. })),
        "{}",
        report.text()
    );
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
    let at = file
        .iter()
        .position(|e| matches!(table_msg(e), Some((_, TableMsg::Replace { .. }))))
        .unwrap();
    let Some((
        _,
        TableMsg::Replace {
            hand_no,
            seat,
            key,
            seed,
            ..
        },
    )) = table_msg(&file[at])
    else {
        unreachable!()
    };
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
