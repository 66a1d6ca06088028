//! A game on screen: what the UI knows, updated from the node's events (never blocking).

use std::collections::BTreeMap;

use fairdeal_core::{Card, Move, PlayerView, Seat, Team};
use fairdeal_net::hand::{Event as HandEvent, HandReport};
use fairdeal_net::node::{Intent, NodeEvent};
use fairdeal_net::table::msg::{SeatInfo, TableConfig};
use fairdeal_net::table::{Gone, TableEvent};
use libp2p::Multiaddr;

use super::controller::{self, Connection, GameKind};

/// This seat's options for the current turn (worked out once per turn, not per frame).
#[derive(Debug, Clone, Default)]
pub struct TurnMoves {
    /// Every legal move.
    pub legal: Vec<Move>,
    /// A legal opening, before the team has opened.
    pub opening: Option<Move>,
    /// A legal way to go out.
    pub finish: Option<Move>,
}

/// A game on screen.
pub struct Game {
    pub(crate) conn: Connection,
    pub(crate) address: Option<Multiaddr>,
    pub(crate) roster: [Option<SeatInfo>; 4],
    pub(crate) config: Option<TableConfig>,
    pub(crate) view: Option<PlayerView>,
    pub(crate) my_turn: bool,
    pub(crate) selected: Vec<Card>,
    /// New melds prepared but not yet played (taken from the hand only when played).
    pub(crate) plan: Vec<Vec<Card>>,
    /// Cards planned onto the team's melds: (meld index, cards).
    pub(crate) plan_adds: Vec<(usize, Vec<Card>)>,
    pub(crate) moves: TurnMoves,
    pub(crate) log: Vec<String>,
    pub(crate) status: String,
    pub(crate) report: Option<(u32, HandReport)>,
    pub(crate) show_report: bool,
    pub(crate) totals: [i32; 2],
    pub(crate) over: Option<String>,
    /// The move clock: whose turn and how long is left (ms), when the table has one.
    pub(crate) clock: Option<(Seat, u64)>,
    /// The player asked to leave the table (the app acts on it after the frame).
    pub(crate) leave_asked: bool,
    /// A computer player held our seat for some hands of this game.
    pub(crate) was_held: bool,
    /// A computer player holds our seat now.
    pub(crate) held: bool,
    /// Our seat, once known (from a view, or from the runner holding it).
    me: Option<Seat>,
    pub(crate) waiting: Vec<Seat>,
    /// Seats whose connection is down now, and since when.
    pub(crate) down: BTreeMap<Seat, std::time::Instant>,
    pub(crate) start_asked: bool,
    pub(crate) stopped: Option<String>,
    /// The node's latest word on the network before the start ("cannot reach the host…").
    pub(crate) note: Option<String>,
    /// The host closed the table before the start.
    pub(crate) closed: bool,
    /// When this game was started here (a joiner that hears nothing says so).
    pub(crate) since: std::time::Instant,
    /// "How to play" is open.
    pub(crate) help: bool,
    /// The hand being played (from 1).
    pub(crate) hand_no: u32,
    /// The table's preset, target and house rules in words.
    pub(crate) rules_words: String,
    /// What the player saw happen (last turns, cards just drawn, animations).
    pub(crate) seen: super::seen::Seen,
    /// The order the player gave the hand.
    pub(crate) order: super::hand::HandOrder,
    /// Between hands: what the next hand waits for.
    pub(crate) next: Option<fairdeal_net::table::NextHand>,
    /// The player pressed "Next hand" for the hand just scored.
    pub(crate) ready_sent: bool,
    /// Table chat, oldest first (at most [`CHAT_LINES`]).
    pub(crate) chat: std::collections::VecDeque<fairdeal_net::table::chat::ChatLine>,
    /// The chat line being written.
    pub(crate) chat_draft: String,
}

/// The chat lines the window keeps.
const CHAT_LINES: usize = fairdeal_net::table::chat::CHAT_LINES;

