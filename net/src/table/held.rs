//! A player back at a seat a computer player holds: the runner's notice (`SeatHeld`, with the
//! signed votes that put the seat out), how the player checks it, and how the runner tells it
//! again. A notice can be lost, or reach the player before it is in the deal whose votes it
//! carries (it cannot check them yet); a player that missed it refuses its seat back (it
//! believes it plays it), and would be voted out again at every hand. So once the seat is given
//! back, the runner tells the player again, the notices and then the `Return`, at most every
//! [`RESYNC_MS`] while it hears from it, until it sees the player play the seat.

use fairdeal_core::{Seat, SeatSet};
use fairdeal_crypto::{PublicKey, Sig};

use super::msg::{ReturnState, SeatOut, Statement, TableMsg};
use super::presence::RESYNC_MS;
use super::{
    Dest, QuitRefused, SeatHeldRefused, TableError, TableEvent, TableSession, TimeoutRefused,
};

/// The deal in which a seat was voted out and the signed votes that did it: the evidence
/// its runner shows the player when it comes back.
#[derive(Debug, Clone)]
pub(crate) struct OutProof {
    pub(crate) hand_no: u32,
    pub(crate) hctx: [u8; 32],
    pub(crate) votes: Vec<(Seat, Sig)>,
}

/// What a held seat's notice shows of the other seats out: the latest signed quit of each
/// that left, and the signed votes that put out each that was voted out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shown<'a> {
    pub(crate) quits: &'a [(Seat, (u32, Sig))],
    pub(crate) outs: &'a [SeatOut],
}

/// What a held seat's notice does here ([`TableSession::check_seat_held`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SeatHeldEffect {
    /// This peer knows already that it is out, and that the sender runs its seat (the runner
    /// it worked out, or the one it works out with the quits of seats that left since).
    Known,
    /// The notice proves this peer was voted out of the deal it is in: these votes (its
    /// signers' seats and signatures), not yet counted here, complete the count.
    Proved(Vec<(Seat, Sig)>),
}

/// What the runner of a held seat tells its player, told again until the player is seen
/// playing the seat.
#[derive(Debug, Clone, Default)]
pub(crate) struct Telling {
    /// The deals the player was put out of, with their votes: the first told and the latest. A
    /// player that took neither is still in the first; one that took its seat back, and was put
    /// out again before it was heard playing, is in the latest.
    notices: Vec<OutProof>,
    /// The seat given back (the signed `Return`), once it is: told after the notices, so that a
    /// player that refused it before it could take a notice takes it then.
    given: Option<(ReturnState, Sig)>,
    /// When it was last told.
    told_at: Option<u64>,
}

impl Telling {
    /// Keeps `proof` as the latest notice (the same deal's once).
    fn note(&mut self, proof: OutProof) {
        if self.notices.iter().any(|n| n.hctx == proof.hctx) {
            return;
        }
        if self.notices.len() >= 2 {
            self.notices.pop();
        }
        self.notices.push(proof);
    }
}

impl TableSession {
    /// `peer` was heard from at `now`: if it is the player of a seat a computer player took
    /// over, and this peer runs that computer player, it is told so, and gets the seat back at
    /// the next hand.
    pub(crate) fn notice_return(&mut self, peer: PublicKey, now: u64) {
        let Some(config) = self.stage.config() else {
            return;
        };
        let Some(seat) = config.seat_of(&peer) else {
            return;
        };
        // A client that just quit is still flushing its last messages: not a return.
        let lingering = self.quit_at[seat]
            .is_some_and(|t| now < t.saturating_add(super::presence::QUIT_LINGER_MS));
        if self.keys[seat.index()] == peer
            || lingering
            || self.barred.contains(seat)
            || self.my_seat_index().is_none()
            || self.bots.runner(seat) != self.my_seat_index()
            || !self.returning.insert(seat)
        {
            return;
        }
        let proof = self.out_proof[seat].clone().unwrap_or_else(|| OutProof {
            hand_no: self.head.hand_no,
            hctx: [0; 32],
            votes: Vec::new(),
        });
        let telling = self.telling[seat].get_or_insert_with(Telling::default);
        // Held again before its player was heard playing: a seat given back before is not its
        // own now.
        telling.given = None;
        telling.told_at = None;
        telling.note(proof);
        self.tell(seat, peer, now);
    }

