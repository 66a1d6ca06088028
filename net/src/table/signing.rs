//! Signing the configuration: every seat checks the host's configuration (its seat, its
//! nonce) and signs the table id, which hashes the whole configuration; when all four
//! signatures are in the game starts. A peer that connects again gets our signature and the
//! configuration once more.

use std::sync::Arc;

use fairdeal_crypto::{CardTable, Identity, PublicKey};

use super::msg::{SeatInfo, TableConfig, TableMsg};
use super::{Dest, TableError, TableEvent, TableSession, Unexpected};

impl TableSession {
    /// A connection to `peer` came up: if it is seated, send it what we have of the current
    /// hand (it may be back from a crash; duplicates are ignored).
    pub fn peer_connected(&mut self, peer: PublicKey) {
        if self.stage.config().is_none() || !self.keys.contains(&peer) || peer == self.me.key {
            return;
        }
        self.presence.link_up();
        let msgs: Vec<Vec<u8>> = self.own_recent.iter().map(|(_, b)| b.clone()).collect();
        // The seating, our acceptance and the configuration too, in case the game has not
        // started for it (what it was sent may have been lost with a dropped connection).
        if self.role.is_host()
            && let Some(roster) = self.roster_again()
        {
            self.send(Dest::Peer(peer), roster);
        }
        if let Some(sid) = self.stage.config().map(TableConfig::sid) {
            let sig = Identity::from_secret(self.secret).sign(&sid);
            self.send(Dest::Peer(peer), TableMsg::Accept { sid, sig });
            if let Some(config) = self.stage.config().cloned() {
                self.send(Dest::Peer(peer), TableMsg::Start { config });
            }
        }
        for bytes in msgs {
            self.send(Dest::Peer(peer), TableMsg::Hand { bytes });
        }
    }

    pub(super) fn on_start(
        &mut self,
        from: PublicKey,
        config: TableConfig,
    ) -> Result<(), TableError> {
        if let Some(existing) = self.stage.config() {
            return if *existing == config {
                Ok(())
            } else {
                Err(Unexpected::OtherConfig.into())
            };
        }
        let host = self.role.host(self.me.key);
        if host != Some(from) && from != self.me.key {
            // A peer may forward the host's configuration (after a restart); it must still
            // be the host's table: the host sits South.
            if config.seats[0] != from && host.is_some_and(|h| h != config.seats[0]) {
                return Err(Unexpected::ForeignConfig.into());
            }
        }
        let dealer = config.first_dealer;
        if (0..4).any(|i| config.seats[..i].contains(&config.seats[i])) {
            return Err(TableError::PlayerInTwoSeats);
        }
        let Some(seat) = config.seat_of(&self.me.key) else {
            return Err(TableError::NotSeated);
        };
        if config.nonces[seat.index()] != self.nonce() {
            // Not this game's configuration (an old game's replayed, or our nonce changed):
            // signing it could let a hand context of another game repeat.
            return Err(TableError::NotOurNonce);
        }
        let sid = config.sid();
        self.role.set_host(config.seats[0]);
        let known = self.roster.clone();
        self.roster = [0, 1, 2, 3].map(|i| {
            let addrs = known
                .iter()
                .flatten()
                .find(|s| s.key == config.seats[i])
                .map(|s| s.addrs.clone())
                .unwrap_or_default();
            Some(SeatInfo {
                key: config.seats[i],
                name: config.names[i].clone(),
                bot: config.bots[i],
                addrs,
            })
        });
        let table = CardTable::new(config.rules().deck_size() as u16)
            .ok()
            .map(Arc::new);
        self.head.dealer = dealer;
        self.keys = config.seats;
        let pending = self.stage.agree(config, table);
        let sig = Identity::from_secret(self.secret).sign(&sid);
        self.send(
            Dest::Seats,
            TableMsg::Accept {
                sid,
                sig: sig.clone(),
            },
        );
        self.on_accept(self.me.key, sid, &sig)?;
        for (from, sid, sig) in pending {
            let _ = self.on_accept(from, sid, &sig);
        }
        Ok(())
    }

    pub(super) fn on_accept(
        &mut self,
        from: PublicKey,
        sid: [u8; 32],
        sig: &fairdeal_crypto::Sig,
    ) -> Result<(), TableError> {
        let Some(config) = self.stage.config() else {
            // Kept until the configuration comes: one per player seated in the lobby.
            let seated =
                self.roster.iter().flatten().any(|s| s.key == from) || self.role.is_my_host(from);
            if let Some(lobby) = self.stage.lobby_mut()
                && seated
                && !lobby.pending_accepts.iter().any(|(k, _, _)| *k == from)
            {
                lobby.pending_accepts.push((from, sid, sig.clone()));
            }
            return Ok(());
        };
        let Some(seat) = config.seat_of(&from) else {
            return Err(TableError::NotSeated);
        };
        if sid != config.sid() || from.verify(&sid, sig).is_err() {
            return Err(TableError::BadSignature);
        }
        let Some(agreed) = self.stage.agreed_mut() else {
            return Ok(());
        };
        let first = agreed.accepts.iter().all(|a| *a);
        agreed.accepts[seat.index()] = true;
        agreed.accept_sigs[seat.index()] = Some(sig.clone());
        if !first && agreed.accepts.iter().all(|a| *a) {
            let config = agreed.config.clone();
            if let [Some(a), Some(b), Some(c), Some(d)] = agreed.accept_sigs.clone() {
                let entry = crate::transcript::Entry::Table {
                    config: Box::new(config.clone()),
                    accepts: Box::new([a, b, c, d]),
                };
                self.publish(None, entry);
            }
            self.stage.play();
            self.events.push_back(TableEvent::Started(Box::new(config)));
            self.start_hand();
        }
        Ok(())
    }
}
