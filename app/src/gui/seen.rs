//! What the player saw happen, worked out from the moves and the views that follow them:
//! each seat's last turn (highlighted until that seat's next turn), the cards just drawn,
//! canastas just completed, the red threes a draw laid out, new melds' numbers in the move
//! log, the cards in flight (the animations) and the sounds they make. Pure: the frame's time
//! is passed in.

use std::collections::HashMap;

pub use super::played::{MoveEffect, Played};
use eframe::egui::Rect;
use fairdeal_core::{Card, Move, PlayerView, Seat, Team};

pub use super::last_turn::LastTurn;
use super::last_turn::labels;
use super::move_words;
#[cfg(test)]
use super::seen_melds::merged;
pub use super::seen_melds::{Place, kind_words};
use super::seen_melds::{dealt_threes, plan_effect, replayed_canastas};

/// A card moving across the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The card (hidden: a back).
    pub card: Card,
    /// From.
    pub from: Place,
    /// To.
    pub to: Place,
    /// Seconds after its batch begins.
    pub delay: f64,
    /// When it started (set by the first frame that shows it).
    pub start: Option<f64>,
}

/// A canasta or samba just completed.
#[derive(Debug, Clone, PartialEq)]
pub struct Completed {
    /// The team.
    pub team: Team,
    /// The meld's index.
    pub index: usize,
    /// What it is ("natural canasta").
    pub what: &'static str,
    /// Its bonus.
    pub bonus: i32,
    /// When the celebration began (set by the first frame that shows it).
    pub start: Option<f64>,
}

/// How long a card flies, seconds.
pub const FLIGHT: f64 = 0.25;
/// How long a completed canasta is celebrated, seconds.
pub const CELEBRATION: f64 = 2.5;
/// The most cards one move sends flying (the rest are just there, outlined).
pub const MAX_FLIGHTS_PER_MOVE: usize = 8;
/// The time between two cards of one move taking off, seconds.
const FLIGHT_STAGGER: f64 = 0.05;
/// A batch bigger than this (a resume replaying a hand) is not animated.
const MAX_ANIMATED_MOVES: usize = 12;

/// A move not yet seen in a view, and its line in the move log.
#[derive(Debug)]
struct Pending {
    played: Played,
    line: Option<usize>,
    /// The hand it was played in (counted by [`Seen::dealt`]).
    hand: u64,
}

/// What was seen.
#[derive(Debug, Default)]
pub struct Seen {
    pending: Vec<Pending>,
    turn_of: Option<Seat>,
    seq: u64,
    dealt: bool,
    /// Each seat's last turn (S, W, N, E).
    pub last: [LastTurn; 4],
    /// Who discarded the pile's top card.
    pub last_discarder: Option<Seat>,
    /// The cards the player just drew (marked in the hand until their next turn).
    pub drawn: Vec<Card>,
    /// Cards in flight.
    pub flights: Vec<Flight>,
    /// Canastas just completed.
    pub completed: Vec<Completed>,
    /// Where each place was drawn in the last frame.
    pub places: HashMap<Place, Rect>,
    /// Where each team's meld area showed in the last frame (a celebration stays inside it).
    pub meld_areas: [Option<Rect>; 2],
    /// Animations already running end at this time.
    busy_until: f64,
    /// Hands dealt so far (a resume replays every hand's moves before one view).
    hands: u64,
    /// Each team's melds in the last view seen (where the next new meld's number starts).
    shown: [usize; 2],
    /// The same when the hand before this one was last seen: its moves not yet seen in a
    /// view number their new melds from here.
    shown_before: [usize; 2],
    /// The table's answer to the player's last key or click that did nothing (kept until
    /// the player's turn begins or they act again).
    pub say: Option<String>,
    /// The table is shown to an onlooker: melds are said by their team's seats.
    pub onlooker: bool,
    /// What the table would sound for the moves seen (taken by the window every frame).
    pub cues: Vec<super::sound::Cue>,
    /// The meld the latest move played onto, to be scrolled into sight once (a new meld in
    /// a row below the meld area's edge was the one hidden).
    pub reveal: Option<(Team, usize)>,
}

impl Seen {
    /// The seat whose words the table speaks in (`None`: an onlooker's).
    pub(super) fn me(&self, after: &PlayerView) -> Option<Seat> {
        (!self.onlooker).then(|| after.seat())
    }

    /// A move was logged at line `line` of the move log.
    pub fn moved(&mut self, played: Played, line: Option<usize>) {
        let hand = self.hands;
        self.pending.push(Pending { played, line, hand });
    }

