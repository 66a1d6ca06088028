//! A game on screen: the model (what the table told this client, from the node's events)
//! and the player's desk (selection, plan, hand order, animations). Pure: the controller
//! feeds it updates and carries out what the screens ask for.

use std::collections::BTreeMap;

use fairdeal_core::{Card, Move, PlayerView, Seat, Team};
use fairdeal_net::hand::{Event as HandEvent, HandReport};
use fairdeal_net::node::NodeEvent;
use fairdeal_net::table::chat::ChatLine;
use fairdeal_net::table::msg::{SeatInfo, TableConfig};
use fairdeal_net::table::{Gone, TableEvent};
use libp2p::Multiaddr;

use super::records::{GameKind, GameRecord};
use super::session::Update;

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

/// What the table told this client about the game, from the node's events: the screens
/// read it and never change it.
pub struct Model {
    /// How this client takes part.
    pub(crate) kind: GameKind,
    /// The table's name (empty: joined by address, until the game starts).
    pub(crate) table: String,
    /// The computer players' level (a table this client opened).
    pub(crate) difficulty: super::choices::Difficulty,
    pub(crate) address: Option<Multiaddr>,
    pub(crate) roster: [Option<SeatInfo>; 4],
    pub(crate) config: Option<TableConfig>,
    pub(crate) view: Option<PlayerView>,
    pub(crate) my_turn: bool,
    pub(crate) moves: TurnMoves,
    pub(crate) log: Vec<String>,
    pub(crate) status: String,
    pub(crate) report: Option<(u32, HandReport)>,
    pub(crate) totals: [i32; 2],
    pub(crate) over: Option<String>,
    /// The move clock: whose turn and how long is left (ms), when the table has one.
    pub(crate) clock: Option<(Seat, u64)>,
    /// A computer player held our seat for some hands of this game.
    pub(crate) was_held: bool,
    /// A computer player holds our seat now.
    pub(crate) held: bool,
    /// Our seat, once known (from the configuration, a view, or the runner holding it).
    pub(crate) me: Option<Seat>,
    /// Our identity at the table (none for a spectator or a replay).
    pub(crate) key: Option<fairdeal_crypto::PublicKey>,
    pub(crate) waiting: Vec<Seat>,
    /// Seats whose connection is down now, and since when.
    pub(crate) down: BTreeMap<Seat, std::time::Instant>,
    /// Seats the node hears nothing from (the outage band), as it last said.
    pub(crate) unheard: Vec<fairdeal_net::node::Unheard>,
    /// Seats a computer player has taken over (until given back), by seat.
    pub(crate) taken: [bool; 4],
    /// Hands this client verified and scored, and hands void, in this game.
    pub(crate) scored: u32,
    pub(crate) voided: u32,
    /// Hosting through a relay: the invitation friends beyond the LAN join with.
    pub(crate) invitation: Option<String>,
    /// How each seat is reached, at a table beyond the LAN (directly or through the relay).
    pub(crate) paths: BTreeMap<Seat, fairdeal_net::node::Path>,
    /// The host asked for the start (computer players are taking the empty seats).
    pub(crate) start_asked: bool,
    /// The player's node stopped, with this error.
    pub(crate) stopped: Option<String>,
    /// A game that had started when this window took it up (resumed from its logs): a
    /// failure to take it up again is a failure to resume, not to join, and leaves the game
    /// resumable.
    pub(crate) resumed: bool,
    /// The node's latest word on the network before the start ("cannot reach the host…").
    pub(crate) note: Option<String>,
    /// The host closed the table before the start.
    pub(crate) closed: bool,
    /// When this game was started here (a joiner that hears nothing says so).
    pub(crate) since: std::time::Instant,
    /// A joiner's: the host's address it asked for a seat (what "Watch this table" dials).
    pub(crate) host_at: Option<Multiaddr>,
    /// A joiner's: the host said every seat of its table is taken.
    pub(crate) full: bool,
    /// The hand being played (from 1).
    pub(crate) hand_no: u32,
    /// The table's preset, target and house rules in words.
    pub(crate) rules_words: String,
    /// Between hands: what the next hand waits for.
    pub(crate) next: Option<fairdeal_net::table::NextHand>,
    /// The player pressed "Next hand" for the hand just scored (and the table was told).
    pub(crate) ready_sent: bool,
    /// Why the last line said was not sent (the rate), shown under the chat line until a
    /// line of ours goes.
    pub(crate) chat_note: Option<String>,
    /// Table chat, oldest first (at most [`CHAT_LINES`]).
    pub(crate) chat: std::collections::VecDeque<ChatLine>,
    /// This window only looks on (watching a table, or a public transcript played back):
    /// it holds no seat, so the table speaks of teams and seats by name, never "we" or
    /// "your hand", offers no moves, no chat line, and Leave leaves at once.
    pub(crate) onlooker: bool,
    /// A game file played back: nothing on the table can be played (a player's own log
    /// still shows its hand, and speaks as that player).
    pub(crate) replay: bool,
}

