//! Who is at the table: the last sign of life heard from each seat (any message, any ack, any
//! ping the node reports), what the hand waits on each seat for and since when, and from that
//! the two facts the table acts on:
//!
//! - a seat is *quiet* (shown as "lost connection") when nothing at all has come from it for a
//!   few seconds, or a message its client sends by itself (a share, a seed) is overdue;
//! - a seat is *silent* (voted out) when that has lasted the whole grace period.
//!
//! - a seat is *unheard* (said as "No answer from East for 6 s — is the network down?") when
//!   nothing at all has come from it for [`UNHEARD_MS`], whether the hand waits on it or not.
//!
//! A player who is thinking about a move is none of these: their client keeps answering pings, and a
//! decision has no deadline unless the table's move clock says so. A computer player's move
//! is no one's decision: overdue by the grace period, its seat is silent. Nor is the move of a
//! seat whose player signed a quit during the hand: nobody thinks at it any more, so what it
//! still owes is overdue from its quit. Only first-hand silence counts: a seat never votes
//! because another seat did.

use fairdeal_core::{Seat, SeatMap, SeatSet};

use super::TableSession;
use crate::hand::{Awaiting, HandSession};

/// How long without any sign of life before a seat is said to be out of reach. A connected
/// peer is heard at least once a second (its pings), so this is several missed in a row; a
/// seat busy with a shuffle proof still answers pings (its connections run on their own
/// tasks).
pub const UNHEARD_MS: u64 = 5_000;

/// How long without any sign of life (or with an automatic message overdue) before a seat is
/// shown as having lost its connection (or the grace period, if shorter). The node pings
/// every second, so this is many missed pings.
pub const QUIET_MS: u64 = 10_000;

/// The longest a computer player may take over one move (its thinking time is a few seconds
/// at most): past it, with its client still answering, its seat counts as silent. Never less
/// than the grace period.
pub const COMPUTER_MOVE_MS: u64 = 60_000;

/// How long a hand may stand still before this peer asks the others for what it may have
/// missed (`Resync`); doubled after each ask while nothing moves, up to [`RESYNC_MAX_MS`].
pub const RESYNC_MS: u64 = 2_000;

/// The longest wait between two resync requests while a hand stands still.
pub const RESYNC_MAX_MS: u64 = 30_000;

/// How long after a seat's `Quit` its client's last messages are not taken for its player
/// coming back: a client that quits still flushes what it sent and answers pings for a few
/// seconds (the node waits at most 3 s) before it stops.
pub const QUIT_LINGER_MS: u64 = 10_000;

/// How long every other seat must have been unheard from before this peer concludes that
/// nobody at the table answers any more (the others left, or finished the game without it).
pub const ALONE_MS: u64 = 120_000;

/// The most one step of the clock counts towards [`ALONE_MS`]: a machine that slept (or a
/// process stopped) sees every seat unheard at once when it wakes, which says nothing about
/// the others until it has listened for a while.
const ALONE_STEP_MS: u64 = 5_000;

/// What one seat is awaited for, identifying the expectation: the hand, how far it had come,
/// and the kind of message.
type AwaitKey = (u32, usize, Awaiting);

/// What the table judges waits by, from its configuration and its seats now: the grace
/// period, the seats computer players play (set up as one, or taken over), and the seats
/// that quit during the hand. A computer player's moves come by themselves, so a move overdue
/// by [`COMPUTER_MOVE_MS`] counts as silence like any automatic message; otherwise a runner
/// (or a client posing as a computer player) could hold a hand for ever by answering pings
/// and never moving. A seat that quit has nobody thinking at it: its move is overdue from its
/// quit, so a client that quits and still answers pings is voted out after the grace period
/// like a silent one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The grace period (ms).
    pub(crate) grace: u64,
    /// The seats computer players play.
    pub(crate) automatic: SeatSet,
    /// When each seat that quit during the hand did (`None`: it did not).
    pub(crate) quit: SeatMap<Option<u64>>,
}

