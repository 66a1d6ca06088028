//! `fairdeal bench net`: four peers on loopback in separate processes; medians and p99 of move
//! propagation and hand start, and the peers' peak memory.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, anyhow};

fn spawn(exe: &Path, args: &[String], trace: &Path) -> Result<Child> {
    Command::new(exe)
        .args(args)
        .arg("--trace")
        .arg(trace)
        .env("FAIRDEAL_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("starting a peer")
}

/// (hand, move) → time in ns, per peer; hand → started / dealt times; peak RSS.
#[derive(Default)]
struct Trace {
    moved: BTreeMap<(u32, u32), u128>,
    started: BTreeMap<u32, u128>,
    dealt: BTreeMap<u32, u128>,
    rss_kb: u64,
}

fn read_trace(path: &Path) -> Result<Trace> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut t = Trace::default();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["started", h, ns] => {
                t.started.insert(h.parse()?, ns.parse()?);
            }
            ["dealt", h, ns] => {
                t.dealt.insert(h.parse()?, ns.parse()?);
            }
            ["moved", h, i, ns] => {
                t.moved.insert((h.parse()?, i.parse()?), ns.parse()?);
            }
            ["rss", kb] => t.rss_kb = kb.parse()?,
            _ => {}
        }
    }
    Ok(t)
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Runs the benchmark in `dir` with games of `preset` to `target`, each computer player
/// waiting `think_ms` before a move.
///
/// # Errors
///
/// A peer that fails to start or finish.
pub fn net(
    out: &mut impl Write,
    dir: &Path,
    preset: &str,
    target: i32,
    think_ms: u64,
) -> Result<()> {
    let exe = std::env::current_exe()?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let traces: Vec<PathBuf> = (0..4).map(|i| dir.join(format!("trace{i}.txt"))).collect();
    let common = |i: usize| -> Vec<String> {
        vec![
            "--listen".into(),
            "/ip4/127.0.0.1/tcp/0".into(),
            "--data-dir".into(),
            dir.join(format!("seat{i}")).display().to_string(),
            "--bot".into(),
            "expert".into(),
            "--think-ms".into(),
            think_ms.to_string(),
        ]
    };
    let mut host_args: Vec<String> = vec![
        "host".into(),
        "--table".into(),
        "bench".into(),
        "--preset".into(),
        preset.into(),
        "--target".into(),
        target.to_string(),
        "--no-mdns".into(),
    ];
    host_args.extend(common(0));
    let mut host = spawn(&exe, &host_args, &traces[0])?;
    let mut stdout = BufReader::new(
        host.stdout
            .take()
            .ok_or_else(|| anyhow!("no host output"))?,
    );
    let mut line = String::new();
    let address = loop {
        line.clear();
        if stdout.read_line(&mut line)? == 0 {
            return Err(anyhow!("the host stopped before listening"));
        }
        if let Some(a) = line.strip_prefix("address: ") {
            break a.trim().to_owned();
        }
    };
    std::thread::spawn(move || for _ in stdout.lines() {});
    let mut peers = vec![host];
    for (i, trace) in traces.iter().enumerate().skip(1) {
        let mut args: Vec<String> = vec!["join".into(), "--address".into(), address.clone()];
        args.extend(common(i));
        peers.push(spawn(&exe, &args, trace)?);
    }
    for p in &mut peers {
        let status = p.wait()?;
        if !status.success() {
            return Err(anyhow!("a peer failed: {status}"));
        }
    }
    let t: Vec<Trace> = traces
        .iter()
        .map(|p| read_trace(p))
        .collect::<Result<_>>()?;
    let mut propagation = Vec::new();
    for (key, &first) in &t[0].moved {
        let times: Vec<u128> = std::iter::once(first)
            .chain(t[1..].iter().filter_map(|x| x.moved.get(key).copied()))
            .collect();
        if times.len() == 4 {
            let (lo, hi) = (
                times.iter().min().copied().unwrap_or(0),
                times.iter().max().copied().unwrap_or(0),
            );
            propagation.push((hi - lo) as f64 / 1e6);
        }
    }
    let mut starts = Vec::new();
    for h in t[0].started.keys() {
        let started: Vec<u128> = t.iter().filter_map(|x| x.started.get(h).copied()).collect();
        let dealt: Vec<u128> = t.iter().filter_map(|x| x.dealt.get(h).copied()).collect();
        if started.len() == 4 && dealt.len() == 4 {
            let lo = started.iter().min().copied().unwrap_or(0);
            let hi = dealt.iter().max().copied().unwrap_or(0);
            starts.push(hi.saturating_sub(lo) as f64 / 1e6);
        }
    }
    let rss = t.iter().map(|x| x.rss_kb).max().unwrap_or(0);
    let n_moves = propagation.len();
    let n_hands = starts.len();
    writeln!(
        out,
        "four peers in separate processes on loopback, {preset} to {target}, computer players waiting {think_ms} ms before a move: {n_hands} hands, {n_moves} moves"
    )?;
    writeln!(
        out,
        "move propagation (applied at the mover → applied at all three others): median {:.2} ms, p99 {:.2} ms",
        percentile(&mut propagation.clone(), 0.5),
        percentile(&mut propagation, 0.99)
    )?;
    writeln!(
        out,
        "hand start (first peer starts the hand → every seat holds its cards): median {:.1} ms, p99 {:.1} ms",
        percentile(&mut starts.clone(), 0.5),
        percentile(&mut starts, 0.99)
    )?;
    writeln!(
        out,
        "peak memory of a headless peer: {:.1} MB RSS",
        rss as f64 / 1024.0
    )?;
    Ok(())
}
