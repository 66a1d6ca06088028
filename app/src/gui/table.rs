//! The table: both teams' melds, pile and stock, the hand, the plan, and the moves.
//!
//! Cards are picked by clicking (selection) or dragged: onto one of our melds (planned onto
//! it), onto "new meld" (a planned group), or onto the pile (a discard).

use std::sync::Arc;

use eframe::egui::{self, Color32, RichText, Ui};
use fairdeal_core::{Card, Move, Phase, PlayerView, Seat, Team};

use super::cards::{self, HAND, SMALL};
use super::game::Game;

/// A card being dragged from the hand.
#[derive(Debug, Clone, Copy)]
struct Dragged(Card);

/// Where a drag ended.
enum Drop {
    Meld(usize),
    NewMeld,
    Group(usize),
    Pile,
}

const WARN: Color32 = Color32::from_rgb(200, 120, 0);

/// Draws the table of `g`.
pub fn table_ui(ui: &mut Ui, g: &mut Game) {
    // The view is lent out of the game for the frame (not cloned every frame) and put back.
    let Some(view) = g.view.take() else {
        ui.centered_and_justified(|ui| ui.label(RichText::new(&g.status).size(20.0)));
        return;
    };
    table_body(ui, g, &view);
    g.view = Some(view);
}

fn table_body(ui: &mut Ui, g: &mut Game, view: &PlayerView) {
    header(ui, g, view);
    banner(ui, g, view);
    ui.separator();
    egui::Panel::right("log")
        .resizable(true)
        .default_size(240.0)
        .min_size(220.0)
        .show(ui, |ui| {
            ui.heading("Moves");
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &g.log {
                        ui.label(line);
                    }
                });
        });
    let mut dropped: Option<(Drop, Card)> = None;
    // The rest of the window, beside the log.
    egui::CentralPanel::no_frame().show(ui, |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                players(ui, g, view);
                ui.add_space(4.0);
                let them = view.seat().team().other();
                melds_ui(ui, view, them, "Their melds", false);
                ui.add_space(4.0);
                if let Some(card) = pile_row(ui, view) {
                    dropped = Some((Drop::Pile, card));
                }
                ui.add_space(4.0);
                let us = view.seat().team();
                let (clicked, drop) = melds_ui(
                    ui,
                    view,
                    us,
                    "Our melds (click or drop cards on one to add them)",
                    true,
                );
                if let Some((i, card)) = drop {
                    dropped = Some((Drop::Meld(i), card));
                }
                if let (Some(i), true) = (clicked, g.my_turn && !g.selected.is_empty()) {
                    let cards = std::mem::take(&mut g.selected);
                    g.plan_onto(i, cards);
                }
                ui.separator();
                hand_ui(ui, g, view);
                if let Some(d) = plan_ui(ui, g) {
                    dropped = Some(d);
                }
                ui.add_space(6.0);
                actions_ui(ui, g, view);
                if !g.status.is_empty() {
                    ui.label(RichText::new(&g.status).italics());
                }
            });
    });
    if let Some((drop, card)) = dropped {
        on_drop(g, view, drop, card);
    }
    drag_preview(ui);
}

fn header(ui: &mut Ui, g: &mut Game, view: &PlayerView) {
    let us = view.seat().team();
    let them = us.other();
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!("We {}", view.scores()[us.index()]))
                .strong()
                .size(18.0),
        );
        ui.label(RichText::new(format!("They {}", view.scores()[them.index()])).size(18.0));
        ui.label(format!("target {}", view.rules().target));
        ui.separator();
        let dealer = view.dealer();
        if g.hand_no > 0 {
            ui.label(format!("hand {}", g.hand_no));
        }
        ui.label(format!(
            "{} · dealer {} ({})",
            view.rules().preset,
            g.name(dealer),
            dealer.name()
        ));
        let need = view.minimum_needed(us);
        if need > 0 {
            ui.separator();
            ui.label(format!("we need {need} to open"));
        }
        let them_need = view.minimum_needed(them);
        if them_need > 0 {
            ui.label(format!("· they need {them_need}"));
        }
        ui.separator();
        if ui.small_button("How to play (F1)").clicked() {
            g.help = !g.help;
        }
    });
}

