//! A stranger floods a seat over loopback TCP while four seats play a game.
//!
//! The flooded seat (the host) runs in a child process (this binary, started again with
//! `FAIRDEAL_FLOOD_SEAT` set), so that its peak memory (`VmHWM`) is its own; the three other
//! seats and the attackers run here. Several attacker identities, each its own connection,
//! keep sending framed random payloads, validly signed table messages of their own,
//! oversized frames, frames cut short, and streams held open mid-frame, redialling when the
//! host drops them. The game must finish, every log must verify, and the host's log must
//! hold nothing from an attacker. The figures (flood duration, what was sent, log sizes, the
//! host's peak memory) are printed, not asserted as timings.
//!
//! `FAIRDEAL_FLOOD=0` plays the same game without attackers (for a baseline);
//! `FAIRDEAL_FLOOD_ATTACKERS`, `FAIRDEAL_FLOOD_STREAMS` (requests in flight per attacker) and
//! `FAIRDEAL_FLOOD_HOLD=1` (only streams held open with half of a frame of
//! `FAIRDEAL_FLOOD_HOLD_LEN` bytes, 64 KiB by default) change it.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::Seat;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use fairdeal_core::{HouseRules, Preset, SplitMix64};
use fairdeal_crypto::Identity;
use fairdeal_net::node::{self, NodeEvent, NodeOptions, Role};
use fairdeal_net::table::TableEvent;
use fairdeal_net::table::msg::{SeatInfo, Statement, TableMsg};
use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, StreamExt};
use libp2p::request_response::{self as rr, Codec, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, noise, tcp, yamux};
use tokio::sync::mpsc;

const TARGET: i32 = 2000;
const ATTACKERS: u8 = 6;

/// A knob from the environment, or its default.
fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
/// Requests each attacker keeps in flight.
const IN_FLIGHT: usize = 48;

fn options(dir: &Path, role: Role, name: &str) -> NodeOptions {
    NodeOptions {
        data_dir: dir.to_owned(),
        listen: "/ip4/127.0.0.1/tcp/0".parse().unwrap(),
        mdns: false,
        role,
        bot: Some("greedy".to_owned()),
        name: name.to_owned(),
        grace_ms: None,
        hold: false,
        want: None,
        think_ms: 0,
        move_clock_ms: 0,
        wait_for_person: false,
        countdown: true,
        relay: None,
    }
}

