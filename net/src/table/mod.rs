//! `TableSession`: one peer's side of a whole game, sans-IO.
//!
//! The lobby (the host seats players as they join), the co-signed configuration (every seat
//! signs the table id, which hashes the whole configuration), then hand after hand through
//! [`HandSession`], with scores and dealers carried over, until a team reaches the target.
//! Hand messages for a hand not started yet wait until it starts; a computer player, if any,
//! plays this seat's turns.

mod absent;
mod back;
pub mod chat;
mod gate;
pub mod msg;
mod pace;
mod presence;

pub use self::absent::{DEFAULT_GRACE_MS, Gone, MIN_GRACE_MS};
pub use self::gate::{Admit, Refused};
pub use self::pace::{NEXT_HAND_MS, NextHand};
pub use self::presence::{ALONE_MS, QUIET_MS, RESYNC_MAX_MS, RESYNC_MS};

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{GameResult, Move, PlayerView, Refusal, Seat, SplitMix64, game_result};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{CardTable, Envelope, Identity, PublicKey, SignedEnvelope};

use self::msg::{Ack, SeatInfo, TableConfig, TableMsg};
use crate::hand::{Event as HandEvent, HandConfig, HandReport, HandSession};

/// Where a message goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dest {
    /// One peer.
    Peer(PublicKey),
    /// Every other seated peer.
    Seats,
}

/// What the table reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableEvent {
    /// The lobby changed.
    Roster(Box<[Option<SeatInfo>; 4]>),
    /// Every seat signed the configuration: the game starts.
    Started(Box<TableConfig>),
    /// Hand `hand_no` begins at this peer (its commitment is on the way).
    HandStarted(u32),
    /// The table waits for these seats (a banner: "North lost connection").
    Paused(Vec<Seat>),
    /// Everyone answers again.
    Resumed,
    /// The hand was void because `seat` is out of it (silent past the grace period, left,
    /// or caught cheating); a computer player takes the seat and the hand is dealt again.
    HandVoided {
        /// The voided hand.
        hand_no: u32,
        /// The seat that is out.
        seat: Seat,
        /// Why.
        why: Gone,
    },
    /// A computer player plays this peer's seat (it was away, or left); the seat is given back
    /// at the start of the next hand.
    SeatHeld {
        /// The seat.
        seat: Seat,
    },
    /// A player has their seat back from the computer player that played it.
    SeatBack {
        /// The seat.
        seat: Seat,
    },
    /// Hand `hand_no` was over but `seat` stayed silent instead of finishing it (its seed or
    /// its signed result withheld past the grace period): the hand counts with `scores`, and a
    /// computer player takes the seat.
    HandForfeited {
        /// The hand.
        hand_no: u32,
        /// The silent seat.
        seat: Seat,
        /// The hand's scores, team A and B.
        scores: [i32; 2],
        /// Item by item, when the seed was withheld (the forfeit rule); `None` when the audit
        /// had passed and its scores stand.
        breakdown: Option<[fairdeal_core::TeamScore; 2]>,
    },
    /// A computer player now plays `seat`, run in the open by `runner`'s client (which can
    /// see that seat's cards).
    SeatTaken {
        /// The seat taken over.
        seat: Seat,
        /// Whose client runs it.
        runner: Seat,
    },
    /// Something happened in hand `hand_no`.
    Hand {
        /// The hand's number (from 1).
        hand_no: u32,
        /// What.
        event: HandEvent,
    },
    /// The host closed the table before the game started.
    Closed,
    /// A line of table chat (this peer's own too).
    Chat(chat::ChatLine),
    /// Nobody else at the table has been heard from for `secs` seconds (every other seat and
    /// every client running one): the others left, or ended the game while this peer was
    /// away. Said once per such stretch; the node stops, keeping its log for a later resume.
    Alone {
        /// How long nobody answered.
        secs: u64,
    },
    /// The game is over.
    GameOver {
        /// Final totals, team A and B.
        totals: [i32; 2],
        /// The result.
        result: GameResult,
    },
}

