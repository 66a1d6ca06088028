//! Proved shuffles: at a table that asks for proofs, every cheat on the deck is refused when
//! the step arrives, and `adjudicate` names the shuffler from the signed messages alone
//! (commitments and shuffle steps, no seed); honest steps always pass.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::scalar::Scalar;
use fairdeal_crypto::group::compress_deck;
use fairdeal_crypto::message::{Body, ShuffleMsg};
use fairdeal_crypto::{Ciphertext, Fault, ProofMode, StepContext, adjudicate, check_step};
use proptest::prelude::*;

mod common;

use common::Sim;

fn verdict(sim: &Sim, extra: &[(u8, Body)]) -> (Option<u8>, Option<Fault>) {
    let v = adjudicate(&sim.court(), &sim.evidence(extra));
    (v.offender, v.fault)
}

/// Checks step `k` (0-based) of `sim` as a receiving node does, with `msg` in its place.
fn check(sim: &Sim, k: usize, msg: &ShuffleMsg) -> Result<Vec<Ciphertext>, Fault> {
    let input = sim.deck_after(k.checked_sub(1));
    let input_bytes = compress_deck(&input);
    let ctx = StepContext {
        hctx: &sim.hctx,
        step: k as u8 + 1,
        seat: sim.order[k],
        input_bytes: &input_bytes,
        input: &input,
        keys: &sim.hand_keys,
        mode: sim.mode,
    };
    check_step(msg, &ctx)
}

/// A fresh encryption of `card` under the joint key.
fn encrypt(sim: &Sim, card: u16, r: u8) -> Ciphertext {
    let r = Scalar::from(r);
    Ciphertext {
        c1: &r * RISTRETTO_BASEPOINT_TABLE,
        c2: sim.table.point(card).unwrap() + r * sim.hand_keys.joint(),
    }
}

#[test]
fn honest_proved_hands_pass_every_check() {
    for (n, dealer) in [(162u16, 3u8), (108, 0)] {
        let sim = Sim::proved(n, dealer, 1);
        for k in 0..4 {
            assert!(sim.steps[k].proof.is_some());
            assert!(check(&sim, k, &sim.steps[k]).is_ok(), "{n} cards, step {k}");
        }
        assert_eq!(verdict(&sim, &[]), (None, None));
        assert_eq!(verdict(&sim, &sim.reveals()), (None, None));
    }
}

#[test]
fn the_dealer_copying_an_opponents_card_is_refused_and_named() {
    // Dealer 1: order 2, 3, 0, 1; the dealer shuffles last. Position 0 goes to seat 2, 3 to
    // the dealer. It re-randomises seat 2's ciphertext into its own position 3.
    let mut sim = Sim::proved(162, 1, 1);
    let mut deck = sim.deck_after(Some(3));
    let r = Scalar::from(77u8);
    deck[3] = Ciphertext {
        c1: deck[0].c1 + &r * RISTRETTO_BASEPOINT_TABLE,
        c2: deck[0].c2 + r * sim.hand_keys.joint(),
    };
    sim.steps[3].deck = compress_deck(&deck);
    assert_eq!(check(&sim, 3, &sim.steps[3]), Err(Fault::BadShuffleProof));
    assert_eq!(verdict(&sim, &[]), (Some(1), Some(Fault::BadShuffleProof)));
    // The same deck in covert mode passes the cheap checks (nothing is byte-equal).
    let mut covert = Sim::new(162, 1, 1);
    covert.steps[3].deck = compress_deck(&deck);
    assert!(check(&covert, 3, &covert.steps[3]).is_ok());
}

#[test]
fn planting_a_wild_card_is_refused_and_named() {
    let mut sim = Sim::proved(108, 0, 1);
    let k = 1;
    sim.steps[k].deck[5] = encrypt(&sim, 52, 9).to_bytes();
    assert_eq!(check(&sim, k, &sim.steps[k]), Err(Fault::BadShuffleProof));
    assert_eq!(
        verdict(&sim, &[]),
        (Some(sim.order[k]), Some(Fault::BadShuffleProof))
    );
}

