//! The public transcript, from four table peers in one process: each seat's transcript
//! verifies alone, the four give the same result roots, 40 single-byte corruptions spread over
//! one are each refused, a hand voided by a player who left is reported as void, why, with
//! the signed quit as evidence, a hand whose seed was withheld as forfeited, and a runner that
//! steered the computer player it ran is named, with the check failing.

use fairdeal_core::Preset;
use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;
use fairdeal_net::table::{Dest, TableSession};
use fairdeal_net::transcript::{self, Entry, FaultKind, HandStatus, MAGIC, Report};

mod common;

use common::table::run;

fn table(preset: Preset, target: i32) -> Vec<TableSession> {
    common::table::table("transcript", preset, target)
}

/// Like [`run`], with `muted` withholding its seed and gone from then on, and a clock: every
/// five simulated seconds the live peers hear each other and their timers run, until `stop`.
fn run_muted(
    peers: &mut [TableSession],
    files: &mut [Vec<Entry>],
    muted: usize,
    stop: &dyn Fn(&[TableSession]) -> bool,
) {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut dead = false;
    let mut now = 0u64;
    while now < 3_600_000 && !stop(peers) {
        loop {
            let mut moved = false;
            for i in 0..peers.len() {
                while let Some((dest, bytes)) = peers[i].poll_transmit() {
                    if i == muted && common::table::is_reveal(&bytes) {
                        dead = true;
                    }
                    if i == muted && dead {
                        continue;
                    }
                    moved = true;
                    let targets: Vec<usize> = match dest {
                        Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                        Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                    };
                    for j in targets.into_iter().filter(|&j| !(j == muted && dead)) {
                        let _ = peers[j].handle_message(keys[i], &bytes);
                    }
                }
                while peers[i].poll_event().is_some() {}
                while let Some(e) = peers[i].poll_public() {
                    files[i].push(e);
                }
                if stop(peers) {
                    // What the others queued meanwhile belongs in their files too.
                    for (f, p) in files.iter_mut().zip(peers.iter_mut()) {
                        f.extend(std::iter::from_fn(|| p.poll_public()));
                    }
                    return;
                }
            }
            if !moved {
                break;
            }
        }
        now += 5_000;
        let live = |k: usize| !(k == muted && dead);
        for (i, p) in peers.iter_mut().enumerate() {
            for (j, key) in keys.iter().enumerate() {
                if i != j && live(i) && live(j) {
                    p.heard(*key, now);
                }
            }
        }
        for (i, p) in peers.iter_mut().enumerate() {
            if !(i == muted && dead) {
                p.handle_timeout(now);
            }
        }
    }
}

fn bytes_of(entries: &[Entry]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    b
}

fn check(bytes: &[u8]) -> Result<Report, String> {
    let entries = transcript::decode(bytes).map_err(|e| e.to_string())?;
    Ok(transcript::verify(&entries))
}

fn passes(bytes: &[u8]) -> bool {
    check(bytes).is_ok_and(|r| r.ok())
}