/// Liveness of the four seats, fed with time by the caller.
#[derive(Debug, Clone, Default)]
pub(crate) struct Presence {
    /// The latest time the session was given.
    pub(crate) now: u64,
    /// When each seat was last heard from (`None`: not since this peer started).
    heard: SeatMap<Option<u64>>,
    /// Since when the hand has waited on each seat, for what.
    awaited: SeatMap<Option<(AwaitKey, u64)>>,
    /// The quiet seats last reported (for `Paused` / `Resumed`).
    pub(crate) reported: Vec<Seat>,
    /// The hand's progress when it last moved, and when.
    still: Option<(u32, usize, u64)>,
    /// When to ask for a resync next, and the current interval.
    next_resync: Option<(u64, u64)>,
    /// How long (in clock steps of at most [`ALONE_STEP_MS`]) every other seat has been
    /// unheard from, and when that was last counted.
    lonely: u64,
    lonely_at: Option<u64>,
    /// Whether [`Presence::alone`] has said so for the current stretch.
    lonely_said: bool,
}

impl Presence {
    /// A sign of life from `seat` now.
    pub(crate) fn heard(&mut self, seat: Seat, now: u64) {
        let h = &mut self.heard[seat];
        *h = Some(h.map_or(now, |t| t.max(now)));
    }

    /// The clock moved: records what the hand waits for (a new expectation starts its own
    /// clock) and gives seats never heard from since start-up a fresh start.
    pub(crate) fn observe(&mut self, now: u64, hand_no: u32, hand: Option<&HandSession>) {
        self.now = self.now.max(now);
        for h in &mut self.heard.0 {
            h.get_or_insert(self.now);
        }
        let awaiting = hand.map(HandSession::awaiting).unwrap_or_default();
        let progress = hand.map_or(0, HandSession::progress);
        for s in Seat::ALL {
            let kind = awaiting.iter().find(|(w, _)| *w == s).map(|(_, k)| *k);
            let slot = &mut self.awaited[s];
            match kind {
                None => *slot = None,
                Some(kind) => {
                    let key = (hand_no, progress, kind);
                    if slot.as_ref().is_none_or(|(k, _)| *k != key) {
                        *slot = Some((key, self.now));
                    }
                }
            }
        }
        match self.still {
            Some((h, p, _)) if h == hand_no && p == progress => {}
            _ => {
                self.still = Some((hand_no, progress, self.now));
                self.next_resync = None;
            }
        }
    }

    /// How long `seat` has given no reason to think it is there: the time since it was last
    /// heard from, or since an automatic message of its became due, whichever is longer.
    pub(crate) fn absence(&self, seat: Seat, limits: Limits) -> u64 {
        let unheard = self.heard[seat].map_or(0, |t| self.now.saturating_sub(t));
        let overdue = self
            .overdue_from(seat, limits)
            .map_or(0, |t| self.now.saturating_sub(t));
        unheard.max(overdue)
    }

    /// How long since `seat` was last heard from (0 if never since start-up: the clock starts
    /// when the session does, so time this peer spent stopped or crashed never counts).
    pub(crate) fn unheard(&self, seat: Seat) -> u64 {
        self.heard[seat].map_or(0, |t| self.now.saturating_sub(t))
    }

    /// Counts how long every seat in `others` has been unheard from for at least
    /// [`QUIET_MS`], in clock steps of at most [`ALONE_STEP_MS`] (a jump of the clock after a
    /// sleep counts as one step); any of them heard resets it. Returns, once per stretch,
    /// how long they have been unheard when that reaches [`ALONE_MS`].
    pub(crate) fn alone(&mut self, others: &[Seat]) -> Option<u64> {
        let step = self
            .lonely_at
            .map_or(0, |t| self.now.saturating_sub(t).min(ALONE_STEP_MS));
        self.lonely_at = Some(self.now);
        let all_quiet = !others.is_empty()
            && others
                .iter()
                .all(|&s| self.heard[s].is_some_and(|t| self.now.saturating_sub(t) >= QUIET_MS));
        if !all_quiet {
            self.lonely = 0;
            self.lonely_said = false;
            return None;
        }
        self.lonely = self.lonely.saturating_add(step);
        if self.lonely < ALONE_MS || std::mem::replace(&mut self.lonely_said, true) {
            return None;
        }
        others
            .iter()
            .filter_map(|&s| self.heard[s])
            .map(|t| self.now.saturating_sub(t))
            .min()
    }

