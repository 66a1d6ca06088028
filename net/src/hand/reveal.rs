//! The last stages: [`Revealing`] waits for the four seeds (then the audit of the finished
//! hand, in `replay.rs`, gives the scores from the true hands), and [`Signing`] waits for the
//! four signed results, which must all name this seat's transcript root and scores.

use fairdeal_core::TeamScore;
use fairdeal_crypto::Body;

use super::board::Board;
use super::cards::Deck;
use super::{Awaiting, Ctx, HandReport};

/// Waiting for the four seeds.
pub(super) struct Revealing {
    /// The deck as dealt and opened (its commitments and steps, the faces and declarations).
    pub(super) deck: Deck,
    /// The position as played.
    board: Board,
    seeds: [Option<[u8; 32]>; 4],
    /// Whose seed came by its reveal (not by an audit).
    revealed: [bool; 4],
}

impl Revealing {
    /// The reveal after the play of `board` from `deck`.
    pub(super) fn new(deck: Deck, board: Board) -> Self {
        Self {
            deck,
            board,
            seeds: [None; 4],
            revealed: [false; 4],
        }
    }

    /// The position as played.
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// What it expects of `s`.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.seeds[usize::from(s)]
            .is_none()
            .then_some(Awaiting::Reveal)
    }

    /// Takes `s`'s seed.
    pub(super) fn take_seed(&mut self, s: u8, seed: [u8; 32]) {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.seeds[usize::from(s)] = Some(seed);
        self.revealed[usize::from(s)] = true;
    }

    /// Whether `s` revealed its seed (it saw the play to its end).
    pub(super) fn revealed(&self, s: u8) -> bool {
        self.revealed.get(usize::from(s)).copied().unwrap_or(false)
    }

    /// Takes `s`'s seed from its audit, unless its reveal gave one already (an audit reveals
    /// the seed too, so the end of a hand is audited whoever stopped it).
    pub(super) fn seed_from_audit(&mut self, s: usize, seed: [u8; 32]) {
        if let Some(slot @ None) = self.seeds.get_mut(s) {
            *slot = Some(seed);
        }
    }

    /// The four seeds, once all are in.
    pub(super) fn seeds(&self) -> Option<[[u8; 32]; 4]> {
        let [Some(a), Some(b), Some(c), Some(d)] = self.seeds else {
            return None;
        };
        Some([a, b, c, d])
    }

    /// Whether every seed is in.
    pub(super) fn all_seeds(&self) -> bool {
        self.seeds.iter().all(Option::is_some)
    }

    /// The results stage, with this seat's root and scores from the audit.
    pub(super) fn into_signing(
        self,
        mine: ([u8; 32], [i32; 2]),
        breakdown: [TeamScore; 2],
    ) -> Signing {
        Signing {
            board: self.board,
            mine,
            results: [None; 4],
            breakdown,
            openings_checked: self.deck.openings_checked(),
        }
    }
}

/// Audited; waiting for the four signed results (and, once they are in, the hand is done,
/// with the audited scores: a seat whose result is not the audited one is named for it).
pub(super) struct Signing {
    board: Board,
    /// This seat's transcript root and scores.
    mine: ([u8; 32], [i32; 2]),
    results: [Option<([u8; 32], [i32; 2])>; 4],
    breakdown: [TeamScore; 2],
    openings_checked: usize,
}

impl Signing {
    /// The position as played.
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// The audited scores.
    pub(super) fn scores(&self) -> [i32; 2] {
        self.mine.1
    }

    /// How many results are in.
    pub(super) fn results_in(&self) -> usize {
        self.results.iter().flatten().count()
    }

    /// What it expects of `s`.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.results[usize::from(s)]
            .is_none()
            .then_some(Awaiting::Result)
    }

    /// Whether `s`'s signed result is in.
    pub(super) fn has_result_of(&self, s: u8) -> bool {
        self.results
            .get(usize::from(s))
            .is_some_and(Option::is_some)
    }

    /// Takes `s`'s signed result: whether it is the audited one. Once the scores are
    /// audited nothing undoes them: a result that is not this seat's is its signer's fault,
    /// never a reason to stop the hand.
    pub(super) fn take_result(&mut self, s: u8, root: [u8; 32], scores: [i32; 2]) -> bool {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.results[usize::from(s)] = Some((root, scores));
        (root, scores) == self.mine
    }

    /// Counts `s`'s result slot as filled without a result it signed (it stopped the hand
    /// for nothing after the play; the audited scores stand without its signature).
    pub(super) fn count_out(&mut self, s: u8) {
        if let Some(slot @ None) = self.results.get_mut(usize::from(s)) {
            *slot = Some(([0; 32], [0, 0]));
        }
    }

    /// The report, once every seat's result is in.
    pub(super) fn report(&self) -> Option<HandReport> {
        if self.results.iter().any(Option::is_none) {
            return None;
        }
        Some(self.audited_report())
    }

    /// The report of the audited scores, whatever results are in.
    pub(super) fn audited_report(&self) -> HandReport {
        HandReport {
            scores: self.mine.1,
            shuffles_checked: 4,
            openings_checked: self.openings_checked,
            transcript_root: self.mine.0,
            breakdown: self.breakdown,
        }
    }

    /// This seat's signed result.
    pub(super) fn my_result(&self, ctx: &Ctx) -> Body {
        Body::HandResult {
            hctx: ctx.hctx,
            transcript_root: self.mine.0,
            scores: self.mine.1,
        }
    }
}
