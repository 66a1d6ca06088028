//! Frame times: how long the UI thread spends on each frame (our code plus egui's layout and
//! tessellation as eframe reports it). With `FAIRDEAL_FRAME_STATS=1` the figures are printed
//! every ten seconds and when the window closes, with the slowest frames: what was on screen,
//! whether the font atlas grew (by a row), and how much of the frame the UI thread spent on a CPU or
//! waiting for one (from the kernel's scheduler statistics, on Linux); F12 shows the figures
//! in the window.

use std::time::Duration;

/// Collected frame times.
#[derive(Debug, Default, Clone)]
pub struct FrameStats {
    /// CPU time of each frame (eframe's measure of the whole previous frame).
    frames: Vec<f32>,
}

impl FrameStats {
    /// Records one frame's CPU time, in seconds (ignores eframe's "unknown").
    pub fn record(&mut self, cpu: Option<f32>) {
        if let Some(s) = cpu.filter(|s| s.is_finite() && *s >= 0.0) {
            // Bounded: a long session keeps the last million frames.
            if self.frames.len() >= 1_000_000 {
                self.frames.drain(..500_000);
            }
            self.frames.push(s);
        }
    }

    /// Frames recorded.
    pub fn count(&self) -> usize {
        self.frames.len()
    }

    /// Median, 99th percentile and worst frame, if any frame was recorded.
    pub fn summary(&self) -> Option<(Duration, Duration, Duration)> {
        if self.frames.is_empty() {
            return None;
        }
        let mut v = self.frames.clone();
        v.sort_by(f32::total_cmp);
        let at = |q: f64| {
            let i = ((v.len() - 1) as f64 * q).round() as usize;
            Duration::try_from_secs_f32(v[i]).unwrap_or(Duration::MAX)
        };
        Some((at(0.5), at(0.99), at(1.0)))
    }

    /// One line for people.
    pub fn line(&self) -> String {
        match self.summary() {
            Some((m, p, w)) => format!(
                "{} frames: median {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
                self.count(),
                m.as_secs_f64() * 1e3,
                p.as_secs_f64() * 1e3,
                w.as_secs_f64() * 1e3
            ),
            None => "no frames yet".to_owned(),
        }
    }
}

/// The UI thread's time on a CPU and waiting for one so far, in nanoseconds (Linux's
/// `/proc/thread-self/schedstat`; `None` elsewhere).
pub fn thread_sched() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut it = text.split_ascii_whitespace().map(str::parse::<u64>);
    Some((it.next()?.ok()?, it.next()?.ok()?))
}

/// One frame, for the list of the slowest.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameNote {
    /// eframe's time for the frame (ms).
    pub wall: f32,
    /// Our UI code's time in it (ms).
    pub ui: f32,
    /// Our code's time before the UI in it (ms): the node's events applied, the hints worked
    /// out, the autoplayer's move chosen.
    pub logic: f32,
    /// The UI thread's CPU time from this frame's start to the next one's (ms): the frame's
    /// cost in CPU, with the buffer swap and the events between frames.
    pub cpu: Option<f32>,
    /// Of `cpu`, the part after our UI code (ms): egui's end of the frame, tessellation,
    /// painting, the buffer swap and the events until the next frame.
    pub after_ui: Option<f32>,
    /// The UI thread's time waiting for a CPU in that span (ms): preemption.
    pub wait: Option<f32>,
    /// The font atlas took a new row in this frame (glyphs rasterised; glyphs that fit in
    /// the current row are not seen: egui tells only the rows' fill).
    pub atlas: bool,
    /// What was on screen.
    pub what: String,
}

impl FrameNote {
    fn line(&self) -> String {
        let ms = |v: Option<f32>| v.map_or("?".to_owned(), |v| format!("{v:.1}"));
        format!(
            "{:.1} ms (our UI {:.1}, events {:.1}, CPU {} of which after our UI {}, waiting for a CPU {}){}: {}",
            self.wall,
            self.ui,
            self.logic,
            ms(self.cpu),
            ms(self.after_ui),
            ms(self.wait),
            if self.atlas { ", font atlas grew" } else { "" },
            self.what
        )
    }
}

