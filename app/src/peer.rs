//! Headless peers: `fairdeal host`, `join`, `play` and `verify`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use anyhow::{Context, Result, anyhow};
use fairdeal_core::{GameResult, Team};
use fairdeal_net::node::{self, Intent, NodeEvent, NodeOptions, Outcome, Role};
use fairdeal_net::store;
use fairdeal_net::table::TableEvent;
use libp2p::Multiaddr;
use tokio::sync::mpsc;

/// Fresh random bytes from the operating system.
pub fn random32() -> [u8; 32] {
    rand::random()
}

/// A one-line description of a game's end.
pub fn game_over_line(o: &Outcome) -> String {
    let [a, b] = o.totals;
    match o.result {
        GameResult::Won(Team::A) => format!(
            "game over: team A (South and North) wins {a} to {b} after {}",
            crate::table_words::hands(o.hands)
        ),
        GameResult::Won(Team::B) => format!(
            "game over: team B (West and East) wins {b} to {a} after {}",
            crate::table_words::hands(o.hands)
        ),
        GameResult::Drawn => format!(
            "game over: drawn at {a} each after {}",
            crate::table_words::hands(o.hands)
        ),
        GameResult::Continue => format!("game over: stopped at {a} to {b}"),
    }
}

/// Runs one node to the end of its game, printing `address:` lines and progress; a person at
/// the terminal plays when `bot` is `None`.
///
/// # Errors
///
/// Node failures.
pub async fn run_node(opts: NodeOptions, quiet: bool) -> Result<Outcome> {
    run_node_traced(opts, quiet, None).await
}

/// Like [`run_node`], appending timing lines to `trace` (for `bench net`): `started H ns`,
/// `dealt H ns`, `moved H I ns`, `over H ns` (the audit begins), and at the end `rss KB`.
///
/// # Errors
///
/// Node failures.
pub async fn run_node_traced(
    opts: NodeOptions,
    quiet: bool,
    trace: Option<PathBuf>,
) -> Result<Outcome> {
    run_node_with(opts, quiet, trace, None).await
}

