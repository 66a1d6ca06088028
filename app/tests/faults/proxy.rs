//! A loopback TCP proxy that injects network faults on a script, deterministic and needing no
//! privileges: each seat listens behind a front port of its own and announces the front
//! (`FAIRDEAL_ANNOUNCE`), so every connection between two seats passes one front. libp2p
//! dials from the port a peer listens on, so the front knows which seat a connection comes
//! from too, and a seat can be cut off from everyone.
//!
//! Faults, as a router or a Wi-Fi link makes them:
//! - an *outage* (the whole network, or one seat's link): nothing passes, nothing is reset;
//!   bytes wait, new connections are accepted and hang — as when a router restarts; when it
//!   ends, what waited passes at its next retransmission (TCP's doubling timeouts, see
//!   `Link::pump`);
//! - *loss*: a TCP stream never loses bytes, it retransmits them late; a lost segment is
//!   modelled as its chunk held back for a retransmission timeout (200 ms, doubled for each
//!   loss in a row, at most 1.6 s), drawn from a fixed stream so that a run repeats;
//! - a *move*: a seat's old address stops working for good (its connections hang, its front
//!   refuses new ones) while the seat keeps its port and dials out, as after roaming.

use std::collections::BTreeSet;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the script has done to the network now.
#[derive(Debug, Default)]
struct Faults {
    /// Nothing passes anywhere.
    all_down: bool,
    /// Seats whose links pass nothing.
    cut: BTreeSet<usize>,
    /// Seats that moved: connections of theirs made before the move pass nothing, for good.
    moved: BTreeSet<usize>,
    /// The chance of losing a chunk, per ten thousand.
    loss_per_10k: u64,
}

/// A running proxy for four seats.
pub struct Proxy {
    /// Each seat's front port (what it announces).
    pub fronts: [u16; 4],
    /// Each seat's real port (where it listens).
    pub reals: [u16; 4],
    faults: Arc<Mutex<Faults>>,
    /// Connections accepted whose seat of origin was not told by their port.
    pub unknown: Arc<AtomicU64>,
    /// Chunks held back as lost.
    pub lost: Arc<AtomicU64>,
    /// The draws of the loss stream so far.
    draws: Arc<AtomicU64>,
    /// Fronts closed for good (a moved seat's).
    closed: [Arc<AtomicBool>; 4],
    /// Incremented at each move: a connection remembers the generation it was made in.
    generation: Arc<AtomicU64>,
}

/// A loopback port below the kernel's ephemeral range (from 32768), free when tried: a port
/// of that range, bound and let go, may be taken by an outgoing connection before the seat
/// listens on it.
fn free_port() -> u16 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = 20_000 + (u64::from(std::process::id()) % 500) * 20;
    loop {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let port = u16::try_from(base + n % 10_000).unwrap_or(20_000);
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

impl Proxy {
    /// Fronts for four seats, forwarding to four free real ports.
    pub fn start() -> Self {
        let reals = [(); 4].map(|()| free_port());
        let listeners = [(); 4].map(|()| TcpListener::bind("127.0.0.1:0").expect("a front"));
        let fronts = [0, 1, 2, 3].map(|i| listeners[i].local_addr().map_or(0, |a| a.port()));
        let p = Self {
            fronts,
            reals,
            faults: Arc::default(),
            unknown: Arc::default(),
            lost: Arc::default(),
            draws: Arc::default(),
            closed: [(); 4].map(|()| Arc::new(AtomicBool::new(false))),
            generation: Arc::default(),
        };
        for (seat, l) in listeners.into_iter().enumerate() {
            p.serve(seat, l);
        }
        p
    }

    /// The network goes down (`true`) or comes back.
    pub fn all_down(&self, down: bool) {
        self.faults.lock().expect("faults").all_down = down;
    }

    /// Seat `seat`'s link goes down (`true`) or comes back.
    pub fn cut(&self, seat: usize, down: bool) {
        let mut f = self.faults.lock().expect("faults");
        if down {
            f.cut.insert(seat);
        } else {
            f.cut.remove(&seat);
        }
    }

    /// Loses this share of chunks (per ten thousand), from now on.
    pub fn loss(&self, per_10k: u64) {
        self.faults.lock().expect("faults").loss_per_10k = per_10k;
    }

    /// Seat `seat` moves: its announced address is dead for good, its old connections hang.
    pub fn moved(&self, seat: usize) {
        self.faults.lock().expect("faults").moved.insert(seat);
        self.closed[seat].store(true, Ordering::SeqCst);
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    /// Accepts connections at `seat`'s front and forwards each to its real port.
    fn serve(&self, seat: usize, listener: TcpListener) {
        let real = self.reals[seat];
        let reals = self.reals;
        let faults = self.faults.clone();
        let unknown = self.unknown.clone();
        let lost = self.lost.clone();
        let draws = self.draws.clone();
        let closed = self.closed[seat].clone();
        let generation = self.generation.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(a) = conn else { continue };
                if closed.load(Ordering::SeqCst) {
                    // A moved seat's old address: refused (the listener stays, so the port
                    // is not taken by anything else).
                    let _ = a.shutdown(Shutdown::Both);
                    continue;
                }
                let from = a
                    .peer_addr()
                    .ok()
                    .and_then(|p| reals.iter().position(|r| *r == p.port()));
                if from.is_none() {
                    unknown.fetch_add(1, Ordering::SeqCst);
                }
                let Ok(b) = TcpStream::connect(("127.0.0.1", real)) else {
                    continue;
                };
                let link = Link {
                    ends: [Some(seat), from],
                    faults: faults.clone(),
                    lost: lost.clone(),
                    draws: draws.clone(),
                    born: generation.load(Ordering::SeqCst),
                    generation: generation.clone(),
                };
                link.pump(&a, &b);
                link.pump(&b, &a);
            }
        });
    }
}

