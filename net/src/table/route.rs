//! Which handler takes each table message from a peer, and what a message this peer sent
//! does when its log is replayed.

use fairdeal_core::Move;
use fairdeal_crypto::PublicKey;

use super::msg::TableMsg;
use super::{MsgKind, TableError, TableEvent, TableSession, Unexpected};

/// One record of a game log as a session takes it back ([`TableSession::replay`]).
#[derive(Debug, Clone)]
pub enum Replayed<'a> {
    /// A message received from `from`.
    Received {
        /// Its sender.
        from: PublicKey,
        /// The message.
        bytes: &'a [u8],
    },
    /// This joiner's host.
    Joined(PublicKey),
    /// A move of this seat's person.
    Move(Move),
    /// A message this peer sent.
    Sent(&'a [u8]),
}

impl TableSession {
    /// Takes a message from `from` (authenticated by the transport).
    ///
    /// # Errors
    ///
    /// Undecodable or out-of-place messages; nothing changes.
    pub fn handle_message(&mut self, from: PublicKey, bytes: &[u8]) -> Result<(), TableError> {
        let result = self.take_message(from, bytes);
        self.watch_turn();
        result
    }

    pub(super) fn take_message(&mut self, from: PublicKey, bytes: &[u8]) -> Result<(), TableError> {
        let msg = TableMsg::decode(bytes)?;
        if crate::transcript::is_evidence(&msg) {
            // Into the transcript if accepted, before whatever its handling produced.
            let at = self.public.len();
            let result = self.dispatch(from, msg);
            if result.is_ok() {
                self.publish_signed(at, from, bytes);
            }
            return result;
        }
        self.dispatch(from, msg)
    }

    pub(super) fn dispatch(&mut self, from: PublicKey, msg: TableMsg) -> Result<(), TableError> {
        let now = self.presence.now;
        self.heard(from, now);
        match msg {
            TableMsg::Join { seat, want, nonce } => self.on_join(from, seat, want, nonce),
            TableMsg::Roster {
                name,
                preset,
                house,
                seats,
                ..
            } => {
                if !self.role.is_my_host(from) {
                    return Err(Unexpected::NotFromHost(MsgKind::Roster).into());
                }
                if self.stage.config().is_some() {
                    return self.on_roster_again(seats);
                }
                self.name = name;
                self.preset = preset;
                self.house = house;
                self.roster = seats.clone();
                self.events.push_back(TableEvent::Roster(Box::new(seats)));
                Ok(())
            }
            TableMsg::Start { config } => self.on_start(from, config),
            TableMsg::Accept { sid, sig } => self.on_accept(from, sid, &sig),
            TableMsg::Hand { bytes } => {
                let sender = self.keys.iter().position(|k| *k == from);
                match sender.filter(|_| self.stage.config().is_some() && from != self.me.key) {
                    Some(seat) => self.on_hand_bytes(seat, &bytes),
                    None => Err(TableError::NotSeated),
                }
            }
            TableMsg::Resync { hand_no, have } => self.on_resync(from, hand_no, have),
            TableMsg::Quit { hand_no, sig } => self.on_quit(from, hand_no, &sig),
            TableMsg::SeatHeld {
                hand_no,
                seat,
                hctx,
                votes,
                quits,
                outs,
            } => {
                let shown = super::held::Shown {
                    quits: &quits,
                    outs: &outs,
                };
                self.on_seat_held(from, hand_no, seat, hctx, &votes, shown)
            }
            TableMsg::Over { totals, sig } => self.on_over(from, totals, &sig),
            TableMsg::VotedOut {
                hand_no,
                seat,
                hctx,
                votes,
            } => self.on_voted_out(hand_no, seat, hctx, &votes),
            TableMsg::Return { state, sig } => self.on_return(from, state, &sig),
            TableMsg::Query => Ok(()),
            TableMsg::Leave => self.on_leave(from),
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                sig,
            } => self.on_timeout(from, hand_no, hctx, seat, &sig),
            TableMsg::Replace {
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => self.on_replace(from, hand_no, seat, key, seed, &sig),
            TableMsg::Ready { hand_no, sig } => self.on_ready(from, hand_no, &sig),
            TableMsg::Chat { n, text, sig } => self.on_chat(from, n, text, &sig),
            // Passed on only by a seat its player plays now (as the gate hears only those).
            TableMsg::QuitPassed { seat, hand_no, sig } => {
                self.seat_of_sender(&from)?;
                self.on_quit_passed(seat, hand_no, &sig)
            }
            TableMsg::ReplacePassed {
                runner,
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => {
                self.seat_of_sender(&from)?;
                self.on_replace_passed(runner, hand_no, seat, key, seed, &sig)
            }
            // Passed on by a seat its player plays now, or by the player given its seat back
            // (its seat still held here), as the gate admits.
            TableMsg::ReturnPassed { runner, state, sig } => {
                if self.original(state.seat) != Some(from) {
                    self.seat_of_sender(&from)?;
                }
                self.on_return_passed(runner, state, &sig)
            }
        }
    }

    /// Rebuilds this session from its game log, an input like any other: what it received,
    /// the host it joined, the person's moves and what it sent, in the log's order. While it
    /// replays, what this peer would say by itself (that it is ready, a countdown's end) is
    /// not said again: the log holds it already.
    pub fn replay<'a>(&mut self, log: impl IntoIterator<Item = Replayed<'a>>) {
        self.replaying = true;
        for record in log {
            match record {
                Replayed::Received { from, bytes } => {
                    // Refused then, refused again: the log keeps what arrived, not what counted.
                    let _ = self.handle_message(from, bytes);
                }
                Replayed::Joined(host) => self.join(host),
                Replayed::Move(mv) => {
                    let _ = self.submit(mv);
                }
                Replayed::Sent(bytes) => self.replay_sent(bytes),
            }
        }
        self.replaying = false;
    }

