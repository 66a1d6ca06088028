//! The fairdeal rules engine: Samba, Dutch Samba and Canasta for four players in two
//! partnerships.
//!
//! Pure and deterministic: no IO, no clock, no OS randomness. A [`Position`] is one hand with
//! every card known (each peer keeps one for the public part and checks moves against it).
//! [`Position::validate`] checks a [`Move`]; [`Position::apply`] plays it, and a refused move
//! changes nothing and says why with a stable [`Code`].
//!
//! ```
//! use fairdeal_core::{Move, Position, Preset, Rules, Seat, canonical_deck};
//!
//! let rules = Rules::preset(Preset::Samba);
//! let deck = canonical_deck(&rules);
//! let mut hand = Position::deal(rules, Seat::S, [0, 0], &deck).unwrap();
//! assert_eq!(hand.turn(), Seat::W);
//! // Discarding before drawing is refused, and nothing changes.
//! let before = hand.clone();
//! let card = hand.hand(Seat::W).iter().next().unwrap();
//! let err = hand.apply(Seat::W, &Move::Discard(card)).unwrap_err();
//! assert_eq!(err.code.as_str(), "wrong_phase");
//! assert_eq!(hand, before);
//! hand.apply(Seat::W, &Move::Draw {}).unwrap();
//! assert_eq!(hand.hand(Seat::W).len(), 17);
//! ```

#![forbid(unsafe_code)]

mod cand;
mod card;
mod cards;
mod deal;
mod deal_script;
mod desc;
mod describe;
mod engine;
mod error;
mod finish;
mod legal;
mod meld;
mod moves;
mod opening;
mod plan;
mod position;
mod replica;
mod rng;
mod rules;
pub mod scenario;
mod score;
mod seat;
mod seat_map;
pub mod selfplay;
pub mod strategy;
mod view;

pub use card::{Card, ParseCardError, Rank, Suit};
pub use cards::Cards;
pub use deal::{canonical_deck, deck_from_top, is_full_pack};
pub use deal_script::{DealScript, DealStep};
pub use desc::{PositionDesc, RedThrees};
pub use error::{Code, Refusal};
pub use meld::{Meld, MeldKind};
pub use moves::{Add, Move, Plan};
pub use position::{Drew, HandEnd, Phase, Position, TurnState};
pub use replica::PublicState;
pub use rng::SplitMix64;
pub use rules::{
    GroupWildRule, HouseRules, ParsePresetError, Preset, RedThreeMode, Rules, StockEnd, TieRule,
};
pub use score::{GameResult, TeamScore, game_result};
pub use seat::{ParseSeatError, Seat, SeatOutOfRange, Team};
pub use seat_map::{SeatMap, SeatSet};
pub use view::PlayerView;
