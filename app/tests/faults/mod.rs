//! Four `fairdeal` processes behind the fault-injection proxy (`proxy.rs`): started, their
//! output lines and trace files timed, their logs verified at the end.

#![allow(dead_code, reason = "each test uses some of these")]
#![expect(clippy::unwrap_used, reason = "test set-up")]

pub mod proxy;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use proxy::Proxy;

/// Nanoseconds since the epoch (the traces' clock).
pub fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// One seat's process, with its output lines as they came (time in ns, line).
pub struct Peer {
    pub child: Child,
    pub lines: Arc<Mutex<Vec<(u128, String)>>>,
    pub dir: PathBuf,
    pub trace: PathBuf,
}

impl Peer {
    /// Its output so far, one string.
    pub fn text(&self) -> String {
        let l = self.lines.lock().unwrap();
        l.iter().map(|(_, s)| format!("{s}\n")).collect()
    }

    /// When a line containing `what` was first printed at or after `after` (ns), if it was.
    pub fn first_line(&self, what: &str, after: u128) -> Option<u128> {
        let l = self.lines.lock().unwrap();
        l.iter()
            .find(|(t, s)| *t >= after && s.contains(what))
            .map(|(t, _)| *t)
    }

    /// The moves of its trace (ns of each).
    pub fn moves(&self) -> Vec<u128> {
        std::fs::read_to_string(&self.trace)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("moved "))
            .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
            .collect()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A table of four processes behind a proxy.
pub struct Table {
    pub proxy: Proxy,
    pub peers: Vec<Peer>,
    pub host_address: String,
    dir: PathBuf,
    extra: Vec<String>,
}

/// The `fairdeal` binary, with warnings only.
fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fairdeal"));
    c.env(
        "FAIRDEAL_LOG",
        std::env::var("FAULTS_LOG").unwrap_or_else(|_| "warn".to_owned()),
    );
    c
}

/// Reads a child's stdout into timed lines on a thread; returns the lines.
fn read_lines(child: &mut Child) -> Arc<Mutex<Vec<(u128, String)>>> {
    let out = BufReader::new(child.stdout.take().unwrap());
    let lines: Arc<Mutex<Vec<(u128, String)>>> = Arc::default();
    let sink = lines.clone();
    std::thread::spawn(move || {
        for l in out.lines().map_while(Result::ok) {
            sink.lock().unwrap().push((now_ns(), l));
        }
    });
    lines
}

