//! The player's controls: the move buttons and their keys, the plan's buttons, the hints.
//! Every key and click answers: a move the rules allow is played; one they refuse, or a key
//! pressed when it cannot do anything, says why in the table's feedback line, in the words
//! of the button's tooltip.

use eframe::egui::{self, Key, RichText, Ui};
use fairdeal_core::{Move, Phase, Plan, PlayerView, Seat};

use super::game::{Desk, Model};

/// What the controls asked for this frame.
#[derive(Debug, Default)]
pub struct Asked {
    /// A move to play (checked against the view again before it is sent).
    pub mv: Option<Move>,
    /// Words for the feedback line (a refusal, or why a key did nothing).
    pub say: Option<String>,
    /// Why the plan cannot be played as it stands (the feedback line, when nothing else is
    /// said: at the end of the plan's row it was scrolled out of sight).
    pub verdict: Option<String>,
}

/// Whether key `k` was pressed (never while a text field has the focus or a question covers
/// the table; a button that has the focus after a click does not stop the keys).
pub fn key(ui: &Ui, k: Key) -> bool {
    !ui.ctx().text_edit_focused()
        && !super::questions::asking(ui.ctx())
        && ui.input(|i| i.key_pressed(k))
}

/// Whether `r`, a disabled widget, was clicked (disabled widgets report no clicks).
fn clicked_disabled(ui: &Ui, r: &egui::Response) -> bool {
    r.contains_pointer() && ui.input(|i| i.pointer.primary_clicked())
}

/// "West (Ann) is playing", for the banner and for keys pressed out of turn.
pub fn who_plays(g: &Model, view: &PlayerView) -> String {
    let actor = view.actor();
    if actor == view.seat() && !g.looks_only() {
        return "Your move is on its way…".to_owned();
    }
    let name = g.name(actor);
    if name == actor.name() {
        format!("{name} is playing")
    } else {
        format!("{} ({name}) is playing", actor.name())
    }
}

/// Why a discard waits while cards are planned (it ended the turn and put them back in the
/// hand without a word).
pub const UNPLAYED_PLAN: &str = "Play the plan first (Enter) or undo it (U): a discard ends your turn and the planned cards would go back to your hand";

/// The keys of moves, with the buttons they stand for.
const MOVE_KEYS: [(Key, &str); 8] = [
    (Key::D, "Draw (D)"),
    (Key::T, "Take the pile (T)"),
    (Key::M, "Meld selected now (M)"),
    (Key::P, "Plan selected as a new meld (P)"),
    (Key::X, "Discard selected (X)"),
    (Key::U, "Undo last planned (U)"),
    (Key::Y, "Yes (Y)"),
    (Key::N, "No (N)"),
];

/// A button for `mv` (or `Err(why)` when there is no move to make), enabled only when the
/// rules allow it now; its tooltip says why not, and so does the feedback line when it, or
/// its key, is pressed anyway.
fn move_button(
    ui: &mut Ui,
    view: &PlayerView,
    label: &str,
    mv: Result<Move, &str>,
    shortcut: Option<Key>,
    out: &mut Asked,
) {
    let verdict = match mv {
        Ok(m) => view
            .validate(&m)
            .map(|()| m)
            .map_err(|r| format!("Not allowed: {}", r.reason)),
        Err(why) => Err(why.to_owned()),
    };
    let pressed = shortcut.is_some_and(|k| key(ui, k));
    match verdict {
        Ok(m) => {
            if ui.button(label).clicked() || pressed {
                out.mv = Some(m);
            }
        }
        Err(why) => {
            let r = ui
                .add_enabled(false, egui::Button::new(label))
                .on_disabled_hover_text(&why);
            if pressed || clicked_disabled(ui, &r) {
                out.say = Some(format!("{label}: {why}"));
            }
        }
    }
}

/// A pile-taking move as a button's words ("Take the pile with 7♠ 7♣ onto a new meld").
pub fn take_words(mv: &Move, me: Seat) -> String {
    let text = super::move_words::move_line(mv, me, me);
    let text = text.strip_prefix("You ").unwrap_or(&text);
    capitalised(text)
}

/// `text` with a capital first letter.
pub fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The way to take the pile that a key or a click on the pile plays at once: the only one,
/// unless it also melds cards beyond the top card's own meld (to make the opening minimum,
/// say), which is shown before it is played, as several ways are.
pub(super) fn taken_at_once<'a>(takes: &[&'a Move]) -> Option<&'a Move> {
    match takes {
        [only] if !matches!(only, Move::Pickup { also, .. } if !also.is_empty()) => Some(only),
        _ => None,
    }
}

