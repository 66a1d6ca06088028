//! Rules in words, for the table list and the lobby (the house-rule list is the engine's).

use fairdeal_core::{HouseRules, Preset, Rules};

/// A preset as people write it.
pub fn preset_title(preset: Preset) -> &'static str {
    match preset {
        Preset::Samba => "Samba",
        Preset::DutchSamba => "Dutch Samba",
        Preset::Canasta => "Canasta",
    }
}

/// The rules of a table in a few words ("Samba to 10000; must ask partner to go out").
pub fn house_words(preset: Preset, house: &HouseRules) -> String {
    let rules = Rules::new(preset, house.clone());
    std::iter::once(format!("{} to {}", preset_title(preset), rules.target))
        .chain(rules.house_rule_list())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The game waiting to be resumed, in one sentence: left by the player, or interrupted (the
/// client closed or stopped under it), which Resume takes up where it stood.
pub fn waiting_game(r: &super::records::GameRecord) -> String {
    let game = if r.kind == super::records::GameKind::Local {
        format!(
            "game of {} against three computer players",
            preset_title(r.preset)
        )
    } else {
        format!(
            "game of {} at table \"{}\"",
            preset_title(r.preset),
            r.table
        )
    };
    if r.left {
        format!("You left a {game}.")
    } else {
        format!("Your {game} was interrupted; it can be resumed.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::records::{GameKind, GameRecord};
    use fairdeal_core::StockEnd;

    #[test]
    fn defaults_say_only_the_game_and_target() {
        assert_eq!(
            house_words(Preset::Samba, &HouseRules::default()),
            "Samba to 10000"
        );
    }

    #[test]
    fn each_override_is_said() {
        let house = HouseRules {
            must_ask: Some(true),
            target: Some(5000),
            stock_end: Some(StockEnd::Classic),
            ..HouseRules::default()
        };
        let w = house_words(Preset::Canasta, &house);
        assert!(w.starts_with("Canasta to 5000"), "{w}");
        assert!(w.contains("must ask partner"), "{w}");
        assert!(w.contains("classic stock end"), "{w}");
    }

    /// Sabotage caught (checked): with one sentence for both, a game a crash stopped was
    /// offered back as "You left a game".
    #[test]
    fn a_game_left_and_a_game_interrupted_are_offered_back_in_their_own_words() {
        let mut r = GameRecord::started(GameKind::Join, "Friday".to_owned());
        assert_eq!(
            waiting_game(&r),
            "Your game of Samba at table \"Friday\" was interrupted; it can be resumed."
        );
        r.left = true;
        assert_eq!(
            waiting_game(&r),
            "You left a game of Samba at table \"Friday\"."
        );
    }
}