/// Bytes or a message that was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not decodable.
    #[error(transparent)]
    Decode(#[from] fairdeal_crypto::encoding::DecodeError),
    /// From a peer that has no seat at this table.
    #[error("message from a peer that is not seated here")]
    NotSeated,
    /// A message that makes no sense now (ignored).
    #[error("unexpected {0} message")]
    Unexpected(&'static str),
    /// A signature that does not verify.
    #[error("bad signature on the table configuration")]
    BadSignature,
    /// A configuration that does not carry this peer's nonce in its seat (an old game's
    /// configuration replayed, or one the host changed): not signed.
    #[error("the configuration does not carry this seat's nonce")]
    NotOurNonce,
    /// The hand rejected the bytes.
    #[error(transparent)]
    Hand(#[from] crate::hand::SessionError),
}

/// The most messages kept per sending seat for a hand not started here yet. A seat ahead of
/// this one sends the next hand's first messages (its commitment, or its share of a redeal),
/// and a seat coming back resends its previous and current hand (the old one is dropped when
/// the next hand starts); a hand takes a seat well under this many messages. Hand messages
/// are at most 64 KiB, so one seated peer can hold at most 32 MiB here, and a stranger none
/// (the gate refuses hand messages from peers not seated).
pub(crate) const MAX_EARLY_PER_SEAT: usize = 512;
/// Hands void in a row with nobody to blame after which the table stops instead of dealing
/// again (something is broken that another deal will not mend).
pub const MAX_UNEXPLAINED_VOIDS: u32 = 3;
/// Limit on the signed hand envelopes kept for resending (two hands' worth of any real hand).
const MAX_HELD: usize = 8192;
/// Limit on the transcript entries waiting to be taken ([`TableSession::poll_public`]).
const MAX_PUBLIC: usize = 1 << 17;
/// The longest player name accepted at a table (characters).
pub const MAX_NAME: usize = 40;

/// The most addresses a seat card may carry.
const MAX_ADDRS: usize = 16;

/// A name as a table accepts it: trimmed, without control characters, at most [`MAX_NAME`]
/// characters, and `Player` when nothing is left.
pub fn clean_name(name: &str) -> String {
    let visible: String = name.chars().filter(|c| !c.is_control()).collect();
    let cut: String = visible.trim().chars().take(MAX_NAME).collect();
    match cut.trim_end() {
        "" => "Player".to_owned(),
        kept => kept.to_owned(),
    }
}

/// One peer's side of a table.
pub struct TableSession {
    secret: [u8; 32],
    master: [u8; 32],
    me: SeatInfo,
    host: Option<PublicKey>,
    is_host: bool,
    name: String,
    preset: fairdeal_core::Preset,
    house: msg::House,
    roster: [Option<SeatInfo>; 4],
    /// Host: the nonce each seated player joined with (zeros for a free seat).
    nonces: [[u8; 32]; 4],
    /// Host: wait for [`TableSession::request_start`] rather than starting when four sit.
    hold: bool,
    /// Host: the start was asked for (computer players may still be on their way).
    start_requested: bool,
    /// Joiner: the seat asked for.
    want: Option<u8>,
    config: Option<TableConfig>,
    accepts: [bool; 4],
    /// Acceptances that arrived before the host's configuration.
    pending_accepts: Vec<(PublicKey, [u8; 32], fairdeal_crypto::Sig)>,
    table: Option<Arc<CardTable>>,
    hand_no: u32,
    dealer: Seat,
    totals: [i32; 2],
    prev_result: [u8; 32],
    hand: Option<HandSession>,
    /// Hand messages for a hand not started yet, with the seat of the peer that sent them.
    early: Vec<(usize, Vec<u8>)>,
    /// The current seat identities (a computer player may have replaced one).
    keys: [PublicKey; 4],
    grace_ms: u64,
    presence: presence::Presence,
    votes: BTreeMap<(u32, u8), BTreeSet<u8>>,
    voted: BTreeSet<(u32, u8)>,
    proxy: Option<absent::Proxy>,
    /// For each seat taken over, the seat whose client runs its computer player.
    runners: [Option<u8>; 4],
    /// For each seat taken over, the seed of its computer player's decisions.
    bot_seeds: [[u8; 32]; 4],
    /// Seats out of the current hand, waiting for their replacement.
    gone: BTreeSet<u8>,
    /// This peer left the game (or was put out of it).
    left: bool,
    /// Hands void in a row with no seat to blame.
    unexplained: u32,
    /// When a join or the acceptances were last asked for again (before the first hand).
    last_ask: Option<u64>,
    /// Runner: seats whose players are back, given back at the next hand.
    returning: BTreeSet<u8>,
    /// A seat given back from a hand not started here yet.
    pending_return: Option<msg::ReturnState>,
    /// How long computer players wait before each move (ms; 0: at once).
    think_ms: u64,
    /// Host, before the start: the move clock to put in the configuration (ms; 0: none).
    move_clock_ms: u64,
    /// The turn the move clock runs for: (hand, actor) and since when.
    turn_clock: Option<((u32, Seat), u64)>,
    /// When this seat's and the proxy's computer players may move next.
    bot_due: [Option<u64>; 2],
    /// Every signed hand envelope of the last two hands, by (hand, sender, seq), to resend.
    held: BTreeMap<(u32, u8, u32), Vec<u8>>,
    awaiting_replacement: Option<(u32, u8)>,
    early_replace: Option<absent::EarlyReplace>,
    finished: Option<GameResult>,
    bot: Option<Box<dyn Strategy + Send>>,
    rng: SplitMix64,
    reports: Vec<HandReport>,
    /// This peer's own hand messages of the previous and current hand, resent to a peer that
    /// comes back (it may have missed them while away).
    own_recent: VecDeque<(u32, Vec<u8>)>,
    out: VecDeque<(Dest, Vec<u8>)>,
    events: VecDeque<TableEvent>,
    /// The public transcript's entries not yet taken ([`TableSession::poll_public`]).
    public: VecDeque<crate::transcript::Entry>,
    /// The acceptances' signatures, for the transcript.
    accept_sigs: [Option<fairdeal_crypto::Sig>; 4],
    /// Signed table messages put in the transcript already (they are sent to several peers).
    public_signed: BTreeSet<Vec<u8>>,
    /// The hashes of the current deal's envelopes put in the transcript already.
    published: BTreeSet<[u8; 32]>,
    /// Between two hands: the hand just scored, and the countdown.
    between: Option<pace::Between>,
    /// The latest hand after which each seat said it is ready.
    readies: [u32; 4],
    /// A person plays this seat and says when they are ready for the next hand.
    wait_for_person: bool,
    /// How long the table waits between hands (ms).
    next_hand_ms: u64,
    /// Our latest `Ready` (its hand and bytes), sent again to a seat that asks.
    my_ready: Option<(u32, Vec<u8>)>,
    /// The hand contexts of the last hands started (newest last).
    recent_hctx: VecDeque<[u8; 32]>,
    /// Table chat.
    chat: chat::Chat,
    /// A log is being replayed: what this peer said by itself is in the log, not said again.
    pub(crate) replaying: bool,
}

impl std::fmt::Debug for TableSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableSession")
            .field("me", &self.me.name)
            .field("hand_no", &self.hand_no)
            .field("totals", &self.totals)
            .finish_non_exhaustive()
    }
}

/// Derives a 32-byte value from the peer's master secret (hand seeds, nonces, the bot's rng).
fn derive(master: &[u8; 32], what: &[u8], extra: &[u8]) -> [u8; 32] {
    hash256(b"fairdeal/v1/derive", &[master, what, extra])
}