    /// A new hand was dealt: the next view starts afresh.
    pub fn dealt(&mut self) {
        if !self.dealt {
            self.shown_before = self.shown;
        }
        self.dealt = true;
        self.hands += 1;
        self.shown = [0, 0];
    }

    /// Forgets the last turns and draws (a new hand's).
    fn forget_turns(&mut self) {
        self.last = Default::default();
        self.last_discarder = None;
        self.drawn.clear();
        self.turn_of = None;
    }

    /// The view after the moves seen since the last one: works out what they did, and adds
    /// new melds' numbers, red threes and completed canastas to their lines of `log`.
    pub fn on_view(
        &mut self,
        before: Option<&PlayerView>,
        after: &PlayerView,
        log: &mut Vec<String>,
    ) {
        let dealt_now = self.dealt;
        let before = if self.dealt {
            self.dealt = false;
            self.forget_turns();
            self.completed.clear();
            let later: Vec<(Team, Card)> = self
                .pending
                .iter()
                .filter(|p| p.hand == self.hands)
                .flat_map(|p| {
                    p.played
                        .effect
                        .red_threes
                        .iter()
                        .map(|&c| (p.played.seat.team(), c))
                })
                .collect();
            if let Some(line) = dealt_threes(after, &later, self.onlooker) {
                // Before the hand's first move (a resumed hand replays its moves before its
                // first view); the moves' line numbers follow.
                let at = self
                    .pending
                    .iter()
                    .filter(|p| p.hand == self.hands)
                    .filter_map(|p| p.line)
                    .min()
                    .map_or(log.len(), |l| l.min(log.len()));
                log.insert(at, line);
                for l in self.pending.iter_mut().filter_map(|p| p.line.as_mut()) {
                    if *l >= at {
                        *l += 1;
                    }
                }
            }
            None
        } else {
            before
        };
        let me = after.seat();
        // A word said beside the table is about the turn it was said in ("not your turn —
        // West is playing" stayed on while East played).
        if before.is_none_or(|b| b.actor() != after.actor()) {
            self.say = None;
        }
        let moves = std::mem::take(&mut self.pending);
        let animate = before.is_some() && moves.len() <= MAX_ANIMATED_MOVES;
        // A resume replays every hand's moves before one view: each hand numbers its melds
        // from its own start, and only this hand's turns stay (otherwise hand 2's melds are
        // numbered on from hand 1's, and hand 2's last turns show in hand 3's seat boxes).
        let mut hand = moves.first().map_or(self.hands, |p| p.hand);
        let mut count = match before {
            _ if hand < self.hands => self.shown_before,
            Some(b) => [Team::A, Team::B].map(|t| b.melds(t).len()),
            None => self.shown,
        };
        let mut flights = Vec::new();
        let mut replay = HashMap::new();
        // The cards each move put on each meld (meld, how many), in order: a canasta is said
        // on the line of the move that completed it.
        let mut puts: Vec<Vec<(usize, usize)>> = Vec::with_capacity(moves.len());
        for (k, p) in moves.iter().enumerate() {
            if p.hand != hand {
                hand = p.hand;
                count = [0, 0];
                self.forget_turns();
            }
            let (seat, mv, line) = (&p.played.seat, &p.played.mv, &p.line);
            let team = seat.team();
            if !matches!(mv, Move::Answer(_)) && self.turn_of != Some(*seat) {
                self.seq += 1;
                self.last[seat.index()] = LastTurn {
                    seq: self.seq,
                    ..LastTurn::default()
                };
                self.turn_of = Some(*seat);
                if *seat == me {
                    self.drawn.clear();
                }
            }
            // As the hand reports them, so that a resumed hand's last draw is marked too.
            if *seat == me {
                self.drawn.extend(p.played.effect.drawn.iter().copied());
            }
            let from = if *seat == me {
                Place::Hand
            } else {
                Place::Seat(*seat)
            };
            let delay = k as f64 * 0.2;
            // One after the other, and only the first few of a big move: a taken pile put
            // fifteen cards in the air in one frame (the slowest frame measured).
            let mut flying = 0usize;
            let mut fly = |card: Card, from: Place, to: Place| {
                if flying < MAX_FLIGHTS_PER_MOVE {
                    flights.push(Flight {
                        card,
                        from,
                        to,
                        delay: delay + flying as f64 * FLIGHT_STAGGER,
                        start: None,
                    });
                    flying += 1;
                }
            };
            let lt = &mut self.last[seat.index()];
            let put_before = lt.melds.len();
            let mut new_melds = Vec::new();
            let pile_top = p.played.effect.pile.last().copied();
            let mut now = None;
            match mv {
                Move::Draw {} => {
                    let n = after.rules().draw_count;
                    lt.drew += n;
                    for _ in 0..n {
                        fly(Card::HIDDEN, Place::Stock, from);
                    }
                }
                Move::Pickup { with, onto, also } => {
                    lt.took_pile = Some(p.played.effect.pile.len());
                    let idx = onto.unwrap_or_else(|| {
                        new_melds.push(count[team.index()]);
                        count[team.index()] += 1;
                        count[team.index()] - 1
                    });
                    let mut put: Vec<Card> = with.clone();
                    if let Some(top) = pile_top {
                        put.insert(0, top);
                        fly(top, Place::Pile, Place::Meld(team, idx));
                    }
                    for &c in with {
                        fly(c, from, Place::Meld(team, idx));
                    }
                    for _ in 0..p.played.effect.pile.len().saturating_sub(1).min(4) {
                        fly(Card::HIDDEN, Place::Pile, from);
                    }
                    lt.melds.push((idx, put));
                    now = plan_effect(also, team, from, &mut count, lt, &mut new_melds, &mut fly);
                }
                Move::TakeTop { onto } => {
                    if let Some(top) = pile_top {
                        fly(top, Place::Pile, Place::Meld(team, *onto));
                        lt.melds.push((*onto, vec![top]));
                    }
                    lt.took_pile = Some(1);
                }
                Move::Meld(plan) => {
                    now = plan_effect(plan, team, from, &mut count, lt, &mut new_melds, &mut fly);
                }
                Move::GoOut { plan, discard } => {
                    now = plan_effect(plan, team, from, &mut count, lt, &mut new_melds, &mut fly);
                    lt.went_out = true;
                    if let Some(c) = discard {
                        lt.discard = Some(*c);
                        self.last_discarder = Some(*seat);
                        fly(*c, from, Place::Pile);
                    }
                }
                Move::LayRedThrees(cards) => {
                    lt.red_threes.extend(cards.iter().copied());
                    for &c in cards {
                        fly(c, from, Place::RedThrees(team));
                    }
                }
                Move::Discard(c) => {
                    lt.discard = Some(*c);
                    self.last_discarder = Some(*seat);
                    fly(*c, from, Place::Pile);
                }
                Move::Pass {} => lt.passed = true,
                Move::AskPartner {} => lt.asked = true,
                Move::Answer(yes) => lt.answer = Some(*yes),
            }
            puts.push(
                self.last[seat.index()].melds[put_before..]
                    .iter()
                    .map(|(i, cards)| (*i, cards.len()))
                    .collect(),
            );
            let mut put = match &now {
                Some(now) => self.moved_melds(*seat, put_before, now, &mut replay),
                None => Vec::new(),
            };
            if before.is_none() && p.hand == self.hands {
                let own = &self.last[seat.index()].melds[put_before..];
                put.extend(own.iter().map(|(i, cards)| (*i, cards.len())));
                replayed_canastas(
                    &mut replay,
                    team,
                    &put,
                    after,
                    self.me(after),
                    line.and_then(|l| log.get_mut(l)),
                );
            }
            if let (Some(line), false) = (line, new_melds.is_empty()) {
                let nums: Vec<String> = new_melds.iter().map(|i| (i + 1).to_string()).collect();
                if let Some(text) = log.get_mut(*line) {
                    let s = if nums.len() == 1 { "" } else { "s" };
                    let nums = nums.join(", ");
                    text.push_str(&if self.onlooker {
                        format!(" ({} meld{s} {nums})", move_words::team_words(team))
                    } else {
                        format!(
                            " ({} new meld{s} {nums})",
                            move_words::whose(team, after.seat())
                        )
                    });
                }
            }
            // In this move's turn (a resumed hand replays several turns of each seat).
            self.red_threes(p, log, &mut flights);
        }
        if hand != self.hands {
            // Only earlier hands' moves came before this view (a hand just dealt).
            self.forget_turns();
            flights.clear();
        }
        self.shown = [Team::A, Team::B].map(|t| after.melds(t).len());
        // The player's turn has come (the last move was another seat's, not an answer to
        // them): what they drew last turn is no longer news (its dot stayed until they drew).
        if after.actor() == me
            && moves
                .last()
                .is_some_and(|p| p.played.seat != me && !matches!(p.played.mv, Move::Answer(_)))
        {
            self.drawn.clear();
        }
        let completed = self.completed.len();
        self.canastas(&moves, &puts, before, after, log);
        if animate {
            self.flights.extend(flights);
            if let Some(seat) = moves.last().map(|p| p.played.seat)
                && let Some((i, _)) = self.last[seat.index()].melds.last()
            {
                self.reveal = Some((seat.team(), *i));
            }
            let your_turn = !self.onlooker
                && after.actor() == me
                && after.phase() != fairdeal_core::Phase::Over
                && before.is_some_and(|b| b.actor() != me);
            // Several views can come in one frame: each kind sounds once in it.
            for cue in super::sound::cues(
                moves.iter().map(|p| &p.played.mv),
                self.completed.len() > completed,
                your_turn,
            ) {
                if !self.cues.contains(&cue) {
                    self.cues.push(cue);
                }
            }
        } else if dealt_now
            && !self.onlooker
            && moves.is_empty()
            && after.actor() == me
            && !self.cues.contains(&super::sound::Cue::YourTurn)
        {
            // A hand just dealt with the player to lead: nothing moved, but it is their
            // turn (a resume, which replays moves first, stays quiet).
            self.cues.push(super::sound::Cue::YourTurn);
        }
    }

