//! A seat proven at fault stays out, in every copy of the rules: the live gate refuses its
//! `Return` exactly as the handler does (nothing is stored), and the transcript checker
//! refuses a file that gives it back; and a hand counted on its audited scores (an audit that
//! proved nothing after every seed was in) reads as counted, naming the audit's sender.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::files::blocks;
use common::sim::{Sim, table};
use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::hand::Stage;
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::table::{
    DEFAULT_GRACE_MS, ReturnRefused, TableError, TableEvent, TableSession, Unexpected, Why,
};
use fairdeal_net::transcript::{self, Entry, FaultKind, HandStatus, MAGIC, Report};

fn check(entries: &[Entry]) -> Report {
    let mut b = MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    transcript::verify(&transcript::decode(&b).unwrap())
}

/// West stops the first hand with an audit that proves nothing, as soon as it holds its
/// cards; the honest seats bar it, East runs its computer player, and hand 2 is under way.
fn west_barred() -> (Sim, Vec<[u8; 32]>) {
    let (peers, secrets) = table("barred", Preset::Samba, 6000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers[1].view().is_some());
    sim.peers[1].cheat_audit_now();
    sim.run(200 * DEFAULT_GRACE_MS, &|s| {
        [0, 2, 3]
            .iter()
            .all(|&i| s.peers[i].hand_no() >= 2 && s.peers[i].runners()[1] == Some(Seat::E))
    });
    for i in [0, 2, 3] {
        assert_eq!(sim.peers[i].runners()[1], Some(Seat::E), "peer {i}");
    }
    (sim, secrets)
}

/// West's seat given back at the next hand, signed by East (the runner of West's computer
/// player: a partner in West's cheat).
fn east_gives_west_back(peers: &[TableSession], secrets: &[[u8; 32]]) -> TableMsg {
    let config = peers[0].config().unwrap();
    let state = ReturnState {
        hand_no: peers[0].hand_no() + 1,
        seat: Seat::W,
        dealer: Seat::S,
        totals: peers[0].totals(),
        prev_result: [0; 32],
        keys: config.seats,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig =
        Identity::from_secret(secrets[3]).sign(&Statement::Return(&state).digest(&config.sid()));
    TableMsg::Return { state, sig }
}

/// Sabotage caught (checked): the gate's own checks of a `Return` (seats and signature only,
/// not the barred seat): South and North admit East's return for storing, which the handler
/// then refuses.
#[test]
fn a_barred_seats_return_is_refused_by_the_gate_as_by_the_handler() {
    let (mut sim, secrets) = west_barred();
    let bytes = east_gives_west_back(&sim.peers, &secrets).encode();
    let east = sim.keys[3];
    for i in [0, 2] {
        let refused = sim.peers[i].admit(east, &bytes).unwrap_err();
        assert_eq!(
            refused.why,
            Why::Return(ReturnRefused::Barred(Seat::W)),
            "peer {i}"
        );
        assert!(!refused.stale, "held against East at peer {i}");
        assert_eq!(
            sim.peers[i].handle_message(east, &bytes),
            Err(TableError::from(Unexpected::SeatBarred(Seat::W))),
            "peer {i}"
        );
    }
    sim.run(400 * DEFAULT_GRACE_MS, &|s| {
        [0, 2].iter().all(|&i| s.peers[i].finished().is_some())
    });
    for i in [0, 2] {
        assert!(sim.peers[i].finished().is_some(), "peer {i} finished");
        assert_eq!(sim.peers[i].runners()[1], Some(Seat::E), "peer {i}");
        assert!(
            !sim.events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::SeatBack { .. })),
            "peer {i} gave West its seat back"
        );
    }
    sim.same_totals(&[0, 2]);
}