impl TableSession {
    /// A peer with identity `secret`, per-game `master` secret (persisted by the caller), and
    /// `me` as its seat card. `bot`: the computer strategy that plays this seat, if any.
    fn base(secret: [u8; 32], master: [u8; 32], me: SeatInfo, bot: Option<&str>) -> Self {
        let seed = derive(&master, b"bot", &[]);
        Self {
            secret,
            master,
            me,
            host: None,
            is_host: false,
            name: String::new(),
            preset: fairdeal_core::Preset::Samba,
            house: msg::House::default(),
            roster: Default::default(),
            nonces: [[0; 32]; 4],
            hold: false,
            start_requested: false,
            want: None,
            config: None,
            accepts: [false; 4],
            pending_accepts: Vec::new(),
            table: None,
            hand_no: 0,
            dealer: Seat::S,
            totals: [0, 0],
            prev_result: [0; 32],
            hand: None,
            early: Vec::new(),
            keys: [PublicKey([0; 32]); 4],
            grace_ms: DEFAULT_GRACE_MS,
            presence: presence::Presence::default(),
            votes: BTreeMap::new(),
            voted: BTreeSet::new(),
            proxy: None,
            runners: [None; 4],
            bot_seeds: [[0; 32]; 4],
            gone: BTreeSet::new(),
            left: false,
            unexplained: 0,
            last_ask: None,
            returning: BTreeSet::new(),
            pending_return: None,
            think_ms: 0,
            move_clock_ms: 0,
            turn_clock: None,
            bot_due: [None; 2],
            held: BTreeMap::new(),
            awaiting_replacement: None,
            early_replace: None,
            finished: None,
            bot: bot.and_then(by_name),
            rng: SplitMix64::new(u64::from_le_bytes([
                seed[0], seed[1], seed[2], seed[3], seed[4], seed[5], seed[6], seed[7],
            ])),
            reports: Vec::new(),
            own_recent: VecDeque::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            public: VecDeque::new(),
            accept_sigs: Default::default(),
            public_signed: BTreeSet::new(),
            published: BTreeSet::new(),
            between: None,
            readies: [0; 4],
            wait_for_person: false,
            next_hand_ms: NEXT_HAND_MS,
            my_ready: None,
            recent_hctx: VecDeque::new(),
            chat: chat::Chat::default(),
            replaying: false,
        }
    }

    /// Opens a table as its host (seat South).
    pub fn host(
        secret: [u8; 32],
        master: [u8; 32],
        me: SeatInfo,
        bot: Option<&str>,
        name: &str,
        preset: fairdeal_core::Preset,
        house: fairdeal_core::HouseRules,
    ) -> Self {
        let mut s = Self::base(secret, master, me.clone(), bot);
        s.is_host = true;
        s.host = Some(me.key);
        s.name = name.to_owned();
        s.preset = preset;
        s.house = msg::House::from(&house);
        s.roster[0] = Some(me);
        s.nonces[0] = s.nonce();
        s.events
            .push_back(TableEvent::Roster(Box::new(s.roster.clone())));
        s
    }

    /// A peer that will join a table.
    pub fn joiner(secret: [u8; 32], master: [u8; 32], me: SeatInfo, bot: Option<&str>) -> Self {
        Self::base(secret, master, me, bot)
    }

    /// Asks `host` for a seat (once connected to it).
    pub fn join(&mut self, host: PublicKey) {
        self.host = Some(host);
        self.send(
            Dest::Peer(host),
            TableMsg::Join {
                seat: self.me.clone(),
                want: self.want,
                nonce: self.nonce(),
            },
        );
    }

    /// This peer's nonce for this game: fresh with every game's master secret, the same after
    /// a restart. The configuration must carry it in this peer's seat (issue 12 item 4).
    pub fn nonce(&self) -> [u8; 32] {
        derive(&self.master, b"nonce", &[])
    }

    /// This peer's identity key.
    pub fn key(&self) -> PublicKey {
        self.me.key
    }

    /// The agreed configuration, once the game started.
    pub fn config(&self) -> Option<&TableConfig> {
        self.config.as_ref()
    }

    /// The lobby.
    pub fn roster(&self) -> &[Option<SeatInfo>; 4] {
        &self.roster
    }

