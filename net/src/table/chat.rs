//! Table chat: short signed lines sent to the table, shown beside the move log, never part of
//! the rules, the hand audit, the game log or the result.
//!
//! A line is cleaned like a name (no control characters, trimmed) and at most [`MAX_CHAT`]
//! characters; a peer sends at most [`CHAT_BURST`] lines at once and one more every
//! [`CHAT_REFILL_MS`] (a line past that is refused, not stored), and the table keeps the
//! last [`CHAT_LINES`] lines, so a flood costs a bounded amount of memory and nothing on disk.

use std::collections::VecDeque;

use fairdeal_core::Seat;
use fairdeal_crypto::{Identity, PublicKey, Sig};

use super::msg::{TableMsg, chat_digest};
use super::{ChatRefused, Dest, NotNow, TableError, TableEvent, TableSession, Unexpected};

/// The longest chat line (characters).
pub const MAX_CHAT: usize = 200;
/// The chat lines kept (the oldest go first).
pub const CHAT_LINES: usize = 100;
/// The lines a seat may send at once.
pub const CHAT_BURST: u32 = 5;
/// A seat may send one more line every this many ms (after its burst).
pub const CHAT_REFILL_MS: u64 = 2_000;
/// Phrases a player sends with one click.
pub const QUICK_PHRASES: [&str; 4] = ["Good game", "Your turn", "Well played", "Good luck"];

/// A chat line as the table takes it: no control characters, trimmed, at most [`MAX_CHAT`]
/// characters (empty: nothing to send).
pub fn clean_chat(text: &str) -> String {
    let visible: String = text.chars().filter(|c| !c.is_control()).collect();
    let cut: String = visible.trim().chars().take(MAX_CHAT).collect();
    cut.trim_end().to_owned()
}

/// A line of table chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// Who said it.
    pub seat: Seat,
    /// What.
    pub text: String,
}

/// The chat's state at one peer.
#[derive(Debug, Clone, Default)]
pub(crate) struct Chat {
    lines: VecDeque<ChatLine>,
    /// The last line number taken from each seat.
    last_n: [u32; 4],
    /// Each seat's lines left to send now, and when they were counted.
    tokens: [Option<(u32, u64)>; 4],
    /// This peer's last line number.
    my_n: u32,
}

impl Chat {
    /// The lines `seat` may send at `now`.
    fn left(&self, seat: usize, now: u64) -> u32 {
        match self.tokens[seat] {
            None => CHAT_BURST,
            Some((left, at)) => {
                let refill = now.saturating_sub(at) / CHAT_REFILL_MS;
                u32::try_from(refill)
                    .unwrap_or(u32::MAX)
                    .saturating_add(left)
                    .min(CHAT_BURST)
            }
        }
    }

    /// Counts a line of `seat` at `now` (the caller checked [`Chat::left`]).
    fn spend(&mut self, seat: usize, now: u64) {
        let left = self.left(seat, now).saturating_sub(1);
        // Keep the part of a refill interval already run.
        let at = match self.tokens[seat] {
            Some((_, at)) if left + 1 < CHAT_BURST => {
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
    /// Says `text` to the table (cleaned; signed).
    ///
    /// # Errors
    ///
    /// Before the start, nothing left to say once cleaned, or too many lines just sent.
    pub fn say(&mut self, text: &str) -> Result<(), TableError> {
        let (Some(sid), Some(me)) = (
            self.stage.config().map(super::msg::TableConfig::sid),
            self.my_seat_index(),
        ) else {
            return Err(NotNow::NotStarted.into());
        };
        let text = clean_chat(text);
        if text.is_empty() {
            return Err(NotNow::NothingToSay.into());
        }
        let now = self.presence.now;
        // INVARIANT: me < 4: `my_seat_index` is a position in the four keys.
        let seat = usize::from(me);
        if self.chat.left(seat, now) == 0 {
            return Err(NotNow::ChatTooFast.into());
        }
        self.chat.spend(seat, now);
        self.chat.my_n += 1;
        let n = self.chat.my_n;
        let sig = Identity::from_secret(self.secret).sign(&chat_digest(&sid, me, n, &text));
        self.send(
            Dest::Seats,
            TableMsg::Chat {
                n,
                text: text.clone(),
                sig,
            },
        );
        self.chat_line(Seat::from_index(seat), text);
        Ok(())
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
    /// a seated sender, a clean line, a new number, signed, and not past the rate.
    pub(crate) fn check_chat(
        &self,
        from: &PublicKey,
        n: u32,
        text: &str,
        sig: &Sig,
    ) -> Result<u8, ChatRefused> {
        let Some(sid) = self.stage.config().map(super::msg::TableConfig::sid) else {
            return Err(ChatRefused::BeforeStart);
        };
        let Some(seat) = self
            .keys
            .iter()
            .position(|k| k == from && *k != self.me.key)
        else {
            return Err(ChatRefused::NotSeated);
        };
        if text.is_empty() || clean_chat(text) != text {
            return Err(ChatRefused::BadText);
        }
        if n <= self.chat.last_n[seat] {
            return Err(ChatRefused::Again);
        }
        if self.chat.left(seat, self.presence.now) == 0 {
            return Err(ChatRefused::TooFast);
        }
        if from
            .verify(&chat_digest(&sid, seat as u8, n, text), sig)
            .is_err()
        {
            return Err(ChatRefused::BadSignature);
        }
        Ok(seat as u8)
    }

    /// A chat line from a seat.
    pub(crate) fn on_chat(
        &mut self,
        from: PublicKey,
        n: u32,
        text: String,
        sig: &Sig,
    ) -> Result<(), TableError> {
        // INVARIANT: seat < 4: `check_chat` takes it from the sender's position in the keys.
        let seat = usize::from(
            self.check_chat(&from, n, &text, sig)
                .map_err(Unexpected::Chat)?,
        );
        let now = self.presence.now;
        self.chat.spend(seat, now);
        self.chat.last_n[seat] = n;
        self.chat_line(Seat::from_index(seat), text);
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
        let mut c = Chat::default();
        for _ in 0..CHAT_BURST {
            assert!(c.left(1, 0) > 0);
            c.spend(1, 0);
        }
        assert_eq!(c.left(1, 0), 0);
        assert_eq!(c.left(1, CHAT_REFILL_MS - 1), 0);
        assert_eq!(c.left(1, CHAT_REFILL_MS), 1);
        c.spend(1, CHAT_REFILL_MS + 500);
        assert_eq!(c.left(1, CHAT_REFILL_MS + 500), 0);
        assert_eq!(c.left(1, 2 * CHAT_REFILL_MS), 1);
        assert_eq!(c.left(1, 100 * CHAT_REFILL_MS), CHAT_BURST);
        assert_eq!(c.left(0, 0), CHAT_BURST, "per seat");
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
