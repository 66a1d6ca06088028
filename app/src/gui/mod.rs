//! The desktop client (eframe/egui). Screens draw from the model ([`game`]) and push
//! [`intent::Intent`]s; the [`controller`] carries them out and owns every side effect; the
//! nodes run on a background tokio runtime ([`session`]).

pub mod actions;
pub mod app;
pub mod ask_first;
mod autoplay;
pub mod cards;
pub mod chat;
mod chat_file;
pub mod choices;
pub mod closing;
pub mod controller;
pub mod frames;
pub mod game;
pub mod hand;
pub mod hand_keys;
pub mod hand_order;
pub mod help;
pub mod intent;
pub mod last_turn;
pub mod leave;
pub mod lobby;
pub mod melds;
pub mod motion;
pub mod move_words;
pub(crate) mod moves;
mod outage;
pub mod plan;
pub mod played;
pub mod prefs;
pub mod questions;
pub mod records;
pub mod replay;
pub mod replay_open;
pub mod seats;
pub mod seen;
mod seen_melds;
pub mod session;
pub mod settings;
pub mod sheet;
pub mod sound;
pub mod start;
pub mod table;
pub mod verify;
pub mod verify_words;
pub mod watch;
pub mod words;

use anyhow::{Result, anyhow};
use eframe::egui;

/// Adds a bundled font (DejaVu Sans, free licence in `app/assets`) after egui's own, so that
/// the suit symbols ♠♥♦♣ always render.
pub fn install_fonts(ctx: &egui::Context) {
    use eframe::egui::{FontData, FontDefinitions, FontFamily};
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(
        "dejavu".to_owned(),
        std::sync::Arc::new(FontData::from_static(include_bytes!(
            "../../assets/DejaVuSans.ttf"
        ))),
    );
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push("dejavu".to_owned());
    }
    ctx.set_fonts(fonts);
}

/// Lays out the glyphs the game uses at every size it uses them, once at start-up: the font
/// atlas then grows (and its texture is uploaded) before play, not in the middle of a hand.
/// Cards write their faces on the half-point grid ([`cards::text_size`]), so a card
/// shrinking in flight from the hand to a meld passes through sizes warmed here.
pub fn warm_glyphs(ctx: &egui::Context) {
    use eframe::egui::{Color32, FontId};
    let text = "A2345678910JQK♠♥♦♣W3!Jk ✓✔✖❄◀⚠⇄★…—–·0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ()[]:;,.'\"-+/";
    let mut faces: Vec<f32> = [cards::SMALL.y * 0.6, cards::SMALL.y * 0.55, melds::STACK.y]
        .into_iter()
        .chain(card_heights_in_flight())
        .flat_map(cards::face_sizes)
        .collect();
    faces.sort_by(f32::total_cmp);
    faces.dedup();
    let stack_band = cards::text_size((melds::STACK.y * 0.22 * 0.8).max(8.0));
    let sizes = [
        9.0, 10.0, 12.5, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0, 36.0, stack_band,
    ];
    ctx.fonts_mut(|f| {
        let texts = cards::face_texts();
        for size in faces {
            for text in &texts {
                let _ = f.layout_no_wrap(text.clone(), FontId::proportional(size), Color32::WHITE);
            }
        }
        for size in sizes {
            for font in [FontId::proportional(size), FontId::monospace(size)] {
                let _ = f.layout_no_wrap(text.to_owned(), font, Color32::WHITE);
            }
        }
    });
}

/// The heights a card passes through on its way from the hand to a meld (every quarter
/// point, the hand's and the table's sizes included).
fn card_heights_in_flight() -> impl Iterator<Item = f32> {
    let (small, hand) = (cards::SMALL.y, cards::HAND.y);
    let steps = ((hand - small) * 4.0).round() as usize;
    (0..=steps).map(move |i| small + i as f32 / 4.0)
}

/// Whether a display is available (X11 or Wayland).
pub fn has_display() -> bool {
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

/// The platform has no data directory for this user (on Linux: no `XDG_DATA_HOME`, no `HOME`
/// and no home in the user database).
#[derive(Debug, thiserror::Error)]
#[error(
    "no data directory for this user (set HOME, or XDG_DATA_HOME): the identity key and the game logs are kept there, never in a shared temporary folder"
)]
pub struct NoDataDir;

/// The folder for settings-independent data (identity and game logs): the platform's data
/// directory (`~/.local/share/fairdeal` on Linux, `$XDG_DATA_HOME/fairdeal` when set).
///
/// # Errors
///
/// There is none: the window refuses to start rather than put an identity key where other
/// users could read it.
pub fn data_dir() -> Result<std::path::PathBuf, NoDataDir> {
    directories::ProjectDirs::from("", "", "fairdeal")
        .map(|d| d.data_dir().to_owned())
        .ok_or(NoDataDir)
}