    /// This peer's seat, once seated.
    pub fn seat(&self) -> Option<Seat> {
        self.roster
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.key == self.me.key))
            .map(Seat::from_index)
    }

    /// The current hand's number (0 before the game).
    pub fn hand_no(&self) -> u32 {
        self.hand_no
    }

    /// Team totals before the current hand.
    pub fn totals(&self) -> [i32; 2] {
        self.totals
    }

    /// The game's result once it is over.
    pub fn finished(&self) -> Option<GameResult> {
        self.finished
    }

    /// Reports of the hands verified so far.
    pub fn reports(&self) -> &[HandReport] {
        &self.reports
    }

    /// The current hand.
    pub fn hand(&self) -> Option<&HandSession> {
        self.hand.as_ref()
    }

    /// This seat's view of the current hand.
    pub fn view(&self) -> Option<PlayerView> {
        self.hand.as_ref().and_then(HandSession::view)
    }

    /// The seats the current hand waits for.
    pub fn waiting_on(&self) -> Vec<Seat> {
        self.hand
            .as_ref()
            .map(|h| {
                h.waiting_on()
                    .into_iter()
                    .map(|s| Seat::from_index(usize::from(s)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The next message to send.
    #[must_use]
    pub fn poll_transmit(&mut self) -> Option<(Dest, Vec<u8>)> {
        self.out.pop_front()
    }

    /// The next event.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<TableEvent> {
        self.events.pop_front()
    }

    fn send(&mut self, dest: Dest, msg: TableMsg) {
        let bytes = msg.encode();
        if crate::transcript::is_evidence(&msg) {
            let at = self.public.len();
            self.publish_signed(at, self.me.key, &bytes);
        }
        self.out.push_back((dest, bytes));
    }

    /// The next entry of the public transcript (`transcript.fdt`): the configuration, each
    /// deal's header, every signed envelope of it this peer accepted or sent, and the signed
    /// table messages that explain a void or a change of seat.
    #[must_use]
    pub fn poll_public(&mut self) -> Option<crate::transcript::Entry> {
        self.public.pop_front()
    }

    /// Puts a signed table message into the transcript at `at` (once).
    fn publish_signed(&mut self, at: usize, from: PublicKey, bytes: &[u8]) {
        if self.public_signed.len() < MAX_HELD && self.public_signed.insert(bytes.to_vec()) {
            let entry = crate::transcript::Entry::Signed {
                from,
                msg: bytes.to_vec(),
            };
            self.publish(Some(at), entry);
        }
    }

    /// Queues a transcript entry (at `at`, or last), unless [`MAX_PUBLIC`] are waiting: the
    /// node takes them after every message, so only a session nobody drains gets there.
    fn publish(&mut self, at: Option<usize>, entry: crate::transcript::Entry) {
        if self.public.len() >= MAX_PUBLIC {
            return;
        }
        match at {
            Some(at) => self.public.insert(at.min(self.public.len()), entry),
            None => self.public.push_back(entry),
        }
    }

    /// The acknowledgement for the last message handled.
    pub fn ack(&self) -> Ack {
        let state = self
            .hand
            .as_ref()
            .and_then(HandSession::replica)
            .map(|r| {
                hash256(
                    b"fairdeal/v1/ack",
                    &[&fairdeal_crypto::encoding::encode(&r.public_state())],
                )
            })
            .unwrap_or_default();
        Ack {
            hand_no: self.hand_no,
            state,
        }
    }

    /// What this table announces (host only; `None` for a joiner).
    pub fn info(&self) -> Option<msg::TableInfo> {
        self.is_host.then(|| msg::TableInfo {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seated: self.roster.clone().map(|s| s.map(|s| s.name)),
            version: msg::AGENT_VERSION.to_owned(),
            move_clock_ms: self.move_clock_ms,
        })
    }

    /// Whether this peer is the host.
    pub fn is_host(&self) -> bool {
        self.is_host
    }

    /// The host's identity, once known.
    pub fn host_key(&self) -> Option<PublicKey> {
        self.host
    }

    /// Plays a move for this seat (a person's move; computer players play by themselves).
    ///
    /// # Errors
    ///
    /// The rules' refusal.
    pub fn submit(&mut self, mv: Move) -> Result<(), Refusal> {
        let Some(hand) = &mut self.hand else {
            return Err(Refusal::new(
                fairdeal_core::Code::WrongPhase,
                "no hand is being played",
            ));
        };
        hand.submit(mv)?;
        self.drain_hand();
        self.watch_turn();
        Ok(())
    }

    /// A connection to `peer` came up: if it is seated, send it what we have of the current
    /// hand (it may be back from a crash; duplicates are ignored).
    pub fn peer_connected(&mut self, peer: PublicKey) {
        if self.config.is_none() || !self.keys.contains(&peer) || peer == self.me.key {
            return;
        }
        let msgs: Vec<Vec<u8>> = self.own_recent.iter().map(|(_, b)| b.clone()).collect();
        // Our acceptance too, in case the game has not started for it.
        if let Some(sid) = self.config.as_ref().map(TableConfig::sid) {
            let sig = Identity::from_secret(self.secret).sign(&sid);
            self.send(Dest::Peer(peer), TableMsg::Accept { sid, sig });
            if let Some(config) = self.config.clone() {
                self.send(Dest::Peer(peer), TableMsg::Start { config });
            }
        }
        for bytes in msgs {
            self.send(Dest::Peer(peer), TableMsg::Hand { bytes });
        }
    }

    /// Takes a message from `from` (authenticated by the transport).
    ///
    /// # Errors
    ///
    /// Undecodable or out-of-place messages; nothing changes.
    pub fn handle_message(&mut self, from: PublicKey, bytes: &[u8]) -> Result<(), TableError> {
        let result = self.take_message(from, bytes);
        self.watch_turn();
        result
    }

    fn take_message(&mut self, from: PublicKey, bytes: &[u8]) -> Result<(), TableError> {
        let msg = TableMsg::decode(bytes)?;
        if crate::transcript::is_evidence(&msg) {
            // Into the transcript if accepted, before whatever its handling produced.
            let at = self.public.len();
            let result = self.dispatch(from, msg);
            if result.is_ok() {
                self.publish_signed(at, from, bytes);
            }
            return result;
        }
        self.dispatch(from, msg)
    }

    fn dispatch(&mut self, from: PublicKey, msg: TableMsg) -> Result<(), TableError> {
        let now = self.presence.now;
        self.heard(from, now);
        match msg {
            TableMsg::Join { seat, want, nonce } => self.on_join(from, seat, want, nonce),
            TableMsg::Roster {
                name,
                preset,
                house,
                seats,
                ..
            } => {
                if Some(from) != self.host || self.is_host {
                    return Err(TableError::Unexpected("roster"));
                }
                self.name = name;
                self.preset = preset;
                self.house = house;
                self.roster = seats.clone();
                self.events.push_back(TableEvent::Roster(Box::new(seats)));
                Ok(())
            }
            TableMsg::Start { config } => self.on_start(from, config),
            TableMsg::Accept { sid, sig } => self.on_accept(from, sid, &sig),
            TableMsg::Hand { bytes } => {
                let sender = self.keys.iter().position(|k| *k == from);
                match sender.filter(|_| self.config.is_some() && from != self.me.key) {
                    Some(seat) => self.on_hand_bytes(seat, &bytes),
                    None => Err(TableError::NotSeated),
                }
            }
            TableMsg::Resync { hand_no, have } => self.on_resync(from, hand_no, have),
            TableMsg::Quit { hand_no, sig } => self.on_quit(from, hand_no, &sig),
            TableMsg::SeatHeld { seat, .. } => self.on_seat_held(from, seat),
            TableMsg::Over { totals } => self.on_over(from, totals),
            TableMsg::Return { state, sig } => self.on_return(from, state, &sig),
            TableMsg::Query => Ok(()),
            TableMsg::Leave => self.on_leave(from),
            TableMsg::Timeout { hand_no, seat, sig } => self.on_timeout(from, hand_no, seat, &sig),
            TableMsg::Replace {
                hand_no,
                seat,
                key,
                seed,
                sig,
            } => self.on_replace(from, hand_no, seat, key, seed, &sig),
            TableMsg::Ready { hand_no, sig } => self.on_ready(from, hand_no, &sig),
            TableMsg::Chat { n, text, sig } => self.on_chat(from, n, text, &sig),
        }
    }

    fn on_join(
        &mut self,
        from: PublicKey,
        seat: SeatInfo,
        want: Option<u8>,
        nonce: [u8; 32],
    ) -> Result<(), TableError> {
        if !self.is_host || self.config.is_some() || seat.key != from {
            return Err(TableError::Unexpected("join"));
        }
        // A name as clean peers send it, and a bounded seat card (it is sent to every seat).
        if !gate::seat_card_ok(&seat) {
            return Err(TableError::Unexpected("join (bad name or addresses)"));
        }
        if let Some(i) = self
            .roster
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.key == from))
        {
            // Joining again (after a restart): its latest nonce is the one it will check.
            self.nonces[i] = nonce;
        } else {
            let wanted = want
                .map(usize::from)
                .filter(|&w| w < 4 && self.roster[w].is_none());
            let Some(free) = wanted.or_else(|| self.roster.iter().position(Option::is_none)) else {
                return Err(TableError::Unexpected("join (table full)"));
            };
            self.roster[free] = Some(seat);
            self.nonces[free] = nonce;
        }
        self.broadcast_roster();
        self.propose_if_ready();
        Ok(())
    }

    fn propose_if_ready(&mut self) {
        let full = self.roster.iter().all(Option::is_some);
        if full && (!self.hold || self.start_requested) && self.config.is_none() {
            self.propose();
        }
    }

    /// Host: start only when [`TableSession::request_start`] is called (a lobby in which the
    /// host arranges the seats first), not as soon as four are seated.
    pub fn hold_start(&mut self) {
        self.hold = true;
    }

    /// Joiner: ask for seat `seat` (0–3, S W N E) when joining.
    pub fn want_seat(&mut self, seat: Option<u8>) {
        self.want = seat;
    }

    /// Host: start the game as soon as four are seated (now, or when the computer players
    /// on their way have joined).
    ///
    /// # Errors
    ///
    /// Not the host, or the game has started.
    pub fn request_start(&mut self) -> Result<(), TableError> {
        if !self.is_host || self.config.is_some() {
            return Err(TableError::Unexpected("start"));
        }
        self.start_requested = true;
        self.propose_if_ready();
        Ok(())
    }

    /// Host, before the start: swap the players of seats `a` and `b` (1–3; the host keeps
    /// South), choosing partners.
    ///
    /// # Errors
    ///
    /// Not the host, the game has started, or a seat out of range.
    pub fn swap_seats(&mut self, a: u8, b: u8) -> Result<(), TableError> {
        if !self.is_host || self.config.is_some() || !(1..4).contains(&a) || !(1..4).contains(&b) {
            return Err(TableError::Unexpected("seat change"));
        }
        self.roster.swap(usize::from(a), usize::from(b));
        self.nonces.swap(usize::from(a), usize::from(b));
        self.broadcast_roster();
        Ok(())
    }

    /// Before the start: a joiner gives up its seat; the host closes the table.
    ///
    /// # Errors
    ///
    /// The game has started (a seat is then left by going silent, and taken over).
    pub fn leave(&mut self) -> Result<(), TableError> {
        if self.config.is_some() {
            return Err(TableError::Unexpected("leave"));
        }
        if self.is_host {
            self.send_to_seated(&TableMsg::Leave);
        } else if let Some(host) = self.host {
            self.send(Dest::Peer(host), TableMsg::Leave);
        }
        Ok(())
    }

    fn on_leave(&mut self, from: PublicKey) -> Result<(), TableError> {
        if self.config.is_some() {
            return Err(TableError::Unexpected("leave"));
        }
        if self.is_host {
            let Some(i) = self
                .roster
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| s.key == from))
            else {
                return Err(TableError::NotSeated);
            };
            self.roster[i] = None;
            self.nonces[i] = [0; 32];
            self.broadcast_roster();
            Ok(())
        } else if Some(from) == self.host {
            self.events.push_back(TableEvent::Closed);
            Ok(())
        } else {
            Err(TableError::Unexpected("leave"))
        }
    }

    /// Seats still free (before the start).
    pub fn free_seats(&self) -> usize {
        self.roster.iter().filter(|s| s.is_none()).count()
    }

    /// The table id, for a message that only makes sense once the game started (`what`
    /// names it in the refusal).
    pub(crate) fn started_sid(&self, what: &'static str) -> Result<[u8; 32], TableError> {
        self.config
            .as_ref()
            .map(TableConfig::sid)
            .ok_or(TableError::Unexpected(what))
    }

    /// Replays a message this peer sent (rebuilding from the log): the host's seating and
    /// start, and timeout votes, are decisions the received messages cannot re-derive.
    pub fn replay_sent(&mut self, bytes: &[u8]) {
        match TableMsg::decode(bytes) {
            Ok(TableMsg::Roster { seats, nonces, .. }) if self.is_host && self.config.is_none() => {
                self.roster = seats;
                self.nonces = nonces;
            }
            Ok(TableMsg::Start { config }) if self.is_host && self.config.is_none() => {
                self.start_requested = true;
                let _ = self.on_start(self.me.key, config);
            }
            Ok(TableMsg::Timeout { hand_no, seat, .. }) => self.vote_timeout(hand_no, seat),
            Ok(TableMsg::SeatHeld { seat, .. }) => self.replay_seat_held(seat),
            Ok(TableMsg::Ready { hand_no, .. }) => self.replay_ready(hand_no, bytes),
            Ok(TableMsg::Hand { bytes }) => self.replay_hand_sent(&bytes),
            Ok(TableMsg::Chat { n, .. }) => self.replay_chat(n),
            Ok(TableMsg::Quit { .. }) => {
                let at = self.public.len();
                self.publish_signed(at, self.me.key, bytes);
                self.left = true;
                self.hand = None;
            }
            _ => {}
        }
    }

    fn broadcast_roster(&mut self) {
        let msg = TableMsg::Roster {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seats: self.roster.clone(),
            nonces: self.nonces,
        };
        self.send_to_seated(&msg);
        self.events
            .push_back(TableEvent::Roster(Box::new(self.roster.clone())));
    }

    /// Sends `msg` to every other player seated in the lobby now.
    fn send_to_seated(&mut self, msg: &TableMsg) {
        let keys: Vec<PublicKey> = self
            .roster
            .iter()
            .flatten()
            .map(|s| s.key)
            .filter(|k| *k != self.me.key)
            .collect();
        for k in keys {
            self.send(Dest::Peer(k), msg.clone());
        }
    }

    /// The host fixes the configuration once four are seated.
    fn propose(&mut self) {
        let seats: Vec<&SeatInfo> = self.roster.iter().flatten().collect();
        if seats.len() != 4 {
            return;
        }
        let config = TableConfig {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            seats: [seats[0].key, seats[1].key, seats[2].key, seats[3].key],
            names: [0, 1, 2, 3].map(|i| seats[i].name.clone()),
            bots: [0, 1, 2, 3].map(|i| seats[i].bot),
            first_dealer: 3,
            proofs: fairdeal_crypto::ProofMode::default(),
            nonces: self.nonces,
            move_clock_ms: self.move_clock_ms,
        };
        let me = self.me.key;
        for k in config.seats.into_iter().filter(|k| *k != me) {
            self.send(
                Dest::Peer(k),
                TableMsg::Start {
                    config: config.clone(),
                },
            );
        }
        let _ = self.on_start(self.me.key, config);
    }

    fn on_start(&mut self, from: PublicKey, config: TableConfig) -> Result<(), TableError> {
        if let Some(existing) = &self.config {
            return if *existing == config {
                Ok(())
            } else {
                Err(TableError::Unexpected("start"))
            };
        }
        if Some(from) != self.host && from != self.me.key {
            // A peer may forward the host's configuration (after a restart); it must still
            // be the host's table: the host sits South.
            if config.seats[0] != from && self.host.is_some_and(|h| h != config.seats[0]) {
                return Err(TableError::Unexpected("start"));
            }
        }
        let Some(seat) = config.seat_of(&self.me.key) else {
            return Err(TableError::NotSeated);
        };
        if config.nonces[usize::from(seat)] != self.nonce() {
            // Not this game's configuration (an old game's replayed, or our nonce changed):
            // signing it could let a hand context of another game repeat.
            return Err(TableError::NotOurNonce);
        }
        let sid = config.sid();
        self.host = Some(config.seats[0]);
        let known = self.roster.clone();
        self.roster = [0, 1, 2, 3].map(|i| {
            let addrs = known
                .iter()
                .flatten()
                .find(|s| s.key == config.seats[i])
                .map(|s| s.addrs.clone())
                .unwrap_or_default();
            Some(SeatInfo {
                key: config.seats[i],
                name: config.names[i].clone(),
                bot: config.bots[i],
                addrs,
            })
        });
        self.table = CardTable::new(config.rules().deck_size() as u16)
            .ok()
            .map(Arc::new);
        self.dealer = config.dealer();
        self.keys = config.seats;
        self.config = Some(config);
        let sig = Identity::from_secret(self.secret).sign(&sid);
        self.send(
            Dest::Seats,
            TableMsg::Accept {
                sid,
                sig: sig.clone(),
            },
        );
        self.on_accept(self.me.key, sid, &sig)?;
        for (from, sid, sig) in std::mem::take(&mut self.pending_accepts) {
            let _ = self.on_accept(from, sid, &sig);
        }
        Ok(())
    }

    fn on_accept(
        &mut self,
        from: PublicKey,
        sid: [u8; 32],
        sig: &fairdeal_crypto::Sig,
    ) -> Result<(), TableError> {
        let Some(config) = &self.config else {
            // Kept until the configuration comes: one per player seated in the lobby.
            let seated =
                self.roster.iter().flatten().any(|s| s.key == from) || Some(from) == self.host;
            if seated && !self.pending_accepts.iter().any(|(k, _, _)| *k == from) {
                self.pending_accepts.push((from, sid, sig.clone()));
            }
            return Ok(());
        };
        let Some(seat) = config.seat_of(&from) else {
            return Err(TableError::NotSeated);
        };
        if sid != config.sid() || from.verify(&sid, sig).is_err() {
            return Err(TableError::BadSignature);
        }
        let first = self.accepts.iter().all(|a| *a);
        self.accepts[usize::from(seat)] = true;
        self.accept_sigs[usize::from(seat)] = Some(sig.clone());
        if !first && self.accepts.iter().all(|a| *a) {
            let config = config.clone();
            if let [Some(a), Some(b), Some(c), Some(d)] = self.accept_sigs.clone() {
                let entry = crate::transcript::Entry::Table {
                    config: Box::new(config.clone()),
                    accepts: Box::new([a, b, c, d]),
                };
                self.publish(None, entry);
            }
            self.events.push_back(TableEvent::Started(Box::new(config)));
            self.start_hand();
        }
        Ok(())
    }

    fn start_hand(&mut self) {
        if self.config.is_none() || self.table.is_none() || self.left {
            return;
        }
        self.returns_at(self.hand_no + 1);
        let (Some(config), Some(table)) = (&self.config, &self.table) else {
            return;
        };
        let Some(me) = self.my_seat_index() else {
            return;
        };
        self.hand_no += 1;
        self.bot_due = [None; 2];
        let keep_from = self.hand_no.saturating_sub(1);
        self.held.retain(|(h, _, _), _| *h >= keep_from);
        let sid = config.sid();
        let cfg = HandConfig {
            sid,
            keys: self.keys,
            rules: config.rules(),
            dealer: self.dealer,
            scores: self.totals,
            hand_no: self.hand_no,
            prev_result: self.prev_result,
            proofs: config.proofs,
            bots: [0, 1, 2, 3].map(|s: usize| {
                self.runners[s].map(|runner| crate::hand::Replacement {
                    runner,
                    seed: self.bot_seeds[s],
                })
            }),
        };
        let table = table.clone();
        self.between = None;
        self.published.clear();
        self.publish(
            None,
            crate::transcript::Entry::Hand {
                hand_no: cfg.hand_no,
                dealer: cfg.dealer.index() as u8,
                scores: cfg.scores,
                prev_result: cfg.prev_result,
                keys: Box::new(cfg.keys),
                bots: Box::new(cfg.bots.map(|b| {
                    b.map(|r| crate::transcript::Stand {
                        runner: r.runner,
                        seed: r.seed,
                    })
                })),
            },
        );
        let hand_no = self.hand_no.to_le_bytes();
        let seed = derive(&self.master, b"hand-seed", &[&sid[..], &hand_no].concat());
        self.hand = Some(HandSession::new(
            cfg.clone(),
            me,
            Identity::from_secret(self.secret),
            seed,
            table.clone(),
        ));
        if self.recent_hctx.len() >= pace::RECENT_HANDS {
            self.recent_hctx.pop_front();
        }
        self.recent_hctx
            .extend(self.hand.as_ref().map(HandSession::hctx));
        if let Some(p) = &mut self.proxy {
            p.rng =
                crate::hand::replacement_rng(&self.bot_seeds[usize::from(p.seat)], self.hand_no);
            let seed = derive(&self.master, b"proxy-seed", &[&sid[..], &hand_no].concat());
            p.hand = Some(HandSession::new(
                cfg,
                p.seat,
                Identity::from_secret(p.secret),
                seed,
                table.clone(),
            ));
        }
        self.events.push_back(TableEvent::HandStarted(self.hand_no));
        // Messages that arrived early for this hand.
        let early = std::mem::take(&mut self.early);
        for (seat, bytes) in early {
            let _ = self.on_hand_bytes(seat, &bytes);
        }
        // What this hand did not take belongs to an older hand.
        self.early.clear();
        self.drain_hand();
    }

    /// A hand message from the peer in seat `from`.
    fn on_hand_bytes(&mut self, from: usize, bytes: &[u8]) -> Result<(), TableError> {
        // Route by the envelope's hand context (its sid) without trusting it yet.
        let env = SignedEnvelope::from_wire(bytes)?;
        let header: Envelope = fairdeal_crypto::encoding::decode(&env.bytes)?;
        let mut handled = false;
        let mut result = Ok(());
        let proxy_hand = self.proxy.as_mut().and_then(|p| p.hand.as_mut());
        for hand in [self.hand.as_mut(), proxy_hand].into_iter().flatten() {
            if header.sid == hand.hctx() {
                handled = true;
                if let Err(e) = hand.handle_message(bytes) {
                    result = Err(e.into());
                }
            }
        }
        if handled && result.is_ok() {
            // Validly signed for this hand: kept, to pass on to a seat that missed it.
            self.hold(self.hand_no, header.sender, header.seq, bytes);
        }
        if !handled {
            // Maybe the next hand's (another seat voided or finished this one first): keep it,
            // bounded, until that hand starts; an old hand's message is dropped then.
            if self.early.iter().filter(|(s, _)| *s == from).count() < MAX_EARLY_PER_SEAT {
                self.early.push((from, bytes.to_vec()));
            }
            return Ok(());
        }
        self.drain_hand();
        result
    }

    /// Forwards the hands' output (ours and a computer player's we run, which also reach each
    /// other here), handles events, and lets the computer players move.
    fn drain_hand(&mut self) {
        loop {
            let mut progressed = false;
            let own: Vec<Vec<u8>> = self
                .hand
                .as_mut()
                .map(|h| std::iter::from_fn(|| h.poll_transmit()).collect())
                .unwrap_or_default();
            let theirs: Vec<Vec<u8>> = self
                .proxy
                .as_mut()
                .and_then(|p| p.hand.as_mut())
                .map(|h| std::iter::from_fn(|| h.poll_transmit()).collect())
                .unwrap_or_default();
            for bytes in &own {
                if let Some(h) = self.proxy.as_mut().and_then(|p| p.hand.as_mut()) {
                    let _ = h.handle_message(bytes);
                }
            }
            for bytes in &theirs {
                if let Some(h) = self.hand.as_mut() {
                    let _ = h.handle_message(bytes);
                }
            }
            for bytes in own.into_iter().chain(theirs) {
                if let Ok(env) = SignedEnvelope::from_wire(&bytes)
                    && let Ok(header) = fairdeal_crypto::encoding::decode::<Envelope>(&env.bytes)
                {
                    self.hold(self.hand_no, header.sender, header.seq, &bytes);
                }
                self.own_recent.push_back((self.hand_no, bytes.clone()));
                self.out
                    .push_back((Dest::Seats, TableMsg::Hand { bytes }.encode()));
                progressed = true;
            }
            while self
                .own_recent
                .front()
                .is_some_and(|(h, _)| h + 1 < self.hand_no)
            {
                self.own_recent.pop_front();
            }
            let Some(hand) = &mut self.hand else { return };
            let mut complete = None;
            let mut fault = None;
            while let Some(event) = hand.poll_event() {
                match &event {
                    HandEvent::Complete(report) => complete = Some(report.clone()),
                    HandEvent::Fault(blame) => fault = Some(blame.offender),
                    _ => {}
                }
                self.events.push_back(TableEvent::Hand {
                    hand_no: self.hand_no,
                    event,
                });
                progressed = true;
            }
            if let Some(p) = self.proxy.as_mut().and_then(|p| p.hand.as_mut()) {
                while p.poll_event().is_some() {}
            }
            if let Some(report) = complete {
                self.finish_hand(report);
                return;
            }
            if let Some(offender) = fault {
                self.after_fault(offender);
                return;
            }
            let (now, think) = (self.presence.now, self.think_ms);
            if let (Some(bot), true) = (&mut self.bot, hand.my_turn())
                && thought(&mut self.bot_due[0], now, think)
                && let Some(view) = hand.view()
                && let Some(mv) = bot.choose(&view, &mut self.rng)
                && hand.submit(mv).is_ok()
            {
                progressed = true;
            }
            if let Some(p) = self.proxy.as_mut()
                && let Some(h) = p.hand.as_mut()
                && h.my_turn()
                && thought(&mut self.bot_due[1], now, think)
                && let Some(view) = h.view()
                && let Some(mv) = p.bot.choose(&view, &mut p.rng)
                && h.submit(mv).is_ok()
            {
                progressed = true;
            }
            if !progressed {
                return;
            }
        }
    }

    /// A hand stopped on a fault: the table goes on. The offender's seat goes to a computer
    /// player and the hand is dealt again; when no seat can be named the hand is simply dealt
    /// again, up to [`MAX_UNEXPLAINED_VOIDS`] times in a row.
    fn after_fault(&mut self, offender: Option<u8>) {
        match offender {
            Some(seat) if seat < 4 => {
                self.unexplained = 0;
                self.void_hand(seat, Gone::Cheated);
            }
            _ => {
                self.unexplained += 1;
                let hctx = self.hand.take().map(|h| h.hctx()).unwrap_or_default();
                self.prev_result = hash256(b"fairdeal/v1/void", &[&hctx, &[0xff]]);
                if self.unexplained <= MAX_UNEXPLAINED_VOIDS {
                    self.start_hand();
                }
            }
        }
    }

    fn finish_hand(&mut self, report: HandReport) {
        self.totals = [
            self.totals[0] + report.scores[0],
            self.totals[1] + report.scores[1],
        ];
        self.prev_result = report.transcript_root;
        self.reports.push(report);
        let rules = self.config.as_ref().map(TableConfig::rules);
        let result = rules.map_or(GameResult::Continue, |r| {
            game_result(self.totals, r.target, r.tie_rule)
        });
        self.unexplained = 0;
        if result == GameResult::Continue {
            self.dealer = self.dealer.next();
            self.between_hands();
        } else {
            self.game_over(result);
        }
    }
}

