//! Starting a game's nodes: "Play now" (a local table with three computer players), a table
//! opened on the LAN, a table joined, and a game resumed from its folder's logs.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_net::node::{NodeOptions, Role};
use fairdeal_net::table::msg::TableInfo;
use libp2p::Multiaddr;
use tokio::runtime::Runtime;
use tokio::sync::oneshot;

use super::super::choices::Difficulty;
use super::super::records::{GameKind, GameRecord, Timing};
use super::super::settings::Setup;
use super::{
    Connection, Player, Repaint, Secrets, new_folder, player_options, run_computer, spawn_player,
};
use crate::local::{Computers, LocalTable};
use crate::peer::random32;

/// How the computer players of the game `record` play.
pub(super) fn computers(record: &GameRecord) -> Computers {
    Computers {
        strategy: record.difficulty.strategy().to_owned(),
        think_ms: record.pace_ms,
        grace_ms: record.grace_ms,
        lan: record.lan(),
    }
}

/// The record of a new table this player opens and sits South at.
fn table_record(setup: &Setup, kind: GameKind, bots: Vec<String>) -> GameRecord {
    GameRecord {
        kind,
        table: setup.table.clone(),
        preset: setup.preset,
        difficulty: setup.difficulty,
        house: fairdeal_net::table::msg::house_to_json(&setup.house),
        bots,
        started: false,
        over: false,
        pace_ms: setup.timing.pace_ms,
        grace_ms: setup.timing.grace_ms,
        left: false,
        unanswered: false,
    }
}

/// Starts a local table ([`crate::local`]): this player at South, three computer players,
/// over loopback; they join once the player's node listens.
///
/// # Errors
///
/// The game folder cannot be written.
pub fn start_local(
    runtime: Arc<Runtime>,
    setup: &Setup,
    data_dir: &Path,
    seed: Option<u64>,
    repaint: Repaint,
) -> Result<Connection> {
    let bots: Vec<String> = (0..3).map(|i| format!("bot-{i}")).collect();
    let record = table_record(setup, GameKind::Local, bots);
    let (game_dir, secret) = new_folder(data_dir, &record, seed)?;
    let table = LocalTable {
        preset: setup.preset,
        house: setup.house.clone(),
        name: setup.name.clone(),
        south: None,
        dir: game_dir.join("me"),
        computers: computers(&record),
        computer_dirs: [0, 1, 2].map(|i| game_dir.join(format!("bot-{i}"))),
    };
    let opts = NodeOptions {
        grace_ms: record.grace_ms,
        move_clock_ms: setup.move_clock_ms,
        wait_for_person: true,
        ..table.host_options()
    };
    let secrets = Secrets { seed };
    let (on_listen, listening) = oneshot::channel();
    let player = Player {
        opts,
        secret,
        master: secrets.fresh("master", 0),
        on_listen: Some(on_listen),
    };
    let conn = spawn_player(runtime.clone(), player, game_dir, record, secrets, repaint);
    let handles = conn.computer_handles();
    let rt = runtime.clone();
    runtime.spawn(async move {
        table
            .seat_computers(listening, |i, opts| {
                run_computer(&rt, opts, i as u64 + 1, secrets, handles.clone())
            })
            .await;
    });
    Ok(conn)
}

/// Opens a table on the LAN (held: the host starts it from the lobby).
///
/// # Errors
///
/// The game folder cannot be written.
pub fn host(
    runtime: Arc<Runtime>,
    setup: &Setup,
    data_dir: &Path,
    repaint: Repaint,
) -> Result<Connection> {
    let record = table_record(setup, GameKind::Host, Vec::new());
    let (game_dir, secret) = new_folder(data_dir, &record, None)?;
    let role = Role::Host {
        table: setup.table.clone(),
        preset: setup.preset,
        house: setup.house.clone(),
    };
    let opts = NodeOptions {
        hold: true,
        move_clock_ms: setup.move_clock_ms,
        // Checked before (`Controller::host`): a text that is no relay's address is no relay.
        relay: fairdeal_net::node::relay::parse_relay(&setup.relay)
            .ok()
            .flatten(),
        ..player_options(&game_dir, &record, role, &setup.name)
    };
    Ok(spawn_lan_player(
        runtime, opts, secret, game_dir, record, repaint,
    ))
}

/// Joins the table at `address` (`info`: what the browser said about it), asking for seat
/// `want`.
///
/// # Errors
///
/// The game folder cannot be written.
#[allow(clippy::too_many_arguments)]
pub fn join(
    runtime: Arc<Runtime>,
    address: Multiaddr,
    info: Option<&TableInfo>,
    want: Option<u8>,
    relay: Option<Multiaddr>,
    name: &str,
    data_dir: &Path,
    timing: Timing,
    repaint: Repaint,
) -> Result<Connection> {
    let record = GameRecord {
        kind: GameKind::Join,
        // Joined by address: the name comes with the game's start (see `rename`).
        table: info.map_or_else(String::new, |i| i.name.clone()),
        preset: info.map_or(Preset::Samba, |i| i.preset),
        difficulty: Difficulty::default(),
        house: info.map_or_else(
            || "{}".to_owned(),
            |i| fairdeal_net::table::msg::house_to_json(&HouseRules::from(&i.house)),
        ),
        bots: Vec::new(),
        started: false,
        over: false,
        pace_ms: timing.pace_ms,
        grace_ms: timing.grace_ms,
        left: false,
        unanswered: false,
    };
    let (game_dir, secret) = new_folder(data_dir, &record, None)?;
    let role = Role::Join {
        address: Some(address),
        table: None,
    };
    let opts = NodeOptions {
        want,
        relay,
        ..player_options(&game_dir, &record, role, name)
    };
    Ok(spawn_lan_player(
        runtime, opts, secret, game_dir, record, repaint,
    ))
}

/// Resumes the game in `game_dir` from its logs (the player's and its computer players').
///
/// # Errors
///
/// The folder holds no game to resume.
pub fn resume(runtime: Arc<Runtime>, game_dir: &Path, repaint: Repaint) -> Result<Connection> {
    let record = GameRecord::read(game_dir).ok_or_else(|| anyhow!("no game.json here"))?;
    let secret = fairdeal_net::store::read_identity(&game_dir.join("me"))
        .ok_or_else(|| anyhow!("the game's identity is missing"))?;
    // Rebuilt from the log: the role and the name only matter for a new game.
    let role = Role::Join {
        address: None,
        table: None,
    };
    let opts = player_options(game_dir, &record, role, "");
    let bots = record.bots.len();
    let player = Player {
        opts,
        secret,
        master: random32(),
        on_listen: None,
    };
    let conn = spawn_player(
        runtime,
        player,
        game_dir.to_owned(),
        record,
        Secrets { seed: None },
        repaint,
    );
    let bots: Vec<(usize, Option<Seat>)> = (0..bots).map(|i| (i, None)).collect();
    conn.spawn_bots(&bots, None);
    Ok(conn)
}

/// The player's node of a LAN game (hosted or joined), with secrets from the OS.
fn spawn_lan_player(
    runtime: Arc<Runtime>,
    opts: NodeOptions,
    secret: [u8; 32],
    game_dir: std::path::PathBuf,
    record: GameRecord,
    repaint: Repaint,
) -> Connection {
    let secrets = Secrets { seed: None };
    let player = Player {
        opts,
        secret,
        master: secrets.fresh("master", 0),
        on_listen: None,
    };
    spawn_player(runtime, player, game_dir, record, secrets, repaint)
}
