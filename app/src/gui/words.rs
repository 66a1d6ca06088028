//! House rules in words, for the table list and the lobby.

use fairdeal_core::{HouseRules, Preset, RedThreeMode, StockEnd, TieRule};

/// A preset as people write it.
pub fn preset_title(preset: Preset) -> &'static str {
    match preset {
        Preset::Samba => "Samba",
        Preset::DutchSamba => "Dutch Samba",
        Preset::Canasta => "Canasta",
    }
}

/// The rules of a table in a few words ("Samba to 10000; must ask partner").
pub fn house_words(preset: Preset, house: &HouseRules) -> String {
    let rules = fairdeal_core::Rules::new(preset, house.clone());
    let mut parts = vec![format!("{} to {}", preset_title(preset), rules.target)];
    let flag =
        |v: Option<bool>, yes: &str, no: &str| v.map(|b| if b { yes } else { no }.to_owned());
    parts.extend(flag(
        house.must_ask,
        "must ask partner to go out",
        "no need to ask to go out",
    ));
    parts.extend(flag(
        house.pile_always_frozen,
        "pile always frozen",
        "pile frozen only by wilds",
    ));
    parts.extend(flag(
        house.steal_onto_completed_canasta,
        "steal onto canastas allowed",
        "no steal onto canastas",
    ));
    parts.extend(flag(
        house.wilds_onto_completed_canasta,
        "wilds onto canastas allowed",
        "no wilds onto canastas",
    ));
    parts.extend(flag(
        house.one_card_pile_rule,
        "one-card pile rule",
        "no one-card pile rule",
    ));
    if let Some(s) = house.stock_end {
        parts.push(
            match s {
                StockEnd::End => "hand ends with the stock",
                StockEnd::Classic => "classic stock end",
            }
            .to_owned(),
        );
    }
    if let Some(t) = house.tie_rule {
        parts.push(
            match t {
                TieRule::Draw => "ties are drawn",
                TieRule::PlayAnotherHand => "ties play another hand",
            }
            .to_owned(),
        );
    }
    if let Some(r) = house.red_three_mode {
        parts.push(
            match r {
                RedThreeMode::AutoReplace => "red threes laid out at once",
                RedThreeMode::OptionalNoReplace => "red threes kept, −750 if held",
            }
            .to_owned(),
        );
    }
    if let Some(b) = house.going_out_bonus {
        parts.push(format!("{b} for going out"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
