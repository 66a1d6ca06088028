//! Moves a player can make, in the scenario format's JSON shape.

use serde::{Deserialize, Serialize};

use crate::card::Card;

/// Cards added from hand to one of the team's melds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Add {
    /// Index into the acting team's melds as they stood before the move.
    pub to: usize,
    /// The cards from hand.
    pub cards: Vec<Card>,
}

/// A plan of melds laid down together, accepted or refused as a whole.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// New melds, appended in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new: Vec<Vec<Card>>,
    /// Cards added to existing melds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<Add>,
    /// Pairs of existing melds merged (the lower index stays).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merge: Vec<[usize; 2]>,
}

impl Plan {
    /// Whether the plan melds nothing.
    pub fn is_empty(&self) -> bool {
        self.new.is_empty() && self.add.is_empty() && self.merge.is_empty()
    }

    /// Every card the plan takes from hand.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.new
            .iter()
            .flatten()
            .chain(self.add.iter().flat_map(|a| a.cards.iter()))
            .copied()
    }
}

/// One move by one seat.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Draw from the stock (2 in Samba presets, 1 in canasta).
    Draw {},
    /// Take the discard pile: the top card and `with` go onto meld `onto` (or a new meld).
    Pickup {
        /// Cards from hand melded with the top card.
        #[serde(default)]
        with: Vec<Card>,
        /// The team meld the top card goes onto, or `None` for a new meld.
        #[serde(default)]
        onto: Option<usize>,
        /// Further melds from hand in the same action (they count for the opening minimum).
        #[serde(default, skip_serializing_if = "Plan::is_empty")]
        also: Plan,
    },
    /// `dutch-samba`: take only the top card onto an unfinished team sequence.
    TakeTop {
        /// The sequence's index.
        onto: usize,
    },
    /// Lay down a plan.
    Meld(Plan),
    /// Meld the plan and discard the last card (or none), emptying the hand.
    GoOut {
        /// The melds.
        #[serde(default)]
        plan: Plan,
        /// The last card, if any.
        #[serde(default)]
        discard: Option<Card>,
    },
    /// `dutch-samba` (and the Dutch red-three house rule): lay out red threes from hand.
    LayRedThrees(Vec<Card>),
    /// Discard a card, ending the turn.
    Discard(Card),
    /// Samba presets: keep a single card and end the turn.
    Pass {},
    /// Ask the partner "May I go out?".
    AskPartner {},
    /// The partner's binding answer.
    Answer(bool),
}

impl Move {
    /// Every card the move names (from hand or as a discard).
    pub fn cards(&self) -> Vec<Card> {
        match self {
            Self::Pickup { with, also, .. } => with.iter().copied().chain(also.cards()).collect(),
            Self::Meld(plan) => plan.cards().collect(),
            Self::GoOut { plan, discard } => plan.cards().chain(*discard).collect(),
            Self::LayRedThrees(cards) => cards.clone(),
            Self::Discard(c) => vec![*c],
            Self::Draw {}
            | Self::TakeTop { .. }
            | Self::Pass {}
            | Self::AskPartner {}
            | Self::Answer(_) => Vec::new(),
        }
    }

    /// Whether any card the move names satisfies `f` (as [`Move::cards`], without a list).
    pub(crate) fn any_card(&self, f: impl Fn(Card) -> bool) -> bool {
        match self {
            Self::Pickup { with, also, .. } => with.iter().copied().chain(also.cards()).any(f),
            Self::Meld(plan) => plan.cards().any(f),
            Self::GoOut { plan, discard } => plan.cards().chain(*discard).any(f),
            Self::LayRedThrees(cards) => cards.iter().copied().any(f),
            Self::Discard(c) => f(*c),
            Self::Draw {}
            | Self::TakeTop { .. }
            | Self::Pass {}
            | Self::AskPartner {}
            | Self::Answer(_) => false,
        }
    }

    /// A short name of the move's kind (`draw`, `pickup`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Draw {} => "draw",
            Self::Pickup { .. } => "pickup",
            Self::TakeTop { .. } => "take_top",
            Self::Meld(_) => "meld",
            Self::GoOut { .. } => "go_out",
            Self::LayRedThrees(_) => "lay_red_threes",
            Self::Discard(_) => "discard",
            Self::Pass {} => "pass",
            Self::AskPartner {} => "ask_partner",
            Self::Answer(_) => "answer",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_the_scenario_json() {
        let cases = [
            r#"{"draw": {}}"#,
            r#"{"pickup": {"with": ["7C", "7D"], "onto": null}}"#,
            r#"{"take_top": {"onto": 1}}"#,
            r#"{"meld": {"new": [["KC", "KD", "KH"]], "add": [{"to": 0, "cards": ["9H"]}], "merge": [[0, 1]]}}"#,
            r#"{"go_out": {"plan": {}, "discard": "2H"}}"#,
            r#"{"lay_red_threes": ["3H"]}"#,
            r#"{"discard": "9C"}"#,
            r#"{"pass": {}}"#,
            r#"{"ask_partner": {}}"#,
            r#"{"answer": true}"#,
        ];
        for text in cases {
            let m: Move = serde_json::from_str(text).unwrap();
            let again: Move = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
            assert_eq!(m, again, "{text}");
        }
        assert!(serde_json::from_str::<Move>(r#"{"fly": {}}"#).is_err());
    }
}
