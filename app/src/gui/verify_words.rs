//! A game file's verify report in players' words, for the window: teams by their players,
//! each hand's outcome in a sentence, faults as what went wrong. The report's own lines
//! (result roots, share counts, entry numbers) are for checking by hand and the terminal;
//! the window keeps them under "Details".

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::{GameResult, Seat, Team};
use fairdeal_net::transcript::{HandStatus, Report, TranscriptFault};

/// One line of the players' report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The words.
    pub text: String,
    /// Whether it says something went wrong.
    pub bad: bool,
}

fn good(text: String) -> Said {
    Said { text, bad: false }
}

fn bad(text: String) -> Said {
    Said { text, bad: true }
}

/// The seats' names, S W N E ("South", … when the file did not get as far as naming them).
fn names(report: &Report) -> [String; 4] {
    match &report.table {
        Some((_, names)) => names.clone(),
        None => ["South", "West", "North", "East"].map(str::to_owned),
    }
}

/// A team by its players ("Ann and Cid"; "South and North" when `names` are the seats').
pub(crate) fn team(names: &[String; 4], t: Team) -> String {
    match t {
        Team::A => format!("{} and {}", names[0], names[2]),
        Team::B => format!("{} and {}", names[1], names[3]),
    }
}

fn seat(names: &[String; 4], s: Seat) -> &str {
    &names[s.index()]
}

fn scores(names: &[String; 4], s: [i32; 2]) -> String {
    format!(
        "{} {}, {} {}",
        team(names, Team::A),
        s[0],
        team(names, Team::B),
        s[1]
    )
}

/// What went wrong, naming the seat by its player when one can be named.
fn fault(names: &[String; 4], f: &TranscriptFault) -> Said {
    let hand = f.hand_no.map(|h| format!("hand {h}: ")).unwrap_or_default();
    bad(match f.seat {
        Some(s) => format!("{hand}{} is at fault: {}", seat(names, s), f.kind),
        None => format!("{hand}{} (no player can be blamed for it)", f.kind),
    })
}

/// The report in players' words, a line each: the table, each hand, the result, and what
/// the check found.
pub fn people_lines(report: &Report) -> Vec<Said> {
    let names = names(report);
    let mut out = Vec::new();
    if let Some((table, _)) = &report.table {
        out.push(good(format!(
            "{table}: {} against {}",
            team(&names, Team::A),
            team(&names, Team::B)
        )));
    }
    for h in &report.hands {
        let n = h.hand_no;
        out.push(match &h.status {
            HandStatus::Verified { scores: s, moves, .. } => good(format!(
                "Hand {n}: dealt fairly and scored right — {} ({moves} moves replayed, every card opened checked)",
                scores(&names, *s)
            )),
            HandStatus::Restarted { seat: s, why } => good(format!(
                "Hand {n} was dealt again: {} {why}",
                seat(&names, *s)
            )),
            HandStatus::Void { seat: Some(s), why, .. } => bad(format!(
                "Hand {n} was thrown away and dealt again: {} {why}",
                seat(&names, *s)
            )),
            HandStatus::Void { seat: None, why, .. } => {
                good(format!("Hand {n} was thrown away and dealt again: {why}"))
            }
            HandStatus::Forfeited { seat: s, scores: sc } => bad(format!(
                "Hand {n}: {} held back the end of the hand, so it counts as the cards were: {}",
                seat(&names, *s),
                scores(&names, *sc)
            )),
            HandStatus::Unfinished { why } => good(format!("Hand {n} is not over in this file: {why}")),
        });
    }
    out.extend(report.notes.iter().map(|n| good(format!("Note: {n}"))));
    let [a, b] = report.totals;
    out.push(good(match report.result {
        Some(GameResult::Won(Team::A)) => {
            format!("{} won, {a} to {b}", team(&names, Team::A))
        }
        Some(GameResult::Won(Team::B)) => {
            format!("{} won, {b} to {a}", team(&names, Team::B))
        }
        Some(GameResult::Drawn) => format!("A draw at {a} each"),
        _ => format!("Not over in this file: {}", scores(&names, [a, b])),
    }));
    if report.ok() {
        let verified = report.roots().len();
        out.push(good(if verified == 0 {
            "No hand is complete in this file; what it holds checks out.".to_owned()
        } else {
            format!(
                "Every signature, shuffle, card opened, move and score of the {verified} complete hand{} checks out.",
                if verified == 1 { "" } else { "s" }
            )
        }));
    }
    out.extend(report.faults.iter().map(|f| fault(&names, f)));
    out
}

