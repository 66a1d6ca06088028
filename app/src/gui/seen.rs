//! What the player saw happen, worked out from the moves and the views that follow them:
//! each seat's last turn (highlighted until that seat's next turn), the cards just drawn,
//! canastas just completed, the red threes a draw laid out, new melds' numbers in the move
//! log, and the cards in flight (the animations). Pure: the frame's time is passed in.

use std::collections::HashMap;

pub use super::played::{MoveEffect, Played};
use eframe::egui::Rect;
use fairdeal_core::{Card, Move, Plan, PlayerView, Seat, Team};

pub use super::last_turn::LastTurn;
use super::last_turn::labels;

/// Where on the table a card can fly from or to (the table records their rectangles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The stock.
    Stock,
    /// The discard pile.
    Pile,
    /// Another seat's box.
    Seat(Seat),
    /// The player's hand.
    Hand,
    /// A team's meld (index as in the move log, from 0).
    Meld(Team, usize),
    /// A team's red threes.
    RedThrees(Team),
}

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
/// A batch bigger than this (a resume replaying a hand) is not animated.
const MAX_ANIMATED_MOVES: usize = 12;

/// A move not yet seen in a view, and its line in the move log.
#[derive(Debug)]
struct Pending {
    played: Played,
    line: Option<usize>,
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
    /// Animations already running end at this time.
    busy_until: f64,
    /// The table's answer to the player's last key or click that did nothing (kept until
    /// the player's turn begins or they act again).
    pub say: Option<String>,
}

impl Seen {
    /// A move was logged at line `line` of the move log.
    pub fn moved(&mut self, played: Played, line: Option<usize>) {
        self.pending.push(Pending { played, line });
    }

    /// A new hand was dealt: the next view starts afresh.
    pub fn dealt(&mut self) {
        self.dealt = true;
    }

