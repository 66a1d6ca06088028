//! One hand's cryptography: seeds and keys, the joint key, shuffle steps and their checks,
//! decryption shares and opening cards.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::{RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::batch::{BatchStatement, prove_batch, verify_batch};
use crate::fault::Fault;
use crate::group::{CardTable, Ciphertext, CtBytes, decompress, decompress_nonzero};
use crate::hash::{hash256, label};
use crate::identity::PublicKey;
use crate::message::{HandCommit, ShareItem, SharePoint, ShuffleMsg};
use crate::proofs::{self, Encoded, ShareStatement};
use crate::stream::{elgamal_secret, shuffle_plan};

/// The context of one deal: `SHA-256(label ‖ sid ‖ hand_no ‖ dealer ‖ i32_le(total A) ‖
/// i32_le(total B) ‖ previous result hash ‖ key S ‖ key W ‖ key N ‖ key E)`. Every envelope
/// and every timeout vote of the deal is signed under it, so each seat's signatures
/// authenticate the running totals, the dealer and the previous result (a transcript cannot be
/// re-totalled without every seat's key), and who played each seat: a hand dealt again for a
/// player who came back has other keys, hence another context, so nothing signed in one deal
/// counts in the other.
pub fn hand_context(
    sid: &[u8; 32],
    hand_no: u32,
    dealer: u8,
    totals: [i32; 2],
    prev_result: &[u8; 32],
    keys: &[PublicKey; 4],
) -> [u8; 32] {
    hash256(
        label::HAND,
        &[
            sid,
            &hand_no.to_le_bytes(),
            &[dealer],
            &totals[0].to_le_bytes(),
            &totals[1].to_le_bytes(),
            prev_result,
            &keys[0].0,
            &keys[1].0,
            &keys[2].0,
            &keys[3].0,
        ],
    )
}

/// The seed commitment of `seat`.
pub fn seed_commit(hctx: &[u8; 32], seat: u8, seed: &[u8; 32]) -> [u8; 32] {
    hash256(label::SEED_COMMIT, &[hctx, &[seat], seed])
}

/// The hash of a deck as sent (`input_hash` of the next step).
pub fn deck_hash(hctx: &[u8; 32], deck: &[CtBytes]) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(deck.len() * 64);
    for ct in deck {
        bytes.extend_from_slice(&ct.c1);
        bytes.extend_from_slice(&ct.c2);
    }
    hash256(label::DECK, &[hctx, &bytes])
}

/// A seat's secrets for one hand: its seed and the key derived from it. Wiped on drop (by
/// the derived `Drop`: a hand-written one was a body no safe test can see run).
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct HandSecret {
    #[zeroize(skip)]
    hctx: [u8; 32],
    #[zeroize(skip)]
    seat: u8,
    seed: [u8; 32],
    x: Scalar,
    /// `x·G` and its encoding, computed once (public).
    #[zeroize(skip)]
    x_pub: RistrettoPoint,
    #[zeroize(skip)]
    x_pub_bytes: [u8; 32],
}

impl std::fmt::Debug for HandSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HandSecret(seat {})", self.seat)
    }
}

impl HandSecret {
    /// The secrets of `seat` for hand `hctx` from a fresh 32-byte `seed` (from the OS, by the
    /// caller, who also persists it before anything is sent).
    pub fn new(hctx: [u8; 32], seat: u8, seed: [u8; 32]) -> Self {
        let x = elgamal_secret(&hctx, seat, &seed);
        let x_pub = &x * RISTRETTO_BASEPOINT_TABLE;
        Self {
            hctx,
            seat,
            seed,
            x,
            x_pub,
            x_pub_bytes: x_pub.compress().to_bytes(),
        }
    }

    /// The seed (revealed at the end of the hand).
    pub fn seed(&self) -> [u8; 32] {
        self.seed
    }

    /// The seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The public hand key.
    pub fn public_key(&self) -> RistrettoPoint {
        self.x_pub
    }

    /// The commitment message.
    pub fn commit(&self) -> HandCommit {
        HandCommit {
            hctx: self.hctx,
            seed_commit: seed_commit(&self.hctx, self.seat, &self.seed),
            key: self.x_pub_bytes,
            pok: proofs::prove_key(&self.hctx, self.seat, &self.x),
        }
    }

    /// This seat's shuffle step on `input` (its hash computed here).
    pub fn shuffle(&self, keys: &HandKeys, input: &[Ciphertext]) -> Vec<Ciphertext> {
        let input_hash = deck_hash(&self.hctx, &crate::group::compress_deck(input));
        self.shuffle_hashed(keys, input, &input_hash)
    }

    /// This seat's shuffle step on `input`, whose [`deck_hash`] the caller has.
    pub fn shuffle_hashed(
        &self,
        keys: &HandKeys,
        input: &[Ciphertext],
        input_hash: &[u8; 32],
    ) -> Vec<Ciphertext> {
        shuffle_step(&self.hctx, self.seat, &self.seed, input_hash, keys, input)
    }