/// The legal ways to take the pile (every legal move of the draw phase but the draw).
pub fn pile_takes(legal: &[Move]) -> Vec<&Move> {
    legal
        .iter()
        .filter(|m| matches!(m, Move::Pickup { .. } | Move::TakeTop { .. }))
        .collect()
}

/// Why the pile cannot be taken now, in words.
pub fn pile_refusal(view: &PlayerView) -> String {
    let Some(&top) = view.pile().last() else {
        return "the pile is empty".to_owned();
    };
    if view.phase() != Phase::Draw {
        return "you have drawn already this turn".to_owned();
    }
    // The engine's own words for the most natural attempt: a natural pair of the top card.
    let with: Vec<_> = view
        .hand()
        .iter()
        .filter(|c| !c.is_wild() && c.rank() == top.rank() && top.rank().is_some())
        .take(2)
        .collect();
    let mv = Move::Pickup {
        with,
        onto: None,
        also: Plan::default(),
    };
    match view.validate(&mv) {
        Err(r) => r.reason.to_string(),
        Ok(()) => "choose how with one of the Take buttons".to_owned(),
    }
}

/// The move buttons (below the hand), or who is playing; every key answers.
pub fn actions_row(ui: &mut Ui, m: &Model, d: &mut Desk, view: &PlayerView, out: &mut Asked) {
    if view.phase() == Phase::Over {
        ui.weak("The hand is over.");
        return;
    }
    if !m.my_turn {
        ui.weak(who_plays(m, view));
        if !d.show_report {
            for (k, label) in MOVE_KEYS {
                if key(ui, k) {
                    out.say = Some(format!(
                        "{label}: not your turn — {}.",
                        who_plays(m, view).trim_end_matches('…')
                    ));
                }
            }
        }
        return;
    }
    let me = view.seat();
    let legal = m.moves.legal.clone();
    let phase = view.phase();
    // Keys of moves this phase has no button for.
    for (k, label) in MOVE_KEYS {
        let offered = match phase {
            Phase::Answer => matches!(k, Key::Y | Key::N),
            Phase::Draw => matches!(k, Key::D | Key::T | Key::U),
            _ => !matches!(k, Key::D | Key::T | Key::Y | Key::N),
        };
        if !offered && key(ui, k) {
            let why = match phase {
                Phase::Answer => "first answer your partner: Yes (Y) or No (N)".to_owned(),
                Phase::Draw => "draw from the stock (D) or take the pile first".to_owned(),
                _ if k == Key::D || k == Key::T => match view.validate(&Move::Draw {}) {
                    Err(r) => format!("Not allowed: {}", r.reason),
                    Ok(()) => "you have drawn already".to_owned(),
                },
                _ => "there is no question to answer".to_owned(),
            };
            out.say = Some(format!("{label}: {why}"));
        }
    }
    ui.horizontal(|ui| match phase {
        Phase::Answer => {
            ui.label(format!("{} asks: \"May I go out?\"", m.name(me.partner())));
            move_button(
                ui,
                view,
                "Yes (Y)",
                Ok(Move::Answer(true)),
                Some(Key::Y),
                out,
            );
            move_button(
                ui,
                view,
                "No (N)",
                Ok(Move::Answer(false)),
                Some(Key::N),
                out,
            );
        }
        Phase::Draw => {
            move_button(ui, view, "Draw (D)", Ok(Move::Draw {}), Some(Key::D), out);
            let takes = pile_takes(&legal);
            if takes.is_empty() {
                let why = pile_refusal(view);
                ui.weak(format!("(the pile cannot be taken: {why})"));
                if key(ui, Key::T) {
                    out.say = Some(format!("Take the pile (T): {why}"));
                }
            } else {
                take_buttons(ui, me, &takes, out);
            }
        }
        _ => play_buttons(ui, d, view, &legal, out),
    });
}

/// The ways to take the pile: one is a button; several are one button, "Take the pile (T)…",
/// that opens the list of them (side by side they ran past the row's edge at 1024 wide, and
/// a click on the scrolling row scrolled it instead of taking). T takes the only way, or
/// opens the list.
fn take_buttons(ui: &mut Ui, me: Seat, takes: &[&Move], out: &mut Asked) {
    if let Some(only) = taken_at_once(takes) {
        let words = take_words(only, me);
        if ui.button(format!("{words} (T)")).clicked() || key(ui, Key::T) {
            out.mv = Some(only.clone());
        }
        return;
    }
    let menu = egui::containers::menu::MenuButton::new(match takes.len() {
        1 => "Take the pile (T): 1 way…".to_owned(),
        n => format!("Take the pile (T): {n} ways…"),
    });
    let (r, _) = menu.ui(ui, |ui| {
        for mv in takes {
            if ui.button(take_words(mv, me)).clicked() {
                out.mv = Some((*mv).clone());
                ui.close();
            }
        }
    });
    if key(ui, Key::T) {
        egui::Popup::open_id(ui.ctx(), egui::Popup::default_response_id(&r));
    }
}