    /// The view after the moves seen since the last one: works out what they did, and adds
    /// new melds' numbers, red threes and completed canastas to their lines of `log`.
    pub fn on_view(
        &mut self,
        before: Option<&PlayerView>,
        after: &PlayerView,
        log: &mut Vec<String>,
    ) {
        let before = if self.dealt {
            self.dealt = false;
            self.last = Default::default();
            self.last_discarder = None;
            self.drawn.clear();
            self.turn_of = None;
            self.completed.clear();
            if let Some(line) = dealt_threes(after) {
                // Before the hand's first move (a resumed hand replays its moves before its
                // first view); the moves' line numbers follow.
                let at = self
                    .pending
                    .iter()
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
        let mut count = [0usize; 2];
        for team in [Team::A, Team::B] {
            count[team.index()] = before.map_or(0, |b| b.melds(team).len());
        }
        let mut flights = Vec::new();
        for (k, p) in moves.iter().enumerate() {
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
            let mut fly = |card: Card, from: Place, to: Place, j: usize| {
                flights.push(Flight {
                    card,
                    from,
                    to,
                    delay: delay + j as f64 * 0.04,
                    start: None,
                });
            };
            let lt = &mut self.last[seat.index()];
            let mut new_melds = Vec::new();
            let pile_top = p.played.effect.pile.last().copied();
            match mv {
                Move::Draw {} => {
                    let n = after.rules().draw_count;
                    lt.drew += n;
                    for j in 0..n {
                        fly(Card::HIDDEN, Place::Stock, from, j);
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
                        fly(top, Place::Pile, Place::Meld(team, idx), 0);
                    }
                    for (j, &c) in with.iter().enumerate() {
                        fly(c, from, Place::Meld(team, idx), j + 1);
                    }
                    for j in 0..p.played.effect.pile.len().saturating_sub(1).min(4) {
                        fly(Card::HIDDEN, Place::Pile, from, j + 1);
                    }
                    lt.melds.push((idx, put));
                    plan_effect(also, team, from, &mut count, lt, &mut new_melds, &mut fly);
                }
                Move::TakeTop { onto } => {
                    if let Some(top) = pile_top {
                        fly(top, Place::Pile, Place::Meld(team, *onto), 0);
                        lt.melds.push((*onto, vec![top]));
                    }
                    lt.took_pile = Some(1);
                }
                Move::Meld(plan) => {
                    plan_effect(plan, team, from, &mut count, lt, &mut new_melds, &mut fly);
                }
                Move::GoOut { plan, discard } => {
                    plan_effect(plan, team, from, &mut count, lt, &mut new_melds, &mut fly);
                    lt.went_out = true;
                    if let Some(c) = discard {
                        lt.discard = Some(*c);
                        self.last_discarder = Some(*seat);
                        fly(*c, from, Place::Pile, 0);
                    }
                }
                Move::LayRedThrees(cards) => {
                    lt.red_threes.extend(cards.iter().copied());
                    for (j, &c) in cards.iter().enumerate() {
                        fly(c, from, Place::RedThrees(team), j);
                    }
                }
                Move::Discard(c) => {
                    lt.discard = Some(*c);
                    self.last_discarder = Some(*seat);
                    fly(*c, from, Place::Pile, 0);
                }
                Move::Pass {} => lt.passed = true,
                Move::AskPartner {} => lt.asked = true,
                Move::Answer(yes) => lt.answer = Some(*yes),
            }
            if let (Some(line), false) = (line, new_melds.is_empty()) {
                let nums: Vec<String> = new_melds.iter().map(|i| (i + 1).to_string()).collect();
                if let Some(text) = log.get_mut(*line) {
                    text.push_str(&format!(
                        " (new meld{} {})",
                        if nums.len() == 1 { "" } else { "s" },
                        nums.join(", ")
                    ));
                }
            }
            // In this move's turn (a resumed hand replays several turns of each seat).
            self.red_threes(p, log, &mut flights);
        }
        self.canastas(&moves, before, after, log);
        if animate {
            self.flights.extend(flights);
        }
    }

    /// Red threes a draw or pickup laid out (and a draw replaced from the stock).
    fn red_threes(&mut self, p: &Pending, log: &mut [String], flights: &mut Vec<Flight>) {
        let laid = &p.played.effect.red_threes;
        let drew = matches!(
            p.played.mv,
            Move::Draw {} | Move::Pickup { .. } | Move::TakeTop { .. }
        );
        if laid.is_empty() || !drew {
            return;
        }
        let seat = p.played.seat;
        self.last[seat.index()]
            .red_threes
            .extend(laid.iter().copied());
        let replaced = matches!(p.played.mv, Move::Draw {});
        if let Some(text) = p.line.and_then(|l| log.get_mut(l)) {
            text.push_str(&format!(
                "; red three{} {} laid out{}",
                if laid.len() == 1 { "" } else { "s" },
                labels(laid),
                if replaced {
                    " and replaced from the stock"
                } else {
                    ""
                }
            ));
        }
        for (j, &c) in laid.iter().enumerate() {
            flights.push(Flight {
                card: c,
                from: Place::Stock,
                to: Place::RedThrees(seat.team()),
                delay: 0.1 + j as f64 * 0.05,
                start: None,
            });
        }
    }

    /// Melds that became a canasta or samba: celebrated, and said in the log.
    fn canastas(
        &mut self,
        moves: &[Pending],
        before: Option<&PlayerView>,
        after: &PlayerView,
        log: &mut [String],
    ) {
        let Some(before) = before else { return };
        for team in [Team::A, Team::B] {
            for (i, m) in after.melds(team).iter().enumerate() {
                if !m.is_complete() {
                    continue;
                }
                let was = before
                    .melds(team)
                    .get(i)
                    .is_some_and(fairdeal_core::Meld::is_complete);
                if was {
                    continue;
                }
                let what = kind_words(m);
                self.completed.push(Completed {
                    team,
                    index: i,
                    what,
                    bonus: m.bonus(),
                    start: None,
                });
                let line = moves
                    .iter()
                    .rev()
                    .find(|p| {
                        p.played.seat.team() == team
                            && matches!(
                                p.played.mv,
                                Move::Meld(_)
                                    | Move::Pickup { .. }
                                    | Move::TakeTop { .. }
                                    | Move::GoOut { .. }
                            )
                    })
                    .and_then(|p| p.line);
                if let Some(text) = line.and_then(|l| log.get_mut(l)) {
                    text.push_str(&format!(" — meld {} is a {what} (+{})!", i + 1, m.bonus()));
                }
            }
        }
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

/// The red threes laid out (and replaced) at the deal, in words, if any.
fn dealt_threes(view: &PlayerView) -> Option<String> {
    let us = view.seat().team();
    let parts: Vec<String> = [(us, "ours"), (us.other(), "theirs")]
        .into_iter()
        .filter(|(t, _)| !view.red_threes(*t).is_empty())
        .map(|(t, who)| format!("{who} {}", labels(view.red_threes(t))))
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "Red threes laid out at the deal and replaced from the stock: {}",
            parts.join("; ")
        )
    })
}

/// A completed meld's kind in words.
pub fn kind_words(m: &fairdeal_core::Meld) -> &'static str {
    if m.is_samba() {
        "samba"
    } else if m.wilds() == 0 {
        "natural canasta"
    } else {
        "mixed canasta"
    }
}

