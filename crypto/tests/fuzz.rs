//! Fuzzing from valid traffic at the crypto level: the signed messages of an honest hand (its
//! commitments, four shuffle steps, deal shares, a move's openings and the four reveals), one of
//! them mutated field by field and re-signed with its sender's key, judged by `adjudicate` on
//! the evidence an honest seat would hold. The verdict names the signer or nobody, never
//! another seat; and a message that fails a check at once always names its signer.
//!
//! The hand runs in `ProofMode::Covert` (steps without shuffle proofs; a bad shuffle is found at
//! the audit); proved steps are fuzzed in proved.rs. Messages that others build on are followed
//! honestly: after a mutated shuffle step that
//! passes the immediate checks, the later steps shuffle the mutated deck; after a message that
//! fails them, the hand stops (later messages never exist).

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::cell::Cell;

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, open_deck};
use fairdeal_crypto::hand::{
    check_shuffle, deck_hash, hand_context, verify_commit, verify_share, verify_shares,
};
use fairdeal_crypto::message::{Body, ShuffleMsg};
use fairdeal_crypto::{
    CardTable, Ciphertext, Court, Fault, HandKeys, HandSecret, Identity, Outbox, ProofMode,
    PublicKey, SignedEnvelope, adjudicate,
};
use proptest::prelude::*;

const SID: [u8; 32] = [7; 32];
const N: u16 = 108;
/// Dealer 0: the shuffle order is 1, 2, 3, 0.
const ORDER: [u8; 4] = [1, 2, 3, 0];

struct Hand {
    ids: Vec<Identity>,
    keys: [PublicKey; 4],
    hctx: [u8; 32],
    secrets: Vec<HandSecret>,
    table: CardTable,
}

impl Hand {
    fn new() -> Self {
        let ids: Vec<Identity> = (0..4)
            .map(|i| Identity::from_secret([i + 60; 32]))
            .collect();
        let keys = [0, 1, 2, 3].map(|i| ids[i].public());
        let hctx = hand_context(&SID, 1, 0, [0, 0], &[0; 32], &keys);
        let secrets = (0..4u8)
            .map(|s| {
                let mut seed = [s + 1; 32];
                seed[31] = 0xAA;
                HandSecret::new(hctx, s, seed)
            })
            .collect();
        Self {
            ids,
            keys,
            hctx,
            secrets,
            table: CardTable::new(N).unwrap(),
        }
    }

    fn court(&self) -> Court<'_> {
        Court {
            sid: &SID,
            keys: &self.keys,
            hctx: &self.hctx,
            order: ORDER,
            table: &self.table,
            mode: ProofMode::Covert,
        }
    }
}

/// How one message is changed before its sender re-signs it.
#[derive(Debug, Clone)]
enum Mutation {
    /// XOR one byte of the encoded body (position taken modulo the length).
    Flip { at: usize, mask: u8 },
    /// Cut the encoded body short.
    Truncate { keep: usize },
    /// Send another message's body as its own.
    Replace { with: usize },
    /// Copy one element of the body's list (a ciphertext of a deck, a share) over another.
    CopyItem { from: usize, to: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => (any::<usize>(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        1 => any::<usize>().prop_map(|keep| Mutation::Truncate { keep }),
        1 => any::<usize>().prop_map(|with| Mutation::Replace { with }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Mutation::CopyItem { from, to }),
    ]
}

/// The outcome of one case, for the counts the test reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// The mutated body did not decode.
    Undecodable,
    /// It decoded to another kind of body than the one due.
    WrongKind,
    /// It decoded and failed a check at once.
    RefusedAtOnce,
    /// It decoded and passed the immediate checks.
    Accepted,
}

/// The signed wire of one hand: seals each body, mutating the target on the way.
struct Wire<'a> {
    hand: &'a Hand,
    outboxes: Vec<Outbox>,
    evidence: Vec<SignedEnvelope>,
    index: usize,
    target: usize,
    mutation: &'a Mutation,
    signer: u8,
    honest: Vec<Body>,
    /// Whether a `CopyItem` changed the body.
    copied: bool,
}

