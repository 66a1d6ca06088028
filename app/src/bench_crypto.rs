//! `fairdeal bench crypto`: single-thread cost of the fair deal per node (run a release build).

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_crypto::group::{compress_deck, decompress, open_deck};
use fairdeal_crypto::hand::{
    check_shuffle, deck_hash, hand_context, open_public, verify_commit, verify_share, verify_shares,
};
use fairdeal_crypto::message::ShuffleMsg;
use fairdeal_crypto::shuffle_proof::{self, Statement, Witness};
use fairdeal_crypto::stream::shuffle_plan;
use fairdeal_crypto::{
    AuditInput, CardTable, Ciphertext, CtBytes, HandKeys, HandSecret, Identity, ProofMode,
    PublicKey, StepContext, audit, check_step, make_step,
};

const RUNS: usize = 15;

fn median_ms(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Times `f` over [`RUNS`] runs; the median in milliseconds.
fn time(mut f: impl FnMut()) -> f64 {
    median_ms(
        (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

struct Hand {
    hctx: [u8; 32],
    secrets: Vec<HandSecret>,
    keys: HandKeys,
    steps: Vec<ShuffleMsg>,
    deck: Vec<Ciphertext>,
}

fn hand(table: &CardTable, salt: u8) -> Hand {
    let hctx = hand_context(
        &[salt; 32],
        1,
        0,
        [0, 0],
        &[0; 32],
        &[PublicKey([salt; 32]); 4],
    );
    let secrets: Vec<HandSecret> = (0..4)
        .map(|s| HandSecret::new(hctx, s, [s + salt; 32]))
        .collect();
    let pts: Vec<RistrettoPoint> = secrets.iter().map(HandSecret::public_key).collect();
    let keys = HandKeys::new([pts[0], pts[1], pts[2], pts[3]])
        .unwrap_or_else(|_| unreachable!("distinct seeds"));
    let mut deck = open_deck(table);
    let mut steps = Vec::new();
    for k in 0..4u8 {
        let input = compress_deck(&deck);
        deck = secrets[usize::from((1 + k) % 4)].shuffle(&keys, &deck);
        steps.push(ShuffleMsg {
            hctx,
            step: k + 1,
            input_hash: deck_hash(&hctx, &input),
            deck: compress_deck(&deck),
            proof: None,
        });
    }
    Hand {
        hctx,
        secrets,
        keys,
        steps,
        deck,
    }
}

/// Runs the crypto benchmark for a 162-card pack and prints medians per node.
///
/// # Errors
///
/// A failure to write.
pub fn crypto(out: &mut impl Write) -> Result<()> {
    if cfg!(debug_assertions) {
        writeln!(
            out,
            "note: this is a debug build; run `cargo run --release -- bench crypto`"
        )?;
    }
    let n = 162u16;
    let table_ms = time(|| {
        black_box(CardTable::new(n).ok());
    });
    let table = CardTable::new(n).map_err(|e| anyhow::anyhow!("{e}"))?;
    let h = hand(&table, 1);
    let me = 2usize; // the node we measure

    let step_ms = time(|| {
        black_box(compress_deck(&h.secrets[me].shuffle(&h.keys, &h.deck)));
    });
    let proofs = prove_and_check(&h, me)?;
    // Hand start at one node: own keys and commit, verify three commits, joint key; own
    // shuffle step; check the four signed decks; one round of 46 shares out; three rounds of
    // 46 checked (one proof each). The other seats' rounds are made before the timing.
    let commits: Vec<_> = h.secrets.iter().map(HandSecret::commit).collect();
    let round: Vec<(u16, &Ciphertext)> = (0..46u16).map(|p| (p, &h.deck[usize::from(p)])).collect();
    let cts: Vec<&Ciphertext> = round.iter().map(|(_, ct)| *ct).collect();
    let rounds: Vec<(u8, _)> = (0..4u8)
        .filter(|&s| usize::from(s) != me)
        .map(|s| (s, h.secrets[usize::from(s)].shares(&round)))
        .collect();
    let hand_start_ms = time(|| {
        let secret = HandSecret::new(h.hctx, me as u8, [9; 32]);
        black_box(secret.commit());
        let mut pts = Vec::new();
        for (s, c) in commits.iter().enumerate() {
            pts.push(verify_commit(&h.hctx, s as u8, c).unwrap_or_else(|_| unreachable!()));
        }
        let keys =
            HandKeys::new([pts[0], pts[1], pts[2], pts[3]]).unwrap_or_else(|_| unreachable!());
        let mut input = compress_deck(&open_deck(&table));
        for (k, step) in h.steps.iter().enumerate() {
            if k == me {
                black_box(compress_deck(&h.secrets[me].shuffle(&keys, &h.deck)));
            }
            black_box(
                check_shuffle(step, &h.hctx, k as u8 + 1, &input, usize::from(n))
                    .unwrap_or_else(|_| unreachable!()),
            );
            input.clone_from(&step.deck);
        }
        black_box(h.secrets[me].shares(&round));
        for (s, (items, proof)) in &rounds {
            black_box(verify_shares(&h.hctx, *s, &keys, &cts, items, proof).is_ok());
        }
    });

    // A private draw of one card: the drawer checks three rounds of one share each (one proof
    // each) and opens the card.
    let pos = 70u16;
    let ct = h.deck[usize::from(pos)];
    let others: Vec<_> = (0..4usize)
        .filter(|&s| s != me)
        .map(|s| (s as u8, h.secrets[s].shares(&[(pos, &ct)])))
        .collect();
    let draw_ms = time(|| {
        let ds: Vec<RistrettoPoint> = others
            .iter()
            .flat_map(|(s, (items, proof))| {
                verify_shares(&h.hctx, *s, &h.keys, &[&ct], items, proof)
                    .unwrap_or_else(|_| unreachable!())
            })
            .collect();
        black_box(h.secrets[me].open_own(&table, &ct, &ds));
    });
    // At each other node: make its share, check the two others' shares.
    let draw_other_ms = time(|| {
        black_box(h.secrets[0].shares(&[(pos, &ct)]));
        for (s, (items, proof)) in others.iter().take(2) {
            black_box(verify_shares(&h.hctx, *s, &h.keys, &[&ct], items, proof).is_ok());
        }
    });
    // A public reveal of a card from a hand: check the owner's share, combine with the three
    // shares already held.
    let all: Vec<_> = (0..4usize).map(|s| h.secrets[s].share(pos, &ct)).collect();
    let held: Vec<RistrettoPoint> = all
        .iter()
        .skip(1)
        .map(|i| decompress(&i.d).unwrap_or_else(|| unreachable!()))
        .collect();
    let reveal_ms = time(|| {
        let d0 = verify_share(&h.hctx, 0, &h.keys, &ct, &all[0]).unwrap_or_else(|_| unreachable!());
        let mut ds = held.clone();
        ds.push(d0);
        black_box(open_public(&table, &ct, &ds));
    });
    let input = AuditInput {
        hctx: &h.hctx,
        order: [1, 2, 3, 0],
        commits: [&commits[0], &commits[1], &commits[2], &commits[3]],
        seeds: [0u8, 1, 2, 3].map(|s| h.secrets[usize::from(s)].seed()),
        decks: [
            &h.steps[0].deck,
            &h.steps[1].deck,
            &h.steps[2].deck,
            &h.steps[3].deck,
        ],
    };
    let audit_ms = time(|| {
        black_box(audit(&table, &input).is_ok());
    });
    let id = Identity::from_secret([1; 32]);
    let msg = vec![7u8; 600];
    let sign_ms = time(|| {
        for _ in 0..100 {
            black_box(id.sign(&msg));
        }
    }) / 100.0;
    let sig = id.sign(&msg);
    let verify_ms = time(|| {
        for _ in 0..100 {
            black_box(id.public().verify(&msg, &sig).is_ok());
        }
    }) / 100.0;
    // Whole hands between four in-process sessions (signatures, chains, shares, the audit and
    // the rules replay included; the random player's choices excluded): CPU per node.
    let (session_start, session_total, moves) = whole_hands(6, ProofMode::Proved);
    let (covert_start, covert_total, _) = whole_hands(6, ProofMode::Covert);
    writeln!(
        out,
        "card table (162 points + lookup): {table_ms:.2} ms (once)"
    )?;
    writeln!(
        out,
        "shuffle step (derive, 162 re-masks, compress): {step_ms:.2} ms"
    )?;
    writeln!(
        out,
        "shuffle proof (Bayer–Groth, {} × {}, {} bytes): prove {:.2} ms alone, {:.2} ms with the step; verify {:.2} ms alone, {:.2} ms with the deck checks",
        proofs.split.0,
        proofs.split.1,
        proofs.bytes,
        proofs.prove_alone,
        proofs.prove_step,
        proofs.verify_alone,
        proofs.verify_step
    )?;
    writeln!(
        out,
        "  for comparison, in 3 rows ({} bytes): prove {:.2} ms alone, verify {:.2} ms alone",
        proofs.rows3.2, proofs.rows3.0, proofs.rows3.1
    )?;
    writeln!(
        out,
        "private draw at each other node (share + 2 checks): {draw_other_ms:.3} ms"
    )?;
    writeln!(out, "public reveal per node: {reveal_ms:.3} ms")?;
    writeln!(
        out,
        "signature: sign {sign_ms:.3} ms, verify_strict {verify_ms:.3} ms (600 B)"
    )?;
    writeln!(
        out,
        "hand start, crypto alone (keys, 4 deck checks, own step, a round of 46 shares out, 3 rounds checked): {hand_start_ms:.1} ms"
    )?;
    writeln!(
        out,
        "whole samba hands through HandSession: {moves:.0} moves per hand; start {session_start:.1} ms, total {session_total:.1} ms per node"
    )?;
    writeln!(out, "medians, one thread, per node:")?;
    writeln!(
        out,
        "shuffle proof ms: {:.1} (covert step {step_ms:.1})",
        proofs.prove_step
    )?;
    writeln!(
        out,
        "shuffle verify ms: {:.1} (covert check {:.1})",
        proofs.verify_step, proofs.check_covert
    )?;
    writeln!(
        out,
        "hand start ms: {session_start:.1} (covert {covert_start:.1})"
    )?;
    writeln!(out, "draw ms: {draw_ms:.3}")?;
    writeln!(out, "audit ms: {audit_ms:.1}")?;
    writeln!(
        out,
        "hand total ms: {session_total:.1} (covert {covert_total:.1})"
    )?;
    Ok(())
}

/// Plays `hands` Samba hands between four sessions; the medians over nodes and hands of the CPU
/// time each node spent in its session up to `Dealt` and in total, and the mean moves per hand.
fn whole_hands(hands: u8, proofs: ProofMode) -> (f64, f64, f64) {
    use std::sync::Arc;
    use std::time::Duration;

    use fairdeal_core::{Preset, Rules, Seat, SplitMix64};
    use fairdeal_net::hand::{DealHead, Event, HandConfig, HandSession, Stage};

    let rules = Rules::preset(Preset::Samba);
    let Ok(table) = CardTable::new(rules.deck_size() as u16) else {
        return (0.0, 0.0, 0.0);
    };
    let table = Arc::new(table);
    let mut starts = Vec::new();
    let mut totals = Vec::new();
    let mut moves = 0usize;
    for h in 0..hands {
        let ids: Vec<Identity> = (0..4).map(|i| Identity::from_secret([i + 1; 32])).collect();
        let keys = [
            ids[0].public(),
            ids[1].public(),
            ids[2].public(),
            ids[3].public(),
        ];
        let cfg = HandConfig {
            sid: [h; 32],
            keys,
            rules: rules.clone(),
            head: DealHead {
                hand_no: 1,
                dealer: Seat::from_index(usize::from(h)),
                totals: [0, 0],
                prev_result: [0; 32],
            },
            proofs,
            bots: Default::default(),
        };
        let mut spent = [Duration::ZERO; 4];
        let mut start = [None; 4];
        let mut seats: Vec<HandSession> = Vec::new();
        for (i, id) in ids.into_iter().enumerate() {
            let t = Instant::now();
            seats.push(HandSession::new(
                cfg.clone(),
                Seat::from_index(i),
                id,
                [h.wrapping_mul(7) ^ i as u8; 32],
                table.clone(),
            ));
            spent[i] += t.elapsed();
        }
        let mut rng = SplitMix64::new(u64::from(h));
        for _ in 0..1_000_000 {
            let mut moved = false;
            for i in 0..4 {
                while let Some(bytes) = seats[i].poll_transmit() {
                    moved = true;
                    for (j, seat) in seats.iter_mut().enumerate() {
                        if j != i {
                            let t = Instant::now();
                            let _ = seat.handle_message(&bytes);
                            spent[j] += t.elapsed();
                        }
                    }
                }
            }
            for (i, s) in seats.iter_mut().enumerate() {
                while let Some(e) = s.poll_event() {
                    if e == Event::Dealt {
                        start[i] = Some(spent[i]);
                    }
                    if matches!(e, Event::Moved { .. }) && i == 0 {
                        moves += 1;
                    }
                }
                if s.my_turn()
                    && let Some(mv) = s.view().and_then(|v| v.random_legal_move(&mut rng))
                {
                    let t = Instant::now();
                    let _ = s.submit(mv);
                    spent[i] += t.elapsed();
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        if seats.iter().all(|s| s.stage() == Stage::Done) {
            for i in 0..4 {
                starts.push(start[i].unwrap_or_default().as_secs_f64() * 1e3);
                totals.push(spent[i].as_secs_f64() * 1e3);
            }
        }
    }
    let n = f64::from(hands);
    (median_ms(starts), median_ms(totals), moves as f64 / n)
}

/// The shuffle proof's figures for one 162-card step.
struct ProofFigures {
    bytes: usize,
    /// The proof alone, on a shuffled deck.
    prove_alone: f64,
    /// The whole proved step: shuffle, compress, proof.
    prove_step: f64,
    /// The proof check alone, on decompressed decks.
    verify_alone: f64,
    /// The whole check of a received proved step: length, encodings, duplicates, input hash,
    /// decompression, proof.
    verify_step: f64,
    /// The same check in covert mode (no proof).
    check_covert: f64,
    /// The protocol's split `(m, n)`.
    split: (usize, usize),
    /// For comparison, proving and checking alone with the deck in three rows (protocol 5's
    /// split), and that proof's length.
    rows3: (f64, f64, usize),
}

/// Measures proving and checking step `me + 1` of `h` (seat `me + 1` shuffles it).
fn prove_and_check(h: &Hand, me: usize) -> Result<ProofFigures> {
    let seat = (1 + me) % 4;
    let k = me; // step k + 1 is run by seat (1 + k) % 4
    let input = decompressed(&h.steps[k - 1].deck);
    let input_bytes = h.steps[k - 1].deck.clone();
    let ctx = |mode| StepContext {
        hctx: &h.hctx,
        step: k as u8 + 1,
        seat: seat as u8,
        input_bytes: &input_bytes,
        input: &input,
        keys: &h.keys,
        mode,
    };
    let (msg, out) =
        make_step(&h.secrets[seat], &ctx(ProofMode::Proved)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let proof = msg.proof.clone().unwrap_or_default();
    let params = shuffle_proof::params(out.len()).map_err(|e| anyhow::anyhow!("{e}"))?;
    let plan = shuffle_plan(
        &h.hctx,
        seat as u8,
        &h.secrets[seat].seed(),
        &msg.input_hash,
        out.len() as u16,
    );
    let st = Statement {
        hctx: &h.hctx,
        seat: seat as u8,
        step: k as u8 + 1,
        input_hash: &msg.input_hash,
        input: &input,
        output_bytes: &msg.deck,
        output: &out,
        joint: h.keys.joint(),
    };
    let wit = Witness {
        perm: &plan.perm,
        rho: &plan.rho,
    };
    let seed = h.secrets[seat].seed();
    let prove_alone = time(|| {
        black_box(shuffle_proof::prove(&params, &st, &wit, &seed).is_ok());
    });
    let prove_step = time(|| {
        black_box(make_step(&h.secrets[seat], &ctx(ProofMode::Proved)).is_ok());
    });
    let verify_alone = time(|| {
        black_box(shuffle_proof::verify(&params, &st, &proof).is_ok());
    });
    let rows3 = shuffle_proof::ShuffleParams::with_rows(out.len(), 3)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let proof3 =
        shuffle_proof::prove(&rows3, &st, &wit, &seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let prove3 = time(|| {
        black_box(shuffle_proof::prove(&rows3, &st, &wit, &seed).is_ok());
    });
    let verify3 = time(|| {
        black_box(shuffle_proof::verify(&rows3, &st, &proof3).is_ok());
    });
    let verify_step = time(|| {
        black_box(check_step(&msg, &ctx(ProofMode::Proved)).is_ok());
    });
    let mut covert = msg.clone();
    covert.proof = None;
    let check_covert = time(|| {
        black_box(check_step(&covert, &ctx(ProofMode::Covert)).is_ok());
    });
    if check_step(&msg, &ctx(ProofMode::Proved)).is_err() {
        anyhow::bail!("the benchmark's own proof does not verify");
    }
    Ok(ProofFigures {
        bytes: proof.len(),
        prove_alone,
        prove_step,
        verify_alone,
        verify_step,
        check_covert,
        split: params.split(),
        rows3: (prove3, verify3, proof3.len()),
    })
}

fn decompressed(deck: &[CtBytes]) -> Vec<Ciphertext> {
    deck.iter().filter_map(CtBytes::decompress).collect()
}
