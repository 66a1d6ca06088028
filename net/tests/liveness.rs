//! Silence and unjustified stops never pay, at a whole table on a simulated clock: an audit
//! that proves nothing puts its sender out for good (and the game goes on to its end), a
//! computer player's silent runner is voted out by the others alone, a timeout vote counts
//! for its own deal only; and, at the level of one hand, a false head or a split signed result
//! names its sender without stranding an honest seat.
//! (The table harness is `common/sim.rs`.)

mod common;

use common::sim::Sim;

use fairdeal_core::{Preset, Seat, SplitMix64};
use fairdeal_crypto::{Body, Fault, Identity};
use fairdeal_net::hand::{Event as HandEvent, Stage};
use fairdeal_net::table::msg::{Statement, TableMsg};
use fairdeal_net::table::{
    DEFAULT_GRACE_MS, Gone, StopReason, TableError, TableEvent, TableSession, Unexpected,
};

fn table(preset: Preset, target: i32) -> (Vec<TableSession>, Vec<[u8; 32]>) {
    common::sim::table("liveness", preset, target)
}

/// Finding 1 and 6: West stops the first hand with an audit as soon as it holds its cards
/// (it claims nothing: it dislikes its cards). Every honest peer names West for the unfounded
/// audit, voids the hand, bars West (a computer player run by its partner keeps the seat,
/// though West's client still answers every ping), and plays the game to its end; West's own
/// table stops and says so.
///
/// Sabotage caught (checked): a verdict with no finding concluding `None` (the hand is dealt
/// again with nobody named, no `SeatBarred`); `notice_return` without the barred check (West
/// is given its seat back at the redeal).
#[test]
fn an_audit_that_proves_nothing_puts_its_sender_out_for_the_rest_of_the_game() {
    let (peers, _) = table(Preset::Samba, 6000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    assert!(sim.peers[1].view().is_some(), "West holds its cards");
    sim.peers[1].cheat_audit_now();
    // West's client stays and answers every ping: its partner's client hears it while the
    // next hand is played.
    sim.run(200 * DEFAULT_GRACE_MS, &|s| s.peers[3].hand_no() >= 2);
    sim.tick(5_000);
    sim.run(200 * DEFAULT_GRACE_MS, &|s| s.over(&[0, 2, 3]));
    let honest = [0, 2, 3];
    for i in honest {
        assert!(
            sim.peers[i].finished().is_some(),
            "peer {i} finished the game"
        );
        assert_eq!(
            sim.faults(i).first(),
            Some(&(Some(Seat::W), Fault::UnfoundedAudit)),
            "peer {i}"
        );
        assert!(
            sim.voided(i).contains(&(Seat::W, Gone::Cheated)),
            "peer {i}: {:?}",
            sim.voided(i)
        );
        assert!(
            sim.has(i, &|e| matches!(
                e,
                TableEvent::SeatBarred { seat: Seat::W }
            )),
            "peer {i} barred West"
        );
        assert!(
            !sim.has(i, &|e| matches!(e, TableEvent::SeatBack { .. })),
            "peer {i} gave West its seat back"
        );
        assert!(
            sim.faults(i).iter().all(|(o, _)| *o == Some(Seat::W)),
            "only West is named at peer {i}: {:?}",
            sim.faults(i)
        );
        assert_eq!(sim.peers[i].runners()[1], Some(Seat::E), "peer {i}");
        assert!(
            sim.peers[i].reports().len() >= 2,
            "peer {i}: hands were played after the stop, with West's client still there"
        );
        // The file names West too, and nobody else.
        let report =
            fairdeal_net::transcript::verify(&common::located(sim.files[i].iter().cloned()));
        assert!(
            !report.faults.is_empty() && report.faults.iter().all(|f| f.seat == Some(Seat::W)),
            "peer {i}: {}",
            report.text()
        );
    }
    sim.same_totals(&honest);
    assert!(
        sim.has(1, &|e| matches!(
            e,
            TableEvent::Stopped {
                reason: StopReason::PutOut
            }
        )),
        "West's table says it stopped"
    );
}

/// A table to 100 where North quits in the first hand and is gone (voted out for what it
/// no longer sends); South, its partner, runs North's computer player, and the redeal is
/// dealt.
fn north_leaves_and_south_runs_it() -> Sim {
    let (peers, _) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    sim.peers[2].quit().expect("North quits");
    while sim.peers[2].poll_transmit().is_some_and(|(_, b)| {
        for j in [0, 1, 3] {
            let _ = sim.peers[j].handle_message(sim.keys[2], &b);
        }
        true
    }) {}
    sim.dead[2] = true;
    // North's quit ends nothing by itself: the hand waits out what North owes, then North
    // is voted out and the deal is void.
    sim.run(4 * DEFAULT_GRACE_MS + sim.now, &|s| {
        s.peers[0].proxy_seats().iter().eq([Seat::N]) && s.peers[1].view().is_some()
    });
    assert_eq!(
        sim.peers[0].proxy_seats().iter().collect::<Vec<_>>(),
        [Seat::N],
        "South runs North's computer player"
    );
    sim
}

/// Finding 2: North leaves, so South's client runs a computer player for it; then South's
/// machine goes away. The hand waits on South and on the computer player South runs; West and
/// East vote both out by themselves (a computer player's vote came only from its silent
/// runner), and the game goes on to its end.
///
/// Sabotage caught (checked): requiring a vote from every other seat (the computer player's
/// from its runner): the hand waits on South for ever.
#[test]
fn a_silent_runner_and_its_computer_player_are_voted_out_by_the_others() {
    let mut sim = north_leaves_and_south_runs_it();
    // South goes away as soon as the redeal is dealt.
    assert_eq!(sim.peers[1].finished(), None);
    sim.dead[0] = true;
    sim.run(400 * DEFAULT_GRACE_MS, &|s| s.over(&[1, 3]));
    for i in [1, 3] {
        assert!(
            sim.peers[i].finished().is_some(),
            "peer {i} finished the game: {:?} waiting on {:?}",
            sim.events[i]
                .iter()
                .filter(|e| !matches!(e, TableEvent::Hand { .. }))
                .collect::<Vec<_>>(),
            sim.peers[i].waiting_on()
        );
        let out: Vec<Seat> = sim.events[i]
            .iter()
            .filter_map(|e| match e {
                TableEvent::HandVoided { seat, .. } | TableEvent::HandForfeited { seat, .. } => {
                    Some(*seat)
                }
                _ => None,
            })
            .collect();
        assert!(out.contains(&Seat::S), "peer {i} put South out: {out:?}");
        // The file says so too: the two votes of West and East are every client but the one
        // that ran South and North.
        let report =
            fairdeal_net::transcript::verify(&common::located(sim.files[i].iter().cloned()));
        assert!(report.ok(), "peer {i}: {}", report.text());
    }
    sim.same_totals(&[1, 3]);
}

/// A runner whose computer player never moves, while its own client answers every ping and
/// its own seat plays on, holds the hand for the grace period only: West and East vote South,
/// the runner, out (not the computer player, which the same runner would take again), and
/// the game goes on to its end with nobody named for a fault.
///
/// Sabotage caught (checked): a computer player's move with no deadline (the hand waits on
/// North for ever); the vote cast against the computer player instead of its runner (North is
/// voided, South never).
#[test]
fn a_runner_whose_computer_player_never_moves_is_voted_out() {
    let mut sim = north_leaves_and_south_runs_it();
    sim.peers[0].cheat_stall_proxy();
    sim.run(400 * DEFAULT_GRACE_MS, &|s| s.over(&[1, 3]));
    for i in [1, 3] {
        assert!(
            sim.peers[i].finished().is_some(),
            "peer {i} finished the game: waiting on {:?}",
            sim.peers[i].waiting_on()
        );
        let voided = sim.voided(i);
        assert!(
            voided.contains(&(Seat::S, Gone::Silent)),
            "peer {i} put the runner out: {voided:?}"
        );
        assert!(
            !voided.contains(&(Seat::N, Gone::Silent)),
            "peer {i} put the computer player out instead: {voided:?}"
        );
        assert!(sim.faults(i).is_empty(), "peer {i}: {:?}", sim.faults(i));
        let report =
            fairdeal_net::transcript::verify(&common::located(sim.files[i].iter().cloned()));
        assert!(report.ok(), "peer {i}: {}", report.text());
    }
    sim.same_totals(&[1, 3]);
}

/// Finding 7: a timeout vote signed for another deal of the same hand does not count here,
/// and is refused for it; with it, the votes of the current deal alone decide.
///
/// Sabotage caught (checked): votes keyed by `(hand_no, seat)` with the deal unsigned: West's
/// vote of another deal completes the three votes against an honest South.
#[test]
fn a_timeout_vote_of_another_deal_never_adds_up() {
    let (peers, secrets) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    let sid = sim.peers[1].config().unwrap().sid();
    let hand_no = sim.peers[1].hand_no();
    let hctx = sim.peers[1].hand().unwrap().hctx();
    let vote = |voter: usize, hctx: [u8; 32]| {
        TableMsg::Timeout {
            hand_no,
            hctx,
            seat: Seat::S,
            sig: Identity::from_secret(secrets[voter]).sign(
                &Statement::Timeout {
                    hand_no,
                    hctx: &hctx,
                    seat: Seat::S,
                }
                .digest(&sid),
            ),
        }
        .encode()
    };
    // West votes South out in this deal itself, East too; North's vote is of another deal.
    sim.peers[1].vote_timeout(hand_no, Seat::S);
    sim.peers[1]
        .handle_message(sim.keys[3], &vote(3, hctx))
        .unwrap();
    let old = vote(2, [0xd1; 32]);
    assert_eq!(
        sim.peers[1].handle_message(sim.keys[2], &old),
        Err(TableError::Unexpected(Unexpected::OtherHand(
            fairdeal_net::table::MsgKind::Timeout
        )))
    );
    while sim.peers[1].poll_transmit().is_some() {}
    while let Some(e) = sim.peers[1].poll_event() {
        sim.events[1].push(e);
    }
    assert!(
        sim.voided(1).is_empty(),
        "a vote of another deal voids nothing"
    );
    // North's vote of this deal completes them: the test can tell.
    sim.peers[1]
        .handle_message(sim.keys[2], &vote(2, hctx))
        .unwrap();
    while let Some(e) = sim.peers[1].poll_event() {
        sim.events[1].push(e);
    }
    assert!(
        sim.voided(1).contains(&(Seat::S, Gone::Silent)),
        "{:?}",
        sim.voided(1)
    );
}

/// Plays one hand with the hand harness: the seats move at random; `filter` may change what
/// a seat sends; `before` acts on the seats once they are dealt.
fn one_hand(
    seed: u64,
    filter: common::Filter<'_>,
    before: &dyn Fn(&mut [fairdeal_net::hand::HandSession]),
) -> (Vec<fairdeal_net::hand::HandSession>, Vec<Vec<HandEvent>>) {
    let mut seats = common::sessions(Preset::Samba, Seat::S, seed as u8);
    let mut rng = SplitMix64::new(seed);
    let mut wire = common::Wire::default();
    let mut events = vec![Vec::new(); 4];
    for _ in 0..10_000 {
        if seats.iter().all(|s| s.view().is_some()) {
            break;
        }
        common::deliver_with(&mut seats, &mut wire, filter);
    }
    before(&mut seats);
    let more = common::play_with(&mut seats, &mut rng, &mut wire, filter, 100_000);
    for (i, e) in more.into_iter().enumerate() {
        events[i].extend(e);
    }
    (seats, events)
}

fn named(events: &[HandEvent]) -> Vec<(Option<Seat>, Fault)> {
    events
        .iter()
        .filter_map(|e| match e {
            HandEvent::Named(b) => Some((b.offender, b.fault)),
            _ => None,
        })
        .collect()
}

/// Finding 4: East audits and its audit's head of South's chain names an envelope South never
/// signed (the right count, another hash). Every honest seat, South too, waits on East alone
/// (an honest East would pass that version on), so all three vote East out as silent; no
/// honest seat concludes while the others wait on it.
///
/// Sabotage caught (checked): the old cut, which skipped this seat's own chain (South
/// concludes and moves on while West and North wait, and their votes never reach three).
#[test]
fn a_false_head_is_waited_on_by_every_honest_seat_alike() {
    let (seats, events) = one_hand(
        41,
        &mut |from, _, bytes| {
            let b = common::body_of(bytes);
            if from == 3 && matches!(b, Body::Audit { .. }) {
                return Some(common::tamper(bytes, 3, &|b| {
                    if let Body::Audit { heads, .. } = b {
                        heads[0].last = [7; 32];
                    }
                }));
            }
            Some(bytes.to_vec())
        },
        &|seats| seats[3].cheat_audit_now(),
    );
    for i in 0..3 {
        assert_eq!(seats[i].stage(), Stage::Audit, "seat {i}");
        assert_eq!(seats[i].waiting_on(), vec![Seat::E], "seat {i}");
        assert!(common::blames(&events[i]).is_empty(), "seat {i}");
    }
}

/// Finding 4, the other way: a head naming more of South's chain than South signed before
/// its audit counts for nothing (never waited on); East, which started the audit for
/// nothing, is named for that.
#[test]
fn a_head_past_its_chain_is_never_waited_on() {
    let (seats, events) = one_hand(
        42,
        &mut |from, _, bytes| {
            let b = common::body_of(bytes);
            if from == 3 && matches!(b, Body::Audit { .. }) {
                return Some(common::tamper(bytes, 3, &|b| {
                    if let Body::Audit { heads, .. } = b {
                        heads[0].count += 50;
                    }
                }));
            }
            Some(bytes.to_vec())
        },
        &|seats| seats[3].cheat_audit_now(),
    );
    for i in 0..3 {
        assert_eq!(seats[i].stage(), Stage::Void, "seat {i}");
        assert_eq!(
            common::blames(&events[i])
                .iter()
                .map(|b| (b.offender, b.fault))
                .collect::<Vec<_>>(),
            vec![(Some(Seat::E), Fault::UnfoundedAudit)],
            "seat {i}"
        );
    }
}

/// Finding 5: East signs the true result for West and North and another for South. South
/// does not stop: the audited scores stand, it completes with them and names East, and passes
/// East's other result on, so West and North find the equivocation and name East too. Every
/// honest seat completes the hand with the same report.
///
/// Sabotage caught (checked): a result that disagrees starting an audit (South waits in it
/// for ever while West and North are done).
#[test]
fn a_split_result_strands_nobody_and_names_the_equivocator() {
    let (seats, events) = one_hand(
        43,
        &mut |from, to, bytes| {
            let b = common::body_of(bytes);
            if from == 3 && to == 0 && matches!(b, Body::HandResult { .. }) {
                return Some(common::tamper(bytes, 3, &|b| {
                    if let Body::HandResult { scores, .. } = b {
                        scores[0] += 100;
                    }
                }));
            }
            Some(bytes.to_vec())
        },
        &|_| {},
    );
    let mut reports = Vec::new();
    for i in 0..3 {
        assert_eq!(seats[i].stage(), Stage::Done, "seat {i}");
        let r = events[i].iter().find_map(|e| match e {
            HandEvent::Complete(r) => Some(r.clone()),
            _ => None,
        });
        reports.push(r.unwrap_or_else(|| panic!("seat {i} completed")));
        let n = named(&events[i]);
        assert!(
            !n.is_empty() && n.iter().all(|(o, _)| *o == Some(Seat::E)),
            "seat {i} named East: {n:?}"
        );
    }
    assert!(reports.iter().all(|r| r.scores == reports[0].scores));
    assert_eq!(named(&events[0]), vec![(Some(Seat::E), Fault::FalseResult)]);
}

/// Once the scores are audited, a validly signed message that is out of order there (East
/// sends South a seed where its signed result belongs) names East and is dropped: South goes
/// on. Left at the front of East's queue it would be taken, and refused, again for ever
/// inside one `handle_message`; the guard below fails the test instead of hanging it.
///
/// Sabotage caught (checked): the refused message kept at the front of East's queue.
#[test]
fn a_message_out_of_order_after_the_scores_is_dropped_not_taken_again() {
    let (done_tx, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let out = one_hand(
            47,
            &mut |from, to, bytes| {
                let b = common::body_of(bytes);
                if from == 3 && to == 0 && matches!(b, Body::HandResult { .. }) {
                    return Some(common::tamper(bytes, 3, &|b| {
                        if let Body::HandResult { hctx, .. } = b {
                            *b = Body::HandReveal {
                                hctx: *hctx,
                                seed: [0; 32],
                            };
                        }
                    }));
                }
                Some(bytes.to_vec())
            },
            &|_| {},
        );
        let _ = done_tx.send(out);
    });
    let (seats, events) = done
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("South takes East's message and goes on");
    assert_eq!(named(&events[0]), vec![(Some(Seat::E), Fault::OutOfOrder)]);
    // The others, shown the message as South's proof, name East too (it signed two messages
    // in one place of its chain), and finish the hand.
    for i in 1..3 {
        assert_eq!(seats[i].stage(), Stage::Done, "seat {i}");
        let n = named(&events[i]);
        assert!(
            n.iter().all(|(o, _)| *o == Some(Seat::E)),
            "seat {i}: {n:?}"
        );
    }
}