    /// From when what the hand waits on `seat` for counts as overdue: at once for a message
    /// a client sends by itself; for a computer player's move, once it has had
    /// [`COMPUTER_MOVE_MS`] in all (grace period included); for the move of a seat that quit,
    /// from its quit; never for a person's decision.
    fn overdue_from(&self, seat: Seat, limits: Limits) -> Option<u64> {
        let ((_, _, kind), since) = self.awaited[seat].as_ref()?;
        if !kind.is_decision() {
            Some(*since)
        } else if let Some(quit) = limits.quit[seat] {
            Some((*since).max(quit))
        } else if limits.automatic.contains(seat) {
            Some(since.saturating_add(COMPUTER_MOVE_MS.saturating_sub(limits.grace)))
        } else {
            None
        }
    }

    /// Whether the hand waits on `seat` now.
    pub(crate) fn awaited(&self, seat: Seat) -> bool {
        self.awaited[seat].is_some()
    }

    /// The next time at which, with nothing heard, what this peer knows of the seats changes:
    /// a seat turns unheard, quiet or silent (the grace period), the standing hand is due a resync, or
    /// a lonely stretch counts another step. `now` when the hand waits for something the clock
    /// has not seen yet (its wait starts at the next [`Presence::observe`]).
    pub(crate) fn next_due(
        &self,
        limits: Limits,
        hand_no: u32,
        hand: Option<&HandSession>,
    ) -> Option<u64> {
        let now = self.now;
        let awaiting = hand.map(HandSession::awaiting).unwrap_or_default();
        let progress = hand.map_or(0, HandSession::progress);
        let unseen = awaiting.iter().any(|(s, kind)| {
            self.awaited[*s]
                .as_ref()
                .is_none_or(|(k, _)| *k != (hand_no, progress, *kind))
        });
        if unseen {
            return Some(now);
        }
        let grace = limits.grace;
        let after = [UNHEARD_MS, QUIET_MS.min(grace), grace];
        let heard = self.heard.values().flatten().copied();
        let overdue = Seat::ALL
            .into_iter()
            .filter_map(|s| self.overdue_from(s, limits));
        let crossings = heard
            .chain(overdue)
            .flat_map(|t| after.map(|l| t.saturating_add(l)));
        let waiting = self.awaited.values().any(Option::is_some);
        let resync = self.still.filter(|_| waiting).map(|(_, _, since)| {
            self.next_resync
                .map_or(since.saturating_add(RESYNC_MS), |(at, _)| at)
        });
        let lonely = self
            .lonely_at
            .filter(|_| self.lonely > 0)
            .map(|t| t + ALONE_STEP_MS);
        crossings
            .chain(resync)
            .chain(lonely)
            .filter(|&t| t > now)
            .min()
    }

    /// A connection to a seat came up (after an outage, a restart): if the hand is standing
    /// still, the next resync is asked at once rather than after the backed-off interval,
    /// which grew while nobody could answer.
    pub(crate) fn link_up(&mut self) {
        self.next_resync = None;
    }

    /// Whether to ask the others for what this peer may have missed now (the hand has stood
    /// still while waiting on someone); schedules the next ask with a longer interval.
    pub(crate) fn resync_due(&mut self) -> bool {
        let waiting = self.awaited.values().any(Option::is_some);
        let Some((_, _, since)) = self.still else {
            return false;
        };
        if !waiting {
            return false;
        }
        let (at, every) = self
            .next_resync
            .unwrap_or((since.saturating_add(RESYNC_MS), RESYNC_MS));
        if self.now < at {
            self.next_resync = Some((at, every));
            return false;
        }
        let every = (every * 2).min(RESYNC_MAX_MS);
        self.next_resync = Some((self.now.saturating_add(every), every));
        true
    }
}

