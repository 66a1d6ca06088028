//! What the table does with a hand's verdict: a seat proven at fault is out for the rest of
//! the game (barred: a computer player keeps its seat); the hand is dealt again, or, once its
//! scores were audited, counts with them; a hand void with nobody to name is dealt again a
//! few times, then the table stops and says why (it never stops in silence).

use fairdeal_core::Seat;
use fairdeal_crypto::Fault;

use super::{Gone, MAX_UNEXPLAINED_VOIDS, StopReason, TableEvent, TableSession};
use crate::hand::{Ending, HandSession};

impl TableSession {
    /// A hand stopped on a fault: the table goes on. The offender's seat goes to a computer
    /// player for the rest of the game. A stop that proved nothing after every seed was in
    /// leaves the audited scores standing: the hand counts as scored (every honest seat
    /// replayed the same evidence to the same scores). Any other fault voids the hand, which
    /// is dealt again. When no seat can be named the hand is simply dealt again, up to
    /// [`MAX_UNEXPLAINED_VOIDS`] times in a row; then the table stops and says so.
    pub(super) fn after_fault(&mut self, offender: Option<Seat>, fault: Fault) {
        match offender {
            Some(seat) => {
                self.unexplained = 0;
                self.bar(seat);
                let scored = (fault == Fault::UnfoundedAudit)
                    .then(|| self.hand.as_ref().and_then(HandSession::audited_report))
                    .flatten();
                match scored {
                    Some(report) => {
                        self.events.push_back(TableEvent::HandForfeited {
                            hand_no: self.head.hand_no,
                            seat,
                            scores: report.scores,
                            breakdown: None,
                        });
                        self.finish_hand(report);
                        self.put_out_barred();
                    }
                    None => self.void_hand(seat, Gone::Cheated),
                }
            }
            None => {
                self.unexplained += 1;
                let hctx = self.hand.take().map(|h| h.hctx()).unwrap_or_default();
                self.advance(Ending::Void { hctx, seat: None });
                if self.unexplained > MAX_UNEXPLAINED_VOIDS {
                    self.stop(StopReason::UnexplainedVoids {
                        hands: self.unexplained,
                    });
                } else if !self.act_on_quits() {
                    // Seats that quit during the hand leave with it, put out by their
                    // runner (the next deal, if dealt to them first, is dealt again).
                    self.start_hand();
                }
            }
        }
    }

    /// The table stops before the end of the game: the last event says why.
    pub(super) fn stop(&mut self, reason: StopReason) {
        self.hand = None;
        self.left = true;
        self.events.push_back(TableEvent::Stopped { reason });
    }

    /// `seat` is proven at fault: it is out for the rest of the game (said once).
    pub(super) fn bar(&mut self, seat: Seat) {
        if self.barred.insert(seat) {
            self.events.push_back(TableEvent::SeatBarred { seat });
        }
    }

    /// Between hands: a barred seat its player still plays is put out (a computer player
    /// takes it before the next hand; the hand just scored stands).
    pub(super) fn put_out_barred(&mut self) {
        if self.between.is_none() || self.awaiting_replacement.is_some() {
            return;
        }
        let seated = self
            .barred
            .iter()
            .find(|&s| self.bots.runner(s).is_none() && !self.gone.contains(s));
        if let Some(seat) = seated {
            self.put_out(seat);
        }
    }
}
