//! Shared test harness: four in-process seats, delivery, random play, tampering.

#![allow(dead_code, reason = "each test file uses part of the harness")]
#![expect(clippy::unwrap_used, reason = "test set-up")]

pub mod files;
pub mod hostile;
pub mod net;
pub mod sim;
pub mod table;

use std::sync::Arc;

use fairdeal_core::{Preset, Rules, Seat, SplitMix64};
use fairdeal_crypto::encoding;
use fairdeal_crypto::{Body, CardTable, Envelope, Identity, SignedEnvelope};
use fairdeal_net::hand::{Blame, DealHead, Event, HandConfig, HandSession, SessionError, Stage};

/// `seat`'s quit of hand `hand_no` at table `sid`, signed by `by` (its player, or a forger).
pub fn quit_msg(
    by: &Identity,
    sid: &[u8; 32],
    hand_no: u32,
    seat: Seat,
) -> fairdeal_net::table::msg::TableMsg {
    let sig = fairdeal_net::table::msg::Statement::Quit { hand_no, seat }.sign(by, sid);
    fairdeal_net::table::msg::TableMsg::Quit { hand_no, sig }
}

/// `by`'s signed `Replace` at table `sid`: seat `seat`'s computer player takes `key` and
/// `seed` from hand `hand_no`.
pub fn replace_msg(
    by: &Identity,
    sid: &[u8; 32],
    hand_no: u32,
    seat: Seat,
    key: fairdeal_crypto::PublicKey,
    seed: [u8; 32],
) -> fairdeal_net::table::msg::TableMsg {
    let sig = fairdeal_net::table::msg::Statement::Replace {
        hand_no,
        seat,
        key: &key,
        seed: &seed,
    }
    .sign(by, sid);
    fairdeal_net::table::msg::TableMsg::Replace {
        hand_no,
        seat,
        key,
        seed,
        sig,
    }
}

pub fn identity(seat: u8) -> Identity {
    Identity::from_secret([seat + 1; 32])
}

