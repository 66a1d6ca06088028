//! Check first, store after: who may send which message at which stage, decided before a
//! message is written to the game log or buffered.
//!
//! Only a seated peer (or, in the lobby, anyone asking the host for a seat or what the table
//! is) is heard, and only with the kinds its seat may send now. Everything else is refused
//! without changing anything, so a stranger cannot grow the log or fill a buffer, and a
//! seated peer cannot speak for the host, for another seat, or out of turn. The rules mirror
//! the handlers in `mod.rs` and `absent.rs` (a seat given back is one check for both,
//! [`TableSession::check_return`]): a message they would reject or ignore is not
//! stored, which keeps a log replay identical (the state a refusal depends on is rebuilt
//! from the log before that message).

use fairdeal_core::Seat;
use fairdeal_crypto::{Envelope, PublicKey, Sig, SignedEnvelope};

use super::msg::{ReturnState, SeatInfo, TableConfig, TableMsg};
use super::refused::{Refused, Why};
use super::role::Role;
use super::{MAX_ADDRS, MAX_EARLY_PER_SEAT, TableSession, clean_name};

/// The longest address text a seat card may carry.
const MAX_ADDR_LEN: usize = 200;

/// What to do with a message that passed the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Log it, then hand it to [`TableSession::handle_message`].
    Store,
    /// A question about the table ([`TableMsg::Query`]): answered, never logged.
    Answer,
    /// A line of table chat, or a resync: handed to [`TableSession::handle_message`], never
    /// logged (chat is no part of the game; a resync only asks for copies of what is logged).
    Show,
}

/// Whether a seat card is one the host puts in its roster (it is sent to every seat).
pub(crate) fn seat_card_ok(seat: &SeatInfo) -> bool {
    clean_name(&seat.name) == seat.name
        && seat.addrs.len() <= MAX_ADDRS
        && seat.addrs.iter().all(|a| a.len() <= MAX_ADDR_LEN)
}

/// Whether `seats` seats exactly the configuration's players, each with a clean seat card.
pub(crate) fn roster_seats(config: &TableConfig, seats: &[Option<SeatInfo>; 4]) -> bool {
    seats
        .iter()
        .zip(&config.seats)
        .all(|(s, key)| s.as_ref().is_some_and(|s| s.key == *key && seat_card_ok(s)))
}

impl TableSession {
    /// Decides, before anything is stored, whether `bytes` from `from` (authenticated by the
    /// transport) may be logged and handled.
    ///
    /// # Errors
    ///
    /// [`Refused`]: the message must be neither logged nor handled.
    pub fn admit(&self, from: PublicKey, bytes: &[u8]) -> Result<Admit, Refused> {
        if TableMsg::is_query(bytes) {
            return Ok(Admit::Answer);
        }
        if from == self.me.key {
            return Err(Refused::bad(Why::OwnIdentity));
        }
        let msg = TableMsg::decode(bytes).map_err(|_| Refused::bad(Why::Undecodable))?;
        if let TableMsg::Chat { n, text, sig } = &msg {
            return self
                .check_chat(&from, *n, text, sig)
                .map(|_| Admit::Show)
                .map_err(|r| Refused::bad(Why::Chat(r)));
        }
        match self.stage.config() {
            None => self.admit_lobby(from, &msg).map(|()| Admit::Store),
            Some(config) => {
                self.admit_playing(from, config, &msg)?;
                // A resync asks for copies: handled, never logged. The host's roster sent
                // again only says where the seats listen, which changes nothing in the game;
                // but when it tells this peer something new it is logged, as it may be the
                // only place a seat's address was learnt (its seat card came late), and a
                // client resumed from the log dials the seats at the addresses its roster
                // holds: without them a returning player cannot reach the computer player
                // that holds its seat.
                Ok(match &msg {
                    TableMsg::Resync { .. } => Admit::Show,
                    TableMsg::Roster { seats, .. } if *seats == self.roster => Admit::Show,
                    _ => Admit::Store,
                })
            }
        }
    }

    fn in_roster(&self, key: &PublicKey) -> bool {
        self.roster.iter().flatten().any(|s| s.key == *key)
    }