/// Draws the report: a headline, the players' lines, and the report's own lines folded
/// under "Details" (`id` keeps two reports' folds apart).
pub fn report_ui(ui: &mut Ui, report: &Report, id: &str) {
    let head = if report.ok() {
        RichText::new("The game verifies.").color(Color32::from_rgb(0x2e, 0x8b, 0x57))
    } else {
        RichText::new("The game does not verify.").color(Color32::RED)
    };
    ui.label(head.strong().size(18.0));
    for said in people_lines(report) {
        let text = RichText::new(said.text);
        ui.add(
            egui::Label::new(if said.bad {
                text.color(Color32::RED)
            } else {
                text
            })
            .wrap(),
        );
    }
    egui::CollapsingHeader::new("Details (for checking by hand)")
        .id_salt(id)
        .show(ui, |ui| {
            for line in report.lines() {
                ui.add(egui::Label::new(RichText::new(line).monospace().small()).wrap());
            }
        });
}

#[cfg(test)]
mod tests {
    use fairdeal_net::transcript::FaultKind;
    use fairdeal_net::transcript::report::HandLine;

    use super::*;

    fn report() -> Report {
        Report {
            entries: 10,
            table: Some((
                "Friday".to_owned(),
                ["Ann", "Bea", "Cid", "Dan"].map(str::to_owned),
            )),
            hands: vec![
                HandLine {
                    hand_no: 1,
                    status: HandStatus::Verified {
                        scores: [515, 1370],
                        root: [7; 32],
                        moves: 59,
                        openings: 1023,
                    },
                },
                HandLine {
                    hand_no: 2,
                    status: HandStatus::Forfeited {
                        seat: Seat::E,
                        scores: [100, -200],
                    },
                },
            ],
            totals: [615, 1170],
            result: Some(GameResult::Continue),
            notes: Vec::new(),
            faults: Vec::new(),
        }
    }

    #[test]
    fn the_report_names_teams_by_players_and_hides_the_hashes() {
        let lines: Vec<String> = people_lines(&report())
            .into_iter()
            .map(|s| s.text)
            .collect();
        let all = lines.join("\n");
        for word in [
            "team A",
            "team B",
            "result root",
            "decryption shares",
            "0707",
        ] {
            assert!(!all.contains(word), "{word:?} in {all}");
        }
        assert!(
            all.contains("Friday: Ann and Cid against Bea and Dan"),
            "{all}"
        );
        assert!(all.contains("Ann and Cid 515, Bea and Dan 1370"), "{all}");
        assert!(all.contains("Dan held back the end of the hand"), "{all}");
        assert!(all.contains("Not over in this file: Ann and Cid 615, Bea and Dan 1170"));
    }

    /// A deal started again for a player back, or for a seat that quit, is nobody's fault:
    /// said plainly, not marked as a problem.
    #[test]
    fn a_deal_started_again_is_not_marked_as_a_problem() {
        let mut r = report();
        r.hands.push(HandLine {
            hand_no: 3,
            status: HandStatus::Restarted {
                seat: Seat::E,
                why: "had quit".to_owned(),
            },
        });
        let said = people_lines(&r);
        let line = said
            .iter()
            .find(|s| s.text.starts_with("Hand 3"))
            .expect("hand 3 said");
        assert_eq!(line.text, "Hand 3 was dealt again: Dan had quit");
        assert!(!line.bad, "{:?}", line.text);
    }

    #[test]
    fn a_fault_names_the_player_or_says_nobody_can_be_blamed() {
        let mut r = report();
        r.faults.push(TranscriptFault {
            seat: Some(Seat::W),
            hand_no: Some(2),
            kind: FaultKind::Stranger,
            at: None,
        });
        r.faults.push(TranscriptFault {
            seat: None,
            hand_no: None,
            kind: FaultKind::Stranger,
            at: None,
        });
        let said = people_lines(&r);
        let faults: Vec<&Said> = said.iter().filter(|s| s.bad).collect();
        assert!(
            faults
                .iter()
                .any(|s| s.text.starts_with("hand 2: Bea is at fault: "))
        );
        assert!(
            faults
                .iter()
                .any(|s| s.text.ends_with("(no player can be blamed for it)"))
        );
        assert!(
            !said.iter().any(|s| s.text.contains("checks out")),
            "{said:?}"
        );
    }
}
