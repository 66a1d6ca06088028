//! The end-of-hand audit: seeds checked against commitments, every shuffle step recomputed,
//! and the plaintext order of the whole deck derived.

use crate::fault::Fault;
use crate::group::{CardTable, Ciphertext, CtBytes, compress_deck, open_deck};
use crate::hand::{HandKeys, deck_hash, seed_commit, shuffle_step};
use crate::message::HandCommit;
use crate::stream::{elgamal_secret, shuffle_plan};

/// What the audit needs, all of it public once the seeds are revealed.
#[derive(Debug, Clone, Copy)]
pub struct AuditInput<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The seat that ran each shuffle step, in order.
    pub order: [u8; 4],
    /// Each seat's commitment, by seat.
    pub commits: [&'a HandCommit; 4],
    /// Each seat's revealed seed, by seat.
    pub seeds: [[u8; 32]; 4],
    /// The signed output of each shuffle step, in step order.
    pub decks: [&'a [CtBytes]; 4],
}

/// Checks every seed and every shuffle step; returns the card id at every deck position.
///
/// # Errors
///
/// The first seat at fault and how.
pub fn audit(table: &CardTable, input: &AuditInput<'_>) -> Result<Vec<u16>, (u8, Fault)> {
    let mut keys = Vec::with_capacity(4);
    for seat in 0..4u8 {
        let s = usize::from(seat);
        let seed = &input.seeds[s];
        if seed_commit(input.hctx, seat, seed) != input.commits[s].seed_commit {
            return Err((seat, Fault::SeedMismatch));
        }
        let x = elgamal_secret(input.hctx, seat, seed);
        let key = &x * curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
        if key.compress().to_bytes() != input.commits[s].key {
            return Err((seat, Fault::KeyMismatch));
        }
        keys.push(key);
    }
    let keys = HandKeys::new([keys[0], keys[1], keys[2], keys[3]])?;
    let mut deck: Vec<Ciphertext> = open_deck(table);
    // Each step's stream is bound to the hash of the deck it shuffled: the open deck, then
    // each step's output as signed (equal to the recomputed one, or the step is refused).
    let mut input_hashes = [[0u8; 32]; 4];
    let mut input_hash = deck_hash(input.hctx, &compress_deck(&deck));
    for (k, &seat) in input.order.iter().enumerate() {
        let next = shuffle_step(
            input.hctx,
            seat,
            &input.seeds[usize::from(seat)],
            &input_hash,
            &keys,
            &deck,
        );
        if compress_deck(&next) != input.decks[k] {
            return Err((seat, Fault::ShuffleMismatch));
        }
        input_hashes[k] = input_hash;
        input_hash = deck_hash(input.hctx, input.decks[k]);
        deck = next;
    }
    // The plaintext order follows from the permutations alone: E_k[j] = E_{k-1}[perm_k[j]].
    let n = table.len() as u16;
    let perms: Vec<Vec<u16>> = input
        .order
        .iter()
        .zip(&input_hashes)
        .map(|(&seat, h)| {
            shuffle_plan(input.hctx, seat, &input.seeds[usize::from(seat)], h, n).perm
        })
        .collect();
    Ok((0..n)
        .map(|j| {
            perms
                .iter()
                .rev()
                .fold(j, |pos, perm| perm[usize::from(pos)])
        })
        .collect())
}