    /// A merge moved `seat`'s team's melds to `now`: the last turns' cards (but the move's
    /// own, from `own` on in the seat's list, already placed) and the replay's counts follow.
    /// Returns the cards each meld was given by the merge (meld, how many), for the replay
    /// to count as put there: a merge can make a canasta.
    fn moved_melds(
        &mut self,
        seat: Seat,
        own: usize,
        now: &[usize],
        replay: &mut HashMap<(Team, usize), usize>,
    ) -> Vec<(usize, usize)> {
        let team = seat.team();
        let at = |i: usize| now.get(i).copied().unwrap_or(i);
        for s in Seat::ALL.into_iter().filter(|s| s.team() == team) {
            let melds = &mut self.last[s.index()].melds;
            let end = if s == seat { own } else { melds.len() };
            for (idx, _) in &mut melds[..end] {
                *idx = at(*idx);
            }
        }
        // Each meld keeps its own count at its new place; a merged one's cards are given
        // to the meld it joined, as if put there now.
        let mut counts: Vec<_> = replay
            .iter()
            .filter(|((t, _), _)| *t == team)
            .map(|(&(_, i), &n)| (i, n))
            .collect();
        counts.sort_unstable();
        replay.retain(|(t, _), _| *t != team);
        let mut given = Vec::new();
        for (i, n) in counts {
            let to = at(i);
            match replay.entry((team, to)) {
                std::collections::hash_map::Entry::Occupied(_) => given.push((to, n)),
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(n);
                }
            }
        }
        given
    }

    /// Which seat's last turn put cards on meld `index` of `team` (the most recent), and
    /// those cards.
    pub fn touched(&self, team: Team, index: usize) -> Option<(Seat, &[Card])> {
        Seat::ALL
            .into_iter()
            .filter(|s| s.team() == team)
            .filter_map(|s| {
                let lt = &self.last[s.index()];
                lt.onto(index).map(|c| (lt.seq, s, c))
            })
            .max_by_key(|(seq, _, _)| *seq)
            .map(|(_, s, c)| (s, c))
    }

    /// Starts the animations not yet started at `now`, drops the finished ones; returns
    /// whether any is still running.
    pub fn tick(&mut self, now: f64, motion: bool) -> bool {
        if !motion {
            self.flights.clear();
        }
        let waiting: Vec<usize> = (0..self.flights.len())
            .filter(|&i| self.flights[i].start.is_none())
            .collect();
        if !waiting.is_empty() {
            // A new batch starts after the one still flying (never more than a second late).
            let base = self.busy_until.clamp(now, now + 1.0);
            for i in waiting {
                let f = &mut self.flights[i];
                f.start = Some(base + f.delay);
                self.busy_until = self.busy_until.max(base + f.delay + FLIGHT);
            }
        }
        self.flights
            .retain(|f| f.start.is_some_and(|s| now < s + FLIGHT));
        for c in &mut self.completed {
            c.start.get_or_insert(now);
        }
        self.completed
            .retain(|c| c.start.is_some_and(|s| now < s + CELEBRATION));
        !self.flights.is_empty() || !self.completed.is_empty()
    }
}

#[path = "seen_said.rs"]
mod said;

#[cfg(test)]
#[path = "seen_tests.rs"]
mod tests;
