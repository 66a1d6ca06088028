//! Check first, store after: a stranger, and separately a seated peer, send validly signed
//! `Timeout`, `Replace`, `Accept`, `Start` and `Hand` messages while a game is played and a
//! silent seat is taken over. Every one is refused by the gate (so the node neither logs nor
//! handles it), the game finishes, and the runner's legitimate `Replace` still applies.
//!
//! And a seated peer repeating valid messages cannot grow another peer's game log: an exact
//! copy of a hand message held already is refused as stale (not logged), a resync is handled
//! but never logged and is answered at most once a second, while a different message in the
//! same slot (equivocation, which is evidence) still goes through. Without that, four nodes
//! resumed from their logs send again what they had sent, each peer logs every copy, and one
//! resume can turn a log of 135 KB into 1.27 MB.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_crypto::encoding;
use fairdeal_crypto::{Body, Envelope, Identity, PublicKey, SignedEnvelope};
use fairdeal_net::table::msg::{SeatInfo, Statement, TableConfig, TableMsg};
use fairdeal_net::table::{Admit, Dest, RESYNC_ANSWER_MS, TableEvent, TableSession, Why};

fn seat(i: u8) -> ([u8; 32], SeatInfo) {
    let secret = [i + 61; 32];
    (
        secret,
        SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: vec![format!("/ip4/127.0.0.1/tcp/{}", 4000 + u16::from(i))],
        },
    )
}

