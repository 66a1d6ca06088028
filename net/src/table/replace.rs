//! Seat replacement: a seat out of the game (voted out, left, or named as a cheat) is taken
//! over by a computer player under a fresh identity, run openly by the seat's runner, which
//! announces it with a signed `Replace`; every peer then deals the hand again. A `Replace` that
//! comes before this peer's own verdict waits for it.

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{Seat, SplitMix64};
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{Statement, TableMsg};
use super::{Dest, Gone, ReplaceRefused, TableError, TableEvent, TableSession, derive};
use crate::hand::{Ending, HandSession, REPLACEMENT_STRATEGY, replacement_rng};

/// A computer player this peer runs for a seat whose player left.
pub(crate) struct Proxy {
    pub(crate) seat: Seat,
    pub(crate) secret: [u8; 32],
    pub(crate) bot: Box<dyn Strategy + Send>,
    pub(crate) rng: SplitMix64,
    pub(crate) hand: Option<HandSession>,
    /// When it may move next (its thinking time).
    pub(crate) due: Option<u64>,
}

/// A `Replace` that came before this peer's own verdict.
#[derive(Debug, Clone)]
pub(crate) struct EarlyReplace {
    from: PublicKey,
    hand_no: u32,
    seat: Seat,
    key: PublicKey,
    seed: [u8; 32],
    sig: Sig,
}

impl TableSession {
    /// `seat` is out of this hand: the hand is void and redealt, with a computer player in the
    /// seat.
    pub(crate) fn void_hand(&mut self, seat: Seat, why: Gone) {
        // A hand already scored (the seat left between hands) stands, and the table still
        // waits for the people at it; a hand in play is void.
        if self.between.is_none() {
            self.events.push_back(TableEvent::HandVoided {
                hand_no: self.head.hand_no,
                seat,
                why,
            });
            let hctx = self
                .hand
                .as_ref()
                .map(HandSession::hctx)
                .unwrap_or_default();
            self.advance(Ending::Void {
                hctx,
                seat: Some(seat),
            });
        }
        self.out_with_quitters(seat);
    }

    /// `seat` is out as the hand ends unscored (void, or forfeited), and so are the seats
    /// that quit during it, with the computer players each ran: all out together, so that
    /// the runners are picked for all of them at once (as the transcript check picks them).
    pub(super) fn out_with_quitters(&mut self, seat: Seat) {
        for quit in self.leaving().iter() {
            self.mark_gone(quit);
        }
        self.put_out(seat);
    }

    /// `seat` counts among the seats out, with the computer players its client ran.
    pub(super) fn mark_gone(&mut self, seat: Seat) {
        let out = self.bots.with_run_by([seat].into_iter().collect());
        self.gone = self.gone.union(out);
    }

    /// `seat` is out of the game from now on: the current hand is dropped and a computer
    /// player takes the seat (the runner says so, the others wait for its word). The computer
    /// players `seat`'s client ran go with it: their seats are out too. Each seat out whose
    /// runner, as the seats out now stand, is this peer is taken over here, in seat order;
    /// a seat out waiting for a runner that leaves too is taken by the runner the rule then
    /// picks (so the last person at a table takes every seat the others leave).
    pub(super) fn put_out(&mut self, seat: Seat) {
        let hand_no = self.head.hand_no;
        self.hand = None;
        for p in &mut self.proxies {
            p.hand = None;
        }
        self.presence.reported.clear();
        self.mark_gone(seat);
        let me = self.my_seat_index();
        if Some(seat) == me {
            // We are the one out: nothing more to play (for good when barred; a seat voted
            // out while away may be given back, by the runner worked out here and by nobody
            // else).
            self.left = true;
            self.held_by = self.runner_for(seat);
            if self.barred.contains(seat) {
                self.events.push_back(TableEvent::Stopped {
                    reason: super::StopReason::PutOut,
                });
            }
            return;
        }
        // No hand is dealt until every seat out is taken over.
        self.awaiting_replacement = Some(hand_no);
        for out in self.gone.iter() {
            if me.is_some() && self.runner_for(out) == me {
                self.take_seat(hand_no, out);
            }
        }
        if self.gone.is_empty() {
            self.awaiting_replacement = None;
            if self.between.is_some() {
                self.start_if_ready();
            } else {
                self.start_hand();
            }
        } else {
            self.apply_early_replace();
        }
    }