fn status(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The child: the host's seat, until the game ends; prints its addresses and peak memory.
fn child(dir: PathBuf) -> std::process::ExitCode {
    let rt = node::runtime(2).unwrap();
    let secret = [7; 32];
    fairdeal_net::store::identity_secret(&dir, || secret).unwrap();
    let house = HouseRules {
        target: Some(TARGET),
        ..HouseRules::default()
    };
    let opts = options(
        &dir,
        Role::Host {
            table: "Flooded".into(),
            preset: Preset::Samba,
            house,
        },
        "Host",
    );
    let outcome = rt.block_on(async move {
        let (tx, mut rx) = mpsc::channel(4096);
        let (_itx, irx) = mpsc::channel(16);
        let printer = tokio::spawn(async move {
            while let Some(ev) = rx.recv().await {
                match ev {
                    NodeEvent::Listening(a) => println!("LISTEN {a}"),
                    NodeEvent::Table(TableEvent::HandStarted(n)) => println!("HAND {n}"),
                    NodeEvent::Table(TableEvent::Paused(s)) => println!("PAUSED {s:?}"),
                    NodeEvent::Table(TableEvent::HandVoided { hand_no, seat, .. }) => {
                        println!("VOIDED {hand_no} {seat:?}");
                    }
                    _ => {}
                }
            }
        });
        let out = node::run(opts, secret, [8; 32], tx, irx).await;
        printer.abort();
        out
    });
    println!("VMHWM {}", status("VmHWM:"));
    println!("VMRSS {}", status("VmRSS:"));
    match outcome {
        Ok(o) => {
            println!("OUTCOME {:?} {:?}", o.totals, o.result);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            println!("FAILED {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// What an attacker's stream carries.
#[derive(Debug, Clone)]
enum Attack {
    /// `len ‖ bytes`, then closed.
    Frame(Vec<u8>),
    /// These bytes as they are (a bad length, a frame cut short), then closed.
    Raw(Vec<u8>),
    /// These bytes, then the stream is held open.
    Hold(Vec<u8>, Duration),
}

#[derive(Debug, Clone, Copy, Default)]
struct AttackCodec;

#[async_trait]
impl Codec for AttackCodec {
    type Protocol = StreamProtocol;
    type Request = Attack;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, _: &mut T) -> std::io::Result<Attack>
    where
        T: AsyncRead + Unpin + Send,
    {
        Err(std::io::Error::other("an attacker takes no requests"))
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        let mut buf = Vec::new();
        io.take(1 << 16).read_to_end(&mut buf).await?;
        Ok(buf)
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        req: Attack,
    ) -> std::io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        match req {
            Attack::Frame(b) => {
                io.write_all(&(b.len() as u32).to_be_bytes()).await?;
                io.write_all(&b).await?;
            }
            Attack::Raw(b) => io.write_all(&b).await?,
            Attack::Hold(b, d) => {
                io.write_all(&b).await?;
                io.flush().await?;
                tokio::time::sleep(d).await;
            }
        }
        io.close().await
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        _: &mut T,
        _: Vec<u8>,
    ) -> std::io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        Err(std::io::Error::other("an attacker sends no responses"))
    }
}

#[derive(Default)]
struct Tally {
    sent: AtomicU64,
    answered: AtomicU64,
    failed: AtomicU64,
    connections: AtomicU64,
    bytes: AtomicU64,
}

fn random_bytes(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

/// `n` random bytes, cut from `pool` (cheaper than drawing them one by one).
fn cut(rng: &mut SplitMix64, pool: &[u8], n: usize) -> Vec<u8> {
    let at = (rng.next_u64() as usize) % (pool.len() - n);
    pool[at..at + n].to_vec()
}

/// One attack, chosen at random.
fn attack(rng: &mut SplitMix64, pool: &[u8], me: &Identity) -> Attack {
    let len = |rng: &mut SplitMix64| 1 + (rng.next_u64() % 65_536) as usize;
    if knob("FAIRDEAL_FLOOD_HOLD", 0) == 1 {
        let n = knob("FAIRDEAL_FLOOD_HOLD_LEN", 1 << 16);
        let mut b = (n as u32).to_be_bytes().to_vec();
        b.extend(cut(rng, pool, n / 2));
        return Attack::Hold(b, Duration::from_secs(20));
    }
    match rng.next_u64() % 10 {
        0..=3 => {
            let n = len(rng);
            Attack::Frame(cut(rng, pool, n))
        }
        4 => {
            // Well-formed, validly signed by the attacker, and not the attacker's to send.
            let sid: [u8; 32] = cut(rng, pool, 32).try_into().unwrap();
            let msg = match rng.next_u64() % 4 {
                0 => TableMsg::Timeout {
                    hand_no: 1,
                    hctx: sid,
                    seat: Seat::W,
                    sig: me.sign(
                        &Statement::Timeout {
                            hand_no: 1,
                            hctx: &sid,
                            seat: Seat::W,
                        }
                        .digest(&sid),
                    ),
                },
                1 => TableMsg::Accept {
                    sid,
                    sig: me.sign(&sid),
                },
                2 => TableMsg::Hand {
                    bytes: cut(rng, pool, 2000),
                },
                _ => TableMsg::Join {
                    seat: SeatInfo {
                        key: me.public(),
                        name: "bad\u{7}name".into(),
                        bot: false,
                        addrs: Vec::new(),
                    },
                    want: None,
                    nonce: [0; 32],
                },
            };
            Attack::Frame(msg.encode())
        }
        5 | 6 => {
            // A length far over the limit, then some bytes.
            let mut b = (1u32 << 20 | rng.next_u64() as u32).to_be_bytes().to_vec();
            let n = len(rng);
            b.extend(cut(rng, pool, n));
            Attack::Raw(b)
        }
        7 => {
            // A frame cut short.
            let n = len(rng);
            let mut b = (n as u32).to_be_bytes().to_vec();
            b.extend(cut(rng, pool, n / 2));
            Attack::Raw(b)
        }
        _ => {
            // Half a frame, and the stream held open.
            let n = len(rng);
            let mut b = (n as u32).to_be_bytes().to_vec();
            b.extend(cut(rng, pool, n - 1));
            Attack::Hold(b, Duration::from_secs(20))
        }
    }
}

/// One attacker: a fresh identity for each connection (keeping one identity out does not
/// stop it), redialling as soon as the host hangs up.
async fn attacker(i: u8, host: PeerId, addr: Multiaddr, stop: Arc<AtomicBool>, tally: Arc<Tally>) {
    let mut rng = SplitMix64::new(u64::from(i) + 1);
    let pool = random_bytes(&mut rng, 1 << 20);
    let in_flight_max = knob("FAIRDEAL_FLOOD_STREAMS", IN_FLIGHT);
    let mut cycle = 0u64;
    while !stop.load(Ordering::Relaxed) {
        cycle += 1;
        let mut secret = [0u8; 32];
        secret[0] = 200;
        secret[1] = i;
        secret[2..10].copy_from_slice(&cycle.to_le_bytes());
        let me = Identity::from_secret(secret);
        let keypair = libp2p::identity::Keypair::ed25519_from_bytes(secret).unwrap();
        let mut swarm = libp2p::SwarmBuilder::with_existing_identity(keypair)
            .with_tokio()
            .with_tcp(
                tcp::Config::default().nodelay(true),
                noise::Config::new,
                yamux::Config::default,
            )
            .unwrap()
            .with_behaviour(|_| {
                rr::Behaviour::with_codec(
                    AttackCodec,
                    [(
                        StreamProtocol::new(fairdeal_net::table::msg::PROTOCOL),
                        ProtocolSupport::Outbound,
                    )],
                    rr::Config::default()
                        .with_request_timeout(Duration::from_secs(60))
                        .with_max_concurrent_streams(4 * in_flight_max),
                )
            })
            .unwrap()
            .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(3600)))
            .build();
        swarm.add_peer_address(host, addr.clone());
        for _ in 0..in_flight_max {
            let a = attack(&mut rng, &pool, &me);
            let n = match &a {
                Attack::Frame(b) | Attack::Raw(b) | Attack::Hold(b, _) => b.len(),
            };
            tally.bytes.fetch_add(n as u64, Ordering::Relaxed);
            tally.sent.fetch_add(1, Ordering::Relaxed);
            swarm.behaviour_mut().send_request(&host, a);
        }
        let mut in_flight = in_flight_max;
        let deadline = tokio::time::sleep(Duration::from_secs(40));
        tokio::pin!(deadline);
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        while in_flight > 0 && !stop.load(Ordering::Relaxed) {
            tokio::select! {
                () = &mut deadline => break,
                _ = tick.tick() => {}
                ev = swarm.select_next_some() => match ev {
                    SwarmEvent::Behaviour(rr::Event::Message { message, .. }) => {
                        in_flight -= 1;
                        let answer = matches!(message, rr::Message::Response { response, .. } if !response.is_empty());
                        if answer {
                            tally.answered.fetch_add(1, Ordering::Relaxed);
                        } else {
                            tally.failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    SwarmEvent::Behaviour(rr::Event::OutboundFailure { .. }) => {
                        in_flight -= 1;
                        tally.failed.fetch_add(1, Ordering::Relaxed);
                    }
                    SwarmEvent::ConnectionEstablished { .. } => {
                        tally.connections.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                },
            }
        }
    }
}

/// Where each seat stands, rebuilt from its log (when the game does not finish).
fn stuck(dir: &Path) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    for name in &names {
        let Some(secret) = fairdeal_net::store::read_identity(&dir.join(name)) else {
            continue;
        };
        let Ok(loaded) = fairdeal_net::store::read(&dir.join(name).join("GAME.fdlog")) else {
            continue;
        };
        let mut from = std::collections::BTreeMap::<String, usize>::new();
        let mut sent = 0;
        for r in &loaded.records {
            match r {
                fairdeal_net::store::Record::Recv { from: f, .. } => {
                    *from
                        .entry(
                            node::peer_of(&fairdeal_crypto::PublicKey(*f))
                                .map(|p| p.to_string()[44..].to_owned())
                                .unwrap_or_default(),
                        )
                        .or_default() += 1;
                }
                fairdeal_net::store::Record::Sent { .. } => sent += 1,
                _ => {}
            }
        }
        eprintln!("{name}: sent {sent}, received {from:?}");
        match node::rebuild(secret, &loaded.records) {
            Ok((s, _)) => eprintln!(
                "{name} ({:?}): hand {} waiting on {:?}, finished {:?}, {:?}",
                node::peer_of(&s.key()),
                s.hand_no(),
                s.waiting_on(),
                s.finished(),
                s.hand()
            ),
            Err(e) => eprintln!("{name}: {e}"),
        }
    }
}

fn log_size(dir: &Path) -> u64 {
    std::fs::metadata(dir.join("GAME.fdlog")).map_or(0, |m| m.len())
}

fn parent() {
    let flood = std::env::var("FAIRDEAL_FLOOD").map_or(true, |v| v != "0");
    let dir = std::env::temp_dir().join(format!("fairdeal-flood-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let host_dir = dir.join("host");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .env("FAIRDEAL_FLOOD_SEAT", &host_dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let address: Multiaddr = loop {
        let line = lines.next().expect("the host printed its address").unwrap();
        if let Some(a) = line.strip_prefix("LISTEN ") {
            break a.parse().unwrap();
        }
    };
    let host_peer = address
        .iter()
        .find_map(|p| match p {
            libp2p::multiaddr::Protocol::P2p(id) => Some(id),
            _ => None,
        })
        .unwrap();
    let rest = std::thread::spawn(move || {
        lines
            .map_while(Result::ok)
            .inspect(|l| eprintln!("host: {l}"))
            .collect::<Vec<String>>()
    });

    let rt = node::runtime(2).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    // The attackers have their own threads: they compete with the seats for the machine, not
    // for the seats' runtime.
    let attack_rt = node::runtime(2).unwrap();
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let outcomes = rt.block_on(async {
        if flood {
            for i in 0..knob("FAIRDEAL_FLOOD_ATTACKERS", ATTACKERS.into()) as u8 {
                let bare: Multiaddr = address
                    .iter()
                    .filter(|p| !matches!(p, libp2p::multiaddr::Protocol::P2p(_)))
                    .collect();
                attack_rt.spawn(attacker(i, host_peer, bare, stop.clone(), tally.clone()));
            }
        }
        let mut joins = Vec::new();
        for i in 0..3u8 {
            let seat_dir = dir.join(format!("seat{}", i + 1));
            let secret = [20 + i; 32];
            fairdeal_net::store::identity_secret(&seat_dir, || secret).unwrap();
            let opts = options(
                &seat_dir,
                Role::Join {
                    address: Some(address.clone()),
                    table: None,
                },
                &format!("Seat {}", i + 1),
            );
            let (tx, mut rx) = mpsc::channel(4096);
            let (itx, irx) = mpsc::channel(16);
            tokio::spawn(async move {
                while let Some(ev) = rx.recv().await {
                    match ev {
                        NodeEvent::Table(TableEvent::HandStarted(n)) => {
                            eprintln!("seat {}: hand {n}", i + 1);
                        }
                        NodeEvent::Table(TableEvent::HandVoided { hand_no, seat, .. }) => {
                            eprintln!("seat {}: hand {hand_no} voided for {seat:?}", i + 1);
                        }
                        NodeEvent::Table(TableEvent::GameOver { totals, .. }) => {
                            eprintln!("seat {}: game over {totals:?}", i + 1);
                        }
                        _ => {}
                    }
                }
            });
            joins.push(tokio::spawn(async move {
                let out = node::run(opts, secret, [30 + i; 32], tx, irx).await;
                drop(itx);
                out
            }));
        }
        let mut outs = Vec::new();
        for j in joins {
            match tokio::time::timeout(Duration::from_secs(600), j).await {
                Ok(out) => outs.push(out.unwrap()),
                Err(_) => {
                    stuck(&dir);
                    panic!("the game did not finish in time");
                }
            }
        }
        outs
    });
    let flood_time = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let status_ok = child.wait().unwrap().success();
    let child_out = rest.join().unwrap();
    drop(rt);
    drop(attack_rt);
    let hwm = child_out
        .iter()
        .find_map(|l| l.strip_prefix("VMHWM "))
        .unwrap_or("?")
        .to_owned();
    assert!(status_ok, "the flooded host finished: {child_out:?}");
    let totals: Vec<[i32; 2]> = outcomes
        .into_iter()
        .map(|o| o.expect("a seat finished").totals)
        .collect();
    assert!(totals.iter().all(|t| *t == totals[0]), "{totals:?}");

    // Every log verifies, and the host's holds nothing from an attacker.
    let seats: Vec<[u8; 32]> = (0..3u8)
        .map(|i| Identity::from_secret([20 + i; 32]).public().0)
        .collect();
    let mut sizes = Vec::new();
    for name in ["host", "seat1", "seat2", "seat3"] {
        let d = dir.join(name);
        let report = node::replay_log(&d.join("GAME.fdlog")).unwrap();
        assert_eq!(report.fault, None, "{name}");
        assert!(
            report.hands >= 1 && report.result.is_some(),
            "{name}: {report:?}"
        );
        assert_eq!(report.totals, totals[0], "{name}");
        sizes.push((name, log_size(&d), report.records));
    }
    let loaded = fairdeal_net::store::read(&host_dir.join("GAME.fdlog")).unwrap();
    let from_attackers = loaded
        .records
        .iter()
        .filter(|r| matches!(r, fairdeal_net::store::Record::Recv { from, .. } if !seats.contains(from)))
        .count();
    println!(
        "flood: {} for {:.1} s: {} requests ({} MiB) on {} connections, {} answered, {} not",
        if flood { "on" } else { "off" },
        flood_time.as_secs_f64(),
        tally.sent.load(Ordering::Relaxed),
        tally.bytes.load(Ordering::Relaxed) >> 20,
        tally.connections.load(Ordering::Relaxed),
        tally.answered.load(Ordering::Relaxed),
        tally.failed.load(Ordering::Relaxed),
    );
    let rss = child_out
        .iter()
        .find_map(|l| l.strip_prefix("VMRSS "))
        .unwrap_or("?")
        .to_owned();
    println!(
        "flood: host peak memory (VmHWM) {hwm} kB, {rss} kB at the end; logs (bytes, records): {sizes:?}"
    );
    println!("flood: records in the host's log from peers not seated: {from_attackers}");
    assert_eq!(
        from_attackers, 0,
        "the host's log holds nothing from a stranger"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() -> std::process::ExitCode {
    if let Ok(filter) = std::env::var("FAIRDEAL_LOG") {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .init();
    }
    if let Some(dir) = std::env::var_os("FAIRDEAL_FLOOD_STUCK") {
        stuck(Path::new(&dir));
        return std::process::ExitCode::SUCCESS;
    }
    if let Some(dir) = std::env::var_os("FAIRDEAL_FLOOD_SEAT") {
        return child(PathBuf::from(dir));
    }
    // `cargo test -- NAME` runs only the tests named; this binary's one test is `flood`.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "flood".contains(f.as_str())) {
        return std::process::ExitCode::SUCCESS;
    }
    println!("running 1 test\ntest flood ...");
    parent();
    println!("test flood ... ok");
    std::process::ExitCode::SUCCESS
}