fn table() -> Vec<TableSession> {
    let house = HouseRules {
        target: Some(1500),
        ..HouseRules::default()
    };
    let (s0, i0) = seat(0);
    let mut peers = vec![TableSession::host(
        s0,
        [70; 32],
        i0,
        Some("expert"),
        "gate",
        Preset::Canasta,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, info) = seat(i);
        let mut p = TableSession::joiner(s, [70 + i; 32], info, Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    peers
}

/// Validly signed messages of every kind that `who` may not send to `to` now.
fn forged(
    who: &Identity,
    seated_as: Option<u8>,
    to: &TableSession,
) -> Vec<(&'static str, Vec<u8>)> {
    let config = to.config().unwrap();
    let sid = config.sid();
    let hand_no = to.hand_no();
    let key = who.public();
    let mut fake: TableConfig = config.clone();
    fake.nonces[1] = [1; 32];
    fake.seats[3] = key;
    let other_sid = fake.sid();
    let hctx = to.hand().map_or([0; 32], |h| h.hctx());
    // A seated peer votes against itself; a stranger against East.
    let vote_seat = Seat::from_index(usize::from(seated_as.unwrap_or(3)));
    let mut out = vec![
        (
            "timeout",
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat: vote_seat,
                sig: who.sign(
                    &Statement::Timeout {
                        hand_no,
                        hctx: &hctx,
                        seat: vote_seat,
                    }
                    .digest(&sid),
                ),
            },
        ),
        (
            "timeout for a later hand",
            TableMsg::Timeout {
                hand_no: hand_no + 3,
                hctx,
                seat: Seat::W,
                sig: who.sign(
                    &Statement::Timeout {
                        hand_no: hand_no + 3,
                        hctx: &hctx,
                        seat: Seat::W,
                    }
                    .digest(&sid),
                ),
            },
        ),
        (
            "replace",
            common::replace_msg(who, &sid, hand_no, Seat::E, key, [0; 32]),
        ),
        (
            "accept of another table",
            TableMsg::Accept {
                sid: other_sid,
                sig: who.sign(&other_sid),
            },
        ),
        ("start", TableMsg::Start { config: fake }),
    ];
    if seated_as.is_none() {
        out.push((
            "accept",
            TableMsg::Accept {
                sid,
                sig: who.sign(&sid),
            },
        ));
    }
    if let Some(hand) = to.hand() {
        // Signed by `who`, claiming West's seat (a stranger has none of its own).
        let env = Envelope {
            version: fairdeal_crypto::envelope::PROTOCOL_VERSION,
            sid: hand.hctx(),
            sender: 1,
            seq: 0,
            prev: [0; 32],
            body: vec![7; 40],
        };
        let bytes = SignedEnvelope::seal(who, &env).to_wire();
        out.push(("hand", TableMsg::Hand { bytes }));
    }
    out.into_iter()
        .map(|(k, m)| (k, encoding::encode(&m)))
        .collect()
}

#[test]
fn a_stranger_and_a_seat_cannot_speak_out_of_turn_and_the_real_replacement_applies() {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let stranger = Identity::from_secret([99; 32]);
    let north = Identity::from_secret(seat(2).0);
    // What each peer's node would have logged: every message the gate let through.
    let mut stored: Vec<Vec<(PublicKey, Vec<u8>)>> = vec![Vec::new(); 4];
    let mut events = vec![Vec::new(); 4];
    let mut refused = std::collections::BTreeMap::<(&str, &str), usize>::new();
    let mut silent = false;
    let mut now = 0u64;
    let mut delivered = 0usize;
    for round in 0..200_000usize {
        let mut moved = false;
        for i in 0..4 {
            if silent && i == 3 {
                continue;
            }
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                let table_level = !matches!(TableMsg::decode(&bytes), Ok(TableMsg::Hand { .. }));
                for j in targets {
                    if silent && j == 3 {
                        continue;
                    }
                    // Around every table-level message (the start, votes, the replacement)
                    // and now and then, the stranger and North try their forgeries.
                    if peers[j].config().is_some() && (table_level || round % 64 == 0) {
                        let mut tries = vec![("stranger", stranger.public(), &stranger, None)];
                        if j != 2 {
                            tries.push(("north", keys[2], &north, Some(2)));
                        }
                        for (who, from, id, seated_as) in tries {
                            for (kind, msg) in forged(id, seated_as, &peers[j]) {
                                let verdict = peers[j].admit(from, &msg);
                                assert!(verdict.is_err(), "{who}'s {kind} to {j} was let in");
                                *refused.entry((who, kind)).or_default() += 1;
                            }
                        }
                    }
                    match peers[j].admit(keys[i], &bytes) {
                        Ok(Admit::Store) => {
                            stored[j].push((keys[i], bytes.clone()));
                            peers[j].handle_message(keys[i], &bytes).unwrap();
                        }
                        Ok(Admit::Answer) => {}
                        // Chat: handled, never stored.
                        Ok(Admit::Show) => peers[j].handle_message(keys[i], &bytes).unwrap(),
                        Err(r) => assert!(r.stale, "a real message refused: {}", r.why),
                    }
                    delivered += 1;
                }
            }
            while let Some(e) = peers[i].poll_event() {
                events[i].push(e);
            }
        }
        if delivered > 300 {
            // East's machine goes away in the middle of the first hand.
            silent = true;
        }
        if !moved {
            if peers[..3].iter().all(|p| p.finished().is_some()) {
                break;
            }
            now += 30_000;
            for p in &mut peers[..3] {
                p.handle_timeout(now);
            }
        }
    }
    for (i, p) in peers[..3].iter().enumerate() {
        assert!(p.finished().is_some(), "peer {i} did not finish");
        assert!(
            events[i]
                .iter()
                .any(|e| matches!(e, TableEvent::HandVoided { seat: Seat::E, .. })),
            "peer {i} voided East's hand"
        );
        assert!(
            stored[i].iter().all(|(from, _)| *from != stranger.public()),
            "nothing of the stranger's is stored"
        );
        assert!(
            stored[i]
                .iter()
                .all(|(from, bytes)| *from != keys[2] || !forged_by_north(bytes)),
            "none of North's forgeries is stored at {i}"
        );
    }
    // The runner (West, East's partner) took East; South and North applied its replacement.
    assert_eq!(peers[1].proxy_seats().iter().collect::<Vec<_>>(), [Seat::E]);
    assert!(peers[0].proxy_seats().is_empty());
    let totals: Vec<[i32; 2]> = peers[..3].iter().map(TableSession::totals).collect();
    assert!(totals.iter().all(|t| *t == totals[0]));
    for who in ["stranger", "north"] {
        for kind in [
            "timeout",
            "replace",
            "accept of another table",
            "start",
            "hand",
        ] {
            assert!(
                refused.get(&(who, kind)).copied().unwrap_or(0) > 0,
                "{who}'s {kind} was tried"
            );
        }
    }
    println!("refused forgeries: {refused:?}");
}