fn copy_item<T: Copy>(list: &mut [T], from: usize, to: usize) {
    if !list.is_empty() {
        let n = list.len();
        list[to % n] = list[from % n];
    }
}

impl Wire<'_> {
    /// Sends `body` from `s`; returns what the others decode (None: undecodable) and whether
    /// it was the target.
    fn send(&mut self, s: u8, body: Body) -> (Option<Body>, bool) {
        let mut bytes = body.encode();
        let is_target = self.index == self.target;
        self.index += 1;
        if is_target {
            self.signer = s;
            match self.mutation {
                Mutation::Flip { at, mask } => {
                    let i = at % bytes.len();
                    bytes[i] ^= mask;
                }
                Mutation::Truncate { keep } => bytes.truncate(keep % bytes.len()),
                Mutation::Replace { with } => {
                    bytes = self.honest[with % self.honest.len()].encode();
                }
                Mutation::CopyItem { from, to } => {
                    let mut b = body.clone();
                    match &mut b {
                        Body::Shuffle(m) => copy_item(&mut m.deck, *from, *to),
                        Body::Shares { items, .. } => copy_item(items, *from, *to),
                        Body::Move { opened: items, .. } => copy_item(items, *from, *to),
                        _ => {}
                    }
                    self.copied = b != body;
                    bytes = b.encode();
                }
            }
        }
        let id = &self.hand.ids[usize::from(s)];
        self.evidence
            .push(self.outboxes[usize::from(s)].seal(id, bytes.clone()));
        (Body::decode(&bytes).ok(), is_target)
    }
}

/// Plays the hand with message `target` (in protocol order) mutated; returns the evidence an
/// honest seat holds, the signer of the mutated message, the outcome, and whether a shuffle
/// step now holds a copied ciphertext.
fn run(hand: &Hand, target: usize, m: &Mutation) -> (Vec<SignedEnvelope>, u8, Outcome, bool) {
    let mut w = Wire {
        hand,
        outboxes: (0..4).map(|s| Outbox::new(SID, s)).collect(),
        evidence: Vec::new(),
        index: 0,
        target,
        mutation: m,
        signer: 0,
        honest: honest_bodies(hand),
        copied: false,
    };
    let outcome = play(hand, &mut w);
    let copied_ciphertext = w.copied && (4..8).contains(&target);
    (w.evidence, w.signer, outcome, copied_ciphertext)
}