impl Model {
    /// Whether the table is only looked at (a spectator, a replay): no move, plan, hint,
    /// chat line or question before leaving.
    pub(crate) fn looks_only(&self) -> bool {
        self.onlooker || self.replay
    }
}

/// The player's own work at the table, which the screens change: the cards selected, the
/// plan, the hand's order, what they saw happen (and the animations), the chat line being
/// written, and which windows are open.
#[derive(Default)]
pub struct Desk {
    pub(crate) selected: Vec<Card>,
    /// New melds prepared but not yet played (taken from the hand only when played).
    pub(crate) plan: Vec<Vec<Card>>,
    /// Cards planned onto the team's melds: (meld index, cards).
    pub(crate) plan_adds: Vec<(usize, Vec<Card>)>,
    /// What the player saw happen (last turns, cards just drawn, animations).
    pub(crate) seen: super::seen::Seen,
    /// The order the player gave the hand.
    pub(crate) order: super::hand_order::HandOrder,
    /// The chat line being written.
    pub(crate) chat_draft: String,
    /// "How to play" is open.
    pub(crate) help: bool,
    /// The score sheet is open.
    pub(crate) show_report: bool,
    /// "Leave the table?" is asked.
    pub(crate) confirm_leave: bool,
    /// The move list's lines and height in the last frame (`None`: not shown yet).
    pub(crate) log_shown: Option<(usize, i32)>,
    /// The move list shows the whole game, not only its last [`super::moves::LOG_RECENT`]
    /// lines.
    pub(crate) log_all: bool,
    /// Why the table's sounds cannot play on this machine, once a sound was tried.
    pub(crate) sound_trouble: Option<String>,
}

/// A game on screen: the model, and the player's desk. Events change both; nothing here
/// touches the network or the disk.
pub struct Game {
    /// What the table told us.
    pub model: Model,
    /// What the player is doing.
    pub desk: Desk,
}

/// The refusal of a chat line past what the rate holds.
const CHAT_TOO_FAST: fairdeal_net::table::NotNow = fairdeal_net::table::NotNow::ChatTooFast;

/// The chat lines the window keeps.
const CHAT_LINES: usize = fairdeal_net::table::chat::CHAT_LINES;

impl Game {
    /// The host answered "what table is this?" (a table joined by address): its name and
    /// rules, until the configuration at the start says them again.
    pub fn table_found(&mut self, found: &super::start::Listed) {
        let m = &mut self.model;
        m.full = found.table.info.seated.iter().all(Option::is_some);
        if m.config.is_none() {
            m.table = fairdeal_net::table::clean_name(&found.table.info.name);
            m.rules_words.clone_from(&found.words);
        }
    }