/// Whether North's message is one of the forgeries (a real message of North's is none of
/// these: it never votes against itself, replaces nobody, and accepts only the real table).
fn forged_by_north(bytes: &[u8]) -> bool {
    match TableMsg::decode(bytes) {
        Ok(TableMsg::Timeout { seat, .. }) => seat == Seat::N,
        Ok(TableMsg::Replace { .. } | TableMsg::Start { .. }) => true,
        Ok(TableMsg::Hand { bytes }) => SignedEnvelope::from_wire(&bytes)
            .ok()
            .and_then(|e| encoding::decode::<Envelope>(&e.bytes).ok())
            .is_some_and(|e| e.sender == 1),
        _ => false,
    }
}

#[test]
fn the_handlers_refuse_a_forged_replacement_even_without_the_gate() {
    // A seat that has not voided yet keeps an early replacement; only the runner's may be
    // kept, so a forged one can neither be kept nor push the real one out.
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    for _ in 0..50 {
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                }
            }
        }
    }
    let sid = peers[1].config().unwrap().sid();
    let hand_no = peers[1].hand_no();
    let north = Identity::from_secret(seat(2).0);
    let key = Identity::from_secret([5; 32]).public();
    let msg = common::replace_msg(&north, &sid, hand_no, Seat::E, key, [0; 32]);
    assert!(peers[1].handle_message(keys[2], &msg.encode()).is_err());
    // A hand message from a peer that is not seated is not even routed (one for a hand not
    // started here would otherwise wait in the buffer of early messages).
    let stranger = Identity::from_secret([98; 32]);
    let env = Envelope {
        version: fairdeal_crypto::envelope::PROTOCOL_VERSION,
        sid: [3; 32],
        sender: 1,
        seq: 0,
        prev: [0; 32],
        body: vec![7; 40],
    };
    let bytes = SignedEnvelope::seal(&stranger, &env).to_wire();
    let hand = TableMsg::Hand { bytes }.encode();
    assert!(peers[1].handle_message(stranger.public(), &hand).is_err());
    assert!(
        peers[1].handle_message(keys[2], &hand).is_ok(),
        "a seat's is kept"
    );
}

#[test]
fn one_seat_cannot_fill_the_buffer_of_early_messages_for_the_others() {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    for _ in 0..50 {
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                }
            }
        }
    }
    assert!(peers[1].hand().is_some());
    // North sends message after message for a hand nobody has started.
    let north = Identity::from_secret(seat(2).0);
    let early = |who: &Identity, sender: u8, seq: u32| {
        let env = Envelope {
            version: fairdeal_crypto::envelope::PROTOCOL_VERSION,
            sid: [4; 32],
            sender,
            seq,
            prev: [0; 32],
            body: vec![7; 1000],
        };
        TableMsg::Hand {
            bytes: SignedEnvelope::seal(who, &env).to_wire(),
        }
        .encode()
    };
    let mut kept = 0;
    for seq in 0..5_000 {
        let msg = early(&north, 2, seq);
        match peers[1].admit(keys[2], &msg) {
            Ok(Admit::Store) => {
                peers[1].handle_message(keys[2], &msg).unwrap();
                kept += 1;
            }
            Ok(Admit::Answer | Admit::Show) => panic!("not a query nor chat"),
            Err(r) => assert!(!r.stale, "refused for a reason: {}", r.why),
        }
    }
    assert!(
        kept > 0 && kept < 1_000,
        "kept {kept} of North's early messages"
    );
    // South's early messages still have room.
    let south = Identity::from_secret(seat(0).0);
    let msg = early(&south, 0, 0);
    assert_eq!(peers[1].admit(keys[0], &msg), Ok(Admit::Store));
}