/// Who is gone or awaited.
fn banner(ui: &mut Ui, g: &Game, view: &PlayerView) {
    if !g.down.is_empty() && g.over.is_none() {
        let who: Vec<String> = g
            .down
            .iter()
            .map(|s| format!("{} ({})", g.name(*s), s.name()))
            .collect();
        egui::Frame::new()
            .fill(Color32::from_rgba_unmultiplied(200, 120, 0, 40))
            .inner_margin(6.0)
            .show(ui, |ui| {
                ui.colored_label(
                    WARN,
                    format!(
                        "⚠ {} lost connection. The table waits for them to come back; if they stay away past the grace period, the hand is void and a computer player takes the seat.",
                        who.join(", ")
                    ),
                );
            });
        return;
    }
    let others: Vec<String> = g
        .waiting
        .iter()
        .filter(|s| **s != view.seat())
        .map(|s| g.name(*s))
        .collect();
    if !others.is_empty() && view.actor() != view.seat() {
        ui.colored_label(WARN, format!("Waiting for {}…", others.join(", ")));
    }
}

fn players(ui: &mut Ui, g: &Game, view: &PlayerView) {
    let me = view.seat();
    ui.horizontal_wrapped(|ui| {
        for seat in [me.next(), me.partner(), me.partner().next()] {
            let who = if seat == me.partner() {
                "partner"
            } else {
                "opponent"
            };
            let turn = if view.turn() == seat {
                " ◀ to play"
            } else {
                ""
            };
            let text = format!(
                "{} · {} ({who}): {} cards{turn}",
                seat.name(),
                g.name(seat),
                view.hand_size(seat)
            );
            if view.turn() == seat {
                ui.label(RichText::new(text).strong());
            } else {
                ui.label(text);
            }
            ui.separator();
        }
    });
}

/// Stock, pile (a drop target for discards) and its state; returns a card dropped on it.
fn pile_row(ui: &mut Ui, view: &PlayerView) -> Option<Card> {
    let us = view.seat().team();
    let mut dropped = None;
    ui.horizontal(|ui| {
        ui.label(format!("Stock {}", view.stock_len()));
        ui.separator();
        let pile = view.pile();
        let zone = egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(format!("Pile {}", pile.len()));
            match pile.last() {
                Some(&top) => {
                    cards::card(ui, top, HAND, false, "on the pile");
                }
                None => {
                    ui.weak("empty");
                }
            }
        });
        if let Some(d) = zone.response.dnd_release_payload::<Dragged>() {
            dropped = Some(d.0);
        }
        if view.pile_frozen_for(us) {
            // Why: a wild card (or red three) frozen into it, the house rule, or (canasta) a
            // team that has not opened.
            let why = if view.pile_frozen() {
                "a wild card is in it"
            } else if view.rules().pile_always_frozen {
                "the house rule keeps it frozen"
            } else {
                "we have not opened yet"
            };
            ui.colored_label(
                Color32::from_rgb(60, 140, 220),
                format!("❄ frozen for us ({why}): taking it needs a natural pair of the top card"),
            );
        }
        match pile.last() {
            Some(c) if c.is_wild() => {
                ui.label(format!("(blocked: a wild card, {}, is on top)", c.label()));
            }
            Some(c) if c.is_three() => {
                ui.label(format!(
                    "(blocked for the next player: a three, {}, is on top)",
                    c.label()
                ));
            }
            _ => {}
        }
    });
    dropped
}

/// Draws a team's melds; returns a meld clicked, and a card dropped on one.
fn melds_ui(
    ui: &mut Ui,
    view: &PlayerView,
    team: Team,
    title: &str,
    target: bool,
) -> (Option<usize>, Option<(usize, Card)>) {
    let mut clicked = None;
    let mut dropped = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(title).strong());
        let threes = view.red_threes(team);
        if !threes.is_empty() {
            ui.label(format!("· red threes ({}):", threes.len()));
            for &c in threes {
                cards::card(ui, c, SMALL * 0.75, false, "laid out (red three)");
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        for (i, m) in view.melds(team).iter().enumerate() {
            // A frame's size is known only after it is drawn: wrap by its expected width.
            let width = m.len() as f32 * (SMALL.x + ui.spacing().item_spacing.x) + 16.0;
            if ui.available_size_before_wrap().x < width {
                ui.end_row();
            }
            let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.vertical(|ui| {
                    ui.horizontal(|ui| {
                        let mut shown: Vec<Card> = m.cards().to_vec();
                        shown.sort_by_key(cards::sort_key);
                        for c in shown {
                            cards::card(ui, c, SMALL, false, "in a meld");
                        }
                    });
                    let tag = if m.is_samba() {
                        "SAMBA ✓".to_owned()
                    } else if m.is_canasta() {
                        if m.wilds() == 0 {
                            "natural canasta ✓".to_owned()
                        } else {
                            "mixed canasta ✓".to_owned()
                        }
                    } else {
                        format!("{} cards, {} wild", m.len(), m.wilds())
                    };
                    ui.small(tag);
                });
            });
            if target {
                let r = frame.response.interact(egui::Sense::click());
                let name = format!(
                    "Our meld {}: {} cards, {} wild (click to add the selected cards)",
                    i + 1,
                    m.len(),
                    m.wilds()
                );
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                if r.clicked() {
                    clicked = Some(i);
                }
                if let Some(d) = r.dnd_release_payload::<Dragged>() {
                    dropped = Some((i, d.0));
                }
            }
        }
        if view.melds(team).is_empty() {
            ui.weak("none yet");
        }
    });
    (clicked, dropped)
}

