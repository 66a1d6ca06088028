//! `fairdeal check PATH...`: run conformance scenarios and report one line each.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use fairdeal_core::scenario::{Scenario, Verdict};

/// Counts of a check run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that failed (unreadable files included).
    pub failed: usize,
}

/// Every `*.json` file named by `paths` (folders are searched recursively), sorted.
///
/// # Errors
///
/// A path that does not exist or a folder that cannot be read.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out).with_context(|| format!("reading folder {}", p.display()))?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            anyhow::bail!("no such file or folder: {}", p.display());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
    Ok(())
}

/// The largest scenario file read (the shared cases are a few KiB each).
const MAX_SCENARIO_BYTES: u64 = 4 << 20;

/// A scenario file's text, read at most [`MAX_SCENARIO_BYTES`] (a device reports no size).
fn read_scenario(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    fairdeal_net::store::open_named(path)?
        .take(MAX_SCENARIO_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(std::io::Error::other(
            "larger than any scenario (over 4 MiB)",
        ));
    }
    Ok(text)
}

/// Reads and runs one scenario file; returns its id (or file name) and verdict.
pub fn check_file(path: &Path) -> (String, Verdict) {
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let text = match read_scenario(path) {
        Ok(t) => t,
        Err(e) => {
            return (
                name,
                Verdict::Fail {
                    step: 0,
                    why: format!("cannot read file: {e}"),
                },
            );
        }
    };
    match serde_json::from_str::<Scenario>(&text) {
        Ok(s) => (s.id.clone(), s.run()),
        Err(e) => (
            name,
            Verdict::Fail {
                step: 0,
                why: format!("not a scenario: {e}"),
            },
        ),
    }
}

/// Runs every scenario under `paths`, writing one line each and the closing tally.
///
/// # Errors
///
/// A bad path, no scenario at all under `paths` (a check of nothing would pass), or a failure
/// to write the report.
pub fn run(paths: &[PathBuf], out: &mut impl Write) -> Result<Tally> {
    let mut tally = Tally::default();
    let files = collect(paths)?;
    if files.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        anyhow::bail!("no scenario files (*.json) in {}", named.join(", "));
    }
    for file in files {
        let (id, verdict) = check_file(&file);
        match verdict {
            Verdict::Pass => {
                tally.passed += 1;
                writeln!(out, "ok {id}")?;
            }
            Verdict::Fail { step: 0, why } => {
                tally.failed += 1;
                writeln!(out, "FAIL {id}: {why}")?;
            }
            Verdict::Fail { step, why } => {
                tally.failed += 1;
                writeln!(out, "FAIL {id} step {step}: {why}")?;
            }
        }
    }
    writeln!(out, "{} passed, {} failed", tally.passed, tally.failed)?;
    Ok(tally)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A device reports no size: it is read only up to the limit, then refused.
    #[test]
    fn an_endless_scenario_file_fails_after_the_limit_not_read_whole() {
        let (_, verdict) = check_file(Path::new("/dev/zero"));
        match verdict {
            Verdict::Fail { why, .. } => assert!(why.contains("larger than any scenario"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    /// An empty folder is an error, not a pass: a check of nothing proves nothing.
    #[test]
    fn a_folder_without_scenarios_is_an_error() {
        let dir = std::env::temp_dir().join(format!("fairdeal-check-empty-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("notes.txt"), "not a scenario").unwrap();
        let err = run(std::slice::from_ref(&dir), &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("no scenario files"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }
}