/// Opens the window and runs until it is closed.
///
/// # Errors
///
/// No display, or the window cannot be created.
pub fn run() -> Result<()> {
    if !has_display() {
        return Err(anyhow!(
            "no display found: play in the terminal with `fairdeal terminal`, or at a table with `fairdeal host`/`fairdeal join` (without --bot)"
        ));
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("fairdeal")
            .with_inner_size([1180.0, 780.0])
            .with_min_inner_size([1024.0, 700.0]),
        ..Default::default()
    };
    let dir = data_dir()?;
    eframe::run_native(
        "fairdeal",
        options,
        Box::new(move |cc| Ok(Box::new(app::FairdealApp::new(cc, dir)))),
    )
    .map_err(|e| anyhow!("could not open the window: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui::{Context, Pos2, RawInput, Rect, Vec2};
    use fairdeal_core::{Card, Rank, Suit};

    /// One pass of `ctx` running `ui`; whether it updated a texture (the font atlas: glyphs
    /// rasterised in the pass). The updates are dropped: no painter here.
    fn pass(ctx: &Context, ui: impl FnMut(&mut egui::Ui)) -> bool {
        let mut out = ctx.run_ui(RawInput::default(), ui);
        let updated = !out.textures_delta.set.is_empty();
        out.textures_delta.clear();
        updated
    }

    /// Whether painting with `paint` rasterises new glyphs.
    fn atlas_grows(ctx: &Context, paint: impl Fn(&egui::Painter)) -> bool {
        pass(ctx, |ui| paint(ui.painter()))
    }

    #[test]
    fn a_card_in_flight_uses_only_warmed_sizes() {
        let ctx = Context::default();
        install_fonts(&ctx);
        pass(&ctx, |_| {});
        warm_glyphs(&ctx);
        pass(&ctx, |_| {});
        let cards = [
            Card::new(Rank::Ten, Suit::Hearts),
            Card::new(Rank::Three, Suit::Diamonds),
            Card::new(Rank::Two, Suit::Spades),
            Card::JOKER,
        ];
        // Every frame of a flight from the hand to a meld, at 60 frames a second.
        for i in 0..=15 {
            let t = i as f32 / 15.0;
            let size = cards::HAND + (cards::SMALL - cards::HAND) * t;
            let grew = atlas_grows(&ctx, |p| {
                for c in cards {
                    cards::paint(
                        p,
                        Rect::from_min_size(Pos2::ZERO, size),
                        c,
                        Default::default(),
                    );
                }
            });
            assert!(!grew, "the atlas grew for a card {size:?} high");
        }
        // A size not warmed does grow it (the test can fail).
        let grew = atlas_grows(&ctx, |p| {
            cards::paint(
                p,
                Rect::from_min_size(Pos2::ZERO, Vec2::new(70.0, 100.0)),
                cards[0],
                Default::default(),
            );
        });
        assert!(grew);
    }
}

/// Fixed positions for the window's unit tests, and a game drawn in a test harness.
#[cfg(test)]
pub(crate) mod testkit {
    use fairdeal_core::{Card, PlayerView, Position, PositionDesc, Preset, Rules, Seat};

    use crate::gui::game::Game;

    /// `g` drawn by `draw` in a window of `size` points, three frames in, the bundled fonts
    /// installed first (the suit symbols and marks need them; they apply from the next
    /// frame).
    pub(crate) fn drawn(
        g: Game,
        size: [f32; 2],
        draw: fn(&mut egui::Ui, &mut Game),
    ) -> egui_kittest::Harness<'static, (Game, bool)> {
        let mut h = egui_kittest::Harness::builder()
            .with_size(size)
            .build_ui_state(
                move |ui, (g, fonts): &mut (Game, bool)| {
                    if !*fonts {
                        crate::gui::install_fonts(ui.ctx());
                        *fonts = true;
                        return;
                    }
                    draw(ui, g);
                },
                (g, false),
            );
        for _ in 0..3 {
            h.step();
        }
        h
    }

    /// South's view in `preset`, holding `hand`, with `turn` to play (in the play phase);
    /// team A has a run of spades, a finished samba of clubs and a group of kings, team B a
    /// group of queens.
    pub(crate) fn view_in(preset: Preset, hand: &str, turn: &str) -> PlayerView {
        view_with_run(preset, hand, turn, "4S 5S 6S")
    }

    /// [`view_in`] with team A's first meld the run of spades `run`.
    pub(crate) fn view_with_run(preset: Preset, hand: &str, turn: &str, run: &str) -> PlayerView {
        view_at(preset, hand, turn, run, "play", "5D")
    }

    /// [`view_with_run`] in `phase` ("draw", "play"), the pile `pile` (bottom first).
    pub(crate) fn view_at(
        preset: Preset,
        hand: &str,
        turn: &str,
        run: &str,
        phase: &str,
        pile: &str,
    ) -> PlayerView {
        view_full(preset, hand, turn, run, phase, pile, &["QH QD QS"])
    }

    /// [`view_in`] with team B's melds `theirs`, each a meld's cards.
    pub(crate) fn view_with_theirs(preset: Preset, theirs: &[&str]) -> PlayerView {
        view_full(
            preset,
            "2C JC 7S KS 9D",
            "W",
            "4S 5S 6S",
            "play",
            "5D",
            theirs,
        )
    }

    fn view_full(
        preset: Preset,
        hand: &str,
        turn: &str,
        run: &str,
        phase: &str,
        pile: &str,
        theirs: &[&str],
    ) -> PlayerView {
        let cards = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .map(|c| c.parse::<Card>().unwrap().to_string())
                .collect()
        };
        let (hand, run, pile) = (cards(hand), cards(run), cards(pile));
        let theirs: Vec<Vec<String>> = theirs.iter().map(|m| cards(m)).collect();
        let json = format!(
            r#"{{"dealer": "E", "scores": {{"A": 0, "B": 0}}, "turn": "{turn}", "phase": "{phase}",
            "hands": {{"S": {hand:?}, "W": ["4D"], "N": ["4D"], "E": ["4D"]}},
            "melds": {{"A": [{run:?}, ["4C", "5C", "6C", "7C", "8C", "9C", "TC"],
                            ["KC", "KD", "KH"]], "B": {theirs:?}}},
            "red_threes": {{"A": 0, "B": 0}}, "pile": {pile:?}, "stock": ["6D", "7D"]}}"#
        );
        let desc: PositionDesc = serde_json::from_str(&json).unwrap();
        Position::from_desc(Rules::preset(preset), &desc)
            .unwrap()
            .view(Seat::S)
    }
}
