//! The simulated hand shared by the crypto attack tests: four honest seats through the
//! shuffle chain (covert or proved), their signed evidence and the court that judges it.

#![allow(dead_code, reason = "each test file uses part of it")]
#![allow(clippy::unwrap_used, reason = "test set-up")]

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{deck_hash, hand_context, verify_commit};
use fairdeal_crypto::message::{Body, HandCommit, ShuffleMsg};
use fairdeal_crypto::{
    AuditInput, CardTable, Court, HandKeys, HandSecret, Identity, Outbox, ProofMode, PublicKey,
    SignedEnvelope, StepContext, make_step,
};

pub const SID: [u8; 32] = [7; 32];

/// Four honest seats through the shuffle chain; the test then tampers with what it needs.
pub struct Sim {
    pub ids: Vec<Identity>,
    pub keys: [PublicKey; 4],
    pub hctx: [u8; 32],
    pub secrets: Vec<HandSecret>,
    pub commits: Vec<HandCommit>,
    pub hand_keys: HandKeys,
    pub order: [u8; 4],
    pub steps: Vec<ShuffleMsg>,
    pub table: CardTable,
    pub mode: ProofMode,
}

pub fn seed(seat: u8, salt: u8) -> [u8; 32] {
    let mut s = [salt; 32];
    s[0] = seat;
    s
}

impl Sim {
    /// A covert hand (no proofs).
    pub fn new(n: u16, dealer: u8, hand_no: u32) -> Self {
        Self::with_mode(n, dealer, hand_no, ProofMode::Covert)
    }

    /// A hand whose every step carries a shuffle proof.
    pub fn proved(n: u16, dealer: u8, hand_no: u32) -> Self {
        Self::with_mode(n, dealer, hand_no, ProofMode::Proved)
    }

    pub fn with_mode(n: u16, dealer: u8, hand_no: u32, mode: ProofMode) -> Self {
        let ids: Vec<Identity> = (0..4)
            .map(|i| Identity::from_secret([i + 40; 32]))
            .collect();
        let keys = [
            ids[0].public(),
            ids[1].public(),
            ids[2].public(),
            ids[3].public(),
        ];
        let hctx = hand_context(&SID, hand_no, dealer, [0, 0], &[0; 32], &keys);
        let secrets: Vec<HandSecret> = (0..4)
            .map(|s| HandSecret::new(hctx, s, seed(s, hand_no as u8)))
            .collect();
        let commits: Vec<HandCommit> = secrets.iter().map(HandSecret::commit).collect();
        let points: Vec<RistrettoPoint> = commits
            .iter()
            .enumerate()
            .map(|(s, c)| verify_commit(&hctx, s as u8, c).unwrap())
            .collect();
        let hand_keys = HandKeys::new([points[0], points[1], points[2], points[3]]).unwrap();
        let order = [0, 1, 2, 3].map(|k| (dealer + 1 + k) % 4);
        let table = CardTable::new(n).unwrap();
        let mut sim = Self {
            ids,
            keys,
            hctx,
            secrets,
            commits,
            hand_keys,
            order,
            steps: Vec::new(),
            table,
            mode,
        };
        let mut deck = open_deck(&sim.table);
        for k in 0..4 {
            deck = sim.remake_step(k, &deck);
        }
        sim
    }

    /// Step `k` (0-based) made honestly on `input`, replacing the stored one; returns its deck.
    pub fn remake_step(
        &mut self,
        k: usize,
        input: &[fairdeal_crypto::Ciphertext],
    ) -> Vec<fairdeal_crypto::Ciphertext> {
        let seat = self.order[k];
        let input_bytes = compress_deck(input);
        let ctx = StepContext {
            hctx: &self.hctx,
            step: k as u8 + 1,
            seat,
            input_bytes: &input_bytes,
            input,
            keys: &self.hand_keys,
            mode: self.mode,
        };
        let (msg, deck) = make_step(&self.secrets[usize::from(seat)], &ctx).unwrap();
        debug_assert_eq!(msg.input_hash, deck_hash(&self.hctx, &input_bytes));
        if k < self.steps.len() {
            self.steps[k] = msg;
        } else {
            self.steps.push(msg);
        }
        deck
    }

    /// The decompressed output of step `k` (0-based; `None` is the open deck).
    pub fn deck_after(&self, k: Option<usize>) -> Vec<fairdeal_crypto::Ciphertext> {
        match k {
            None => open_deck(&self.table),
            Some(k) => self.steps[k]
                .deck
                .iter()
                .map(|c| c.decompress().unwrap())
                .collect(),
        }
    }

    pub fn final_deck(&self) -> Vec<fairdeal_crypto::Ciphertext> {
        self.steps[3]
            .deck
            .iter()
            .map(|c| c.decompress().unwrap())
            .collect()
    }

    pub fn court(&self) -> Court<'_> {
        Court {
            sid: &SID,
            keys: &self.keys,
            hctx: &self.hctx,
            order: self.order,
            table: &self.table,
            mode: self.mode,
        }
    }

    /// Every message of the hand so far, signed, in per-sender order.
    pub fn evidence(&self, extra: &[(u8, Body)]) -> Vec<SignedEnvelope> {
        let mut outboxes: Vec<Outbox> = (0..4).map(|s| Outbox::new(SID, s)).collect();
        let mut out = Vec::new();
        for (s, c) in self.commits.iter().enumerate() {
            out.push(outboxes[s].seal(&self.ids[s], Body::HandCommit(c.clone()).encode()));
        }
        for (k, step) in self.steps.iter().enumerate() {
            let s = usize::from(self.order[k]);
            out.push(outboxes[s].seal(&self.ids[s], Body::Shuffle(step.clone()).encode()));
        }
        for (s, body) in extra {
            let s = usize::from(*s);
            out.push(outboxes[s].seal(&self.ids[s], body.encode()));
        }
        out
    }

    pub fn reveals(&self) -> Vec<(u8, Body)> {
        (0..4u8)
            .map(|s| {
                (
                    s,
                    Body::HandReveal {
                        hctx: self.hctx,
                        seed: self.secrets[usize::from(s)].seed(),
                    },
                )
            })
            .collect()
    }

    pub fn audit_input(&self) -> AuditInput<'_> {
        AuditInput {
            hctx: &self.hctx,
            order: self.order,
            commits: [
                &self.commits[0],
                &self.commits[1],
                &self.commits[2],
                &self.commits[3],
            ],
            seeds: [0, 1, 2, 3].map(|s| self.secrets[s].seed()),
            decks: [
                &self.steps[0].deck,
                &self.steps[1].deck,
                &self.steps[2].deck,
                &self.steps[3].deck,
            ],
        }
    }
}
