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
    /// Only the number: the cards are drawn from the red threes the packs hold beyond those
    /// named elsewhere in the position (3♥ and 3♦ in turn while both last).
    Count(usize),
    /// The exact cards.
    Cards(Vec<Card>),
}

impl RedThrees {
    /// The cards, a count drawn from `left` (the red threes the packs still hold, 3♥ then 3♦
    /// in turn while both last); `None` if `left` runs out.
    fn take(&self, left: &mut Cards) -> Option<Vec<Card>> {
        match self {
            Self::Count(n) => {
                let hearts = Card::new(Rank::Three, Suit::Hearts);
                let diamonds = Card::new(Rank::Three, Suit::Diamonds);
                let mut out = Vec::new();
                for i in 0..*n {
                    let (first, second) = if i % 2 == 0 {
                        (hearts, diamonds)
                    } else {
                        (diamonds, hearts)
                    };
                    let card = if left.contains(first) { first } else { second };
                    if !left.remove(card) {
                        return None;
                    }
                    out.push(card);
                }
                Some(out)
            }
            Self::Cards(cards) => Some(cards.clone()),
        }
    }
}

fn invalid(reason: impl Into<String>) -> Refusal {
    Refusal::new(Code::InvalidPosition, reason.into())
}

/// The laid-out red threes of `desc`: exact cards as given, then counts drawn from the red
/// threes the packs hold beyond those (and beyond any elsewhere in the position).
fn red_threes_of(
    rules: &Rules,
    desc: &PositionDesc,
    hands: &[Cards; 4],
    melds: &[Vec<Meld>; 2],
) -> Result<[Vec<Card>; 2], Refusal> {
    let pack: Cards = canonical_deck(rules).iter().collect();
    let mut left: Cards = pack
        .distinct()
        .filter(|c| c.is_red_three())
        .flat_map(|c| std::iter::repeat_n(c, pack.count(c)))
        .collect();
    let elsewhere = hands
        .iter()
        .flat_map(Cards::iter)
        .chain(
            melds
                .iter()
                .flatten()
                .flat_map(|m| m.cards().iter().copied()),
        )
        .chain(desc.pile.iter().copied())
        .chain(desc.stock.iter().copied());
    let exact = desc.red_threes.values().filter_map(|r| match r {
        RedThrees::Cards(cards) => Some(cards.iter().copied()),
        RedThrees::Count(_) => None,
    });
    for c in elsewhere.chain(exact.flatten()) {
        left.remove(c);
    }
    let mut out: [Vec<Card>; 2] = Default::default();
    // Exact cards first, so a count never takes a card another team's list names.
    let mut order: Vec<(&Team, &RedThrees)> = desc.red_threes.iter().collect();
    order.sort_by_key(|(_, r)| matches!(r, RedThrees::Count(_)));
    for (team, given) in order {
        let refuse = || {
            invalid(format!(
                "team {team} cannot have these red threes: {given:?}"
            ))
        };
        let cards = given.take(&mut left).ok_or_else(refuse)?;
        if cards.len() > rules.packs * 2 || cards.iter().any(|c| !c.is_red_three()) {
            return Err(refuse());
        }
        out[team.index()] = cards;
    }
    Ok(out)
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
        let red_threes = red_threes_of(&rules, desc, &hands, &melds)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn position(preset: Preset, red_threes: serde_json::Value) -> Result<Position, Refusal> {
        let desc: PositionDesc = serde_json::from_value(serde_json::json!({
            "dealer": "E", "scores": {"A": 0, "B": 0}, "turn": "S", "phase": "play",
            "hands": {"S": ["5C", "9D"], "W": ["6C"], "N": ["8C"], "E": ["QC"]},
            "melds": {"A": [], "B": []},
            "red_threes": red_threes,
            "pile": ["8S"], "stock": ["4S", "9H"]
        }))
        .unwrap();
        Position::from_desc(Rules::preset(preset), &desc)
    }

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn red_three_counts_draw_from_what_the_packs_hold() {
        let p = position(Preset::Canasta, serde_json::json!({"A": 3, "B": 1})).unwrap();
        assert_eq!(p.red_threes(Team::A), cards("3H 3D 3H"));
        assert_eq!(p.red_threes(Team::B), cards("3D"));
        let p = position(Preset::Samba, serde_json::json!({"A": 4, "B": 2})).unwrap();
        assert_eq!(p.red_threes(Team::A), cards("3H 3D 3H 3D"));
        assert_eq!(p.red_threes(Team::B), cards("3H 3D"));
        // Exact cards are taken first, whichever team names them.
        let p = position(Preset::Canasta, serde_json::json!({"A": 2, "B": ["3H"]})).unwrap();
        assert_eq!(p.red_threes(Team::A), cards("3H 3D"));
        let p = position(
            Preset::Canasta,
            serde_json::json!({"A": ["3D", "3D"], "B": 2}),
        )
        .unwrap();
        assert_eq!(p.red_threes(Team::B), cards("3H 3H"));
    }

    #[test]
    fn more_red_threes_than_the_packs_hold_are_refused() {
        for (preset, given) in [
            (Preset::Canasta, serde_json::json!({"A": 3, "B": 2})),
            (
                Preset::Canasta,
                serde_json::json!({"A": ["3H", "3H"], "B": 3}),
            ),
            (Preset::Samba, serde_json::json!({"A": 5, "B": 2})),
            (
                Preset::Canasta,
                serde_json::json!({"A": ["3H", "3H", "3H"], "B": 0}),
            ),
        ] {
            let err = position(preset, given.clone()).unwrap_err();
            assert_eq!(err.code, Code::InvalidPosition, "{preset} {given}");
        }
    }
}