    /// A game starting for `record`, saying `status`.
    pub fn new(record: &GameRecord, status: &str) -> Self {
        // A table joined by address is not known yet: its rules come from the host (an
        // answer to "what table is this?", or the configuration at the start), never from
        // this client's own settings.
        let rules_words = if record.kind == GameKind::Join && record.table.is_empty() {
            String::new()
        } else {
            super::words::house_words(
                record.preset,
                &fairdeal_net::table::msg::house_from_json(&record.house),
            )
        };
        let model = Model {
            kind: record.kind,
            table: record.table.clone(),
            difficulty: record.difficulty,
            rules_words,
            address: None,
            roster: Default::default(),
            config: None,
            view: None,
            my_turn: false,
            moves: TurnMoves::default(),
            log: Vec::new(),
            status: status.to_owned(),
            report: None,
            totals: [0, 0],
            over: None,
            clock: None,
            was_held: false,
            held: false,
            me: None,
            key: None,
            waiting: Vec::new(),
            down: BTreeMap::new(),
            unheard: Vec::new(),
            taken: [false; 4],
            scored: 0,
            voided: 0,
            paths: BTreeMap::new(),
            invitation: None,
            start_asked: false,
            stopped: None,
            resumed: record.started,
            note: None,
            closed: false,
            since: std::time::Instant::now(),
            host_at: None,
            full: false,
            hand_no: 0,
            next: None,
            ready_sent: false,
            chat: std::collections::VecDeque::new(),
            chat_note: None,
            onlooker: false,
            replay: false,
        };
        Self {
            model,
            desk: Desk::default(),
        }
    }

    /// Whether the game is still in its lobby (no view yet, not started).
    pub fn in_lobby(&self) -> bool {
        self.model.view.is_none() && self.model.config.is_none()
    }

    /// A move was sent: the turn is over here, and the plan and selection are used up.
    pub fn sent(&mut self) {
        self.model.my_turn = false;
        self.model.status.clear();
        self.desk.selected.clear();
        self.desk.plan.clear();
        self.desk.plan_adds.clear();
    }

    /// Takes one update from the node.
    pub fn apply(&mut self, update: Update) {
        match update {
            Update::Node(ev) => self.apply_node(ev),
            Update::Stopped(e) => self.model.stopped = Some(e),
        }
    }
}

impl Model {
    /// Our team (team A until our seat is known).
    pub fn our_team(&self) -> Team {
        self.me
            .or_else(|| self.view.as_ref().map(PlayerView::seat))
            .map_or(Team::A, Seat::team)
    }

    /// The name a seat box shows: the player's, or, while a computer player holds the seat,
    /// that it does so for them.
    pub fn seat_name(&self, seat: Seat) -> String {
        if self.taken[seat.index()] && !self.is_computer(seat) {
            // Short: a seat box at 1024 px holds it with "(partner)" after it.
            format!("Computer for {}", self.name(seat))
        } else {
            self.name(seat)
        }
    }

