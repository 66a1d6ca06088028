//! A player comes back to a seat a computer player took over (they left, crashed past the
//! grace period, or were voted out while away): the runner of that computer player tells them
//! so (`SeatHeld`, in `held.rs`), and at the start of the next hand hands the seat back with a
//! signed `Return` carrying the table's state, which every peer applies at that hand.

use fairdeal_core::{GameResult, Seat, SeatSet, game_result};
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{ReturnState, Statement, TableConfig, TableMsg};
use super::{Dest, OverRefused, ReturnRefused, TableError, TableEvent, TableSession};
use crate::hand::{DealHead, Takeovers};

/// What a seat given back does here ([`TableSession::check_return`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReturnEffect {
    /// This peer's own seat: it takes the table's state and plays from that hand on.
    Mine,
    /// For a hand not started here yet: kept, applied when it starts.
    Later,
    /// For the hand under way: started again with the player.
    Restart,
    /// For a hand already played here: nothing to do.
    Past,
}

impl TableSession {
    /// The original identity of `seat` (as the configuration seated it).
    pub(super) fn original(&self, seat: Seat) -> Option<PublicKey> {
        self.stage.config().map(|c| c.seats[seat.index()])
    }

    /// The runner: at the start of a hand, seats whose players are back are given back.
    /// Returns whether any was (the hand then starts with their keys).
    pub(crate) fn give_back(&mut self, hand_no: u32) -> bool {
        let (Some(sid), Some(me)) = (
            self.stage.config().map(TableConfig::sid),
            self.my_seat_index(),
        ) else {
            return false;
        };
        // Every seat given back at this hand first, then one `Return` each, all with the
        // table as the hand starts: a returning player takes its own `Return`'s state whole,
        // and may hear the others' before it (each goes its own way), while it still thinks
        // its runner holds them; with a state that gives back only its own seat it would
        // deal the hand under other keys than everyone else, and the table would wait.
        let seats: Vec<(Seat, PublicKey)> = std::mem::take(&mut self.returning)
            .iter()
            .filter(|&seat| self.bots.runner(seat) == Some(me))
            .filter_map(|seat| Some((seat, self.original(seat)?)))
            .collect();
        for &(seat, key) in &seats {
            self.keys[seat.index()] = key;
            self.bots.give_back(seat);
            self.back_at[seat] = hand_no;
            self.out_proof[seat] = None;
            self.proxies.retain(|p| p.seat != seat);
        }
        let (runners, seeds) = self.bots.to_parts();
        for &(seat, key) in &seats {
            let state = ReturnState {
                hand_no,
                seat,
                dealer: self.head.dealer,
                totals: self.head.totals,
                prev_result: self.head.prev_result,
                keys: self.keys,
                runners,
                seeds,
            };
            let sig = Statement::Return(&state).sign(&Identity::from_secret(self.secret), &sid);
            self.told_given(seat, &state, &sig);
            self.send(
                Dest::Seats,
                TableMsg::Return {
                    state: state.clone(),
                    sig: sig.clone(),
                },
            );
            self.send(Dest::Peer(key), TableMsg::Return { state, sig });
            self.events.push_back(TableEvent::SeatBack {
                seat,
                totals: self.head.totals,
                yours: false,
            });
        }
        !seats.is_empty()
    }

    /// Whether a seat given back is taken, and what it does: one decision for the gate
    /// ([`TableSession::admit`]) and the handler ([`TableSession::on_return`]), so that a
    /// `Return` the handler refuses is never stored either.
    pub(crate) fn check_return(
        &self,
        from: &PublicKey,
        state: &ReturnState,
        sig: &Sig,
    ) -> Result<ReturnEffect, ReturnRefused> {
        let config = self.stage.config().ok_or(ReturnRefused::BeforeStart)?;
        let sender = self
            .seat_of_sender(from)
            .map_err(|_| ReturnRefused::NotSeated)?;
        if !Statement::Return(state).signed_by(from, &config.sid(), sig) {
            return Err(ReturnRefused::BadSignature);
        }
        if self.barred.contains(state.seat) {
            return Err(ReturnRefused::Barred(state.seat));
        }
        if self.original(state.seat) == Some(self.me.key) {
            // Only a peer that knows it is out takes its seat back: one that plays its seat
            // has nothing to take (its runner tells it again until it is heard playing, and a
            // runner it had once holds nothing now).
            if !self.left {
                return Err(ReturnRefused::Stale);
            }
            // The table's state comes only from the seat that played for this one: any other
            // seat could hand it chosen totals. Not a fault of the sender's: the notice that
            // shows who holds the seat may come after it.
            if self.holder_of(state.seat) != Some(sender) {
                return Err(ReturnRefused::HolderUnknown);
            }
            if state.keys[state.seat.index()] != self.me.key {
                return Err(ReturnRefused::Stale);
            }
            return Ok(ReturnEffect::Mine);
        }
        if self.left {
            // Away, a client takes only its own seat's return, which carries the table as it
            // is when it comes back (every seat given back with it): another seat's is no news.
            return Err(ReturnRefused::Stale);
        }
        if Some(state.keys[state.seat.index()]) != self.original(state.seat) {
            // The seat goes back to its player's own key whatever the `Return` says, and a
            // transcript takes a seat given back only on a `Return` that says so.
            return Err(ReturnRefused::NotItsPlayer);
        }
        let back_here = self.bots.runner(state.seat).is_none()
            && self.keys[state.seat.index()] == state.keys[state.seat.index()];
        if back_here && state.hand_no <= self.head.hand_no {
            // Given back with this hand's state already (a returning player's own `Return`
            // carries every seat given back at its hand), or at a hand this peer has played
            // past (the runner tells it again until it hears the player play): nothing more
            // to do.
            return Err(ReturnRefused::Stale);
        }
        if self.bots.runner(state.seat) != Some(sender) {
            return Err(ReturnRefused::NotRunner);
        }
        if self.pending_return[state.seat].as_ref() == Some(state) {
            return Err(ReturnRefused::Again);
        }
        Ok(match state.hand_no.cmp(&self.head.hand_no) {
            std::cmp::Ordering::Greater => ReturnEffect::Later,
            std::cmp::Ordering::Equal => ReturnEffect::Restart,
            std::cmp::Ordering::Less => ReturnEffect::Past,
        })
    }

