//! The three presets and their house rules, as data (SPEC.md §2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A rule set the game can be played by.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Traditional Samba (seed 000): freezing pile, steal onto melds, red threes replaced.
    Samba,
    /// Dutch Samba (seed 004, Pagat): no freezing, top-card take onto sequences.
    DutchSamba,
    /// Classic four-handed partnership Canasta (seed 002).
    Canasta,
}

impl Preset {
    /// All presets.
    pub const ALL: [Self; 3] = [Self::Samba, Self::DutchSamba, Self::Canasta];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Samba => "samba",
            Self::DutchSamba => "dutch-samba",
            Self::Canasta => "canasta",
        }
    }

    /// Whether this is one of the two Samba presets.
    pub fn is_samba_family(self) -> bool {
        !matches!(self, Self::Canasta)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset {0:?} (use samba, dutch-samba or canasta)")]
pub struct ParsePresetError(pub String);

impl FromStr for Preset {
    type Err = ParsePresetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| ParsePresetError(s.to_owned()))
    }
}

/// How red threes are handled.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedThreeMode {
    /// Laid out at once and replaced from the stock (deal and draws); never in a hand.
    AutoReplace,
    /// Kept in hand, laid out by choice without replacement; −750 per player left holding one.
    OptionalNoReplace,
}

/// How a `canasta` hand ends when the stock runs out (SPEC D13).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// The hand ends after the turn of the player who drew the last stock card.
    End,
    /// Play goes on while players take the pile; a player must take it when it matches.
    Classic,
}

/// What happens when both teams pass the target with equal totals (SPEC D17).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// The game is drawn.
    Draw,
    /// Another hand is played.
    PlayAnotherHand,
}

/// House-rule overrides, spelled as in the scenario format. `None` means the preset's default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseRules {
    /// `samba`: the steal may go onto a finished canasta (D2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_onto_completed_canasta: Option<bool>,
    /// Samba presets: a wild may be added to a finished canasta (D21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wilds_onto_completed_canasta: Option<bool>,
    /// `canasta`: the pile can only ever be taken with a natural pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile_always_frozen: Option<bool>,
    /// Going out needs the partner's "yes".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_ask: Option<bool>,
    /// `canasta`: holding one card you may not take a one-card pile (D16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_card_pile_rule: Option<bool>,
    /// `canasta`: how the hand ends when the stock runs out (D13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock_end: Option<StockEnd>,
    /// Equal totals over the target (D17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_rule: Option<TieRule>,
    /// How red threes are handled (D6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red_three_mode: Option<RedThreeMode>,
    /// Points for going out (D5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub going_out_bonus: Option<i32>,
    /// The game's target score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
}

/// The limit on wild cards in a group (`n` naturals, `w` wilds).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GroupWildRule {
    /// `samba`: w ≤ 2 and w ≤ n.
    AtMostTwoNotMoreThanNaturals,
    /// `dutch-samba`: w ≤ 2 and n ≥ 2w.
    AtMostTwoHalfNaturals,
    /// `canasta`: n ≥ 2 and w ≤ 3.
    TwoNaturalsThreeWilds,
}

impl GroupWildRule {
    /// Whether a group of `naturals` natural cards and `wilds` wild cards is allowed.
    pub fn allows(self, naturals: usize, wilds: usize) -> bool {
        match self {
            Self::AtMostTwoNotMoreThanNaturals => wilds <= 2 && wilds <= naturals,
            Self::AtMostTwoHalfNaturals => wilds <= 2 && naturals >= 2 * wilds,
            Self::TwoNaturalsThreeWilds => naturals >= 2 && wilds <= 3,
        }
    }

    /// The most wilds a group of `naturals` natural cards may hold.
    pub fn max_wilds(self, naturals: usize) -> usize {
        match self {
            Self::AtMostTwoNotMoreThanNaturals => naturals.min(2),
            Self::AtMostTwoHalfNaturals => (naturals / 2).min(2),
            Self::TwoNaturalsThreeWilds => {
                if naturals >= 2 {
                    3
                } else {
                    0
                }
            }
        }
    }
}

