//! The deal-level evidence helpers of the transcript check: why a seat was put out (in
//! words, with the signed messages), the result root recomputed from the file's envelopes, and
//! the claimed seat and slot of an envelope (for naming and sorting, never trusted).

use fairdeal_core::{Seat, SeatMap};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{Body, Envelope, PublicKey, SignedEnvelope, encoding};

use super::replay::Finding;
use crate::table::msg::TableMsg;

/// Why seat `out` was put out of deal `hand_no`, with the signed evidence in words.
pub(super) fn void_reason(
    hand_no: u32,
    out: Seat,
    keys: &[PublicKey; 4],
    signed: &[(PublicKey, TableMsg)],
    found: &Finding,
) -> (String, Vec<String>) {
    if let Some((Some(s), fault, evidence)) = &found.cheat
        && *s == out
    {
        return (format!("was caught cheating: {fault}"), evidence.clone());
    }
    let key = keys[out.index()];
    if signed.iter().any(|(from, m)| {
        *from == key && matches!(m, TableMsg::Quit { hand_no: h, .. } if *h == hand_no)
    }) {
        return (
            "left the table; a computer player takes the seat".to_owned(),
            vec![format!("{}'s signed quit", out.name())],
        );
    }
    let votes: Vec<String> = signed
        .iter()
        .filter_map(|(from, m)| match m {
            TableMsg::Timeout {
                hand_no: h, seat, ..
            } if *h == hand_no && *seat == out => Some(format!(
                "timeout vote signed by {}",
                SeatMap(*keys)
                    .find(|k| k == from)
                    .map_or("a former seat", Seat::name)
            )),
            _ => None,
        })
        .collect();
    if !votes.is_empty() {
        return (
            format!(
                "was silent past the grace period ({} signed timeout votes); a computer player takes the seat",
                votes.len()
            ),
            votes,
        );
    }
    (
        "was put out of the deal; no signed reason is in this file (every seat signed the next deal on it)"
            .to_owned(),
        Vec::new(),
    )
}

/// The seat an envelope claims (without trusting it), for naming a message in a fault that
/// names no seat.
pub(super) fn claimed_seat(env: &SignedEnvelope) -> Option<Seat> {
    encoding::decode::<Envelope>(&env.bytes)
        .ok()
        .and_then(|e| Seat::try_from(e.sender).ok())
}

pub(super) fn sender_seq(env: &SignedEnvelope) -> (u8, u32, [u8; 32]) {
    let e = encoding::decode::<Envelope>(&env.bytes).ok();
    (
        e.as_ref().map_or(u8::MAX, |e| e.sender),
        e.as_ref().map_or(u32::MAX, |e| e.seq),
        env.hash(),
    )
}

/// The deal's result root from the file's envelopes: every envelope but the signed results,
/// hashed in sorted order (as each seat computes it from what it processed).
pub(super) fn root_of(envelopes: &[SignedEnvelope]) -> [u8; 32] {
    let mut hashes: Vec<[u8; 32]> = envelopes
        .iter()
        .filter(|e| {
            encoding::decode::<Envelope>(&e.bytes)
                .ok()
                .and_then(|v| Body::decode(&v.body).ok())
                .is_some_and(|b| !matches!(b, Body::HandResult { .. }))
        })
        .map(SignedEnvelope::hash)
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    let refs: Vec<&[u8]> = hashes.iter().map(|h| h.as_slice()).collect();
    hash256(b"fairdeal/v1/transcript", &refs)
}
