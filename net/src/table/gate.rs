//! Check first, store after: who may send which message at which stage, decided before a
//! message is written to the game log or buffered.
//!
//! Only a seated peer (or, in the lobby, anyone asking the host for a seat or what the table
//! is) is heard, and only with the kinds its seat may send now. Everything else is refused
//! without changing anything, so a stranger cannot grow the log or fill a buffer, and a
//! seated peer cannot speak for the host, for another seat, or out of turn. The rules mirror
//! the handlers in `mod.rs` and `absent.rs`: a message they would reject or ignore is not
//! stored, which keeps a log replay identical (the state a refusal depends on is rebuilt
//! from the log before that message).

use fairdeal_crypto::{Envelope, PublicKey, SignedEnvelope};

use super::msg::{
    SeatInfo, TableConfig, TableMsg, quit_digest, replace_digest, return_digest, timeout_digest,
};
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

/// A message refused before anything was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("refused: {what}")]
pub struct Refused {
    /// Why, in a few words (a log line's reason; the same words for the same cause).
    pub what: &'static str,
    /// A leftover that would change nothing (a duplicate, a message of a stage that is
    /// over, or one that may be early): not held against its sender, and not worth a
    /// warning when the sender is seated.
    pub stale: bool,
    /// May be admitted once this peer knows more (an acceptance from a player whose seat
    /// the host's roster has not told yet): worth asking again after the next message
    /// stored, without storing it meanwhile.
    pub later: bool,
}

fn refuse(what: &'static str) -> Refused {
    Refused {
        what,
        stale: false,
        later: false,
    }
}

fn stale(what: &'static str) -> Refused {
    Refused {
        what,
        stale: true,
        later: false,
    }
}

fn later(what: &'static str) -> Refused {
    Refused {
        what,
        stale: true,
        later: true,
    }
}

