//! "How to play": the rules in brief, written from the rules in force (so a house rule or a
//! preset's numbers are never misquoted).

use eframe::egui::{self, RichText, Ui};
use fairdeal_core::{Card, GroupWildRule, Preset, Rank, RedThreeMode, Rules, Seat, Suit};

use super::words::preset_title;

/// Who plays with whom, from the seat of the one reading (`None`: no seat yet, as on the
/// start screen).
fn partnerships(seat: Option<Seat>) -> String {
    match seat {
        Some(me) => {
            let (left, right) = (me.next(), me.partner().next());
            // Named in the table's order, South's team first, as the seat boxes name them.
            let (a, b) = if left.index() < right.index() {
                (left, right)
            } else {
                (right, left)
            };
            format!(
                "you ({}) and your partner {} against {} and {}",
                me.name(),
                me.partner().name(),
                a.name(),
                b.name()
            )
        }
        None => {
            "partners sit opposite each other: South and North against West and East".to_owned()
        }
    }
}

/// The rules in brief, as paragraphs, for the player at `seat` (`None`: before a game).
pub fn rules_in_brief(rules: &Rules, seat: Option<Seat>) -> Vec<String> {
    let samba = rules.preset.is_samba_family();
    let pts = |c: Card| c.points();
    let card = |r: Rank| Card::new(r, Suit::Spades);
    let mut out = vec![
        format!(
            "{}: four players in two partnerships ({}). {} packs with jokers, {} cards; each player is dealt {}.",
            preset_title(rules.preset),
            partnerships(seat),
            rules.packs,
            rules.deck_size(),
            rules.hand_size
        ),
        format!(
            "Your turn: draw {} from the stock, or take the whole pile; lay down melds if you can; then discard one card.",
            if rules.draw_count == 1 {
                "one card".to_owned()
            } else {
                format!("{} cards", rules.draw_count)
            }
        ),
        format!(
            "Melds: three or more cards of one rank{}. Jokers and twos are wild: {}. Seven cards make a canasta: natural (no wild) 500, mixed 300{}.",
            if rules.sequences {
                ", or three to seven cards of one suit in sequence (no wilds)"
            } else {
                ""
            },
            match rules.wild_rule {
                GroupWildRule::AtMostTwoNotMoreThanNaturals => {
                    "at most two in a group, and never more wilds than naturals"
                }
                GroupWildRule::AtMostTwoHalfNaturals => {
                    "at most two in a group, and at least two naturals for each wild"
                }
                GroupWildRule::TwoNaturalsThreeWilds => {
                    "at most three in a group, which needs at least two naturals"
                }
            },
            if samba {
                "; a seven-card sequence is a samba, 1500"
            } else {
                ""
            }
        ),
        format!(
            "Card points: joker {}, two and ace {}, eight to king {}, four to seven {}, black three {}.",
            pts(Card::JOKER),
            pts(card(Rank::Two)),
            pts(card(Rank::King)),
            pts(card(Rank::Five)),
            pts(card(Rank::Three)),
        ),
        format!(
            "Opening: your team's first melds together must reach a minimum that grows with your score: 50 below 1,500, 90 below 3,000, 120 below 7,000, then {}.",
            rules.opening_minimum(10_000)
        ),
        if rules.preset == Preset::Canasta {
            "The pile: take it by melding its top card with cards from your hand, or, while it is not frozen for your team, by putting its top card on one of your team's melds. It is frozen for a team that has not opened, and for everyone while a wild card is in it: then only a natural pair of the top card takes it. A wild or a three on top blocks it.".to_owned()
        } else if rules.has_freezing() {
            "The pile: take it by melding its top card with two natural cards of its rank from your hand, or, while it is not frozen, by putting its top card on one of your team's melds. A wild card in it freezes it: then only a natural pair of the top card takes it. A wild or a three on top blocks it.".to_owned()
        } else {
            "The pile: take it by melding its top card with cards from your hand, or take the top card alone onto one of your team's unfinished sequences; a wild or a three on top blocks it.".to_owned()
        },
        match rules.red_three_mode {
            RedThreeMode::AutoReplace => {
                format!(
                    "Red threes are laid out at once and replaced from the stock. Each scores 100 ({} for all {}) once your team has {}; until then they count against it.",
                    if rules.preset == Preset::Canasta { 800 } else { 1000 },
                    rules.packs * 2,
                    if rules.preset == Preset::Canasta {
                        "melded"
                    } else {
                        "the canastas it needs to go out"
                    }
                )
            }
            RedThreeMode::OptionalNoReplace => {
                "Red threes stay in your hand until you lay them out: each laid out scores 100 once your team has the canastas it needs to go out (-100 before); one still in a hand at the end costs 750.".to_owned()
            }
        },
        format!(
            "Going out: empty your hand once your team has {} {}{}; it scores {}.{}",
            rules.combos_to_go_out,
            if samba { "canastas or sambas" } else { "canasta" },
            if rules.combos_to_go_out == 1 { "" } else { " in all" },
            rules.going_out_bonus,
            if rules.must_ask {
                " Ask your partner first: their answer binds you."
            } else {
                ""
            }
        ),
        format!(
            "The game ends when a team reaches {} after a hand. Cards left in hands count against their team.",
            rules.target
        ),
    ];
    if rules.preset == Preset::Canasta && rules.pile_always_frozen {
        out.push("House rule: the pile is always frozen.".to_owned());
    }
    out.extend(table_in_brief(rules));
    out.push(
        "Every shuffle is made by all four players together, and after each hand every player's program re-checks the whole deal.".to_owned(),
    );
    out
}