impl Game {
    /// A game starting on `conn`.
    pub fn new(conn: Connection, status: &str) -> Self {
        let rules_words = super::words::house_words(
            conn.record.preset,
            &fairdeal_net::table::msg::house_from_json(&conn.record.house),
        );
        Self {
            rules_words,
            conn,
            address: None,
            roster: Default::default(),
            config: None,
            view: None,
            my_turn: false,
            selected: Vec::new(),
            plan: Vec::new(),
            plan_adds: Vec::new(),
            moves: TurnMoves::default(),
            log: Vec::new(),
            status: status.to_owned(),
            report: None,
            show_report: false,
            totals: [0, 0],
            over: None,
            clock: None,
            leave_asked: false,
            was_held: false,
            held: false,
            me: None,
            waiting: Vec::new(),
            down: BTreeMap::new(),
            start_asked: false,
            stopped: None,
            note: None,
            closed: false,
            since: std::time::Instant::now(),
            help: false,
            hand_no: 0,
            seen: super::seen::Seen::default(),
            order: super::hand::HandOrder::default(),
            next: None,
            ready_sent: false,
            chat: std::collections::VecDeque::new(),
            chat_draft: String::new(),
        }
    }

    /// Our team (team A until our seat is known).
    pub fn our_team(&self) -> Team {
        self.me
            .or_else(|| self.view.as_ref().map(PlayerView::seat))
            .map_or(Team::A, Seat::team)
    }

    /// The name at `seat`, when known.
    pub fn name(&self, seat: Seat) -> String {
        let i = seat.index();
        self.config
            .as_ref()
            .map(|c| c.names[i].clone())
            .or_else(|| self.roster[i].as_ref().map(|s| s.name.clone()))
            .filter(|n| !n.is_empty())
            .map(|n| fairdeal_net::table::clean_name(&n))
            .unwrap_or_else(|| seat.name().to_owned())
    }

    /// Takes one event from the node.
    pub fn apply(&mut self, ev: NodeEvent) {
        match ev {
            NodeEvent::Listening(a) => {
                // The address friends use: one another machine can reach, if there is one.
                if self.address.as_ref().is_none_or(is_loopback) {
                    self.address = Some(a.clone());
                }
                if self.address.is_some() {
                    // A local game: the computer players join once we listen.
                    if self.conn.record.kind == GameKind::Local
                        && self.conn.record.bots.is_empty()
                        && !self.start_asked
                    {
                        self.start_asked = true;
                        self.conn.fill_and_start(&[1, 2, 3], a);
                    }
                }
            }
            NodeEvent::View(v) => {
                self.my_turn = false;
                self.held = false;
                self.me = Some(v.seat());
                self.seen.on_view(self.view.as_ref(), &v, &mut self.log);
                self.view = Some(*v);
            }
            NodeEvent::YourTurn(v) => {
                self.my_turn = true;
                self.moves = TurnMoves {
                    legal: v.legal_moves(),
                    opening: v.opening_hint(),
                    finish: v.find_finish(),
                };
                self.seen.on_view(self.view.as_ref(), &v, &mut self.log);
                self.view = Some(*v);
                let hand = self.view.as_ref().map(|v| v.hand().clone());
                self.selected
                    .retain(|c| hand.as_ref().is_some_and(|h| h.contains(*c)));
            }
            NodeEvent::Refused(why) => self.status = format!("Not allowed: {why}"),
            NodeEvent::Waiting(seats) => self.waiting = seats,
            NodeEvent::Clock { seat, left_ms } => self.clock = Some((seat, left_ms)),
            NodeEvent::NextHand(next) => self.next = Some(next),
            NodeEvent::Link { seat, up } => {
                if up {
                    self.down.remove(&seat);
                } else {
                    self.down
                        .entry(seat)
                        .or_insert_with(std::time::Instant::now);
                }
            }
            NodeEvent::Status(s) => {
                if s.starts_with(controller::STOPPED) {
                    self.stopped = Some(s);
                } else {
                    self.note = Some(s);
                }
            }
            NodeEvent::Table(t) => self.apply_table(t),
        }
    }