    /// The seat `seat`'s player `player` was heard from at `now`: if its seat was given back
    /// and it has not been heard playing it yet, it is told again (at most every
    /// [`RESYNC_MS`]).
    pub(crate) fn tell_again(&mut self, seat: Seat, player: PublicKey, now: u64) {
        if self.telling[seat]
            .as_ref()
            .is_some_and(|t| t.given.is_some())
        {
            self.tell(seat, player, now);
        }
    }

    /// Tells the player `player` of `seat` what its runner holds for it: every notice, then
    /// the seat given back if it is for the hand under way.
    fn tell(&mut self, seat: Seat, player: PublicKey, now: u64) {
        if self.stage.finished().is_some() {
            return;
        }
        let hand_no = self.head.hand_no;
        let Some(t) = self.telling[seat].as_mut() else {
            return;
        };
        if t.told_at
            .is_some_and(|at| now < at.saturating_add(RESYNC_MS))
        {
            return;
        }
        t.told_at = Some(now);
        let notices = t.notices.clone();
        let given = t.given.clone().filter(|(s, _)| s.hand_no == hand_no);
        // Every other seat's latest quit, those given back since too: the runner was picked
        // while they were out.
        let quits: Vec<(Seat, (u32, Sig))> = Seat::ALL
            .into_iter()
            .filter(|&s| s != seat)
            .filter_map(|s| self.signed_quits[s].clone().map(|q| (s, q)))
            .collect();
        // And the votes that put out each other seat voted out here.
        let outs: Vec<SeatOut> = Seat::ALL
            .into_iter()
            .filter(|&s| s != seat)
            .filter_map(|s| {
                self.out_proof[s].clone().map(|p| SeatOut {
                    seat: s,
                    hand_no: p.hand_no,
                    hctx: p.hctx,
                    votes: p.votes,
                })
            })
            .collect();
        for n in notices {
            self.send(
                Dest::Peer(player),
                TableMsg::SeatHeld {
                    hand_no: n.hand_no,
                    seat,
                    hctx: n.hctx,
                    votes: n.votes,
                    quits: quits.clone(),
                    outs: outs.clone(),
                },
            );
        }
        if let Some((state, sig)) = given {
            self.send(Dest::Peer(player), TableMsg::Return { state, sig });
        }
    }

    /// The runner gave `seat` back with `state` signed `sig`: told to its player again
    /// until it is heard playing.
    pub(crate) fn told_given(&mut self, seat: Seat, state: &ReturnState, sig: &Sig) {
        self.telling[seat]
            .get_or_insert_with(Telling::default)
            .given = Some((state.clone(), sig.clone()));
    }

    /// The `Return` this peer signed giving `seat` back at hand `hand_no`, while it still
    /// tells its player.
    pub(crate) fn given_at(&self, seat: Seat, hand_no: u32) -> Option<(ReturnState, Sig)> {
        self.telling[seat]
            .as_ref()
            .and_then(|t| t.given.clone())
            .filter(|(s, _)| s.hand_no == hand_no)
    }

    /// A validly signed envelope of the deal under way came from `seat`: if its seat was
    /// given back, its player plays it, and has nothing more to be told.
    pub(crate) fn seen_playing(&mut self, seat: Seat) {
        let t = &mut self.telling[seat];
        if t.as_ref().is_some_and(|t| t.given.is_some()) {
            *t = None;
        }
    }

