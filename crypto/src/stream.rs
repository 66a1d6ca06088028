//! Deterministic derivations from a seat's hand seed (PROTOCOL.md §5.0): the shuffle
//! permutation and re-randomisers, and the per-hand ElGamal key. Pinned by golden vectors;
//! never `rand`'s helpers, whose output may change between releases.

use curve25519_dalek::scalar::Scalar;

use crate::hash::{hash512, label};

/// The byte stream `block_j = SHA-512(label ‖ hctx ‖ seat ‖ seed ‖ input_hash ‖ u32_le(j))`,
/// read in order. The input deck's hash is in it so that one seed never permutes two decks
/// the same way: two inputs shuffled in one hand (a restored step given another input) would
/// otherwise show the permutation by comparing the outputs.
pub struct Stream {
    hctx: [u8; 32],
    seat: u8,
    seed: [u8; 32],
    input_hash: [u8; 32],
    block: [u8; 64],
    used: usize,
    counter: u32,
}

impl Stream {
    /// The shuffle stream of `seat` in hand `hctx` for the input deck hashed `input_hash`
    /// ([`crate::hand::deck_hash`]).
    pub fn new(hctx: &[u8; 32], seat: u8, seed: &[u8; 32], input_hash: &[u8; 32]) -> Self {
        Self {
            hctx: *hctx,
            seat,
            seed: *seed,
            input_hash: *input_hash,
            block: [0; 64],
            used: 64,
            counter: 0,
        }
    }

    fn refill(&mut self) {
        self.block = hash512(
            label::SHUFFLE,
            &[
                &self.hctx,
                &[self.seat],
                &self.seed,
                &self.input_hash,
                &self.counter.to_le_bytes(),
            ],
        );
        self.counter = self.counter.wrapping_add(1);
        self.used = 0;
    }

    /// The next `N` bytes.
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for b in &mut out {
            if self.used == 64 {
                self.refill();
            }
            *b = self.block[self.used];
            self.used += 1;
        }
        out
    }

    /// A uniform number in `0..=max` by rejection sampling on `u32` words.
    pub fn up_to(&mut self, max: u32) -> u32 {
        let n = u64::from(max) + 1;
        let limit = (1u64 << 32) / n * n;
        loop {
            let w = u64::from(u32::from_le_bytes(self.bytes::<4>()));
            if w < limit {
                return (w % n) as u32;
            }
        }
    }

    /// A uniform scalar (64 bytes reduced wide).
    pub fn scalar(&mut self) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&self.bytes::<64>())
    }
}

/// A seat's shuffle: `output[j] = input[perm[j]] + Enc(0; rho[j])`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShufflePlan {
    /// The permutation (Fisher–Yates from the top, on the identity order).
    pub perm: Vec<u16>,
    /// One re-randomiser per output position.
    pub rho: Vec<Scalar>,
}

/// Derives the shuffle of `seat` for the deck of `n` cards hashed `input_hash`: first the
/// Fisher–Yates draws for i = n−1 down to 1, then `n` re-randomisers, all from one stream.
pub fn shuffle_plan(
    hctx: &[u8; 32],
    seat: u8,
    seed: &[u8; 32],
    input_hash: &[u8; 32],
    n: u16,
) -> ShufflePlan {
    let mut s = Stream::new(hctx, seat, seed, input_hash);
    let mut perm: Vec<u16> = (0..n).collect();
    for i in (1..usize::from(n)).rev() {
        let j = s.up_to(i as u32) as usize;
        perm.swap(i, j);
    }
    let rho = (0..n).map(|_| s.scalar()).collect();
    ShufflePlan { perm, rho }
}

/// The per-hand ElGamal secret of `seat` from its seed (never zero).
pub fn elgamal_secret(hctx: &[u8; 32], seat: u8, seed: &[u8; 32]) -> Scalar {
    let mut counter = 0u32;
    loop {
        let x = Scalar::from_bytes_mod_order_wide(&hash512(
            label::ELGAMAL,
            &[hctx, &[seat], seed, &counter.to_le_bytes()],
        ));
        if x != Scalar::ZERO {
            return x;
        }
        counter += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_plan_is_a_permutation_and_deterministic() {
        let a = shuffle_plan(&[1; 32], 2, &[3; 32], &[4; 32], 162);
        let b = shuffle_plan(&[1; 32], 2, &[3; 32], &[4; 32], 162);
        assert_eq!(a, b);
        let mut sorted = a.perm.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..162).collect::<Vec<u16>>());
        assert_ne!(
            a.perm,
            shuffle_plan(&[1; 32], 3, &[3; 32], &[4; 32], 162).perm
        );
    }

    /// The same seed on another input deck permutes and re-randomises differently.
    #[test]
    fn the_plan_depends_on_the_input_deck() {
        let a = shuffle_plan(&[1; 32], 2, &[3; 32], &[4; 32], 162);
        let b = shuffle_plan(&[1; 32], 2, &[3; 32], &[5; 32], 162);
        assert_ne!(a.perm, b.perm);
        assert_ne!(a.rho, b.rho);
    }

    #[test]
    fn up_to_is_in_range() {
        let mut s = Stream::new(&[0; 32], 0, &[0; 32], &[0; 32]);
        for max in [0u32, 1, 2, 160, u32::MAX] {
            for _ in 0..10 {
                assert!(s.up_to(max) <= max);
            }
        }
    }
}