    /// This seat's decryption share of `ct` at `pos`, with its proof.
    pub fn share(&self, pos: u16, ct: &Ciphertext) -> ShareItem {
        let c1 = ct.c1.compress().to_bytes();
        let (d, proof) = proofs::prove_share(
            &self.hctx,
            self.seat,
            pos,
            &self.x,
            Encoded {
                point: &self.x_pub,
                bytes: &self.x_pub_bytes,
            },
            Encoded {
                point: &ct.c1,
                bytes: &c1,
            },
        );
        ShareItem { pos, d, proof }
    }

    /// This seat's shares of a round: `(pos, ciphertext)` for each position, in order, and one
    /// proof for them all ([`crate::batch`]).
    pub fn shares(&self, round: &[(u16, &Ciphertext)]) -> (Vec<SharePoint>, proofs::Proof) {
        let positions: Vec<u16> = round.iter().map(|(p, _)| *p).collect();
        let c1: Vec<RistrettoPoint> = round.iter().map(|(_, ct)| ct.c1).collect();
        let c1_bytes: Vec<[u8; 32]> = c1.iter().map(|c| c.compress().to_bytes()).collect();
        let d: Vec<RistrettoPoint> = c1.iter().map(|c| self.x * c).collect();
        let d_bytes: Vec<[u8; 32]> = d.iter().map(|p| p.compress().to_bytes()).collect();
        let statement = BatchStatement {
            hctx: &self.hctx,
            seat: self.seat,
            x_pub: Encoded {
                point: &self.x_pub,
                bytes: &self.x_pub_bytes,
            },
            positions: &positions,
            c1: &c1,
            c1_bytes: &c1_bytes,
            d: &d,
            d_bytes: &d_bytes,
        };
        let proof = prove_batch(&statement, &self.x);
        let items = positions
            .iter()
            .zip(d_bytes)
            .map(|(&pos, d)| SharePoint { pos, d })
            .collect();
        (items, proof)
    }

    /// Opens a card dealt to this seat, given the other three seats' verified shares.
    pub fn open_own(
        &self,
        table: &CardTable,
        ct: &Ciphertext,
        others: &[RistrettoPoint],
    ) -> Option<u16> {
        let m = ct.c2 - self.x * ct.c1 - others.iter().sum::<RistrettoPoint>();
        table.card_of(&m)
    }
}

/// Checks a seat's commitment; returns its hand key.
///
/// # Errors
///
/// [`Fault::BadKey`] or [`Fault::BadProof`].
pub fn verify_commit(
    hctx: &[u8; 32],
    seat: u8,
    commit: &HandCommit,
) -> Result<RistrettoPoint, Fault> {
    if &commit.hctx != hctx {
        return Err(Fault::WrongHand);
    }
    let key = decompress_nonzero(&commit.key).ok_or(Fault::BadKey)?;
    if !proofs::verify_key(hctx, seat, &key, &commit.pok) {
        return Err(Fault::BadProof);
    }
    Ok(key)
}

/// The four verified hand keys, the joint key `H = ΣX` and its fixed-base table.
#[derive(Clone)]
pub struct HandKeys {
    keys: [RistrettoPoint; 4],
    /// The keys' encodings (hashed into every share proof).
    encoded: [[u8; 32]; 4],
    joint: RistrettoPoint,
    table: RistrettoBasepointTable,
}

impl std::fmt::Debug for HandKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HandKeys({:?})", self.joint.compress())
    }
}

impl HandKeys {
    /// Combines four verified keys.
    ///
    /// # Errors
    ///
    /// [`Fault::DuplicateKey`] (with the later seat) if two seats share a key.
    pub fn new(keys: [RistrettoPoint; 4]) -> Result<Self, (u8, Fault)> {
        for i in 0..4 {
            for j in 0..i {
                if keys[i] == keys[j] {
                    return Err((i as u8, Fault::DuplicateKey));
                }
            }
        }
        let joint: RistrettoPoint = keys.iter().sum();
        Ok(Self {
            keys,
            encoded: keys.map(|k| k.compress().to_bytes()),
            joint,
            table: RistrettoBasepointTable::create(&joint),
        })
    }

    /// Seat `seat`'s key, or `None` for a number past 3 (never wrapped: a seat number from a
    /// peer is checked against the four keys when its envelope is verified, so `None` here
    /// is a caller's bug, refused rather than answered with another seat's key).
    pub fn key(&self, seat: u8) -> Option<&RistrettoPoint> {
        self.keys.get(usize::from(seat))
    }

    /// Seat `seat`'s key with its encoding (as [`HandKeys::key`]).
    fn encoded(&self, seat: u8) -> Option<Encoded<'_>> {
        let i = usize::from(seat);
        Some(Encoded {
            point: self.keys.get(i)?,
            bytes: self.encoded.get(i)?,
        })
    }

    /// The joint key `H`.
    pub fn joint(&self) -> &RistrettoPoint {
        &self.joint
    }
}