#[test]
fn a_proof_for_another_deck_or_hand_is_refused() {
    let mut sim = Sim::proved(108, 2, 1);
    // Step 2's proof on step 3's message, and hand 2's step 1 proof on hand 1's step 1.
    let other = Sim::proved(108, 2, 2);
    let mut m = sim.steps[2].clone();
    m.proof.clone_from(&sim.steps[1].proof);
    assert_eq!(check(&sim, 2, &m), Err(Fault::BadShuffleProof));
    let mut m = sim.steps[0].clone();
    m.proof.clone_from(&other.steps[0].proof);
    assert_eq!(check(&sim, 0, &m), Err(Fault::BadShuffleProof));
    // A whole honest step of another hand fails earlier (wrong hand).
    assert_eq!(check(&sim, 0, &other.steps[0]), Err(Fault::WrongHand));
    sim.steps[0].proof.clone_from(&other.steps[0].proof);
    assert_eq!(
        verdict(&sim, &[]),
        (Some(sim.order[0]), Some(Fault::BadShuffleProof))
    );
}

#[test]
fn the_proof_mode_is_enforced_both_ways() {
    let mut sim = Sim::proved(108, 0, 1);
    let mut m = sim.steps[1].clone();
    m.proof = None;
    assert_eq!(check(&sim, 1, &m), Err(Fault::ProofMode));
    sim.steps[1].proof = None;
    assert_eq!(
        verdict(&sim, &[]),
        (Some(sim.order[1]), Some(Fault::ProofMode))
    );
    let mut covert = Sim::new(108, 0, 1);
    let mut m = covert.steps[1].clone();
    m.proof = Some(vec![0; 32]);
    assert_eq!(check(&covert, 1, &m), Err(Fault::ProofMode));
    covert.steps[1].proof = Some(vec![0; 32]);
    assert_eq!(
        verdict(&covert, &[]),
        (Some(covert.order[1]), Some(Fault::ProofMode))
    );
}

#[test]
fn a_restored_node_makes_the_same_step_bytes() {
    let mut a = Sim::proved(108, 0, 1);
    let before = a.steps.clone();
    let input = a.deck_after(Some(1));
    a.remake_step(2, &input);
    assert_eq!(a.steps, before);
}

/// What a property case tampers with.
#[derive(Debug, Clone)]
enum Tamper {
    /// XOR a byte of the proof.
    Proof(usize, u8),
    /// XOR a byte of the output deck.
    Deck(usize, u8),
    /// Check under another step number, seat, hand context or input deck.
    Step,
    Seat,
    Hctx(u8),
    Input(usize),
}

fn tamper() -> impl Strategy<Value = Tamper> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Tamper::Proof(i, x)),
        (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Tamper::Deck(i, x)),
        Just(Tamper::Step),
        Just(Tamper::Seat),
        (1..=255u8).prop_map(Tamper::Hctx),
        any::<usize>().prop_map(Tamper::Input),
    ]
}

/// One proved hand shared by every property case.
static SIM: std::sync::LazyLock<Sim> = std::sync::LazyLock::new(|| Sim::proved(108, 3, 1));

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_tampered_proof_deck_or_statement_is_refused(t in tamper()) {
        let sim = &*SIM;
        let k = 2;
        let mut msg = sim.steps[k].clone();
        let mut input = sim.deck_after(Some(k - 1));
        let mut hctx = sim.hctx;
        let (mut step, mut seat) = (k as u8 + 1, sim.order[k]);
        match t {
            Tamper::Proof(i, x) => {
                let p = msg.proof.as_mut().unwrap();
                let len = p.len();
                p[i % len] ^= x;
            }
            Tamper::Deck(i, x) => {
                let (card, byte) = ((i / 64) % msg.deck.len(), i % 64);
                let ct = &mut msg.deck[card];
                if byte < 32 { ct.c1[byte] ^= x } else { ct.c2[byte - 32] ^= x }
            }
            Tamper::Step => step += 1,
            Tamper::Seat => seat = (seat + 1) % 4,
            Tamper::Hctx(x) => hctx[0] ^= x,
            Tamper::Input(i) => {
                let len = input.len();
                input.swap(i % len, (i + 1) % len);
            }
        }
        let input_bytes = compress_deck(&input);
        // The message's own fields follow the tampered statement, so only the proof can refuse.
        if matches!(t, Tamper::Step) { msg.step = step; }
        if matches!(t, Tamper::Hctx(_)) { msg.hctx = hctx; }
        if matches!(t, Tamper::Input(_)) {
            msg.input_hash = fairdeal_crypto::hand::deck_hash(&hctx, &input_bytes);
        }
        let ctx = StepContext {
            hctx: &hctx,
            step,
            seat,
            input_bytes: &input_bytes,
            input: &input,
            keys: &sim.hand_keys,
            mode: ProofMode::Proved,
        };
        prop_assert!(check_step(&msg, &ctx).is_err(), "{:?} accepted", t);
    }
}
