//! Shared test harness: four in-process seats, delivery, random play, tampering.

#![allow(dead_code, reason = "each test file uses part of the harness")]
#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::sync::Arc;

use fairdeal_core::{Preset, Rules, Seat, SplitMix64};
use fairdeal_crypto::encoding;
use fairdeal_crypto::{Body, CardTable, Envelope, Identity, SignedEnvelope};
use fairdeal_net::hand::{Blame, Event, HandConfig, HandSession};

pub fn identity(seat: u8) -> Identity {
    Identity::from_secret([seat + 1; 32])
}

pub fn config(preset: Preset, dealer: Seat, hand_no: u32) -> HandConfig {
    let keys = [0, 1, 2, 3].map(|s| identity(s).public());
    HandConfig {
        sid: [9; 32],
        keys,
        rules: Rules::preset(preset),
        dealer,
        scores: [0, 0],
        hand_no,
        prev_result: [0; 32],
        proofs: fairdeal_crypto::ProofMode::Proved,
        bots: Default::default(),
    }
}

pub fn seed(seat: u8, salt: u8) -> [u8; 32] {
    let mut s = [salt; 32];
    s[0] = seat;
    s
}

pub fn table(preset: Preset) -> Arc<CardTable> {
    Arc::new(CardTable::new(Rules::preset(preset).deck_size() as u16).unwrap())
}

pub fn sessions(preset: Preset, dealer: Seat, salt: u8) -> Vec<HandSession> {
    let cfg = config(preset, dealer, 1);
    let t = table(preset);
    (0..4u8)
        .map(|i| HandSession::new(cfg.clone(), i, identity(i), seed(i, salt), t.clone()))
        .collect()
}

/// Decides what each receiver gets of a message: (sender, receiver, bytes) → bytes or nothing.
pub type Filter<'a> = &'a mut dyn FnMut(u8, usize, &[u8]) -> Option<Vec<u8>>;

/// Everything that was broadcast, by sender, for re-delivery after a crash.
#[derive(Default)]
pub struct Wire {
    pub sent: Vec<(u8, Vec<u8>)>,
}

/// Delivers queued messages; `filter` may drop or alter a message (sender, bytes) → bytes per
/// receiver. Returns true if anything was sent.
pub fn deliver_with(seats: &mut [HandSession], wire: &mut Wire, filter: Filter<'_>) -> bool {
    let mut moved = false;
    for i in 0..seats.len() {
        while let Some(bytes) = seats[i].poll_transmit() {
            moved = true;
            wire.sent.push((i as u8, bytes.clone()));
            for (j, seat) in seats.iter_mut().enumerate() {
                if j != i
                    && let Some(b) = filter(i as u8, j, &bytes)
                {
                    let _ = seat.handle_message(&b);
                }
            }
        }
    }
    moved
}

pub fn deliver(seats: &mut [HandSession]) -> bool {
    deliver_with(seats, &mut Wire::default(), &mut |_, _, b| Some(b.to_vec()))
}

/// Plays random legal moves with the given delivery until nothing moves; returns events.
pub fn play_with(
    seats: &mut [HandSession],
    rng: &mut SplitMix64,
    wire: &mut Wire,
    filter: Filter<'_>,
    max_rounds: usize,
) -> Vec<Vec<Event>> {
    let mut events = vec![Vec::new(); seats.len()];
    for _ in 0..max_rounds {
        let moved = deliver_with(seats, wire, filter);
        for (i, s) in seats.iter_mut().enumerate() {
            while let Some(e) = s.poll_event() {
                events[i].push(e);
            }
        }
        let mut acted = false;
        for s in seats.iter_mut() {
            if s.my_turn()
                && let Some(mv) = s.view().unwrap().random_legal_move(rng)
            {
                s.submit(mv).unwrap();
                acted = true;
            }
        }
        if !moved && !acted {
            break;
        }
    }
    events
}

pub fn play(seats: &mut [HandSession], seed: u64) -> Vec<Vec<Event>> {
    play_with(
        seats,
        &mut SplitMix64::new(seed),
        &mut Wire::default(),
        &mut |_, _, b| Some(b.to_vec()),
        100_000,
    )
}

pub fn blames(events: &[Event]) -> Vec<Blame> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::Fault(b) = e {
                Some(b.clone())
            } else {
                None
            }
        })
        .collect()
}

/// Re-signs `bytes` (from `seat`) with its body changed by `f`: same sequence number and link.
pub fn tamper(bytes: &[u8], seat: u8, f: &dyn Fn(&mut Body)) -> Vec<u8> {
    let signed = SignedEnvelope::from_wire(bytes).unwrap();
    let mut env: Envelope = encoding::decode(&signed.bytes).unwrap();
    let mut body = Body::decode(&env.body).unwrap();
    f(&mut body);
    env.body = body.encode();
    SignedEnvelope::seal(&identity(seat), &env).to_wire()
}

pub fn body_of(bytes: &[u8]) -> Body {
    let signed = SignedEnvelope::from_wire(bytes).unwrap();
    let env: Envelope = encoding::decode(&signed.bytes).unwrap();
    Body::decode(&env.body).unwrap()
}
