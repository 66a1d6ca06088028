//! Between two hands: the score sheet stays up until every person at the table has said they
//! are ready for the next hand (a signed `Ready`), or a countdown runs out.
//!
//! Seats a computer player holds for a player who left, and seats whose player has been away
//! past the grace period, are ready at once; a seat without
//! [`TableSession::set_wait_for_person`] (a terminal player, a computer player seated from the
//! lobby) says it is ready as soon as the hand is scored, unless it is leaving: the table then
//! waits for its `Quit`, and deals the next hand to the seat's new runner, never to the leaver. The
//! decision to deal the next hand is each peer's own: a replay of the log reaches it again
//! from the logged `Ready` messages, or, when the countdown or an away seat decided it, from
//! the first message of the next hand this peer sent (logged like every message it sends).
//! A `Ready` that may have been lost is asked for again with a `Resync` of the scored hand,
//! which every seat answers with its own `Ready`.

use fairdeal_core::{Seat, SeatMap};
use fairdeal_crypto::{Envelope, Identity, PublicKey, Sig, SignedEnvelope};

use super::msg::{Statement, TableMsg};
use super::presence::{RESYNC_MAX_MS, RESYNC_MS};
use super::{Dest, NotNow, ReadyRefused, TableError, TableSession, Unexpected};

/// How long the score sheet waits for the people at the table before the next hand is dealt
/// anyway (ms).
pub const NEXT_HAND_MS: u64 = 30_000;

/// The hctx of the last few hands started, to tell a resent old envelope from the first of a
/// new hand when a log is replayed.
pub(crate) const RECENT_HANDS: usize = 4;

/// The table between two hands.
#[derive(Debug, Clone)]
pub(crate) struct Between {
    /// The hand just scored.
    pub(crate) hand_no: u32,
    /// When it was scored here (the countdown's start).
    since: u64,
    /// When to ask again for readiness that may have been lost, and the current interval.
    ask: Option<(u64, u64)>,
}

/// What the table waits for between two hands (for the score sheet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextHand {
    /// The hand just scored.
    pub after: u32,
    /// How long until the next hand is dealt anyway (ms; `None`: no countdown).
    pub left_ms: Option<u64>,
    /// The seats whose players have not said they are ready.
    pub waiting: Vec<Seat>,
    /// This seat said it is ready.
    pub ready: bool,
}

impl TableSession {
    /// Whether a person plays this seat and says when they are ready for the next hand
    /// ([`TableSession::ready`]), as the window's "Next hand" does. Off (the default), the
    /// seat is ready as soon as a hand is scored, as at the terminal.
    pub fn set_wait_for_person(&mut self, on: bool) {
        self.wait_for_person = on;
        if !on && !self.replaying && self.between.is_some() {
            self.say_ready();
            self.start_if_ready();
        }
    }

    /// How long the table waits between hands for people who have not said they are ready
    /// (default [`NEXT_HAND_MS`]; `None`: no countdown, the next hand waits for every
    /// person, as at a table where one person plays with computer players, who holds up
    /// nobody by reading the sheet).
    pub fn set_next_hand_ms(&mut self, ms: Option<u64>) {
        self.next_hand_ms = ms;
    }

    /// Between two hands: what the table waits for (`None` while a hand is played).
    pub fn next_hand(&self) -> Option<NextHand> {
        let b = self.between.as_ref()?;
        let me = self.my_seat_index();
        Some(NextHand {
            after: b.hand_no,
            left_ms: self
                .next_hand_ms
                .map(|ms| b.since.saturating_add(ms).saturating_sub(self.presence.now)),
            waiting: Seat::ALL
                .into_iter()
                .filter(|&s| !self.seat_ready(s, b.hand_no))
                .collect(),
            ready: me.is_some_and(|s| self.readies[s] >= b.hand_no),
        })
    }

    /// The person at this seat is ready for the next hand ("Next hand"): the others are told
    /// (signed), and the hand is dealt once every seat is ready.
    ///
    /// # Errors
    ///
    /// No hand was just scored.
    pub fn ready(&mut self) -> Result<(), TableError> {
        if self.between.is_none() {
            return Err(NotNow::NoHandScored.into());
        }
        self.say_ready();
        self.start_if_ready();
        Ok(())
    }

    /// A hand was scored and the game goes on: wait for the table.
    pub(crate) fn between_hands(&mut self) {
        self.between = Some(Between {
            hand_no: self.head.hand_no,
            since: self.presence.now,
            ask: None,
        });
        // Seats that quit during the hand leave now, the hand scored: put out by their
        // runner, whose `Replace` the others wait for.
        self.act_on_quits();
        // Replaying a log, our `Ready` comes from the log (if we said it). A seat leaving
        // after this hand (a computer player too) is not ready for one it will not play: the
        // table waits for its `Quit` instead of dealing to it.
        if !self.replaying
            && self.leave_after.is_none()
            && (self.bot.is_some() || !self.wait_for_person)
        {
            self.say_ready();
        }
        self.start_if_ready();
    }

    /// Says (once) that this seat is ready for the hand after the one just scored.
    fn say_ready(&mut self) {
        let (Some(b), Some(me), Some(config)) =
            (&self.between, self.my_seat_index(), self.stage.config())
        else {
            return;
        };
        let hand_no = b.hand_no;
        if self.readies[me] >= hand_no {
            return;
        }
        self.readies[me] = hand_no;
        let sig = Statement::Ready { hand_no, seat: me }
            .sign(&Identity::from_secret(self.secret), &config.sid());
        let msg = TableMsg::Ready { hand_no, sig };
        self.my_ready = Some((hand_no, msg.encode()));
        self.send(Dest::Seats, msg);
    }