impl Table {
    /// Starts the host (South) and three joiners, each behind its front; `extra` goes to
    /// every process (`--grace-secs 30`, say).
    pub fn start(name: &str, target: &str, extra: &[&str]) -> Self {
        let dir =
            std::env::temp_dir().join(format!("fairdeal-faults-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let proxy = Proxy::start();
        let extra: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
        let mut t = Self {
            proxy,
            peers: Vec::new(),
            host_address: String::new(),
            dir,
            extra,
        };
        let host = t.spawn(
            0,
            &[
                "host", "--table", "t", "--preset", "canasta", "--target", target,
            ],
        );
        let start = Instant::now();
        let address = loop {
            if let Some(a) = host
                .text()
                .lines()
                .find_map(|l| l.strip_prefix("address: ").map(str::to_owned))
            {
                break a;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the host never listened"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // The joiners reach the host through its front.
        let real = format!("/tcp/{}/", t.proxy.reals[0]);
        let front = format!("/tcp/{}/", t.proxy.fronts[0]);
        t.host_address = address.replace(&real, &front);
        t.peers.push(host);
        for i in 1..4 {
            let a = t.host_address.clone();
            let p = t.spawn(i, &["join", "--address", &a]);
            t.peers.push(p);
        }
        t
    }

    /// Starts seat `i`'s process (again, after a kill: it rebuilds from its log).
    pub fn spawn(&self, i: usize, args: &[&str]) -> Peer {
        let dir = self.dir.join(format!("s{i}"));
        let trace = self.dir.join(format!("trace{i}-{}", now_ns()));
        let mut child = bin()
            .env(
                "FAIRDEAL_ANNOUNCE",
                format!("/ip4/127.0.0.1/tcp/{}", self.proxy.fronts[i]),
            )
            .args(args)
            .args(["--bot", "expert"])
            .args(if args[0] == "host" {
                &["--no-mdns"][..]
            } else {
                &[][..]
            })
            .arg("--listen")
            .arg(format!("/ip4/127.0.0.1/tcp/{}", self.proxy.reals[i]))
            .arg("--data-dir")
            .arg(&dir)
            .arg("--trace")
            .arg(&trace)
            .args(&self.extra)
            .stdout(Stdio::piped())
            .stderr(self.stderr(i))
            .spawn()
            .unwrap();
        let lines = read_lines(&mut child);
        Peer {
            child,
            lines,
            dir,
            trace,
        }
    }

    /// Where seat `i`'s warnings go: nowhere, or with `FAULTS_LOG=LEVEL` into `s{i}.err` in the
    /// table's folder (to see why a test failed).
    fn stderr(&self, i: usize) -> Stdio {
        if std::env::var_os("FAULTS_LOG").is_none() {
            return Stdio::null();
        }
        std::fs::File::create(self.dir.join(format!("s{i}.err")))
            .map_or_else(|_| Stdio::null(), Stdio::from)
    }

    /// Waits until some seat's trace shows `n` moves in hand 1 (or two minutes pass).
    pub fn wait_moves(&self, n: usize) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(120) {
            if self.peers.iter().any(|p| p.moves().len() >= n) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The first move any seat's trace shows after `after` (ns).
    pub fn first_move_after(&self, after: u128) -> Option<u128> {
        self.peers
            .iter()
            .flat_map(Peer::moves)
            .filter(|t| *t > after)
            .min()
    }

    /// Waits for every process to end (the game over), within `limit`; whether all did
    /// successfully.
    pub fn finish(&mut self, limit: Duration) -> bool {
        let start = Instant::now();
        let mut ok = true;
        for p in &mut self.peers {
            loop {
                if let Some(s) = p.child.try_wait().unwrap() {
                    ok &= s.success();
                    break;
                }
                if start.elapsed() > limit {
                    let _ = p.child.kill();
                    return false;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        ok
    }

    /// Every seat's output, labelled.
    pub fn outputs(&self) -> String {
        self.peers
            .iter()
            .enumerate()
            .map(|(i, p)| format!("--- seat {i}\n{}", p.text()))
            .collect()
    }

    /// Asserts that nothing was lost: the game is over at every seat, no hand was void, and
    /// every seat's transcript and private log verify.
    pub fn nothing_lost(&self) {
        let out = self.outputs();
        assert!(
            self.peers[0]
                .text()
                .lines()
                .any(|l| l.starts_with("game over:")),
            "{out}"
        );
        assert!(!out.contains(" void: "), "a hand was void: {out}");
        for p in &self.peers {
            for file in ["transcript.fdt", "GAME.fdlog"] {
                let o = bin().arg("verify").arg(p.dir.join(file)).output().unwrap();
                let text = String::from_utf8_lossy(&o.stdout);
                assert!(o.status.success(), "{}: {text}", p.dir.display());
            }
        }
    }
}

/// Seconds between two ns stamps, to a tenth.
pub fn secs(from: u128, to: u128) -> f64 {
    (to.saturating_sub(from) / 100_000_000) as f64 / 10.0
}

/// The path of a seat's folder (for a restart).
pub fn seat_dir(t: &Table, i: usize) -> &Path {
    &t.peers[i].dir
}

/// Starts a `fairdeal` process on plain loopback (no proxy) with `args`, its output timed and
/// its trace in `trace`.
pub fn spawn_plain(args: &[String], dir: &Path, trace: &Path) -> Peer {
    let mut child = bin()
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .arg("--trace")
        .arg(trace)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = read_lines(&mut child);
    Peer {
        child,
        lines,
        dir: dir.to_owned(),
        trace: trace.to_owned(),
    }
}

/// Whether a trace file has a line starting with `prefix`.
pub fn traced(trace: &Path, prefix: &str) -> bool {
    std::fs::read_to_string(trace)
        .unwrap_or_default()
        .lines()
        .any(|l| l.starts_with(prefix))
}

/// Verifies a folder's transcript and private log; the reports when either fails.
pub fn verify_dir(dir: &Path) -> Result<(), String> {
    for file in ["transcript.fdt", "GAME.fdlog"] {
        let o = bin().arg("verify").arg(dir.join(file)).output().unwrap();
        if !o.status.success() {
            return Err(format!(
                "{}: {}",
                dir.join(file).display(),
                String::from_utf8_lossy(&o.stdout)
            ));
        }
    }
    Ok(())
}
