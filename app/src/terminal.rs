//! Playing in a terminal: you sit South, computer players take the other seats.
//!
//! Each turn shows the table from your seat and a numbered list of your legal moves; type a
//! number, or a move in the scenario format's JSON (`{"discard": "9C"}`), or `q` to quit.

use std::io::{BufRead, Write};

use anyhow::Result;
use fairdeal_core::{
    GameResult, Move, PlayerView, Position, Preset, Rules, Seat, SplitMix64, Team, canonical_deck,
};

/// Renders `view` as lines of text.
pub fn render(view: &PlayerView) -> String {
    let mut s = String::new();
    let us = view.seat().team();
    let them = us.other();
    let scores = view.scores();
    s.push_str(&format!(
        "{} · dealer {} · we {} · they {} · target {}\n",
        view.rules().preset,
        view.dealer().name(),
        scores[us.index()],
        scores[them.index()],
        view.rules().target
    ));
    let need = view.minimum_needed(us);
    if need > 0 {
        s.push_str(&format!("we need {need} points to open\n"));
    }
    let pile = view.pile();
    let frozen = if view.pile_frozen_for(us) {
        ", frozen for us"
    } else {
        ""
    };
    s.push_str(&format!(
        "stock {} · pile {}{}{}\n",
        view.stock_len(),
        pile.len(),
        pile.last()
            .map(|c| format!(", top {}", c.label()))
            .unwrap_or_default(),
        frozen
    ));
    for (name, team) in [("their", them), ("our", us)] {
        s.push_str(&format!(
            "{name} melds (red threes: {}):\n",
            view.red_threes(team).len()
        ));
        for (i, m) in view.melds(team).iter().enumerate() {
            s.push_str(&format!("  {}. {}\n", i + 1, m.label()));
        }
    }
    for seat in [
        view.seat().next(),
        view.seat().partner(),
        view.seat().partner().next(),
    ] {
        s.push_str(&format!(
            "{}: {} cards  ",
            seat.name(),
            view.hand_size(seat)
        ));
    }
    let hand: Vec<String> = view.hand().iter().map(|c| c.label()).collect();
    s.push_str(&format!(
        "\nyour hand ({}): {}\n",
        hand.len(),
        hand.join(" ")
    ));
    s
}

/// Plays games at the terminal until the user quits or a game ends.
///
/// # Errors
///
/// A failure to read or write the terminal.
pub fn play(
    preset: Preset,
    seed: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<()> {
    let rules = Rules::preset(preset);
    let mut rng = SplitMix64::new(seed);
    let mut scores = [0, 0];
    let mut dealer = Seat::E;
    let me = Seat::S;
    let mut bots: Vec<Box<dyn fairdeal_core::strategy::Strategy + Send>> = (0..4)
        .map(|_| Box::new(fairdeal_core::strategy::Expert::new(0.0)) as _)
        .collect();
    writeln!(
        out,
        "fairdeal {preset}: you are South, partnered with North; expert computer players take the other seats."
    )?;
    loop {
        let mut deck = canonical_deck(&rules);
        rng.shuffle(&mut deck);
        let mut pos = Position::deal(rules.clone(), dealer, scores, &deck)?;
        while !pos.is_over() {
            let seat = pos.actor();
            let mv = if seat == me {
                match ask_move(&pos, me, input, out)? {
                    Some(mv) => mv,
                    None => return Ok(()),
                }
            } else {
                match bots[seat.index()].choose(&pos.view(seat), &mut rng) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            match pos.apply(seat, &mv) {
                Ok(()) => writeln!(out, "{}", mv.describe(seat))?,
                Err(refusal) => writeln!(out, "refused ({}): {}", refusal.code, refusal.reason)?,
            }
        }
        writeln!(out, "\nhand over: {:?}", pos.end())?;
        for team in Team::ALL {
            let s = pos.team_score(team);
            writeln!(
                out,
                "team {team}: melded {} · canastas {} · sambas {} · red threes {} · going out {} · in hand {} · held red threes {} = {}",
                s.melded_cards,
                s.natural_canastas + s.mixed_canastas,
                s.sambas,
                s.red_threes,
                s.going_out,
                s.cards_in_hand,
                s.held_red_threes,
                s.total()
            )?;
        }
        let hand = pos.hand_scores();
        scores = [scores[0] + hand[0], scores[1] + hand[1]];
        writeln!(
            out,
            "totals: A (you and North) {} · B {}\n",
            scores[0], scores[1]
        )?;
        match pos.game_result() {
            GameResult::Continue => dealer = dealer.next(),
            GameResult::Won(team) => {
                writeln!(out, "game over: team {team} wins")?;
                return Ok(());
            }
            GameResult::Drawn => {
                writeln!(out, "game over: drawn")?;
                return Ok(());
            }
        }
    }
}

/// Shows the table and reads the user's choice; `None` when the user quits or input ends.
fn ask_move(
    pos: &Position,
    me: Seat,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Option<Move>> {
    let view = pos.view(me);
    writeln!(out, "\n{}", render(&view))?;
    let moves = view.legal_moves();
    for (i, mv) in moves.iter().enumerate() {
        writeln!(out, "  {:>2}  {}", i + 1, mv.describe(me))?;
    }
    loop {
        write!(out, "your move (number, JSON move, or q): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim();
        if line == "q" {
            return Ok(None);
        }
        if let Ok(n) = line.parse::<usize>() {
            if let Some(mv) = n.checked_sub(1).and_then(|i| moves.get(i)) {
                return Ok(Some(mv.clone()));
            }
            writeln!(out, "choose 1 to {}", moves.len())?;
            continue;
        }
        match serde_json::from_str::<Move>(line) {
            Ok(mv) => match view.validate(&mv) {
                Ok(()) => return Ok(Some(mv)),
                Err(r) => writeln!(out, "refused ({}): {}", r.code, r.reason)?,
            },
            Err(e) => writeln!(out, "not a move: {e}")?,
        }
    }
}