#[test]
fn each_seats_transcript_verifies_alone_with_the_same_roots_and_corruption_is_refused() {
    let mut peers = table(Preset::Samba, 2000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|_| false);
    assert!(peers[0].finished().is_some(), "the game ended");
    assert!(peers[0].reports().len() >= 2, "more than one hand");
    let mut roots = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let report = check(&bytes_of(f)).unwrap();
        assert!(report.ok(), "seat {i}: {}", report.text());
        assert!(!report.roots().is_empty(), "seat {i}: {}", report.text());
        assert_eq!(report.totals, peers[i].totals(), "seat {i}");
        assert_eq!(report.result, peers[i].finished(), "seat {i}");
        let last = report.lines().last().cloned().unwrap();
        assert!(last.starts_with("verified:"), "{last}");
        roots.push(report.roots());
    }
    assert!(roots.iter().all(|r| *r == roots[0]), "{roots:?}");
    // The roots are the ones the seats signed.
    let signed: Vec<[u8; 32]> = peers[0]
        .reports()
        .iter()
        .map(|r| r.transcript_root)
        .collect();
    let ours: Vec<[u8; 32]> = roots[0].iter().map(|(_, r)| *r).collect();
    assert_eq!(ours, signed);
    // The shares the file's replay checked are the four seats' checks together: no figure
    // that differs from what each window said for no reason shown.
    let report = check(&bytes_of(&files[2])).unwrap();
    let HandStatus::Verified { openings, .. } = report.hands[0].status else {
        panic!("{}", report.text());
    };
    let each: Vec<usize> = peers
        .iter()
        .map(|p| p.reports()[0].openings_checked)
        .collect();
    assert_eq!(openings, each.iter().sum::<usize>(), "{each:?}");
    // 40 single-byte corruptions spread over the file: every one is refused.
    let good = bytes_of(&files[1]);
    for k in 0..40 {
        let at = MAGIC.len() + (good.len() - MAGIC.len() - 1) * k / 39;
        let mut bad = good.clone();
        bad[at] ^= 1 << (k % 8);
        assert!(
            !passes(&bad),
            "a flip at byte {at} of {} passed",
            good.len()
        );
        // A damaged file is the file's fault: no seat is blamed for bytes nobody signed.
        if let Ok(report) = check(&bad) {
            assert!(
                report.faults.iter().all(|f| f.seat.is_none()),
                "a flip at byte {at} blamed a seat: {}",
                report.text()
            );
        }
    }
    // A file cut short fails too, and so do one with a deal's messages left out and one
    // with a single message of a signed deal left out.
    assert!(!passes(&good[..good.len() - 1]));
    // Cut at an entry in the first hand: what it holds checks out, but no signed result is
    // claimed where there is none.
    let early = check(&bytes_of(&files[1][..30])).unwrap();
    let last = early.lines().last().cloned().unwrap();
    assert!(last.contains("no hand is complete"), "{}", early.text());
    assert!(!last.contains("signed results"), "{}", early.text());
    let without: Vec<Entry> = files[1]
        .iter()
        .filter(|e| !matches!(e, Entry::Envelope { hand_no: 1, .. }))
        .cloned()
        .collect();
    assert!(!passes(&bytes_of(&without)));
    let mut one_less = files[1].clone();
    let middle = one_less
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::Envelope { hand_no: 1, .. }))
        .map(|(i, _)| i)
        .nth(40)
        .unwrap();
    one_less.remove(middle);
    let report = check(&bytes_of(&one_less)).unwrap();
    assert!(!report.ok(), "{}", report.text());
}

