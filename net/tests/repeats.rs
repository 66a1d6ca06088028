//! A seated peer repeating valid messages cannot grow another peer's game log: an exact copy
//! of a hand message held already is refused as stale (not logged), a resync is handled but
//! never logged and is answered at most once a second, while a different message in the
//! same slot (equivocation, which is evidence) still goes through.
//!
//! Found in a window trial: four nodes resumed from their logs sent what they had sent again,
//! each peer logged every copy, and a log of 135 KB became 1.27 MB after one resume.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{HouseRules, Preset};
use fairdeal_crypto::{Body, Envelope, Identity, PublicKey, SignedEnvelope, encoding};
use fairdeal_net::table::msg::{SeatInfo, TableMsg};
use fairdeal_net::table::{Admit, Dest, RESYNC_ANSWER_MS, TableSession};

fn seat(i: u8) -> ([u8; 32], SeatInfo) {
    let secret = [i + 81; 32];
    (
        secret,
        SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: Vec::new(),
        },
    )
}

fn table() -> Vec<TableSession> {
    let (s0, i0) = seat(0);
    let mut peers = vec![TableSession::host(
        s0,
        [90; 32],
        i0,
        Some("greedy"),
        "repeats",
        Preset::Samba,
        HouseRules::default(),
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, info) = seat(i);
        let mut p = TableSession::joiner(s, [90 + i; 32], info, Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    peers
}

/// Delivers through the gate until South (peer 0) stored `want` hand messages of North's
/// (peer 2), or nothing moves; returns them.
fn run(peers: &mut [TableSession], want: usize) -> Vec<Vec<u8>> {
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
                        Err(r) => assert!(r.stale, "a real message refused: {}", r.what),
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
    let sent = run(&mut peers, 12);
    assert!(sent.len() >= 12, "North sent hand messages to South");
    for bytes in &sent {
        let refused = peers[0].admit(north, bytes).unwrap_err();
        assert!(refused.stale, "a copy is stale, not held against North");
        assert_eq!(refused.what, "a hand message held already");
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
    run(&mut peers, 12);
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
    assert!(again.stale, "{}", again.what);
    peers[0].handle_timeout(now + RESYNC_ANSWER_MS);
    while peers[0].poll_transmit().is_some() {}
    assert_eq!(
        peers[0].admit(north, &resync),
        Ok(Admit::Show),
        "a resync a second later is answered again"
    );
}
