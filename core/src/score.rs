//! Scoring a hand with a per-item breakdown, and the game result (SPEC §3.10–3.11).

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::position::{HandEnd, Position};
use crate::rules::{Preset, TieRule};
use crate::seat::Team;

/// One team's score for one hand, item by item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamScore {
    /// Card values of the team's melded cards (black-three groups included).
    pub melded_cards: i32,
    /// Natural canasta bonuses (500 each).
    pub natural_canastas: i32,
    /// Mixed canasta bonuses (300 each).
    pub mixed_canastas: i32,
    /// Samba bonuses (1500 each).
    pub sambas: i32,
    /// Red threes laid out (positive or negative).
    pub red_threes: i32,
    /// Going-out bonus (concealed included).
    pub going_out: i32,
    /// Card values left in both partners' hands (zero or negative).
    pub cards_in_hand: i32,
    /// Red threes still held (`dutch-samba`: −750 per player holding any).
    pub held_red_threes: i32,
}

impl TeamScore {
    /// The hand's total for the team.
    pub fn total(&self) -> i32 {
        self.melded_cards
            + self.natural_canastas
            + self.mixed_canastas
            + self.sambas
            + self.red_threes
            + self.going_out
            + self.cards_in_hand
            + self.held_red_threes
    }
}

/// How the game stands after a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Nobody has reached the target (or a tie plays another hand).
    Continue,
    /// A team won.
    Won(Team),
    /// Equal totals over the target.
    Drawn,
}

impl Position {
    /// The score of the hand for `team`, as it stands (final once the hand is over).
    pub fn team_score(&self, team: Team) -> TeamScore {
        let rules = &self.rules;
        let melds = self.melds(team);
        let mut s = TeamScore::default();
        for m in melds {
            s.melded_cards += m.card_points();
            if m.is_samba() {
                s.sambas += m.bonus();
            } else if m.is_canasta() && m.wilds() == 0 {
                s.natural_canastas += m.bonus();
            } else {
                s.mixed_canastas += m.bonus();
            }
        }
        let n = i32::try_from(self.red_threes(team).len()).unwrap_or(i32::MAX / 200);
        let all = i32::try_from(rules.packs * 2).unwrap_or(0);
        let value = if n == all && n > 0 {
            if rules.preset == Preset::Canasta {
                800
            } else {
                1000
            }
        } else {
            100 * n
        };
        let eligible = if rules.preset == Preset::Canasta {
            self.has_opened(team)
        } else {
            self.completed(team) >= rules.combos_to_go_out
        };
        s.red_threes = match (eligible, rules.preset) {
            (true, _) => value,
            (false, Preset::DutchSamba) => -100 * n,
            (false, _) => -value,
        };
        if let Some(HandEnd::WentOut { seat, concealed }) = self.end
            && seat.team() == team
        {
            s.going_out = if concealed {
                rules.concealed_bonus
            } else {
                rules.going_out_bonus
            };
        }
        for seat in team.seats() {
            let hand = self.hand(seat);
            s.cards_in_hand -= hand.points();
            if rules.red_threes_in_hand() && hand.iter().any(|c| c.is_red_three()) {
                s.held_red_threes -= 750;
            }
        }
        s
    }

    /// The hand's scores `[A, B]` when the hand is over and `silent`'s side withholds what the
    /// audit needs to open the hidden cards (its seed): the hand is forfeit (docs/RULES.md,
    /// "Silence never pays"). Only what every seat sees counts, so every seat computes the
    /// same: the tables (melds, bonuses, red threes laid out, going out) as they stand, and
    /// the number of cards each player holds. The other side scores its table and loses
    /// nothing for its cards in hand (never less than its table was worth); the silent side
    /// scores its table less the most its cards in hand could cost (every card a joker, and
    /// in Dutch Samba a held red three for every player with cards), so it can never do
    /// better than the true count would have given it.
    pub fn forfeit_scores(&self, silent: Team) -> [TeamScore; 2] {
        [Team::A, Team::B].map(|team| {
            let mut s = self.team_score(team);
            s.cards_in_hand = 0;
            s.held_red_threes = 0;
            if team == silent {
                for seat in team.seats() {
                    let n = i32::try_from(self.hand(seat).len()).unwrap_or(i32::MAX / 100);
                    s.cards_in_hand -= n.saturating_mul(Card::JOKER.points());
                    if self.rules.red_threes_in_hand() && n > 0 {
                        s.held_red_threes -= 750;
                    }
                }
            }
            s
        })
    }

    /// Both teams' hand totals `[A, B]`.
    pub fn hand_scores(&self) -> [i32; 2] {
        [
            self.team_score(Team::A).total(),
            self.team_score(Team::B).total(),
        ]
    }

    /// The game result once this hand's scores are added to the totals before it.
    pub fn game_result(&self) -> GameResult {
        let hand = self.hand_scores();
        let totals = [self.scores[0] + hand[0], self.scores[1] + hand[1]];
        game_result(totals, self.rules.target, self.rules.tie_rule)
    }
}

/// The result for cumulative `totals` `[A, B]`.
pub fn game_result(totals: [i32; 2], target: i32, tie: TieRule) -> GameResult {
    if totals[0] < target && totals[1] < target {
        return GameResult::Continue;
    }
    match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => GameResult::Won(Team::A),
        std::cmp::Ordering::Less => GameResult::Won(Team::B),
        std::cmp::Ordering::Equal => match tie {
            TieRule::Draw => GameResult::Drawn,
            TieRule::PlayAnotherHand => GameResult::Continue,
        },
    }
}
