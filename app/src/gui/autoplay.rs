//! `FAIRDEAL_AUTOPLAY`: the player's seat played by a computer player, so frame times and
//! screenshots can be taken without a person (`sheet` stops at the first score sheet,
//! `canasta` in the player's turn once a canasta is on the table).

use super::game::Game;
use super::intent::Intent;
use super::sheet::next_hand;

/// The player's seat played by a strategy, for frame-time measurements.
pub(super) struct AutoPlay {
    strategy: Box<dyn fairdeal_core::strategy::Strategy + Send>,
    rng: fairdeal_core::SplitMix64,
    sheet_since: Option<std::time::Instant>,
    /// Its game was started (the first frame that can starts one).
    pub(super) started: bool,
    /// `FAIRDEAL_AUTOPLAY=sheet`: stop at the first score sheet (for a screenshot).
    hold_sheet: bool,
    /// `FAIRDEAL_AUTOPLAY=canasta`: once a canasta is on the table, stop in the player's
    /// next turn right after the draw (a screenshot of a hand mid-play: the last turns
    /// outlined, the cards just drawn marked, a stacked canasta).
    hold_canasta: bool,
    /// Stopped for that screenshot: the player plays from here.
    held: bool,
}

impl AutoPlay {
    /// From `FAIRDEAL_AUTOPLAY`, if it is set and not off.
    pub(super) fn from_env() -> Option<Self> {
        Self::from_mode(&std::env::var("FAIRDEAL_AUTOPLAY").ok()?)
    }

    /// The autoplay a `FAIRDEAL_AUTOPLAY` value asks for: set but empty, or 0, is off (a
    /// shell's `FAIRDEAL_AUTOPLAY=` must not play for the person).
    fn from_mode(mode: &str) -> Option<Self> {
        if mode.is_empty() || mode == "0" {
            return None;
        }
        Self::new(mode == "sheet").map(|a| Self {
            hold_canasta: mode == "canasta",
            ..a
        })
    }

    /// For a game already started (by a test); `hold_sheet` stops at the first score sheet.
    pub(super) fn started(hold_sheet: bool) -> Option<Self> {
        Self::new(hold_sheet).map(|a| Self { started: true, ..a })
    }

    /// Plays with the greedy computer player; `hold_sheet` stops at the first score sheet.
    fn new(hold_sheet: bool) -> Option<Self> {
        Some(Self {
            strategy: fairdeal_core::strategy::by_name("greedy")?,
            rng: fairdeal_core::SplitMix64::new(1),
            sheet_since: None,
            started: false,
            hold_sheet,
            hold_canasta: false,
            held: false,
        })
    }

    /// Plays the seat's turn, and presses "Next hand" on a score sheet after two seconds.
    pub(super) fn step(&mut self, g: &mut Game, out: &mut Vec<Intent>) {
        if g.desk.show_report {
            if self.hold_sheet {
                return;
            }
            let since = *self.sheet_since.get_or_insert_with(std::time::Instant::now);
            if since.elapsed().as_secs() >= 2 && !g.model.ready_sent {
                next_hand(&g.model, &mut g.desk, out);
            }
            return;
        }
        self.sheet_since = None;
        if !g.model.my_turn || self.held {
            return;
        }
        if let Some(view) = &g.model.view
            && self.hold_canasta
            && view.phase() == fairdeal_core::Phase::Play
            && [fairdeal_core::Team::A, fairdeal_core::Team::B]
                .into_iter()
                .any(|t| view.melds(t).iter().any(fairdeal_core::Meld::is_complete))
        {
            self.held = true;
            return;
        }
        if let Some(view) = &g.model.view
            && let Some(mv) = self.strategy.choose(view, &mut self.rng)
        {
            out.push(Intent::Play(mv));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_or_zero_autoplay_setting_is_off() {
        for off in ["", "0"] {
            assert!(AutoPlay::from_mode(off).is_none(), "{off:?}");
        }
        let sheet = AutoPlay::from_mode("sheet").unwrap_or_else(|| panic!("sheet is on"));
        assert!(sheet.hold_sheet && !sheet.hold_canasta);
        let canasta = AutoPlay::from_mode("canasta").unwrap_or_else(|| panic!("canasta is on"));
        assert!(canasta.hold_canasta && !canasta.hold_sheet);
        assert!(AutoPlay::from_mode("1").is_some());
    }
}
