//! Meld shapes, the fast single-card test and the stored form.

use super::*;
use crate::rules::Preset;

fn meld(preset: Preset, s: &str) -> Result<Meld, Code> {
    let cards = s.split_whitespace().map(|c| c.parse().unwrap()).collect();
    Meld::from_cards(&Rules::preset(preset), cards).map_err(|r| r.code)
}

#[test]
fn group_shapes_per_preset() {
    use Preset::*;
    assert!(meld(Samba, "KC KD JK").is_ok());
    assert_eq!(
        meld(DutchSamba, "KC KD 2C JK").unwrap_err(),
        Code::InvalidGroup
    );
    assert!(meld(Samba, "KC KD 2C JK").is_ok());
    assert_eq!(meld(Canasta, "2C 2D JK").unwrap_err(), Code::InvalidGroup);
}

#[test]
fn sequences_are_consecutive_one_suit_ace_high() {
    use Preset::*;
    assert!(meld(Samba, "QS KS AS").is_ok());
    assert_eq!(meld(Samba, "KS AS 4S").unwrap_err(), Code::InvalidSequence);
    assert_eq!(meld(Samba, "4D 2D 6D").unwrap_err(), Code::InvalidSequence);
    assert_eq!(meld(Canasta, "4H 5H 6H").unwrap_err(), Code::NotInPreset);
    assert!(meld(Samba, "4C 5C 6C 7C 8C 9C TC").unwrap().is_samba());
}

#[test]
fn refusals_name_what_is_wrong_in_words() {
    let why = |preset: Preset, s: &str| {
        let cards = s.split_whitespace().map(|c| c.parse().unwrap()).collect();
        Meld::from_cards(&Rules::preset(preset), cards)
            .unwrap_err()
            .reason
    };
    assert_eq!(
        why(Preset::Canasta, "4C 2C JK"),
        "1 natural and 2 wilds break the group rule: at least two naturals and at most three wilds"
    );
    assert_eq!(
        why(Preset::Samba, "4H 9S"),
        "4♥ and 9♠ are neither one rank (a group) nor one suit (a sequence)"
    );
    // Two cards of one rank are not the pair named.
    assert_eq!(
        why(Preset::Samba, "4H 4S 5H"),
        "5♥ and 4♠ are neither one rank (a group) nor one suit (a sequence)"
    );
}

#[test]
fn accepts_alone_agrees_with_growing_a_copy() {
    let mut house = crate::rules::HouseRules::default();
    for closed in [false, true] {
        house.wilds_onto_completed_canasta = Some(!closed);
        for preset in Preset::ALL {
            let rules = Rules::new(preset, house.clone());
            for text in [
                "KC KD KH",
                "KC KD KH 2C",
                "KC KD 2C JK",
                "KC KD KH KS KC KD 2H",
                "KC KD KH KS KC KD KH",
                "4C 4D 4H 4S 4C 4D 4H 2C JK",
                "4S 5S 6S",
                "QS KS AS",
                "4H 5H 6H 7H 8H 9H",
                "4H 5H 6H 7H 8H 9H TH",
                "3S 3C 3S",
            ] {
                let cards = text
                    .split_whitespace()
                    .map(|c| c.parse().unwrap())
                    .collect();
                let Ok(m) = Meld::from_cards(&rules, cards) else {
                    continue;
                };
                for i in 0..Card::SLOTS {
                    let card = Card::from_slot(i).unwrap();
                    assert_eq!(
                        m.accepts_alone(&rules, card),
                        m.accepts_alone_by_growing(&rules, card),
                        "{preset} {text} + {card}"
                    );
                }
            }
        }
    }
}

#[test]
fn with_added_judges_an_addition_as_a_plan_does() {
    let rules = Rules::preset(Preset::Samba);
    let cards =
        |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
    let group = Meld::from_cards(&rules, cards("KC KD KH")).unwrap();
    let run = Meld::from_cards(&rules, cards("4S 5S 6S")).unwrap();
    let samba = Meld::from_cards(&rules, cards("4C 5C 6C 7C 8C 9C TC")).unwrap();
    // One card: the same answer as the single-card test, for every card.
    for m in [&group, &run, &samba] {
        for i in 0..Card::SLOTS {
            let card = Card::from_slot(i).unwrap();
            assert_eq!(
                m.with_added(&rules, &[card]).is_ok(),
                m.accepts_alone(&rules, card)
            );
        }
    }
    // Several cards: judged together.
    assert_eq!(group.with_added(&rules, &cards("KS KC")).unwrap().len(), 5);
    assert!(run.with_added(&rules, &cards("7S 8S")).is_ok());
    assert!(run.with_added(&rules, &cards("8S 9S")).is_err(), "a gap");
    assert!(
        run.with_added(&rules, &cards("7S 2C")).is_err(),
        "a wild in a sequence"
    );
    assert!(
        group.with_added(&rules, &cards("KS QS")).is_err(),
        "another rank"
    );
    let closed = samba.with_added(&rules, &cards("JC")).unwrap_err();
    assert!(
        closed.reason.contains("samba is complete"),
        "{}",
        closed.reason
    );
}

#[test]
fn melds_serialise_as_kind_and_cards() {
    let m = Meld::from_cards(
        &Rules::preset(Preset::Samba),
        "KH KC 2D"
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect(),
    )
    .unwrap();
    let text = serde_json::to_string(&m).unwrap();
    assert_eq!(
        text,
        r#"{"kind":{"Group":"King"},"cards":["KC","2D","KH"]}"#
    );
    assert_eq!(serde_json::from_str::<Meld>(&text).unwrap(), m);
    assert_eq!(
        format!("{m:?}"),
        "Meld { kind: Group(King), cards: [KC, 2D, KH] }"
    );
    assert_eq!(m.wilds(), 1);
    let many = format!(
        r#"{{"kind":{{"Group":"King"}},"cards":[{}]}}"#,
        ["\"KC\""; 17].join(",")
    );
    assert!(serde_json::from_str::<Meld>(&many).is_err());
}

#[test]
fn a_meld_grown_past_its_capacity_fails_its_check() {
    let rules = Rules::preset(Preset::Samba);
    let mut m = Meld::from_cards(&rules, vec!["KC".parse().unwrap(); 3]).unwrap();
    for _ in 0..20 {
        m.push("KD".parse().unwrap());
    }
    assert_eq!(m.len(), Meld::CAPACITY);
    assert_eq!(m.check(&rules).unwrap_err().code, Code::InvalidGroup);
    let long: Vec<Card> = vec!["KC".parse().unwrap(); 20];
    let err = Meld::from_cards(&rules, long).unwrap_err();
    assert_eq!(err.code, Code::InvalidGroup);
}

#[test]
fn black_threes_shapes() {
    assert_eq!(
        meld(Preset::Samba, "3S 3C 3S 2H").unwrap_err(),
        Code::BlackThrees
    );
    assert!(meld(Preset::DutchSamba, "3S 3C 2H").is_ok());
    assert_eq!(
        meld(Preset::Canasta, "3S 3C 3S 3C 3S").unwrap_err(),
        Code::BlackThrees
    );
}