impl TableSession {
    /// The seats this peer has heard nothing from for [`UNHEARD_MS`] or more, in seat order,
    /// each with how long (ms): never this seat nor one it runs a computer player for; only
    /// while the game is played (started, not over, not left).
    pub fn unheard(&self) -> Vec<(Seat, u64)> {
        if self.stage.config().is_none() || self.stage.finished().is_some() || self.left {
            return Vec::new();
        }
        let me = self.my_seat_index();
        let proxies = self.proxy_seats();
        Seat::ALL
            .into_iter()
            .filter(|&s| Some(s) != me && !proxies.contains(s))
            .filter(|&s| me.is_none() || self.bots.runner(s) != me)
            .map(|s| (s, self.presence.unheard(s)))
            .filter(|&(_, ms)| ms >= UNHEARD_MS)
            .collect()
    }

    /// How long `seat` may stay silent before this peer votes it out, and what then becomes of
    /// the hand: only while a hand is on (`None` between hands and once it is over).
    pub fn grace_left(&self, seat: Seat) -> Option<(u64, super::AfterGrace)> {
        let hand = self.hand.as_ref()?;
        let after = match hand.stage() {
            crate::hand::Stage::Done | crate::hand::Stage::Void => return None,
            crate::hand::Stage::Reveal | crate::hand::Stage::Result => super::AfterGrace::Counts,
            _ => super::AfterGrace::DealtAgain,
        };
        Some((self.grace_ms.saturating_sub(self.absence(seat)), after))
    }

    /// Whose client runs the computer player in `seat`, as far as this peer can tell: the seat
    /// that took it over, else the one person whose announced addresses are on the same
    /// machine (the window runs the computer players its player seats, on the same
    /// interfaces); `among` breaks a tie (the seats unheard together with it: the computer
    /// players of a client that went away go with it). When no one person can be told (the
    /// host is itself a computer player, or two people share the machine), the host's seat
    /// if it is on that machine and unheard with it: the host's client is the one that fills
    /// the empty seats with computer players. `None` for a person's seat, or when it cannot
    /// be told.
    pub fn client_of(&self, seat: Seat, among: &[Seat]) -> Option<Seat> {
        if let Some(r) = self.bots.runner(seat) {
            return Some(r);
        }
        // A guess from the machines: never this peer's own seat, which knows it is here
        // (a computer player started beside it on this machine may well be another process).
        self.guess_client(seat, among)
            .filter(|&c| Some(c) != self.my_seat_index())
    }

    /// [`TableSession::client_of`] for a computer player no runner plays: the one person on
    /// its machine, or the one of those unheard with it, or the host unheard with it there.
    fn guess_client(&self, seat: Seat, among: &[Seat]) -> Option<Seat> {
        let i = seat.index();
        let info = self.roster.get(i)?.as_ref()?;
        if !info.bot {
            return None;
        }
        let mine = machine(&info.addrs);
        let same: Vec<Seat> = self
            .roster
            .iter()
            .enumerate()
            .filter_map(|(j, s)| s.as_ref().map(|s| (j, s)))
            .filter(|(j, s)| *j != i && !s.bot && !mine.is_empty() && machine(&s.addrs) == mine)
            .map(|(j, _)| Seat::from_index(j))
            .collect();
        if let [one] = same.as_slice() {
            return Some(*one);
        }
        let with: Vec<Seat> = same.into_iter().filter(|s| among.contains(s)).collect();
        if let [one] = with.as_slice() {
            return Some(*one);
        }
        let host = self.roster.first()?.as_ref()?;
        (i != 0 && !mine.is_empty() && machine(&host.addrs) == mine && among.contains(&Seat::S))
            .then_some(Seat::S)
    }
}

/// The IP addresses of a seat's announced multiaddrs (text): the machine it runs on. Loopback
/// counts only when it is all there is (every peer of a table on one machine).
fn machine(addrs: &[String]) -> std::collections::BTreeSet<std::net::IpAddr> {
    let ips: std::collections::BTreeSet<std::net::IpAddr> = addrs
        .iter()
        .filter_map(|a| a.parse::<libp2p::Multiaddr>().ok())
        .filter_map(|a| {
            a.iter().find_map(|p| match p {
                libp2p::multiaddr::Protocol::Ip4(ip) => Some(std::net::IpAddr::V4(ip)),
                libp2p::multiaddr::Protocol::Ip6(ip) => Some(std::net::IpAddr::V6(ip)),
                _ => None,
            })
        })
        .collect();
    let lan: std::collections::BTreeSet<std::net::IpAddr> =
        ips.iter().copied().filter(|ip| !ip.is_loopback()).collect();
    if lan.is_empty() { ips } else { lan }
}

