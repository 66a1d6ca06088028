//! The timeout votes of the deal under way: who voted against which seat, with the
//! signatures (the evidence a held seat's player is shown), and which votes this peer signed.
//! Keyed by the deal's hand context and cleared at each deal, so that observations of
//! different deals never add up against a seat.

use std::collections::{BTreeMap, BTreeSet};

use fairdeal_core::{Seat, SeatSet};
use fairdeal_crypto::Sig;

/// The votes against one seat in one deal.
#[derive(Debug, Clone, Default)]
struct Against {
    /// The seats the votes speak for: each voter, and the computer players it runs.
    covered: SeatSet,
    /// Each voter's signature.
    sigs: BTreeMap<Seat, Sig>,
}

/// The current deal's timeout votes.
#[derive(Debug, Clone, Default)]
pub(super) struct Votes {
    /// By (hand context, silent seat).
    against: BTreeMap<([u8; 32], Seat), Against>,
    /// The votes this peer signed, by (hand context, silent seat).
    mine: BTreeSet<([u8; 32], Seat)>,
}

impl Votes {
    /// A new deal: nothing voted.
    pub(super) fn clear(&mut self) {
        *self = Self::default();
    }

    /// This peer is to sign a vote against `seat` in the deal `hctx`: true the first time
    /// only (a peer votes once per seat and deal).
    pub(super) fn sign_once(&mut self, hctx: [u8; 32], seat: Seat) -> bool {
        self.mine.insert((hctx, seat))
    }

    /// The seats the votes against `seat` in the deal `hctx` speak for.
    pub(super) fn covered(&self, hctx: &[u8; 32], seat: Seat) -> SeatSet {
        self.against
            .get(&(*hctx, seat))
            .map(|a| a.covered)
            .unwrap_or_default()
    }

    /// Counts `voter`'s checked vote `sig` against `seat` in the deal `hctx`; it speaks for
    /// `voter` and for the seats in `runs` (the computer players it runs). Returns the seats
    /// the votes now speak for.
    pub(super) fn count(
        &mut self,
        hctx: [u8; 32],
        seat: Seat,
        voter: Seat,
        sig: Sig,
        runs: impl IntoIterator<Item = Seat>,
    ) -> SeatSet {
        let a = self.against.entry((hctx, seat)).or_default();
        a.sigs.insert(voter, sig);
        a.covered.insert(voter);
        for s in runs {
            a.covered.insert(s);
        }
        a.covered
    }

    /// The signed votes against `seat` in the deal `hctx`, by voter.
    pub(super) fn signatures(&self, hctx: &[u8; 32], seat: Seat) -> Vec<(Seat, Sig)> {
        self.against
            .get(&(*hctx, seat))
            .map(|a| a.sigs.iter().map(|(s, g)| (*s, g.clone())).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(b: u8) -> Sig {
        Sig(vec![b; 64])
    }

    /// Votes count per deal and seat: a vote in one deal is nothing against the same seat in
    /// another, a voter's runs are covered with it, and a new deal forgets them all.
    #[test]
    fn votes_add_up_only_within_one_deal_and_seat() {
        let mut v = Votes::default();
        let (a, b) = ([1; 32], [2; 32]);
        let covered = v.count(a, Seat::E, Seat::S, sig(1), [Seat::W]);
        assert!(covered.contains(Seat::S) && covered.contains(Seat::W));
        assert!(!covered.contains(Seat::N) && !covered.contains(Seat::E));
        assert_eq!(v.covered(&b, Seat::E), SeatSet::EMPTY);
        assert_eq!(v.covered(&a, Seat::N), SeatSet::EMPTY);
        // The runner's computer player is covered, but signed nothing.
        assert_eq!(v.signatures(&a, Seat::E), vec![(Seat::S, sig(1))]);
        let covered = v.count(a, Seat::E, Seat::N, sig(2), []);
        assert_eq!(covered.len(), 3);
        assert_eq!(
            v.signatures(&a, Seat::E),
            vec![(Seat::S, sig(1)), (Seat::N, sig(2))]
        );
        v.clear();
        assert_eq!(v.covered(&a, Seat::E), SeatSet::EMPTY);
        assert!(v.signatures(&a, Seat::E).is_empty());
    }

    /// This peer signs one vote per seat and deal, again after a new deal.
    #[test]
    fn a_peer_signs_once_per_seat_and_deal() {
        let mut v = Votes::default();
        assert!(v.sign_once([1; 32], Seat::E));
        assert!(!v.sign_once([1; 32], Seat::E));
        assert!(v.sign_once([1; 32], Seat::N));
        assert!(v.sign_once([2; 32], Seat::E));
        v.clear();
        assert!(v.sign_once([1; 32], Seat::E));
    }
}