    /// Replays a message this peer sent (rebuilding from the log): the host's seating and
    /// start, and timeout votes, are decisions the received messages cannot re-derive.
    fn replay_sent(&mut self, bytes: &[u8]) {
        match TableMsg::decode(bytes) {
            Ok(TableMsg::Roster { seats, nonces, .. })
                if self.role.is_host() && self.stage.config().is_none() =>
            {
                self.roster = seats;
                if let Some(lobby) = self.stage.lobby_mut() {
                    lobby.nonces = nonces;
                }
            }
            Ok(TableMsg::Start { config })
                if self.role.is_host() && self.stage.config().is_none() =>
            {
                if let Some(lobby) = self.stage.lobby_mut() {
                    lobby.start_requested = true;
                }
                let _ = self.on_start(self.me.key, config);
            }
            Ok(TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                ..
            }) if self.hand.as_ref().map(crate::hand::HandSession::hctx) == Some(hctx) => {
                self.vote_timeout(hand_no, seat);
            }
            Ok(TableMsg::SeatHeld {
                hand_no,
                seat,
                hctx,
                votes,
                ..
            }) => self.replay_seat_held(
                seat,
                super::held::OutProof {
                    hand_no,
                    hctx,
                    votes,
                },
            ),
            Ok(TableMsg::Ready { hand_no, .. }) => self.replay_ready(hand_no, bytes),
            Ok(TableMsg::Hand { bytes }) => self.replay_hand_sent(&bytes),
            Ok(TableMsg::Chat { n, .. }) => self.replay_chat(n),
            Ok(TableMsg::Quit { .. }) => {
                let at = self.public.len();
                self.publish_signed(at, self.me.key, bytes);
                self.held_by = self.my_seat_index().and_then(|s| self.runner_for(s));
                self.left = true;
                self.hand = None;
            }
            _ => {}
        }
    }
}
