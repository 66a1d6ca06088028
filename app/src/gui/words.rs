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

#[cfg(test)]
mod tests {
    use super::*;
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
}
