//! One Chaum–Pedersen proof for a whole round of one seat's decryption shares.
//!
//! The seat shows `log_G X = log_{C1_i} D_i` for every position `i` of the round at once: with
//! weights `w_i` that hash the whole statement (so they are fixed only after every `D_i` is),
//! it proves `log_G X = log_C D` for `C = Σ w_i·C1_i`, `D = Σ w_i·D_i`. A wrong `D_i` makes
//! `D ≠ x·C` except with probability 1/ℓ. Checking a round of 46 shares is one multiscalar
//! multiplication instead of 46 proofs (docs/PROTOCOL.md, "Primitives", shares). Single
//! openings (a card shown in a move) keep their own proofs ([`crate::proofs`]).

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;

use crate::hash::{hash_scalar, hash256, label};
use crate::proofs::{Encoded, Proof};

/// The public inputs of a round of shares from one seat: position `i`'s `C1` and share `D`,
/// each with its canonical encoding (the caller's promise, as for
/// [`crate::proofs::ShareStatement`]). The slices are parallel.
#[derive(Debug, Clone, Copy)]
pub struct BatchStatement<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The seat giving the shares.
    pub seat: u8,
    /// The seat's hand key `X = x·G`.
    pub x_pub: Encoded<'a>,
    /// The deck positions, in the order sent.
    pub positions: &'a [u16],
    /// Each position's `C1`.
    pub c1: &'a [RistrettoPoint],
    /// Their encodings.
    pub c1_bytes: &'a [[u8; 32]],
    /// Each share `D_i = x·C1_i`.
    pub d: &'a [RistrettoPoint],
    /// Their encodings (as sent).
    pub d_bytes: &'a [[u8; 32]],
}

impl BatchStatement<'_> {
    fn well_formed(&self) -> bool {
        let k = self.positions.len();
        self.c1.len() == k
            && self.c1_bytes.len() == k
            && self.d.len() == k
            && self.d_bytes.len() == k
    }

    /// `SHA-256(label ‖ "statement" ‖ hctx ‖ seat ‖ X ‖ u32_le(k) ‖ (pos_le ‖ C1 ‖ D)*)`.
    fn digest(&self) -> [u8; 32] {
        let mut items = Vec::with_capacity(self.positions.len() * 66);
        for ((pos, c1), d) in self.positions.iter().zip(self.c1_bytes).zip(self.d_bytes) {
            items.extend_from_slice(&pos.to_le_bytes());
            items.extend_from_slice(c1);
            items.extend_from_slice(d);
        }
        hash256(
            label::DLEQ_BATCH,
            &[
                b"statement",
                self.hctx,
                &[self.seat],
                self.x_pub.bytes,
                &(self.positions.len() as u32).to_le_bytes(),
                &items,
            ],
        )
    }
}

/// The weights `w_i = H(label ‖ "weight" ‖ digest ‖ u32_le(i))`.
fn weights(digest: &[u8; 32], k: usize) -> Vec<Scalar> {
    (0..k as u32)
        .map(|i| hash_scalar(label::DLEQ_BATCH, &[b"weight", digest, &i.to_le_bytes()]))
        .collect()
}

fn challenge(digest: &[u8; 32], a1: &RistrettoPoint, a2: &RistrettoPoint) -> Scalar {
    hash_scalar(
        label::DLEQ_BATCH,
        &[
            b"challenge",
            digest,
            a1.compress().as_bytes(),
            a2.compress().as_bytes(),
        ],
    )
}

/// Proves the round `s` with the secret `x` (`X = x·G`, `D_i = x·C1_i`, the caller's
/// promise: a proof of a false statement simply fails to verify). The nonce is derived from
/// `x` and the statement, so a restored node re-creates the same proof.
pub fn prove_batch(s: &BatchStatement<'_>, x: &Scalar) -> Proof {
    let digest = s.digest();
    let w = weights(&digest, s.positions.len());
    // Public points and public weights: variable time is safe.
    let c = RistrettoPoint::vartime_multiscalar_mul(&w, s.c1);
    let t = hash_scalar(label::NONCE, &[b"dleq-batch", x.as_bytes(), &digest]);
    let a1 = &t * RISTRETTO_BASEPOINT_TABLE;
    let a2 = t * c;
    let e = challenge(&digest, &a1, &a2);
    Proof {
        e: e.to_bytes(),
        z: (t + e * x).to_bytes(),
    }
}