fn hand_ui(ui: &mut Ui, g: &mut Game, view: &PlayerView) {
    let mut hand = g.unplanned(view);
    hand.sort_by_key(cards::sort_key);
    ui.label(
        RichText::new(format!(
            "Your hand ({}) — click to select, drag onto a meld, the plan or the pile",
            hand.len()
        ))
        .strong(),
    );
    let mut selected_count = std::collections::BTreeMap::<Card, usize>::new();
    for c in &g.selected {
        *selected_count.entry(*c).or_default() += 1;
    }
    ui.horizontal_wrapped(|ui| {
        let mut shown = std::collections::BTreeMap::<Card, usize>::new();
        let mut last_group = None;
        for c in hand {
            let group = cards::sort_key(&c).0;
            if last_group.is_some_and(|l| l != group) {
                ui.add_space(10.0);
            }
            last_group = Some(group);
            let k = shown.entry(c).or_default();
            let is_sel = *k < selected_count.get(&c).copied().unwrap_or(0);
            *k += 1;
            let r = cards::hand_card(ui, c, is_sel);
            r.dnd_set_drag_payload(Dragged(c));
            if r.clicked() {
                if is_sel {
                    if let Some(p) = g.selected.iter().position(|x| *x == c) {
                        g.selected.remove(p);
                    }
                } else {
                    g.selected.push(c);
                }
            }
        }
    });
}

/// The plan: planned groups (drop targets) and the "new meld" zone.
fn plan_ui(ui: &mut Ui, g: &mut Game) -> Option<(Drop, Card)> {
    let mut dropped = None;
    let mut undo = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Plan:").strong());
        for (i, m) in g.plan.iter().enumerate() {
            let r = egui::Frame::group(ui.style()).show(ui, |ui| {
                for &c in m {
                    cards::card(ui, c, SMALL, false, "planned");
                }
                if ui
                    .small_button("✖")
                    .on_hover_text("Undo this group")
                    .clicked()
                {
                    undo = Some(i);
                }
            });
            if let Some(d) = r.response.dnd_release_payload::<Dragged>() {
                dropped = Some((Drop::Group(i), d.0));
            }
        }
        for (to, cards_) in &g.plan_adds {
            ui.label(format!("onto meld {}:", to + 1));
            for &c in cards_ {
                cards::card(ui, c, SMALL, false, "planned");
            }
        }
        let zone = egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.weak("drop here: new meld");
        });
        if let Some(d) = zone.response.dnd_release_payload::<Dragged>() {
            dropped = Some((Drop::NewMeld, d.0));
        }
    });
    if let Some(i) = undo {
        g.plan.remove(i);
    }
    dropped
}

/// The cards a drag moves: the whole selection when the dragged card is in it.
fn dragged_cards(g: &mut Game, card: Card) -> Vec<Card> {
    if g.selected.contains(&card) {
        std::mem::take(&mut g.selected)
    } else {
        vec![card]
    }
}

