//! `fairdeal watch --address ADDR | --table NAME`: a spectator at a live table in the
//! terminal. It prints each move once this computer has checked it, the public table after
//! each turn, each deal's "Deal verified" line once it has audited the deal itself, who is
//! watching, and the game's result; never a hidden card.

use std::io::Write;

use anyhow::{Result, anyhow};
use fairdeal_core::{GameResult, Seat};
use fairdeal_net::node::watch::{WatchUpdate, watch};
use fairdeal_net::node::{BrowseEvent, Outcome, browse};
use fairdeal_net::watch::WatchEvent;
use libp2p::Multiaddr;
use tokio::sync::mpsc;

/// Finds the address of the LAN table called `name` (mDNS), within 15 s.
async fn find(name: &str) -> Result<Multiaddr> {
    let (tx, mut rx) = mpsc::channel(64);
    let secret = crate::peer::random32();
    let task = tokio::spawn(browse(secret, true, Vec::new(), tx));
    let found = tokio::time::timeout(std::time::Duration::from_secs(15), async {
        while let Some(ev) = rx.recv().await {
            if let BrowseEvent::Found(t) = ev
                && t.info.name == name
            {
                return Some(t.address);
            }
        }
        None
    })
    .await;
    task.abort();
    found
        .ok()
        .flatten()
        .ok_or_else(|| anyhow!("no table called {name} on the LAN"))
}

/// Watches until the game is over, printing to `out`.
///
/// # Errors
///
/// The table cannot be found or reached, or what it sends does not check.
pub async fn run(
    name: String,
    address: Option<Multiaddr>,
    table: Option<String>,
    out: &mut (impl Write + Send),
) -> Result<Outcome> {
    let address = match (address, table) {
        (Some(a), _) => a,
        (None, Some(t)) => find(&t).await?,
        (None, None) => return Err(anyhow!("give --address or --table")),
    };
    let (tx, mut rx) = mpsc::channel(256);
    let task = tokio::spawn(watch(crate::peer::random32(), name, address, tx));
    let mut names = Seat::ALL.map(|s| s.name().to_owned());
    let mut last: Option<Seat> = None;
    let mut watching: Vec<String> = Vec::new();
    let mut view_lines = Vec::new();
    while let Some(u) = rx.recv().await {
        match u {
            WatchUpdate::Status(line) => writeln!(out, "{line}")?,
            WatchUpdate::Table(pos) => view_lines = crate::replay::table_lines(&pos, &names),
            WatchUpdate::Config(_) => {}
            WatchUpdate::Watching(now) => {
                if now != watching {
                    writeln!(out, "watching: {}", now.join(", "))?;
                    watching = now;
                }
            }
            WatchUpdate::Event(ev) => match ev {
                WatchEvent::Table { name, names: n } => {
                    names = Seat::ALL.map(|s| {
                        let c = fairdeal_net::table::clean_name(&n[s.index()]);
                        if c.is_empty() { s.name().to_owned() } else { c }
                    });
                    writeln!(
                        out,
                        "table {}: {} (South), {} (West), {} (North), {} (East)",
                        fairdeal_net::table::clean_name(&name),
                        names[0],
                        names[1],
                        names[2],
                        names[3]
                    )?;
                }
                WatchEvent::Hand {
                    hand_no,
                    dealer,
                    scores,
                } => writeln!(
                    out,
                    "hand {hand_no} (dealer {}) · totals: team A {} · team B {}",
                    names[dealer.index()],
                    scores[0],
                    scores[1]
                )?,
                WatchEvent::Dealt => {
                    last = None;
                    writeln!(out, "  dealt")?;
                }
                WatchEvent::Moved { seat, mv, .. } => {
                    if last.is_some_and(|l| l != seat) {
                        for line in view_lines.drain(..) {
                            writeln!(out, "{line}")?;
                        }
                    }
                    last = Some(seat);
                    writeln!(
                        out,
                        "  move: {}: {}",
                        names[seat.index()],
                        mv.describe(seat)
                    )?;
                }
                WatchEvent::HandOver => writeln!(out, "  the play is over; seeds revealed next")?,
                WatchEvent::Verified(r) => {
                    last = None;
                    view_lines.clear();
                    writeln!(
                        out,
                        "  ✔ Deal verified: all {} shuffles recomputed, {} decryption shares checked by this computer.",
                        r.shuffles_checked, r.openings_checked
                    )?;
                    writeln!(
                        out,
                        "  scores: team A {} · team B {}",
                        r.scores[0], r.scores[1]
                    )?;
                }
                WatchEvent::Fault(b) => writeln!(
                    out,
                    "  the deal stopped: {}{}",
                    b.fault,
                    b.offender
                        .map(|s| format!(" ({})", names[s.index()]))
                        .unwrap_or_default()
                )?,
            },
        }
        out.flush()?;
    }
    let o = task.await.map_err(|e| anyhow!("{e}"))??;
    let outcome = Outcome {
        totals: o.totals,
        result: o.result,
        hands: o.verified,
    };
    if outcome.result == GameResult::Continue {
        return Err(anyhow!("the watch ended before the game"));
    }
    Ok(outcome)
}