    fn admit_lobby(&self, from: PublicKey, msg: &TableMsg) -> Result<(), Refused> {
        let known = self.in_roster(&from) || self.role.is_my_host(from);
        match msg {
            TableMsg::Join { seat, .. } => {
                if !self.role.is_host() {
                    return Err(Refused::bad(Why::JoinNotHost));
                }
                if seat.key != from || !seat_card_ok(seat) {
                    return Err(Refused::bad(Why::BadSeatCard));
                }
                if !self.in_roster(&from) && self.roster.iter().all(Option::is_some) {
                    return Err(Refused::bad(Why::TableFull));
                }
                Ok(())
            }
            TableMsg::Roster { .. } if self.role.is_my_host(from) => Ok(()),
            TableMsg::Start { config } => {
                let Role::Joiner {
                    host: Some(host), ..
                } = self.role
                else {
                    return Err(Refused::bad(Why::ConfigAtHost));
                };
                if config.seats[0] != host {
                    return Err(Refused::bad(Why::ConfigNotFromHost));
                }
                // A seat passing on the host's configuration before the host's roster naming
                // it reached this peer: the host sends it too, so it is not kept, and a late
                // roster is no reason to shut a seat out.
                if !known {
                    return Err(Refused::stale(Why::NotInRosterYet));
                }
                let Some(seat) = config.seat_of(&self.me.key) else {
                    return Err(Refused::bad(Why::ConfigWithoutSeat));
                };
                if config.nonces[seat.index()] != self.nonce() {
                    return Err(Refused::bad(Why::ConfigWithoutNonce));
                }
                Ok(())
            }
            TableMsg::Accept { .. } if !self.role.is_host() && known => {
                let pending = self.stage.lobby().map_or(&[][..], |l| &l.pending_accepts);
                if pending.iter().any(|(k, _, _)| *k == from) {
                    Err(Refused::stale(Why::AcceptAgain))
                } else {
                    Ok(())
                }
            }
            // Maybe a player seated after the roster this peer has (the host's next roster is
            // on its way): not kept, and not held against it.
            TableMsg::Accept { .. } if !self.role.is_host() => {
                Err(Refused::later(Why::AcceptUnseated))
            }
            TableMsg::Leave
                if (self.role.is_host() && self.in_roster(&from)) || self.role.is_my_host(from) =>
            {
                Ok(())
            }
            TableMsg::Resync { .. } if known => Err(Refused::stale(Why::ResyncBeforeStart)),
            _ if known => Err(Refused::bad(Why::NotInLobby)),
            _ => Err(Refused::bad(Why::LobbyStranger)),
        }
    }

