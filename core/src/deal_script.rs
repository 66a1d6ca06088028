//! The deal script (SPEC §3.1): which seat each dealt position goes to, which positions turn
//! up onto the discard pile (canasta re-turns a wild or red three), and which stock positions
//! replace the red threes each seat lays out, seat by seat from the dealer's left.
//!
//! It works on deck positions, not cards: whoever runs it answers each [`DealStep`] with what
//! it learnt of the cards. [`Position::deal`](crate::Position::deal) runs it over a deck it
//! holds whole; a networked hand runs it while the cards are opened one message at a time.
//! Both follow this one script, so they cannot disagree on where a card goes.

use crate::card::Card;
use crate::rules::{Preset, RedThreeMode, Rules};
use crate::seat::Seat;

/// What the deal needs next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealStep {
    /// Position `.0` goes face up onto the discard pile; answer with its face
    /// ([`DealScript::turned`]).
    TurnUp(usize),
    /// `seat` lays out every red three among `positions` (cards it holds); answer with how
    /// many ([`DealScript::shown`]).
    RedThrees {
        /// Who lays them out.
        seat: Seat,
        /// The positions it holds that may be red threes (ascending).
        positions: Vec<usize>,
    },
    /// `positions`, the next of the stock, go to `seat` (privately) to replace the red threes
    /// it laid out; answer [`DealScript::replaced`] once they are dealt.
    Replace {
        /// Who gets them.
        seat: Seat,
        /// The stock positions, in the order they are dealt.
        positions: Vec<usize>,
    },
    /// The deal is complete: the stock is the positions from [`DealScript::cursor`] on.
    Done,
}

/// The deal of one hand as a script over deck positions (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealScript {
    dealer: Seat,
    len: usize,
    dealt: usize,
    /// Canasta: a wild or red three upcard freezes the pile and another card is turned.
    returns: bool,
    /// Samba: a wild upcard freezes the pile.
    wild_freezes: bool,
    /// Red threes are laid out and replaced during the deal.
    replace_red_threes: bool,
    /// The next position not dealt yet.
    cursor: usize,
    /// The positions turned up onto the pile, bottom first.
    pile: Vec<usize>,
    frozen: bool,
    /// How many seats (from the dealer's left) have laid out their red threes.
    seats_done: usize,
    step: DealStep,
}

impl DealScript {
    /// The script of a deal under `rules` with `dealer` dealing. The first card of the deck
    /// is dealt first; the `4 × hand_size` dealt cards go one at a time clockwise from the
    /// dealer's left, and the next card is the first upcard.
    pub fn new(rules: &Rules, dealer: Seat) -> Self {
        let len = rules.deck_size();
        let dealt = rules.hand_size * 4;
        let mut s = Self {
            dealer,
            len,
            dealt,
            returns: rules.preset == Preset::Canasta,
            wild_freezes: rules.preset == Preset::Samba,
            replace_red_threes: rules.red_three_mode == RedThreeMode::AutoReplace,
            cursor: dealt,
            pile: Vec::new(),
            frozen: false,
            seats_done: 0,
            step: DealStep::Done,
        };
        s.step = if dealt < len {
            s.turn_up()
        } else {
            s.red_threes()
        };
        s
    }

    /// The number of cards dealt into the hands before the upcard.
    pub fn dealt(&self) -> usize {
        self.dealt
    }

    /// The seat that dealt position `pos` (below [`DealScript::dealt`]) goes to.
    pub fn seat_of(&self, pos: usize) -> Seat {
        Seat::from_index(self.dealer.next().index().wrapping_add(pos))
    }

    /// The positions dealt to `seat` in the deal proper (ascending).
    pub fn dealt_to(&self, seat: Seat) -> Vec<usize> {
        (0..self.dealt)
            .filter(|&p| self.seat_of(p) == seat)
            .collect()
    }

    /// What the deal needs now.
    pub fn step(&self) -> &DealStep {
        &self.step
    }

    /// The next position not dealt yet (the top of the stock).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many positions are left for the stock.
    pub fn stock_left(&self) -> usize {
        self.len - self.cursor
    }

    /// The positions turned up onto the discard pile, bottom first.
    pub fn pile(&self) -> &[usize] {
        &self.pile
    }