/// Delivers what the peers send for `rounds` rounds, each message through its receiver's
/// gate, except those `divert(from, to, bytes)` takes out of the delivery (it returns true:
/// the test keeps or drops them).
fn deliver_diverting(
    peers: &mut [TableSession],
    rounds: usize,
    mut divert: impl FnMut(usize, usize, &[u8]) -> bool,
) {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    for _ in 0..rounds {
        for i in 0..peers.len() {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    if !divert(i, j, &bytes) && peers[j].admit(keys[i], &bytes).is_ok() {
                        let _ = peers[j].handle_message(keys[i], &bytes);
                    }
                }
            }
        }
    }
}

/// An acceptance from a seat that West's roster does not name yet (the host's messages to
/// West are late) is refused as "later", not stored and not held against its sender; once
/// the host's roster and start reach West, the same bytes are admitted. A stranger's
/// acceptance, held alike in the lobby, is refused for good once the game has started.
///
/// Sabotage caught (checked): `admit_lobby` storing an acceptance from a peer not in the
/// roster (`Ok(())` instead of `later(..)`), or marking it as not worth asking again.
#[test]
fn an_acceptance_that_overtakes_the_roster_is_held_then_admitted() {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let stranger = Identity::from_secret([97; 32]);
    // Messages from the host to West, held back; acceptances others sent West.
    let mut late: Vec<Vec<u8>> = Vec::new();
    let mut accepts: Vec<(usize, Vec<u8>)> = Vec::new();
    deliver_diverting(&mut peers, 50, |i, j, bytes| {
        if j == 1 && i == 0 {
            late.push(bytes.to_vec());
        } else if j == 1 && matches!(TableMsg::decode(bytes), Ok(TableMsg::Accept { .. })) {
            accepts.push((i, bytes.to_vec()));
        }
        j == 1
    });
    assert!(peers[1].config().is_none() && !late.is_empty());
    let (from, accept) = accepts
        .iter()
        .find(|(i, _)| *i != 0)
        .cloned()
        .expect("a joiner accepted the table");
    assert!(
        peers[1]
            .roster()
            .iter()
            .flatten()
            .all(|s| s.key != keys[from])
    );
    let r = peers[1].admit(keys[from], &accept).unwrap_err();
    assert!(r.later && r.stale, "{}", r.why);
    let sid = peers[0].config().unwrap().sid();
    let theirs = TableMsg::Accept {
        sid,
        sig: stranger.sign(&sid),
    }
    .encode();
    assert!(
        peers[1]
            .admit(stranger.public(), &theirs)
            .unwrap_err()
            .later
    );
    for bytes in &late {
        assert_eq!(peers[1].admit(keys[0], bytes), Ok(Admit::Store));
        peers[1].handle_message(keys[0], bytes).unwrap();
    }
    assert!(peers[1].config().is_some());
    assert_eq!(peers[1].admit(keys[from], &accept), Ok(Admit::Store));
    let r = peers[1].admit(stranger.public(), &theirs).unwrap_err();
    assert!(!r.later && !r.stale, "{}", r.why);
}

