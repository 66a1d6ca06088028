//! The keyboard's place in the hand: the whole hand is one Tab stop (the card last
//! focused), the arrow keys go along it, Esc clears the selection but keeps the place, and
//! Tab or an arrow leads into the hand from a table where nothing has the focus.

use eframe::egui::{self, Id, Sense, Ui};

/// The id of the hand's card at position `i` (the same every frame: the keyboard's focus
/// stays on a place in the hand).
pub fn card_id(i: usize) -> Id {
    Id::unique(("hand-card", i))
}

/// Where the keyboard was in the hand at the end of the last frame.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    /// The hand's Tab stop: the card last focused (`None`: none yet, on a fresh table).
    at: Option<usize>,
    /// Whether a card of the hand had the focus.
    focused: bool,
    /// Whether nothing at all had the focus.
    nothing: bool,
}

fn place_id() -> Id {
    Id::unique("the keyboard's place in the hand")
}

fn place(ui: &Ui) -> Place {
    ui.data(|d| d.get_temp::<Place>(place_id()))
        .unwrap_or(Place {
            nothing: true,
            ..Place::default()
        })
}

/// How card `i` senses: clicks and drags, and only the hand's Tab stop takes the focus, so
/// that Tab goes from the hand to the move buttons in one press instead of through every
/// card (the arrow keys go along the hand).
pub fn card_sense(ui: &Ui, i: usize) -> Sense {
    if place(ui).at.unwrap_or(0) == i {
        Sense::click_and_drag()
    } else {
        Sense::CLICK | Sense::DRAG
    }
}

/// At the frame's start, before any widget: moves the keyboard's place in a hand of `cards`.
///
/// - A card has the focus: → and ← go to its neighbour (egui's own arrow move would look
///   for the nearest focusable widget, and only the Tab stop is focusable); Esc, which
///   egui takes as "let go of the focus", keeps it on the card: at the table Esc clears
///   the selection, and the player's place in the hand is not part of that.
/// - Nothing has the focus (a fresh table, or a click elsewhere): Tab and → go to the
///   hand's place (its first card on a fresh table), ← to the place or the last card. egui
///   moves the focus by arrows only from a focused widget, and its Tab order is the order
///   the widgets are made in: the move list and the chat come before the hand, so the
///   first Tab landed on the hints and the chat's quick phrases.
///
/// The chat line keeps its keys (a text field has the focus then), and so does a question
/// being asked. With `arrows` false (a table only looked at) only Tab leads in.
pub fn keys_into_hand(ui: &Ui, cards: usize, arrows: bool) {
    let mut last = place(ui);
    if cards == 0 || ui.ctx().text_edit_focused() || super::questions::asking(ui.ctx()) {
        return;
    }
    let pressed = |k: egui::Key| ui.input(|i| i.key_pressed(k) && i.modifiers.is_none());
    let at = last.at.map(|a| a.min(cards - 1));
    let to = if last.focused {
        let at = at.unwrap_or(0);
        if arrows && pressed(egui::Key::ArrowRight) {
            Some((at + 1).min(cards - 1))
        } else if arrows && pressed(egui::Key::ArrowLeft) {
            Some(at.saturating_sub(1))
        } else if pressed(egui::Key::Escape) {
            Some(at)
        } else {
            None
        }
    } else if last.nothing
        && (pressed(egui::Key::Tab) || (arrows && pressed(egui::Key::ArrowRight)))
    {
        Some(at.unwrap_or(0))
    } else if last.nothing && arrows && pressed(egui::Key::ArrowLeft) {
        Some(at.unwrap_or(cards - 1))
    } else {
        None
    };
    if let Some(to) = to {
        last.at = Some(to);
        ui.data_mut(|d| d.insert_temp(place_id(), last));
        ui.memory_mut(|mem| {
            // egui's own move (Tab's next widget, an arrow's neighbour) is not taken as well.
            mem.move_focus(egui::FocusDirection::None);
            mem.request_focus(card_id(to));
        });
    }
}

/// At the frame's end: keeps where the keyboard is in a hand of `cards` (for
/// [`keys_into_hand`] and [`card_sense`] in the next frame).
pub fn note_focus(ui: &Ui, cards: usize) {
    let focused = ui.memory(|mem| (0..cards).find(|&i| mem.has_focus(card_id(i))));
    let nothing = ui.memory(|mem| mem.focused().is_none());
    let last = place(ui);
    let kept = Place {
        at: focused.or(last.at),
        focused: focused.is_some(),
        nothing,
    };
    ui.data_mut(|d| d.insert_temp(place_id(), kept));
}
