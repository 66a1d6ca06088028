//! The bridge between the UI thread and the network: a tokio runtime on a background thread
//! runs the nodes; the UI sends intents with `try_send` and drains events without blocking.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use fairdeal_core::Preset;
use fairdeal_net::node::{self, Intent, NodeEvent, NodeOptions, Role};
use tokio::sync::mpsc;

use crate::peer::random32;

/// A running game seen from the UI thread.
pub struct Connection {
    /// Intents to the local seat's node.
    pub intents: mpsc::Sender<Intent>,
    /// Events from it (drained in `App::logic`).
    pub events: mpsc::Receiver<NodeEvent>,
}

/// Starts a local table: this player at South, three computer players of `difficulty`, over
/// loopback, with the game logs under `data_dir`. `repaint` is called after every event.
///
/// # Errors
///
/// The runtime cannot start.
pub fn start_local(
    preset: Preset,
    difficulty: &str,
    name: &str,
    data_dir: PathBuf,
    seed: Option<u64>,
    repaint: impl Fn() + Send + Sync + 'static,
) -> Result<Connection> {
    // Secrets from the OS, or (tests) all derived from one seed so the game replays exactly.
    let mut counter = 0u64;
    let mut fresh = move || -> [u8; 32] {
        match seed {
            Some(s) => {
                counter += 1;
                let mut b = [0u8; 32];
                b[..8].copy_from_slice(&s.to_le_bytes());
                b[8..16].copy_from_slice(&counter.to_le_bytes());
                b
            }
            None => random32(),
        }
    };
    let secrets: Vec<[u8; 32]> = (0..8).map(|_| fresh()).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let (ui_tx, ui_rx) = mpsc::channel(1024);
    let (in_tx, in_rx) = mpsc::channel(64);
    let difficulty = difficulty.to_owned();
    let name = name.to_owned();
    // A fresh folder per game: each game has its own log.
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let game_dir = data_dir.join(format!("game-{stamp}"));
    let secret = fairdeal_net::store::identity_secret(&data_dir.join("me"), random32)
        .map_err(|e| anyhow!("{e}"))?;
    std::thread::Builder::new()
        .name("fairdeal-net".to_owned())
        .spawn(move || {
            runtime.block_on(async move {
                let listen: libp2p::Multiaddr = match "/ip4/127.0.0.1/tcp/0".parse() {
                    Ok(a) => a,
                    Err(_) => return,
                };
                let (ev_tx, mut ev_rx) = mpsc::channel(1024);
                let host = NodeOptions {
                    data_dir: game_dir.join("seat0"),
                    listen: listen.clone(),
                    mdns: false,
                    role: Role::Host {
                        table: "local".to_owned(),
                        preset,
                        house: Default::default(),
                    },
                    bot: None,
                    name,
                    grace_ms: None,
                    hold: false,
                    want: None,
                };
                // The player's identity lives outside the game folder.
                let _ = std::fs::create_dir_all(game_dir.join("seat0"));
                let _ = std::fs::write(game_dir.join("seat0").join("identity.key"), secret);
                let host_task = tokio::spawn(node::run(host, secret, secrets[1], ev_tx, in_rx));
                let mut address = None;
                while let Some(ev) = ev_rx.recv().await {
                    if let NodeEvent::Listening(a) = &ev {
                        address = Some(a.clone());
                        break;
                    }
                }
                let Some(address) = address else { return };
                for (i, seat) in ["West", "North", "East"].iter().enumerate() {
                    let opts = NodeOptions {
                        data_dir: game_dir.join(format!("seat{}", i + 1)),
                        listen: listen.clone(),
                        mdns: false,
                        role: Role::Join {
                            address: Some(address.clone()),
                            table: None,
                        },
                        bot: Some(difficulty.clone()),
                        name: format!("Computer {seat}"),
                        grace_ms: None,
                        hold: false,
                        want: None,
                    };
                    let secret = random32();
                    let (tx, mut rx) = mpsc::channel(256);
                    let (_itx, irx) = mpsc::channel(4);
                    tokio::spawn(async move {
                        let keep = _itx;
                        let _ = node::run(opts, secret, random32(), tx, irx).await;
                        drop(keep);
                    });
                    tokio::spawn(async move { while rx.recv().await.is_some() {} });
                }
                while let Some(ev) = ev_rx.recv().await {
                    if ui_tx.send(ev).await.is_err() {
                        break;
                    }
                    repaint();
                }
                let _ = host_task.await;
            });
        })?;
    Ok(Connection {
        intents: in_tx,
        events: ui_rx,
    })
}
