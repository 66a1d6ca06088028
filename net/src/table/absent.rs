//! A seat that stops answering: the table pauses, and after the grace period the other three
//! co-sign a timeout; the hand is void (no score) and redealt with a computer player in the
//! silent seat, run by the lowest remaining seat under a fresh identity it announces.

use std::collections::BTreeSet;

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{Seat, SplitMix64};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{TableMsg, replace_digest, timeout_digest};
use super::{Dest, TableError, TableEvent, TableSession, derive};
use crate::hand::HandSession;

/// The default grace period before a silent seat's hand is voided.
pub const DEFAULT_GRACE_MS: u64 = 60_000;

/// A computer player this peer runs for a seat whose player left.
pub(crate) struct Proxy {
    pub(crate) seat: u8,
    pub(crate) secret: [u8; 32],
    pub(crate) bot: Box<dyn Strategy + Send>,
    pub(crate) rng: SplitMix64,
    pub(crate) hand: Option<HandSession>,
}

impl TableSession {
    /// Sets the grace period (default one minute).
    pub fn set_grace_ms(&mut self, ms: u64) {
        self.grace_ms = ms;
    }

    /// The seat this peer runs a computer player for, if any.
    pub fn proxy_seat(&self) -> Option<Seat> {
        self.proxy
            .as_ref()
            .map(|p| Seat::from_index(usize::from(p.seat)))
    }

    /// The other seated peers to send to (not this peer, not the seat it runs).
    pub fn peers(&self) -> Vec<PublicKey> {
        let proxy_key = self
            .proxy
            .as_ref()
            .map(|p| Identity::from_secret(p.secret).public());
        self.keys
            .iter()
            .copied()
            .filter(|k| *k != self.me.key && Some(*k) != proxy_key && *k != PublicKey([0; 32]))
            .collect()
    }