/// Like [`run_node_traced`], also sending the first listen address to `on_listen`.
async fn run_node_with(
    opts: NodeOptions,
    quiet: bool,
    trace: Option<PathBuf>,
    mut on_listen: Option<tokio::sync::oneshot::Sender<Multiaddr>>,
) -> Result<Outcome> {
    let mut trace_file = match &trace {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => None,
    };
    let secret =
        store::identity_secret(&opts.data_dir, random32).context("reading the identity")?;
    let (ev_tx, mut ev_rx) = mpsc::channel(256);
    let (in_tx, in_rx) = mpsc::channel(16);
    let person = opts.bot.is_none();
    // The address to give the others is the host's: a guest's own would only mislead.
    let hosting = matches!(opts.role, Role::Host { .. });
    let leave = Arc::new(LeaveAsked {
        host: hosting,
        ..LeaveAsked::default()
    });
    let signals = tokio::spawn(leave_on_signals(in_tx.clone(), leave.clone()));
    let table_name = match &opts.role {
        Role::Host { table, .. } => table.clone(),
        Role::Join { .. } => String::new(),
    };
    let label = opts.name.clone();
    let leave_key = leave.clone();
    let printer = tokio::spawn(async move {
        let mut stdin_started = false;
        let mut moves: Vec<fairdeal_core::Move> = Vec::new();
        let (line_tx, mut line_rx) = mpsc::channel::<String>(4);
        let mut moved_in_hand = 0u32;
        // The seats last said to be out of reach (their return is said too).
        let mut unheard: Vec<fairdeal_core::Seat> = Vec::new();
        loop {
            tokio::select! {
                ev = ev_rx.recv() => {
                    let Some(ev) = ev else { break };
                    if let Some(t) = trace_file.as_mut() {
                        let ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
                        let line = match &ev {
                            NodeEvent::Table(TableEvent::HandStarted(h)) => {
                                moved_in_hand = 0;
                                Some(format!("started {h} {ns}"))
                            }
                            NodeEvent::Table(TableEvent::Hand { hand_no, event: fairdeal_net::hand::Event::Dealt }) => Some(format!("dealt {hand_no} {ns}")),
                            NodeEvent::Table(TableEvent::Hand { hand_no, event: fairdeal_net::hand::Event::HandOver }) => Some(format!("over {hand_no} {ns}")),
                            NodeEvent::Table(TableEvent::Hand { hand_no, event: fairdeal_net::hand::Event::Moved { .. } }) => {
                                moved_in_hand += 1;
                                Some(format!("moved {hand_no} {moved_in_hand} {ns}"))
                            }
                            _ => None,
                        };
                        if let Some(line) = line {
                            // Flushed line by line: tests read the trace while the game runs.
                            let _ = writeln!(t, "{line}");
                            let _ = t.flush();
                        }
                    }
                    if matches!(ev, NodeEvent::Table(TableEvent::Started(_))) {
                        leave_key.started.store(true, Ordering::SeqCst);
                    }
                    if matches!(ev, NodeEvent::Table(TableEvent::Closed)) {
                        // Nothing to wait for: the node stops, and the process says why.
                        leave_key.closed.store(true, Ordering::SeqCst);
                        let _ = in_tx.send(Intent::Quit).await;
                    }
                    match ev {
                        NodeEvent::Listening(addr) => {
                            if let Some(tx) = on_listen.take() {
                                let _ = tx.send(addr.clone());
                            }
                            if hosting {
                                println!("address: {addr}");
                                if node::relay::is_relayed(&addr) {
                                    let invite = node::invite::Invitation::new(addr.clone(), &table_name);
                                    println!("invitation: {invite}");
                                }
                                let _ = std::io::stdout().flush();
                            }
                        }
                        NodeEvent::Path { seat, path } if !quiet => {
                            println!("connection to {}: {}", seat.name(), path.words());
                            let _ = std::io::stdout().flush();
                        }
                        NodeEvent::Table(TableEvent::Started(cfg)) if !quiet => {
                            tracing::info!(player = %label, table = %cfg.name, seats = ?cfg.names, "all four seats signed the table");
                        }
                        NodeEvent::Table(TableEvent::Hand { hand_no, event }) if !quiet => match event {
                            fairdeal_net::hand::Event::Complete(r) => tracing::info!(player = %label, hand_no, scores = ?r.scores, openings = r.openings_checked, "hand verified: all four shuffles recomputed"),
                            fairdeal_net::hand::Event::Fault(b) => tracing::error!(player = %label, hand_no, offender = ?b.offender, fault = %b.fault, "cheat detected"),
                            fairdeal_net::hand::Event::Broken(bug) => tracing::error!(player = %label, hand_no, %bug, "hand stopped by a fault of this client, not a seat's"),
                            fairdeal_net::hand::Event::Named(b) => tracing::error!(player = %label, hand_no, offender = ?b.offender, fault = %b.fault, "cheat detected after the audit; the scores stand"),
                            fairdeal_net::hand::Event::Moved { seat, mv, .. } if person => println!("{}", mv.describe(seat)),
                            _ => {}
                        },
                        NodeEvent::Waiting(seats) if !seats.is_empty() && !quiet => {
                            tracing::info!(player = %label, waiting = ?seats, "waiting for");
                        }
                        NodeEvent::Table(ref t @ TableEvent::SeatTaken { seat, .. }) => {
                            // The wait for this seat's player is over: when its runner is
                            // heard, nobody "answers again".
                            unheard.retain(|s| *s != seat);
                            println!("{}", crate::table_words::table_line(t));
                            let _ = std::io::stdout().flush();
                        }
                        NodeEvent::Table(ref t @ (TableEvent::HandVoided { .. }
                        | TableEvent::HandForfeited { .. }
                        | TableEvent::SeatHeld { .. }
                        | TableEvent::SeatBack { .. }
                        | TableEvent::SeatBarred { .. }
                        | TableEvent::Stopped { .. }
                        | TableEvent::Alone { .. })) => {
                            println!("{}", crate::table_words::table_line(t));
                            let _ = std::io::stdout().flush();
                        }
                        NodeEvent::Unheard(list) if !quiet => {
                            let now: Vec<fairdeal_core::Seat> = list.iter().map(|u| u.seat).collect();
                            let back: Vec<fairdeal_core::Seat> = unheard.iter().copied().filter(|s| !now.contains(s)).collect();
                            let seat_name = |s: fairdeal_core::Seat| s.name().to_owned();
                            if !back.is_empty() {
                                println!("{}", crate::table_words::back_line(&back, seat_name));
                            }
                            // Said when it starts and whenever the seats change, not every second.
                            if now.iter().any(|s| !unheard.contains(s)) {
                                println!("{}", crate::table_words::unheard_line(&list, seat_name));
                            }
                            let _ = std::io::stdout().flush();
                            unheard = now;
                        }
                        NodeEvent::Refused(why) => println!("refused: {why}"),
                        NodeEvent::Status(s) if !quiet => {
                            println!("{s}");
                            let _ = std::io::stdout().flush();
                        }
                        NodeEvent::YourTurn(view) => {
                            println!("\n{}", crate::terminal::render(&view));
                            moves = view.legal_moves();
                            for (i, mv) in moves.iter().enumerate() {
                                println!("  {:>2}  {}", i + 1, mv.describe(view.seat()));
                            }
                            print!("your move (number): ");
                            let _ = std::io::stdout().flush();
                            if !stdin_started {
                                stdin_started = true;
                                let tx = line_tx.clone();
                                std::thread::spawn(move || {
                                    for line in std::io::stdin().lock().lines() {
                                        let Ok(line) = line else { break };
                                        if tx.blocking_send(line).is_err() {
                                            break;
                                        }
                                    }
                                });
                            }
                        }
                        _ => {}
                    }
                }
                line = line_rx.recv() => {
                    let Some(line) = line else { continue };
                    let line = line.trim();
                    if line == "q" {
                        let _ = in_tx.send(leave_key.ask()).await;
                    } else if let Some(mv) = line.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).and_then(|i| moves.get(i)) {
                        let _ = in_tx.send(Intent::Play(mv.clone())).await;
                    } else {
                        println!("type a number from the list, or q to leave the game");
                    }
                }
            }
        }
        trace_file
    });
    let outcome = node::run(opts, secret, random32(), ev_tx, in_rx).await;
    signals.abort();
    if let Ok(Some(mut t)) = printer.await {
        let _ = writeln!(t, "rss {}", peak_rss_kb());
        let _ = t.flush();
    }
    match outcome {
        Err(node::NodeError::Stopped)
            if leave.asked() > 0 || leave.closed.load(Ordering::SeqCst) =>
        {
            Err(leave.left().into())
        }
        other => Ok(other?),
    }
}