/// Whether a seat card is one the host puts in its roster (it is sent to every seat).
pub(crate) fn seat_card_ok(seat: &SeatInfo) -> bool {
    clean_name(&seat.name) == seat.name
        && seat.addrs.len() <= MAX_ADDRS
        && seat.addrs.iter().all(|a| a.len() <= MAX_ADDR_LEN)
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
            return Err(refuse("a message under this peer's own identity"));
        }
        let msg = TableMsg::decode(bytes).map_err(|_| refuse("an undecodable message"))?;
        if let TableMsg::Chat { n, text, sig } = &msg {
            return self
                .check_chat(&from, *n, text, sig)
                .map(|_| Admit::Show)
                .map_err(|r| refuse(r.what()));
        }
        match self.stage.config() {
            None => self.admit_lobby(from, &msg).map(|()| Admit::Store),
            Some(config) => {
                self.admit_playing(from, config, &msg)?;
                // A resync asks for copies and changes no state: handled, never logged.
                Ok(if matches!(msg, TableMsg::Resync { .. }) {
                    Admit::Show
                } else {
                    Admit::Store
                })
            }
        }
    }

    fn in_roster(&self, key: &PublicKey) -> bool {
        self.roster.iter().flatten().any(|s| s.key == *key)
    }

    fn admit_lobby(&self, from: PublicKey, msg: &TableMsg) -> Result<(), Refused> {
        let known = self.in_roster(&from) || Some(from) == self.host;
        match msg {
            TableMsg::Join { seat, .. } => {
                if !self.is_host {
                    return Err(refuse("a join sent to a peer that is not the host"));
                }
                if seat.key != from || !seat_card_ok(seat) {
                    return Err(refuse("a join with a bad seat card"));
                }
                if !self.in_roster(&from) && self.roster.iter().all(Option::is_some) {
                    return Err(refuse("a join at a full table"));
                }
                Ok(())
            }
            TableMsg::Roster { .. } if !self.is_host && Some(from) == self.host => Ok(()),
            TableMsg::Start { config } => {
                let Some(host) = self.host.filter(|_| !self.is_host) else {
                    return Err(refuse("a table configuration at the host"));
                };
                if !known || config.seats[0] != host {
                    return Err(refuse("a table configuration not from the host"));
                }
                let Some(seat) = config.seat_of(&self.me.key) else {
                    return Err(refuse("a table configuration without this seat"));
                };
                // INVARIANT: seat < 4: a position in the configuration's four seats.
                if config.nonces[usize::from(seat)] != self.nonce() {
                    return Err(refuse("a table configuration without this seat's nonce"));
                }
                Ok(())
            }
            TableMsg::Accept { .. } if !self.is_host && known => {
                let pending = self.stage.lobby().map_or(&[][..], |l| &l.pending_accepts);
                if pending.iter().any(|(k, _, _)| *k == from) {
                    Err(stale("a repeated acceptance"))
                } else {
                    Ok(())
                }
            }
            // Maybe a player seated after the roster this peer has (the host's next roster is
            // on its way): not kept, and not held against it.
            TableMsg::Accept { .. } if !self.is_host => {
                Err(later("an acceptance from a player not in the roster yet"))
            }
            TableMsg::Leave
                if (self.is_host && self.in_roster(&from)) || Some(from) == self.host =>
            {
                Ok(())
            }
            TableMsg::Resync { .. } if known => Err(stale("a resync before the start")),
            _ if known => Err(refuse("a message its sender may not send in the lobby")),
            _ => Err(refuse("a lobby message from a peer not at this table")),
        }
    }

    fn admit_playing(
        &self,
        from: PublicKey,
        config: &TableConfig,
        msg: &TableMsg,
    ) -> Result<(), Refused> {
        let seat = self.keys.iter().position(|k| *k == from);
        let Some(voter) = seat else {
            return Err(if config.seat_of(&from).is_some() {
                stale("a message from a seat taken over by a computer player")
            } else {
                refuse("a message from a peer not seated at this table")
            });
        };
        match msg {
            TableMsg::Hand { bytes } => self.admit_hand(voter, bytes),
            TableMsg::Resync { .. } if self.resync_too_soon(voter) => {
                Err(stale("a resync too soon after the last one answered"))
            }
            TableMsg::Resync { .. } => Ok(()),
            TableMsg::Accept { sid, sig } => {
                if *sid != config.sid() || from.verify(sid, sig).is_err() {
                    return Err(refuse("an acceptance with a bad signature"));
                }
                if self.stage.agreed().is_some_and(|a| a.accepts[voter]) {
                    return Err(stale("a repeated acceptance"));
                }
                Ok(())
            }
            TableMsg::Start { config: c } if c == config => {
                Err(stale("the table configuration again"))
            }
            TableMsg::Start { .. } => Err(refuse("a different table configuration")),
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                sig,
            } => {
                let voter = voter as u8;
                if *seat > 3 || self.speaks_for(*seat) == self.speaks_for(voter) {
                    return Err(refuse("a timeout vote against its own seat or no seat"));
                }
                if *hand_no != self.hand_no || self.hand.as_ref().map(|h| h.hctx()) != Some(*hctx) {
                    return Err(stale("a timeout vote for another hand"));
                }
                let digest = timeout_digest(&config.sid(), *hand_no, hctx, *seat);
                if from.verify(&digest, sig).is_err() {
                    return Err(refuse("a timeout vote with a bad signature"));
                }
                if self
                    .votes
                    .get(&(*hctx, *seat))
                    .is_some_and(|v| v.contains(&voter))
                {
                    return Err(stale("a repeated timeout vote"));
                }
                Ok(())
            }
            TableMsg::Replace {
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => {
                if *seat > 3 {
                    return Err(refuse("a replacement for no seat"));
                }
                if *hand_no < self.hand_no {
                    return Err(stale("a replacement for an earlier hand"));
                }
                if *hand_no > self.hand_no || self.keys.contains(key) {
                    return Err(refuse("a replacement for a later hand or a seated key"));
                }
                if self
                    .awaiting_replacement
                    .is_some_and(|a| a != (*hand_no, *seat))
                {
                    return Err(refuse("a replacement for another seat"));
                }
                let digest = replace_digest(&config.sid(), *hand_no, *seat, key, seed);
                if from.verify(&digest, sig).is_err() {
                    return Err(refuse("a replacement with a bad signature"));
                }
                if self.runner_for(*seat) != Some(voter as u8) {
                    return Err(refuse("a replacement from a seat that does not run it"));
                }
                Ok(())
            }
            TableMsg::Quit { hand_no, sig } => {
                if *hand_no != self.hand_no {
                    return Err(stale("a leave for another hand"));
                }
                let digest = quit_digest(&config.sid(), *hand_no, voter as u8);
                if from.verify(&digest, sig).is_err() {
                    return Err(refuse("a leave with a bad signature"));
                }
                Ok(())
            }
            TableMsg::Return { state, sig } => {
                if [state.seat, state.dealer]
                    .into_iter()
                    .chain(state.runners.iter().flatten().copied())
                    .any(|n| n > 3)
                {
                    return Err(refuse("a seat given back naming no seat"));
                }
                if from
                    .verify(&return_digest(&config.sid(), state), sig)
                    .is_err()
                {
                    return Err(refuse("a seat given back with a bad signature"));
                }
                Ok(())
            }
            TableMsg::SeatHeld { .. } | TableMsg::Over { .. } => Ok(()),
            TableMsg::Ready { hand_no, sig } => self
                .check_ready(&from, *hand_no, sig)
                .map(|_| ())
                .map_err(|r| {
                    if r.is_stale() {
                        stale(r.what())
                    } else {
                        refuse(r.what())
                    }
                }),
            // Told apart before the stage's rules.
            TableMsg::Chat { .. } => Err(refuse("a chat line")),
            TableMsg::Join { .. } | TableMsg::Roster { .. } | TableMsg::Leave | TableMsg::Query => {
                Err(stale("a lobby message after the start"))
            }
        }
    }

    /// A hand message from the peer in seat `from`: well-formed, and signed when it is for a
    /// hand in play; one for a hand not started here waits in a bounded buffer per sender.
    fn admit_hand(&self, from: usize, bytes: &[u8]) -> Result<(), Refused> {
        let env = SignedEnvelope::from_wire(bytes).map_err(|_| refuse("a garbled hand message"))?;
        let header: Envelope = fairdeal_crypto::encoding::decode(&env.bytes)
            .map_err(|_| refuse("a garbled hand message"))?;
        let proxy = self.proxy.as_ref().and_then(|p| p.hand.as_ref());
        if let Some(hand) = [self.hand.as_ref(), proxy]
            .into_iter()
            .flatten()
            .find(|h| h.hctx() == header.sid)
        {
            // A copy of a message held already (a peer back from a crash sends what it sent
            // again, a resync answer crosses the message itself) changes nothing: not logged
            // again, so that nobody can grow the log by repeating valid messages. A different
            // message in the same slot is evidence of equivocation and goes on.
            if self
                .held
                .get(&(self.hand_no, header.sender, header.seq))
                .is_some_and(|held| held.as_slice() == bytes)
            {
                return Err(stale("a hand message held already"));
            }
            return env
                .verify(&hand.hctx(), &self.keys)
                .map(|_| ())
                .map_err(|_| refuse("a hand message with a bad signature"));
        }
        if self.early.iter().filter(|(s, _)| *s == from).count() >= MAX_EARLY_PER_SEAT {
            return Err(refuse("too many messages for a hand not started here"));
        }
        Ok(())
    }
}