/// The shuffle step of `seat` from `seed` on the deck `input` whose hash is `input_hash`:
/// permute and re-randomise every card.
pub fn shuffle_step(
    hctx: &[u8; 32],
    seat: u8,
    seed: &[u8; 32],
    input_hash: &[u8; 32],
    keys: &HandKeys,
    input: &[Ciphertext],
) -> Vec<Ciphertext> {
    let plan = shuffle_plan(hctx, seat, seed, input_hash, input.len() as u16);
    plan.perm
        .iter()
        .zip(&plan.rho)
        .map(|(&from, rho)| {
            let src = input[usize::from(from)];
            Ciphertext {
                c1: src.c1 + rho * RISTRETTO_BASEPOINT_TABLE,
                c2: src.c2 + rho * &keys.table,
            }
        })
        .collect()
}

/// The immediate checks on a received shuffle step (PROTOCOL.md §5.5); returns the deck.
///
/// # Errors
///
/// The first [`Fault`] found.
pub fn check_shuffle(
    msg: &ShuffleMsg,
    hctx: &[u8; 32],
    step: u8,
    input: &[CtBytes],
    n: usize,
) -> Result<Vec<Ciphertext>, Fault> {
    if &msg.hctx != hctx {
        return Err(Fault::WrongHand);
    }
    if msg.step != step {
        return Err(Fault::OutOfOrder);
    }
    if msg.deck.len() != n {
        return Err(Fault::DeckLength);
    }
    if msg.input_hash != deck_hash(hctx, input) {
        return Err(Fault::WrongInput);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(n);
    for ct in &msg.deck {
        if !seen.insert(*ct) {
            return Err(Fault::DuplicateCiphertext);
        }
        let c = ct.decompress().ok_or(Fault::BadEncoding)?;
        if c.c1 == RistrettoPoint::identity() {
            return Err(Fault::IdentityCiphertext);
        }
        out.push(c);
    }
    Ok(out)
}

/// Checks a share from `seat` for the ciphertext at its position; returns `D`.
///
/// # Errors
///
/// [`Fault::BadEncoding`] or [`Fault::BadProof`].
pub fn verify_share(
    hctx: &[u8; 32],
    seat: u8,
    keys: &HandKeys,
    ct: &Ciphertext,
    item: &ShareItem,
) -> Result<RistrettoPoint, Fault> {
    let d = decompress(&item.d).ok_or(Fault::BadEncoding)?;
    let c1 = ct.c1.compress().to_bytes();
    let statement = ShareStatement {
        hctx,
        seat,
        pos: item.pos,
        x_pub: keys.encoded(seat).ok_or(Fault::BadKey)?,
        c1: Encoded {
            point: &ct.c1,
            bytes: &c1,
        },
        d: Encoded {
            point: &d,
            bytes: &item.d,
        },
    };
    if proofs::verify_share(&statement, &item.proof) {
        Ok(d)
    } else {
        Err(Fault::BadProof)
    }
}

/// Checks a round of shares from `seat` (`cts[i]` is the ciphertext at `items[i].pos`);
/// returns each `D`.
///
/// # Errors
///
/// [`Fault::BadEncoding`] for a share that is not a point, [`Fault::BadProof`] if the round's
/// proof fails (or `cts` and `items` differ in length).
pub fn verify_shares(
    hctx: &[u8; 32],
    seat: u8,
    keys: &HandKeys,
    cts: &[&Ciphertext],
    items: &[SharePoint],
    proof: &proofs::Proof,
) -> Result<Vec<RistrettoPoint>, Fault> {
    if cts.len() != items.len() {
        return Err(Fault::BadProof);
    }
    let d = items
        .iter()
        .map(|it| decompress(&it.d).ok_or(Fault::BadEncoding))
        .collect::<Result<Vec<_>, _>>()?;
    let positions: Vec<u16> = items.iter().map(|it| it.pos).collect();
    let c1: Vec<RistrettoPoint> = cts.iter().map(|ct| ct.c1).collect();
    let c1_bytes: Vec<[u8; 32]> = c1.iter().map(|c| c.compress().to_bytes()).collect();
    let d_bytes: Vec<[u8; 32]> = items.iter().map(|it| it.d).collect();
    let statement = BatchStatement {
        hctx,
        seat,
        x_pub: keys.encoded(seat).ok_or(Fault::BadKey)?,
        positions: &positions,
        c1: &c1,
        c1_bytes: &c1_bytes,
        d: &d,
        d_bytes: &d_bytes,
    };
    if verify_batch(&statement, proof) {
        Ok(d)
    } else {
        Err(Fault::BadProof)
    }
}

/// Opens a card with all four verified shares.
pub fn open_public(table: &CardTable, ct: &Ciphertext, shares: &[RistrettoPoint]) -> Option<u16> {
    table.card_of(&(ct.c2 - shares.iter().sum::<RistrettoPoint>()))
}