/// The honest seats' side: every message after the target is built on what they received,
/// and nothing follows a message that fails its immediate check.
fn play(hand: &Hand, w: &mut Wire<'_>) -> Outcome {
    let mut outcome = Outcome::Accepted;
    // Commitments.
    let mut commits = Vec::new();
    for s in 0..4u8 {
        let (got, t) = w.send(s, Body::HandCommit(hand.secrets[usize::from(s)].commit()));
        let ok = match &got {
            Some(Body::HandCommit(c)) => Some(verify_commit(&hand.hctx, s, c).is_ok()),
            _ => None,
        };
        if t {
            outcome = classify(&got, ok);
        }
        if ok != Some(true) {
            return outcome;
        }
        if let Some(Body::HandCommit(c)) = got {
            commits.push(c);
        }
    }
    let points: Vec<RistrettoPoint> = commits
        .iter()
        .enumerate()
        .map(|(s, c)| verify_commit(&hand.hctx, s as u8, c).unwrap())
        .collect();
    let keys = HandKeys::new([points[0], points[1], points[2], points[3]]).unwrap();
    // The shuffle chain: each seat shuffles what it received.
    let mut deck: Vec<Ciphertext> = open_deck(&hand.table);
    let mut input = compress_deck(&deck);
    for (k, &s) in ORDER.iter().enumerate() {
        let out = hand.secrets[usize::from(s)].shuffle(&keys, &deck);
        let msg = ShuffleMsg {
            hctx: hand.hctx,
            step: k as u8 + 1,
            input_hash: deck_hash(&hand.hctx, &input),
            deck: compress_deck(&out),
            proof: None,
        };
        let (got, t) = w.send(s, Body::Shuffle(msg));
        let checked = match &got {
            Some(Body::Shuffle(m)) => {
                Some(check_shuffle(m, &hand.hctx, k as u8 + 1, &input, N.into()).ok())
            }
            _ => None,
        };
        if t {
            outcome = classify(&got, checked.as_ref().map(Option::is_some));
        }
        let Some(Some(next)) = checked else {
            return outcome;
        };
        if let Some(Body::Shuffle(m)) = got {
            input = m.deck;
        }
        deck = next;
    }
    // Deal shares: every seat shares positions 0..12; seat 2 opens two cards in a move.
    for s in 0..4u8 {
        let secret = &hand.secrets[usize::from(s)];
        let round: Vec<(u16, &Ciphertext)> = (0..12).map(|p| (p, &deck[usize::from(p)])).collect();
        let (items, proof) = secret.shares(&round);
        let (got, t) = w.send(
            s,
            Body::Shares {
                hctx: hand.hctx,
                items,
                proof,
            },
        );
        let ok = shares_ok(hand, &keys, &deck, s, &got);
        if t {
            outcome = classify(&got, ok);
        }
        if ok != Some(true) {
            return outcome;
        }
    }
    let opened = (20..22)
        .map(|p| hand.secrets[2].share(p, &deck[usize::from(p)]))
        .collect();
    let mv = Body::Move {
        hctx: hand.hctx,
        turn: 0,
        action: vec![1, 2, 3],
        opened,
    };
    let (got, t) = w.send(2, mv);
    let ok = shares_ok(hand, &keys, &deck, 2, &got);
    if t {
        outcome = classify(&got, ok);
    }
    if ok != Some(true) {
        return outcome;
    }
    // Reveals (checked by the audit, not at once).
    for s in 0..4u8 {
        let seed = hand.secrets[usize::from(s)].seed();
        let (got, t) = w.send(
            s,
            Body::HandReveal {
                hctx: hand.hctx,
                seed,
            },
        );
        if t {
            let ok = matches!(got, Some(Body::HandReveal { .. })).then_some(true);
            outcome = classify(&got, ok);
        }
    }
    outcome
}

/// `ok`: the immediate check of the right kind of body (`None`: another kind of body).
fn classify(got: &Option<Body>, ok: Option<bool>) -> Outcome {
    match (got, ok) {
        (None, _) => Outcome::Undecodable,
        (Some(_), None) => Outcome::WrongKind,
        (Some(_), Some(false)) => Outcome::RefusedAtOnce,
        (Some(_), Some(true)) => Outcome::Accepted,
    }
}

/// The immediate check of a shares-carrying body from `s` (`None`: another kind of body).
fn shares_ok(
    hand: &Hand,
    keys: &HandKeys,
    deck: &[Ciphertext],
    s: u8,
    got: &Option<Body>,
) -> Option<bool> {
    let card = |pos: u16| deck.get(usize::from(pos));
    match got {
        Some(Body::Shares { hctx, items, proof }) => {
            let cts: Option<Vec<&Ciphertext>> = items.iter().map(|it| card(it.pos)).collect();
            Some(
                hctx == &hand.hctx
                    && cts.is_some_and(|cts| {
                        verify_shares(&hand.hctx, s, keys, &cts, items, proof).is_ok()
                    }),
            )
        }
        Some(Body::Move { hctx, opened, .. }) => Some(
            hctx == &hand.hctx
                && opened.iter().all(|it| {
                    card(it.pos).is_some_and(|ct| verify_share(&hand.hctx, s, keys, ct, it).is_ok())
                }),
        ),
        _ => None,
    }
}

/// Every honest body, in protocol order (for `Replace`).
fn honest_bodies(hand: &Hand) -> Vec<Body> {
    let commits: Vec<Body> = hand
        .secrets
        .iter()
        .map(|s| Body::HandCommit(s.commit()))
        .collect();
    let reveals = hand.secrets.iter().map(|s| Body::HandReveal {
        hctx: hand.hctx,
        seed: s.seed(),
    });
    commits.into_iter().chain(reveals).collect()
}

