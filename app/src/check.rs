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

/// Reads and runs one scenario file; returns its id (or file name) and verdict.
pub fn check_file(path: &Path) -> (String, Verdict) {
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let text = match fs::read_to_string(path) {
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
/// A bad path, or a failure to write the report.
pub fn run(paths: &[PathBuf], out: &mut impl Write) -> Result<Tally> {
    let mut tally = Tally::default();
    for file in collect(paths)? {
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