#[test]
fn a_hand_voided_by_a_player_who_left_is_reported_void_with_the_signed_quit() {
    let mut peers = table(Preset::Canasta, 100);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| p[2].view().is_some());
    // North's quit goes out, then North is gone: voted out for what it no longer sends; the
    // others play on with its replacement.
    common::table::quit_mid_hand(&mut peers, &mut files, 2);
    run(&mut peers, &mut files, &[], &|p| p[0].hand_no() > 1);
    run(&mut peers, &mut files, &[2], &|_| false);
    let mut roots = Vec::new();
    for i in [0, 1, 3] {
        let report = check(&bytes_of(&files[i])).unwrap();
        assert!(report.ok(), "seat {i}: {}", report.text());
        let HandStatus::Void {
            seat,
            why,
            evidence,
        } = &report.hands[0].status
        else {
            panic!("seat {i}: {}", report.text());
        };
        assert_eq!(*seat, Some(Seat::N), "{}", report.text());
        assert!(why.contains("left the table"), "{why}");
        assert!(
            evidence.iter().any(|e| e.contains("North's signed quit")),
            "{evidence:?}"
        );
        assert_eq!(
            evidence
                .iter()
                .filter(|e| e.starts_with("timeout vote signed by"))
                .count(),
            3,
            "{evidence:?}"
        );
        assert!(
            report
                .lines()
                .iter()
                .any(|l| l.starts_with("hand 1: void: North left")),
            "{}",
            report.text()
        );
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("computer player takes North's seat")),
            "{}",
            report.text()
        );
        assert!(!report.roots().is_empty(), "{}", report.text());
        roots.push(report.roots());
    }
    assert!(roots.iter().all(|r| *r == roots[0]), "{roots:?}");
    // The votes left out, the quit kept: a quit alone ends no deal at the table, so the
    // file's void has no reason.
    let quit_only: Vec<Entry> = files[0]
        .iter()
        .filter(|e| {
            !matches!(
                common::files::table_msg(e),
                Some((_, fairdeal_net::table::msg::TableMsg::Timeout { .. }))
            )
        })
        .cloned()
        .collect();
    let report = check(&bytes_of(&quit_only)).unwrap();
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::PutOutUnproved(Seat::N)),
        "{}",
        report.text()
    );
    // The quit left out: the void has no signed reason, which the report says.
    let without: Vec<Entry> = files[0]
        .iter()
        .filter(|e| !matches!(e, Entry::Signed { .. }))
        .cloned()
        .collect();
    let report = check(&bytes_of(&without)).unwrap();
    // Without the replacement's signature the new seat's key is unexplained: a fault.
    assert!(!report.ok(), "{}", report.text());
}

#[test]
fn a_hand_whose_seed_was_withheld_is_reported_forfeited_with_the_rules_scores() {
    let mut peers = table(Preset::DutchSamba, 100_000);
    let mut files = vec![Vec::new(); 4];
    // East sends everything but its seed, then is gone for good.
    run_muted(&mut peers, &mut files, 3, &|p| p[0].hand_no() > 1);
    assert!(peers[0].hand_no() > 1, "the next hand started");
    for i in 0..3 {
        let report = check(&bytes_of(&files[i])).unwrap();
        assert!(report.ok(), "seat {i}: {}", report.text());
        let HandStatus::Forfeited { seat, scores } = &report.hands[0].status else {
            panic!("seat {i}: {}", report.text());
        };
        assert_eq!(*seat, Seat::E, "{}", report.text());
        assert_eq!(*scores, peers[i].totals(), "seat {i}: the forfeit counts");
        assert_eq!(report.totals, peers[i].totals(), "seat {i}");
        assert!(
            report
                .lines()
                .iter()
                .any(|l| l.starts_with("hand 1: forfeited: East")),
            "{}",
            report.text()
        );
    }
    // The next header with ten points more for team A than the forfeit rule gives: neither
    // the audited scores (there are none: the seed was withheld) nor the rule's.
    let mut retotalled = files[0].clone();
    for e in &mut retotalled {
        if let Entry::Hand { head, .. } = e
            && head.hand_no == 2
        {
            head.totals[0] += 10;
        }
    }
    let report = check(&bytes_of(&retotalled)).unwrap();
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::ForfeitTotals),
        "{}",
        report.text()
    );
    // The next header as if the deal were void (same dealer, same totals, the same marker of
    // East put out): the forfeit undone.
    let mut voided = files[0].clone();
    let first = voided.iter().rev().find_map(|e| match e {
        Entry::Hand { head, .. } if head.hand_no == 1 => Some(*head),
        _ => None,
    });
    let first = first.expect("hand 1's header");
    for e in &mut voided {
        if let Entry::Hand { head, .. } = e
            && head.hand_no == 2
        {
            head.dealer = first.dealer;
            head.totals = first.totals;
        }
    }
    let report = check(&bytes_of(&voided)).unwrap();
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::ForfeitVoided {
            seat: Seat::E,
            scores: peers[0].totals()
        }),
        "{}",
        report.text()
    );
    // The same void, of North instead: the votes against East are no reason to put North out.
    let mut north = voided;
    let marker = |seat| {
        let (sid, keys) = (
            peers[0].config().unwrap().sid(),
            peers[0].config().unwrap().seats,
        );
        let hctx = first.hctx(&sid, &keys);
        fairdeal_net::hand::void_marker(&hctx, Some(seat))
    };
    for e in &mut north {
        if let Entry::Hand { head, .. } = e
            && head.hand_no == 2
        {
            assert_eq!(head.prev_result, marker(Seat::E), "East's marker");
            head.prev_result = marker(Seat::N);
        }
    }
    let report = check(&bytes_of(&north)).unwrap();
    assert_eq!(
        report.faults.first().map(|f| &f.kind),
        Some(&FaultKind::PutOutUnproved(Seat::N)),
        "{}",
        report.text()
    );
}

