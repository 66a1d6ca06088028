//! What a `Move` message carries: a rules move, or the red threes just received, in the one
//! codec (`fairdeal_crypto::encoding`, canonical bincode).
//!
//! The rules engine's `Move` is shaped for the scenario format's JSON (absent keys left out),
//! which a non-self-describing encoding cannot read back; the wire types below mirror it with
//! every field present and cards as their face index, and convert both ways exactly.

use fairdeal_core::{Add, Card, Move, Plan};
use fairdeal_crypto::encoding::{self, DecodeError};
use serde::{Deserialize, Serialize};

/// The action inside a signed `Move` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireAction {
    /// A move of the rules engine.
    Play(Move),
    /// After cards were dealt privately (automatic red threes): the red threes among them, shown
    /// by the opened shares (none opened means none received).
    RevealRedThrees {},
}

/// Why an action could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// Not an encoded action.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A card index that is no card (53 and up).
    #[error("card index {0} is no card")]
    NoCard(u8),
}

/// A card on the wire: its face index (`0..53`).
type WireCard = u8;

#[derive(Serialize, Deserialize)]
struct WirePlan {
    new: Vec<Vec<WireCard>>,
    add: Vec<(u64, Vec<WireCard>)>,
    merge: Vec<[u64; 2]>,
}

#[derive(Serialize, Deserialize)]
enum WireMove {
    Draw,
    Pickup {
        with: Vec<WireCard>,
        onto: Option<u64>,
        also: WirePlan,
    },
    TakeTop(u64),
    Meld(WirePlan),
    GoOut {
        plan: WirePlan,
        discard: Option<WireCard>,
    },
    LayRedThrees(Vec<WireCard>),
    Discard(WireCard),
    Pass,
    AskPartner,
    Answer(bool),
}

#[derive(Serialize, Deserialize)]
enum Wire {
    Play(WireMove),
    RevealRedThrees,
}

fn card_out(c: Card) -> WireCard {
    // INVARIANT: a card's face index is below 54.
    c.index() as u8
}

fn cards_out(cards: &[Card]) -> Vec<WireCard> {
    cards.iter().map(|&c| card_out(c)).collect()
}

fn card_in(i: WireCard) -> Result<Card, ActionError> {
    Card::from_index(usize::from(i)).ok_or(ActionError::NoCard(i))
}

fn cards_in(cards: &[WireCard]) -> Result<Vec<Card>, ActionError> {
    cards.iter().map(|&i| card_in(i)).collect()
}

fn index_in(i: u64) -> usize {
    // An index past usize (only on a 32-bit machine) names no meld: the rules refuse it.
    usize::try_from(i).unwrap_or(usize::MAX)
}

fn plan_out(p: &Plan) -> WirePlan {
    WirePlan {
        new: p.new.iter().map(|m| cards_out(m)).collect(),
        add: p
            .add
            .iter()
            .map(|a| (a.to as u64, cards_out(&a.cards)))
            .collect(),
        merge: p
            .merge
            .iter()
            .map(|[a, b]| [*a as u64, *b as u64])
            .collect(),
    }
}

fn plan_in(p: WirePlan) -> Result<Plan, ActionError> {
    Ok(Plan {
        new: p
            .new
            .iter()
            .map(|m| cards_in(m))
            .collect::<Result<_, _>>()?,
        add: p
            .add
            .into_iter()
            .map(|(to, cards)| {
                Ok(Add {
                    to: index_in(to),
                    cards: cards_in(&cards)?,
                })
            })
            .collect::<Result<_, ActionError>>()?,
        merge: p
            .merge
            .iter()
            .map(|[a, b]| [index_in(*a), index_in(*b)])
            .collect(),
    })
}

fn move_out(m: &Move) -> WireMove {
    match m {
        Move::Draw {} => WireMove::Draw,
        Move::Pickup { with, onto, also } => WireMove::Pickup {
            with: cards_out(with),
            onto: onto.map(|o| o as u64),
            also: plan_out(also),
        },
        Move::TakeTop { onto } => WireMove::TakeTop(*onto as u64),
        Move::Meld(p) => WireMove::Meld(plan_out(p)),
        Move::GoOut { plan, discard } => WireMove::GoOut {
            plan: plan_out(plan),
            discard: discard.map(card_out),
        },
        Move::LayRedThrees(cards) => WireMove::LayRedThrees(cards_out(cards)),
        Move::Discard(c) => WireMove::Discard(card_out(*c)),
        Move::Pass {} => WireMove::Pass,
        Move::AskPartner {} => WireMove::AskPartner,
        Move::Answer(yes) => WireMove::Answer(*yes),
    }
}