fn play_buttons(ui: &mut Ui, d: &mut Desk, view: &PlayerView, legal: &[Move], out: &mut Asked) {
    let sel = d.selected.clone();
    let meld_now = if sel.is_empty() {
        Err("Select the cards to meld first")
    } else {
        Ok(Move::Meld(Plan {
            new: vec![sel.clone()],
            ..Default::default()
        }))
    };
    move_button(
        ui,
        view,
        "Meld selected now (M)",
        meld_now,
        Some(Key::M),
        out,
    );
    let plan = ui
        .add_enabled(
            !sel.is_empty(),
            egui::Button::new("Plan selected as a new meld (P)"),
        )
        .on_disabled_hover_text("Select cards first");
    if !sel.is_empty() && (plan.clicked() || key(ui, Key::P)) {
        d.plan.push(sel.clone());
        d.selected.clear();
    } else if sel.is_empty() && (key(ui, Key::P) || clicked_disabled(ui, &plan)) {
        out.say = Some("Plan selected as a new meld (P): Select cards first".to_owned());
    }
    let discard = if d.has_plan() {
        Err(UNPLAYED_PLAN)
    } else if sel.len() == 1 {
        Ok(Move::Discard(sel[0]))
    } else {
        Err("Select one card to discard")
    };
    move_button(ui, view, "Discard selected (X)", discard, Some(Key::X), out);
    for mv in legal {
        let (label, why) = match mv {
            Move::GoOut { .. } => ("Go out", "Meld and discard your last cards: the hand ends"),
            Move::Pass {} => (
                "Pass (keep your last card)",
                "You hold one card and may not go out yet: keep it and end your turn without discarding (the pile stays as it is)",
            ),
            Move::AskPartner {} => (
                "Ask partner: may I go out?",
                "Your partner's answer binds you: yes, you must go out this turn; no, you may not",
            ),
            Move::LayRedThrees(_) => ("Lay out red threes", "Put your red threes on the table"),
            _ => continue,
        };
        if ui.button(label).on_hover_text(why).clicked() {
            out.mv = Some(mv.clone());
        }
    }
}

/// The plan's buttons: play it (Enter), undo the last group (U), and its verdict.
pub fn plan_buttons(ui: &mut Ui, m: &Model, d: &mut Desk, view: &PlayerView, out: &mut Asked) {
    let enter = key(ui, Key::Enter) && !d.show_report;
    if !d.has_plan() {
        if m.my_turn && enter && view.phase() == Phase::Play {
            out.say = Some(
                "Play plan (Enter): nothing is planned — select cards and press P, or drop them on \"new meld\"".to_owned(),
            );
        }
        if m.my_turn && key(ui, Key::U) && view.phase() != Phase::Answer {
            out.say = Some("Undo last planned (U): nothing is planned".to_owned());
        }
        return;
    }
    let points: i32 = d
        .plan
        .iter()
        .flatten()
        .chain(d.plan_adds.iter().flat_map(|(_, c)| c))
        .map(|c| c.points())
        .sum();
    let need = view.minimum_needed(view.seat().team());
    let label = if need > 0 {
        format!("Play plan ({points} of {need} needed) (Enter)")
    } else {
        format!("Play plan ({points} points) (Enter)")
    };
    let plan = d.plan_move();
    let verdict = view.validate(&plan);
    if m.my_turn {
        move_button(ui, view, &label, Ok(plan), Some(Key::Enter), out);
    } else {
        let r = ui
            .add_enabled(false, egui::Button::new(&label))
            .on_disabled_hover_text("Wait for your turn");
        if clicked_disabled(ui, &r) || enter {
            out.say = Some(format!("{label}: wait for your turn"));
        }
    }
    if (ui.button("Undo last planned (U)").clicked() || key(ui, Key::U))
        && d.plan_adds.pop().is_none()
    {
        d.plan.pop();
    }
    if let Err(r) = verdict {
        out.verdict = Some(format!("Not allowed: {}", r.reason));
    }
}

/// The hints' title (H opens and closes them).
pub const HINTS: &str = "Hints (H): every legal move";

