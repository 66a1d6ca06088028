//! Where a game stands when a deal starts ([`DealHead`]: its number, dealer, team totals and
//! the previous deal's result) and the one rule for the next deal's head given how a deal
//! ended ([`Ending`]). The table follows it as it plays, and the transcript checker and a
//! spectator hold every header to it: one rule, so that what a seat does and what a checker
//! accepts cannot drift apart. The hand context binds all four values, so every envelope of a
//! deal vouches for its head.

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;
use fairdeal_crypto::hand::hand_context;
use fairdeal_crypto::hash::hash256;
use serde::{Deserialize, Serialize};

/// What a deal's header says of the game, and its hand context binds. In a transcript's
/// header it is written field by field in this order (the dealer as its one byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealHead {
    /// The deal's number in the game, from 1; a deal started again keeps its number.
    pub hand_no: u32,
    /// The dealer.
    #[serde(with = "crate::seat_wire::one")]
    pub dealer: Seat,
    /// Team totals before the deal.
    pub totals: [i32; 2],
    /// The previous deal's result: its transcript root when scored, a void marker
    /// ([`void_marker`]) when not, zeros before the first.
    pub prev_result: [u8; 32],
}

/// How a deal ended, as far as the next deal is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Scored with `scores`: every seat signed the result `root`, or the audited scores stand
    /// after a stop that proved nothing. The deal passes to the left.
    Scored {
        /// The deal's scores, by team.
        scores: [i32; 2],
        /// The root every seat signed (or the audited one).
        root: [u8; 32],
    },
    /// Void, dealt again by the same dealer on the same totals: `seat` was put out (for a
    /// fault, silence or leaving), or, with `None`, no seat could be named.
    Void {
        /// The void deal's hand context.
        hctx: [u8; 32],
        /// The seat put out, if any.
        seat: Option<Seat>,
    },
    /// Over once the play was, but `seat` withheld the end: the deal counts with `scores` (the
    /// audited ones, or the forfeit rule's), passes to the left, and `seat` is put out.
    Forfeited {
        /// The deal's hand context.
        hctx: [u8; 32],
        /// The silent seat.
        seat: Seat,
        /// The scores that count, by team.
        scores: [i32; 2],
    },
    /// Started again, with the same number, because a player was given its seat back.
    Restarted,
}

/// The previous result a void or forfeited deal leaves: the deal's hand context and the seat
/// put out (`0xff` when no seat could be named), so the next deal's envelopes bind why.
pub fn void_marker(hctx: &[u8; 32], seat: Option<Seat>) -> [u8; 32] {
    let s = seat.map_or(0xff, |s| s.number());
    hash256(b"fairdeal/v1/void", &[hctx, &[s]])
}

/// Totals after a deal: saturating, so that no score a peer states can wrap them.
pub fn add_scores(totals: [i32; 2], scores: [i32; 2]) -> [i32; 2] {
    [
        totals[0].saturating_add(scores[0]),
        totals[1].saturating_add(scores[1]),
    ]
}

impl DealHead {
    /// The first deal of a game.
    pub fn first(dealer: Seat) -> Self {
        Self {
            hand_no: 1,
            dealer,
            totals: [0, 0],
            prev_result: [0; 32],
        }
    }

    /// The next deal's head once this one ended so.
    #[must_use]
    pub fn after(&self, ending: Ending) -> Self {
        let next = self.hand_no.saturating_add(1);
        match ending {
            Ending::Scored { scores, root } => Self {
                hand_no: next,
                dealer: self.dealer.next(),
                totals: add_scores(self.totals, scores),
                prev_result: root,
            },
            Ending::Void { hctx, seat } => Self {
                hand_no: next,
                prev_result: void_marker(&hctx, seat),
                ..*self
            },
            Ending::Forfeited { hctx, seat, scores } => Self {
                hand_no: next,
                dealer: self.dealer.next(),
                totals: add_scores(self.totals, scores),
                prev_result: void_marker(&hctx, Some(seat)),
            },
            Ending::Restarted => *self,
        }
    }

    /// The seats in the order they shuffle, from the dealer's left round to the dealer.
    pub fn shuffle_order(&self) -> [u8; 4] {
        [1, 2, 3, 4].map(|k| Seat::from_index(self.dealer.index() + k).number())
    }

    /// The deal's hand context at the table `sid` with the seat identities `keys`.
    pub fn hctx(&self, sid: &[u8; 32], keys: &[PublicKey; 4]) -> [u8; 32] {
        hand_context(
            sid,
            self.hand_no,
            self.dealer.number(),
            self.totals,
            &self.prev_result,
            keys,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head() -> DealHead {
        DealHead {
            hand_no: 3,
            dealer: Seat::N,
            totals: [1200, -50],
            prev_result: [7; 32],
        }
    }

    #[test]
    fn a_scored_deal_passes_left_and_adds_its_scores() {
        let next = head().after(Ending::Scored {
            scores: [300, 90],
            root: [9; 32],
        });
        assert_eq!(
            next,
            DealHead {
                hand_no: 4,
                dealer: Seat::E,
                totals: [1500, 40],
                prev_result: [9; 32],
            }
        );
    }

    #[test]
    fn a_void_deal_is_dealt_again_by_the_same_dealer_on_the_same_totals() {
        let hctx = [5; 32];
        let next = head().after(Ending::Void {
            hctx,
            seat: Some(Seat::W),
        });
        assert_eq!(
            (next.hand_no, next.dealer, next.totals),
            (4, Seat::N, [1200, -50])
        );
        assert_eq!(next.prev_result, void_marker(&hctx, Some(Seat::W)));
        let nobody = head().after(Ending::Void { hctx, seat: None });
        assert_ne!(nobody.prev_result, next.prev_result);
        assert_ne!(void_marker(&[6; 32], None), nobody.prev_result);
    }

    #[test]
    fn a_forfeited_deal_counts_passes_left_and_names_the_silent_seat() {
        let hctx = [5; 32];
        let next = head().after(Ending::Forfeited {
            hctx,
            seat: Seat::S,
            scores: [-200, 400],
        });
        assert_eq!(
            next,
            DealHead {
                hand_no: 4,
                dealer: Seat::E,
                totals: [1000, 350],
                prev_result: void_marker(&hctx, Some(Seat::S)),
            }
        );
    }

    #[test]
    fn a_restarted_deal_keeps_its_head_and_totals_never_wrap() {
        assert_eq!(head().after(Ending::Restarted), head());
        assert_eq!(
            add_scores([i32::MAX, i32::MIN], [1, -1]),
            [i32::MAX, i32::MIN]
        );
    }

    /// The marker is the one the table has always chained, so saved games still check.
    #[test]
    fn the_void_marker_is_pinned() {
        let m = void_marker(&[0; 32], None);
        assert_eq!(m, hash256(b"fairdeal/v1/void", &[&[0; 32], &[0xff]]));
        let m = void_marker(&[1; 32], Some(Seat::E));
        assert_eq!(m, hash256(b"fairdeal/v1/void", &[&[1; 32], &[3]]));
    }
}