    fn apply_table(&mut self, ev: TableEvent) {
        match ev {
            TableEvent::Roster(r) => self.roster = *r,
            TableEvent::Started(c) => {
                let name = fairdeal_net::table::clean_name(&c.name);
                if self.conn.record.table != name {
                    controller::rename(&self.conn.game_dir, &name);
                    self.conn.record.table = name;
                }
                if c.move_clock_ms > 0 {
                    self.rules_words.push_str("; ");
                    self.rules_words
                        .push_str(&super::start::clock_words(c.move_clock_ms.div_ceil(60_000)));
                }
                self.config = Some(*c);
                controller::mark(&self.conn.game_dir, true, false);
                self.status = "Shuffling: every player shuffles the deck in turn…".to_owned();
            }
            TableEvent::Hand { hand_no, event } => self.apply_hand(hand_no, event),
            TableEvent::GameOver { totals, result } => {
                controller::mark(&self.conn.game_dir, true, true);
                self.totals = totals;
                let us = self
                    .me
                    .or_else(|| self.view.as_ref().map(PlayerView::seat))
                    .map_or(Team::A, Seat::team);
                let (mine, theirs) = (totals[us.index()], totals[us.other().index()]);
                self.over = Some(match result {
                    fairdeal_core::GameResult::Won(t) if t == us => {
                        format!("You and your partner win, {mine} to {theirs}!")
                    }
                    fairdeal_core::GameResult::Won(_) => {
                        format!("Your opponents win, {theirs} to {mine}.")
                    }
                    _ => format!("A drawn game at {mine}."),
                });
            }
            TableEvent::Paused(seats) => self.waiting = seats,
            TableEvent::Resumed => self.waiting.clear(),
            TableEvent::HandVoided { hand_no, seat, why } => {
                let who = self.name(seat);
                let what = match why {
                    Gone::Silent => format!("{who} stayed away past the grace period"),
                    Gone::Left => format!("{who} left the table"),
                    Gone::Cheated => format!("{who} was caught cheating"),
                };
                self.status = format!(
                    "Hand {hand_no} is void: {what}; a computer player takes the seat and the hand is dealt again."
                );
                self.log.push(self.status.clone());
            }
            TableEvent::SeatHeld { seat } => {
                self.was_held = true;
                self.held = true;
                self.me = Some(seat);
                self.status = "A computer player played your seat while you were away; you get it back at the start of the next hand.".to_owned();
                self.log.push(self.status.clone());
                self.view = None;
                self.my_turn = false;
            }
            TableEvent::SeatBack { seat } => {
                let me = self.view.as_ref().map(PlayerView::seat);
                let line = if me == Some(seat) || self.view.is_none() {
                    "You have your seat back.".to_owned()
                } else {
                    format!(
                        "{} is back and plays {} again.",
                        self.name(seat),
                        seat.name()
                    )
                };
                self.log.push(line);
            }
            TableEvent::HandForfeited {
                hand_no,
                seat,
                scores,
                ..
            } => {
                self.totals = [
                    self.totals[0].saturating_add(scores[0]),
                    self.totals[1].saturating_add(scores[1]),
                ];
                self.status = format!(
                    "Hand {hand_no} is forfeited by {}'s team: {} withheld what the check of the deal needs. It counts {} to team A, {} to team B; a computer player takes the seat.",
                    seat.name(),
                    self.name(seat),
                    scores[0],
                    scores[1]
                );
                self.log.push(self.status.clone());
            }
            TableEvent::SeatTaken { seat, runner } => {
                let line = format!(
                    "A computer player now plays {} ({}), run by {}'s client, which can see its cards.",
                    seat.name(),
                    self.name(seat),
                    self.name(runner)
                );
                self.log.push(line);
            }
            TableEvent::HandStarted(n) => {
                // The score sheet of an earlier hand is done with (also when a resumed game
                // replays its hands: the sheet is not shown again).
                if self.report.as_ref().is_some_and(|(h, _)| *h < n) {
                    self.show_report = false;
                }
                self.next = None;
                self.ready_sent = false;
            }
            TableEvent::Chat(line) => {
                if self.chat.len() >= CHAT_LINES {
                    self.chat.pop_front();
                }
                self.chat.push_back(line);
            }
            TableEvent::Alone { secs } => {
                self.status = format!(
                    "Nobody at the table has answered for {secs} s: the others have left, or finished the game without you."
                );
                self.log.push(self.status.clone());
            }
            TableEvent::Closed => {
                self.closed = true;
                self.status = "The host closed the table.".to_owned();
            }
        }
    }