/// How often the person asked to leave (`q`, Ctrl-C, or a termination signal), and whether
/// the game had started (all four signed the table) when they did.
#[derive(Debug, Default)]
struct LeaveAsked {
    asked: AtomicU8,
    started: AtomicBool,
    /// The host closed the table before the game started.
    closed: AtomicBool,
    /// This process hosts the table (its leave before the start closes it).
    host: bool,
}

impl LeaveAsked {
    /// Counts one more request and says what it means: the first is a signed leave (during
    /// the game the seat is played to the end of the hand, then the others are told, so
    /// nobody waits out a grace period for it); a second stops at once.
    fn ask(&self) -> Intent {
        if self.asked.fetch_add(1, Ordering::SeqCst) > 0 {
            return Intent::Quit;
        }
        if self.started.load(Ordering::SeqCst) {
            println!(
                "leaving: your seat is played to the end of this hand, then the others are told \
                 and a computer player takes it (ask again to stop at once)"
            );
            let _ = std::io::stdout().flush();
        }
        Intent::Leave
    }

    fn asked(&self) -> u8 {
        self.asked.load(Ordering::SeqCst)
    }

    /// How the person left, once the node stopped.
    fn left(&self) -> Left {
        if self.closed.load(Ordering::SeqCst) {
            Left::Closed
        } else if self.asked() > 1 {
            Left::AtOnce
        } else if self.started.load(Ordering::SeqCst) {
            Left::Told
        } else if self.host {
            Left::ClosedByMe
        } else {
            Left::Lobby
        }
    }
}

