//! The table's optional sounds (off by default, a table setting): a short tone for a draw, a
//! discard, a completed canasta and the start of the player's turn. The tones are made here
//! (no sound files) and played by the machine's sound player (aplay, paplay or pw-play).

use std::sync::{Arc, Mutex};

use fairdeal_core::Move;

/// A moment the table can sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// Cards drawn from the stock or the pile taken (any seat).
    Draw,
    /// A card discarded (any seat).
    Discard,
    /// A canasta or samba completed (either team).
    Canasta,
    /// The player's turn begins.
    YourTurn,
}

/// The cues of the moves seen in one view, in the order a table sounds them: a draw, a
/// discard, a canasta, the player's turn; each at most once (three computer turns seen
/// together make one draw and one discard, not six sounds at once).
pub fn cues<'a>(
    moves: impl IntoIterator<Item = &'a Move>,
    canasta: bool,
    your_turn: bool,
) -> Vec<Cue> {
    let (mut draw, mut discard) = (false, false);
    for mv in moves {
        match mv {
            Move::Draw {} | Move::Pickup { .. } | Move::TakeTop { .. } => draw = true,
            Move::Discard(_)
            | Move::GoOut {
                discard: Some(_), ..
            } => discard = true,
            _ => {}
        }
    }
    [
        (draw, Cue::Draw),
        (discard, Cue::Discard),
        (canasta, Cue::Canasta),
        (your_turn, Cue::YourTurn),
    ]
    .into_iter()
    .filter_map(|(on, cue)| on.then_some(cue))
    .collect()
}

/// Where the table's sounds go.
pub trait Speaker {
    /// Sound `cue` (never blocks; a sound that cannot play is dropped).
    fn play(&mut self, cue: Cue);
    /// Why sounds cannot play here, once that is known (shown beside the setting).
    fn trouble(&self) -> Option<&str> {
        None
    }
}

/// A cue's notes: (frequency in Hz, length in seconds), one after the other.
fn notes(cue: Cue) -> &'static [(f32, f32)] {
    match cue {
        Cue::Draw => &[(660.0, 0.06)],
        Cue::Discard => &[(392.0, 0.08)],
        Cue::Canasta => &[(523.3, 0.09), (659.3, 0.09), (784.0, 0.09), (1046.5, 0.2)],
        Cue::YourTurn => &[(587.3, 0.1), (880.0, 0.16)],
    }
}

/// The loudest a cue gets (of full scale): soft, beside whatever else is playing.
const VOLUME: f32 = 0.2;

/// At most this many cues sound at once (more are dropped: a resume replays no sounds, but a
/// burst of moves must not pile up).
const MAX_PLAYING: usize = 4;

/// `cue` as mono samples at `rate` Hz: each note a sine with a 5 ms rise and a falling tail,
/// so that no note clicks.
pub fn samples(cue: Cue, rate: u32) -> Vec<f32> {
    let rate = rate.max(1) as f32;
    let mut out = Vec::new();
    for &(freq, secs) in notes(cue) {
        let n = (secs * rate) as usize;
        let rise = (0.005 * rate).max(1.0);
        for i in 0..n {
            let t = i as f32 / rate;
            let envelope = (i as f32 / rise).min(1.0) * (1.0 - i as f32 / n as f32).powi(2);
            out.push(VOLUME * envelope * (std::f32::consts::TAU * freq * t).sin());
        }
    }
    out
}

/// `samples` (mono, at `rate` Hz) as a 16-bit WAV file.
pub fn wav(samples: &[f32], rate: u32) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes());
    }
    out
}

/// The sample rate of the tones.
const RATE: u32 = 44_100;

/// The sound players tried, in order, each reading a WAV file from its standard input.
const PLAYERS: [(&str, &[&str]); 3] = [
    ("aplay", &["-q", "-"]),
    ("paplay", &[]),
    ("pw-play", &["-"]),
];

/// The machine's sound, through the first of [`PLAYERS`] found: a tone is a few kilobytes
/// written to a short-lived process, so the window needs no sound library and never waits
/// for the sound device.
#[derive(Default)]
pub struct DeviceSpeaker {
    /// The player found (an index into [`PLAYERS`]).
    player: Option<usize>,
    /// Tones still playing (reaped as they end; at most [`MAX_PLAYING`]).
    playing: Vec<std::process::Child>,
    trouble: Option<String>,
    /// Each cue's file, made once.
    made: Vec<(Cue, Vec<u8>)>,
}