/// How the table works, as paragraphs: playing now or by plan, and what the marks say.
pub fn table_in_brief(rules: &Rules) -> Vec<String> {
    let mut out = vec![
        "At the table: click cards to select them. M lays the selection down at once as a new meld. Or plan: P sets the selection aside as a new group, and a click or drop on one of your melds plans cards onto it; the groups count together toward your opening, and Enter plays the whole plan at once (U undoes the last group). D draws, T takes the pile, X discards the one selected card.".to_owned(),
        "Card marks: W on a wild card, 3! on a three. Over a meld, \"2 · 1w\" is meld 2 with one wild; a finished canasta is one stack with its count (\"3 · 7\") and a ribbon: NATURAL, MIXED or SAMBA. A dot marks the cards you just drew; each seat's last cards are outlined in its colour.".to_owned(),
    ];
    if rules.preset.is_samba_family() {
        out.push("A samba is closed: no card can be added to it.".to_owned());
    }
    out
}

/// The "How to play" window, while `open`, for the player at `seat` (`None`: before a game).
pub fn help_window(ctx: &egui::Context, open: &mut bool, rules: &Rules, seat: Option<Seat>) {
    egui::Window::new("How to play")
        .open(open)
        .default_width(520.0)
        .collapsible(false)
        .show(ctx, |ui: &mut Ui| {
            for p in rules_in_brief(rules, seat) {
                ui.label(p);
                ui.add_space(4.0);
            }
            ui.label(RichText::new("Keys: D draw · T take the pile · M meld now · P plan · Enter play the plan · U undo · X discard · Esc clear · Y/N answer · H hints · F1 this page").small());
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::HouseRules;

    #[test]
    fn the_text_follows_the_rules_in_force() {
        let samba = rules_in_brief(&Rules::preset(Preset::Samba), None).join(" ");
        assert!(samba.contains("samba, 1500"), "{samba}");
        assert!(samba.contains("reaches 10000"), "{samba}");
        // Every way to take the pile is named, the one onto a meld too.
        assert!(
            samba.contains("top card on one of your team's melds"),
            "{samba}"
        );
        assert!(samba.contains("A samba is closed"), "{samba}");
        assert!(
            samba.contains("T takes the pile") && samba.contains("MIXED"),
            "{samba}"
        );
        let dutch = rules_in_brief(&Rules::preset(Preset::DutchSamba), None).join(" ");
        assert!(
            dutch.contains("top card alone onto one of your team's unfinished sequences"),
            "{dutch}"
        );
        let canasta = Rules::new(
            Preset::Canasta,
            HouseRules {
                must_ask: Some(true),
                target: Some(3000),
                ..HouseRules::default()
            },
        );
        let text = rules_in_brief(&canasta, None).join(" ");
        assert!(
            !text.contains("samba,") && !text.contains("samba is closed"),
            "{text}"
        );
        assert!(text.contains("Ask your partner first"), "{text}");
        assert!(text.contains("reaches 3000"), "{text}");
    }

    /// Sabotage caught (checked): with the partnership written for South alone, North read
    /// "you and North against West and East".
    #[test]
    fn the_partnership_is_told_from_the_readers_seat() {
        let rules = Rules::preset(Preset::Samba);
        let first = |seat| rules_in_brief(&rules, seat).remove(0);
        assert!(
            first(Some(Seat::N))
                .contains("you (North) and your partner South against West and East"),
            "{}",
            first(Some(Seat::N))
        );
        assert!(
            first(Some(Seat::S))
                .contains("you (South) and your partner North against West and East")
        );
        assert!(
            first(Some(Seat::E))
                .contains("you (East) and your partner West against South and North")
        );
        assert!(!first(None).contains("you and"), "{}", first(None));
    }
}