fn on_drop(g: &mut Game, view: &PlayerView, drop: Drop, card: Card) {
    if !g.my_turn {
        g.status = "Wait for your turn.".to_owned();
        return;
    }
    match drop {
        Drop::Meld(i) => {
            let cards = dragged_cards(g, card);
            g.plan_onto(i, cards);
        }
        Drop::NewMeld => {
            let cards = dragged_cards(g, card);
            g.plan.push(cards);
        }
        Drop::Group(i) => {
            let cards = dragged_cards(g, card);
            if let Some(group) = g.plan.get_mut(i) {
                group.extend(cards);
            }
        }
        Drop::Pile => {
            let mv = Move::Discard(card);
            match view.validate(&mv) {
                Ok(()) => g.send(mv),
                Err(r) => g.status = format!("Not allowed: {}", r.reason),
            }
        }
    }
}

/// The dragged card follows the pointer.
fn drag_preview(ui: &mut Ui) {
    let ctx = ui.ctx().clone();
    let Some(d) = egui::DragAndDrop::payload::<Dragged>(&ctx) else {
        return;
    };
    let Some(pos) = ctx.pointer_interact_pos() else {
        return;
    };
    let d: Arc<Dragged> = d;
    egui::Area::new(egui::Id::unique("drag-card-area"))
        .order(egui::Order::Tooltip)
        .fixed_pos(pos + egui::vec2(-HAND.x / 2.0, -HAND.y / 2.0))
        .interactable(false)
        .show(&ctx, |ui| {
            cards::card(ui, d.0, HAND, true, "being moved");
        });
}

fn key(ui: &Ui, k: egui::Key) -> bool {
    // Shortcuts never fire while a text field has the focus.
    ui.ctx().memory(|m| m.focused().is_none()) && ui.input(|i| i.key_pressed(k))
}

/// The buttons for this seat's legal moves.
fn actions_ui(ui: &mut Ui, g: &mut Game, view: &PlayerView) {
    if !g.my_turn {
        ui.weak(format!("{} is playing…", g.name(view.actor())));
        return;
    }
    let legal = g.moves.legal.clone();
    let me = view.seat();
    let mut chosen: Option<Move> = None;
    ui.label(
        RichText::new("Your turn")
            .strong()
            .color(Color32::from_rgb(40, 150, 70)),
    );
    ui.horizontal_wrapped(|ui| match view.phase() {
        Phase::Answer => {
            ui.label(format!(
                "{} asks: \"May I go out?\"",
                g.name(view.seat().partner())
            ));
            if ui.button("Yes (Y)").clicked() || key(ui, egui::Key::Y) {
                chosen = Some(Move::Answer(true));
            }
            if ui.button("No (N)").clicked() || key(ui, egui::Key::N) {
                chosen = Some(Move::Answer(false));
            }
        }
        Phase::Draw => {
            if ui.button("Draw (D)").clicked() || key(ui, egui::Key::D) {
                chosen = Some(Move::Draw {});
            }
            let takes = pile_takes(&legal);
            if takes.is_empty() {
                ui.weak("(the pile cannot be taken now)");
            }
            for mv in takes {
                if ui
                    .button(mv.describe(me).replace(&format!("{} ", me.name()), ""))
                    .clicked()
                {
                    chosen = Some(mv.clone());
                }
            }
        }
        _ => chosen = play_buttons(ui, g, view, &legal),
    });
    ui.collapsing(
        "Hints: can I take the pile, how to open, how to finish",
        |ui| {
            hints(ui, g, view, &legal, &mut chosen);
        },
    );
    if let Some(mv) = chosen {
        match view.validate(&mv) {
            Ok(()) => g.send(mv),
            Err(r) => g.status = format!("Not allowed: {}", r.reason),
        }
    }
}

