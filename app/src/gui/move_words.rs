//! Moves in the player's words: the engine says "South takes the top card onto meld 2"; the
//! player at South reads "You take the top card onto our meld 2". Both teams number their
//! melds from 1, so a meld is always said as ours or theirs.

use fairdeal_core::{Move, Seat, Team};

/// "our" for `team` when it is `me`'s, else "their".
pub fn whose(team: Team, me: Seat) -> &'static str {
    if team == me.team() { "our" } else { "their" }
}

/// A team by its seats, for one who holds no seat ("South and North's").
pub fn team_words(team: Team) -> &'static str {
    if team == Seat::S.team() {
        "South and North's"
    } else {
        "West and East's"
    }
}

/// A team by its seats ("South and North").
pub fn team_seats(team: Team) -> &'static str {
    if team == Seat::S.team() {
        "South and North"
    } else {
        "West and East"
    }
}

/// `team`'s, said to the player at `me` ("our", "their"), or to an onlooker (`None`: by
/// its seats).
pub fn whose_to(team: Team, me: Option<Seat>) -> &'static str {
    match me {
        Some(me) => whose(team, me),
        None => team_words(team),
    }
}

/// `mv` by `seat` for an onlooker: in the third person, melds by their team's seats
/// ("North melds new Q♣ Q♥ (South and North's meld 4)").
pub fn onlooker_line(mv: &Move, seat: Seat) -> String {
    melds_named(&mv.describe(seat), team_words(seat.team()))
}

/// `mv` by `seat`, in the words of the player at `me`.
pub fn move_line(mv: &Move, seat: Seat, me: Seat) -> String {
    let text = melds_named(&mv.describe(seat), whose(seat.team(), me));
    if seat != me {
        return text;
    }
    let Some(rest) = text.strip_prefix(&format!("{} ", seat.name())) else {
        return text;
    };
    let (word, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let (verb, comma) = match word.strip_suffix(',') {
        Some(v) => (v, ","),
        None => (word, ""),
    };
    let verb = match verb {
        "goes" => "go",
        "passes" => "pass",
        v => v.strip_suffix('s').unwrap_or(v),
    };
    if tail.is_empty() {
        format!("You {verb}{comma}")
    } else {
        format!("You {verb}{comma} {tail}")
    }
}

/// `text` with each "meld <number>" said as `whose` meld.
fn melds_named(text: &str, whose: &str) -> String {
    let mut out = String::with_capacity(text.len() + 12);
    let mut rest = text;
    while let Some(at) = rest.find("meld ") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let numbered = from["meld ".len()..].starts_with(|c: char| c.is_ascii_digit());
        if numbered {
            out.push_str(whose);
            out.push(' ');
        }
        out.push_str("meld ");
        rest = &from["meld ".len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::Card;

    #[test]
    fn the_player_is_you_and_every_meld_is_ours_or_theirs() {
        let s = Seat::S;
        assert_eq!(move_line(&Move::Draw {}, s, s), "You draw from the stock");
        assert_eq!(
            move_line(&Move::TakeTop { onto: 1 }, s, s),
            "You take the top card onto our meld 2"
        );
        assert_eq!(
            move_line(&Move::TakeTop { onto: 1 }, Seat::W, s),
            "West takes the top card onto their meld 2"
        );
        assert_eq!(
            move_line(&Move::TakeTop { onto: 0 }, Seat::N, s),
            "North takes the top card onto our meld 1"
        );
        assert_eq!(
            move_line(&Move::Pass {}, s, s),
            "You pass, keeping one card"
        );
        let c: Card = "7S".parse().unwrap();
        assert_eq!(move_line(&Move::Discard(c), s, s), "You discard 7♠");
        assert_eq!(move_line(&Move::Discard(c), Seat::E, s), "East discards 7♠");
        assert_eq!(melds_named("onto a new meld", "our"), "onto a new meld");
        assert_eq!(
            melds_named("melds 7♠ onto meld 3, meld 12", "their"),
            "melds 7♠ onto their meld 3, their meld 12"
        );
    }
}