/// One proxied connection: the seats at its ends (the origin may be unknown), when it was
/// made, and the faults it obeys.
#[derive(Clone)]
struct Link {
    ends: [Option<usize>; 2],
    faults: Arc<Mutex<Faults>>,
    lost: Arc<AtomicU64>,
    draws: Arc<AtomicU64>,
    born: u64,
    generation: Arc<AtomicU64>,
}

/// The retransmission timeout a lost chunk waits, at first.
const RTO: Duration = Duration::from_millis(200);
/// The longest a lost chunk waits (losses in a row double the wait up to this).
const RTO_MAX: Duration = Duration::from_millis(1600);
/// The longest one retransmission wait of Linux's TCP (`TCP_RTO_MAX`).
const TCP_RTO_MAX: Duration = Duration::from_secs(120);

impl Link {
    /// Whether nothing passes on this link now.
    fn down(&self) -> bool {
        let f = self.faults.lock().expect("faults");
        let gen_now = self.generation.load(Ordering::SeqCst);
        // A connection of unknown origin (a second one between two seats, which libp2p dials
        // from a new port) may be the cut seat's: it is cut too, and the others, whose
        // connections are told by their ports, dial again.
        f.all_down
            || self.ends.iter().flatten().any(|s| f.cut.contains(s))
            || (self.ends[1].is_none() && !f.cut.is_empty())
            || (self.born < gen_now && self.ends.iter().flatten().any(|s| f.moved.contains(s)))
    }

    /// Whether the next chunk is lost (a fixed stream: a SplitMix64 of the draw's number).
    fn lose(&self) -> bool {
        let per = self.faults.lock().expect("faults").loss_per_10k;
        if per == 0 {
            return false;
        }
        let n = self.draws.fetch_add(1, Ordering::SeqCst);
        let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        z % 10_000 < per
    }

    /// Copies `from` to `to` on a thread, obeying the faults; either end closing closes both.
    ///
    /// A chunk read while the link is down is delivered as TCP would deliver a segment sent
    /// into a dead network: retransmitted after 200 ms, then after doubling waits (Linux caps
    /// one wait at 120 s), so that it arrives at the first retransmission after the network
    /// is back, not the moment it is back. A sender always has such a chunk in flight (pings
    /// go every second), so a connection kept through an outage of 20 s resumes about 5 s
    /// after it, one kept through 60 s about 40 s after it; a connection made after the
    /// network is back passes at once.
    fn pump(&self, from: &TcpStream, to: &TcpStream) {
        let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
            return;
        };
        let link = self.clone();
        std::thread::spawn(move || {
            let _ = from.set_read_timeout(Some(Duration::from_millis(50)));
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                let n = match from.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                        continue;
                    }
                    Err(_) => break,
                };
                let mut wait = RTO;
                while link.lose() {
                    link.lost.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(RTO_MAX);
                }
                let mut rto = RTO;
                while link.down() {
                    std::thread::sleep(rto);
                    rto = (rto * 2).min(TCP_RTO_MAX);
                }
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = from.shutdown(Shutdown::Both);
            let _ = to.shutdown(Shutdown::Both);
        });
    }
}