/// Sabotage caught (checked): a checker that does not keep the seats proven at fault takes
/// the runner's signed return and passes the file.
#[test]
fn a_transcript_that_gives_a_barred_seat_back_is_refused() {
    let (mut sim, secrets) = west_barred();
    sim.run(400 * DEFAULT_GRACE_MS, &|s| s.peers[0].hand_no() >= 3);
    sim.drain();
    let file = sim.files[0].clone();
    let report = check(&file);
    assert!(
        report.faults.iter().all(|f| f.seat == Some(Seat::W)),
        "{}",
        report.text()
    );
    let (head, deals) = blocks(&file);
    // East plays for West from the second deal; West comes back at the third, with East's
    // signed return (East ran its computer player, as the second deal's header records).
    let at = 1 + deals
        .iter()
        .position(|d| matches!(&d[0], Entry::Hand { bots, .. } if bots[1].is_some()))
        .unwrap();
    assert!(at < deals.len(), "the file has the third deal's header");
    let Entry::Hand { head: h, .. } = &deals[at][0] else {
        unreachable!("a deal starts with its header")
    };
    let config = sim.peers[0].config().unwrap();
    let state = ReturnState {
        hand_no: h.hand_no,
        seat: Seat::W,
        dealer: h.dealer,
        totals: h.totals,
        prev_result: h.prev_result,
        keys: config.seats,
        runners: fairdeal_core::SeatMap::default(),
        seeds: fairdeal_core::SeatMap::default(),
    };
    let sig =
        Identity::from_secret(secrets[3]).sign(&Statement::Return(&state).digest(&config.sid()));
    let east: PublicKey = sim.keys[3];
    let mut forged: Vec<Entry> = head
        .iter()
        .chain(deals[..at].iter().flatten())
        .cloned()
        .collect();
    forged.push(Entry::Signed {
        from: east,
        msg: TableMsg::Return { state, sig }.encode(),
    });
    forged.push(Entry::Hand {
        head: *h,
        keys: Box::new(config.seats),
        bots: Box::new([None; 4]),
    });
    let report = check(&forged);
    // The check stops there (the fault that ends it is the last; West's own comes first).
    let stop = report.faults.last().unwrap();
    assert_eq!(
        stop.kind,
        FaultKind::BarredSeatBack(Seat::W),
        "{}",
        report.text()
    );
    assert_eq!(stop.seat, None, "no seat is blamed for the file's bytes");
    assert!(
        report.text().contains("proved it at fault"),
        "{}",
        report.text()
    );
}

/// Sabotage caught (checked): a checker that reads a deal only as verified (four signed
/// results agreeing with its replays), void or forfeited by a silent seat: the next header,
/// which follows the other three seats' signed result, is unexplained and an honest file fails.
#[test]
fn a_hand_counted_on_its_audited_scores_reads_as_counted_naming_the_audits_sender() {
    let (peers, _) = table("barred", Preset::Samba, 6000);
    let mut sim = Sim::new(peers);
    // West audits once its seed is out and before it signs the result: every seed is in,
    // the scores are audited, and West's signed result never comes.
    sim.run(200 * DEFAULT_GRACE_MS, &|s| {
        s.peers[1]
            .hand()
            .is_some_and(|h| h.stage() == Stage::Reveal)
    });
    assert_eq!(
        sim.peers[1].hand().map(|h| h.stage()),
        Some(Stage::Reveal),
        "West revealed its seed"
    );
    sim.peers[1].cheat_audit_now();
    sim.run(200 * DEFAULT_GRACE_MS, &|s| {
        [0, 2, 3].iter().all(|&i| s.peers[i].hand_no() >= 2)
    });
    sim.drain();
    for i in [0, 2, 3] {
        let counted: Vec<[i32; 2]> = sim.peers[i].reports().iter().map(|r| r.scores).collect();
        assert!(
            sim.events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::SeatBarred { seat: Seat::W })),
            "peer {i} barred West"
        );
        let report = check(&sim.files[i]);
        assert!(
            report.faults.iter().all(|f| f.seat == Some(Seat::W)),
            "peer {i}:\n{}",
            report.text()
        );
        assert_eq!(
            report.hands.first().map(|h| h.status.clone()),
            Some(HandStatus::Forfeited {
                seat: Seat::W,
                scores: counted[0]
            }),
            "peer {i}:\n{}",
            report.text()
        );
    }
    sim.same_totals(&[0, 2, 3]);

    // The audited scores count only on the signed results of every seat but the audit's
    // sender, and only for a next header that follows them: South's file without North's
    // signed result, or with the next dealer changed, explains the next deal no more.
    let file = &sim.files[0];
    let north_result = |e: &Entry| match e {
        Entry::Envelope { signed, .. } => {
            use fairdeal_crypto::{Body, Envelope, encoding};
            encoding::decode::<Envelope>(&signed.bytes).is_ok_and(|env| {
                env.sender == Seat::N.number()
                    && Body::decode(&env.body).is_ok_and(|b| matches!(b, Body::HandResult { .. }))
            })
        }
        _ => false,
    };
    assert!(
        file.iter().any(north_result),
        "North signed hand 1's result"
    );
    let unsigned: Vec<Entry> = file.iter().filter(|e| !north_result(e)).cloned().collect();
    let first_fault = |f: &[Entry]| check(f).faults.first().map(|f| f.kind.clone());
    assert_eq!(first_fault(&unsigned), Some(FaultKind::UnexplainedNext));
    let mut moved = file.clone();
    for e in &mut moved {
        if let Entry::Hand { head, .. } = e
            && head.hand_no == 2
        {
            head.dealer = head.dealer.next();
        }
    }
    assert_eq!(first_fault(&moved), Some(FaultKind::UnexplainedNext));
}
