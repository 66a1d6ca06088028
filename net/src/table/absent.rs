//! Seats that are gone: a seat silent past the grace period (see [`super::presence`]) is voted
//! out by the three others, each from its own observation; a seat that leaves signs a `Quit`;
//! a seat named as a cheat is out at once. The hand is then void (no score) and dealt again
//! with a computer player in the seat, run openly by the seat's partner (else the lowest seat
//! that runs none) under a fresh identity it announces (that replacement is `replace.rs`).

use fairdeal_core::{GameResult, Seat, SeatMap, SeatSet, TeamScore, game_result};
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{Statement, TableConfig, TableMsg};
use super::presence::{Limits, QUIET_MS, RESYNC_MS};
use super::role::Role;
use super::{Dest, Gone, NotNow, TableError, TableEvent, TableSession, TimeoutRefused};
use crate::hand::{Ending, HandSession, Stage};

/// The default grace period before a silent seat's hand is voided.
pub const DEFAULT_GRACE_MS: u64 = 60_000;

/// The shortest grace period: three of the node's pings (one a second), so that a connected
/// peer is always heard from well within it.
pub const MIN_GRACE_MS: u64 = 3_000;

impl TableSession {
    /// Sets the grace period (default one minute; never under [`MIN_GRACE_MS`], so that a
    /// connected peer's pings always arrive within it).
    pub fn set_grace_ms(&mut self, ms: u64) {
        self.grace_ms = ms.max(MIN_GRACE_MS);
    }

    /// The seats this peer runs computer players for.
    pub fn proxy_seats(&self) -> SeatSet {
        self.proxies.iter().map(|p| p.seat).collect()
    }

    /// Test knob (feature `cheats`): the computer player this peer runs for a seat taken over
    /// plays at random instead of by its announced strategy (a runner steering it).
    #[cfg(feature = "cheats")]
    pub fn cheat_steer_proxy(&mut self) {
        for p in &mut self.proxies {
            p.bot = Box::new(fairdeal_core::strategy::Random);
        }
    }

    /// Test knob (feature `cheats`): the computer players this peer runs for seats taken
    /// over never move (a runner holding the hand while its own client answers every ping).
    #[cfg(feature = "cheats")]
    pub fn cheat_stall_proxy(&mut self) {
        /// A strategy that never has a move.
        struct Stall;
        impl fairdeal_core::strategy::Strategy for Stall {
            fn name(&self) -> &str {
                "stall"
            }
            fn choose(
                &mut self,
                _: &fairdeal_core::PlayerView,
                _: &mut fairdeal_core::SplitMix64,
            ) -> Option<fairdeal_core::Move> {
                None
            }
        }
        for p in &mut self.proxies {
            p.bot = Box::new(Stall);
        }
    }

    /// Test knob (feature `cheats`): this peer stops its hand with an audit that claims
    /// nothing (a seat that dislikes its cards).
    #[cfg(feature = "cheats")]
    pub fn cheat_audit_now(&mut self) {
        if let Some(h) = &mut self.hand {
            h.cheat_audit_now();
        }
        self.drain_hand();
    }

    /// Who runs the computer player in each seat that was taken over (by seat).
    pub fn runners(&self) -> [Option<Seat>; 4] {
        self.bots.runners().0
    }

    /// The other seated peers to send to (not this peer, not the seat it runs).
    pub fn peers(&self) -> Vec<PublicKey> {
        let proxy_keys: Vec<PublicKey> = self
            .proxies
            .iter()
            .map(|p| Identity::from_secret(p.secret).public())
            .collect();
        self.keys
            .iter()
            .copied()
            .filter(|k| *k != self.me.key && !proxy_keys.contains(k) && *k != PublicKey([0; 32]))
            .collect()
    }

    /// A sign of life from `peer` (a message, an ack, a ping) at `now_ms`: the node calls this
    /// for everything it hears; a seat that is heard from is never voted out.
    pub fn heard(&mut self, peer: PublicKey, now_ms: u64) {
        let Some(seat) = SeatMap(self.keys).find(|k| *k == peer) else {
            self.notice_return(peer, now_ms);
            return;
        };
        self.tell_again(seat, peer, now_ms);
        self.presence.heard(seat, now_ms);
        for s in self.bots.run_by(seat).iter() {
            self.presence.heard(s, now_ms);
        }
    }

