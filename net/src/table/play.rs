//! The game proper: each hand started with scores and dealers carried over, hand messages
//! routed to the hand they belong to (or kept until it starts), the hands' output forwarded
//! and their events handled, computer players' moves (with their thinking time), a hand
//! voided or scored, the envelopes held for a seat that asks again, and the move clock.

use fairdeal_core::strategy::by_name;
use fairdeal_core::{GameResult, Move, Refusal, Seat, SeatSet, SplitMix64, game_result};
use fairdeal_crypto::{Envelope, Identity, PublicKey, SignedEnvelope};

use super::msg::{TableConfig, TableMsg};
use super::stage::Agreed;
use super::{
    Dest, MAX_EARLY_PER_SEAT, MAX_HELD, RESYNC_ANSWER_MS, TableError, TableEvent, TableSession,
    derive, pace,
};
use crate::hand::{
    CheckDone, DealHead, Ending, Event as HandEvent, HandConfig, HandReport, HandSession,
    ProofCheck,
};

impl TableSession {
    /// Plays a move for this seat (a person's move; computer players play by themselves).
    ///
    /// # Errors
    ///
    /// The rules' refusal.
    pub fn submit(&mut self, mv: Move) -> Result<(), Refusal> {
        let Some(hand) = &mut self.hand else {
            return Err(Refusal::new(
                fairdeal_core::Code::WrongPhase,
                "no hand is being played",
            ));
        };
        hand.submit(mv)?;
        self.drain_hand();
        self.watch_turn();
        Ok(())
    }

    /// Deals the next hand. A peer that plays every seat (computer players it runs, and its
    /// own) plays a whole hand within the call, and the hand after it is dealt as that one
    /// ends: that deal is made here, in a loop, rather than from inside the one before, so
    /// that a game played all on one peer does not nest a call per hand.
    pub(super) fn start_hand(&mut self) {
        if self.dealing {
            self.deal_again = true;
            return;
        }
        self.dealing = true;
        loop {
            self.deal_again = false;
            self.deal();
            if !self.deal_again {
                break;
            }
        }
        self.dealing = false;
    }

    fn deal(&mut self) {
        // Not while a seat out waits for the computer player its runner announces: dealt
        // now, the hand would wait on a seat nobody plays.
        if self.stage.agreed().is_none_or(|a| a.table.is_none())
            || self.left
            || self.awaiting_replacement.is_some()
        {
            return;
        }
        self.returns_at(self.head.hand_no + 1);
        let Some(Agreed {
            config,
            table: Some(table),
            ..
        }) = self.stage.agreed()
        else {
            return;
        };
        let Some(me) = self.my_seat_index() else {
            return;
        };
        self.head.hand_no += 1;
        self.bot_due = None;
        self.gone = SeatSet::EMPTY;
        self.votes.clear();
        let keep_from = self.head.hand_no.saturating_sub(1);
        self.held.retain(|(h, _, _), _| *h >= keep_from);
        let sid = config.sid();
        let cfg = HandConfig {
            sid,
            keys: self.keys,
            rules: config.rules(),
            head: self.head,
            proofs: config.proofs,
            bots: self.bots.to_array(),
        };
        let table = table.clone();
        self.between = None;
        self.published.clear();
        self.publish(
            None,
            crate::transcript::Entry::Hand {
                head: cfg.head,
                keys: Box::new(cfg.keys),
                bots: Box::new(cfg.bots),
            },
        );
        let hand_no = self.head.hand_no.to_le_bytes();
        let seed = derive(&self.master, b"hand-seed", &[&sid[..], &hand_no].concat());
        let mut hand = HandSession::new(
            cfg.clone(),
            me,
            Identity::from_secret(self.secret),
            seed,
            table.clone(),
        );
        hand.set_offload(self.offload);
        self.hand = Some(hand);
        if self.recent_hctx.len() >= pace::RECENT_HANDS {
            self.recent_hctx.pop_front();
        }
        self.recent_hctx
            .extend(self.hand.as_ref().map(HandSession::hctx));
        for (k, p) in self.proxies.iter_mut().enumerate() {
            let bot_seed = self.bots.get(p.seat).map_or([0; 32], |b| b.seed);
            p.rng = crate::hand::replacement_rng(&bot_seed, self.head.hand_no);
            p.due = None;
            // The first computer player a peer runs derives its hand secret from the table and
            // the hand alone (as a peer with one always has, so that its log replays to the
            // same secrets); each further one adds its seat: no two hands of a peer share one.
            let mut at = [&sid[..], &hand_no].concat();
            if k > 0 {
                at.push(p.seat.number());
            }
            let seed = derive(&self.master, b"proxy-seed", &at);
            let mut hand = HandSession::new(
                cfg.clone(),
                p.seat,
                Identity::from_secret(p.secret),
                seed,
                table.clone(),
            );
            hand.set_offload(self.offload);
            p.hand = Some(hand);
        }
        self.events
            .push_back(TableEvent::HandStarted(self.head.hand_no));
        // Messages that arrived early for this hand.
        let early = std::mem::take(&mut self.early);
        for (seat, bytes) in early {
            let _ = self.on_hand_bytes(seat, &bytes);
        }
        // What this hand did not take belongs to an older hand.
        self.early.clear();
        self.drain_hand();
    }