    /// This peer takes `seat` over with a computer player under a fresh identity, and says so.
    fn take_seat(&mut self, hand_no: u32, seat: Seat) {
        let (Some(sid), Some(me)) = (
            self.stage.config().map(super::msg::TableConfig::sid),
            self.my_seat_index(),
        ) else {
            return;
        };
        let at = [&hand_no.to_le_bytes()[..], &[seat.number()]].concat();
        let secret = derive(&self.master, b"proxy", &at);
        let seed = derive(&self.master, b"proxy-bot", &at);
        let key = Identity::from_secret(secret).public();
        let sig = Statement::Replace {
            hand_no,
            seat,
            key: &key,
            seed: &seed,
        }
        .sign(&Identity::from_secret(self.secret), &sid);
        self.send(
            Dest::Seats,
            TableMsg::Replace {
                hand_no,
                seat,
                key,
                seed,
                sig,
            },
        );
        self.proxies.retain(|p| p.seat != seat);
        self.proxies.push(Proxy {
            seat,
            secret,
            bot: by_name(REPLACEMENT_STRATEGY)
                .unwrap_or_else(|| Box::new(fairdeal_core::strategy::Random)),
            rng: replacement_rng(&seed, hand_no),
            hand: None,
            due: None,
        });
        self.seat_taken(seat, key, seed, me);
    }

    /// Every peer: `seat` is now played by a computer player with identity `key`, run by
    /// `runner`; the hand is dealt again.
    fn seat_taken(&mut self, seat: Seat, key: PublicKey, seed: [u8; 32], runner: Seat) {
        self.keys[seat.index()] = key;
        self.bots.take(seat, runner, seed);
        self.gone.remove(seat);
        self.events
            .push_back(TableEvent::SeatTaken { seat, runner });
        if self.between.is_some() {
            self.start_if_ready();
        } else {
            self.start_hand();
        }
    }

    /// Whether a computer player's taking `seat` over is taken: one decision for the gate
    /// and the handler. Returns the runner's seat and what it does here.
    pub(crate) fn check_replace(
        &self,
        from: &PublicKey,
        hand_no: u32,
        seat: Seat,
        key: &PublicKey,
        seed: &[u8; 32],
        sig: &Sig,
    ) -> Result<(Seat, ReplaceEffect), ReplaceRefused> {
        let sid = self
            .stage
            .config()
            .map(super::msg::TableConfig::sid)
            .ok_or(ReplaceRefused::BeforeStart)?;
        let sender = self
            .seat_of_sender(from)
            .map_err(|_| ReplaceRefused::NotSeated)?;
        if self.left {
            return Err(ReplaceRefused::Away);
        }
        if self.keys[seat.index()] == *key
            && self
                .bots
                .get(seat)
                .is_some_and(|b| b.runner == sender && b.seed == *seed)
        {
            return Err(ReplaceRefused::Again);
        }
        let leaving = self.leaving().contains(seat);
        // The runner put a seat that quit out before the deal this peer started with it
        // (counting it ready, as the runner's to decide): that deal is started again.
        let restart =
            leaving && self.in_play() && hand_no.checked_add(1) == Some(self.head.hand_no);
        if hand_no < self.head.hand_no && !restart {
            return Err(ReplaceRefused::Earlier);
        }
        if hand_no > self.head.hand_no || self.keys.contains(key) {
            return Err(ReplaceRefused::Later);
        }
        if !leaving
            && self
                .awaiting_replacement
                .is_some_and(|h| h != hand_no || !self.gone.contains(seat))
        {
            return Err(ReplaceRefused::OtherSeat);
        }
        if !(Statement::Replace {
            hand_no,
            seat,
            key,
            seed,
        })
        .signed_by(from, &sid, sig)
        {
            return Err(ReplaceRefused::BadSignature);
        }
        // The runner follows from the seating and the quits taken, so it is known before our
        // own verdict; one more quit still to come here can make the sender the runner.
        if self.runner_for(seat) != Some(sender) {
            return if leaving || self.gone.contains(seat) {
                Ok((sender, ReplaceEffect::Early))
            } else {
                Err(ReplaceRefused::NotRunner)
            };
        }
        let effect = if restart {
            ReplaceEffect::Restart
        } else if !self.in_play()
            && (leaving || (self.awaiting_replacement.is_some() && self.gone.contains(seat)))
        {
            ReplaceEffect::Now
        } else {
            ReplaceEffect::Early
        };
        Ok((sender, effect))
    }

