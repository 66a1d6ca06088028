//! Schnorr proofs of knowledge of a hand key and Chaum–Pedersen (DLEQ) proofs of decryption
//! shares, each bound to the hand context, the seat and (for shares) the deck position.
//! Nonces are derived from the secret and the statement, so none is ever reused.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;
use serde::{Deserialize, Serialize};

use crate::hash::{hash_scalar, label};

/// A proof `(e, z)` as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proof {
    /// The challenge.
    pub e: [u8; 32],
    /// The response.
    pub z: [u8; 32],
}

impl Proof {
    fn parts(&self) -> Option<(Scalar, Scalar)> {
        let e = Option::from(Scalar::from_canonical_bytes(self.e))?;
        let z = Option::from(Scalar::from_canonical_bytes(self.z))?;
        Some((e, z))
    }
}

fn pok_challenge(hctx: &[u8; 32], seat: u8, x_pub: &RistrettoPoint, a: &RistrettoPoint) -> Scalar {
    hash_scalar(
        label::POK,
        &[
            hctx,
            &[seat],
            x_pub.compress().as_bytes(),
            a.compress().as_bytes(),
        ],
    )
}

/// Proves knowledge of `x` with `X = x·G`, bound to `hctx` and `seat`.
pub fn prove_key(hctx: &[u8; 32], seat: u8, x: &Scalar) -> Proof {
    let x_pub = x * RISTRETTO_BASEPOINT_TABLE;
    let k = hash_scalar(label::NONCE, &[b"pok", x.as_bytes(), hctx, &[seat]]);
    let a = &k * RISTRETTO_BASEPOINT_TABLE;
    let e = pok_challenge(hctx, seat, &x_pub, &a);
    Proof {
        e: e.to_bytes(),
        z: (k + e * x).to_bytes(),
    }
}

/// Checks a proof of knowledge of the key `x_pub`.
pub fn verify_key(hctx: &[u8; 32], seat: u8, x_pub: &RistrettoPoint, proof: &Proof) -> bool {
    let Some((e, z)) = proof.parts() else {
        return false;
    };
    let a = RistrettoPoint::vartime_double_scalar_mul_basepoint(&(-e), x_pub, &z);
    pok_challenge(hctx, seat, x_pub, &a) == e
}

/// The public inputs of one decryption share. Each point comes with its canonical encoding
/// (`bytes == point.compress()`, the caller's promise), which is what the challenge hashes: a
/// verifier that already holds the encodings (keys, the deck, the share as sent) compresses
/// nothing twice.
#[derive(Debug, Clone, Copy)]
pub struct ShareStatement<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The seat giving the share.
    pub seat: u8,
    /// The deck position.
    pub pos: u16,
    /// The seat's hand key `X = x·G`.
    pub x_pub: Encoded<'a>,
    /// The ciphertext's `C1`.
    pub c1: Encoded<'a>,
    /// The share `D = x·C1`.
    pub d: Encoded<'a>,
}

/// A point and its canonical encoding.
#[derive(Debug, Clone, Copy)]
pub struct Encoded<'a> {
    /// The point.
    pub point: &'a RistrettoPoint,
    /// `point.compress()`.
    pub bytes: &'a [u8; 32],
}

fn dleq_challenge(s: &ShareStatement<'_>, a1: &RistrettoPoint, a2: &RistrettoPoint) -> Scalar {
    hash_scalar(
        label::DLEQ,
        &[
            s.hctx,
            &[s.seat],
            &s.pos.to_le_bytes(),
            s.x_pub.bytes,
            s.c1.bytes,
            s.d.bytes,
            a1.compress().as_bytes(),
            a2.compress().as_bytes(),
        ],
    )
}