/// What a plan does: new melds get the next numbers, additions go where they say.
fn plan_effect(
    plan: &Plan,
    team: Team,
    from: Place,
    count: &mut [usize; 2],
    lt: &mut LastTurn,
    new_melds: &mut Vec<usize>,
    fly: &mut impl FnMut(Card, Place, Place, usize),
) {
    for cards in &plan.new {
        let idx = count[team.index()];
        count[team.index()] += 1;
        new_melds.push(idx);
        for (j, &c) in cards.iter().enumerate() {
            fly(c, from, Place::Meld(team, idx), j);
        }
        lt.melds.push((idx, cards.clone()));
    }
    for add in &plan.add {
        for (j, &c) in add.cards.iter().enumerate() {
            fly(c, from, Place::Meld(team, add.to), j);
        }
        lt.melds.push((add.to, add.cards.clone()));
    }
    count[team.index()] = count[team.index()].saturating_sub(plan.merge.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::strategy::by_name;
    use fairdeal_core::{Position, Preset, Rules, SplitMix64, canonical_deck};

    /// A hand of `preset` dealt by South from a deck shuffled with `rng`.
    fn deal(preset: Preset, rng: &mut SplitMix64) -> Position {
        let rules = Rules::preset(preset);
        let mut deck = canonical_deck(&rules);
        for i in (1..deck.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        Position::deal(rules, Seat::S, [0, 0], &deck).unwrap()
    }

    /// Plays a hand with a computer strategy at every seat, feeding South's `Seen` as the
    /// client does (each move, then South's view), and checks what it says after each move
    /// (given the moves so far as the hand reported them).
    fn play(
        preset: Preset,
        seed: u64,
        mut check: impl FnMut(&Seen, &PlayerView, &[String], &[Played]),
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut pos = deal(preset, &mut rng);
        let mut seen = Seen::default();
        let mut log = Vec::new();
        seen.dealt();
        let mut view = pos.view(Seat::S);
        seen.on_view(None, &view, &mut log);
        let mut strategy = by_name("greedy").unwrap();
        let mut history = Vec::new();
        for _ in 0..2000 {
            if pos.is_over() {
                break;
            }
            let seat = pos.actor();
            let mv = strategy.choose(&pos.view(seat), &mut rng).unwrap();
            pos.apply(seat, &mv).unwrap();
            log.push(mv.describe(seat));
            let next = pos.view(Seat::S);
            let played = Played::between(&view, seat, mv, &next);
            history.push(played.clone());
            seen.moved(played, Some(log.len() - 1));
            seen.on_view(Some(&view), &next, &mut log);
            view = next;
            check(&seen, &view, &log, &history);
        }
    }

    #[test]
    fn every_seat_keeps_its_last_discard_until_its_next_turn() {
        let mut checked = 0;
        play(Preset::Canasta, 7, |seen, view, _, _| {
            let top = view.pile().last().copied();
            if let (Some(s), Some(top)) = (seen.last_discarder, top) {
                assert_eq!(seen.last[s.index()].discard, Some(top));
                checked += 1;
            }
            // The seat to play starts a new turn only with its first move: until then its
            // previous turn is still shown.
            let turn = view.turn();
            if view.phase() == fairdeal_core::Phase::Draw && turn != Seat::S {
                let lt = &seen.last[turn.index()];
                assert!(lt.drew == 0 || lt.discard.is_some() || lt.passed, "{lt:?}");
            }
        });
        assert!(checked > 10);
    }

    #[test]
    fn new_melds_are_numbered_in_the_log_and_highlighted() {
        let mut numbered = 0;
        play(Preset::Samba, 3, |seen, view, log, _| {
            let line = log.last().unwrap();
            if let Some(at) = line.find("(new meld ") {
                let n: usize = line[at + 10..]
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                // The seat that just played has meld n highlighted.
                let seat = [Seat::S, Seat::W, Seat::N, Seat::E]
                    .into_iter()
                    .find(|s| line.starts_with(s.name()))
                    .unwrap();
                assert!(n >= 1 && n <= view.melds(seat.team()).len(), "{line}");
                let (who, cards) = seen.touched(seat.team(), n - 1).unwrap();
                assert_eq!(who, seat);
                assert!(!cards.is_empty());
                numbered += 1;
            }
        });
        assert!(numbered > 0);
    }

    /// A resumed hand (its moves replayed, then one view) shows the same last turns and the
    /// same cards just drawn as the hand watched move by move: the pile a pickup took and the
    /// cards a draw brought come with the moves, not from a view before them.
    ///
    /// Sabotage caught (checked): `drawn` worked out from the views again (empty after a
    /// resume), and the pile's top card left out of a pickup when there is no view before.
    #[test]
    fn a_resumed_hand_shows_the_last_turns_and_drawn_cards_as_watched() {
        let mut compared = [0usize; 2];
        for seed in 1..12 {
            play(Preset::Samba, seed, |watched, view, log, history| {
                // The window closed and opened again here: every move replayed, one view.
                let mut resumed = Seen::default();
                let mut log_r = Vec::new();
                resumed.dealt();
                for p in history {
                    log_r.push(p.mv.describe(p.seat));
                    resumed.moved(p.clone(), Some(log_r.len() - 1));
                }
                resumed.on_view(None, view, &mut log_r);
                assert_eq!(resumed.last, watched.last, "seed {seed}: {log:?}");
                assert_eq!(resumed.drawn, watched.drawn, "seed {seed}");
                let last = history.last().unwrap();
                compared[0] += usize::from(last.seat == Seat::S && !watched.drawn.is_empty());
                compared[1] += usize::from(matches!(last.mv, Move::Pickup { .. }));
            });
        }
        assert!(compared[0] > 10 && compared[1] > 0, "{compared:?}");
    }

    /// A resumed hand replays its moves before its first view: the red threes of the deal
    /// still come first, and each move's line keeps its meld numbers.
    #[test]
    fn a_replayed_hand_logs_the_dealt_red_threes_before_its_moves() {
        let mut checked = 0;
        for seed in 1..40 {
            let mut rng = SplitMix64::new(seed);
            let mut pos = deal(Preset::Canasta, &mut rng);
            if dealt_threes(&pos.view(Seat::S)).is_none() {
                continue;
            }
            let mut seen = Seen::default();
            let mut log = vec!["— Hand 1 —".to_owned()];
            seen.dealt();
            let mut strategy = by_name("greedy").unwrap();
            for _ in 0..12 {
                let seat = pos.actor();
                let mv = strategy.choose(&pos.view(seat), &mut rng).unwrap();
                let before = pos.view(Seat::S);
                pos.apply(seat, &mv).unwrap();
                log.push(mv.describe(seat));
                let played = Played::between(&before, seat, mv, &pos.view(Seat::S));
                seen.moved(played, Some(log.len() - 1));
            }
            let moves: Vec<String> = log[1..].to_vec();
            seen.on_view(None, &pos.view(Seat::S), &mut log);
            assert!(
                log[1].starts_with("Red threes laid out at the deal"),
                "{log:?}"
            );
            assert_eq!(log.len(), moves.len() + 2);
            for (line, mv) in log[2..].iter().zip(&moves) {
                assert!(line.starts_with(mv.as_str()), "{line} / {mv}");
            }
            checked += 1;
        }
        assert!(checked > 0, "no hand dealt a red three");
    }

    #[test]
    fn red_threes_drawn_are_named_and_canastas_celebrated() {
        let (mut threes, mut canastas, mut at_deal) = (0, 0, 0);
        for seed in 1..6 {
            play(Preset::Canasta, seed, |seen, _, log, _| {
                if log.len() == 2 && log[0].starts_with("Red threes laid out at the deal") {
                    at_deal += 1;
                }
                let line = log.last().unwrap();
                if line.contains("red three") && line.contains("replaced from the stock") {
                    threes += 1;
                }
                if line.contains("canasta (+") {
                    canastas += 1;
                    assert!(!seen.completed.is_empty());
                }
            });
        }
        assert!(threes > 0, "no red three was drawn in five hands");
        assert!(at_deal > 0, "no red three was dealt in five hands");
        assert!(canastas > 0, "no canasta was completed in five hands");
    }

    #[test]
    fn my_draw_is_marked_and_flights_run_once() {
        let mut marked = 0;
        let mut seen_flights = false;
        play(Preset::Samba, 5, |seen, view, log, _| {
            let mine = &seen.last[Seat::S.index()];
            let just_drew = log
                .last()
                .is_some_and(|l| l.starts_with("South draws from the stock"));
            if just_drew {
                // Samba draws two (a red three drawn is replaced: still two new cards).
                assert_eq!(seen.drawn.len(), 2, "{mine:?}");
                for c in &seen.drawn {
                    assert!(view.hand().contains(*c));
                }
                marked += 1;
            }
            seen_flights |= !seen.flights.is_empty();
        });
        assert!(marked > 0 && seen_flights);
        let flight = Flight {
            card: Card::HIDDEN,
            from: Place::Stock,
            to: Place::Hand,
            delay: 0.0,
            start: None,
        };
        let mut s = Seen::default();
        s.flights.push(flight.clone());
        assert!(s.tick(10.0, true));
        assert!(s.tick(10.2, true));
        assert!(!s.tick(10.3, true), "done after {FLIGHT} s");
        s.flights.push(flight);
        assert!(!s.tick(11.0, false), "reduced motion: nothing flies");
    }
}
