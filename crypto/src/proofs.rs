//! Schnorr proofs of knowledge of a hand key and Chaum–Pedersen (DLEQ) proofs of decryption
//! shares, each bound to the hand context, the seat and (for shares) the deck position.
//! Nonces are derived from the secret and the statement, so none is ever reused.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
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

/// The public inputs of one decryption share.
#[derive(Debug, Clone, Copy)]
pub struct ShareStatement<'a> {
    /// The hand context.
    pub hctx: &'a [u8; 32],
    /// The seat giving the share.
    pub seat: u8,
    /// The deck position.
    pub pos: u16,
    /// The seat's hand key `X = x·G`.
    pub x_pub: &'a RistrettoPoint,
    /// The ciphertext's `C1`.
    pub c1: &'a RistrettoPoint,
    /// The share `D = x·C1`.
    pub d: &'a RistrettoPoint,
}

fn dleq_challenge(s: &ShareStatement<'_>, a1: &RistrettoPoint, a2: &RistrettoPoint) -> Scalar {
    hash_scalar(
        label::DLEQ,
        &[
            s.hctx,
            &[s.seat],
            &s.pos.to_le_bytes(),
            s.x_pub.compress().as_bytes(),
            s.c1.compress().as_bytes(),
            s.d.compress().as_bytes(),
            a1.compress().as_bytes(),
            a2.compress().as_bytes(),
        ],
    )
}

/// Computes the share `D = x·C1` and proves `log_G X = log_C1 D`.
pub fn prove_share(
    hctx: &[u8; 32],
    seat: u8,
    pos: u16,
    x: &Scalar,
    c1: &RistrettoPoint,
) -> (RistrettoPoint, Proof) {
    let x_pub = x * RISTRETTO_BASEPOINT_TABLE;
    let d = x * c1;
    let t = hash_scalar(
        label::NONCE,
        &[
            b"dleq",
            x.as_bytes(),
            hctx,
            &[seat],
            &pos.to_le_bytes(),
            c1.compress().as_bytes(),
        ],
    );
    let a1 = &t * RISTRETTO_BASEPOINT_TABLE;
    let a2 = t * c1;
    let statement = ShareStatement {
        hctx,
        seat,
        pos,
        x_pub: &x_pub,
        c1,
        d: &d,
    };
    let e = dleq_challenge(&statement, &a1, &a2);
    (
        d,
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
    let a1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&(-e), s.x_pub, &z);
    let a2 = z * s.c1 - e * s.d;
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
        let (d, p) = prove_share(&[1; 32], 1, 7, &x, &c1);
        let ok = ShareStatement {
            hctx: &[1; 32],
            seat: 1,
            pos: 7,
            x_pub: &x_pub,
            c1: &c1,
            d: &d,
        };
        assert!(verify_share(&ok, &p));
        let other = &hash_scalar(b"t", &[b"o"]) * RISTRETTO_BASEPOINT_TABLE;
        let variants = [
            ShareStatement {
                hctx: &[2; 32],
                ..ok
            },
            ShareStatement { seat: 2, ..ok },
            ShareStatement { pos: 8, ..ok },
            ShareStatement {
                x_pub: &other,
                ..ok
            },
            ShareStatement { c1: &other, ..ok },
            ShareStatement { d: &other, ..ok },
        ];
        for v in variants {
            assert!(!verify_share(&v, &p));
        }
        let offset = d + other;
        assert!(
            !verify_share(&ShareStatement { d: &offset, ..ok }, &p),
            "offset share"
        );
    }
}