/// The hints: whether and how the pile can be taken, a legal opening and finish, every
/// legal move (each can be played from here). H opens and closes them.
pub fn hints(ui: &mut Ui, m: &Model, view: &PlayerView, out: &mut Asked) {
    let id = egui::Id::unique("hints-open");
    let mut open = ui.data(|d| d.get_temp::<bool>(id)).unwrap_or(false);
    if key(ui, Key::H) {
        open = !open;
    }
    // A short title: the move list's panel is as wide as its widest line, and the table
    // needs its width at 1024×700 (the seat boxes hold "Computer East (opponent) ◀ playing"
    // only with the panel at its usual width).
    let r = egui::CollapsingHeader::new(HINTS)
        .open(Some(open))
        .show(ui, |ui| {
            if !m.my_turn {
                ui.label("Hints come on your turn.");
                return;
            }
            hint_list(ui, m, view, out);
        });
    let header = r
        .header_response
        .on_hover_text("Can I take the pile, how to open, how to finish: every legal move");
    if header.clicked() {
        open = !open;
    }
    ui.data_mut(|d| d.insert_temp(id, open));
}

/// Whether a hint's button `r` was clicked for real: not the second or third click of a
/// quick double click, and not in the [`SETTLE`](super::hand::SETTLE) after the hints changed.
/// Otherwise a double click on "takes the pile" takes the pile, and its second click lands
/// on "discards Q♣", which the new list has put under the pointer.
fn hint_clicked(r: &egui::Response, settling: bool, out: &mut Asked) -> bool {
    if !r.clicked() || r.double_clicked() || r.triple_clicked() {
        return false;
    }
    if settling {
        out.say = Some("The hints just changed (a new turn): look, then click again.".to_owned());
    }
    !settling
}

/// Whether the hints changed (a new turn's moves) in the last [`SETTLE`](super::hand::SETTLE);
/// remembers them for the next frame.
fn hints_settling(ui: &Ui, legal: &[Move]) -> bool {
    use std::hash::{Hash as _, Hasher as _};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    legal.hash(&mut h);
    let now_hash = h.finish();
    let id = egui::Id::unique("hints-changed");
    let now = ui.input(|i| i.time);
    let (hash, at) = ui
        .data(|d| d.get_temp::<(u64, f64)>(id))
        .unwrap_or((now_hash, f64::MIN));
    let at = if hash == now_hash { at } else { now };
    ui.data_mut(|d| d.insert_temp(id, (now_hash, at)));
    now - at < super::hand::SETTLE
}

/// The legal moves as the hints list them: what builds the table first (melds, going out,
/// taking the pile), the discards last, each kind in the engine's order. A player looking for
/// what they can meld found only discards in sight.
fn hint_order(legal: &[Move]) -> Vec<&Move> {
    let mut order: Vec<&Move> = legal.iter().collect();
    order.sort_by_key(|mv| matches!(mv, Move::Discard(_)));
    order
}

fn hint_list(ui: &mut Ui, m: &Model, view: &PlayerView, out: &mut Asked) {
    let me = view.seat();
    let words = |mv: &Move| super::move_words::move_line(mv, me, me);
    let legal = &m.moves.legal;
    let settling = hints_settling(ui, legal);
    if view.phase() == Phase::Draw {
        let takes = pile_takes(legal);
        if takes.is_empty() {
            ui.label(format!(
                "You cannot take the pile now ({}): draw from the stock.",
                pile_refusal(view)
            ));
        }
        for mv in takes {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("You can take the pile: {}", words(mv)));
                if hint_clicked(&ui.small_button("Take it"), settling, out) {
                    out.mv = Some(mv.clone());
                }
            });
        }
    }
    for (what, mv) in [
        ("A legal way to open", &m.moves.opening),
        ("A legal finish", &m.moves.finish),
    ] {
        if let Some(mv) = mv {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{what}: {}", words(mv)));
                if hint_clicked(&ui.small_button("Play it"), settling, out) {
                    out.mv = Some(mv.clone());
                }
            });
        }
    }
    ui.label(RichText::new("Every legal move:").strong());
    egui::ScrollArea::vertical()
        .id_salt("hint-moves")
        .max_height(200.0)
        .show(ui, |ui| {
            // Wrapped: a long move would otherwise widen the panel over the table.
            for mv in hint_order(legal) {
                let text = RichText::new(words(mv)).small();
                if hint_clicked(&ui.add(egui::Button::new(text).wrap()), settling, out) {
                    out.mv = Some(mv.clone());
                }
            }
        });
}

#[cfg(test)]
mod hint_tests {
    use fairdeal_core::{Card, Move, Plan};

    use super::hint_order;

    #[test]
    fn the_hints_list_melds_before_discards_each_in_the_engines_order() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let meld = |s: &str| {
            Move::Meld(Plan {
                new: vec![s.split_whitespace().map(c).collect()],
                ..Plan::default()
            })
        };
        let legal = vec![
            Move::Discard(c("7S")),
            meld("6C 6H 6S"),
            Move::Discard(c("KD")),
            meld("9C 9D 9H"),
        ];
        assert_eq!(
            hint_order(&legal),
            vec![&legal[1], &legal[3], &legal[0], &legal[2]]
        );
    }
}