/// Whatever the other seats send West while the host's roster and configuration are late
/// (their acceptances, and the configuration each passes on when its connection to West
/// comes up) is refused without being held against its sender: a refusal that is not stale
/// shuts a peer out for half a minute, and on a lossy link that stood a table still before
/// its first move. Once West has the host's messages it plays with them.
///
/// Sabotage caught (checked): `admit_lobby` refusing the configuration passed on by a seat
/// West does not know yet as "not from the host" (not stale).
#[test]
fn what_the_seats_send_before_the_roster_reaches_a_joiner_is_not_held_against_them() {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut late: Vec<Vec<u8>> = Vec::new();
    let mut to_west: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut divert = |i: usize, j: usize, bytes: &[u8]| {
        if j == 1 && i == 0 {
            late.push(bytes.to_vec());
        } else if j == 1 {
            to_west.push((i, bytes.to_vec()));
        }
        j == 1
    };
    deliver_diverting(&mut peers, 25, &mut divert);
    // Their connections to West come up again: each sends its acceptance, the configuration
    // and its recent hand messages.
    peers[2].peer_connected(keys[1]);
    peers[3].peer_connected(keys[1]);
    deliver_diverting(&mut peers, 25, &mut divert);
    let mut kinds = Vec::new();
    for (i, bytes) in &to_west {
        if let Err(r) = peers[1].admit(keys[*i], bytes) {
            assert!(r.stale, "held against seat {i}: {}", r.why);
        }
        if let Ok(m) = TableMsg::decode(bytes) {
            kinds.push(std::mem::discriminant(&m));
        }
    }
    assert!(peers[1].config().is_none() && !late.is_empty());
    let start = TableMsg::Start {
        config: peers[0].config().unwrap().clone(),
    };
    assert!(
        kinds.contains(&std::mem::discriminant(&start)),
        "no seat passed the configuration on to West"
    );
    for bytes in &late {
        if peers[1].admit(keys[0], bytes) == Ok(Admit::Store) {
            peers[1].handle_message(keys[0], bytes).unwrap();
        }
    }
    assert!(peers[1].config().is_some());
}

/// A joiner whose copies of the host's rosters were lost (on a lossy link a connection is
/// closed and its requests with it) starts with the configuration alone, which says who sits
/// where but not where they listen: it could not dial the seats it never heard from. When
/// its connection to the host comes up again the host sends the roster with the
/// configuration, and the joiner takes the seat cards from it (logged, as it tells the joiner
/// where seats listen: a client resumed from its log dials them there; the same roster again
/// is only handled); a roster after the start from anyone else is refused.
///
/// Sabotage caught (checked): `peer_connected` without the roster; the gate refusing every
/// roster after the start (West never learns the missing seat cards).
#[test]
fn a_joiner_that_missed_the_last_roster_learns_the_seat_cards_when_the_host_reconnects() {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let deliver = |peers: &mut Vec<TableSession>, drop_rosters: bool| {
        deliver_diverting(peers, 50, |i, j, bytes| {
            drop_rosters
                && i == 0
                && j == 1
                && matches!(TableMsg::decode(bytes), Ok(TableMsg::Roster { .. }))
        });
    };
    deliver(&mut peers, true);
    let config = peers[1].config().expect("West started").clone();
    let listening = |p: &TableSession| {
        p.roster()
            .iter()
            .flatten()
            .filter(|s| !s.addrs.is_empty())
            .count()
    };
    assert!(listening(&peers[1]) < 4, "West got every roster");
    while peers[1].poll_event().is_some() {}
    let roster = TableMsg::Roster {
        name: "gate".into(),
        preset: Preset::Canasta,
        house: Default::default(),
        seats: peers[0].roster().clone(),
        nonces: config.nonces,
    }
    .encode();
    assert!(
        peers[1].admit(keys[2], &roster).is_err(),
        "a roster from North"
    );
    assert_eq!(
        peers[1].admit(keys[0], &roster),
        Ok(Admit::Store),
        "the late seat cards are logged"
    );
    peers[0].peer_connected(keys[1]);
    deliver(&mut peers, false);
    assert_eq!(peers[1].roster(), peers[0].roster());
    assert_eq!(listening(&peers[1]), 4);
    assert_eq!(
        peers[1].admit(keys[0], &roster),
        Ok(Admit::Show),
        "the same roster again is not logged again"
    );
    assert!(
        std::iter::from_fn(|| peers[1].poll_event()).any(|e| matches!(e, TableEvent::Roster(_)))
    );
}

