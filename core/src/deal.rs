//! The pack, deck orders and the deal (SPEC §3.1).

use crate::card::{Card, Rank, Suit};
use crate::cards::Cards;
use crate::deal_script::{DealScript, DealStep};
use crate::error::{Code, Refusal};
use crate::position::{Phase, Position, TurnState};
use crate::rules::Rules;
use crate::seat::Seat;

/// The whole pack in canonical order: for each pack, suits C, D, H, S from 2 up to A, then
/// that pack's two jokers.
pub fn canonical_deck(rules: &Rules) -> Vec<Card> {
    let mut deck = Vec::with_capacity(rules.deck_size());
    for _ in 0..rules.packs {
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                deck.push(Card::new(rank, suit));
            }
        }
        deck.push(Card::JOKER);
        deck.push(Card::JOKER);
    }
    deck
}

/// The deck `top` followed by the rest of the canonical order (the first copy of each named
/// card removed), as the scenario format defines deal scenarios.
///
/// # Errors
///
/// `invalid_position` if `top` names more copies of a card than the pack has.
pub fn deck_from_top(rules: &Rules, top: &[Card]) -> Result<Vec<Card>, Refusal> {
    let mut rest = canonical_deck(rules);
    for &c in top {
        let Some(at) = rest.iter().position(|&r| r == c) else {
            return Err(Refusal::new(
                Code::InvalidPosition,
                format!("the pack has no more copies of {c}"),
            ));
        };
        rest.remove(at);
    }
    let mut deck = top.to_vec();
    deck.extend(rest);
    Ok(deck)
}

/// Whether `deck` holds exactly the preset's pack.
pub fn is_full_pack(rules: &Rules, deck: &[Card]) -> bool {
    let want: Cards = canonical_deck(rules).iter().collect();
    let got: Cards = deck.iter().collect();
    deck.len() == rules.deck_size() && want == got
}

impl Position {
    /// Deals a new hand from `deck` (the first card is dealt first) with `dealer` dealing and
    /// `scores` the teams' totals before the hand.
    ///
    /// The deal follows the [`DealScript`]: cards go one at a time clockwise from the dealer's
    /// left; then the upcard (`canasta` turns more while the top is a wild or red three and
    /// freezes the pile; `samba` freezes on a wild upcard); the rest is the stock. With
    /// automatic red threes each player from the dealer's left lays out dealt red threes and
    /// draws replacements.
    ///
    /// # Errors
    ///
    /// `invalid_position` if `deck` is not exactly the preset's pack.
    pub fn deal(
        rules: Rules,
        dealer: Seat,
        scores: [i32; 2],
        deck: &[Card],
    ) -> Result<Self, Refusal> {
        if !is_full_pack(&rules, deck) {
            return Err(Refusal::new(
                Code::InvalidPosition,
                format!("a deal needs the whole pack of {} cards", rules.deck_size()),
            ));
        }
        Self::deal_partial(rules, dealer, scores, deck)
    }

    /// Deals like [`Position::deal`] from a deck in which some cards may be
    /// [`Card::HIDDEN`] (a replica: each node knows only some positions). The caller makes
    /// sure every card the deal inspects (upcards, red threes and their replacements) is known.
    ///
    /// # Errors
    ///
    /// `invalid_position` if `deck` does not have the pack's length.
    pub fn deal_partial(
        rules: Rules,
        dealer: Seat,
        scores: [i32; 2],
        deck: &[Card],
    ) -> Result<Self, Refusal> {
        if deck.len() != rules.deck_size() {
            return Err(Refusal::new(
                Code::InvalidPosition,
                format!("a deal needs {} cards", rules.deck_size()),
            ));
        }
        // Where each position goes is the deal script's (written once, followed by every
        // seat of a networked hand too); here every face is at hand.
        let mut script = DealScript::new(&rules, dealer);
        let mut hands: [Cards; 4] = Default::default();
        for (p, &card) in deck[..script.dealt()].iter().enumerate() {
            hands[script.seat_of(p).index()].add(card);
        }
        let mut pile = Vec::new();
        let mut replacements: [Vec<Card>; 4] = Default::default();
        let mut laying: Vec<Seat> = Vec::new();
        loop {
            match script.step() {
                &DealStep::TurnUp(p) => {
                    pile.push(deck[p]);
                    script.turned(deck[p]);
                }
                DealStep::RedThrees { seat, positions } => {
                    let shown = positions
                        .iter()
                        .filter(|&&p| deck[p].is_red_three())
                        .count();
                    if !laying.contains(seat) {
                        laying.push(*seat);
                    }
                    script.shown(shown);
                }
                DealStep::Replace { seat, positions } => {
                    replacements[seat.index()].extend(positions.iter().map(|&p| deck[p]));
                    script.replaced();
                }
                DealStep::Done => break,
            }
        }
        let frozen = script.frozen();
        let mut stock: Vec<Card> = deck[script.cursor()..].to_vec();
        stock.reverse();
        // Each seat lays out its red threes lowest first, each replaced at once by the next
        // of its replacements (a replacement that is a red three is laid out in turn).
        let mut red_threes: [Vec<Card>; 2] = Default::default();
        for seat in laying {
            let hand = &mut hands[seat.index()];
            let mut more = replacements[seat.index()].iter();
            loop {
                let Some(red) = hand.distinct().find(|c| c.is_red_three()) else {
                    break;
                };
                hand.remove(red);
                red_threes[seat.team().index()].push(red);
                if let Some(&card) = more.next() {
                    hand.add(card);
                }
            }
        }
        let turn = dealer.next();
        Ok(Self {
            rules,
            dealer,
            scores,
            turn,
            phase: Phase::Draw,
            hands,
            melds: Default::default(),
            red_threes,
            pile,
            pile_frozen: frozen,
            stock,
            melded_before: [false; 4],
            turn_state: TurnState::fresh(0, false),
            end: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn packs_have_162_and_108_cards() {
        let samba = canonical_deck(&Rules::preset(Preset::Samba));
        let canasta = canonical_deck(&Rules::preset(Preset::Canasta));
        assert_eq!(samba.len(), 162);
        assert_eq!(canasta.len(), 108);
        let wilds = |d: &[Card]| d.iter().filter(|c| c.is_wild()).count();
        assert_eq!(wilds(&samba), 18);
        assert_eq!(wilds(&canasta), 12);
        assert_eq!(samba.iter().filter(|c| c.is_red_three()).count(), 6);
    }

    #[test]
    fn deal_gives_fifteen_each_and_rotates_from_the_dealers_left() {
        let rules = Rules::preset(Preset::DutchSamba);
        let deck = canonical_deck(&rules);
        let p = Position::deal(rules, Seat::S, [0, 0], &deck).unwrap();
        for seat in Seat::ALL {
            assert_eq!(p.hand(seat).len(), 15);
        }
        assert_eq!(p.turn(), Seat::W);
        assert_eq!(p.stock_len(), 101);
        // W (the dealer's left) got the first card, 2C.
        assert!(p.hand(Seat::W).contains("2C".parse().unwrap()));
    }
}