    /// Whether `seat` is ready for the hand after `after`.
    fn seat_ready(&self, seat: Seat, after: u32) -> bool {
        if self.stage.config().is_none() {
            return true;
        }
        self.readies[seat] >= after
            || self.bots.runner(seat).is_some()
            // Its runner decides whether it is dealt in: by dealing, or by its `Replace`,
            // which starts a deal made here with the seat again.
            || (self.leaving().contains(seat) && self.runner_for(seat) != self.my_seat_index())
            || (Some(seat) != self.my_seat_index() && self.absence(seat) >= self.grace_ms)
    }

    /// Deals the next hand if every seat is ready.
    pub(crate) fn start_if_ready(&mut self) {
        let Some(after) = self.between.as_ref().map(|b| b.hand_no) else {
            return;
        };
        if Seat::ALL.into_iter().all(|s| self.seat_ready(s, after)) {
            self.between = None;
            self.start_hand();
        }
    }

    /// The clock moved: the countdown may have run out, an away seat become ready, or it is
    /// time to ask again for the `Ready` of seats not heard from.
    pub(crate) fn pace_tick(&mut self) {
        let now = self.presence.now;
        let Some(b) = self.between.clone() else {
            return;
        };
        if self
            .next_hand_ms
            .is_some_and(|ms| now >= b.since.saturating_add(ms))
        {
            self.between = None;
            self.start_hand();
            return;
        }
        self.start_if_ready();
        if self.between.is_none() {
            return;
        }
        let (at, every) = b
            .ask
            .unwrap_or((b.since.saturating_add(RESYNC_MS), RESYNC_MS));
        let ask = if now < at {
            Some((at, every))
        } else {
            let have = self.hand.as_ref().map(|h| h.have()).unwrap_or_default();
            let hand_no = b.hand_no;
            self.send(Dest::Seats, TableMsg::Resync { hand_no, have });
            let every = (every * 2).min(RESYNC_MAX_MS);
            Some((now.saturating_add(every), every))
        };
        if let Some(between) = &mut self.between {
            between.ask = ask;
        }
    }

    /// When the countdown runs out (for the node's timer).
    pub(crate) fn pace_deadline(&self) -> Option<u64> {
        let ms = self.next_hand_ms?;
        self.between.as_ref().map(|b| b.since.saturating_add(ms))
    }

    /// A seat asked again for hand `hand_no`: our `Ready` for it, if we said it.
    pub(crate) fn ready_again(&mut self, to: PublicKey, hand_no: u32) {
        if let Some((h, bytes)) = &self.my_ready
            && *h == hand_no
        {
            self.out.push_back((Dest::Peer(to), bytes.clone()));
        }
    }

    /// Whether a `Ready` from `from` for `hand_no` is one to take (the gate's and the
    /// handler's check): a seated sender, this hand or the one just scored, new, and signed
    /// by the sender for its own seat.
    pub(crate) fn check_ready(
        &self,
        from: &PublicKey,
        hand_no: u32,
        sig: &Sig,
    ) -> Result<Seat, ReadyRefused> {
        let Some(sid) = self.stage.config().map(super::msg::TableConfig::sid) else {
            return Err(ReadyRefused::BeforeStart);
        };
        let Some(seat) = SeatMap(self.keys).find(|k| k == from && *k != self.me.key) else {
            return Err(ReadyRefused::NotSeated);
        };
        if hand_no == 0 || hand_no > self.head.hand_no {
            return Err(ReadyRefused::Ahead);
        }
        // A forged `Ready` is refused as such, even for a seat that said it already.
        if !(Statement::Ready { hand_no, seat }).signed_by(from, &sid, sig) {
            return Err(ReadyRefused::BadSignature);
        }
        if hand_no < self.head.hand_no || self.readies[seat] >= hand_no {
            return Err(ReadyRefused::Again);
        }
        Ok(seat)
    }

    /// A seat's player is ready for the hand after `hand_no`.
    pub(crate) fn on_ready(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let seat = self
            .check_ready(&from, hand_no, sig)
            .map_err(Unexpected::Ready)?;
        self.readies[seat] = hand_no;
        self.start_if_ready();
        Ok(())
    }

    /// Replaying our own `Ready` from the log.
    pub(crate) fn replay_ready(&mut self, hand_no: u32, bytes: &[u8]) {
        if let Some(me) = self.my_seat_index() {
            let r = &mut self.readies[me];
            *r = (*r).max(hand_no);
            self.my_ready = Some((hand_no, bytes.to_vec()));
            self.start_if_ready();
        }
    }

    /// Replaying a hand message we sent: between hands, the first one of a hand not started
    /// yet means we dealt it (the countdown ran out, or an away seat counted as ready).
    pub(crate) fn replay_hand_sent(&mut self, wire: &[u8]) {
        if self.between.is_none() {
            return;
        }
        let Ok(env) = SignedEnvelope::from_wire(wire) else {
            return;
        };
        let Ok(header) = fairdeal_crypto::encoding::decode::<Envelope>(&env.bytes) else {
            return;
        };
        if !self.recent_hctx.contains(&header.sid) {
            self.between = None;
            self.start_hand();
        }
    }
}
