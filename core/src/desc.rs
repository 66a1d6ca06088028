//! Position descriptions (the FEN of this game): build a [`Position`] from the scenario format's
//! `position` object, check that it can exist, and write one back.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::deal::canonical_deck;
use crate::error::{Code, Refusal};
use crate::meld::{Meld, MeldKind};
use crate::position::{Drew, HandEnd, Phase, Position, TurnState};
use crate::rules::Rules;
use crate::seat::{Seat, Team};

/// A position as written in scenario files (FORMAT.md "Fields of position"), plus optional
/// turn details so that any position, mid-turn included, round-trips.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionDesc {
    /// The dealer.
    pub dealer: Seat,
    /// Cumulative scores before this hand.
    pub scores: BTreeMap<Team, i32>,
    /// The seat to act.
    pub turn: Seat,
    /// `draw`, `play`, `answer` or `over`.
    pub phase: Phase,
    /// Each seat's cards.
    pub hands: BTreeMap<Seat, Vec<Card>>,
    /// Each team's melds in order.
    pub melds: BTreeMap<Team, Vec<Vec<Card>>>,
    /// The red threes each team has laid out: a count (as scenario files give it) or the cards.
    pub red_threes: BTreeMap<Team, RedThrees>,
    /// Bottom first, top last.
    pub pile: Vec<Card>,
    /// Whether the pile is frozen.
    #[serde(default)]
    pub pile_frozen: bool,
    /// Top card first.
    pub stock: Vec<Card>,
    /// Seats that have melded earlier in this hand (default: every seat of a team with melds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melded_before: Option<Vec<Seat>>,
    /// The current turn's details (default: a fresh turn; in `play`, after a stock draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_state: Option<TurnState>,
    /// How the hand ended (phase `over` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<HandEnd>,
}

/// Laid-out red threes: a count, or the exact cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RedThrees {
    /// Only the number (the cards are taken to be 3♥ and 3♦ in turn).
    Count(usize),
    /// The exact cards.
    Cards(Vec<Card>),
}

impl RedThrees {
    fn cards(&self) -> Vec<Card> {
        match self {
            Self::Count(n) => (0..*n)
                .map(|i| {
                    Card::new(
                        Rank::Three,
                        if i % 2 == 0 {
                            Suit::Hearts
                        } else {
                            Suit::Diamonds
                        },
                    )
                })
                .collect(),
            Self::Cards(cards) => cards.clone(),
        }
    }
}

fn invalid(reason: impl Into<String>) -> Refusal {
    Refusal::new(Code::InvalidPosition, reason.into())
}

impl Position {
    /// Builds and checks a position.
    ///
    /// # Errors
    ///
    /// `invalid_position` with the reason if it cannot exist: too many copies of a card, a bad
    /// meld, a red three in a hand where red threes are laid out at once, a bad phase.
    pub fn from_desc(rules: Rules, desc: &PositionDesc) -> Result<Self, Refusal> {
        let mut hands: [Cards; 4] = Default::default();
        for (seat, cards) in &desc.hands {
            hands[seat.index()] = cards.iter().collect();
        }
        let mut melds: [Vec<Meld>; 2] = Default::default();
        for (team, list) in &desc.melds {
            for cards in list {
                let meld = Meld::from_cards(&rules, cards.clone())
                    .map_err(|r| invalid(format!("team {team} meld {cards:?}: {r}")))?;
                if meld.kind() == MeldKind::BlackThrees && desc.phase != Phase::Over {
                    return Err(invalid(
                        "black threes are on the table only once a hand is over",
                    ));
                }
                let dup = !rules.multiple_groups_per_rank
                    && meld.is_group()
                    && melds[team.index()].iter().any(|m| m.kind() == meld.kind());
                if dup {
                    return Err(invalid(format!("team {team} has two groups of one rank")));
                }
                melds[team.index()].push(meld);
            }
        }
        let mut red_threes: [Vec<Card>; 2] = Default::default();
        for (team, given) in &desc.red_threes {
            let cards = given.cards();
            if cards.len() > rules.packs * 2 || cards.iter().any(|c| !c.is_red_three()) {
                return Err(invalid(format!(
                    "team {team} cannot have these red threes: {cards:?}"
                )));
            }
            red_threes[team.index()] = cards;
        }
        if !rules.red_threes_in_hand() && hands.iter().any(|h| h.iter().any(|c| c.is_red_three())) {
            return Err(invalid(
                "red threes are laid out at once here: none can be in a hand",
            ));
        }
        let mut stock = desc.stock.clone();
        stock.reverse();
        let melded_before = match &desc.melded_before {
            Some(seats) => {
                let mut m = [false; 4];
                for s in seats {
                    m[s.index()] = true;
                }
                m
            }
            None => Seat::ALL.map(|s| !melds[s.team().index()].is_empty()),
        };
        let turn_state = desc.turn_state.clone().unwrap_or_else(|| {
            let mut t = TurnState::fresh(
                melds[desc.turn.team().index()].len(),
                melded_before[desc.turn.index()],
            );
            if desc.phase == Phase::Play {
                t.drew = Drew::Stock;
            }
            t
        });
        if (desc.phase == Phase::Over) != desc.end.is_some() {
            return Err(invalid(
                "a hand end is given exactly when the phase is over",
            ));
        }
        if desc.phase == Phase::Answer && !turn_state.asked {
            return Err(invalid("phase answer needs a question asked this turn"));
        }
        let score = |t: Team| desc.scores.get(&t).copied().unwrap_or(0);
        let position = Self {
            dealer: desc.dealer,
            scores: [score(Team::A), score(Team::B)],
            turn: desc.turn,
            phase: desc.phase,
            hands,
            melds,
            red_threes,
            pile: desc.pile.clone(),
            pile_frozen: desc.pile_frozen,
            stock,
            melded_before,
            turn_state,
            end: desc.end,
            rules,
        };
        position.check_card_counts()?;
        Ok(position)
    }

    fn check_card_counts(&self) -> Result<(), Refusal> {
        let all = self.all_cards();
        let pack: Cards = canonical_deck(&self.rules).iter().collect();
        if let Some(c) = all
            .distinct()
            .find(|&c| !c.is_hidden() && all.count(c) > pack.count(c))
        {
            return Err(invalid(format!(
                "{} copies of {c} but the pack has {}",
                all.count(c),
                pack.count(c)
            )));
        }
        Ok(())
    }

    /// The description of this position (round-trips through [`Position::from_desc`]).
    pub fn to_desc(&self) -> PositionDesc {
        PositionDesc {
            dealer: self.dealer,
            scores: Team::ALL
                .iter()
                .map(|&t| (t, self.scores[t.index()]))
                .collect(),
            turn: self.turn,
            phase: self.phase,
            hands: Seat::ALL
                .iter()
                .map(|&s| (s, self.hand(s).to_vec()))
                .collect(),
            melds: Team::ALL
                .iter()
                .map(|&t| {
                    (
                        t,
                        self.melds(t).iter().map(|m| m.cards().to_vec()).collect(),
                    )
                })
                .collect(),
            red_threes: Team::ALL
                .iter()
                .map(|&t| (t, RedThrees::Cards(self.red_threes(t).to_vec())))
                .collect(),
            pile: self.pile.clone(),
            pile_frozen: self.pile_frozen,
            stock: self.stock_top_first().collect(),
            melded_before: Some(
                Seat::ALL
                    .into_iter()
                    .filter(|s| self.melded_before(*s))
                    .collect(),
            ),
            turn_state: Some(self.turn_state.clone()),
            end: self.end,
        }
    }
}
