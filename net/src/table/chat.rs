//! Table chat: short signed lines sent to the table, shown beside the move log, never part of
//! the rules, the hand audit, the game log or the result.
//!
//! A line is cleaned like a name (no control characters, trimmed) and at most [`MAX_CHAT`]
//! characters; a peer sends at most [`CHAT_BURST`] lines at once and one more every
//! [`CHAT_REFILL_MS`], and the table keeps the last [`CHAT_LINES`] lines, so a flood costs a
//! bounded amount of memory and nothing on disk.
//!
//! A person who says more than the rate allows is not refused: their client holds up to
//! [`CHAT_HELD`] lines (shown in their own chat at once, in order) and sends each as the
//! rate allows, as a chat is expected to deliver what it shows. Past that, [`NotNow::ChatTooFast`].
//! The others take a line from a peer within [`CHAT_HEARD_BURST`] at once: the network may
//! bunch lines sent at the rate, and a line the sender saw go must not be lost on the way.
//!
//! A line as shown is a [`ChatLine`], defined with the table's public types (`types.rs`,
//! whose [`TableEvent::Chat`] carries it) and named here too.

use std::collections::VecDeque;

use fairdeal_core::{Seat, SeatMap};
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{Statement, TableMsg};
pub use super::types::ChatLine;
use super::{ChatRefused, Dest, NotNow, TableError, TableEvent, TableSession, Unexpected};

/// The longest chat line (characters).
pub const MAX_CHAT: usize = 200;
/// The chat lines kept (the oldest go first).
pub const CHAT_LINES: usize = 100;
/// The lines a seat may send at once.
pub const CHAT_BURST: u32 = 5;
/// A seat may send one more line every this many ms (after its burst).
pub const CHAT_REFILL_MS: u64 = 2_000;
/// The lines a client holds past its rate, to send as the rate allows.
pub const CHAT_HELD: usize = 5;
/// The lines taken from a peer at once: twice its own burst, room for lines sent at the rate
/// that the network delivered together.
pub const CHAT_HEARD_BURST: u32 = 2 * CHAT_BURST;
/// Phrases a player sends with one click.
pub const QUICK_PHRASES: [&str; 4] = ["Good game", "Your turn", "Well played", "Good luck"];

/// A chat line as the table takes it: no control characters, trimmed, at most [`MAX_CHAT`]
/// characters (empty: nothing to send).
pub fn clean_chat(text: &str) -> String {
    let visible: String = text.chars().filter(|c| !c.is_control()).collect();
    let cut: String = visible.trim().chars().take(MAX_CHAT).collect();
    cut.trim_end().to_owned()
}

/// The chat's state at one peer.
#[derive(Debug, Clone, Default)]
pub(crate) struct Chat {
    lines: VecDeque<ChatLine>,
    /// The last line number taken from each seat.
    last_n: SeatMap<u32>,
    /// Each seat's lines left to send now, and when they were counted.
    tokens: SeatMap<Option<(u32, u64)>>,
    /// This peer's last line number.
    my_n: u32,
    /// This peer's lines past its rate, oldest first, to send as the rate allows.
    held: VecDeque<String>,
}

impl Chat {
    /// The most lines `seat` may have at once: its own burst for this peer, a wider one for
    /// the others (see the module's words).
    fn burst(mine: bool) -> u32 {
        if mine { CHAT_BURST } else { CHAT_HEARD_BURST }
    }

    /// The lines `seat` may send at `now` (`mine`: this peer's own seat).
    fn left(&self, seat: Seat, now: u64, mine: bool) -> u32 {
        let burst = Self::burst(mine);
        match self.tokens[seat] {
            None => burst,
            Some((left, at)) => {
                let refill = now.saturating_sub(at) / CHAT_REFILL_MS;
                u32::try_from(refill)
                    .unwrap_or(u32::MAX)
                    .saturating_add(left)
                    .min(burst)
            }
        }
    }