    /// Whether the table was set up with a computer player at `seat` (its name already says
    /// so; one taken over is still a computer player, not one "for" it).
    pub fn is_computer(&self, seat: Seat) -> bool {
        self.config.as_ref().is_some_and(|c| c.bots[seat.index()])
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

    /// A seat in words: the player's name and the seat ("Anna (East)"), or the seat alone.
    pub(crate) fn seat_words(&self, seat: Seat) -> String {
        let name = self.name(seat);
        if name == seat.name() {
            name
        } else {
            format!("{name} ({})", seat.name())
        }
    }

    /// The seat names of a team, for the score sheet ("Ann + Bea").
    pub fn team_names(&self, team: Team) -> String {
        team.seats()
            .iter()
            .map(|s| self.name(*s))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The move log's line when `line` says its seat left ([`LEAVING_LINE`]), at another
    /// seat.
    pub(crate) fn left_line(&self, line: &ChatLine) -> Option<String> {
        if line.text != LEAVING_LINE || Some(line.seat) == self.me {
            return None;
        }
        let who = self.name(line.seat);
        Some(format!(
            "{who} left; a computer player (run by {who}'s client until the hand ends) plays {}.",
            line.seat.name()
        ))
    }
}

/// The chat line a seat's client sends when its person leaves mid-hand (the others' windows
/// turn it into [`Model::left_line`]'s words): the others are told at once, not only when the
/// hand ends and a computer player takes the seat. A chat line is signed and reaches every
/// seat now with no change to the table's protocol; a client that does not know it shows it
/// as the line it is.
pub(crate) const LEAVING_LINE: &str = "I have left the table: my client plays my hand to its end, then a computer player takes my seat.";

/// The move list's line for the node's word on who watches ("watching: kib, bo" or "nobody is
/// watching").
pub fn players_line(status: &str) -> String {
    match status.strip_prefix("watching: ") {
        Some(names) => format!("Watching this table: {names}"),
        None => "Nobody is watching this table now.".to_owned(),
    }
}

impl Game {
    /// Takes one event from the node.
    fn apply_node(&mut self, ev: NodeEvent) {
        let Self { model: m, desk: d } = self;
        match ev {
            NodeEvent::Listening(a) if fairdeal_net::node::relay::is_relayed(&a) => {
                let invite = fairdeal_net::node::invite::Invitation::new(a, &m.table);
                m.invitation = Some(invite.to_string());
            }
            NodeEvent::Listening(a) => {
                // The address friends use: one another machine can reach, if there is one.
                if m.address.as_ref().is_none_or(is_loopback) {
                    m.address = Some(a);
                }
            }
            NodeEvent::View(v) => {
                m.my_turn = false;
                m.held = false;
                m.me = Some(v.seat());
                d.seen.on_view(m.view.as_ref(), &v, &mut m.log);
                m.view = Some(*v);
            }
            NodeEvent::YourTurn(v) => {
                m.my_turn = true;
                m.moves = TurnMoves {
                    legal: v.legal_moves(),
                    opening: v.opening_hint(),
                    finish: v.find_finish(),
                };
                d.seen.on_view(m.view.as_ref(), &v, &mut m.log);
                m.view = Some(*v);
                let hand = m.view.as_ref().map(|v| v.hand().clone());
                d.selected
                    .retain(|c| hand.as_ref().is_some_and(|h| h.contains(*c)));
            }
            NodeEvent::Refused(why) if why == CHAT_TOO_FAST.to_string() => {
                m.chat_note =
                    Some("Not sent: several lines are still waiting to go. Wait a moment.".into());
            }
            NodeEvent::Refused(why) => m.status = format!("Not allowed: {why}"),
            NodeEvent::Waiting(seats) => m.waiting = seats,
            NodeEvent::Clock { seat, left_ms } => m.clock = Some((seat, left_ms)),
            NodeEvent::NextHand(Some(next)) => m.next = Some(next),
            NodeEvent::NextHand(None) => {
                // Out of the game for now: the sheet of the last hand played here offers no
                // "Next hand" (and would cover the table and its Leave button).
                m.next = None;
                if m.over.is_none() {
                    d.show_report = false;
                }
            }
            NodeEvent::Link { seat, up } => {
                // A seat taken over is played by its runner's client: the player's own
                // link says nothing about the table any more.
                if up || m.taken[seat.index()] {
                    m.down.remove(&seat);
                } else {
                    m.down.entry(seat).or_insert_with(std::time::Instant::now);
                    // Said again when a connection comes back.
                    m.paths.remove(&seat);
                }
            }
            NodeEvent::Unheard(list) => {
                let back: Vec<Seat> = m
                    .unheard
                    .iter()
                    .map(|u| u.seat)
                    .filter(|s| !list.iter().any(|u| u.seat == *s))
                    .collect();
                if !back.is_empty() {
                    let line = crate::table_words::back_line(&back, |s| m.seat_words(s));
                    m.status = line;
                }
                m.unheard = list;
            }
            NodeEvent::Path { seat, path } => {
                m.paths.insert(seat, path);
            }
            // Who watches this table goes into the move list, for everyone at the table to see.
            NodeEvent::Status(s) if s.starts_with("watching: ") || s == "nobody is watching" => {
                m.log.push(players_line(&s));
            }
            NodeEvent::Status(s) => m.note = Some(s),
            NodeEvent::Table(t) => self.apply_table(t),
        }
    }

    fn apply_table(&mut self, ev: TableEvent) {
        let Self { model: m, desk: d } = self;
        match ev {
            TableEvent::Roster(r) => m.roster = *r,
            TableEvent::Started(c) => {
                m.table = fairdeal_net::table::clean_name(&c.name);
                m.rules_words =
                    super::words::house_words(c.preset, &fairdeal_core::HouseRules::from(&c.house));
                if c.move_clock_ms > 0 {
                    m.rules_words.push_str("; ");
                    m.rules_words
                        .push_str(&super::start::clock_words(c.move_clock_ms.div_ceil(60_000)));
                }
                // A resumed game replays its hands before the first view: told as ours.
                if let Some(seat) = m.key.and_then(|k| c.seat_of(&k)) {
                    m.me = Some(seat);
                }
                m.config = Some(*c);
                m.status = "Shuffling: every player shuffles the deck in turn…".to_owned();
            }
            TableEvent::Hand { hand_no, event } => self.apply_hand(hand_no, event),
            TableEvent::GameOver { totals, result } => {
                m.totals = totals;
                let us = m.our_team();
                let (mine, theirs) = (totals[us.index()], totals[us.other().index()]);
                m.over = Some(match result {
                    fairdeal_core::GameResult::Won(t) if t == us => {
                        format!("You and your partner win, {mine} to {theirs}!")
                    }
                    fairdeal_core::GameResult::Won(_) => {
                        format!("Your opponents win, {theirs} to {mine}.")
                    }
                    _ => format!("A drawn game at {mine}."),
                });
            }
            TableEvent::Paused(seats) => m.waiting = seats,
            TableEvent::Resumed => m.waiting.clear(),
            TableEvent::HandVoided { hand_no, seat, why } => {
                m.voided += 1;
                let who = m.name(seat);
                let what = match why {
                    Gone::Silent => format!("{who} stayed away past the grace period"),
                    Gone::Left => format!("{who} left the table"),
                    Gone::Cheated => format!("{who} was caught cheating"),
                };
                m.status = format!(
                    "Hand {hand_no} is void: {what}; a computer player takes the seat and the hand is dealt again."
                );
                m.log.push(m.status.clone());
            }
            TableEvent::SeatHeld { seat } => {
                m.was_held = true;
                m.held = true;
                m.me = Some(seat);
                m.status = "A computer player played your seat while you were away; you get it back at the start of the next hand.".to_owned();
                m.log.push(m.status.clone());
                m.view = None;
                m.my_turn = false;
                // The sheet of the hand before is done with: the next hands are not ours.
                d.show_report = false;
                m.next = None;
            }
            TableEvent::SeatBack {
                seat,
                totals,
                yours,
            } => {
                m.taken[seat.index()] = false;
                let me = m.view.as_ref().map(PlayerView::seat);
                // Our seat, whether or not this window heard that it was held: the runner
                // says so once, perhaps while the player was still on the start screen.
                let line = if yours || me == Some(seat) || m.me == Some(seat) {
                    m.me = Some(seat);
                    // The hands played without us come in as the table's totals.
                    let us = m.our_team();
                    let gained = |t: Team| totals[t.index()] - m.totals[t.index()];
                    let missed = if totals == m.totals {
                        String::new()
                    } else {
                        format!(
                            " While you were away: we {:+}, they {:+}; the score is {} to {}.",
                            gained(us),
                            gained(us.other()),
                            totals[us.index()],
                            totals[us.other().index()]
                        )
                    };
                    m.totals = totals;
                    m.held = false;
                    format!("You have your seat back.{missed}")
                } else {
                    format!("{} is back and plays {} again.", m.name(seat), seat.name())
                };
                m.log.push(line);
            }
            TableEvent::HandForfeited {
                hand_no,
                seat,
                scores,
                ..
            } => {
                m.totals = [
                    m.totals[0].saturating_add(scores[0]),
                    m.totals[1].saturating_add(scores[1]),
                ];
                m.status = format!(
                    "Hand {hand_no} is forfeited by {}'s team: {} withheld what the check of the deal needs. It counts {} to team A, {} to team B; a computer player takes the seat.",
                    seat.name(),
                    m.name(seat),
                    scores[0],
                    scores[1]
                );
                m.log.push(m.status.clone());
            }
            TableEvent::SeatTaken { seat, runner } => {
                // The wait for this seat's player is over: no banner for it any more, and
                // when its runner is heard, nobody "answers again".
                m.down.remove(&seat);
                m.unheard.retain(|u| u.seat != seat);
                m.taken[seat.index()] = true;
                let what = if m.is_computer(seat) {
                    seat.name().to_owned()
                } else {
                    format!("{} ({})", seat.name(), m.name(seat))
                };
                // A computer player set up at the table may run another seat's: its program
                // is no person's client.
                let by = if m.is_computer(runner) {
                    format!("the program of the computer player at {}", runner.name())
                } else {
                    format!("{}'s client", m.name(runner))
                };
                let line = format!(
                    "A computer player now plays {what}, run by {by}, which can see its cards."
                );
                m.log.push(line);
            }
            TableEvent::HandStarted(n) => {
                // The score sheet of an earlier hand is done with (also when a resumed game
                // replays its hands: the sheet is not shown again).
                if m.report.as_ref().is_some_and(|(h, _)| *h < n) {
                    d.show_report = false;
                }
                m.next = None;
                m.ready_sent = false;
            }
            TableEvent::Chat(line) => {
                if Some(line.seat) == m.me {
                    m.chat_note = None;
                }
                if let Some(left) = m.left_line(&line) {
                    m.log.push(left);
                }
                if m.chat.len() >= CHAT_LINES {
                    m.chat.pop_front();
                }
                m.chat.push_back(line);
            }
            TableEvent::Alone { secs } => {
                m.status = format!(
                    "Nobody at the table has answered for {secs} s: the others have left, or finished the game without you."
                );
                m.log.push(m.status.clone());
            }
            TableEvent::SeatBarred { seat } => {
                m.status = format!(
                    "{} was proven at fault: a computer player keeps {} for the rest of the game.",
                    m.name(seat),
                    seat.name()
                );
                m.log.push(m.status.clone());
            }
            TableEvent::Stopped { reason } => {
                m.status = format!("The table stopped before the end of the game: {reason}.");
                m.log.push(m.status.clone());
                m.over = Some(m.status.clone());
            }
            TableEvent::Closed => {
                m.closed = true;
                m.status = "The host closed the table.".to_owned();
            }
        }
    }

    fn apply_hand(&mut self, hand_no: u32, event: HandEvent) {
        let Self { model: m, desk: d } = self;
        match event {
            HandEvent::Moved { seat, mv, effect } => {
                // Before the seat is known (a spectator's window, or a game whose
                // configuration has not come yet) each move is told in the third person,
                // never as "You".
                m.log.push(match m.me {
                    Some(me) => super::move_words::move_line(&mv, seat, me),
                    None => super::move_words::onlooker_line(&mv, seat),
                });
                let played = super::seen::Played { seat, mv, effect };
                d.seen.moved(played, Some(m.log.len() - 1));
                m.status.clear();
            }
            HandEvent::Dealt => {
                m.hand_no = hand_no;
                d.seen.dealt();
                m.log.push(format!("— Hand {hand_no} —"));
                m.status =
                    format!("Hand {hand_no} dealt: every card was shuffled by all four players.")
            }
            HandEvent::HandOver => m.status = "Hand over: checking the deal…".to_owned(),
            HandEvent::Complete(r) => {
                m.totals = [
                    m.totals[0].saturating_add(r.scores[0]),
                    m.totals[1].saturating_add(r.scores[1]),
                ];
                m.report = Some((hand_no, r));
                m.scored += 1;
                d.show_report = true;
                m.status = format!("Hand {hand_no} verified and scored.");
                d.plan.clear();
                d.plan_adds.clear();
                d.selected.clear();
            }
            HandEvent::Fault(b) => {
                m.status = format!(
                    "Cheating detected: {} — {}",
                    b.offender
                        .map_or("no seat can be named".to_owned(), |s| m.name(s)),
                    b.fault
                );
                m.log.push(m.status.clone());
            }
            HandEvent::Broken(bug) => {
                m.status = format!(
                    "This hand stopped: {bug}. A fault in this program, not any player's; \
                     it counts as this seat's stop."
                );
                m.log.push(m.status.clone());
            }
            HandEvent::Named(b) => {
                m.status = format!(
                    "Cheating detected after the scores were checked: {} — {}; the scores stand.",
                    b.offender
                        .map_or("no seat can be named".to_owned(), |s| m.name(s)),
                    b.fault
                );
                m.log.push(m.status.clone());
            }
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