fn move_in(m: WireMove) -> Result<Move, ActionError> {
    Ok(match m {
        WireMove::Draw => Move::Draw {},
        WireMove::Pickup { with, onto, also } => Move::Pickup {
            with: cards_in(&with)?,
            onto: onto.map(index_in),
            also: plan_in(also)?,
        },
        WireMove::TakeTop(onto) => Move::TakeTop {
            onto: index_in(onto),
        },
        WireMove::Meld(p) => Move::Meld(plan_in(p)?),
        WireMove::GoOut { plan, discard } => Move::GoOut {
            plan: plan_in(plan)?,
            discard: discard.map(card_in).transpose()?,
        },
        WireMove::LayRedThrees(cards) => Move::LayRedThrees(cards_in(&cards)?),
        WireMove::Discard(c) => Move::Discard(card_in(c)?),
        WireMove::Pass => Move::Pass {},
        WireMove::AskPartner => Move::AskPartner {},
        WireMove::Answer(yes) => Move::Answer(yes),
    })
}

impl WireAction {
    /// Encodes the action (canonical bincode).
    pub fn encode(&self) -> Vec<u8> {
        encoding::encode(&match self {
            Self::Play(m) => Wire::Play(move_out(m)),
            Self::RevealRedThrees {} => Wire::RevealRedThrees,
        })
    }

    /// Decodes an action from its one encoding.
    ///
    /// # Errors
    ///
    /// Bytes that are not an action in its canonical encoding, or that name no card.
    pub fn decode(bytes: &[u8]) -> Result<Self, ActionError> {
        Ok(match encoding::decode::<Wire>(bytes)? {
            Wire::Play(m) => Self::Play(move_in(m)?),
            Wire::RevealRedThrees => Self::RevealRedThrees {},
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Card {
        text.parse().expect("a card")
    }

    /// Golden bytes: the wire form of moves is pinned (a change is a protocol change).
    #[test]
    fn golden_encodings() {
        let hex =
            |m: &WireAction| -> String { m.encode().iter().map(|b| format!("{b:02x}")).collect() };
        assert_eq!(hex(&WireAction::RevealRedThrees {}), "01");
        assert_eq!(hex(&WireAction::Play(Move::Draw {})), "0000");
        // 7 of hearts: suit 2 (C D H S), rank 5 (2..A from 0) -> 2 * 13 + 5 = 31.
        assert_eq!(hex(&WireAction::Play(Move::Discard(c("7H")))), "00061f");
        let meld = Move::Meld(Plan {
            new: vec![vec![c("7H"), c("7S"), c("JK")]],
            add: vec![Add {
                to: 2,
                cards: vec![c("2C")],
            }],
            merge: vec![[0, 1]],
        });
        assert_eq!(hex(&WireAction::Play(meld)), "000301031f2c3401020100010001");
        assert_eq!(hex(&WireAction::Play(Move::Answer(true))), "000901");
    }

    /// Every move the rules can make comes back exactly.
    #[test]
    fn moves_round_trip() {
        let moves = [
            Move::Draw {},
            Move::Pickup {
                with: vec![c("7H"), c("7S")],
                onto: None,
                also: Plan::default(),
            },
            Move::Pickup {
                with: vec![],
                onto: Some(3),
                also: Plan {
                    new: vec![vec![c("AS"), c("AD"), c("2H")]],
                    ..Plan::default()
                },
            },
            Move::TakeTop { onto: 1 },
            Move::GoOut {
                plan: Plan::default(),
                discard: Some(c("JK")),
            },
            Move::GoOut {
                plan: Plan::default(),
                discard: None,
            },
            Move::LayRedThrees(vec![c("3H"), c("3D")]),
            Move::Pass {},
            Move::AskPartner {},
            Move::Answer(false),
        ];
        for m in moves {
            let a = WireAction::Play(m);
            assert_eq!(WireAction::decode(&a.encode()), Ok(a));
        }
    }

    /// Sabotage caught (checked): decoding the card index without checking it gave the hidden
    /// card (53) to the rules as a card of a move.
    #[test]
    fn a_card_index_past_the_faces_is_refused() {
        assert_eq!(
            WireAction::decode(&[0, 6, 53]),
            Err(ActionError::NoCard(53))
        );
        assert_eq!(
            WireAction::decode(&[0, 6, 52]),
            Ok(WireAction::Play(Move::Discard(Card::JOKER)))
        );
    }

    proptest::proptest! {
        /// Any bytes decode to an action whose encoding is exactly those bytes, or are refused.
        #[test]
        fn bytes_decode_to_their_own_encoding_or_are_refused(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..24),
        ) {
            if let Ok(a) = WireAction::decode(&bytes) {
                proptest::prop_assert_eq!(a.encode(), bytes);
            }
        }
    }
}