fn play_buttons(ui: &mut Ui, g: &mut Game, view: &PlayerView, legal: &[Move]) -> Option<Move> {
    let me = view.seat();
    let mut chosen = None;
    let sel = g.selected.clone();
    let meld_now = (!sel.is_empty()).then(|| {
        Move::Meld(fairdeal_core::Plan {
            new: vec![sel.clone()],
            ..Default::default()
        })
    });
    if let Some(mv) = move_button(ui, view, "Meld selected now (M)", meld_now, egui::Key::M) {
        chosen = Some(mv);
    }
    if ui
        .add_enabled(
            !sel.is_empty(),
            egui::Button::new("Plan selected as a new meld (P)"),
        )
        .clicked()
        || (!sel.is_empty() && key(ui, egui::Key::P))
    {
        g.plan.push(sel.clone());
        g.selected.clear();
    }
    if g.has_plan() {
        let points: i32 = g
            .plan
            .iter()
            .flatten()
            .chain(g.plan_adds.iter().flat_map(|(_, c)| c))
            .map(|c| c.points())
            .sum();
        let need = view.minimum_needed(me.team());
        let label = if need > 0 {
            format!("Play plan ({points} of {need} needed) (Enter)")
        } else {
            format!("Play plan ({points} points) (Enter)")
        };
        let plan = g.plan_move();
        let verdict = view.validate(&plan);
        if let Some(mv) = move_button(ui, view, &label, Some(plan), egui::Key::Enter) {
            chosen = Some(mv);
        }
        if let Err(r) = verdict {
            ui.colored_label(WARN, format!("Not allowed: {}", r.reason));
        }
        if (ui.button("Undo last planned (U)").clicked() || key(ui, egui::Key::U))
            && g.plan_adds.pop().is_none()
        {
            g.plan.pop();
        }
    }
    let discard = (sel.len() == 1).then(|| Move::Discard(sel[0]));
    if let Some(mv) = move_button(ui, view, "Discard selected (X)", discard, egui::Key::X) {
        chosen = Some(mv);
    }
    if !sel.is_empty() && key(ui, egui::Key::Escape) {
        g.selected.clear();
    }
    for mv in legal {
        let label = match mv {
            Move::GoOut { .. } => Some("Go out"),
            Move::Pass {} => Some("Pass"),
            Move::AskPartner {} => Some("Ask partner: may I go out?"),
            Move::LayRedThrees(_) => Some("Lay out red threes"),
            _ => None,
        };
        if let Some(label) = label
            && ui.button(label).clicked()
        {
            chosen = Some(mv.clone());
        }
    }
    chosen
}

/// A button for `mv`, enabled only when the rules allow it now (else its hover text says
/// why); returns the move when clicked or when `shortcut` is pressed.
fn move_button(
    ui: &mut Ui,
    view: &PlayerView,
    label: &str,
    mv: Option<Move>,
    shortcut: egui::Key,
) -> Option<Move> {
    let verdict = mv.as_ref().map(|m| view.validate(m));
    let allowed = matches!(verdict, Some(Ok(())));
    let mut button = ui.add_enabled(allowed, egui::Button::new(label));
    button = match &verdict {
        Some(Err(r)) => button.on_disabled_hover_text(format!("Not allowed: {}", r.reason)),
        None => button.on_disabled_hover_text("Select cards first"),
        Some(Ok(())) => button,
    };
    (allowed && (button.clicked() || key(ui, shortcut)))
        .then_some(mv)
        .flatten()
}

/// The legal ways to take the pile (every legal move of the draw phase but the draw).
fn pile_takes(legal: &[Move]) -> Vec<&Move> {
    legal
        .iter()
        .filter(|m| !matches!(m, Move::Draw {}))
        .collect()
}

fn hints(ui: &mut Ui, g: &Game, view: &PlayerView, legal: &[Move], chosen: &mut Option<Move>) {
    let me = view.seat();
    if view.phase() == Phase::Draw {
        let takes = pile_takes(legal);
        if takes.is_empty() {
            ui.label("You cannot take the pile now: draw from the stock.");
        }
        for mv in takes {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("You can take the pile: {}", mv.describe(me)));
                if ui.small_button("Take it").clicked() {
                    *chosen = Some(mv.clone());
                }
            });
        }
    }
    if let Some(open) = g.moves.opening.clone() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("A legal way to open: {}", open.describe(me)));
            if ui.small_button("Play it").clicked() {
                *chosen = Some(open.clone());
            }
        });
    }
    if let Some(finish) = g.moves.finish.clone() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("A legal finish: {}", finish.describe(me)));
            if ui.small_button("Play it").clicked() {
                *chosen = Some(finish.clone());
            }
        });
    }
    ui.label("Every legal move:");
    egui::ScrollArea::vertical()
        .id_salt("hint-moves")
        .max_height(140.0)
        .show(ui, |ui| {
            for mv in legal {
                if ui.small_button(mv.describe(me)).clicked() {
                    *chosen = Some(mv.clone());
                }
            }
        });
}

/// The seat names of a team, for the score sheet ("Ann + Bea").
pub fn team_names(g: &Game, team: Team) -> String {
    let seats: Vec<Seat> = Seat::ALL.into_iter().filter(|s| s.team() == team).collect();
    seats
        .iter()
        .map(|s| g.name(*s))
        .collect::<Vec<_>>()
        .join(" + ")
}
