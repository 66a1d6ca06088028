//! When the table next needs the clock: every deadline it keeps, in one place, so that a
//! caller that calls [`TableSession::handle_timeout`] at [`TableSession::poll_timeout`] and
//! whenever a message arrives misses nothing, with no periodic tick of its own. (The node
//! still ticks once a second, for its pings, redials and the LAN; the table does not need
//! it.)

use super::TableSession;
use super::presence::RESYNC_MS;

impl TableSession {
    /// When [`TableSession::handle_timeout`] should next be called: the earliest of a
    /// computer player's move, the countdown to the next hand, the move clock (the caller
    /// then asks [`TableSession::timed_out_move`]), a chat line
    /// the rate held, asking again for a join or the acceptances before the first hand, and
    /// the next change in what this peer knows of the seats (unheard, quiet, silent past the
    /// grace period, a resync due). After `handle_timeout(now)` it is later than `now`, or
    /// `None` when nothing is pending.
    pub fn poll_timeout(&self) -> Option<u64> {
        let now = self.presence.now;
        let started = self.stage.config().is_some();
        let on = !self.left && self.stage.finished().is_none();
        let presence = (started && on)
            .then(|| {
                self.presence
                    .next_due(self.limits(), self.head.hand_no, self.hand.as_ref())
            })
            .flatten();
        let ask = (on && self.head.hand_no == 0)
            .then(|| self.last_ask.map_or(now, |t| t.saturating_add(RESYNC_MS)));
        let clock = self
            .move_clock()
            .filter(|&(seat, left)| left > 0 && Some(seat) == self.my_seat_index())
            .map(|(_, left)| now.saturating_add(left));
        self.bot_due
            .into_iter()
            .chain(self.proxies.iter().filter_map(|p| p.due))
            .chain(self.pace_deadline())
            .chain(presence)
            .chain(ask)
            .chain(clock)
            .chain(self.chat_due())
            .min()
    }
}