    /// A seat is given back (every peer, and the returning player itself).
    pub(crate) fn on_return(
        &mut self,
        from: PublicKey,
        state: ReturnState,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let effect = self.check_return(&from, &state, sig)?;
        if effect != ReturnEffect::Past
            && let Ok(runner) = self.seat_of_sender(&from)
        {
            self.pass_return(runner, &state, sig);
        }
        match effect {
            ReturnEffect::Mine => {
                // Our seat, back: take the table's state and play from that hand on.
                self.keys = state.keys;
                self.bots = Takeovers::from_parts(state.runners, state.seeds);
                // `start_hand` numbers the deal `state.hand_no` again.
                self.head = DealHead {
                    hand_no: state.hand_no.saturating_sub(1),
                    dealer: state.dealer,
                    totals: state.totals,
                    prev_result: state.prev_result,
                };
                self.left = false;
                // The table as the return states it supersedes what this peer heard while
                // away: a quit from before it is no seat's standing word here.
                for s in Seat::ALL {
                    self.back_at[s] = self.back_at[s].max(state.hand_no);
                }
                // A person who left and came back plays the seat again: nothing left to quit.
                self.leave_after = None;
                self.held_by = None;
                self.held_told = false;
                self.hand = None;
                self.proxies.clear();
                self.gone = SeatSet::EMPTY;
                self.awaiting_replacement = None;
                self.events.push_back(TableEvent::SeatBack {
                    seat: state.seat,
                    totals: self.head.totals,
                    yours: true,
                });
                self.start_hand();
            }
            ReturnEffect::Later => {
                self.tell_given_to(&state);
                let seat = state.seat;
                self.pending_return[seat] = Some(state);
            }
            ReturnEffect::Restart => {
                self.tell_given_to(&state);
                // We started this hand with the computer player: start it again with the player.
                self.apply_return(&state);
                self.drop_deal_to_deal_again();
                self.start_hand();
            }
            ReturnEffect::Past => {}
        }
        Ok(())
    }

    /// A runner's return taken here goes on to every seat: one told to some seats only (a
    /// deal started again with the player at those, played on with the computer player at
    /// the others) still reaches them all.
    fn pass_return(&mut self, runner: Seat, state: &ReturnState, sig: &Sig) {
        self.send(
            Dest::Seats,
            TableMsg::ReturnPassed {
                runner,
                state: state.clone(),
                sig: sig.clone(),
            },
        );
    }

    /// A runner's return passed on by another seat: taken as the runner's own, and written
    /// to the transcript as the runner's signed message.
    pub(crate) fn on_return_passed(
        &mut self,
        runner: Seat,
        state: ReturnState,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let from = self.keys[runner.index()];
        self.check_return(&from, &state, sig)?;
        let at = self.public.len();
        let msg = TableMsg::Return {
            state: state.clone(),
            sig: sig.clone(),
        };
        self.publish_signed(at, from, &msg.encode());
        self.on_return(from, state, sig)
    }

    /// The hand under way is to be dealt again, with the same head (the next deal numbers it
    /// the same): this deal is dropped, and its envelopes are no longer held. The
    /// new deal has another hand context (the returned seat has another key), so nothing of
    /// the first deal counts in it; but `held` keeps one envelope per (hand, sender, sequence
    /// number), and the new deal fills the same slots: kept, the first deal's bytes would
    /// stand in them, and a seat that asks for what it misses of the new deal would be sent
    /// those instead.
    pub(super) fn drop_deal_to_deal_again(&mut self) {
        self.hand = None;
        for p in &mut self.proxies {
            p.hand = None;
        }
        let hand_no = self.head.hand_no;
        self.held.retain(|&(h, _, _), _| h != hand_no);
        self.head.hand_no -= 1;
    }

