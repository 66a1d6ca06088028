//! Games between two pairs of computer players, built with the rules engine alone (so a
//! strategy can be tuned without building the whole client): `cargo run --release -p
//! fairdeal-core --example duel -- PRESET TEAM_A TEAM_B GAMES SEED`. `fairdeal arena` is the
//! full report; this prints wins, hands and decision times.
//!
//! Also `... --example duel -- PRESET random HANDS` plays random self-play hands and prints
//! hands per second (the engine's speed, like `fairdeal bench rules`).

#![allow(clippy::disallowed_methods, reason = "an example may read the clock")]
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use fairdeal_core::selfplay::random_hand;
use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{GameResult, Position, Preset, Rules, Seat, SplitMix64, Team, canonical_deck};

/// A strategy by name; `master:ROLLOUTS:HORIZON:MARGIN` sets the master's knobs.
fn player(name: &str) -> Option<Box<dyn Strategy + Send>> {
    let mut parts = name.split(':');
    if parts.next() == Some("master") && name.contains(':') {
        let mut knob = |d: i64| parts.next().and_then(|p| p.parse().ok()).unwrap_or(d);
        let (w, h, m) = (knob(160), knob(8), knob(20));
        let master = fairdeal_core::strategy::Master::new(w as usize, h as usize);
        return Some(Box::new(master.with_margin(m as i32)));
    }
    by_name(name)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_owned());
    let Ok(preset) = arg(0, "samba").parse::<Preset>() else {
        eprintln!("unknown preset");
        return;
    };
    let rules = Rules::preset(preset);
    if args.len() == 3 && args[1] == "random" {
        let hands: usize = arg(2, "1000").parse().unwrap_or(1000);
        let mut rng = SplitMix64::new(1);
        let start = Instant::now();
        let mut moves = 0;
        let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
        let check = std::env::var_os("DUEL_DIGEST").is_some();
        for _ in 0..hands {
            let record = random_hand(&rules, Seat::S, [0, 0], &mut rng);
            moves += record.moves.len();
            if check {
                // FNV-1a over the moves' text: two engines that play the same hands agree.
                for b in format!("{:?}{:?}", record.moves, record.end.hand_scores()).bytes() {
                    digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
        if check {
            println!("{preset}: digest {digest:016x}");
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{preset}: {:.0} hands/s, {:.0} moves per hand",
            hands as f64 / s,
            moves as f64 / hands as f64
        );
        return;
    }
    let (a, b) = (arg(1, "expert"), arg(2, "expert"));
    let games: usize = arg(3, "10").parse().unwrap_or(10);
    let seed: u64 = arg(4, "1").parse().unwrap_or(1);
    let mut players: Vec<Box<dyn Strategy + Send>> = Vec::new();
    for seat in Seat::ALL {
        let name = if seat.team() == Team::A { &a } else { &b };
        let Some(p) = player(name) else {
            eprintln!("unknown strategy {name}");
            return;
        };
        players.push(p);
    }
    let mut rng = SplitMix64::new(seed);
    let mut wins = [0usize; 2];
    let mut hands = 0;
    let mut points = [0i64; 2];
    let mut times: Vec<Duration> = Vec::new();
    let mut illegal = 0;
    for g in 0..games {
        let mut scores = [0, 0];
        let mut dealer = Seat::from_index(g);
        for _ in 0..200 {
            let mut deck = canonical_deck(&rules);
            rng.shuffle(&mut deck);
            let Ok(mut pos) = Position::deal(rules.clone(), dealer, scores, &deck) else {
                return;
            };
            let mut guard = 0;
            while !pos.is_over() && guard < 5000 {
                guard += 1;
                let seat = pos.actor();
                let view = pos.view(seat);
                let t = Instant::now();
                let mv = players[seat.index()].choose(&view, &mut rng);
                if seat.team() == Team::A {
                    times.push(t.elapsed());
                }
                let Some(mv) = mv.filter(|m| pos.validate(seat, m).is_ok()) else {
                    illegal += 1;
                    break;
                };
                if pos.apply(seat, &mv).is_err() {
                    illegal += 1;
                    break;
                }
            }
            let h = pos.hand_scores();
            hands += 1;
            points[0] += i64::from(h[0]);
            points[1] += i64::from(h[1]);
            scores = [scores[0] + h[0], scores[1] + h[1]];
            match pos.game_result() {
                GameResult::Continue => dealer = dealer.next(),
                GameResult::Won(t) => {
                    wins[t.index()] += 1;
                    break;
                }
                GameResult::Drawn => break,
            }
        }
        eprintln!(
            "game {}: A {} B {} (hands {hands}, points A {} B {})",
            g + 1,
            wins[0],
            wins[1],
            points[0],
            points[1]
        );
    }
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let worst = times.last().copied().unwrap_or_default();
    let p90 = times.get(times.len() * 9 / 10).copied().unwrap_or_default();
    println!(
        "{preset}: A {a} {} - B {b} {} of {games}; hands {hands}; points/hand A {:.0} B {:.0}; team A decisions median {:.2} ms p90 {:.2} ms worst {:.1} ms ({}); illegal {illegal}",
        wins[0],
        wins[1],
        points[0] as f64 / hands.max(1) as f64,
        points[1] as f64 / hands.max(1) as f64,
        ms(median),
        ms(p90),
        ms(worst),
        times.len()
    );
}