    pub(crate) fn on_replace(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        seat: Seat,
        key: PublicKey,
        seed: [u8; 32],
        sig: &Sig,
    ) -> Result<(), TableError> {
        match self.check_replace(&from, hand_no, seat, &key, &seed, sig)? {
            (_, ReplaceEffect::Early) => {
                // Before we voided ourselves, or took the quit that makes its sender the
                // runner: kept (one per seat and sender) until our own observation agrees.
                self.early_replace
                    .retain(|r| r.seat != seat || r.from != from);
                self.early_replace.push(EarlyReplace {
                    from,
                    hand_no,
                    seat,
                    key,
                    seed,
                    sig: sig.clone(),
                });
            }
            (runner, ReplaceEffect::Now) => {
                self.pass_replace(runner, hand_no, seat, key, seed, sig);
                self.gone.remove(seat);
                if self.gone.is_empty() {
                    self.awaiting_replacement = None;
                }
                self.seat_taken(seat, key, seed, runner);
            }
            (runner, ReplaceEffect::Restart) => {
                self.pass_replace(runner, hand_no, seat, key, seed, sig);
                // Dealt here to a seat its runner had put out: dealt again, with the same
                // head, to the computer player.
                self.drop_deal_to_deal_again();
                self.seat_taken(seat, key, seed, runner);
            }
        }
        Ok(())
    }

    /// A runner's replacement taken here goes on to every seat: one told to some seats only
    /// (a deal started again at those, played on at the others) still reaches them all.
    fn pass_replace(
        &mut self,
        runner: Seat,
        hand_no: u32,
        seat: Seat,
        key: PublicKey,
        seed: [u8; 32],
        sig: &Sig,
    ) {
        self.send(
            Dest::Seats,
            TableMsg::ReplacePassed {
                runner,
                hand_no,
                seat,
                key,
                seed,
                sig: sig.clone(),
            },
        );
    }

    /// A runner's replacement passed on by another seat: taken as the runner's own, and
    /// written to the transcript as the runner's signed message.
    pub(crate) fn on_replace_passed(
        &mut self,
        runner: Seat,
        hand_no: u32,
        seat: Seat,
        key: PublicKey,
        seed: [u8; 32],
        sig: &Sig,
    ) -> Result<(), TableError> {
        let from = self.keys[runner.index()];
        self.check_replace(&from, hand_no, seat, &key, &seed, sig)?;
        let at = self.public.len();
        let msg = TableMsg::Replace {
            hand_no,
            seat,
            key,
            seed,
            sig: sig.clone(),
        };
        self.publish_signed(at, from, &msg.encode());
        self.on_replace(from, hand_no, seat, key, seed, sig)
    }

    /// Replacements that arrived before our own void, or before the quit that made their
    /// sender the runner, applied once ours agrees; one refused now is dropped.
    pub(crate) fn apply_early_replace(&mut self) {
        let mut later = Vec::new();
        for r in std::mem::take(&mut self.early_replace) {
            match self.check_replace(&r.from, r.hand_no, r.seat, &r.key, &r.seed, &r.sig) {
                Ok((_, ReplaceEffect::Early)) => later.push(r),
                Ok(_) => {
                    // Those kept so far stay kept while it is handled.
                    self.early_replace.append(&mut later);
                    let _ = self.on_replace(r.from, r.hand_no, r.seat, r.key, r.seed, &r.sig);
                }
                Err(_) => {}
            }
        }
        self.early_replace.append(&mut later);
    }
}

/// What a computer player's taking a seat over does here ([`TableSession::check_replace`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReplaceEffect {
    /// This peer waits for it: the seat is taken over now.
    Now,
    /// This peer has not seen the seat's void yet: kept until its own observation agrees.
    Early,
    /// This peer dealt the hand under way to the seat, which quit, and its runner had put it
    /// out before: the deal is started again with the computer player.
    Restart,
}