    /// When `seat` may send its next line, if it may send none at `now`.
    fn next_line_at(&self, seat: Seat, now: u64, mine: bool) -> Option<u64> {
        if self.left(seat, now, mine) > 0 {
            return None;
        }
        let (_, at) = self.tokens[seat]?;
        Some(at + CHAT_REFILL_MS * (now.saturating_sub(at) / CHAT_REFILL_MS + 1))
    }

    /// Counts a line of `seat` at `now` (the caller checked [`Chat::left`]).
    fn spend(&mut self, seat: Seat, now: u64, mine: bool) {
        let left = self.left(seat, now, mine).saturating_sub(1);
        // Keep the part of a refill interval already run.
        let at = match self.tokens[seat] {
            Some((_, at)) if left + 1 < Self::burst(mine) => {
                now - (now.saturating_sub(at) % CHAT_REFILL_MS)
            }
            _ => now,
        };
        self.tokens[seat] = Some((left, at));
    }

    fn push(&mut self, line: ChatLine) {
        if self.lines.len() >= CHAT_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }
}

impl TableSession {
    /// Says `text` to the table (cleaned; signed): at once within the rate, else held and
    /// sent as the rate allows (shown in this peer's chat at once either way).
    ///
    /// # Errors
    ///
    /// Before the start, nothing left to say once cleaned, or [`CHAT_HELD`] lines already
    /// waiting for the rate.
    pub fn say(&mut self, text: &str) -> Result<(), TableError> {
        let Some(me) = self.chat_seat() else {
            return Err(NotNow::NotStarted.into());
        };
        let text = clean_chat(text);
        if text.is_empty() {
            return Err(NotNow::NothingToSay.into());
        }
        self.send_held_chat();
        if self.chat.held.len() >= CHAT_HELD {
            return Err(NotNow::ChatTooFast.into());
        }
        self.chat.held.push_back(text.clone());
        self.send_held_chat();
        self.chat_line(me, text);
        Ok(())
    }

    /// Sends the held lines the rate allows now (the clock's tick calls this too).
    pub(crate) fn send_held_chat(&mut self) {
        let (Some(sid), Some(me)) = (
            self.stage.config().map(super::msg::TableConfig::sid),
            self.chat_seat(),
        ) else {
            return;
        };
        let now = self.presence.now;
        while self.chat.left(me, now, true) > 0 {
            let Some(text) = self.chat.held.pop_front() else {
                return;
            };
            self.send_chat(sid, me, text, now);
        }
    }

    fn send_chat(&mut self, sid: [u8; 32], me: Seat, text: String, now: u64) {
        self.chat.spend(me, now, true);
        self.chat.my_n += 1;
        let n = self.chat.my_n;
        let sig = Statement::Chat {
            seat: me,
            n,
            text: &text,
        }
        .sign(&Identity::from_secret(self.secret), &sid);
        self.send(Dest::Seats, TableMsg::Chat { n, text, sig });
    }

    /// The seat this peer talks from ([`Self::talking_seat`]).
    fn chat_seat(&self) -> Option<Seat> {
        self.talking_seat(&self.me.key)
    }

    /// The seat `key` talks from: the one it plays, else the one it was dealt into while a
    /// computer player holds it (not once proven at fault); `None` before the start.
    fn talking_seat(&self, key: &PublicKey) -> Option<Seat> {
        let config = self.stage.config()?;
        let playing = SeatMap(self.keys).find(|k| k == key);
        playing.or_else(|| config.seat_of(key).filter(|&s| !self.barred.contains(s)))
    }

    /// When a line held for the rate may go: now if one may, else at the next refill.
    pub(crate) fn chat_due(&self) -> Option<u64> {
        let me = self.chat_seat()?;
        if self.chat.held.is_empty() {
            return None;
        }
        let now = self.presence.now;
        Some(self.chat.next_line_at(me, now, true).unwrap_or(now))
    }

    /// The lines said here and not yet sent (the rate holds them).
    pub fn chat_held(&self) -> usize {
        self.chat.held.len()
    }

    /// The chat lines kept, oldest first.
    pub fn chat_lines(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.lines.iter()
    }