    /// The hands this peer plays: its own seat's, and those of the computer players it runs.
    pub(super) fn hands_mut(&mut self) -> impl Iterator<Item = &mut HandSession> {
        self.hand
            .iter_mut()
            .chain(self.proxies.iter_mut().filter_map(|p| p.hand.as_mut()))
    }

    /// The hands this peer plays, to read.
    pub(super) fn hands(&self) -> impl Iterator<Item = &HandSession> {
        self.hand
            .iter()
            .chain(self.proxies.iter().filter_map(|p| p.hand.as_ref()))
    }

    /// A hand message from the peer in seat `from`.
    pub(super) fn on_hand_bytes(&mut self, from: usize, bytes: &[u8]) -> Result<(), TableError> {
        // Route by the envelope's hand context (its sid) without trusting it yet.
        let env = SignedEnvelope::from_wire(bytes)?;
        let header: Envelope = fairdeal_crypto::encoding::decode(&env.bytes)?;
        let mut handled = false;
        let mut result = Ok(());
        for hand in self.hands_mut() {
            if header.sid == hand.hctx() {
                handled = true;
                if let Err(e) = hand.handle_message(bytes) {
                    result = Err(e.into());
                }
            }
        }
        if handled && result.is_ok() {
            // Validly signed for this hand: kept, to pass on to a seat that missed it.
            self.hold(self.head.hand_no, header.sender, header.seq, bytes);
            if let Ok(sender) = Seat::try_from(header.sender) {
                self.seen_playing(sender);
            }
        }
        if !handled {
            // Maybe the next hand's (another seat voided or finished this one first): keep it,
            // bounded, until that hand starts; an old hand's message is dropped then.
            if self.early.iter().filter(|(s, _)| *s == from).count() < MAX_EARLY_PER_SEAT {
                self.early.push((from, bytes.to_vec()));
            }
            return Ok(());
        }
        self.drain_hand();
        result
    }

    /// Forwards the hands' output (ours and a computer player's we run, which also reach each
    /// other here), handles events, and lets the computer players move.
    pub(super) fn drain_hand(&mut self) {
        loop {
            let mut progressed = false;
            // Each hand run here (ours, and the computer players' we run) hears the others'
            // messages here, as the other seats hear them over the network.
            let mut sent: Vec<(usize, Vec<u8>)> = Vec::new();
            for (i, h) in self.hands_mut().enumerate() {
                sent.extend(std::iter::from_fn(|| h.poll_transmit()).map(|b| (i, b)));
            }
            for (from, bytes) in &sent {
                for (i, h) in self.hands_mut().enumerate() {
                    if i != *from {
                        let _ = h.handle_message(bytes);
                    }
                }
            }
            for (_, bytes) in sent {
                if let Ok(env) = SignedEnvelope::from_wire(&bytes)
                    && let Ok(header) = fairdeal_crypto::encoding::decode::<Envelope>(&env.bytes)
                {
                    self.hold(self.head.hand_no, header.sender, header.seq, &bytes);
                }
                self.own_recent
                    .push_back((self.head.hand_no, bytes.clone()));
                self.out
                    .push_back((Dest::Seats, TableMsg::Hand { bytes }.encode()));
                progressed = true;
            }
            while self
                .own_recent
                .front()
                .is_some_and(|(h, _)| h + 1 < self.head.hand_no)
            {
                self.own_recent.pop_front();
            }
            let Some(hand) = &mut self.hand else { return };
            let mut complete = None;
            let mut fault = None;
            let mut named = Vec::new();
            while let Some(event) = hand.poll_event() {
                match &event {
                    HandEvent::Complete(report) => complete = Some(report.clone()),
                    // A bug of ours is followed by the audit's verdict (a `Fault`).
                    HandEvent::Fault(blame) => fault = Some((blame.offender, blame.fault)),
                    HandEvent::Named(blame) => named.extend(blame.offender),
                    _ => {}
                }
                self.events.push_back(TableEvent::Hand {
                    hand_no: self.head.hand_no,
                    event,
                });
                progressed = true;
            }
            for p in self.proxies.iter_mut().filter_map(|p| p.hand.as_mut()) {
                while p.poll_event().is_some() {}
            }
            let barring = !named.is_empty();
            for seat in named {
                self.bar(seat);
            }
            if let Some(report) = complete {
                self.finish_hand(report);
                self.put_out_barred();
                return;
            }
            if barring && self.between.is_some() {
                // Named after the hand was scored here: out before the next hand.
                self.put_out_barred();
                return;
            }
            if let Some((offender, why)) = fault {
                self.after_fault(offender, why);
                return;
            }
            let Some(hand) = &mut self.hand else { return };
            let (now, think) = (self.presence.now, self.think_ms);
            if let (Some(bot), true) = (&mut self.bot, hand.my_turn())
                && thought(&mut self.bot_due, now, think)
                && let Some(view) = hand.view()
                && let Some(mv) = bot.choose(&view, &mut self.rng)
                && hand.submit(mv).is_ok()
            {
                progressed = true;
            }
            for p in &mut self.proxies {
                if let Some(h) = p.hand.as_mut()
                    && h.my_turn()
                    && thought(&mut p.due, now, think)
                    && let Some(view) = h.view()
                    && let Some(mv) = p.bot.choose(&view, &mut p.rng)
                    && h.submit(mv).is_ok()
                {
                    progressed = true;
                }
            }
            if !progressed {
                return;
            }
        }
    }