/// The complete, resolved rules of one game: a preset with its house rules applied.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// The preset.
    pub preset: Preset,
    /// The house-rule overrides as given (kept so a table can show and sign them).
    pub house: HouseRules,
    /// Packs of 52 in the stock (3 or 2); jokers are two per pack.
    pub packs: usize,
    /// Cards dealt to each player.
    pub hand_size: usize,
    /// Cards drawn from the stock per turn.
    pub draw_count: usize,
    /// Whether sequences (and sambas) exist.
    pub sequences: bool,
    /// The group wild limit.
    pub wild_rule: GroupWildRule,
    /// Whether a team may hold several groups of one rank (and merge them).
    pub multiple_groups_per_rank: bool,
    /// Red-three handling.
    pub red_three_mode: RedThreeMode,
    /// Completed combinations (canastas or sambas) needed to go out.
    pub combos_to_go_out: usize,
    /// Bonus for going out.
    pub going_out_bonus: i32,
    /// Bonus for going out concealed (`canasta` only; 0 = no such bonus).
    pub concealed_bonus: i32,
    /// Whether a player may pass holding one card.
    pub pass_allowed: bool,
    /// The target score.
    pub target: i32,
    /// Tie handling.
    pub tie_rule: TieRule,
    /// `samba` steal onto a completed canasta.
    pub steal_onto_completed_canasta: bool,
    /// Wild cards may be added to a completed canasta.
    pub wilds_onto_completed_canasta: bool,
    /// `canasta`: pile always frozen.
    pub pile_always_frozen: bool,
    /// Going out needs a "yes".
    pub must_ask: bool,
    /// `canasta` one-card rule.
    pub one_card_pile_rule: bool,
    /// `canasta` stock end.
    pub stock_end: StockEnd,
}

impl Rules {
    /// The rules of `preset` with the house rules in `house` applied.
    pub fn new(preset: Preset, house: HouseRules) -> Self {
        let samba = preset.is_samba_family();
        let default_red = if preset == Preset::DutchSamba {
            RedThreeMode::OptionalNoReplace
        } else {
            RedThreeMode::AutoReplace
        };
        Self {
            preset,
            packs: if samba { 3 } else { 2 },
            hand_size: if samba { 15 } else { 11 },
            draw_count: if samba { 2 } else { 1 },
            sequences: samba,
            wild_rule: match preset {
                Preset::Samba => GroupWildRule::AtMostTwoNotMoreThanNaturals,
                Preset::DutchSamba => GroupWildRule::AtMostTwoHalfNaturals,
                Preset::Canasta => GroupWildRule::TwoNaturalsThreeWilds,
            },
            multiple_groups_per_rank: samba,
            red_three_mode: house.red_three_mode.unwrap_or(default_red),
            combos_to_go_out: if samba { 2 } else { 1 },
            going_out_bonus: house
                .going_out_bonus
                .unwrap_or(if samba { 200 } else { 100 }),
            concealed_bonus: if samba { 0 } else { 200 },
            pass_allowed: samba,
            target: house.target.unwrap_or(if samba { 10_000 } else { 5_000 }),
            tie_rule: house.tie_rule.unwrap_or(TieRule::Draw),
            steal_onto_completed_canasta: house.steal_onto_completed_canasta.unwrap_or(true),
            wilds_onto_completed_canasta: house.wilds_onto_completed_canasta.unwrap_or(true),
            pile_always_frozen: house.pile_always_frozen.unwrap_or(false) && !samba,
            must_ask: house.must_ask.unwrap_or(false),
            one_card_pile_rule: house.one_card_pile_rule.unwrap_or(true) && !samba,
            stock_end: if samba {
                StockEnd::End
            } else {
                house.stock_end.unwrap_or(StockEnd::End)
            },
            house,
        }
    }

    /// The preset's rules without house rules.
    pub fn preset(preset: Preset) -> Self {
        Self::new(preset, HouseRules::default())
    }

    /// Cards in the whole pack (162 or 108).
    pub fn deck_size(&self) -> usize {
        self.packs * 54
    }