/// The seat that withholds its seed in the deciding hand does not hide the result: the game
/// ends on the forfeit (no next deal is dealt), and every honest seat's file ends with that
/// deal counted by the forfeit rule, the table's totals and its result.
#[test]
fn a_game_that_ends_on_a_forfeit_is_reported_over_with_its_totals() {
    // East's team forfeits: a target that hand's forfeit scores reach ends the game there.
    let mut probe = table(Preset::DutchSamba, 100_000);
    let mut files = vec![Vec::new(); 4];
    run_muted(&mut probe, &mut files, 3, &|p| p[0].hand_no() > 1);
    let scores = probe[0].totals();
    assert!(
        scores[0] > 0,
        "the other team scores by the forfeit: {scores:?}"
    );

    let mut peers = table(Preset::DutchSamba, scores[0]);
    let mut files = vec![Vec::new(); 4];
    run_muted(&mut peers, &mut files, 3, &|p| {
        (0..3).all(|i| p[i].finished().is_some())
    });
    for i in 0..3 {
        let result = peers[i].finished().expect("the game is over");
        let report = check(&bytes_of(&files[i])).unwrap();
        assert!(report.ok(), "seat {i}: {}", report.text());
        let HandStatus::Forfeited { seat, .. } = &report.hands[0].status else {
            panic!("seat {i}: {}", report.text());
        };
        assert_eq!(*seat, Seat::E, "{}", report.text());
        assert_eq!(
            report.totals,
            peers[i].totals(),
            "seat {i}: the table's totals"
        );
        assert_eq!(report.result, Some(result), "seat {i}: the table's result");
    }
}

#[test]
fn a_runner_that_steered_its_computer_player_is_named_and_the_check_fails() {
    let mut peers = table(Preset::Samba, 100_000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| p[2].view().is_some());
    common::table::quit_mid_hand(&mut peers, &mut files, 2);
    run(&mut peers, &mut files, &[], &|p| p[0].hand_no() > 1);
    // South runs North's computer player now, and steers it.
    peers[0].cheat_steer_proxy();
    run(&mut peers, &mut files, &[2], &|p| p[1].hand_no() > 2);
    let report = check(&bytes_of(&files[1])).unwrap();
    assert!(!report.ok(), "{}", report.text());
    assert_eq!(report.faults[0].seat, Some(Seat::S), "{}", report.text());
    assert_eq!(report.faults[0].hand_no, Some(2), "{}", report.text());
    let HandStatus::Void {
        seat,
        why,
        evidence,
    } = &report.hands[1].status
    else {
        panic!("{}", report.text());
    };
    assert_eq!(*seat, Some(Seat::S), "{}", report.text());
    // "was caught cheating: …" once the next deal is in the file, "caught: …" while the file
    // ends in the void deal (which of the two depends on the deal and on where the file stops).
    assert!(why.contains("caught") && why.contains("steered"), "{why}");
    assert!(!evidence.is_empty(), "the signed messages are named");
    let last = report.lines().last().cloned().unwrap();
    assert!(last.starts_with("FAULT: seat South: hand 2:"), "{last}");
}