impl DeviceSpeaker {
    /// Starts `PLAYERS[k]` with `file` on its input.
    fn start(k: usize, file: &[u8]) -> std::io::Result<std::process::Child> {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let (name, args) = PLAYERS[k];
        let mut child = Command::new(name)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        // A tone is smaller than a pipe's buffer: the write does not wait for the player.
        if let Some(mut input) = child.stdin.take() {
            let _ = input.write_all(file);
        }
        Ok(child)
    }
}

impl Speaker for DeviceSpeaker {
    fn play(&mut self, cue: Cue) {
        let mut failed = None;
        self.playing.retain_mut(|c| match c.try_wait() {
            Ok(None) => true,
            Ok(Some(status)) if !status.success() => {
                failed = Some(status);
                false
            }
            _ => false,
        });
        // A player with no device to play on ends at once, in failure: said once, and no
        // more tones are sent to it.
        if let (Some(status), Some(k)) = (failed, self.player) {
            self.trouble = Some(format!("{} could not play a tone ({status})", PLAYERS[k].0));
        }
        if self.trouble.is_some() || self.playing.len() >= MAX_PLAYING {
            return;
        }
        if !self.made.iter().any(|(c, _)| *c == cue) {
            self.made.push((cue, wav(&samples(cue, RATE), RATE)));
        }
        let Some((_, file)) = self.made.iter().find(|(c, _)| *c == cue) else {
            return;
        };
        let tried = self.player.map_or(0..PLAYERS.len(), |k| k..k + 1);
        for k in tried {
            match Self::start(k, file) {
                Ok(child) => {
                    self.player = Some(k);
                    self.playing.push(child);
                    return;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    self.trouble = Some(format!("{} would not start ({e})", PLAYERS[k].0));
                    return;
                }
            }
        }
        let names: Vec<&str> = PLAYERS.iter().map(|p| p.0).collect();
        self.trouble = Some(format!("no sound player was found ({})", names.join(", ")));
        tracing::warn!("sounds are off: no sound player was found");
    }

    fn trouble(&self) -> Option<&str> {
        self.trouble.as_deref()
    }
}

/// A speaker that only remembers what it was asked to sound (tests).
#[derive(Clone, Default)]
pub struct Recorder(pub Arc<Mutex<Vec<Cue>>>);

impl Speaker for Recorder {
    fn play(&mut self, cue: Cue) {
        if let Ok(mut heard) = self.0.lock() {
            heard.push(cue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cue_is_short_soft_and_starts_and_ends_quietly() {
        for cue in [Cue::Draw, Cue::Discard, Cue::Canasta, Cue::YourTurn] {
            let s = samples(cue, 48_000);
            let secs = s.len() as f32 / 48_000.0;
            assert!((0.05..=0.6).contains(&secs), "{cue:?} lasts {secs} s");
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(
                peak > VOLUME * 0.5 && peak <= VOLUME,
                "{cue:?} peaks at {peak}"
            );
            assert!(
                s[0].abs() < 0.01 && s[s.len() - 1].abs() < 0.01,
                "{cue:?} clicks"
            );
        }
        assert_ne!(samples(Cue::Draw, 48_000), samples(Cue::Discard, 48_000));
    }

    #[test]
    fn moves_seen_together_sound_each_kind_once_in_table_order() {
        let c = fairdeal_core::Card::HIDDEN;
        let turns = [
            Move::Draw {},
            Move::Discard(c),
            Move::Draw {},
            Move::Discard(c),
        ];
        assert_eq!(
            cues(&turns, false, true),
            [Cue::Draw, Cue::Discard, Cue::YourTurn]
        );
        assert_eq!(cues(&[Move::Pass {}], true, false), [Cue::Canasta]);
        assert_eq!(cues(&[Move::AskPartner {}], false, false), []);
    }

    #[test]
    fn a_tone_is_a_wav_file_a_player_reads() {
        let s = samples(Cue::YourTurn, RATE);
        let f = wav(&s, RATE);
        assert_eq!(&f[..4], b"RIFF");
        assert_eq!(&f[8..16], b"WAVEfmt ");
        assert_eq!(
            u32::from_le_bytes(f[4..8].try_into().unwrap()) as usize,
            f.len() - 8
        );
        assert_eq!(u32::from_le_bytes(f[24..28].try_into().unwrap()), RATE);
        assert_eq!(&f[36..40], b"data");
        assert_eq!(f.len(), 44 + 2 * s.len());
        assert!(
            f.len() < 64 * 1024,
            "smaller than a pipe's buffer: {} bytes",
            f.len()
        );
        let loudest = f[44..]
            .chunks(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]).unsigned_abs())
            .max();
        assert!(
            loudest.is_some_and(|l| l > 3000 && l <= 6600),
            "{loudest:?}"
        );
    }
}