    /// The clock moved to `now_ms` (a monotonic clock, in milliseconds): pauses, and timeout
    /// votes once a seat has been silent past the grace period.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        let waiting: Vec<Seat> = self.waiting_on();
        let Some(hctx_hand) = self.hand.as_ref().map(|_| self.hand_no) else {
            self.waiting = None;
            return;
        };
        if waiting.is_empty() {
            if self.waiting.take().is_some() {
                self.events.push_back(TableEvent::Resumed);
            }
            return;
        }
        let since = match &self.waiting {
            Some((seats, since)) if *seats == waiting => *since,
            _ => {
                self.waiting = Some((waiting.clone(), now_ms));
                self.events.push_back(TableEvent::Paused(waiting.clone()));
                now_ms
            }
        };
        if now_ms.saturating_sub(since) < self.grace_ms {
            return;
        }
        let me = self.my_seat_index();
        // The seats we wait for, and the seats they have voted out: a seat waiting on a live
        // player who is himself stuck behind the silent one agrees with him.
        let waited: Vec<u8> = waiting.iter().map(|s| s.index() as u8).collect();
        let mut silent: Vec<u8> = waited.clone();
        for ((hand, seat), voters) in &self.votes {
            if *hand == hctx_hand
                && voters.iter().any(|v| waited.contains(v))
                && !silent.contains(seat)
            {
                silent.push(*seat);
            }
        }
        for s in silent {
            if Some(s) == me || self.proxy.as_ref().is_some_and(|p| p.seat == s) {
                continue;
            }
            self.vote_timeout(hctx_hand, s);
        }
    }

    /// Votes (once) to void hand `hand_no` for the silent `seat`: signed and sent. Called by
    /// [`TableSession::handle_timeout`], and when a log is replayed.
    pub fn vote_timeout(&mut self, hand_no: u32, seat: u8) {
        let Some(sid) = self.config.as_ref().map(super::msg::TableConfig::sid) else {
            return;
        };
        if hand_no != self.hand_no || !self.voted.insert((hand_no, seat)) {
            return;
        }
        let sig = Identity::from_secret(self.secret).sign(&timeout_digest(&sid, hand_no, seat));
        self.send(
            Dest::Seats,
            TableMsg::Timeout {
                hand_no,
                seat,
                sig: sig.clone(),
            },
        );
        let my_key = self.me.key;
        let _ = self.on_timeout(my_key, hand_no, seat, &sig);
    }

    pub(crate) fn my_seat_index(&self) -> Option<u8> {
        self.keys
            .iter()
            .position(|k| *k == self.me.key)
            .map(|i| i as u8)
    }

    pub(crate) fn on_timeout(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        seat: u8,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let sid = self
            .config
            .as_ref()
            .map(super::msg::TableConfig::sid)
            .ok_or(TableError::Unexpected("timeout"))?;
        let voter = self
            .keys
            .iter()
            .position(|k| *k == from)
            .ok_or(TableError::NotSeated)? as u8;
        if seat > 3 || voter == seat || hand_no != self.hand_no {
            return Err(TableError::Unexpected("timeout"));
        }
        if from
            .verify(&timeout_digest(&sid, hand_no, seat), sig)
            .is_err()
        {
            return Err(TableError::BadSignature);
        }
        let votes = self.votes.entry((hand_no, seat)).or_default();
        votes.insert(voter);
        let all: BTreeSet<u8> = (0..4u8).filter(|&s| s != seat).collect();
        if *votes == all && self.hand.is_some() {
            self.void_hand(seat);
        }
        Ok(())
    }

    /// Three seats agreed that `seat` is gone: the hand is void and redealt, with a computer
    /// player in the seat.
    fn void_hand(&mut self, seat: u8) {
        let hand_no = self.hand_no;
        let hctx = self
            .hand
            .as_ref()
            .map(HandSession::hctx)
            .unwrap_or_default();
        self.hand = None;
        if let Some(p) = &mut self.proxy {
            p.hand = None;
        }
        self.waiting = None;
        self.prev_result = hash256(b"fairdeal/v1/void", &[&hctx, &[seat]]);
        self.events.push_back(TableEvent::HandVoided {
            hand_no,
            seat: Seat::from_index(usize::from(seat)),
        });
        let runner = (0..4u8).find(|&s| s != seat);
        if runner == self.my_seat_index() {
            let secret = derive(
                &self.master,
                b"proxy",
                &[&hand_no.to_le_bytes()[..], &[seat]].concat(),
            );
            let key = Identity::from_secret(secret).public();
            let Some(sid) = self.config.as_ref().map(super::msg::TableConfig::sid) else {
                return;
            };
            let sig =
                Identity::from_secret(self.secret).sign(&replace_digest(&sid, hand_no, seat, &key));
            self.send(
                Dest::Seats,
                TableMsg::Replace {
                    hand_no,
                    seat,
                    key,
                    sig,
                },
            );
            let rng_seed = derive(&self.master, b"proxy-bot", &[seat]);
            self.proxy = Some(Proxy {
                seat,
                secret,
                bot: by_name("expert").unwrap_or_else(|| Box::new(fairdeal_core::strategy::Random)),
                rng: SplitMix64::new(u64::from_le_bytes(
                    rng_seed[..8].try_into().unwrap_or([0; 8]),
                )),
                hand: None,
            });
            self.keys[usize::from(seat)] = key;
            self.redeal();
        } else {
            self.awaiting_replacement = Some((hand_no, seat));
            self.apply_early_replace();
        }
    }

    pub(crate) fn on_replace(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        seat: u8,
        key: PublicKey,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let sid = self
            .config
            .as_ref()
            .map(super::msg::TableConfig::sid)
            .ok_or(TableError::Unexpected("replace"))?;
        let runner = (0..4u8).find(|&s| s != seat).unwrap_or(0);
        // Checked before it is kept, so that nobody but the runner can take its place.
        if seat > 3
            || self.keys[usize::from(runner)] != from
            || from
                .verify(&replace_digest(&sid, hand_no, seat, &key), sig)
                .is_err()
        {
            return Err(TableError::BadSignature);
        }
        if self.awaiting_replacement != Some((hand_no, seat)) {
            // Before we voided ourselves: keep it until our own votes agree.
            self.early_replace = Some((from, hand_no, seat, key, sig.clone()));
            return Ok(());
        }
        self.awaiting_replacement = None;
        self.keys[usize::from(seat)] = key;
        self.redeal();
        Ok(())
    }

    /// Starts the voided hand again (same dealer, same scores).
    fn redeal(&mut self) {
        self.start_hand();
    }

    /// A replacement that arrived before our own void, applied once we void.
    pub(crate) fn apply_early_replace(&mut self) {
        if let (Some((from, hand_no, seat, key, sig)), Some(_)) =
            (self.early_replace.clone(), self.awaiting_replacement)
        {
            self.early_replace = None;
            let _ = self.on_replace(from, hand_no, seat, key, &sig);
        }
    }
}
