//! What a node does for its front end and its clock: the person's view and turn, their
//! intents (a lobby action, a move, leaving), what the next hand waits for, the session's
//! deadlines, and the once-a-second tick (who the table waits for, redials, LAN queries).

use std::time::Duration;

use fairdeal_core::Move;
use libp2p::PeerId;

use super::super::{NodeError, NodeEvent, Role, Unheard};
use super::{Node, REDIAL_TICKS};
use crate::store::Record;
use crate::table::TableSession;

/// The most moves a person who left plays in one tick (a turn has a few).
const PLAY_OUT_MOVES: usize = 16;

/// How long (in the node's one-second ticks) a guest waits for a seat before it is told why
/// there may be none.
const UNSEATED_SECS: u64 = 15;

impl Node {
    /// Between hands: tells the front end what the next hand waits for when that changed
    /// (`always`: the countdown too).
    pub(super) async fn report_next_hand(&mut self, always: bool) {
        let next = self.session.next_hand();
        if next.is_none() && self.session.has_left() {
            // A resumed log may have ended on a scored hand: the sheet it shows again waits
            // for nothing this seat can do.
            if !std::mem::replace(&mut self.told_out, true) {
                let _ = self.events.send(NodeEvent::NextHand(None)).await;
            }
            self.last_next = None;
            return;
        }
        self.told_out = false;
        let key = next.as_ref().map(|n| (n.after, n.waiting.clone(), n.ready));
        if (always || key != self.last_next)
            && let Some(next) = next
        {
            let _ = self.events.send(NodeEvent::NextHand(Some(next))).await;
        }
        self.last_next = key;
    }

