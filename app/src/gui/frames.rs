//! Frame times: how long the UI thread spends on each frame (our code plus egui's layout and
//! tessellation as eframe reports it). With `FAIRDEAL_FRAME_STATS=1` the figures are printed
//! every ten seconds and when the window closes; F12 shows them in the window.

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
}