    pub(super) fn finish_hand(&mut self, report: HandReport) {
        self.advance(Ending::Scored {
            scores: report.scores,
            root: report.transcript_root,
        });
        self.reports.push(report);
        let rules = self.stage.config().map(TableConfig::rules);
        let result = rules.map_or(GameResult::Continue, |r| {
            game_result(self.head.totals, r.target, r.tie_rule)
        });
        self.unexplained = 0;
        if result == GameResult::Continue {
            self.between_hands();
        } else {
            self.game_over(result);
        }
    }

    /// The deal under way ended so: the dealer, totals and previous result the next deal
    /// starts from, by the rule the transcript checker holds every header to (the number
    /// moves on when the next deal starts). Called once per deal.
    pub(super) fn advance(&mut self, ending: Ending) {
        // The number moves on when the next deal starts (a deal started again keeps it).
        self.head = DealHead {
            hand_no: self.head.hand_no,
            ..self.head.after(ending)
        };
    }

    /// Computer players (this seat's, and a seat it runs) wait `ms` before each move, so that
    /// a person can follow; 0 (the default) moves at once.
    pub fn set_think_ms(&mut self, ms: u64) {
        self.think_ms = ms;
    }

    /// Hands the proof checks of the other seats' shuffle steps to the caller
    /// ([`Self::poll_check`], [`Self::check_done`]) instead of running them in the session,
    /// so that they can run at a lower priority than the proofs (see
    /// [`HandSession::set_offload`]). Off by default.
    pub fn set_offload(&mut self, on: bool) {
        self.offload = on;
        for hand in self.hands_mut() {
            hand.set_offload(on);
        }
        if !on {
            self.drain_hand();
        }
    }

    /// The next proof check to run, once offloaded: give its result to [`Self::check_done`].
    pub fn poll_check(&mut self) -> Option<ProofCheck> {
        self.hands_mut().find_map(HandSession::poll_check)
    }

    /// Takes the result of a check from [`Self::poll_check`] (one for a hand that is over is
    /// ignored).
    pub fn check_done(&mut self, done: &CheckDone) {
        for hand in self.hands_mut() {
            hand.check_done(done);
        }
        self.drain_hand();
        self.watch_turn();
    }

    /// Keeps a validly signed envelope of hand `hand_no` (bounded) to pass on in a resync.
    pub(super) fn hold(&mut self, hand_no: u32, sender: u8, seq: u32, bytes: &[u8]) {
        if self.held.len() < MAX_HELD {
            self.held
                .entry((hand_no, sender, seq))
                .or_insert_with(|| bytes.to_vec());
        }
        // Into the transcript once per deal (a deal started again has the same slots).
        if let Ok(signed) = SignedEnvelope::from_wire(bytes)
            && self.published.len() < MAX_HELD
            && self.published.insert(signed.hash())
        {
            self.publish(None, crate::transcript::Entry::Envelope { hand_no, signed });
        }
    }

