//! Moves and melds in words, for logs, terminals and screen readers.

use crate::card::Card;
use crate::meld::{Meld, MeldKind};
use crate::moves::{Move, Plan};
use crate::seat::Seat;

fn cards_label(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.label())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Meld {
    /// The meld in words: `K♠ K♥ K♦ 2♣ (mixed canasta)`.
    pub fn label(&self) -> String {
        let what = match self.kind() {
            MeldKind::BlackThrees => "black threes".to_owned(),
            MeldKind::Sequence(_) if self.is_samba() => "samba".to_owned(),
            MeldKind::Sequence(_) => "sequence".to_owned(),
            MeldKind::Group(_) if self.is_canasta() && self.wilds() == 0 => {
                "natural canasta".to_owned()
            }
            MeldKind::Group(_) if self.is_canasta() => "mixed canasta".to_owned(),
            MeldKind::Group(_) => format!("group, {} wild", self.wilds()),
        };
        let mut cards: Vec<Card> = self
            .cards()
            .iter()
            .copied()
            .filter(|c| !c.is_wild())
            .collect();
        cards.sort_by_key(|c| (c.rank(), c.suit()));
        cards.extend(self.cards().iter().copied().filter(|c| c.is_wild()));
        format!("{} ({what})", cards_label(&cards))
    }
}

impl Plan {
    /// The plan in words: `new K♠ K♥ K♦; 9♥ onto meld 2`.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = self
            .new
            .iter()
            .map(|m| format!("new {}", cards_label(m)))
            .collect();
        parts.extend(
            self.add
                .iter()
                .map(|a| format!("{} onto meld {}", cards_label(&a.cards), a.to + 1)),
        );
        parts.extend(
            self.merge
                .iter()
                .map(|[a, b]| format!("merge melds {} and {}", a + 1, b + 1)),
        );
        if parts.is_empty() {
            "nothing".to_owned()
        } else {
            parts.join("; ")
        }
    }
}

impl Move {
    /// The move in words, as the seat's action: `West takes the pile with 7♠ 7♣`.
    pub fn describe(&self, seat: Seat) -> String {
        let who = seat.name();
        match self {
            Self::Draw {} => format!("{who} draws from the stock"),
            Self::Pickup { with, onto, also } => {
                let target =
                    onto.map_or_else(|| "a new meld".to_owned(), |i| format!("meld {}", i + 1));
                let mut s = if with.is_empty() {
                    format!("{who} takes the pile, its top card onto {target}")
                } else {
                    format!(
                        "{who} takes the pile with {} onto {target}",
                        cards_label(with)
                    )
                };
                if !also.is_empty() {
                    s.push_str(&format!(", also melding {}", also.label()));
                }
                s
            }
            Self::TakeTop { onto } => format!("{who} takes the top card onto meld {}", onto + 1),
            Self::Meld(plan) => format!("{who} melds {}", plan.label()),
            Self::GoOut { plan, discard } => match discard {
                Some(c) if !plan.is_empty() => {
                    format!(
                        "{who} goes out: melds {} and discards {}",
                        plan.label(),
                        c.label()
                    )
                }
                Some(c) => format!("{who} goes out discarding {}", c.label()),
                None => format!("{who} goes out: melds {}", plan.label()),
            },
            Self::LayRedThrees(cards) => format!("{who} lays out {}", cards_label(cards)),
            Self::Discard(c) => format!("{who} discards {}", c.label()),
            Self::Pass {} => format!("{who} passes, keeping one card"),
            Self::AskPartner {} => format!("{who} asks: \"May I go out?\""),
            Self::Answer(true) => format!("{who} answers yes"),
            Self::Answer(false) => format!("{who} answers no"),
        }
    }
}