/// Whether a computer player that wants to move at `now` has thought for `think` ms: the
/// first call starts its thinking time, a later one at or past the deadline lets it move.
fn thought(due: &mut Option<u64>, now: u64, think: u64) -> bool {
    if think == 0 {
        return true;
    }
    match *due {
        None => {
            *due = Some(now.saturating_add(think));
            false
        }
        Some(t) if now >= t => {
            *due = None;
            true
        }
        Some(_) => false,
    }
}

impl TableSession {
    /// Computer players (this seat's, and a seat it runs) wait `ms` before each move, so that
    /// a person can follow; 0 (the default) moves at once.
    pub fn set_think_ms(&mut self, ms: u64) {
        self.think_ms = ms;
    }

    /// When [`TableSession::handle_timeout`] should next be called for a computer player's
    /// move, if one is thinking (the node's periodic tick covers everything else).
    pub fn poll_timeout(&self) -> Option<u64> {
        self.bot_due
            .iter()
            .flatten()
            .copied()
            .chain(self.pace_deadline())
            .min()
    }

    /// Keeps a validly signed envelope of hand `hand_no` (bounded) to pass on in a resync.
    fn hold(&mut self, hand_no: u32, sender: u8, seq: u32, bytes: &[u8]) {
        if self.held.len() < MAX_HELD {
            self.held
                .entry((hand_no, sender, seq))
                .or_insert_with(|| bytes.to_vec());
        }
        // Into the transcript once per deal (a deal started again has the same slots).
        if let Ok(signed) = SignedEnvelope::from_wire(bytes)
            && self.published.len() < MAX_HELD
            && self.published.insert(signed.hash())
        {
            self.publish(None, crate::transcript::Entry::Envelope { hand_no, signed });
        }
    }

