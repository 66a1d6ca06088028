//! Whole hands and games played by the random legal-move player, and their traces as deal
//! scenarios that any engine can replay.

use std::collections::BTreeMap;

use crate::card::Card;
use crate::cards::Cards;
use crate::deal::canonical_deck;
use crate::moves::Move;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::scenario::{Deal, Expect, OkWord, Scenario, StateCheck, Step};
use crate::score::GameResult;
use crate::seat::{Seat, Team};

/// Moves after which a random hand is cut off (a safety net; real hands end long before).
pub const MAX_MOVES_PER_HAND: usize = 5_000;

/// One hand as played: the deal and every move, with the final position.
#[derive(Debug, Clone)]
pub struct HandRecord {
    /// The dealer.
    pub dealer: Seat,
    /// Team totals before the hand.
    pub scores: [i32; 2],
    /// The deck, first card dealt first.
    pub deck: Vec<Card>,
    /// Every move with its seat.
    pub moves: Vec<(Seat, Move)>,
    /// The position at the end.
    pub end: Position,
}

/// Shuffles a deck and plays one hand with random legal moves for all four seats.
pub fn random_hand(
    rules: &Rules,
    dealer: Seat,
    scores: [i32; 2],
    rng: &mut SplitMix64,
) -> HandRecord {
    let mut deck = canonical_deck(rules);
    rng.shuffle(&mut deck);
    // INVARIANT: `deck` is a permutation of the preset's pack, which is all `deal` checks.
    let mut position = match Position::deal(rules.clone(), dealer, scores, &deck) {
        Ok(p) => p,
        Err(e) => unreachable!("a shuffled full pack always deals: {e}"),
    };
    let moves = position.play_out_randomly(rng, MAX_MOVES_PER_HAND);
    HandRecord {
        dealer,
        scores,
        deck,
        moves,
        end: position,
    }
}

/// Like [`random_hand`], checking the engine's invariants after every move: card conservation,
/// legal ⇔ accepted, a refused candidate leaves the position unchanged, descriptions round-trip,
/// and the hand score is the sum of its items.
///
/// # Errors
///
/// The first violation, in words, with the move number.
pub fn random_hand_checked(
    rules: &Rules,
    dealer: Seat,
    scores: [i32; 2],
    rng: &mut SplitMix64,
) -> Result<HandRecord, String> {
    let mut deck = canonical_deck(rules);
    rng.shuffle(&mut deck);
    let pack: Cards = deck.iter().collect();
    let mut position =
        Position::deal(rules.clone(), dealer, scores, &deck).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    while !position.is_over() && moves.len() < MAX_MOVES_PER_HAND {
        let n = moves.len();
        let seat = position.actor();
        let candidates = position.candidate_moves();
        let mut legal = Vec::new();
        for mv in candidates {
            let mut probe = position.clone();
            let verdict = position.validate(seat, &mv);
            match (verdict, probe.apply(seat, &mv)) {
                (Ok(()), Ok(())) => legal.push(mv),
                (Err(_), Err(_)) if probe == position => {}
                (Err(_), Err(_)) => {
                    return Err(format!("move {n}: refused {mv:?} changed the position"));
                }
                (a, b) => {
                    return Err(format!(
                        "move {n}: validate {a:?} but apply {b:?} for {mv:?}"
                    ));
                }
            }
        }
        if legal.is_empty() {
            return Err(format!(
                "move {n}: no legal move for {seat} in {:?}: {:?}",
                position.phase(),
                position.to_desc()
            ));
        }
        let mv = legal.swap_remove(rng.below(legal.len()));
        position
            .apply(seat, &mv)
            .map_err(|e| format!("move {n}: {e}"))?;
        moves.push((seat, mv));
        if position.all_cards() != pack {
            return Err(format!("move {n}: cards not conserved"));
        }
        if n % 16 == 0 {
            let again = Position::from_desc(rules.clone(), &position.to_desc());
            if again.as_ref() != Ok(&position) {
                return Err(format!(
                    "move {n}: description does not round-trip: {again:?}"
                ));
            }
        }
    }
    if !position.is_over() {
        return Err(format!(
            "the hand did not end in {MAX_MOVES_PER_HAND} moves"
        ));
    }
    for team in [Team::A, Team::B] {
        let s = position.team_score(team);
        let items = [
            s.melded_cards,
            s.natural_canastas,
            s.mixed_canastas,
            s.sambas,
            s.red_threes,
            s.going_out,
            s.cards_in_hand,
            s.held_red_threes,
        ];
        if items.iter().sum::<i32>() != position.hand_scores()[team.index()] {
            return Err(format!("team {team}: score items do not add up"));
        }
        let melded: i32 = position
            .melds(team)
            .iter()
            .flat_map(|m| m.cards())
            .map(|c| c.points())
            .sum();
        if melded != s.melded_cards {
            return Err(format!("team {team}: melded card points differ"));
        }
    }
    Ok(HandRecord {
        dealer,
        scores,
        deck,
        moves,
        end: position,
    })
}

/// A whole game of random hands until the target is reached (or `max_hands`).
pub fn random_game(
    rules: &Rules,
    first_dealer: Seat,
    rng: &mut SplitMix64,
    max_hands: usize,
) -> Vec<HandRecord> {
    let mut hands = Vec::new();
    let mut scores = [0, 0];
    let mut dealer = first_dealer;
    while hands.len() < max_hands {
        let record = random_hand(rules, dealer, scores, rng);
        let hand = record.end.hand_scores();
        let result = record.end.game_result();
        scores = [scores[0] + hand[0], scores[1] + hand[1]];
        hands.push(record);
        if result != GameResult::Continue {
            break;
        }
        dealer = dealer.next();
    }
    hands
}

impl HandRecord {
    /// The hand as a deal scenario: the full deck order, every move expected `ok`, and the
    /// hand score and game result checked after the last move.
    pub fn to_scenario(&self, id: &str) -> Scenario {
        let rules = self.end.rules();
        let n = self.moves.len();
        let steps = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, (seat, mv))| Step {
                seat: Some(*seat),
                mv: mv.clone(),
                expect: Expect::Ok(OkWord::Ok),
                state: (i + 1 == n).then(|| self.final_check()),
            })
            .collect();
        Scenario {
            id: id.to_owned(),
            title: format!(
                "{}: a random self-play hand, dealer {}",
                rules.preset, self.dealer
            ),
            preset: rules.preset,
            house_rules: rules.house.clone(),
            note: Some("written by `fairdeal selfplay --trace`".to_owned()),
            position: None,
            deal: Some(Deal {
                dealer: self.dealer,
                deck_top: self.deck.clone(),
                scores: Some(BTreeMap::from([
                    (Team::A, self.scores[0]),
                    (Team::B, self.scores[1]),
                ])),
            }),
            expect: None,
            state: None,
            steps,
        }
    }

    fn final_check(&self) -> StateCheck {
        let over = self.end.is_over();
        let hand = self.end.hand_scores();
        StateCheck {
            hand_over: Some(over),
            hand_score: over.then(|| BTreeMap::from([(Team::A, hand[0]), (Team::B, hand[1])])),
            game: over.then(|| {
                match self.end.game_result() {
                    GameResult::Continue => "continue",
                    GameResult::Won(Team::A) => "A",
                    GameResult::Won(Team::B) => "B",
                    GameResult::Drawn => "draw",
                }
                .to_owned()
            }),
            stock_size: Some(self.end.stock_len()),
            ..StateCheck::default()
        }
    }
}