    /// Copies of each natural face in the pack.
    pub fn copies_per_face(&self) -> usize {
        self.packs
    }

    /// Jokers in the pack.
    pub fn jokers(&self) -> usize {
        self.packs * 2
    }

    /// The opening minimum for a team whose cumulative score is `score` (SPEC §2).
    pub fn opening_minimum(&self, score: i32) -> i32 {
        match score {
            i32::MIN..0 => 15,
            0..1500 => 50,
            1500..3000 => 90,
            3000..7000 => 120,
            _ if self.preset == Preset::Canasta => 120,
            _ => 150,
        }
    }

    /// Whether red threes stay in the hand (Dutch handling).
    pub fn red_threes_in_hand(&self) -> bool {
        self.red_three_mode == RedThreeMode::OptionalNoReplace
    }

    /// Whether the pile can be frozen by a wild (not in `dutch-samba`).
    pub fn has_freezing(&self) -> bool {
        self.preset != Preset::DutchSamba
    }

    /// House rules in words, for the lobby ("pile always frozen; must ask partner to go out").
    pub fn house_rules_in_words(&self) -> String {
        let mut parts = self.house_rule_list();
        if let Some(t) = self.house.target {
            parts.push(format!("target {t}"));
        }
        if parts.is_empty() {
            "standard rules".to_owned()
        } else {
            parts.join("; ")
        }
    }

    /// Each house rule that changes the preset, in words; the target is left to the caller.
    pub fn house_rule_list(&self) -> Vec<String> {
        let h = &self.house;
        let mut parts = Vec::new();
        if h.steal_onto_completed_canasta == Some(false) {
            parts.push("no steal onto a finished canasta".to_owned());
        }
        if h.wilds_onto_completed_canasta == Some(false) {
            parts.push("no wilds onto a finished canasta".to_owned());
        }
        if self.pile_always_frozen {
            parts.push("pile always frozen".to_owned());
        }
        if self.must_ask {
            parts.push("must ask partner to go out".to_owned());
        }
        if h.one_card_pile_rule == Some(false) {
            parts.push("one card may take a one-card pile".to_owned());
        }
        if h.stock_end == Some(StockEnd::Classic) {
            parts.push("classic stock end".to_owned());
        }
        if h.tie_rule == Some(TieRule::PlayAnotherHand) {
            parts.push("ties play another hand".to_owned());
        }
        if let Some(mode) = h.red_three_mode {
            parts.push(match mode {
                RedThreeMode::AutoReplace => "red threes replaced".to_owned(),
                RedThreeMode::OptionalNoReplace => "red threes kept, not replaced".to_owned(),
            });
        }
        if let Some(b) = h.going_out_bonus {
            parts.push(format!("going out {b}"));
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_minimum_bands() {
        let s = Rules::preset(Preset::Samba);
        let c = Rules::preset(Preset::Canasta);
        let cases = [
            (-35, 15, 15),
            (0, 50, 50),
            (1495, 50, 50),
            (1500, 90, 90),
            (2995, 90, 90),
            (3000, 120, 120),
            (6995, 120, 120),
            (7000, 150, 120),
        ];
        for (score, samba, canasta) in cases {
            assert_eq!(s.opening_minimum(score), samba, "samba {score}");
            assert_eq!(c.opening_minimum(score), canasta, "canasta {score}");
        }
    }

    #[test]
    fn group_wild_rules_per_preset() {
        use GroupWildRule::*;
        // (naturals, wilds): samba, dutch, canasta
        let table = [
            ((2, 1), [true, true, true]),
            ((1, 2), [false, false, false]),
            ((2, 2), [true, false, true]),
            ((4, 2), [true, true, true]),
            ((5, 4), [false, false, false]),
            ((0, 3), [false, false, false]),
            ((2, 3), [false, false, true]),
        ];
        for ((n, w), want) in table {
            let got = [
                AtMostTwoNotMoreThanNaturals.allows(n, w),
                AtMostTwoHalfNaturals.allows(n, w),
                TwoNaturalsThreeWilds.allows(n, w),
            ];
            assert_eq!(got, want, "{n}N{w}W");
        }
    }
}
