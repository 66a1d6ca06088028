//! `fairdeal replay FILE`: a finished game printed move by move (a `transcript.fdt`, or a
//! player's `GAME.fdlog` with its `identity.key` beside it), each deal's scores, and the same
//! report `fairdeal verify` prints. What is printed is the public table: the moves as every
//! seat saw them, the melds and the pile after each turn, hand sizes; never a hidden card
//! (a player's own log may show that player's hand as it was dealt).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use fairdeal_core::{Card, Position, Seat, Team};
use fairdeal_net::playback::{self, HandPlay, Playback};

/// The cards of a row in words (`K♠ K♥ 2♣`).
fn row(cards: impl IntoIterator<Item = Card>) -> String {
    let words: Vec<String> = cards.into_iter().map(|c| c.label()).collect();
    if words.is_empty() {
        "—".to_owned()
    } else {
        words.join(" ")
    }
}

/// The public table of `pos` in a few lines: hand sizes, the pile's top and size, the stock,
/// each team's melds and red threes.
pub fn table_lines(pos: &Position, names: &[String; 4]) -> Vec<String> {
    let sizes: Vec<String> = Seat::ALL
        .iter()
        .map(|&s| format!("{} {}", names[s.index()], pos.hand(s).len()))
        .collect();
    let mut out = vec![format!(
        "      cards in hand: {} · pile {} (top {}) · stock {}",
        sizes.join(", "),
        pos.pile().len(),
        pos.pile_top().map_or("—".to_owned(), Card::label),
        pos.stock_len()
    )];
    for team in [Team::A, Team::B] {
        let melds: Vec<String> = pos
            .melds(team)
            .iter()
            .map(|m| format!("[{}]", m.label()))
            .collect();
        let threes = pos.red_threes(team);
        out.push(format!(
            "      team {}: melds {}{}",
            if team == Team::A { "A" } else { "B" },
            if melds.is_empty() {
                "—".to_owned()
            } else {
                melds.join(" ")
            },
            if threes.is_empty() {
                String::new()
            } else {
                format!(" · red threes {}", row(threes.iter().copied()))
            }
        ));
    }
    out
}

/// Prints one deal.
fn print_hand(h: &HandPlay, p: &Playback, names: &[String; 4], out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "hand {} (dealer {})",
        h.hand_no,
        names[h.dealer.index()]
    )?;
    if let Some(gap) = &h.gap
        && h.dealt.is_none()
    {
        writeln!(out, "  not played back: {gap}")?;
        return Ok(());
    }
    if let (Some(me), Some(dealt)) = (p.me, &h.dealt) {
        writeln!(
            out,
            "  {}'s hand as dealt: {}",
            names[me.index()],
            row(dealt.hand(me).iter())
        )?;
    }
    for (i, s) in h.steps.iter().enumerate() {
        writeln!(out, "  {:>3}. {}", i + 1, s.mv.describe(s.seat))?;
        // The table after each turn (a turn ends when the next seat is to move, or the deal).
        let next = h.steps.get(i + 1).map(|n| n.seat);
        if next != Some(s.seat) {
            for line in table_lines(&s.after, names) {
                writeln!(out, "{line}")?;
            }
        }
    }
    if let Some(gap) = &h.gap {
        writeln!(out, "  stopped: {gap}")?;
    }
    if let Some(r) = &h.report {
        writeln!(
            out,
            "  scores: team A {} · team B {}",
            r.scores[0], r.scores[1]
        )?;
    }
    Ok(())
}

/// Prints the game in `path` move by move, then the verify report (its last line is
/// `verified: ...` or `FAULT: ...`, or a line saying why the file cannot be read). Returns
/// whether it verified.
///
/// # Errors
///
/// A failure to write.
pub fn run(path: &Path, out: &mut impl Write) -> Result<bool> {
    let p = match playback::open(path) {
        Ok(p) => p,
        Err(e) => {
            writeln!(out, "cannot replay {}: {e}", path.display())?;
            return Ok(false);
        }
    };
    let names = p.config.as_ref().map_or_else(
        || Seat::ALL.map(|s| s.name().to_owned()),
        |c| {
            Seat::ALL.map(|s| {
                let n = fairdeal_net::table::clean_name(&c.names[s.index()]);
                if n.is_empty() { s.name().to_owned() } else { n }
            })
        },
    );
    if let Some(c) = &p.config {
        writeln!(
            out,
            "table {}: {} (South), {} (West), {} (North), {} (East)",
            fairdeal_net::table::clean_name(&c.name),
            names[0],
            names[1],
            names[2],
            names[3]
        )?;
    }
    for h in &p.hands {
        print_hand(h, &p, &names, out)?;
    }
    writeln!(out)?;
    for line in p.report.lines() {
        writeln!(out, "{line}")?;
    }
    Ok(p.report.ok())
}