    /// A seat asks for what it lacks of hand `hand_no`: every envelope we hold that it has not
    /// got, whoever signed it (so a message one seat holds reaches every seat).
    fn on_resync(
        &mut self,
        from: PublicKey,
        hand_no: u32,
        have: [u32; 4],
    ) -> Result<(), TableError> {
        if self.config.is_none() || !self.keys.contains(&from) || from == self.me.key {
            return Err(TableError::NotSeated);
        }
        if hand_no == 0 {
            // Its game has not started: our acceptance (and the host's configuration) again.
            self.peer_connected(from);
            return Ok(());
        }
        let missing: Vec<Vec<u8>> = self
            .held
            .range((hand_no, 0, 0)..=(hand_no, 3, u32::MAX))
            .filter(|((_, s, seq), _)| *seq >= have[usize::from(*s)])
            .map(|(_, b)| b.clone())
            .collect();
        for bytes in missing {
            self.send(Dest::Peer(from), TableMsg::Hand { bytes });
        }
        self.ready_again(from, hand_no);
        Ok(())
    }
}

impl TableSession {
    /// Host, before the start: a move clock of `ms` a turn (0: none). It goes into the
    /// signed configuration, so every seat sees the same countdown.
    pub fn set_move_clock_ms(&mut self, ms: u64) {
        if self.config.is_none() {
            self.move_clock_ms = ms;
        }
    }

