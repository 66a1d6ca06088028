//! What the player chose on the start screen and is remembered between runs: name, game,
//! level, theme, the table they open and its house rules, how the table looks.

use fairdeal_core::{HouseRules, Preset, StockEnd};
use serde::{Deserialize, Serialize};

use super::choices::{Difficulty, Theme};
use super::records::Timing;

/// What is remembered between runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The player's name.
    pub name: String,
    /// The preset.
    pub preset: Preset,
    /// The computer players' level.
    pub difficulty: Difficulty,
    /// The look: as the system says, light or dark.
    pub theme: Theme,
    /// The name of a table this player opens.
    pub table: String,
    /// Its target score.
    pub target: i32,
    /// House rule: ask partner before going out.
    pub must_ask: bool,
    /// House rule (canasta): the pile is always frozen.
    pub pile_always_frozen: bool,
    /// House rule (canasta): classic stock end.
    pub classic_stock_end: bool,
    /// House rule (samba): no steal onto a finished canasta.
    pub no_steal_onto_canasta: bool,
    /// The last address typed in to join.
    pub address: String,
    /// The last invitation pasted in to join a table beyond the LAN.
    pub invite: String,
    /// A table this player opens for friends on the internet: the relay's address (empty:
    /// a LAN table).
    pub relay: String,
    /// How the table looks and moves (hand order, reduced motion).
    pub prefs: super::prefs::TablePrefs,
    /// A table this player opens: the move clock, minutes a turn (0: none).
    pub move_clock_min: u64,
    /// The seat asked for when joining by address or invitation (0–3, S W N E; `None`: the
    /// first free one). The host sits South, so North is the host's partner.
    pub join_seat: Option<u8>,
}

impl Default for Settings {
    fn default() -> Self {
        let login = ["USER", "LOGNAME", "USERNAME"]
            .iter()
            .find_map(|v| std::env::var(v).ok());
        let name = name_from_login(login.as_deref());
        Self {
            // Empty: named after the player when opened (see `table_name`).
            table: String::new(),
            name,
            preset: Preset::Samba,
            difficulty: Difficulty::default(),
            theme: Theme::default(),
            target: 10_000,
            must_ask: false,
            pile_always_frozen: false,
            classic_stock_end: false,
            no_steal_onto_canasta: false,
            address: String::new(),
            invite: String::new(),
            relay: String::new(),
            prefs: super::prefs::TablePrefs::default(),
            move_clock_min: 0,
            // A friend who joins usually plays with the host, not against.
            join_seat: Some(2),
        }
    }
}

impl Settings {
    /// The name of the table this player opens: the one typed in, else "Ann's table".
    pub fn table_name(&self) -> String {
        let typed = self.table.trim();
        if !typed.is_empty() {
            return typed.to_owned();
        }
        match self.name.trim() {
            "" | "You" => "A table for four".to_owned(),
            name => format!("{name}'s table"),
        }
    }

    /// The house rules chosen (only what differs from the preset).
    pub fn house(&self) -> HouseRules {
        let default_target = fairdeal_core::Rules::new(self.preset, HouseRules::default()).target;
        let canasta = self.preset == Preset::Canasta;
        HouseRules {
            target: (self.target != default_target).then_some(self.target),
            must_ask: self.must_ask.then_some(true),
            pile_always_frozen: (canasta && self.pile_always_frozen).then_some(true),
            stock_end: (canasta && self.classic_stock_end).then_some(StockEnd::Classic),
            steal_onto_completed_canasta: (!canasta && self.no_steal_onto_canasta).then_some(false),
            ..HouseRules::default()
        }
    }

    /// The settings of a new game with these house rules, at table `table`, paced by `timing`.
    pub fn setup(&self, house: HouseRules, table: &str, timing: Timing) -> Setup {
        Setup {
            name: self.name.clone(),
            table: table.to_owned(),
            preset: self.preset,
            house,
            difficulty: self.difficulty,
            move_clock_ms: self.move_clock_min * 60_000,
            timing,
            relay: self.relay.trim().to_owned(),
        }
    }
}

/// How a game is set up from the start screen.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The player's name.
    pub name: String,
    /// The table's name.
    pub table: String,
    /// The preset.
    pub preset: Preset,
    /// House rules (the target included).
    pub house: HouseRules,
    /// The computer players' level.
    pub difficulty: Difficulty,
    /// The move clock, ms a turn (0: none).
    pub move_clock_ms: u64,
    /// The pacing of this client's nodes.
    pub timing: Timing,
    /// The relay for friends on the internet, as typed (empty: a LAN table).
    pub relay: String,
}

/// The name a first start offers: the login's, as a person writes it ("ann" → "Ann"); a
/// system account's is no one's name, so "Player" then.
fn name_from_login(login: Option<&str>) -> String {
    let login = login.map(str::trim).unwrap_or_default();
    if login.is_empty() || ["root", "admin", "administrator", "user"].contains(&login) {
        return "Player".to_owned();
    }
    let mut chars = login.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_start_offers_the_login_as_a_name() {
        assert_eq!(name_from_login(Some("ann")), "Ann");
        assert_eq!(name_from_login(Some(" édith ")), "Édith");
        assert_eq!(name_from_login(Some("Bea")), "Bea");
        assert_eq!(name_from_login(Some("root")), "Player");
        assert_eq!(name_from_login(Some("")), "Player");
        assert_eq!(name_from_login(None), "Player");
    }

    #[test]
    fn settings_keep_their_words_and_an_unknown_one_falls_back() {
        let mut s = Settings {
            difficulty: Difficulty::Master,
            theme: Theme::Dark,
            ..Settings::default()
        };
        s.name = "Ann".to_owned();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["difficulty"], "master");
        assert_eq!(json["theme"], "dark");
        let back: Settings = serde_json::from_value(json).unwrap();
        assert_eq!(
            (back.difficulty, back.theme),
            (Difficulty::Master, Theme::Dark)
        );
        assert_eq!(back.name, "Ann");
        // A file from before the types, and one with words this client does not know.
        let old: Settings =
            serde_json::from_str(r#"{"name":"Bo","difficulty":"hard","theme":"light"}"#).unwrap();
        assert_eq!(
            (old.difficulty, old.theme),
            (Difficulty::Hard, Theme::Light)
        );
        let odd: Settings =
            serde_json::from_str(r#"{"name":"Bo","difficulty":"grandmaster","theme":"neon"}"#)
                .unwrap();
        assert_eq!(
            (odd.difficulty, odd.theme),
            (Difficulty::Medium, Theme::System)
        );
        assert_eq!(odd.name, "Bo", "the rest of the file still loads");
    }
}