/// Checks a round's proof: `a1 = z·G − e·X`, `a2 = Σ (z·w_i)·C1_i − Σ (e·w_i)·D_i` in one
/// multiscalar multiplication, and `e` must be their challenge.
pub fn verify_batch(s: &BatchStatement<'_>, proof: &Proof) -> bool {
    if !s.well_formed() {
        return false;
    }
    let Some(e) = Option::<Scalar>::from(Scalar::from_canonical_bytes(proof.e)) else {
        return false;
    };
    let Some(z) = Option::<Scalar>::from(Scalar::from_canonical_bytes(proof.z)) else {
        return false;
    };
    let digest = s.digest();
    let w = weights(&digest, s.positions.len());
    let a1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&(-e), s.x_pub.point, &z);
    let scalars = w.iter().map(|w| z * w).chain(w.iter().map(|w| -(e * w)));
    let a2 = RistrettoPoint::vartime_multiscalar_mul(scalars, s.c1.iter().chain(s.d));
    challenge(&digest, &a1, &a2) == e
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Round {
        x: Scalar,
        x_pub: RistrettoPoint,
        x_bytes: [u8; 32],
        positions: Vec<u16>,
        c1: Vec<RistrettoPoint>,
        c1_bytes: Vec<[u8; 32]>,
        d: Vec<RistrettoPoint>,
        d_bytes: Vec<[u8; 32]>,
    }

    fn round(k: u16) -> Round {
        let x = hash_scalar(b"t", &[b"x"]);
        let x_pub = &x * RISTRETTO_BASEPOINT_TABLE;
        let positions: Vec<u16> = (0..k).map(|i| 3 * i + 1).collect();
        let c1: Vec<RistrettoPoint> = positions
            .iter()
            .map(|p| &hash_scalar(b"t", &[&p.to_le_bytes()]) * RISTRETTO_BASEPOINT_TABLE)
            .collect();
        let d: Vec<RistrettoPoint> = c1.iter().map(|c| x * c).collect();
        Round {
            x,
            x_pub,
            x_bytes: x_pub.compress().to_bytes(),
            positions,
            c1_bytes: c1.iter().map(|c| c.compress().to_bytes()).collect(),
            c1,
            d_bytes: d.iter().map(|c| c.compress().to_bytes()).collect(),
            d,
        }
    }

    impl Round {
        fn statement(&self) -> BatchStatement<'_> {
            BatchStatement {
                hctx: &[1; 32],
                seat: 2,
                x_pub: Encoded {
                    point: &self.x_pub,
                    bytes: &self.x_bytes,
                },
                positions: &self.positions,
                c1: &self.c1,
                c1_bytes: &self.c1_bytes,
                d: &self.d,
                d_bytes: &self.d_bytes,
            }
        }
    }

    #[test]
    fn an_honest_round_verifies_for_any_size() {
        for k in [0u16, 1, 2, 46] {
            let r = round(k);
            let p = prove_batch(&r.statement(), &r.x);
            assert!(verify_batch(&r.statement(), &p), "{k} shares");
            assert_eq!(p, prove_batch(&r.statement(), &r.x), "deterministic");
        }
    }

    #[test]
    fn one_wrong_share_fails_the_round_wherever_it_is() {
        // The sabotage each case catches: a verifier that skipped the D terms, weighted them
        // all alike, or checked only the first share would accept one of these.
        for bad in [0usize, 7, 45] {
            let mut r = round(46);
            r.d[bad] += RISTRETTO_BASEPOINT_TABLE.basepoint();
            r.d_bytes[bad] = r.d[bad].compress().to_bytes();
            // Even proved honestly over the altered statement, the proof must fail.
            let p = prove_batch(&r.statement(), &r.x);
            assert!(!verify_batch(&r.statement(), &p), "share {bad}");
        }
        // Two wrong shares that cancel under equal weights.
        let mut r = round(46);
        let g = RISTRETTO_BASEPOINT_TABLE.basepoint();
        r.d[3] += g;
        r.d[4] -= g;
        for i in [3, 4] {
            r.d_bytes[i] = r.d[i].compress().to_bytes();
        }
        let p = prove_batch(&r.statement(), &r.x);
        assert!(!verify_batch(&r.statement(), &p), "cancelling pair");
    }

    #[test]
    fn a_proof_is_bound_to_every_input() {
        let r = round(5);
        let p = prove_batch(&r.statement(), &r.x);
        let st = r.statement();
        let swapped_pos = [4u16, 1, 7, 10, 13];
        let short = &r.positions[..4];
        let other = round(6);
        let variants = [
            BatchStatement {
                hctx: &[2; 32],
                ..st
            },
            BatchStatement { seat: 3, ..st },
            BatchStatement {
                positions: &swapped_pos,
                ..st
            },
            BatchStatement {
                positions: short,
                ..st
            },
            BatchStatement {
                c1: &other.c1[1..],
                c1_bytes: &other.c1_bytes[1..],
                ..st
            },
        ];
        for (i, v) in variants.iter().enumerate() {
            assert!(!verify_batch(v, &p), "variant {i}");
        }
        // Slices of different lengths are refused, whichever one is short (never zipped short,
        // never a panic in the multiplication). Sabotage caught (checked): `well_formed` with
        // `||` for `&&` (dalek's multiplication then panics on the mismatched lengths).
        let shapes = [
            BatchStatement {
                c1: &r.c1[..4],
                ..st
            },
            BatchStatement {
                c1_bytes: &r.c1_bytes[..4],
                ..st
            },
            BatchStatement { d: &r.d[..4], ..st },
            BatchStatement {
                d_bytes: &r.d_bytes[..4],
                ..st
            },
        ];
        for (i, v) in shapes.iter().enumerate() {
            assert!(!verify_batch(v, &p), "shape {i}");
        }
        let mut bad = p;
        bad.z[0] ^= 1;
        assert!(!verify_batch(&st, &bad), "response");
        let mut bad = p;
        bad.e = [0xff; 32];
        assert!(!verify_batch(&st, &bad), "non-canonical challenge");
        // Another key's holder cannot prove this round.
        let y = hash_scalar(b"t", &[b"y"]);
        assert!(!verify_batch(&st, &prove_batch(&st, &y)), "other secret");
    }
}
