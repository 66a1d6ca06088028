//! `fairdeal verify FILE`: a game's public transcript (`transcript.fdt`) checked alone, or,
//! for a `GAME.fdlog`, the private log checked with the identity beside it.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use fairdeal_net::transcript::{self, DecodeError, ReadError, Report};

/// The report on the transcript at `path`, or why it could not be read or decoded (a file that
/// does not decode is reported as a fault of the file, naming no seat).
pub fn check(path: &Path) -> Result<Report, ReadError> {
    transcript::verify_file(path)
}

/// Prints the report on `path`; the last line is `verified: ...` or `FAULT: ...` (or
/// `cannot read ...`). Returns whether it verified.
///
/// # Errors
///
/// A failure to write.
pub fn run(path: &Path, out: &mut impl Write) -> Result<bool> {
    if let Err(e) = fairdeal_net::store::open_named(path) {
        writeln!(out, "cannot read {}: {e}", path.display())?;
        return Ok(false);
    }
    if fairdeal_net::store::is_game_log(path) {
        return crate::peer::verify(path, out);
    }
    match check(path) {
        Ok(report) => {
            // The players' words first, as the window says them (teams by their players);
            // then the report's own lines, for checking by hand, the verdict last.
            for said in crate::gui::verify_words::people_lines(&report) {
                writeln!(out, "{}{}", if said.bad { "! " } else { "" }, said.text)?;
            }
            writeln!(out)?;
            writeln!(out, "Details (for checking by hand):")?;
            for line in report.lines() {
                writeln!(out, "{line}")?;
            }
            Ok(report.ok())
        }
        Err(ReadError::Io(e)) => {
            writeln!(out, "{e}")?;
            Ok(false)
        }
        // Nobody's fault: the file is something else, or from another version of fairdeal.
        Err(ReadError::Decode(DecodeError::NotATranscript)) => {
            writeln!(
                out,
                "not a fairdeal game file: {} is neither a game's transcript (transcript.fdt) nor a game log (GAME.fdlog)",
                path.display()
            )?;
            Ok(false)
        }
        Err(ReadError::Decode(e @ DecodeError::Version(_))) => {
            writeln!(out, "cannot check {}: {e}", path.display())?;
            Ok(false)
        }
        // A transcript cut short, grown past any game's size, or with an entry that does not
        // decode: damaged or tampered with, by whom the bytes cannot say.
        Err(ReadError::Decode(e)) => {
            writeln!(out, "FAULT: no seat can be named: {e}")?;
            Ok(false)
        }
    }
}
