//! "Verify a game file…": a transcript's path typed in (or one of this user's recent games
//! picked), and the same report `fairdeal verify` prints. The controller runs the check in
//! the background and lists the recent games; this screen only shows them.

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_net::transcript::{DecodeError, ReadError, Report};

use super::intent::Intent;

/// A check asked for: the path, and its outcome once known.
#[derive(Debug, Clone)]
pub struct Check {
    /// The path as given.
    pub path: String,
    /// The report, or why there is none (`cannot read …`, or the fault found).
    pub outcome: Option<Result<Report, ReadError>>,
}

/// The verify screen's form (kept in egui's memory between frames).
#[derive(Clone, Default)]
pub struct VerifyState {
    /// Whether the screen is shown instead of the start screen.
    pub open: bool,
    /// The file's path as typed.
    pub path: String,
}

fn id() -> egui::Id {
    egui::Id::unique("fairdeal verify screen")
}

/// The state in `ui`'s memory.
pub fn state(ui: &Ui) -> VerifyState {
    ui.data(|d| d.get_temp::<VerifyState>(id()))
        .unwrap_or_default()
}

fn store(ui: &Ui, s: VerifyState) {
    ui.data_mut(|d| d.insert_temp(id(), s));
}

/// Opens the screen (the caller asks the controller for the list of recent games).
pub fn open(ui: &Ui) {
    let mut s = state(ui);
    s.open = true;
    store(ui, s);
}

/// Draws the verify screen (when open) with this user's `recent` transcripts and the last
/// `check`; returns whether it was drawn.
pub fn verify_ui(
    ui: &mut Ui,
    recent: &[super::records::Recent],
    check: Option<&Check>,
    out: &mut Vec<Intent>,
) -> bool {
    let mut s = state(ui);
    if !s.open {
        return false;
    }
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.heading("Verify a game file");
            ui.label(
                "A game's transcript (transcript.fdt in its folder) holds every signed message of the game and no secret: anyone can check it alone.",
            );
            ui.add_space(6.0);
            let mut go = None;
            ui.horizontal(|ui| {
                let l = ui.label("File");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut s.path)
                            .hint_text("/path/to/transcript.fdt")
                            .desired_width(520.0),
                    )
                    .labelled_by(l.id);
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let button = ui.add_enabled(!s.path.trim().is_empty(), egui::Button::new("Verify"));
                if button.clicked() || enter {
                    go = Some(s.path.trim().to_owned());
                }
                if ui.button("Back").clicked() {
                    s.open = false;
                }
            });
            if !recent.is_empty() {
                ui.label("Your recent games:");
                for g in recent {
                    let text = g.path.display().to_string();
                    if ui.link(&g.words).on_hover_text(&text).clicked() {
                        s.path.clone_from(&text);
                        go = Some(text);
                    }
                }
            }
            if let Some(path) = go {
                out.push(Intent::Verify(path));
            }
    ui.add_space(8.0);
            if let Some(Check { path, outcome }) = check {
                match outcome {
                    None => {
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(format!("Checking {path}…"));
                        });
                    }
                    Some(Err(e)) => not_checked(ui, e),
                    Some(Ok(report)) => show_report(ui, report),
                }
            }
        });
    store(ui, s);
    true
}

/// A file that gave no report: one that cannot be read or is not a game's transcript at all
/// is said so plainly (nobody cheated); a transcript cut short or damaged does not verify.
fn not_checked(ui: &mut Ui, e: &ReadError) {
    if let ReadError::Io(e) = e {
        ui.label(
            RichText::new("The file could not be read.")
                .strong()
                .size(18.0),
        );
        ui.colored_label(Color32::RED, e);
    } else if matches!(
        e,
        ReadError::Decode(DecodeError::NotATranscript | DecodeError::TooLarge(_))
    ) {
        ui.label(
            RichText::new("This is not a fairdeal game file.")
                .strong()
                .size(18.0),
        );
        if matches!(e, ReadError::Decode(DecodeError::TooLarge(_))) {
            ui.label(e.to_string());
        }
        ui.label(
            "A game's file is transcript.fdt in the game's folder (pick one of your recent games above).",
        );
    } else {
        ui.label(
            RichText::new("The game does not verify.")
                .color(Color32::RED)
                .strong()
                .size(18.0),
        );
        ui.colored_label(
            Color32::RED,
            format!("The file is damaged or cut short, so no seat can be blamed: {e}"),
        );
    }
}

fn show_report(ui: &mut Ui, report: &Report) {
    super::verify_words::report_ui(ui, report, "verify-details");
}