    /// The seat whose client plays `seat` for its away player: the runner this peer knows
    /// of, or the one it worked out when it left or was voted out.
    fn holder_of(&self, seat: Seat) -> Option<Seat> {
        self.bots.runner(seat).or(self.held_by)
    }

    /// Another runner gives `state.seat` back at the hand this peer gave a seat of its own
    /// back at: that seat's player was not among the seats when our `Return` went out (a
    /// computer player held its seat), and took its seat with a state in which ours is still
    /// held. It is sent our `Return` too, or it would deal that hand under other keys than
    /// everyone else, and the table would wait on it for good.
    fn tell_given_to(&mut self, state: &ReturnState) {
        let Some(player) = self.original(state.seat) else {
            return;
        };
        let ours: Vec<TableMsg> = Seat::ALL
            .into_iter()
            .filter(|&s| s != state.seat)
            .filter_map(|s| self.given_at(s, state.hand_no))
            .map(|(state, sig)| TableMsg::Return { state, sig })
            .collect();
        for msg in ours {
            self.send(Dest::Peer(player), msg);
        }
    }

    /// Applies a seat given back (at the start of its hand).
    pub(crate) fn apply_return(&mut self, state: &ReturnState) {
        let seat = state.seat;
        if let Some(key) = self.original(seat) {
            self.keys[seat.index()] = key;
        }
        self.bots.give_back(seat);
        self.back_at[seat] = state.hand_no;
        self.events.push_back(TableEvent::SeatBack {
            seat,
            totals: self.head.totals,
            yours: false,
        });
    }

    /// Called as hand `hand_no` starts: the returns announced for it apply now (one runner
    /// may give several seats back at one hand, each with its own `Return`).
    pub(crate) fn returns_at(&mut self, hand_no: u32) {
        for seat in Seat::ALL {
            match self.pending_return[seat].take() {
                Some(state) if state.hand_no == hand_no => self.apply_return(&state),
                Some(state) if state.hand_no > hand_no => self.pending_return[seat] = Some(state),
                // For a hand this peer never started: nothing to apply.
                _ => {}
            }
        }
        self.give_back(hand_no);
    }
}

impl TableSession {
    /// The game is over: reported, and players whose seat a computer player holds are told.
    pub(crate) fn game_over(&mut self, result: GameResult) {
        self.stage.finish(result);
        self.events.push_back(TableEvent::GameOver {
            totals: self.head.totals,
            result,
        });
        // Each held seat's player hears it from its runner alone, signed.
        let (Some(sid), Some(me)) = (
            self.stage.config().map(TableConfig::sid),
            self.my_seat_index(),
        ) else {
            return;
        };
        let held: Vec<(Seat, PublicKey)> = Seat::ALL
            .into_iter()
            .filter(|&s| self.bots.runner(s) == Some(me))
            .filter_map(|s| {
                self.original(s)
                    .filter(|k| self.keys[s.index()] != *k && *k != self.me.key)
                    .map(|k| (s, k))
            })
            .collect();
        for (seat, key) in held {
            let totals = self.head.totals;
            let sig =
                Statement::Over { seat, totals }.sign(&Identity::from_secret(self.secret), &sid);
            self.send(Dest::Peer(key), TableMsg::Over { totals, sig });
        }
    }

    /// Whether the game's end, told to a player whose seat was held, is taken: one decision
    /// for the gate and the handler. Returns the game's result.
    pub(crate) fn check_over(
        &self,
        from: &PublicKey,
        totals: [i32; 2],
        sig: &Sig,
    ) -> Result<GameResult, OverRefused> {
        let config = self.stage.config().ok_or(OverRefused::BeforeStart)?;
        let sender = self
            .seat_of_sender(from)
            .map_err(|_| OverRefused::NotSeated)?;
        let mine = config.seat_of(&self.me.key).ok_or(OverRefused::NotSeated)?;
        if !self.left || self.stage.finished().is_some() {
            return Err(OverRefused::WhilePlaying);
        }
        if self.holder_of(mine) != Some(sender) {
            return Err(OverRefused::NotRunner);
        }
        if !(Statement::Over { seat: mine, totals }).signed_by(from, &config.sid(), sig) {
            return Err(OverRefused::BadSignature);
        }
        let rules = config.rules();
        let result = game_result(totals, rules.target, rules.tie_rule);
        if result == GameResult::Continue {
            return Err(OverRefused::TooSoon);
        }
        Ok(result)
    }

    /// A player whose seat was held hears that the game is over, from the runner that held
    /// it (signed).
    pub(crate) fn on_over(
        &mut self,
        from: PublicKey,
        totals: [i32; 2],
        sig: &Sig,
    ) -> Result<(), TableError> {
        let result = self.check_over(&from, totals, sig)?;
        self.head.totals = totals;
        self.stage.finish(result);
        self.events
            .push_back(TableEvent::GameOver { totals, result });
        Ok(())
    }
}
