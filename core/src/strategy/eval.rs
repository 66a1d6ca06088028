//! Heuristic measures shared by the computer players, all from one seat's knowledge: each
//! reads a position only through the seat's own hand and the public table, so it gives the
//! same answer on the seat's [`crate::PlayerView`] (`view.position()`) as on the full position
//! (which is what lets the search play the expert in sampled positions).

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::meld::{Meld, MeldKind};
use crate::position::Position;
use crate::seat::Seat;

/// How much the seat would miss `card` (higher: keep it).
pub(super) fn usefulness(pos: &Position, seat: Seat, card: Card) -> i32 {
    if card.is_wild() {
        return 200;
    }
    if card.is_black_three() {
        return -20;
    }
    if card.is_red_three() {
        return 150;
    }
    let hand = pos.hand(seat);
    let team = seat.team();
    let mut u = card.points() / 5;
    if let Some(rank) = card.rank() {
        let same = hand.count_rank(rank);
        u += 40 * (same as i32 - 1);
        if pos
            .melds(team)
            .iter()
            .any(|m| m.kind() == MeldKind::Group(rank))
        {
            u += 60;
        }
        if pos.rules().sequences
            && let Some(suit) = card.suit()
        {
            u += run_usefulness(pos, seat, card, rank, suit);
        }
    }
    u
}

/// What `card` adds to runs in hand and to the team's sequences (Samba presets).
fn run_usefulness(pos: &Position, seat: Seat, card: Card, rank: Rank, suit: Suit) -> i32 {
    let hand = pos.hand(seat);
    let mut u = 0;
    for d in [-2i32, -1, 1, 2] {
        let r = Rank::from_index((rank.index() as i32 + d) as usize);
        if r.is_some_and(|r| r >= Rank::Four && hand.contains(Card::new(r, suit))) {
            u += if d.abs() == 1 { 20 } else { 8 };
        }
    }
    let extends = pos.melds(seat.team()).iter().any(|m| {
        m.kind() == MeldKind::Sequence(suit) && !m.is_samba() && m.accepts_alone(pos.rules(), card)
    });
    if extends {
        u += 60;
    }
    u
}

/// Copies of `rank` this seat has not seen (in its hand, on the table, in the pile).
fn unseen(pos: &Position, seat: Seat, rank: Rank) -> i32 {
    let total = pos.rules().packs as i32 * 4;
    let mut seen = pos.hand(seat).count_rank(rank) as i32;
    for team in crate::seat::Team::ALL {
        seen += pos
            .melds(team)
            .iter()
            .flat_map(Meld::cards)
            .filter(|c| c.rank() == Some(rank))
            .count() as i32;
    }
    seen += pos.pile().iter().filter(|c| c.rank() == Some(rank)).count() as i32;
    (total - seen).max(0)
}

/// How much discarding `card` could help the opponents take the pile.
pub(super) fn danger(pos: &Position, seat: Seat, card: Card) -> i32 {
    if card.is_wild() || card.is_three() {
        return 0;
    }
    let them = seat.team().other();
    let pile = pos.pile().len() as i32 + 1;
    let frozen = pos.pile_frozen_for(them);
    let mut d = 0;
    let steal = !frozen
        && pos.rules().preset != crate::rules::Preset::DutchSamba
        && pos
            .melds(them)
            .iter()
            .any(|m| m.accepts_alone(pos.rules(), card));
    if steal {
        d += 60 + 12 * pile;
    }
    if pos.rules().preset == crate::rules::Preset::DutchSamba
        && pos
            .melds(them)
            .iter()
            .any(|m| m.run_bounds().is_some() && m.accepts_alone(pos.rules(), card))
    {
        d += 40;
    }
    if let Some(rank) = card.rank() {
        // A pair in an opponent's hand takes the pile.
        d += unseen(pos, seat, rank) * pile;
    }
    d
}

/// Credit for a meld on the way to a canasta or samba.
pub(super) fn progress(meld: &Meld) -> i32 {
    if meld.is_complete() {
        return 0;
    }
    match meld.kind() {
        MeldKind::Group(_) => match meld.len() {
            6 => 160,
            5 => 90,
            4 => 35,
            _ => 0,
        },
        MeldKind::Sequence(_) => match meld.len() {
            6 => 500,
            5 => 250,
            4 => 90,
            _ => 20,
        },
        MeldKind::BlackThrees => 0,
    }
}

/// The seat's estimate of its team's standing: the table (cards, bonuses, progress toward
/// canastas and sambas) minus the risk of the cards still in hand, plus wilds kept in reserve.
pub(super) fn evaluate(pos: &Position, seat: Seat) -> i32 {
    evaluate_parts(pos, pos.melds(seat.team()), pos.hand(seat))
}

/// [`evaluate`] of a team with `melds` on the table and `hand` in the seat's hand (the rules
/// are read from `rules_of`).
pub(super) fn evaluate_parts(rules_of: &Position, melds: &[Meld], hand: &Cards) -> i32 {
    let mut v = 0;
    for m in melds {
        v += m.card_points() + m.bonus() + progress(m);
    }
    v -= hand.points() / 2;
    v += 25 * hand.wild_count() as i32;
    // Suits with runs in hand are worth something in the Samba presets: 6 for each card whose
    // rank just below (four and up) is in hand too.
    if rules_of.rules().sequences {
        let faces = hand.faces();
        for suit in Suit::ALL {
            let ranks = (faces >> (13 * suit as usize + 2)) & 0x7FF;
            v += 6 * (ranks & (ranks << 1)).count_ones() as i32;
        }
    }
    v
}
