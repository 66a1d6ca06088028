//! Transcript forgeries of the game's course: an honest game's transcript changed by one seat
//! with only its own key (deals cut, inserted or reordered, a header re-totalled, with or
//! without a return it signed itself carrying the totals it chose) is refused, each with the
//! typed fault that names what is wrong. Forgeries of who sits where are `seat_forgery.rs`.

use fairdeal_core::Seat;
use fairdeal_crypto::Identity;
use fairdeal_net::hand::Ending;
use fairdeal_net::table::TableSession;
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::transcript::{Entry, FaultKind};

mod common;

use common::files::{blocks, honest_game, join, quit_game, refused, sid, signed, table_msg};
use common::table::secret;

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

/// West cuts the end of hand 2 and inserts `seat`'s quit of hand 2 (signed by its player: a
/// seat given back across deals a file skips must be one that left) and a return it signed,
/// carrying totals it chose, then hand 3's header with those totals.
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
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig = Identity::from_secret(secret(1)).sign(&Statement::Return(&state).digest(&sid(peers)));
    let mut forged = join(&head, &deals[..2]);
    // The end of hand 2 cut off: the signed results and seeds are gone.
    forged.truncate(forged.len() - deals[1].len() / 2);
    let player = Identity::from_secret(secret(seat.number()));
    let quit = common::quit_msg(&player, &sid(peers), h.hand_no - 1, seat);
    forged.push(signed(seat.number(), &quit));
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
    // Without West's quit, West never left: no seat may be given back across the cut.
    let quitless: Vec<Entry> = forged
        .iter()
        .filter(|e| !matches!(table_msg(e), Some((_, TableMsg::Quit { .. }))))
        .cloned()
        .collect();
    assert_eq!(refused(&quitless), FaultKind::BackWithoutLeaving(Seat::W));
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
    assert!(matches!(refused(&forged), FaultKind::BadEnvelope(Some(_))));
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

/// West cuts hand 2 short and writes hand 3's header as if East had been put out of hand 2
/// (void, East blamed): the file holds no vote, quit or proven fault against East, so the
/// header is only West's word, and a header is no reason.
#[test]
fn a_seat_put_out_with_no_signed_reason_is_refused() {
    let (peers, file) = honest_game();
    let (head, deals) = blocks(&file);
    let Entry::Hand {
        head: h2,
        keys,
        bots,
    } = &deals[1][0]
    else {
        unreachable!("a deal starts with its header")
    };
    let hctx = h2.hctx(&sid(&peers), keys);
    let void = Entry::Hand {
        head: h2.after(Ending::Void {
            hctx,
            seat: Some(Seat::E),
        }),
        keys: keys.clone(),
        bots: bots.clone(),
    };
    let mut second = deals[1].clone();
    second.truncate(second.len() / 2);
    let forged = join(&head, &[deals[0].clone(), second, vec![void]]);
    assert_eq!(refused(&forged), FaultKind::PutOutUnproved(Seat::E));
}

/// North quits hand 1 while it is played, which voids it; West rewrites the next header as a
/// void of West instead. North's quit is no reason to put West out.
#[test]
fn another_seats_quit_is_no_reason_to_put_a_seat_out() {
    let (peers, file) = quit_game();
    let (head, mut deals) = blocks(&file);
    let Entry::Hand { head: h1, keys, .. } = &deals[0][0] else {
        unreachable!("a deal starts with its header")
    };
    let hctx = h1.hctx(&sid(&peers), keys);
    let west_out = h1.after(Ending::Void {
        hctx,
        seat: Some(Seat::W),
    });
    let Entry::Hand { head: h2, .. } = &mut deals[1][0] else {
        unreachable!("a deal starts with its header")
    };
    *h2 = west_out;
    assert_eq!(
        refused(&join(&head, &deals[..2])),
        FaultKind::PutOutUnproved(Seat::W)
    );
}
