//! A game played back from its transcript: four table peers in one process play a short game;
//! every deal of seat 0's transcript plays back from the deal to its end, with as many moves
//! as the check replayed and the signed scores; a transcript cut before a deal's seeds were
//! revealed plays that deal back as not knowable (and the deals before it whole); a file with
//! a damaged configuration plays nothing back; bytes changed here and there never panic.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{HouseRules, Preset};
use fairdeal_crypto::{Body, Envelope, Identity, PublicKey, encoding};
use fairdeal_net::playback::{Gap, play};
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, TableSession};
use fairdeal_net::transcript::{self, Entry, HandStatus, Located, MAGIC};

fn peers() -> Vec<TableSession> {
    let card = |i: u8| {
        let secret = [i + 61; 32];
        let info = SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: Vec::new(),
        };
        (secret, info)
    };
    let house = HouseRules {
        target: Some(50),
        ..HouseRules::default()
    };
    let (s0, c0) = card(0);
    let host = TableSession::host(
        s0,
        [50; 32],
        c0,
        Some("greedy"),
        "playback",
        Preset::Canasta,
        house,
    );
    let key = host.key();
    let mut all = vec![host];
    for i in 1..4u8 {
        let (s, c) = card(i);
        let mut p = TableSession::joiner(s, [50 + i; 32], c, Some("greedy"));
        p.join(key);
        all.push(p);
    }
    all
}

/// Seat 0's transcript of a whole game.
fn game() -> Vec<Entry> {
    let mut peers = peers();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut file = Vec::new();
    loop {
        let mut busy = false;
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                busy = true;
                let to: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in to {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                }
            }
            while peers[i].poll_event().is_some() {}
            while let Some(e) = peers[0].poll_public() {
                file.push(e);
            }
        }
        if !busy {
            return file;
        }
    }
}

fn located(entries: &[Entry]) -> Vec<Located> {
    let mut bytes = MAGIC.to_vec();
    for e in entries {
        bytes.extend_from_slice(&e.to_record());
    }
    transcript::decode(&bytes).unwrap()
}

/// Whether an entry is a seed revealed (at the end of a deal).
fn is_reveal(e: &Entry) -> bool {
    let Entry::Envelope { signed, .. } = e else {
        return false;
    };
    encoding::decode::<Envelope>(&signed.bytes)
        .ok()
        .and_then(|e| Body::decode(&e.body).ok())
        .is_some_and(|b| matches!(b, Body::HandReveal { .. }))
}

/// Sabotage caught (checked): the playback skipping the draws (the next move no longer
/// applies to the audited cards).
#[test]
fn every_deal_plays_back_and_a_deal_without_its_seeds_is_said_unknowable() {
    let entries = game();
    let p = play(&located(&entries));
    assert!(p.report.ok(), "{:?}", p.report.lines());
    assert!(p.config.is_some());
    assert_eq!(p.hands.len(), p.report.hands.len());
    for (h, line) in p.hands.iter().zip(&p.report.hands) {
        assert_eq!(h.gap, None, "hand {}", h.hand_no);
        let HandStatus::Verified { scores, moves, .. } = &line.status else {
            panic!("hand {} not verified: {:?}", h.hand_no, line.status);
        };
        assert_eq!(h.steps.len(), *moves, "hand {}: every move", h.hand_no);
        assert_eq!(h.report.as_ref().map(|r| r.scores), Some(*scores));
        let last = h.position(usize::MAX).unwrap();
        assert!(last.is_over(), "hand {} ends over", h.hand_no);
        assert_eq!(h.position(0), h.dealt.as_ref());
        // Every position holds the whole pack (the deal made again from the audited deck).
        for s in &h.steps {
            assert!(s.after.all_cards().iter().all(|c| !c.is_hidden()));
        }
    }

    // Cut just before the last deal's first seed: that deal cannot be known, the others can.
    let deal = entries
        .iter()
        .rposition(|e| matches!(e, Entry::Hand { .. }))
        .unwrap();
    let first = deal + entries[deal..].iter().position(is_reveal).unwrap();
    let p = play(&located(&entries[..first]));
    let (last, before) = p.hands.split_last().unwrap();
    assert_eq!(last.gap, Some(Gap::Unrevealed));
    assert!(last.dealt.is_none() && last.steps.is_empty());
    assert!(before.iter().all(|h| h.gap.is_none() && h.report.is_some()));

    // A configuration whose signatures do not check: nothing is played back.
    let mut bad = entries.clone();
    if let Entry::Table { config, .. } = &mut bad[0] {
        config.name.push('!');
    }
    let p = play(&located(&bad));
    assert!(p.config.is_none() && p.hands.is_empty());
    assert!(!p.report.ok());
}

/// One byte changed in two dozen places spread over the file: never a panic.
#[test]
fn changed_bytes_never_panic() {
    let entries = game();
    let mut bytes = MAGIC.to_vec();
    for e in &entries {
        bytes.extend_from_slice(&e.to_record());
    }
    let step = (bytes.len() / 24).max(1);
    for at in (MAGIC.len()..bytes.len()).step_by(step) {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        if let Ok(located) = transcript::decode(&b) {
            let _ = play(&located);
        }
    }
}