/// Computes the share `D = x·C1` and proves `log_G X = log_C1 D`; `x_pub` is the encoding of
/// `X = x·G` (the caller's promise) and `c1` that of `C1`. Returns the encoding of `D`.
pub fn prove_share(
    hctx: &[u8; 32],
    seat: u8,
    pos: u16,
    x: &Scalar,
    x_pub: Encoded<'_>,
    c1: Encoded<'_>,
) -> ([u8; 32], Proof) {
    let d = x * c1.point;
    let d_bytes = d.compress().to_bytes();
    let t = hash_scalar(
        label::NONCE,
        &[
            b"dleq",
            x.as_bytes(),
            hctx,
            &[seat],
            &pos.to_le_bytes(),
            c1.bytes,
        ],
    );
    let a1 = &t * RISTRETTO_BASEPOINT_TABLE;
    let a2 = t * c1.point;
    let statement = ShareStatement {
        hctx,
        seat,
        pos,
        x_pub,
        c1,
        d: Encoded {
            point: &d,
            bytes: &d_bytes,
        },
    };
    let e = dleq_challenge(&statement, &a1, &a2);
    (
        d_bytes,
        Proof {
            e: e.to_bytes(),
            z: (t + e * x).to_bytes(),
        },
    )
}

/// Checks a share proof.
pub fn verify_share(s: &ShareStatement<'_>, proof: &Proof) -> bool {
    let Some((e, z)) = proof.parts() else {
        return false;
    };
    // Public inputs only: variable time is safe here.
    let a1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&(-e), s.x_pub.point, &z);
    let a2 = RistrettoPoint::vartime_multiscalar_mul([z, -e], [s.c1.point, s.d.point]);
    dleq_challenge(s, &a1, &a2) == e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::hash_scalar;

    #[test]
    fn key_proofs_bind_context_and_seat() {
        let x = hash_scalar(b"t", &[b"x"]);
        let x_pub = &x * RISTRETTO_BASEPOINT_TABLE;
        let p = prove_key(&[1; 32], 2, &x);
        assert!(verify_key(&[1; 32], 2, &x_pub, &p));
        assert!(!verify_key(&[2; 32], 2, &x_pub, &p), "other hand");
        assert!(!verify_key(&[1; 32], 3, &x_pub, &p), "other seat");
        let other = &hash_scalar(b"t", &[b"y"]) * RISTRETTO_BASEPOINT_TABLE;
        assert!(!verify_key(&[1; 32], 2, &other, &p), "other key");
    }

    #[test]
    fn share_proofs_bind_every_input() {
        let x = hash_scalar(b"t", &[b"x"]);
        let x_pub = &x * RISTRETTO_BASEPOINT_TABLE;
        let c1 = &hash_scalar(b"t", &[b"r"]) * RISTRETTO_BASEPOINT_TABLE;
        let (xb, c1b) = (x_pub.compress().to_bytes(), c1.compress().to_bytes());
        let enc = |point, bytes| Encoded { point, bytes };
        let (db, p) = prove_share(&[1; 32], 1, 7, &x, enc(&x_pub, &xb), enc(&c1, &c1b));
        let d = x * c1;
        assert_eq!(db, d.compress().to_bytes());
        let ok = ShareStatement {
            hctx: &[1; 32],
            seat: 1,
            pos: 7,
            x_pub: enc(&x_pub, &xb),
            c1: enc(&c1, &c1b),
            d: enc(&d, &db),
        };
        assert!(verify_share(&ok, &p));
        let other = &hash_scalar(b"t", &[b"o"]) * RISTRETTO_BASEPOINT_TABLE;
        let ob = other.compress().to_bytes();
        let variants = [
            ShareStatement {
                hctx: &[2; 32],
                ..ok
            },
            ShareStatement { seat: 2, ..ok },
            ShareStatement { pos: 8, ..ok },
            ShareStatement {
                x_pub: enc(&other, &ob),
                ..ok
            },
            ShareStatement {
                c1: enc(&other, &ob),
                ..ok
            },
            ShareStatement {
                d: enc(&other, &ob),
                ..ok
            },
        ];
        for v in variants {
            assert!(!verify_share(&v, &p));
        }
        let offset = d + other;
        let offb = offset.compress().to_bytes();
        assert!(
            !verify_share(
                &ShareStatement {
                    d: enc(&offset, &offb),
                    ..ok
                },
                &p
            ),
            "offset share"
        );
    }
}