/// A vote lost on a broken link: East goes silent mid-hand, the three others vote it out, and
/// West's vote never reaches anyone. West, which holds all three votes, ends the deal and
/// tells every seat the count; South and North end it too, and the game goes on to its end at
/// all three alike.
///
/// Sabotage caught (checked): with the count told neither at the vote nor in a resync answer,
/// South and North wait for West's vote while West deals again: the table splits and stands
/// still.
#[test]
fn a_lost_timeout_vote_does_not_split_the_table() {
    let (peers, _) = table(Preset::Samba, 100);
    let mut sim = Sim::new(peers);
    sim.lose = |i, bytes| i == 1 && matches!(TableMsg::decode(bytes), Ok(TableMsg::Timeout { .. }));
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    sim.dead[3] = true;
    sim.run(400 * DEFAULT_GRACE_MS, &|s| s.over(&[0, 1, 2]));
    for i in [0, 1, 2] {
        assert!(
            sim.peers[i].finished().is_some(),
            "peer {i} finished the game; waiting on {:?}",
            sim.peers[i].waiting_on()
        );
        assert!(
            sim.has(i, &|e| matches!(
                e,
                TableEvent::HandVoided { seat: Seat::E, .. }
                    | TableEvent::HandForfeited { seat: Seat::E, .. }
            )),
            "peer {i} put East out"
        );
        let report =
            fairdeal_net::transcript::verify(&common::located(sim.files[i].iter().cloned()));
        assert!(report.ok(), "peer {i}: {}", report.text());
    }
    sim.same_totals(&[0, 1, 2]);
}
