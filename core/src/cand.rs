//! Candidate moves described without allocating, and the face masks and run search that
//! move generation (`legal`) and the opening-plan hint (`opening`) both read.

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;

/// The wild faces (the four twos and the joker) as a set of face indices.
pub(crate) const WILD_FACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39 | 1 << 52;
/// The four faces of rank index 0, shifted by a rank's index to get that rank's faces.
pub(crate) const RANK_FACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// Clubs three to ace (every face of one suit but the two), shifted by `13 * suit`.
pub(crate) const SUIT_NATURALS: u64 = ((1 << 13) - 1) & !1;

/// What goes with the top card in a described pickup.
#[derive(Debug, Clone, Copy)]
pub(crate) enum With {
    /// The first two naturals of its rank in hand.
    Pair,
    /// Every natural of its rank in hand.
    All,
    /// The first natural and the first wild.
    NaturalAndWild,
}

/// A candidate move, described without allocating (most are never built: random play draws
/// one and validates it).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cand {
    /// An answer to "May I go out?".
    Answer(bool),
    /// The stock draw.
    Draw,
    /// Taking the pile with `with` from hand, onto a team group or a new meld, with the
    /// opening plan of the rest of the hand when `also`.
    Pickup {
        with: With,
        onto: Option<usize>,
        also: bool,
    },
    /// The opening plan of the whole hand.
    Opening,
    /// Laying out the red threes in hand.
    LayReds,
    /// Taking the pile by putting the top card alone onto meld `onto`.
    TopAlone {
        onto: usize,
    },
    /// `dutch-samba`: the top card alone onto sequence `onto`.
    TakeTop {
        onto: usize,
    },
    Discard(Card),
    Pass,
    Ask,
    /// A new group: the hand's naturals of `rank`, plus `wild`.
    Group {
        rank: Rank,
        wild: Option<Card>,
    },
    /// A new run of `suit`: meldable ranks `start..start + len`.
    Run {
        suit: Suit,
        start: u8,
        len: u8,
    },
    /// One card onto meld `to`.
    Add {
        to: usize,
        card: Card,
    },
    Merge {
        i: usize,
        j: usize,
    },
    /// The finish search.
    Finish,
}

pub(crate) fn natural_count(hand: &Cards, rank: Rank) -> usize {
    Suit::ALL
        .iter()
        .map(|&s| hand.count(Card::new(rank, s)))
        .sum()
}

/// The runs of [`runs`], described.
pub(crate) fn run_cands(hand: &Cards, push: &mut impl FnMut(Cand)) {
    run_cands_in(hand.faces(), push);
}

/// [`run_cands`] of a hand with the faces `present` (a set of face indices).
pub(crate) fn run_cands_in(present: u64, push: &mut impl FnMut(Cand)) {
    for suit in Suit::ALL {
        // The suit's meldable ranks (four to ace) present, bit k for `Rank::MELDABLE[k]`.
        let mut ranks = (present >> (13 * suit as usize + 2)) & 0x7FF;
        let mut at = 0u32;
        while ranks != 0 {
            let skip = ranks.trailing_zeros();
            ranks >>= skip;
            at += skip;
            let mut block = ranks.trailing_ones();
            ranks >>= block;
            // A block longer than seven is cut into sambas from its low end.
            while block >= 7 {
                push(Cand::Run {
                    suit,
                    start: at as u8,
                    len: 7,
                });
                at += 7;
                block -= 7;
            }
            if block >= 3 {
                push(Cand::Run {
                    suit,
                    start: at as u8,
                    len: block as u8,
                });
            }
            at += block;
        }
    }
}

/// The longest runs (3 to 7 distinct consecutive ranks of one suit) in `hand`.
pub(crate) fn runs(hand: &Cards) -> Vec<Vec<Card>> {
    let mut found = Vec::new();
    run_cands(hand, &mut |c| found.push(c));
    found
        .into_iter()
        .filter_map(|c| match c {
            Cand::Run { suit, start, len } => Some(
                Rank::MELDABLE[usize::from(start)..usize::from(start + len)]
                    .iter()
                    .map(|&r| Card::new(r, suit))
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}