    fn chat_line(&mut self, seat: Seat, text: String) {
        let line = ChatLine { seat, text };
        self.chat.push(line.clone());
        self.events.push_back(TableEvent::Chat(line));
    }

    /// Whether a chat line from `from` is one to show (the gate's and the handler's check):
    /// a seated sender, a clean line, a new number, signed, and not past the rate. A player
    /// whose seat a computer player holds while they are away still talks from that seat
    /// (friends waiting for their seat back are still at the table); one proven at fault does
    /// not.
    pub(crate) fn check_chat(
        &self,
        from: &PublicKey,
        n: u32,
        text: &str,
        sig: &Sig,
    ) -> Result<Seat, ChatRefused> {
        let Some(config) = self.stage.config() else {
            return Err(ChatRefused::BeforeStart);
        };
        let sid = config.sid();
        let Some(seat) = self.talking_seat(from).filter(|_| *from != self.me.key) else {
            return Err(ChatRefused::NotSeated);
        };
        if text.is_empty() || clean_chat(text) != text {
            return Err(ChatRefused::BadText);
        }
        if n <= self.chat.last_n[seat] {
            return Err(ChatRefused::Again);
        }
        if self.chat.left(seat, self.presence.now, false) == 0 {
            return Err(ChatRefused::TooFast);
        }
        if !(Statement::Chat { seat, n, text }).signed_by(from, &sid, sig) {
            return Err(ChatRefused::BadSignature);
        }
        Ok(seat)
    }

    /// A chat line from a seat.
    pub(crate) fn on_chat(
        &mut self,
        from: PublicKey,
        n: u32,
        text: String,
        sig: &Sig,
    ) -> Result<(), TableError> {
        let seat = self
            .check_chat(&from, n, &text, sig)
            .map_err(Unexpected::Chat)?;
        let now = self.presence.now;
        self.chat.spend(seat, now, false);
        self.chat.last_n[seat] = n;
        self.chat_line(seat, text);
        Ok(())
    }

    /// Replaying a line we sent (the log keeps what this peer sends): later lines are
    /// numbered after it; it is not shown again.
    pub(crate) fn replay_chat(&mut self, n: u32) {
        self.chat.my_n = self.chat.my_n.max(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_cleaned_like_a_name() {
        assert_eq!(clean_chat("  hi\u{7}\n there  "), "hi there");
        assert_eq!(clean_chat("\u{1b}[2J"), "[2J");
        assert_eq!(clean_chat(&"x".repeat(500)).chars().count(), MAX_CHAT);
        assert_eq!(clean_chat(" \t "), "");
    }

    #[test]
    fn the_rate_refills_one_line_at_a_time() {
        for (mine, burst) in [(true, CHAT_BURST), (false, CHAT_HEARD_BURST)] {
            let mut c = Chat::default();
            for _ in 0..burst {
                assert!(c.left(Seat::W, 0, mine) > 0);
                c.spend(Seat::W, 0, mine);
            }
            assert_eq!(c.left(Seat::W, 0, mine), 0);
            assert_eq!(c.left(Seat::W, CHAT_REFILL_MS - 1, mine), 0);
            assert_eq!(c.left(Seat::W, CHAT_REFILL_MS, mine), 1);
            c.spend(Seat::W, CHAT_REFILL_MS + 500, mine);
            assert_eq!(c.left(Seat::W, CHAT_REFILL_MS + 500, mine), 0);
            assert_eq!(c.left(Seat::W, 2 * CHAT_REFILL_MS, mine), 1);
            assert_eq!(c.left(Seat::W, 100 * CHAT_REFILL_MS, mine), burst);
            assert_eq!(c.left(Seat::S, 0, mine), burst, "per seat");
        }
    }

    #[test]
    fn only_the_last_lines_are_kept() {
        let mut c = Chat::default();
        for i in 0..(CHAT_LINES + 30) {
            c.push(ChatLine {
                seat: Seat::S,
                text: i.to_string(),
            });
        }
        assert_eq!(c.lines.len(), CHAT_LINES);
        assert_eq!(c.lines.front().map(|l| l.text.as_str()), Some("30"));
    }
}