    /// Replaying the runner's own log: it told the player of `seat` that the seat is held
    /// (the decision came from a liveness signal, which is not logged), so it gives it back at
    /// the next hand as it did live, and tells it again as it would have.
    pub(crate) fn replay_seat_held(&mut self, seat: Seat, proof: OutProof) {
        if self.my_seat_index().is_some() && self.bots.runner(seat) == self.my_seat_index() {
            self.returning.insert(seat);
            let telling = self.telling[seat].get_or_insert_with(Telling::default);
            telling.given = None;
            telling.note(proof);
        }
    }

    /// Whether a notice that this peer's seat is held is taken: one decision for the gate
    /// and the handler.
    ///
    /// The notice is unsigned and any seated peer can send one, so the sender's word counts
    /// for nothing: a peer that knows it is out (it left, or counted the votes that put it
    /// out) takes it from the runner it worked out itself; a peer that believes it plays its
    /// seat takes it only with the signed timeout votes against it, in the deal it is in, of
    /// every other client. Those votes are what put the seat out at every other peer, and no
    /// single seat can sign the others' votes, so a lying seat cannot make a present player
    /// drop its hand.
    pub(crate) fn check_seat_held(
        &self,
        from: &PublicKey,
        hand_no: u32,
        held: Seat,
        hctx: &[u8; 32],
        votes: &[(Seat, Sig)],
        shown: Shown<'_>,
    ) -> Result<SeatHeldEffect, SeatHeldRefused> {
        let config = self.stage.config().ok_or(SeatHeldRefused::NotSeated)?;
        let seat = config
            .seat_of(&self.me.key)
            .ok_or(SeatHeldRefused::NotSeated)?;
        if held != seat {
            return Err(SeatHeldRefused::OtherSeat);
        }
        // Only a seat its player still plays speaks (as the gate hears only those).
        let sender = self
            .seat_of_sender(from)
            .map_err(|_| SeatHeldRefused::NotSeated)?;
        if let Some(r) = self.bots.runner(seat) {
            return if r == sender {
                Ok(SeatHeldEffect::Known)
            } else {
                Err(SeatHeldRefused::NotRunner)
            };
        }
        if self.left {
            return if self.held_by == Some(sender) || self.runner_after(seat, shown) == Some(sender)
            {
                Ok(SeatHeldEffect::Known)
            } else {
                Err(SeatHeldRefused::NotRunner)
            };
        }
        if hand_no < self.head.hand_no {
            return Err(SeatHeldRefused::Past);
        }
        let here = self.hand.as_ref().map(crate::hand::HandSession::hctx);
        if hand_no != self.head.hand_no || here != Some(*hctx) || votes.len() > 3 {
            return Err(SeatHeldRefused::Unproved);
        }
        let mut covered = self.votes.covered(hctx, seat);
        let mut fresh: Vec<(Seat, Sig)> = Vec::new();
        for (voter, sig) in votes {
            let key = &self.keys[voter.index()];
            match self.check_timeout(key, hand_no, hctx, seat, sig) {
                Ok(v) => {
                    if !fresh.iter().any(|(f, _)| *f == v) {
                        fresh.push((v, sig.clone()));
                    }
                    covered.insert(v);
                    covered = self.bots.vote_cover(covered);
                }
                Err(TimeoutRefused::Again) => {}
                Err(_) => return Err(SeatHeldRefused::Unproved),
            }
        }
        // The clients that quit take no part in the votes; the notice shows their quits,
        // which this peer may have missed.
        let quit = self.shown_quits(shown.quits);
        let leaving = self.leaving().union(self.bots.with_run_by(quit));
        if covered.is_empty() || !self.bots.voted_out(seat, covered.union(leaving)) {
            return Err(SeatHeldRefused::Unproved);
        }
        // The seat the votes put out is run by the seat every peer works out from the seating.
        if self.bots.runner_for(seat, self.gone.union(leaving)) != Some(sender) {
            return Err(SeatHeldRefused::NotRunner);
        }
        Ok(SeatHeldEffect::Proved(fresh))
    }