    fn admit_playing(
        &self,
        from: PublicKey,
        config: &TableConfig,
        msg: &TableMsg,
    ) -> Result<(), Refused> {
        let seat = self.keys.iter().position(|k| *k == from);
        // A player given its seat back passes its runner's `Return` on before the others
        // seat it again: the one message taken from a player whose seat is still held.
        if let (
            None,
            TableMsg::ReturnPassed {
                runner, state, sig, ..
            },
        ) = (seat, msg)
            && config.seat_of(&from) == Some(state.seat)
        {
            return self.check_return_passed(*runner, state, sig);
        }
        let Some(voter) = seat else {
            return Err(if config.seat_of(&from).is_some() {
                Refused::stale(Why::TakenOver)
            } else {
                Refused::bad(Why::NotSeated)
            });
        };
        match msg {
            TableMsg::Hand { bytes } => self.admit_hand(voter, bytes),
            TableMsg::Resync { .. } if self.resync_too_soon(voter) => {
                Err(Refused::stale(Why::ResyncTooSoon))
            }
            TableMsg::Resync { .. } => Ok(()),
            TableMsg::Accept { sid, sig } => {
                if *sid != config.sid() || from.verify(sid, sig).is_err() {
                    return Err(Refused::bad(Why::BadAccept));
                }
                if self.stage.agreed().is_some_and(|a| a.accepts[voter]) {
                    return Err(Refused::stale(Why::AcceptAgain));
                }
                Ok(())
            }
            TableMsg::Start { config: c } if c == config => Err(Refused::stale(Why::ConfigAgain)),
            TableMsg::Start { .. } => Err(Refused::bad(Why::OtherConfig)),
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                sig,
            } => self
                .check_timeout(&from, *hand_no, hctx, *seat, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Timeout(r), r.is_stale())),
            TableMsg::VotedOut {
                hand_no,
                seat,
                hctx,
                votes,
            } => self
                .check_voted_out(*hand_no, *seat, hctx, votes)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Timeout(r), r.is_stale())),
            TableMsg::Replace {
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => self
                .check_replace(&from, *hand_no, *seat, key, seed, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Replace(r), r.is_stale())),
            TableMsg::Quit { hand_no, sig } => self
                .check_quit(&from, *hand_no, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Quit(r), r.is_stale())),
            TableMsg::ReplacePassed {
                runner,
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => self
                .check_replace(&self.keys[runner.index()], *hand_no, *seat, key, seed, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Replace(r), r.is_stale())),
            TableMsg::QuitPassed { seat, hand_no, sig } => self
                .check_quit(&self.player_key(*seat), *hand_no, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Quit(r), r.is_stale())),
            TableMsg::Return { state, sig } => self
                .check_return(&from, state, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Return(r), r.is_stale())),
            TableMsg::ReturnPassed { runner, state, sig } => {
                self.check_return_passed(*runner, state, sig)
            }
            TableMsg::SeatHeld {
                hand_no,
                seat,
                hctx,
                votes,
                quits,
                outs,
            } => self
                .check_seat_held(
                    &from,
                    *hand_no,
                    *seat,
                    hctx,
                    votes,
                    super::held::Shown { quits, outs },
                )
                .map(|_| ())
                .map_err(|r| Refused::of(Why::SeatHeld(r), r.is_stale())),
            TableMsg::Over { totals, sig } => self
                .check_over(&from, *totals, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Over(r), r.is_stale())),
            TableMsg::Ready { hand_no, sig } => self
                .check_ready(&from, *hand_no, sig)
                .map(|_| ())
                .map_err(|r| Refused::of(Why::Ready(r), r.is_stale())),
            // Told apart before the stage's rules.
            TableMsg::Chat { n, text, sig } => self
                .check_chat(&from, *n, text, sig)
                .map(|_| ())
                .map_err(|r| Refused::bad(Why::Chat(r))),
            TableMsg::Roster { seats, .. }
                if self.role.is_my_host(from) && roster_seats(config, seats) =>
            {
                Ok(())
            }
            TableMsg::Join { .. } | TableMsg::Roster { .. } | TableMsg::Leave | TableMsg::Query => {
                Err(Refused::stale(Why::LobbyAfterStart))
            }
        }
    }

    /// A runner's `Return` passed on: taken as the runner's own would be.
    fn check_return_passed(
        &self,
        runner: Seat,
        state: &ReturnState,
        sig: &Sig,
    ) -> Result<(), Refused> {
        self.check_return(&self.keys[runner.index()], state, sig)
            .map(|_| ())
            .map_err(|r| Refused::of(Why::Return(r), r.is_stale()))
    }

    /// A hand message from the peer in seat `from`: well-formed, and signed when it is for a
    /// hand in play; one for a hand not started here waits in a bounded buffer per sender.
    fn admit_hand(&self, from: usize, bytes: &[u8]) -> Result<(), Refused> {
        let env = SignedEnvelope::from_wire(bytes).map_err(|_| Refused::bad(Why::GarbledHand))?;
        let header: Envelope = fairdeal_crypto::encoding::decode(&env.bytes)
            .map_err(|_| Refused::bad(Why::GarbledHand))?;
        if let Some(hand) = self.hands().find(|h| h.hctx() == header.sid) {
            // A copy of a message held already (a peer back from a crash sends what it sent
            // again, a resync answer crosses the message itself) changes nothing: not logged
            // again, so that nobody can grow the log by repeating valid messages. A different
            // message in the same slot is evidence of equivocation and goes on.
            if self
                .held
                .get(&(self.head.hand_no, header.sender, header.seq))
                .is_some_and(|held| held.as_slice() == bytes)
            {
                return Err(Refused::stale(Why::HandHeld));
            }
            return env
                .verify(&hand.hctx(), &self.keys)
                .map(|_| ())
                .map_err(|_| Refused::bad(Why::HandBadSignature));
        }
        if self.early.iter().filter(|(s, _)| *s == from).count() >= MAX_EARLY_PER_SEAT {
            return Err(Refused::bad(Why::TooManyEarly));
        }
        Ok(())
    }
}
