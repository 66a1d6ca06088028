//! `fairdeal watch` on a four-process table on loopback: a spectator started once the table
//! plays prints the moves as it checks them; killed mid-game and started again under the same
//! name, the new process catches up from the start (the same moves first), follows to the
//! end with each deal verified and the final result (the host's), and exits 0; the host's
//! output names the spectator, says when it is gone and names it again when it is back.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fairdeal"));
    c.env("FAIRDEAL_LOG", "warn");
    c
}

/// Children killed when the test ends, however it ends.
struct Procs(Vec<Child>);

impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Reads `child`'s stdout on a thread into a shared string.
fn collect(child: &mut Child) -> std::sync::Arc<std::sync::Mutex<String>> {
    let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = text.clone();
    let out = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for l in out.lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&l);
            s.push('\n');
        }
    });
    text
}

fn wait_for(text: &std::sync::Mutex<String>, what: &str, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if text.lock().unwrap().contains(what) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_spectator_killed_mid_game_comes_back_and_watches_to_the_end() {
    let data = std::env::temp_dir().join(format!("fairdeal-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut procs = Procs(Vec::new());
    let mut host = bin()
        .args([
            "host", "--table", "t", "--preset", "canasta", "--target", "1500",
        ])
        .args(["--bot", "expert", "--no-mdns", "--think-ms", "20"])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(data.join("h"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let host_out = collect(&mut host);
    procs.0.push(host);
    assert!(wait_for(&host_out, "address: ", Duration::from_secs(30)));
    let address = host_out
        .lock()
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("address: ").map(str::to_owned))
        .unwrap();
    for i in 0..3 {
        let j = bin()
            .args([
                "join",
                "--address",
                &address,
                "--bot",
                "greedy",
                "--think-ms",
                "20",
            ])
            .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
            .arg(data.join(format!("j{i}")))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        procs.0.push(j);
    }
    let spectator = || {
        bin()
            .args(["watch", "--address", &address, "--name", "kib"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let moves_of = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("  move: "))
            .map(str::to_owned)
            .collect()
    };
    // The first spectator follows a few moves and is killed (no goodbye: its connection
    // just closes).
    let mut first = spectator();
    let first_seen = collect(&mut first);
    let start = Instant::now();
    while moves_of(&first_seen.lock().unwrap()).len() < 10 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the first spectator saw no 10 moves:\n{}",
            first_seen.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let before = moves_of(&first_seen.lock().unwrap());
    assert!(
        wait_for(&host_out, "nobody is watching", Duration::from_secs(30)),
        "the host sees the spectator gone"
    );
    let gone_at = host_out.lock().unwrap().len();
    let mut watcher = spectator();
    let seen = collect(&mut watcher);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = watcher.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = watcher.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    std::thread::sleep(Duration::from_millis(300));
    let text = seen.lock().unwrap().clone();
    let mut err = String::new();
    if let Some(mut e) = watcher.stderr.take() {
        use std::io::Read as _;
        let _ = e.read_to_string(&mut err);
    }
    assert!(
        status.is_some_and(|s| s.success()),
        "watch exits 0:\n{text}\n{err}"
    );
    assert!(text.contains("table t: "), "{text}");
    assert!(text.contains("watching: kib"), "{text}");
    let moves = moves_of(&text);
    assert!(moves.len() > 20, "{} moves printed:\n{text}", moves.len());
    assert!(
        moves.len() > before.len() && moves[..before.len()] == before[..],
        "the spectator back catches up with the same moves first"
    );
    assert!(text.contains("✔ Deal verified"), "{text}");
    let over = text.lines().find(|l| l.starts_with("game over: ")).unwrap();
    assert!(wait_for(&host_out, "game over: ", Duration::from_secs(60)));
    let host_text = host_out.lock().unwrap().clone();
    assert!(
        host_text.contains(over),
        "the host's result: {over}\n{host_text}"
    );
    assert!(host_text.contains("watching: kib"), "{host_text}");
    assert!(
        host_text[gone_at..].contains("watching: kib"),
        "the host names the spectator back:\n{host_text}"
    );
    let _ = std::fs::remove_dir_all(&data);
}