    /// The move clock of the turn being played: whose turn, and how long is left (ms), when
    /// the table has a clock.
    pub fn move_clock(&self) -> Option<(Seat, u64)> {
        let clock = self.config.as_ref()?.move_clock_ms;
        let ((_, actor), since) = self.turn_clock?;
        (clock > 0).then(|| (actor, (since + clock).saturating_sub(self.presence.now)))
    }

    /// Starts the move clock when a new turn begins (another seat to act), and keeps it
    /// through the several moves of one turn.
    fn watch_turn(&mut self) {
        let turn = self.hand.as_ref().and_then(|h| {
            let r = h.replica()?;
            (h.stage() == crate::hand::Stage::Play && !r.is_over())
                .then(|| (self.hand_no, r.actor()))
        });
        self.turn_clock = match (turn, self.turn_clock) {
            (None, _) => None,
            (Some(t), Some((k, since))) if k == t => Some((k, since)),
            (Some(t), _) => Some((t, self.presence.now)),
        };
    }

    /// When the move clock of this seat's turn has run out and a person plays it: the move
    /// their client plays for them (the node plays it as the person's own, so that it is
    /// logged like one). Deterministic from the position, so a rebuilt client agrees.
    pub fn timed_out_move(&self) -> Option<Move> {
        if self.bot.is_some() {
            return None;
        }
        let (seat, left) = self.move_clock()?;
        let hand = self.hand.as_ref()?;
        if left > 0 || Some(seat.index() as u8) != self.my_seat_index() || !hand.my_turn() {
            return None;
        }
        let view = hand.view()?;
        let mut strategy = by_name(crate::hand::REPLACEMENT_STRATEGY)?;
        let seed = derive(
            &self.master,
            b"move-clock",
            &[
                &self.hand_no.to_le_bytes()[..],
                &(hand.turn_count() as u64).to_le_bytes(),
            ]
            .concat(),
        );
        let mut first = [0u8; 8];
        first.copy_from_slice(&seed[..8]);
        strategy.choose(&view, &mut SplitMix64::new(u64::from_le_bytes(first)))
    }
}