    /// The clock moved to `now_ms` (a monotonic clock, in milliseconds): computer players
    /// whose thinking time is up move; a seat quiet for a while is reported; a standing hand
    /// asks the others for what may be missing; a seat silent past the grace period is voted
    /// out (only from this peer's own observation); chat lines held for the rate go.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        self.presence
            .observe(now_ms, self.head.hand_no, self.hand.as_ref());
        self.send_held_chat();
        self.pace_tick();
        self.drain_hand();
        self.watch_turn();
        self.watch_alone();
        if self.hand.is_none() {
            if !std::mem::take(&mut self.presence.reported).is_empty() {
                self.events.push_back(TableEvent::Resumed);
            }
            self.ask_again(now_ms);
            return;
        }
        let me = self.my_seat_index();
        let proxies = self.proxy_seats();
        let quiet: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&s| Some(s) != me && !proxies.contains(s))
            .filter(|&s| self.presence.awaited(s) && self.absence(s) >= QUIET_MS.min(self.grace_ms))
            .collect();
        if quiet != self.presence.reported {
            self.events.push_back(if quiet.is_empty() {
                TableEvent::Resumed
            } else {
                TableEvent::Paused(quiet.clone())
            });
            self.presence.reported.clone_from(&quiet);
        }
        if self.presence.resync_due()
            && let Some(have) = self.hand.as_ref().map(HandSession::have)
        {
            let hand_no = self.head.hand_no;
            self.send(Dest::Seats, TableMsg::Resync { hand_no, have });
        }
        for s in quiet {
            if self.absence(s) >= self.grace_ms {
                // A computer player's silence is its runner's: the runner's client is the one
                // that holds the hand (putting the runner out takes its computer players with
                // it; putting the computer player alone out would hand it the same runner).
                self.vote_timeout(self.head.hand_no, self.speaks_for(s));
            }
        }
    }

    /// Once the game has started and until it is over: says so (once per stretch) when no
    /// other seat, nor any client running one, has been heard from for [`ALONE_MS`] — the
    /// others left, or finished the game while this peer was away.
    ///
    /// [`ALONE_MS`]: super::presence::ALONE_MS
    fn watch_alone(&mut self) {
        if self.stage.config().is_none() || self.stage.finished().is_some() {
            return;
        }
        let me = self.my_seat_index();
        let others: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&s| Some(s) != me && (me.is_none() || self.bots.runner(s) != me))
            .collect();
        if let Some(ms) = self.presence.alone(&others) {
            self.events.push_back(TableEvent::Alone { secs: ms / 1000 });
        }
    }

    /// What waits are judged by now: the grace period, the seats computer players play (set
    /// up as one in the lobby, or taken over), and when each seat that quit during the hand
    /// did.
    pub(super) fn limits(&self) -> Limits {
        let config_bots = self.stage.config().map_or([false; 4], |c| c.bots);
        // Every seat leaving has its quit's time: the quit was taken to make it so.
        let leaving = self.leaving();
        let quit = SeatMap::from_fn(|s| self.quit_at[s].filter(|_| leaving.contains(s)));
        Limits {
            grace: self.grace_ms,
            automatic: Seat::ALL
                .into_iter()
                .filter(|&s| config_bots[s.index()] || self.bots.runner(s).is_some())
                .collect(),
            quit,
        }
    }

    /// How long `seat` has given no reason to think it is there (see [`Presence::absence`]).
    ///
    /// [`Presence::absence`]: super::presence::Presence::absence
    pub(super) fn absence(&self, seat: Seat) -> u64 {
        self.presence.absence(seat, self.limits())
    }

    /// How long `seat` has been quiet (nothing heard, or an automatic message overdue), for a
    /// banner such as "North lost connection (42 s)".
    pub fn quiet_ms(&self, seat: Seat) -> u64 {
        self.absence(seat)
    }

    /// Votes (once per deal) to void hand `hand_no` for the silent `seat`: signed over the
    /// deal's hand context and sent. Called by [`TableSession::handle_timeout`], and when a
    /// log is replayed.
    pub fn vote_timeout(&mut self, hand_no: u32, seat: Seat) {
        let (Some(sid), Some(hctx)) = (
            self.stage.config().map(TableConfig::sid),
            self.hand.as_ref().map(HandSession::hctx),
        ) else {
            return;
        };
        if hand_no != self.head.hand_no || !self.votes.sign_once(hctx, seat) {
            return;
        }
        let sig = Statement::Timeout {
            hand_no,
            hctx: &hctx,
            seat,
        }
        .sign(&Identity::from_secret(self.secret), &sid);
        self.send(
            Dest::Seats,
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                sig: sig.clone(),
            },
        );
        let my_key = self.me.key;
        let _ = self.on_timeout(my_key, hand_no, hctx, seat, &sig);
    }

    pub(crate) fn my_seat_index(&self) -> Option<Seat> {
        SeatMap(self.keys).find(|k| *k == self.me.key)
    }

    /// The seat of the sender `from` (its own seat, never one it runs a computer player for).
    pub(super) fn seat_of_sender(&self, from: &PublicKey) -> Result<Seat, TableError> {
        SeatMap(self.keys)
            .find(|k| k == from)
            .ok_or(TableError::NotSeated)
    }

    /// Whether a timeout vote is taken: one decision for the gate and the handler. Returns
    /// the voter's seat.
    pub(crate) fn check_timeout(
        &self,
        from: &PublicKey,
        hand_no: u32,
        hctx: &[u8; 32],
        seat: Seat,
        sig: &Sig,
    ) -> Result<Seat, TimeoutRefused> {
        let sid = self
            .stage
            .config()
            .map(TableConfig::sid)
            .ok_or(TimeoutRefused::BeforeStart)?;
        let voter = self
            .seat_of_sender(from)
            .map_err(|_| TimeoutRefused::NotSeated)?;
        // The deal first: a vote of a deal just ended can name a seat its voter's client has
        // taken over since, a leftover, not a vote against itself.
        if hand_no != self.head.hand_no || self.hand.as_ref().map(HandSession::hctx) != Some(*hctx)
        {
            return Err(TimeoutRefused::OtherHand);
        }
        if self.speaks_for(voter) == self.speaks_for(seat) {
            return Err(TimeoutRefused::OwnSeat);
        }
        if !(Statement::Timeout {
            hand_no,
            hctx,
            seat,
        })
        .signed_by(from, &sid, sig)
        {
            return Err(TimeoutRefused::BadSignature);
        }
        if self.votes.covered(hctx, seat).contains(voter) {
            return Err(TimeoutRefused::Again);
        }
        Ok(voter)
    }

    pub(crate) fn on_timeout(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        hctx: [u8; 32],
        seat: Seat,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let voter = self.check_timeout(&from, hand_no, &hctx, seat, sig)?;
        self.count_vote(hand_no, hctx, seat, voter, sig);
        Ok(())
    }

    /// Counts `voter`'s vote (checked) against `seat` in the deal `hctx`; once every client
    /// but the seat's own has voted, the seat is out.
    pub(super) fn count_vote(
        &mut self,
        hand_no: u32,
        hctx: [u8; 32],
        seat: Seat,
        voter: Seat,
        sig: &Sig,
    ) {
        // A computer player's runner votes for it too: it hears what its runner hears.
        let mut one = SeatSet::EMPTY;
        one.insert(voter);
        let runs = self.bots.vote_cover(one);
        let covered = self
            .votes
            .count(hctx, seat, voter, sig.clone(), runs.iter());
        self.conclude_votes(hand_no, hctx, seat, covered);
    }

    /// Puts `seat` out of the deal `hctx` if the votes against it (speaking for `covered`)
    /// are enough.
    pub(super) fn conclude_votes(
        &mut self,
        hand_no: u32,
        hctx: [u8; 32],
        seat: Seat,
        covered: SeatSet,
    ) {
        // Every client but the silent seat's own must vote: a computer player's vote comes
        // from its runner, so a silent runner and the computer player it runs are voted out
        // by the others alone.
        if self.all_voted(seat, covered) && self.hand.is_some() {
            self.out_proof[seat] = Some(super::held::OutProof {
                hand_no,
                hctx,
                votes: self.votes.signatures(&hctx, seat),
            });
            // Every seat gets the whole count: one that missed a vote ends the deal too.
            self.tell_voted_out(hand_no, Dest::Seats);
            match self.forfeit_scores(seat) {
                Some((scores, breakdown)) => self.forfeit_hand(seat, scores, breakdown),
                // A seat that signed its quit left: said as such, though its silence
                // since is what the votes count.
                None if self.leaving().contains(seat) => self.void_hand(seat, Gone::Left),
                None => self.void_hand(seat, Gone::Silent),
            }
        }
    }

    /// Whether the seats in `covered` are every seat but `seat`'s own client's, those of
    /// the clients that quit aside (they take no part any more, so a seat silent in the same
    /// hand as one that quit is still voted out): enough votes to put `seat` out. At least
    /// one vote must be counted.
    pub(super) fn all_voted(&self, seat: Seat, covered: SeatSet) -> bool {
        !covered.is_empty() && self.bots.voted_out(seat, covered.union(self.leaving()))
    }

    /// The seat whose client speaks for `seat` (its votes and messages): its runner's for a computer player that took
    /// it over, else its own.
    pub(super) fn speaks_for(&self, seat: Seat) -> Seat {
        self.bots.client(seat)
    }

    /// The scores of a hand that is over when `seat` withholds what is left to send: after
    /// the audit, the audited scores; before it (a seed withheld), the forfeit rule of
    /// [`fairdeal_core::Position::forfeit_scores`]. `None` while the hand is still played.
    fn forfeit_scores(&self, seat: Seat) -> Option<([i32; 2], Option<[TeamScore; 2]>)> {
        let hand = self.hand.as_ref()?;
        match hand.stage() {
            Stage::Result => hand.audited().map(|s| (s, None)),
            Stage::Reveal => {
                let team = seat.team();
                let b = hand.replica()?.forfeit_scores(team);
                Some(([b[0].total(), b[1].total()], Some(b)))
            }
            _ => None,
        }
    }

    /// The hand is over and `seat` stayed silent instead of finishing it: it counts with the
    /// forfeit scores, and a computer player takes the seat for the next hand.
    pub(super) fn forfeit_hand(
        &mut self,
        seat: Seat,
        scores: [i32; 2],
        breakdown: Option<[TeamScore; 2]>,
    ) {
        let hand_no = self.head.hand_no;
        let hctx = self
            .hand
            .as_ref()
            .map(HandSession::hctx)
            .unwrap_or_default();
        self.advance(Ending::Forfeited { hctx, seat, scores });
        self.events.push_back(TableEvent::HandForfeited {
            hand_no,
            seat,
            scores,
            breakdown,
        });
        let result = self.stage.config().map_or(GameResult::Continue, |c| {
            let r = c.rules();
            game_result(self.head.totals, r.target, r.tie_rule)
        });
        if result != GameResult::Continue {
            self.hand = None;
            self.game_over(result);
            return;
        }
        self.out_with_quitters(seat);
    }

    /// A seated player leaves during the game (signed): the hand is void at once and a
    /// computer player takes the seat; this peer stops once its `Quit` is out.
    ///
    /// # Errors
    ///
    /// The game has not started (use [`TableSession::leave`]) or is over.
    pub fn quit(&mut self) -> Result<(), TableError> {
        let (Some(sid), Some(seat)) = (
            self.stage.config().map(TableConfig::sid),
            self.my_seat_index(),
        ) else {
            return Err(NotNow::NotStarted.into());
        };
        if self.stage.finished().is_some() {
            return Err(NotNow::GameOver.into());
        }
        let hand_no = self.head.hand_no;
        let sig = Statement::Quit { hand_no, seat }.sign(&Identity::from_secret(self.secret), &sid);
        self.send(Dest::Seats, TableMsg::Quit { hand_no, sig });
        // Out as the others put it out: with the computer players it ran, which it runs no
        // more (back at the table, it takes them from no one and refuses no one's return of
        // them).
        self.mark_gone(seat);
        self.proxies.clear();
        self.held_by = self.runner_for(seat);
        self.left = true;
        self.hand = None;
        self.between = None;
        Ok(())
    }

    /// Whether this peer left the game (its seat is played by a computer player now).
    pub fn has_left(&self) -> bool {
        self.left
    }
}

impl TableSession {
    /// Before the first hand: a join or an acceptance that may have been lost is asked for
    /// again every [`RESYNC_MS`] (a joiner not seated yet sends its `Join` again; a peer whose
    /// game has not started asks the seats to send their acceptances again).
    fn ask_again(&mut self, now_ms: u64) {
        if self.left || self.stage.finished().is_some() || self.head.hand_no > 0 {
            return;
        }
        if self
            .last_ask
            .is_some_and(|t| now_ms < t.saturating_add(RESYNC_MS))
        {
            return;
        }
        self.last_ask = Some(now_ms);
        if self.stage.config().is_some() {
            self.send(
                Dest::Seats,
                TableMsg::Resync {
                    hand_no: 0,
                    have: [0; 4],
                },
            );
        } else if let Role::Joiner {
            host: Some(host), ..
        } = self.role
            && self.seat().is_none()
        {
            self.join(host);
        }
    }
}