/// The slowest frames seen, slowest first (at most [`SlowFrames::KEEP`]).
#[derive(Debug, Default, Clone)]
pub struct SlowFrames {
    worst: Vec<FrameNote>,
    /// Frames in which the font atlas grew.
    pub atlas_frames: usize,
}

impl SlowFrames {
    /// How many are kept.
    pub const KEEP: usize = 6;

    /// Records a frame (kept only if among the slowest).
    pub fn record(&mut self, note: FrameNote) {
        if !note.wall.is_finite() {
            return;
        }
        self.atlas_frames += usize::from(note.atlas);
        let at = self.worst.partition_point(|n| n.wall >= note.wall);
        if at < Self::KEEP {
            self.worst.insert(at, note);
            self.worst.truncate(Self::KEEP);
        }
    }

    /// The slowest frames, slowest first.
    pub fn worst(&self) -> &[FrameNote] {
        &self.worst
    }

    /// Lines for people.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "  frames in which the font atlas grew: {}; slowest:",
            self.atlas_frames
        )];
        out.extend(self.worst.iter().map(|n| format!("    {}", n.line())));
        out
    }
}

/// The frame statistics as text: frames, our UI code, the UI thread on a CPU and waiting for
/// one, then the slowest frames.
pub fn stats_text(figures: [&FrameStats; 4], slow: &SlowFrames) -> String {
    let [frames, ui, cpu, wait] = figures;
    let mut s = format!(
        "frame times: {}\n  of which our UI code: {}\n  UI thread on a CPU: {}\n  UI thread waiting for a CPU: {}\n",
        frames.line(),
        ui.line(),
        cpu.line(),
        wait.line()
    );
    for line in slow.lines() {
        s.push_str(&line);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_p99_and_worst() {
        let mut s = FrameStats::default();
        assert_eq!(s.summary(), None);
        for i in 1..=100 {
            s.record(Some(i as f32 / 1000.0));
        }
        s.record(None);
        s.record(Some(f32::NAN));
        s.record(Some(-1.0));
        let (m, p, w) = s.summary().unwrap();
        assert_eq!(s.count(), 100);
        assert!((m.as_secs_f64() - 0.050).abs() < 0.0015, "{m:?}");
        assert!((p.as_secs_f64() - 0.099).abs() < 0.0015, "{p:?}");
        assert!((w.as_secs_f64() - 0.100).abs() < 1e-6, "{w:?}");
        // An absurd figure is reported, never a panic.
        s.record(Some(1e30));
        assert_eq!(s.summary().map(|x| x.2), Some(Duration::MAX));
    }

    fn note(wall: f32, atlas: bool) -> FrameNote {
        FrameNote {
            wall,
            ui: 0.5,
            logic: 0.25,
            cpu: Some(wall / 2.0),
            after_ui: None,
            wait: None,
            atlas,
            what: format!("frame {wall}"),
        }
    }

    #[test]
    fn the_slowest_frames_are_kept_slowest_first() {
        let mut s = SlowFrames::default();
        for w in [3.0, 9.0, 1.0, 7.0, 12.0, 2.0, 8.0, 5.0, f32::NAN] {
            s.record(note(w, w > 8.0));
        }
        let walls: Vec<f32> = s.worst().iter().map(|n| n.wall).collect();
        assert_eq!(walls, [12.0, 9.0, 8.0, 7.0, 5.0, 3.0]);
        assert_eq!(s.atlas_frames, 2);
        let lines = s.lines();
        assert!(lines[0].contains("atlas grew: 2"), "{lines:?}");
        assert!(lines[1].contains("12.0 ms") && lines[1].contains("font atlas grew"));
        assert!(lines[1].contains("CPU 6.0") && lines[1].contains("waiting for a CPU ?"));
    }

    #[test]
    fn the_scheduler_figures_grow() {
        if let Some((run, _)) = thread_sched() {
            let mut x = 0u64;
            for i in 0..2_000_000u64 {
                x = x.wrapping_add(std::hint::black_box(i));
            }
            std::hint::black_box(x);
            let (later, _) = thread_sched().unwrap();
            assert!(later > run, "{run} → {later}");
        }
    }
}