/// Messages in one hand: 4 commitments, 4 steps, 4 share batches, 1 move, 4 reveals.
const MESSAGES: usize = 17;

/// The property, and how often each outcome occurs (printed; that the generator reaches every
/// outcome is [`the_mutation_generator_reaches_every_outcome`]).
///
/// Sabotage caught (each checked): `adjudicate` skipping `verify_share` (a share refused at once
/// then convicts nobody); `check_shuffle` without the duplicate check (a copied ciphertext is
/// accepted); `adjudicate` blaming `court.order[k + 1]` for a bad step.
#[test]
fn mutated_signed_traffic_convicts_only_its_signer() {
    let hand = Hand::new();
    let counts = [Cell::new(0u32), Cell::new(0), Cell::new(0), Cell::new(0)];
    let convicted = Cell::new(0u32);
    // Each case replays a hand's crypto: 48 cases unless PROPTEST_CASES asks (at most 256).
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .map_or(48, |c: u32| c.min(256));
    proptest!(ProptestConfig::with_cases(cases), |(target in 0..MESSAGES, m in mutation())| {
        let (evidence, signer, outcome, copied_ciphertext) = run(&hand, target, &m);
        if copied_ciphertext {
            // Written rule, not the crate's check: a deck with a copied card is refused at once.
            prop_assert_eq!(outcome, Outcome::RefusedAtOnce);
        }
        let v = adjudicate(&hand.court(), &evidence);
        counts[outcome as usize].set(counts[outcome as usize].get() + 1);
        prop_assert!(
            v.offender.is_none() || v.offender == Some(signer),
            "message {} from seat {} ({:?}, {:?}): verdict {:?}", target, signer, m, outcome, v
        );
        if v.offender.is_some() {
            convicted.set(convicted.get() + 1);
        }
        if outcome == Outcome::Undecodable {
            prop_assert_eq!((v.offender, v.fault), (Some(signer), Some(Fault::BadEncoding)));
        }
        if outcome == Outcome::RefusedAtOnce && decodes_for_this_hand(&hand, &evidence) {
            prop_assert_eq!(v.offender, Some(signer), "{:?} {:?}", m, v);
        }
    });
    let [undecodable, wrong_kind, refused, accepted] = counts.map(|c| c.get());
    let total = undecodable + wrong_kind + refused + accepted;
    eprintln!(
        "mutated traffic: {total} cases, {undecodable} undecodable, {wrong_kind} another kind, \
         {refused} refused at once, {accepted} accepted at once; {} convicted the signer",
        convicted.get()
    );
}

/// The generator reaches every outcome the property tells apart, so that the property cannot
/// silently stop exercising the checks. On a fixed seed: the property's own draws are random
/// (each run tries new messages), and a few dozen of them need not hit every outcome.
///
/// Sabotage caught (checked): `mutation()` without its byte flips and truncations (no message
/// then fails to decode).
#[test]
fn the_mutation_generator_reaches_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let hand = Hand::new();
    let mut runner = TestRunner::new_with_rng(
        ProptestConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let draws = (0..MESSAGES, mutation());
    let mut counts = [0u32; 4];
    for _ in 0..64 {
        let (target, m) = draws.new_tree(&mut runner).unwrap().current();
        let (_, _, outcome, _) = run(&hand, target, &m);
        counts[outcome as usize] += 1;
    }
    let [undecodable, _, refused, accepted] = counts;
    assert!(
        undecodable > 0 && refused > 0 && accepted > 0,
        "undecodable, another kind, refused, accepted: {counts:?}"
    );
}

/// Whether every message in `evidence` is for this hand (a body moved to another hand's
/// context is ignored by `adjudicate`, so it cannot convict anyone).
fn decodes_for_this_hand(hand: &Hand, evidence: &[SignedEnvelope]) -> bool {
    evidence.iter().all(|e| {
        let v = e.verify(&SID, &hand.keys).unwrap();
        Body::decode(&v.envelope.body).is_ok_and(|b| b.hctx() == &hand.hctx)
    })
}
