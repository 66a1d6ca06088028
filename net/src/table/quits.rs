//! A seat's signed quit: taken from the seat or passed on by another, passed on once to every
//! seat, and acted on by the seat's runner alone.
//!
//! A quit reaches the seats in whatever order its sender chose: some may have dealt the next
//! hand to the seat already (they took its `Ready` first), others not. Acted on where it
//! lands, it splits the table. So one seat decides: the one that runs the computer player
//! taking the seat over (the rule every peer computes alike, [`TableSession::runner_for`]). It
//! puts the seat out as soon as no hand is played there, and its signed `Replace` tells the
//! others. The others hold the quit: between hands they count the seat as ready (the runner
//! decides whether it is dealt in), and a deal they started with it is started again with the
//! computer player when the `Replace` comes; that deal cannot have got past its start, as the
//! runner never deals to a seat it put out. While a hand is played, whatever the seat still
//! owes is due from its quit at every seat that holds it, and the grace period after it votes
//! the seat out as it would any silence (`presence::Limits::quit`).

use fairdeal_core::{Seat, SeatMap, SeatSet};
use fairdeal_crypto::{PublicKey, Sig};

use super::msg::{Statement, TableMsg};
use super::{Dest, QuitRefused, TableError, TableSession};
use crate::hand::HandSession;

/// Whether a quit naming `hand_no` is one the table takes where `now` is the deal under
/// way (or the last one started) and `next_dealt` says that deal is being played: the hand
/// under way, or the one just scored once the next is dealt (the quitter's `Ready` came
/// first). The one window of the live check and of the transcript check.
pub(crate) fn quit_names_its_hand(hand_no: u32, now: u32, next_dealt: bool) -> bool {
    hand_no != 0 && (hand_no == now || (next_dealt && hand_no.checked_add(1) == Some(now)))
}

impl TableSession {
    /// The seats leaving: those whose quit stands (signed by the player who plays the seat
    /// now, who has not been given it back since, and not taken over yet; this peer's own
    /// seat is never among them: it knows whether it left), and the computer players their
    /// clients run, which go with them.
    pub(crate) fn leaving(&self) -> SeatSet {
        let me = self.my_seat_index();
        let quit = SeatMap(Seat::ALL.map(|s| {
            self.signed_quits[s]
                .as_ref()
                .filter(|_| Some(s) != me)
                .map(|(h, _)| *h)
        }));
        self.bots.leaving(&quit, &self.back_at)
    }

    /// The key of `seat`'s player (the configuration's), which signs its quit.
    pub(crate) fn player_key(&self, seat: Seat) -> PublicKey {
        self.original(seat).unwrap_or(self.keys[seat.index()])
    }

    /// Whether a hand is being played here (dealt, and not yet scored or dropped).
    pub(super) fn in_play(&self) -> bool {
        self.hand.is_some() && self.between.is_none()
    }

    /// Whether a quit signed by `signer` is taken: one decision for the gate and the handler.
    /// A quit names the hand under way, or the one just scored when this peer has dealt the
    /// next already (the quitter's `Ready` came first here). Returns the quitting seat.
    pub(crate) fn check_quit(
        &self,
        signer: &PublicKey,
        hand_no: u32,
        sig: &Sig,
    ) -> Result<Seat, QuitRefused> {
        let config = self.stage.config().ok_or(QuitRefused::BeforeStart)?;
        let sid = config.sid();
        let seat = match self.seat_of_sender(signer) {
            Ok(seat) => seat,
            // The quit of a player whose seat is taken over already (passed on late).
            Err(_) if config.seat_of(signer).is_some() => return Err(QuitRefused::Gone),
            Err(_) => return Err(QuitRefused::NotSeated),
        };
        if Some(seat) == self.my_seat_index() {
            return Err(QuitRefused::Own);
        }
        if !quit_names_its_hand(hand_no, self.head.hand_no, self.in_play())
            || hand_no < self.back_at[seat]
        {
            return Err(QuitRefused::OtherHand);
        }
        if !(Statement::Quit { hand_no, seat }).signed_by(signer, &sid, sig) {
            return Err(QuitRefused::BadSignature);
        }
        if self.signed_quits[seat]
            .as_ref()
            .is_some_and(|(h, _)| *h >= hand_no)
        {
            return Err(QuitRefused::Again);
        }
        Ok(seat)
    }

    /// A seat quit (its own message, `from` its key).
    pub(crate) fn on_quit(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let seat = self.check_quit(&from, hand_no, sig)?;
        self.take_quit(seat, hand_no, sig);
        Ok(())
    }

    /// A seat's quit passed on by another seat: taken as the quitter's own, and written to
    /// the transcript as the quitter's signed message.
    pub(crate) fn on_quit_passed(
        &mut self,
        seat: Seat,
        hand_no: u32,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let signer = self.player_key(seat);
        self.check_quit(&signer, hand_no, sig)?;
        let at = self.public.len();
        let msg = TableMsg::Quit {
            hand_no,
            sig: sig.clone(),
        };
        self.publish_signed(at, signer, &msg.encode());
        self.take_quit(seat, hand_no, sig);
        Ok(())
    }

    fn take_quit(&mut self, seat: Seat, hand_no: u32, sig: &Sig) {
        self.quit_at[seat] = Some(self.presence.now);
        self.signed_quits[seat] = Some((hand_no, sig.clone()));
        self.send(
            Dest::Seats,
            TableMsg::QuitPassed {
                seat,
                hand_no,
                sig: sig.clone(),
            },
        );
        // A computer player's `Replace` for the seat may have come first.
        self.apply_early_replace();
        // The votes against another seat in this deal may now be enough: the seat that quit
        // takes no part in them.
        if let Some(hctx) = self
            .in_play()
            .then(|| self.hand.as_ref().map(HandSession::hctx))
            .flatten()
        {
            for s in Seat::ALL {
                let covered = self.votes.covered(&hctx, s);
                if self.in_play() {
                    self.conclude_votes(self.head.hand_no, hctx, s, covered);
                }
            }
        }
        if !self.in_play() && !self.act_on_quits() && self.between.is_some() {
            self.start_if_ready();
        }
    }

    /// No hand is played here: the seats leaving whose runner this peer is are put out now,
    /// and taken over. Returns whether any was.
    pub(super) fn act_on_quits(&mut self) -> bool {
        if self.left || self.in_play() {
            return false;
        }
        let me = self.my_seat_index();
        let mine: Vec<Seat> = self
            .leaving()
            .iter()
            .filter(|&s| me.is_some() && self.runner_for(s) == me)
            .collect();
        let Some(&first) = mine.first() else {
            return false;
        };
        for &s in &mine {
            self.mark_gone(s);
        }
        self.put_out(first);
        true
    }

    /// Who runs a computer player for `seat`: its partner if a player plays it, else the
    /// lowest seat a player plays (the one rule of [`Takeovers::runner_for`]), counting the
    /// seats out and those leaving as played by nobody.
    ///
    /// [`Takeovers::runner_for`]: crate::hand::Takeovers::runner_for
    pub(crate) fn runner_for(&self, seat: Seat) -> Option<Seat> {
        self.bots.runner_for(seat, self.gone.union(self.leaving()))
    }
}