    /// A seat asks for what it lacks of hand `hand_no`: every envelope we hold that it has not
    /// got, whoever signed it (so a message one seat holds reaches every seat).
    pub(super) fn on_resync(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        have: [u32; 4],
    ) -> Result<(), TableError> {
        if self.stage.config().is_none() || !self.keys.contains(&from) || from == self.me.key {
            return Err(TableError::NotSeated);
        }
        if let Some(seat) = self.keys.iter().position(|k| *k == from) {
            self.resync_answered[seat] = Some(self.presence.now);
        }
        if hand_no == 0 {
            // Its game has not started: our acceptance (and the host's configuration) again.
            self.peer_connected(from);
            return Ok(());
        }
        let missing: Vec<Vec<u8>> = self
            .held
            .range((hand_no, 0, 0)..=(hand_no, 3, u32::MAX))
            // INVARIANT: s <= 3: the range's bounds.
            .filter(|((_, s, seq), _)| *seq >= have[usize::from(*s)])
            .map(|(_, b)| b.clone())
            .collect();
        for bytes in missing {
            self.send(Dest::Peer(from), TableMsg::Hand { bytes });
        }
        self.ready_again(from, hand_no);
        // A seat still in a deal of this hand that votes ended here may have missed a vote.
        self.tell_voted_out(hand_no, Dest::Peer(from));
        Ok(())
    }

    /// Whether a resync from `seat` comes too soon after the last one answered: a seat asks
    /// at most every [`super::RESYNC_MS`], and each answer may resend two hands' messages.
    pub(super) fn resync_too_soon(&self, seat: usize) -> bool {
        self.resync_answered
            .get(seat)
            .copied()
            .flatten()
            .is_some_and(|at| self.presence.now < at.saturating_add(RESYNC_ANSWER_MS))
    }

    /// The move clock of the turn being played: whose turn, and how long is left (ms), when
    /// the table has a clock.
    pub fn move_clock(&self) -> Option<(Seat, u64)> {
        let clock = self.stage.config()?.move_clock_ms;
        let ((_, actor), since) = self.turn_clock?;
        (clock > 0).then(|| (actor, (since + clock).saturating_sub(self.presence.now)))
    }

    /// Starts the move clock when a new turn begins (another seat to act), and keeps it
    /// through the several moves of one turn.
    pub(super) fn watch_turn(&mut self) {
        let turn = self.hand.as_ref().and_then(|h| {
            let r = h.replica()?;
            (h.stage() == crate::hand::Stage::Play && !r.is_over())
                .then(|| (self.head.hand_no, r.actor()))
        });
        self.turn_clock = match (turn, self.turn_clock) {
            (None, _) => None,
            (Some(t), Some((k, since))) if k == t => Some((k, since)),
            (Some(t), _) => Some((t, self.presence.now)),
        };
    }

    /// When the move clock of this seat's turn has run out and a person plays it: the move
    /// their client plays for them (the node plays it as the person's own, so that it is
    /// logged like one). Deterministic from the position, so a rebuilt client agrees.
    pub fn timed_out_move(&self) -> Option<Move> {
        if self.bot.is_some() {
            return None;
        }
        let (seat, left) = self.move_clock()?;
        if left > 0 || Some(seat) != self.my_seat_index() {
            return None;
        }
        self.stand_in_move(b"move-clock")
    }

    /// The replacement strategy's move for this seat, when it is this seat's turn: drawn
    /// from a stream of this seat's game secret under `label`, the hand and the turn, so the
    /// same log replays to the same moves.
    pub(super) fn stand_in_move(&self, label: &[u8]) -> Option<Move> {
        let hand = self.hand.as_ref()?;
        if !hand.my_turn() {
            return None;
        }
        let view = hand.view()?;
        let mut strategy = by_name(crate::hand::REPLACEMENT_STRATEGY)?;
        let seed = derive(
            &self.master,
            label,
            &[
                &self.head.hand_no.to_le_bytes()[..],
                &(hand.turn_count() as u64).to_le_bytes(),
            ]
            .concat(),
        );
        let mut first = [0u8; 8];
        first.copy_from_slice(&seed[..8]);
        strategy.choose(&view, &mut SplitMix64::new(u64::from_le_bytes(first)))
    }
}

/// Whether a computer player that wants to move at `now` has thought for `think` ms: the
/// first call starts its thinking time, a later one at or past the deadline lets it move.
pub(super) fn thought(due: &mut Option<u64>, now: u64, think: u64) -> bool {
    if think == 0 {
        return true;
    }
    match *due {
        None => {
            *due = Some(now.saturating_add(think));
            false
        }
        Some(t) if now >= t => {
            *due = None;
            true
        }
        Some(_) => false,
    }
}