#[cfg(test)]
mod tests {
    use fairdeal_core::{HouseRules, Preset, Seat};
    use fairdeal_crypto::Identity;

    use super::super::TableSession;
    use super::super::msg::SeatInfo;

    /// A host's session whose roster is `seats` (bot, address) in seat order S W N E.
    fn table(seats: [(bool, &str); 4]) -> TableSession {
        let info = |i: usize| SeatInfo {
            key: Identity::from_secret([i as u8 + 1; 32]).public(),
            name: format!("p{i}"),
            bot: seats[i].0,
            addrs: vec![seats[i].1.to_owned()],
        };
        let mut t = TableSession::host(
            [1; 32],
            [9; 32],
            info(0),
            None,
            "t",
            Preset::Canasta,
            HouseRules::default(),
        );
        t.roster = [0, 1, 2, 3].map(|i| Some(info(i)));
        t
    }

    const HERE: &str = "/ip4/192.168.1.10/tcp/4001";
    const THERE: &str = "/ip4/192.168.1.20/tcp/4001";

    #[test]
    fn the_computer_players_of_a_host_that_is_a_person_are_its_clients() {
        let t = table([(false, HERE), (true, HERE), (false, THERE), (true, HERE)]);
        let among = [Seat::S, Seat::W, Seat::E];
        assert_eq!(t.client_of(Seat::W, &among), Some(Seat::S));
        assert_eq!(t.client_of(Seat::E, &among), Some(Seat::S));
        assert_eq!(t.client_of(Seat::S, &among), None);
    }

    /// Sabotage caught: without the host's seat as the last resort, a host that is a computer
    /// player (`host --bot … --computers WE`) left its computer players' client unsaid.
    #[test]
    fn the_computer_players_of_a_host_that_is_a_computer_player_are_its_clients() {
        let t = table([(true, HERE), (true, HERE), (true, THERE), (true, HERE)]);
        let among = [Seat::S, Seat::W, Seat::E];
        assert_eq!(t.client_of(Seat::W, &among), Some(Seat::S));
        assert_eq!(t.client_of(Seat::E, &among), Some(Seat::S));
        assert_eq!(t.client_of(Seat::S, &among), None);
        // Heard, the host is not the client of a computer player gone on its own.
        assert_eq!(t.client_of(Seat::W, &[Seat::W]), None);
    }

    /// On the host's own screen, the host is never guessed to be the client of a computer
    /// player that went silent: it is here, and knows it (a computer player on its machine
    /// may be another process). The others still say so.
    #[test]
    fn a_peer_is_never_guessed_the_client_on_its_own_screen() {
        let mut t = table([(false, HERE), (true, HERE), (false, THERE), (true, HERE)]);
        let among = [Seat::W, Seat::E];
        assert_eq!(
            t.client_of(Seat::W, &among),
            Some(Seat::S),
            "seen by another peer"
        );
        t.keys = [0, 1, 2, 3].map(|i| Identity::from_secret([i as u8 + 1; 32]).public());
        assert_eq!(
            t.client_of(Seat::W, &among),
            None,
            "on the host's own screen"
        );
        // A runner it knows of is said as it is.
        t.bots.take(Seat::W, Seat::S, [0; 32]);
        assert_eq!(t.client_of(Seat::W, &among), Some(Seat::S));
    }

    /// Every seat on one machine (loopback): the host, unheard with them, runs them.
    #[test]
    fn on_one_machine_the_host_unheard_with_them_runs_them() {
        let lo = "/ip4/127.0.0.1/tcp/4001";
        let t = table([(false, lo), (true, lo), (false, lo), (true, lo)]);
        let among = [Seat::S, Seat::W, Seat::E];
        assert_eq!(t.client_of(Seat::W, &among), Some(Seat::S));
        let t = table([(true, lo), (true, lo), (true, lo), (true, lo)]);
        assert_eq!(t.client_of(Seat::E, &among), Some(Seat::S));
        assert_eq!(t.client_of(Seat::E, &[Seat::N, Seat::E]), None);
    }
}