pub fn config(preset: Preset, dealer: Seat, hand_no: u32) -> HandConfig {
    let keys = [0, 1, 2, 3].map(|s| identity(s).public());
    HandConfig {
        sid: [9; 32],
        keys,
        rules: Rules::preset(preset),
        head: DealHead {
            hand_no,
            dealer,
            totals: [0, 0],
            prev_result: [0; 32],
        },
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
    sessions_of(&config(preset, dealer, 1), &table(preset), salt)
}

/// The four seats' sessions of the hand `cfg`, each with its test identity and the seed of
/// `salt`.
pub fn sessions_of(cfg: &HandConfig, t: &Arc<CardTable>, salt: u8) -> Vec<HandSession> {
    (0..4u8)
        .map(|i| {
            HandSession::new(
                cfg.clone(),
                Seat::from_index(usize::from(i)),
                identity(i),
                seed(i, salt),
                t.clone(),
            )
        })
        .collect()
}

/// Decides what each receiver gets of a message: (sender, receiver, bytes) → bytes or nothing.
pub type Filter<'a> = &'a mut dyn FnMut(u8, usize, &[u8]) -> Option<Vec<u8>>;

/// Everything that was broadcast, by sender, for re-delivery after a crash; and, per
/// receiver, the envelopes a filter changed, so that the sender's later envelopes are linked to
/// what that receiver got.
#[derive(Default)]
pub struct Wire {
    pub sent: Vec<(u8, Vec<u8>)>,
    /// (signer, receiver, hash as signed by the session) -> hash as delivered.
    links: std::collections::BTreeMap<(u8, usize, [u8; 32]), [u8; 32]>,
}

impl Wire {
    /// `delivered` (what the filter made of `orig`, signed by `signer`) linked to the version
    /// of the previous envelope that `to` got: a cheat that changes a message goes on signing
    /// from the changed one, as a real cheat would (not a broken chain, which is proof of
    /// equivocation by itself).
    fn relink(&mut self, signer: u8, to: usize, orig: &[u8], delivered: Vec<u8>) -> Vec<u8> {
        let (Ok(o), Ok(d)) = (
            SignedEnvelope::from_wire(orig),
            SignedEnvelope::from_wire(&delivered),
        ) else {
            return delivered;
        };
        let Ok(mut env) = encoding::decode::<Envelope>(&d.bytes) else {
            return delivered;
        };
        let d = match self.links.get(&(signer, to, env.prev)) {
            Some(&p) => {
                env.prev = p;
                SignedEnvelope::seal(&identity(signer), &env)
            }
            None => d,
        };
        if d.hash() != o.hash() {
            self.links.insert((signer, to, o.hash()), d.hash());
        }
        d.to_wire()
    }
}

/// The seat that signed an envelope, if it decodes.
pub fn signer_of(bytes: &[u8]) -> Option<u8> {
    let signed = SignedEnvelope::from_wire(bytes).ok()?;
    let env: Envelope = encoding::decode(&signed.bytes).ok()?;
    Some(env.sender)
}

/// Delivers queued messages; `filter` may drop or alter a message (sender, bytes) → bytes per
/// receiver. Returns true if anything was sent. Envelopes a seat passes on from another seat
/// (in an audit) are the relay's honest behaviour and are delivered unfiltered; a changed
/// message's successors are linked to it (see [`Wire`]).
///
/// Every delivered message must be accepted: the filters only re-sign (never corrupt), so the
/// one error allowed is [`SessionError::Finished`] at a seat whose hand is void. Anything else
/// panics, so a session that refuses valid traffic cannot pass unnoticed.
///
/// Sabotage caught (checked): `handle_message` processing a hand result but answering it with
/// an error; the hand still completes, so the old harness (which dropped every error) passed,
/// while `attack_18` now fails here.
pub fn deliver_with(seats: &mut [HandSession], wire: &mut Wire, filter: Filter<'_>) -> bool {
    let mut moved = false;
    for i in 0..seats.len() {
        while let Some(bytes) = seats[i].poll_transmit() {
            moved = true;
            wire.sent.push((i as u8, bytes.clone()));
            let own = signer_of(&bytes).is_none_or(|s| usize::from(s) == i);
            for (j, seat) in seats.iter_mut().enumerate() {
                if j == i {
                    continue;
                }
                let b = if own {
                    filter(i as u8, j, &bytes).map(|b| wire.relink(i as u8, j, &bytes, b))
                } else {
                    Some(bytes.clone())
                };
                if let Some(b) = b {
                    match seat.handle_message(&b) {
                        Ok(()) => {}
                        Err(SessionError::Finished) if seat.stage() == Stage::Void => {}
                        Err(e) => panic!("seat {j} refused a message from seat {i}: {e}"),
                    }
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

/// How one signed message is changed before its sender re-signs it (fuzzing from valid
/// traffic): at the level of the body's bytes, so every field of every kind can be hit.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// XOR one byte of the encoded body (position taken modulo the length).
    Flip { at: usize, mask: u8 },
    /// Cut the encoded body short.
    Truncate { keep: usize },
    /// Copy one element of the body's list (a deck's ciphertext, a share) over another.
    CopyItem { from: usize, to: usize },
    /// Copy one share's point `D` onto another share (a valid point, the wrong share).
    CopyShare { from: usize, to: usize },
}

pub fn mutation() -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    prop_oneof![
        6 => (any::<usize>(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        1 => any::<usize>().prop_map(|keep| Mutation::Truncate { keep }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Mutation::CopyItem { from, to }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Mutation::CopyShare { from, to }),
    ]
}

/// Re-signs `bytes` (from `seat`) with its body bytes changed by `m`: same sequence number and
/// link, validly signed. `None` if the mutation changes nothing.
pub fn mutate(bytes: &[u8], seat: u8, m: &Mutation) -> Option<Vec<u8>> {
    let signed = SignedEnvelope::from_wire(bytes).unwrap();
    let mut env: Envelope = encoding::decode(&signed.bytes).unwrap();
    let before = env.body.clone();
    match m {
        Mutation::Flip { at, mask } => {
            let i = at % env.body.len();
            env.body[i] ^= mask;
        }
        Mutation::Truncate { keep } => env.body.truncate(keep % env.body.len()),
        Mutation::CopyItem { from, to } => {
            let mut body = Body::decode(&env.body).unwrap();
            fn copy<T: Copy>(list: &mut [T], from: usize, to: usize) {
                if !list.is_empty() {
                    let n = list.len();
                    list[to % n] = list[from % n];
                }
            }
            match &mut body {
                Body::Shuffle(s) => copy(&mut s.deck, *from, *to),
                Body::Shares { items, .. } => copy(items, *from, *to),
                Body::Move { opened: items, .. } => copy(items, *from, *to),
                _ => {}
            }
            env.body = body.encode();
        }
        Mutation::CopyShare { from, to } => {
            let mut body = Body::decode(&env.body).unwrap();
            let mut ds: Vec<&mut [u8; 32]> = match &mut body {
                Body::Shares { items, .. } => items.iter_mut().map(|it| &mut it.d).collect(),
                Body::Move { opened, .. } => opened.iter_mut().map(|it| &mut it.d).collect(),
                _ => Vec::new(),
            };
            if !ds.is_empty() {
                let n = ds.len();
                let d = *ds[from % n];
                *ds[to % n] = d;
            }
            env.body = body.encode();
        }
    }
    (env.body != before).then(|| SignedEnvelope::seal(&identity(seat), &env).to_wire())
}

/// Entries in a file's order (an in-memory transcript), as `transcript::verify` reads them.
pub fn located(
    entries: impl IntoIterator<Item = fairdeal_net::transcript::Entry>,
) -> Vec<fairdeal_net::transcript::Located> {
    entries
        .into_iter()
        .enumerate()
        .map(|(index, entry)| fairdeal_net::transcript::Located {
            index,
            offset: 0,
            entry,
        })
        .collect()
}