    /// Shows a person the table whenever it changes, and their turn once per state.
    pub(super) async fn prompt_person(&mut self) {
        if self.opts.bot.is_some() {
            return;
        }
        let Some(hand) = self.session.hand() else {
            return;
        };
        let Some(view) = hand.view() else { return };
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.session.hand_no().hash(&mut h);
            view.position().public_state().hash(&mut h);
            view.hand().hash(&mut h);
            view.turn_state().hash(&mut h);
            h.finish()
        };
        if self.prompted == Some(key) {
            return;
        }
        self.prompted = Some(key);
        let mine = hand.my_turn();
        let _ = self
            .events
            .send(NodeEvent::View(Box::new(view.clone())))
            .await;
        if mine {
            let _ = self.events.send(NodeEvent::YourTurn(Box::new(view))).await;
        }
    }

    /// A lobby action of the host (logged through the messages it produces).
    pub(crate) async fn lobby(
        &mut self,
        action: impl FnOnce(&mut TableSession) -> Result<(), crate::table::TableError>,
    ) {
        if let Err(e) = action(&mut self.session) {
            let _ = self.events.send(NodeEvent::Refused(e.to_string())).await;
        }
    }

    /// A person's move.
    pub(crate) async fn play(&mut self, mv: Move) -> Result<(), NodeError> {
        let json = serde_json::to_string(&mv).unwrap_or_default();
        match self.session.submit(mv) {
            Ok(()) => self.log.append(&Record::Intent { json })?,
            Err(r) => {
                let _ = self
                    .events
                    .send(NodeEvent::Refused(r.reason.to_string()))
                    .await;
            }
        }
        Ok(())
    }

    /// Milliseconds on the node's monotonic clock.
    pub(super) fn now_ms(&self) -> u64 {
        u64::try_from(self.clock.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// When the session next wants the clock (a computer player thinking), as an instant.
    pub(crate) fn next_deadline(&self) -> Option<tokio::time::Instant> {
        let at = self.session.poll_timeout()?;
        let wait = at.saturating_sub(self.now_ms());
        Some(tokio::time::Instant::now() + Duration::from_millis(wait))
    }

    /// The session's deadline came: let it act.
    pub(crate) fn on_deadline(&mut self) {
        let now = self.now_ms();
        self.session.handle_timeout(now);
    }

    /// A person leaves a game under way: the others are told (signed) and a computer player
    /// takes the seat at once.
    pub(crate) async fn quit(&mut self) {
        if let Err(e) = self.session.quit() {
            let _ = self.events.send(NodeEvent::Refused(e.to_string())).await;
        }
    }

    /// A person leaves a game under way. With no hand being played the others are told
    /// (signed) and a computer player takes the seat at once (true); during a hand the node
    /// plays the seat to the hand's end first ([`Self::play_out`]) so that it is scored.
    pub(crate) async fn leave_game(&mut self) -> bool {
        match self.session.leave_after_hand() {
            Ok(crate::table::Leaving::Quit) => true,
            Ok(crate::table::Leaving::AfterHand) => false,
            Err(e) => {
                let _ = self.events.send(NodeEvent::Refused(e.to_string())).await;
                true
            }
        }
    }

    /// While a person who left plays the hand out: the client's moves for them, logged as
    /// theirs (as the move clock's is), as many as the turn has now (a turn's melds and
    /// discard at once; a draw waits for the others' shares). True once the `Quit` may go
    /// out: the hand is over and every message of ours has been answered.
    pub(crate) async fn play_out(&mut self) -> Result<bool, NodeError> {
        if !self.session.leaving_after_hand() {
            return Ok(false);
        }
        for _ in 0..PLAY_OUT_MOVES {
            let Some(mv) = self.session.leaving_move() else {
                break;
            };
            self.play(mv).await?;
        }
        Ok(self.session.quit_due() && self.pending == 0)
    }

    /// Once a second: report who the table waits for, and redial lost seats; while looking for
    /// a table by name, ask the peers found on the LAN again every few seconds.
    pub(crate) async fn on_tick(&mut self) {
        let now = self.now_ms();
        self.session.handle_timeout(now);
        if let Some((seat, left_ms)) = self.session.move_clock() {
            let _ = self.events.send(NodeEvent::Clock { seat, left_ms }).await;
        }
        self.report_next_hand(true).await;
        if let Some(mv) = self.session.timed_out_move() {
            // The move clock ran out on the person's turn: their client plays for them,
            // logged as their own move.
            if let Err(e) = self.play(mv).await {
                tracing::warn!("playing the move the clock chose: {e}");
            }
        }
        self.ticks += 1;
        if self.ticks.is_multiple_of(REDIAL_TICKS)
            && !self.joined
            && self.unreached.is_some()
            && let Role::Join {
                address: Some(addr),
                ..
            } = &self.opts.role
        {
            let _ = self.swarm.dial(addr.clone());
        }
        if self.ticks.is_multiple_of(3) && !self.joined {
            self.queried.clear();
            let found: Vec<PeerId> = self.lan.iter().copied().collect();
            for peer in found {
                self.query(peer);
            }
        }
        let waiting = self.session.waiting_on();
        if waiting != self.last_waiting {
            self.last_waiting.clone_from(&waiting);
            let _ = self.events.send(NodeEvent::Waiting(waiting)).await;
        }
        self.dial_missing();
        self.retry_relay(self.ticks);
        self.guard_tick();
        self.report_unheard().await;
        self.note_unseated().await;
    }

    /// A guest the host has not seated after [`UNSEATED_SECS`] of ticks is told why that
    /// may be, once: a full table, or a game started without it, refuses a stranger without
    /// a word (the host answers no one it does not seat), and a silent wait looks broken.
    async fn note_unseated(&mut self) {
        let me = self.session.key();
        let seated = self.session.roster().iter().flatten().any(|s| s.key == me);
        if self.said_unseated
            || self.ticks < UNSEATED_SECS
            || self.session.is_host()
            || self.session.config().is_some()
            || seated
            || self.unreached.is_some()
        {
            return;
        }
        self.said_unseated = true;
        let line = match &self.opts.role {
            // Looking for a table by name that no host on the LAN has answered to: nobody
            // was asked for a seat yet.
            Role::Join {
                table: Some(name), ..
            } if !self.joined => format!(
                "no table named \"{name}\" found on the LAN after {UNSEATED_SECS} s ({} peers \
                 asked); check the name, or join by the host's address; still looking",
                self.queried.len()
            ),
            _ => format!(
                "no seat yet after {UNSEATED_SECS} s: the table may be full, or its game \
                 started without you; still asking"
            ),
        };
        let _ = self.events.send(NodeEvent::Status(line)).await;
    }

    /// Tells the front end who this peer hears nothing from (every second while anyone),
    /// and once when everyone is heard again.
    async fn report_unheard(&mut self) {
        let unheard = self.session.unheard();
        if unheard.is_empty() && !std::mem::take(&mut self.said_unheard) {
            return;
        }
        self.said_unheard = !unheard.is_empty();
        let seats: Vec<fairdeal_core::Seat> = unheard.iter().map(|(s, _)| *s).collect();
        let list = unheard
            .iter()
            .map(|&(seat, ms)| Unheard {
                seat,
                ms,
                client: self.session.client_of(seat, &seats),
                grace_left: self.session.grace_left(seat),
            })
            .collect();
        let _ = self.events.send(NodeEvent::Unheard(list)).await;
    }
}