    fn apply_hand(&mut self, hand_no: u32, event: HandEvent) {
        match event {
            HandEvent::Moved { seat, mv } => {
                self.log.push(mv.describe(seat));
                self.seen.moved(seat, mv, Some(self.log.len() - 1));
                self.status.clear();
            }
            HandEvent::Dealt => {
                self.hand_no = hand_no;
                self.seen.dealt();
                self.log.push(format!("— Hand {hand_no} —"));
                self.status =
                    format!("Hand {hand_no} dealt: every card was shuffled by all four players.")
            }
            HandEvent::HandOver => self.status = "Hand over: checking the deal…".to_owned(),
            HandEvent::Complete(r) => {
                self.totals = [
                    self.totals[0].saturating_add(r.scores[0]),
                    self.totals[1].saturating_add(r.scores[1]),
                ];
                self.report = Some((hand_no, r));
                self.show_report = true;
                self.status = format!("Hand {hand_no} verified and scored.");
                self.plan.clear();
                self.plan_adds.clear();
                self.selected.clear();
            }
            HandEvent::Fault(b) => {
                self.status = format!(
                    "Cheating detected: {} — {}",
                    b.offender.map_or("no seat can be named".to_owned(), |s| {
                        self.name(Seat::from_index(usize::from(s)))
                    }),
                    b.fault
                );
                self.log.push(self.status.clone());
            }
        }
    }

    /// "Next hand" on the score sheet: the table is told we are ready (at the end of the
    /// game, the sheet just closes).
    pub fn next_hand(&mut self) {
        if self.over.is_some() {
            self.show_report = false;
        } else if !self.ready_sent && self.conn.intents.try_send(Intent::Ready).is_ok() {
            self.ready_sent = true;
        }
    }

    /// Says `text` to the table.
    pub fn say(&mut self, text: &str) {
        let text = fairdeal_net::table::chat::clean_chat(text);
        if !text.is_empty() && self.conn.intents.try_send(Intent::Say(text)).is_err() {
            self.status = "The game is busy; try again.".to_owned();
        }
    }

    /// Sends a move (already checked against the view).
    pub fn send(&mut self, mv: Move) {
        if self.conn.intents.try_send(Intent::Play(mv)).is_err() {
            self.status = "The game is busy; try again.".to_owned();
            return;
        }
        self.my_turn = false;
        self.selected.clear();
        self.plan.clear();
        self.plan_adds.clear();
        self.status.clear();
    }

    /// Cards of the hand not in the plan.
    pub fn unplanned(&self, view: &PlayerView) -> Vec<Card> {
        let mut rest = view.hand().clone();
        for c in self
            .plan
            .iter()
            .flatten()
            .chain(self.plan_adds.iter().flat_map(|(_, c)| c))
        {
            rest.remove(*c);
        }
        rest.iter().collect()
    }

    /// The plan as a move.
    pub fn plan_move(&self) -> Move {
        Move::Meld(fairdeal_core::Plan {
            new: self.plan.clone(),
            add: self
                .plan_adds
                .iter()
                .map(|(to, cards)| fairdeal_core::Add {
                    to: *to,
                    cards: cards.clone(),
                })
                .collect(),
            ..Default::default()
        })
    }

    /// Whether anything is planned.
    pub fn has_plan(&self) -> bool {
        !self.plan.is_empty() || !self.plan_adds.is_empty()
    }

    /// Adds `cards` onto team meld `to` in the plan.
    pub fn plan_onto(&mut self, to: usize, cards: Vec<Card>) {
        match self.plan_adds.iter_mut().find(|(t, _)| *t == to) {
            Some((_, v)) => v.extend(cards),
            None => self.plan_adds.push((to, cards)),
        }
    }
}

fn is_loopback(a: &Multiaddr) -> bool {
    a.iter().any(|p| match p {
        libp2p::multiaddr::Protocol::Ip4(ip) => ip.is_loopback(),
        libp2p::multiaddr::Protocol::Ip6(ip) => ip.is_loopback(),
        _ => false,
    })
}