    /// The seats whose signed quit among `quits` is one this peer takes, or took already.
    fn shown_quits(&self, quits: &[(Seat, (u32, Sig))]) -> SeatSet {
        quits
            .iter()
            .filter(|(s, (h, sig))| {
                matches!(
                    self.check_quit(&self.player_key(*s), *h, sig),
                    Ok(_) | Err(QuitRefused::Again)
                )
            })
            .map(|(s, _)| *s)
            .collect()
    }

    /// Who runs `seat` for this peer, which left it, once the seats whose signed quits (hand
    /// and signature, by seat) are shown left too, and those whose votes are shown were voted
    /// out: quits of the hand this peer left in or later, each signed by that seat's player
    /// (the configuration's key: only a player quits, never a computer player run for one);
    /// votes of a deal of that hand or later, each signed by its voter's player, from every
    /// seat but the one voted out, this peer's own (it left: it took no part) and those shown
    /// leaving. `None` for a quit or a count of this seat, an earlier one, a false signature,
    /// or more than one per other seat.
    fn runner_after(&self, seat: Seat, shown: Shown<'_>) -> Option<Seat> {
        let config = self.stage.config()?;
        let sid = config.sid();
        let mut out = SeatSet::EMPTY;
        for (s, (hand_no, sig)) in shown.quits {
            let signed = Statement::Quit {
                hand_no: *hand_no,
                seat: *s,
            }
            .signed_by(&config.seats[s.index()], &sid, sig);
            if *s == seat || *hand_no < self.head.hand_no || out.contains(*s) || !signed {
                return None;
            }
            out.insert(*s);
        }
        let quit = out;
        if shown.outs.len() > 3 {
            return None;
        }
        for o in shown.outs {
            let mut covered = quit;
            covered.insert(seat);
            for (voter, sig) in &o.votes {
                let signed = Statement::Timeout {
                    hand_no: o.hand_no,
                    hctx: &o.hctx,
                    seat: o.seat,
                }
                .signed_by(&config.seats[voter.index()], &sid, sig);
                if !signed || *voter == o.seat {
                    return None;
                }
                covered.insert(*voter);
            }
            let every = Seat::ALL
                .into_iter()
                .all(|s| s == o.seat || covered.contains(s));
            if o.seat == seat || o.hand_no < self.head.hand_no || out.contains(o.seat) || !every {
                return None;
            }
            out.insert(o.seat);
        }
        self.bots
            .runner_for(seat, self.gone.iter().chain(out.iter()).collect())
    }

    /// The returning player: its seat is held (by the runner it worked out, or as the votes
    /// or quits the notice carries prove), and is given back from the next hand on.
    pub(crate) fn on_seat_held(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        held: Seat,
        hctx: [u8; 32],
        votes: &[(Seat, Sig)],
        shown: Shown<'_>,
    ) -> Result<(), TableError> {
        let effect = self.check_seat_held(&from, hand_no, held, &hctx, votes, shown)?;
        if let SeatHeldEffect::Proved(fresh) = effect {
            // The quits first, taken as their signers' own (the votes may count only with
            // them); then the votes, counted as if they had come from their signers: the
            // seat is out here as it is at every peer that counted them, and this peer works
            // its runner out itself.
            for (s, (h, sig)) in shown.quits {
                let _ = self.on_quit_passed(*s, *h, sig);
            }
            self.count_shown_votes(hand_no, hctx, held, fresh);
        }
        if self.left && self.bots.runner(held).is_none() {
            // Its `Return` and `Over` are taken from the runner the notice showed.
            self.held_by = self.seat_of_sender(&from).ok();
        }
        self.hand = None;
        self.left = true;
        // Said once: the runner tells a player again until it is heard playing its seat.
        if !std::mem::replace(&mut self.held_told, true) {
            self.events.push_back(TableEvent::SeatHeld { seat: held });
        }
        Ok(())
    }
}
