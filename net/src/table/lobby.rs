//! The lobby: the host seats players as they join (a seat asked for, or the first free one),
//! swaps seats, and proposes the configuration once four sit (or when asked to start); a
//! joiner asks for a seat and may give it up before the start.

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;

use super::gate;
use super::msg::{SeatInfo, TableConfig, TableMsg};
use super::role::Role;
use super::{Dest, MsgKind, NotNow, TableError, TableEvent, TableSession, Unexpected};

impl TableSession {
    /// Host: the nonce each seated player joined with (zeros for a free seat; all zeros past
    /// the lobby).
    fn lobby_nonces(&self) -> [[u8; 32]; 4] {
        self.stage.lobby().map(|l| l.nonces).unwrap_or_default()
    }

    pub(super) fn on_join(
        &mut self,
        from: PublicKey,
        seat: SeatInfo,
        want: Option<Seat>,
        nonce: [u8; 32],
    ) -> Result<(), TableError> {
        if !self.role.is_host() {
            return Err(Unexpected::JoinNotHost.into());
        }
        if self.stage.config().is_some() {
            return Err(Unexpected::AfterStart(MsgKind::Join).into());
        }
        if seat.key != from {
            return Err(Unexpected::JoinForAnother.into());
        }
        // A name as clean peers send it, and a bounded seat card (it is sent to every seat).
        if !gate::seat_card_ok(&seat) {
            return Err(Unexpected::BadSeatCard.into());
        }
        if let Some(i) = self
            .roster
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.key == from))
        {
            // Joining again (after a restart): its latest nonce is the one it will check.
            if let Some(lobby) = self.stage.lobby_mut() {
                lobby.nonces[i] = nonce;
            }
        } else {
            let wanted = want.map(Seat::index).filter(|&w| self.roster[w].is_none());
            let Some(free) = wanted.or_else(|| self.roster.iter().position(Option::is_none)) else {
                return Err(Unexpected::TableFull.into());
            };
            self.roster[free] = Some(seat);
            if let Some(lobby) = self.stage.lobby_mut() {
                lobby.nonces[free] = nonce;
            }
        }
        self.broadcast_roster();
        self.propose_if_ready();
        Ok(())
    }

    pub(super) fn propose_if_ready(&mut self) {
        let full = self.roster.iter().all(Option::is_some);
        let go = self
            .stage
            .lobby()
            .is_some_and(|l| !l.hold || l.start_requested);
        if full && go && self.stage.config().is_none() {
            self.propose();
        }
    }

    /// Host: start only when [`TableSession::request_start`] is called (a lobby in which the
    /// host arranges the seats first), not as soon as four are seated.
    pub fn hold_start(&mut self) {
        if let Some(lobby) = self.stage.lobby_mut() {
            lobby.hold = true;
        }
    }

    /// Joiner: ask for seat `seat` when joining (a host sits South).
    pub fn want_seat(&mut self, seat: Option<Seat>) {
        if let Role::Joiner { want, .. } = &mut self.role {
            *want = seat;
        }
    }

    /// Host: start the game as soon as four are seated (now, or when the computer players
    /// on their way have joined).
    ///
    /// # Errors
    ///
    /// Not the host, or the game has started.
    pub fn request_start(&mut self) -> Result<(), TableError> {
        if !self.role.is_host() {
            return Err(NotNow::OnlyHostStarts.into());
        }
        if self.stage.config().is_some() {
            return Err(NotNow::Started.into());
        }
        if let Some(lobby) = self.stage.lobby_mut() {
            lobby.start_requested = true;
        }
        self.propose_if_ready();
        Ok(())
    }

    /// Host, before the start: swap the players of seats `a` and `b` (not South: the host
    /// keeps it), choosing partners.
    ///
    /// # Errors
    ///
    /// Not the host, the game has started, or one of them is South.
    pub fn swap_seats(&mut self, a: Seat, b: Seat) -> Result<(), TableError> {
        if !self.role.is_host() {
            return Err(NotNow::OnlyHostSeats.into());
        }
        if self.stage.config().is_some() {
            return Err(NotNow::Started.into());
        }
        if a == Seat::S || b == Seat::S {
            return Err(NotNow::HostKeepsSouth.into());
        }
        self.roster.swap(a.index(), b.index());
        if let Some(lobby) = self.stage.lobby_mut() {
            lobby.nonces.swap(a.index(), b.index());
        }
        self.broadcast_roster();
        Ok(())
    }

    /// Before the start: a joiner gives up its seat; the host closes the table.
    ///
    /// # Errors
    ///
    /// The game has started (a seat is then left by going silent, and taken over).
    pub fn leave(&mut self) -> Result<(), TableError> {
        if self.stage.config().is_some() {
            return Err(NotNow::Started.into());
        }
        match self.role {
            Role::Host { .. } => self.send_to_seated(&TableMsg::Leave),
            Role::Joiner {
                host: Some(host), ..
            } => self.send(Dest::Peer(host), TableMsg::Leave),
            Role::Joiner { host: None, .. } => {}
        }
        Ok(())
    }

    pub(super) fn on_leave(&mut self, from: PublicKey) -> Result<(), TableError> {
        if self.stage.config().is_some() {
            return Err(Unexpected::AfterStart(MsgKind::Leave).into());
        }
        if self.role.is_host() {
            let Some(i) = self
                .roster
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| s.key == from))
            else {
                return Err(TableError::NotSeated);
            };
            self.roster[i] = None;
            if let Some(lobby) = self.stage.lobby_mut() {
                lobby.nonces[i] = [0; 32];
            }
            self.broadcast_roster();
            Ok(())
        } else if self.role.is_my_host(from) {
            self.events.push_back(TableEvent::Closed);
            Ok(())
        } else {
            Err(Unexpected::NotFromHost(MsgKind::Leave).into())
        }
    }

    /// Seats still free (before the start).
    pub fn free_seats(&self) -> usize {
        self.roster.iter().filter(|s| s.is_none()).count()
    }

    pub(super) fn broadcast_roster(&mut self) {
        let msg = TableMsg::Roster {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seats: self.roster.clone(),
            nonces: self.lobby_nonces(),
        };
        self.send_to_seated(&msg);
        self.events
            .push_back(TableEvent::Roster(Box::new(self.roster.clone())));
    }

    /// The host's seating, sent again after the start to a seat whose connection came up.
    /// The configuration names the seats but not where they listen: a joiner whose copy of
    /// the last roster was lost with a dropped connection would know no way to reach a seat
    /// it has never heard from, and that seat none to reach it.
    pub(super) fn roster_again(&self) -> Option<TableMsg> {
        let config = self.stage.config()?;
        Some(TableMsg::Roster {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seats: self.roster.clone(),
            nonces: config.nonces,
        })
    }

    /// A roster the host sent again after the start: only the seat cards (where each seat
    /// listens) are taken, and only when they seat the configuration's players.
    pub(super) fn on_roster_again(
        &mut self,
        seats: [Option<SeatInfo>; 4],
    ) -> Result<(), TableError> {
        let Some(config) = self.stage.config() else {
            return Err(Unexpected::NotFromHost(MsgKind::Roster).into());
        };
        if !gate::roster_seats(config, &seats) {
            return Err(Unexpected::NotFromHost(MsgKind::Roster).into());
        }
        self.roster = seats.clone();
        self.events.push_back(TableEvent::Roster(Box::new(seats)));
        Ok(())
    }

    /// Sends `msg` to every other player seated in the lobby now.
    pub(super) fn send_to_seated(&mut self, msg: &TableMsg) {
        let keys: Vec<PublicKey> = self
            .roster
            .iter()
            .flatten()
            .map(|s| s.key)
            .filter(|k| *k != self.me.key)
            .collect();
        for k in keys {
            self.send(Dest::Peer(k), msg.clone());
        }
    }

    /// The host fixes the configuration once four are seated.
    pub(super) fn propose(&mut self) {
        let seats: Vec<&SeatInfo> = self.roster.iter().flatten().collect();
        if seats.len() != 4 {
            return;
        }
        let config = TableConfig {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seats: [seats[0].key, seats[1].key, seats[2].key, seats[3].key],
            names: [0, 1, 2, 3].map(|i| seats[i].name.clone()),
            bots: [0, 1, 2, 3].map(|i| seats[i].bot),
            first_dealer: Seat::E,
            proofs: fairdeal_crypto::ProofMode::default(),
            nonces: self.lobby_nonces(),
            move_clock_ms: self.role.move_clock_ms(),
        };
        let me = self.me.key;
        for k in config.seats.into_iter().filter(|k| *k != me) {
            self.send(
                Dest::Peer(k),
                TableMsg::Start {
                    config: config.clone(),
                },
            );
        }
        let _ = self.on_start(self.me.key, config);
    }

    /// Host, before the start: a move clock of `ms` a turn (0: none). It goes into the
    /// signed configuration, so every seat sees the same countdown.
    pub fn set_move_clock_ms(&mut self, ms: u64) {
        if self.stage.config().is_none()
            && let Role::Host { move_clock_ms } = &mut self.role
        {
            *move_clock_ms = ms;
        }
    }
}