/// The game ended for this process before its end: its person left, or the host closed the
/// table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Left {
    /// Before the game started: the seat was given up.
    Lobby,
    /// Before the game started, at the host: the table was closed.
    ClosedByMe,
    /// Before the game started, the host closed the table.
    Closed,
    /// During the game, signed: the others were told, and a computer player took the seat.
    Told,
    /// A second request stopped at once, unsigned.
    AtOnce,
}

impl Left {
    /// Whether this process ended the game as its person asked, telling the table (it then
    /// ends successfully).
    pub fn told(self) -> bool {
        !matches!(self, Self::AtOnce | Self::Closed)
    }
}

impl std::fmt::Display for Left {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Lobby => "you left the table before the game started; the others were told",
            Self::ClosedByMe => {
                "you closed the table before the game started; the players seated were told"
            }
            Self::Closed => "the host closed the table before the game started",
            Self::Told => {
                "you left the game: the others were told, and a computer player plays your seat"
            }
            Self::AtOnce => {
                "stopped at once: the others will vote your seat out once the grace period has \
                 passed; join again (or Resume in the window) to take it back"
            }
        })
    }
}

impl std::error::Error for Left {}

/// Turns Ctrl-C and SIGTERM into a request to leave ([`LeaveAsked::ask`]): a CLI stopped
/// that way tells the table, where a killed one would only fall silent and hold the hand up
/// for a grace period.
async fn leave_on_signals(intents: mpsc::Sender<Intent>, leave: Arc<LeaveAsked>) {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    loop {
        #[cfg(unix)]
        let terminated = async {
            match term.as_mut() {
                Some(t) => {
                    t.recv().await;
                }
                None => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let terminated = std::future::pending::<()>();
        tokio::select! {
            r = tokio::signal::ctrl_c() => if r.is_err() { return },
            () = terminated => {}
        }
        if intents.send(leave.ask()).await.is_err() {
            return;
        }
    }
}

/// The process's peak resident memory in KiB (Linux), 0 elsewhere.
pub fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Options for `host`.
#[derive(Debug, Clone)]
pub struct HostArgs {
    /// Table name.
    pub table: String,
    /// Preset.
    pub preset: fairdeal_core::Preset,
    /// Target score (None: the preset's).
    pub target: Option<i32>,
    /// Data directory.
    pub data_dir: PathBuf,
    /// Computer strategy.
    pub bot: Option<String>,
    /// Listen address.
    pub listen: Multiaddr,
    /// LAN discovery.
    pub mdns: bool,
    /// Display name.
    pub name: String,
    /// Grace period for a silent seat, in seconds.
    pub grace_secs: u64,
    /// How long the seat's computer player waits before each move (ms).
    pub think_ms: u64,
    /// The move clock, seconds a turn (0: none).
    pub move_clock_secs: u64,
    /// Seats whose computer players this process runs too (as the window does).
    pub computers: Vec<fairdeal_core::Seat>,
    /// A relay for friends beyond the LAN (its address with `/p2p/RELAY`).
    pub relay: Option<Multiaddr>,
}

/// `fairdeal host`.
///
/// # Errors
///
/// Node failures.
pub async fn host(a: HostArgs, trace: Option<PathBuf>) -> Result<Outcome> {
    let house = fairdeal_core::HouseRules {
        target: a.target,
        ..Default::default()
    };
    let opts = NodeOptions {
        data_dir: a.data_dir,
        listen: a.listen,
        mdns: a.mdns,
        role: Role::Host {
            table: a.table,
            preset: a.preset,
            house,
        },
        bot: a.bot,
        name: a.name,
        grace_ms: Some(a.grace_secs * 1000),
        hold: false,
        want: None,
        think_ms: a.think_ms,
        move_clock_ms: a.move_clock_secs * 1000,
        wait_for_person: false,
        countdown: true,
        relay: a.relay,
    };
    if a.computers.is_empty() {
        return run_node_traced(opts, false, trace).await;
    }
    let computers = crate::local::Computers {
        strategy: opts.bot.clone().unwrap_or_else(|| "expert".to_owned()),
        think_ms: a.think_ms,
        grace_ms: opts.grace_ms,
        lan: false,
    };
    let (listen_tx, listen_rx) = tokio::sync::oneshot::channel();
    let host = tokio::spawn(run_node_with(opts.clone(), false, trace, Some(listen_tx)));
    let Ok(address) = listen_rx.await else {
        return host.await.map_err(|e| anyhow!("{e}"))?;
    };
    let mut runs = Vec::new();
    for seat in a.computers {
        let dir = opts.data_dir.join(format!("bot-{}", seat.name()));
        // A computer player with a log rebuilds from it and finds the table it records.
        let o = if dir.join("GAME.fdlog").exists() {
            computers.options(dir, None, None)
        } else {
            computers.options(dir, Some(seat), Some(address.clone()))
        };
        runs.push(tokio::spawn(run_node(o, true)));
    }
    let outcome = host.await.map_err(|e| anyhow!("{e}"))?;
    for r in runs {
        let _ = r.await;
    }
    outcome
}

/// How long computer players wait before each move when a person plays with them at the
/// terminal (ms).
pub const PERSON_PACE_MS: u64 = 700;

/// `fairdeal play --bots N`: a host and three joiners in this process, over loopback.
///
/// # Errors
///
/// Node failures.
pub async fn play_local(
    preset: fairdeal_core::Preset,
    target: Option<i32>,
    bots: usize,
    data_dir: &Path,
) -> Result<Outcome> {
    // A person plays South at the terminal unless four computer players were asked for; the
    // computer players then pause before each move so that the person can follow.
    let all_computers = bots >= 4;
    let table = crate::local::LocalTable {
        preset,
        house: fairdeal_core::HouseRules {
            target,
            ..Default::default()
        },
        name: if all_computers {
            "Computer South".to_owned()
        } else {
            "You".to_owned()
        },
        south: all_computers.then(|| "expert".to_owned()),
        dir: data_dir.join("seat0"),
        computers: crate::local::Computers {
            strategy: "expert".to_owned(),
            think_ms: if all_computers { 0 } else { PERSON_PACE_MS },
            grace_ms: None,
            lan: false,
        },
        computer_dirs: [1, 2, 3].map(|i| data_dir.join(format!("seat{i}"))),
    };
    let (listen_tx, listen_rx) = tokio::sync::oneshot::channel();
    let host = tokio::spawn(run_node_with(
        table.host_options(),
        all_computers,
        None,
        Some(listen_tx),
    ));
    let Some(joiners) = table
        .seat_computers(listen_rx, |_, opts| tokio::spawn(run_node(opts, true)))
        .await
    else {
        return match host.await {
            Ok(Err(e)) => Err(e),
            _ => Err(anyhow!("the host stopped before listening")),
        };
    };
    let outcome = host.await.map_err(|e| anyhow!("{e}"))??;
    for j in joiners {
        let _ = j.await;
    }
    Ok(outcome)
}

/// `fairdeal verify GAMELOG`: prints a short report; the last line is `verified: ...` or
/// `FAULT: ...` (or `cannot read ...` for a file that cannot be read). Returns whether the log
/// verified.
///
/// # Errors
///
/// A failure to write.
pub fn verify(path: &Path, out: &mut impl Write) -> Result<bool> {
    // A file that cannot be read is not evidence of cheating: say what is wrong instead.
    if let Err(e) = store::open_named(path) {
        writeln!(out, "cannot read {}: {e}", path.display())?;
        return Ok(false);
    }
    // None of these errors is evidence against a seat: never "FAULT".
    let report = match node::replay_log(path) {
        Ok(r) => r,
        Err(e @ node::ReplayError::NoIdentity(_)) => {
            writeln!(out, "cannot check {} alone: {e}", path.display())?;
            return Ok(false);
        }
        Err(e) => {
            writeln!(out, "cannot check {}: {e}", path.display())?;
            return Ok(false);
        }
    };
    writeln!(
        out,
        "log: {} records{}",
        report.records,
        if report.tail_damaged {
            format!(
                " (the last record, {} bytes, is damaged — half written when the game stopped, or altered — and was not checked)",
                report.torn_bytes
            )
        } else if report.torn_bytes > 0 {
            format!(
                " (a last record cut short, {} bytes, was ignored)",
                report.torn_bytes
            )
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "hands verified: {} ({} shuffle steps recomputed, {} decryption shares from the others checked, {} moves checked)",
        report.hands, report.shuffles, report.openings, report.moves
    )?;
    // Teams by their seats, as the window's verify words name them when no names are known.
    let seats = fairdeal_core::Seat::ALL.map(|s| s.name().to_owned());
    let team = |t| crate::gui::verify_words::team(&seats, t);
    writeln!(
        out,
        "totals: {} {}, {} {}",
        team(Team::A),
        report.totals[0],
        team(Team::B),
        report.totals[1]
    )?;
    if let Some(bug) = report.broken {
        writeln!(
            out,
            "NOT VERIFIED: this log's replay broke ({bug}): a fault of fairdeal or a damaged \
             log, not evidence against any seat"
        )?;
        return Ok(false);
    }
    if let Some((seat, fault)) = report.fault {
        let who = seat.map_or_else(
            || "no seat can be named".to_owned(),
            |s| format!("seat {}", s.name()),
        );
        writeln!(out, "FAULT: {who}: {fault}")?;
        return Ok(false);
    }
    if report.hands == 0 {
        // Nothing was checked: never say "verified" (an unfinished first hand, a damaged last
        // record, or a log written by another version of fairdeal).
        writeln!(
            out,
            "nothing verified: this log holds no finished hand (a game stopped in its first hand, a damaged last record, or a log from another version of fairdeal)"
        )?;
        return Ok(false);
    }
    let state = match report.result {
        Some(GameResult::Won(t)) => format!("game over, {} won", team(t)),
        Some(GameResult::Drawn) => "game over, drawn".to_owned(),
        _ => "game running".to_owned(),
    };
    let unchecked = if report.torn_bytes > 0 {
        "; the damaged last record was not checked"
    } else {
        ""
    };
    writeln!(
        out,
        "verified: {}, all signatures, chains, shuffles, openings, moves and scores check out; {state}{unchecked}",
        crate::table_words::hands(report.hands)
    )?;
    Ok(true)
}

/// `fairdeal relay`: runs a relay until Ctrl-C, printing `relay: MULTIADDR` for each address
/// it listens at and a line for each circuit opened or cut.
///
/// # Errors
///
/// The identity cannot be read, or the address cannot be listened on.
pub async fn relay(listen: Multiaddr, data_dir: PathBuf) -> Result<()> {
    use fairdeal_net::node::relay::{RelayEvent, RelayLimits, serve};
    let secret = store::identity_secret(&data_dir, random32).context("reading the identity")?;
    let (tx, mut rx) = mpsc::channel(64);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
    let relay = tokio::spawn(serve(secret, listen, RelayLimits::default(), tx, stop_rx));
    let printer = async {
        while let Some(ev) = rx.recv().await {
            match ev {
                RelayEvent::Listening(a) => println!("relay: {a}"),
                RelayEvent::Reserved(p) => println!("reserved: {p}"),
                RelayEvent::CircuitOpened { src, dst } => println!("circuit: {src} -> {dst}"),
                RelayEvent::CircuitClosed { src, dst, cut } => {
                    let how = if cut { "cut at a limit" } else { "closed" };
                    println!("circuit {how}: {src} -> {dst}");
                }
                RelayEvent::Refused(what) => println!("refused: {what}"),
            }
            let _ = std::io::stdout().flush();
        }
    };
    tokio::select! {
        () = printer => {}
        _ = tokio::signal::ctrl_c() => { let _ = stop_tx.send(()); }
    }
    relay.await.context("the relay stopped")??;
    Ok(())
}