    /// Whether the upcards froze the pile.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// Answers [`DealStep::TurnUp`] with the face of the card turned up (does nothing at
    /// another step).
    pub fn turned(&mut self, face: Card) {
        if !matches!(self.step, DealStep::TurnUp(_)) {
            return;
        }
        if self.returns && (face.is_wild() || face.is_red_three()) {
            self.frozen = true;
            if self.cursor < self.len {
                self.step = self.turn_up();
                return;
            }
        } else if self.wild_freezes && face.is_wild() {
            self.frozen = true;
        }
        self.step = self.red_threes();
    }

    /// Answers [`DealStep::RedThrees`] with how many red threes the seat laid out (does
    /// nothing at another step). Each is replaced by the next stock card while there is one.
    pub fn shown(&mut self, count: usize) {
        let DealStep::RedThrees { seat, .. } = self.step else {
            return;
        };
        let n = count.min(self.stock_left());
        if n > 0 {
            let positions = (self.cursor..self.cursor + n).collect();
            self.cursor += n;
            self.step = DealStep::Replace { seat, positions };
        } else {
            self.seats_done += 1;
            self.step = self.red_threes();
        }
    }

    /// Answers [`DealStep::Replace`] once the replacements are dealt (does nothing at another
    /// step): the seat then lays out the red threes among them.
    pub fn replaced(&mut self) {
        if let DealStep::Replace { seat, positions } = &mut self.step {
            self.step = DealStep::RedThrees {
                seat: *seat,
                positions: std::mem::take(positions),
            };
        }
    }

    fn turn_up(&mut self) -> DealStep {
        let pos = self.cursor;
        self.cursor += 1;
        self.pile.push(pos);
        DealStep::TurnUp(pos)
    }

    /// The next seat's red threes, or the end of the deal.
    fn red_threes(&self) -> DealStep {
        if !self.replace_red_threes || self.seats_done >= 4 {
            return DealStep::Done;
        }
        let seat = Seat::from_index(self.dealer.index() + 1 + self.seats_done);
        DealStep::RedThrees {
            seat,
            positions: self.dealt_to(seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn canasta_turns_again_on_a_wild_or_red_three_and_freezes() {
        let rules = Rules::preset(Preset::Canasta);
        let mut s = DealScript::new(&rules, Seat::S);
        assert_eq!(s.dealt(), 44);
        assert_eq!(s.seat_of(0), Seat::W);
        assert_eq!(s.step(), &DealStep::TurnUp(44));
        s.turned(card("2C"));
        assert_eq!(s.step(), &DealStep::TurnUp(45));
        s.turned(card("3H"));
        assert_eq!(s.step(), &DealStep::TurnUp(46));
        s.turned(card("7S"));
        assert_eq!(s.pile(), &[44, 45, 46]);
        assert!(s.frozen());
        assert_eq!(s.cursor(), 47);
        assert!(matches!(
            s.step(),
            DealStep::RedThrees { seat: Seat::W, .. }
        ));
    }

    #[test]
    fn red_threes_are_replaced_from_the_stock_seat_by_seat() {
        let rules = Rules::preset(Preset::Canasta);
        let mut s = DealScript::new(&rules, Seat::E);
        s.turned(card("7S"));
        assert!(!s.frozen());
        let DealStep::RedThrees { seat, positions } = s.step().clone() else {
            panic!("{:?}", s.step());
        };
        assert_eq!(seat, Seat::S);
        assert_eq!(positions, s.dealt_to(Seat::S));
        assert_eq!(positions.len(), 11);
        s.shown(2);
        let replace = DealStep::Replace {
            seat: Seat::S,
            positions: vec![45, 46],
        };
        assert_eq!(s.step(), &replace);
        s.replaced();
        assert_eq!(
            s.step(),
            &DealStep::RedThrees {
                seat: Seat::S,
                positions: vec![45, 46]
            }
        );
        s.shown(0);
        for seat in [Seat::W, Seat::N, Seat::E] {
            assert!(matches!(s.step(), DealStep::RedThrees { seat: t, .. } if *t == seat));
            s.shown(0);
        }
        assert_eq!(s.step(), &DealStep::Done);
        assert_eq!(s.stock_left(), 108 - 47);
    }

    #[test]
    fn samba_freezes_on_a_wild_upcard_without_turning_again() {
        let rules = Rules::preset(Preset::Samba);
        let mut s = DealScript::new(&rules, Seat::S);
        s.turned(Card::JOKER);
        assert!(s.frozen());
        assert_eq!(s.pile(), &[60]);
        assert_ne!(s.step(), &DealStep::TurnUp(61));
    }
}