/// Delivers through the gate until South (peer 0) stored `want` hand messages of North's
/// (peer 2), or nothing moves; returns them.
fn north_to_south(peers: &mut [TableSession], want: usize) -> Vec<Vec<u8>> {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut north_to_south = Vec::new();
    for _ in 0..100_000 {
        let mut moved = false;
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    match peers[j].admit(keys[i], &bytes) {
                        Ok(Admit::Store) => {
                            if (i, j) == (2, 0)
                                && matches!(TableMsg::decode(&bytes), Ok(TableMsg::Hand { .. }))
                            {
                                north_to_south.push(bytes.clone());
                            }
                            peers[j].handle_message(keys[i], &bytes).unwrap();
                        }
                        Ok(Admit::Show) => peers[j].handle_message(keys[i], &bytes).unwrap(),
                        Ok(Admit::Answer) => {}
                        Err(r) => assert!(r.stale, "a real message refused: {}", r.why),
                    }
                }
            }
            while peers[i].poll_event().is_some() {}
        }
        if north_to_south.len() >= want || !moved {
            break;
        }
    }
    north_to_south
}

/// North's hand message re-signed by North with another body in the same slot.
fn equivocation(bytes: &[u8]) -> Vec<u8> {
    let Ok(TableMsg::Hand { bytes: inner }) = TableMsg::decode(bytes) else {
        panic!("not a hand message");
    };
    let signed = SignedEnvelope::from_wire(&inner).unwrap();
    let mut env: Envelope = encoding::decode(&signed.bytes).unwrap();
    let mut body = Body::decode(&env.body).unwrap();
    match &mut body {
        Body::Move { turn, .. } => *turn += 1,
        Body::Shuffle(m) => m.deck.swap(0, 1),
        other => panic!("unexpected body {other:?}"),
    }
    env.body = body.encode();
    let north = Identity::from_secret(seat(2).0);
    let inner = SignedEnvelope::seal(&north, &env).to_wire();
    TableMsg::Hand { bytes: inner }.encode()
}

#[test]
fn a_repeated_hand_message_is_not_stored_again_but_a_different_one_in_its_slot_is() {
    let mut peers = table();
    let north = peers[2].key();
    let sent = north_to_south(&mut peers, 12);
    assert!(sent.len() >= 12, "North sent hand messages to South");
    for bytes in &sent {
        let refused = peers[0].admit(north, bytes).unwrap_err();
        assert!(refused.stale, "a copy is stale, not held against North");
        assert_eq!(refused.why, Why::HandHeld);
    }
    // A shuffle step or a move of North's, re-signed with another body: evidence, let in.
    let last = sent
        .iter()
        .rev()
        .find(|b| {
            let Ok(TableMsg::Hand { bytes }) = TableMsg::decode(b) else {
                return false;
            };
            let signed = SignedEnvelope::from_wire(&bytes).unwrap();
            let env: Envelope = encoding::decode(&signed.bytes).unwrap();
            matches!(
                Body::decode(&env.body),
                Ok(Body::Move { .. } | Body::Shuffle(_))
            )
        })
        .unwrap();
    assert_eq!(
        peers[0].admit(north, &equivocation(last)),
        Ok(Admit::Store),
        "a second version of a slot reaches the hand"
    );
}

#[test]
fn a_resync_is_never_stored_and_is_answered_at_most_once_a_second() {
    let mut peers = table();
    let north = peers[2].key();
    north_to_south(&mut peers, 12);
    let hand_no = peers[0].hand_no();
    let resync = TableMsg::Resync {
        hand_no,
        have: [0; 4],
    }
    .encode();
    let now = 1_000_000;
    peers[0].handle_timeout(now);
    while peers[0].poll_transmit().is_some() {}
    assert_eq!(
        peers[0].admit(north, &resync),
        Ok(Admit::Show),
        "handled, never stored"
    );
    peers[0].handle_message(north, &resync).unwrap();
    let resent = std::iter::from_fn(|| peers[0].poll_transmit())
        .filter(|(d, _)| *d == Dest::Peer(north))
        .count();
    assert!(
        resent > 0,
        "the first resync is answered with what North lacks"
    );
    let again = peers[0].admit(north, &resync).unwrap_err();
    assert!(again.stale, "{}", again.why);
    peers[0].handle_timeout(now + RESYNC_ANSWER_MS);
    while peers[0].poll_transmit().is_some() {}
    assert_eq!(
        peers[0].admit(north, &resync),
        Ok(Admit::Show),
        "a resync a second later is answered again"
    );
}
