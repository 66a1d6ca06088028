//! `TableSession`: one peer's side of a whole game, sans-IO.
//!
//! The lobby (the host seats players as they join), the co-signed configuration (every seat
//! signs the table id, which hashes the whole configuration), then hand after hand through
//! [`HandSession`], with scores and dealers carried over, until a team reaches the target.
//! Hand messages for a hand not started yet wait until it starts; a computer player, if any,
//! plays this seat's turns.
//!
//! This file owns the session's fields, its construction and its accessors. The stages are in
//! their own files: `lobby.rs` (seating, the proposal), `signing.rs` (the configuration checked
//! and signed by all four), `play.rs` (hand after hand, computer players, the move clock),
//! with `pace.rs` (between hands), `absent.rs` (silent or leaving seats), `leaving.rs` (a
//! person who leaves mid-hand plays the hand out first), `replace.rs` (a
//! computer player taking a seat over), `held.rs` (a player told that its seat is held) and
//! `back.rs` (a seat given back, the game over). Also
//! `role.rs` (host or joiner), `route.rs` (which handler takes each message), `gate.rs` (what is admitted before it is
//! stored), `publish.rs` (what is sent, and the public transcript), `types.rs` (the public
//! types), `msg.rs` (the messages), `refusal.rs` (why a message or an action is not taken), `refused.rs` (why the gate refused one), `seat_rules.rs` (why a message about a seat is not taken, one reason for the gate and the handler),
//! `presence.rs`, `chat.rs`, `verdict.rs` (what a hand's verdict does to the table), `votes.rs` (the deal's timeout votes).

mod absent;
mod back;
pub mod chat;
mod gate;
mod held;
mod leaving;
mod lobby;
pub mod msg;
mod pace;
mod play;
mod presence;
mod publish;
mod quits;
mod refusal;
mod refused;
mod replace;
mod role;
mod route;
mod seat_rules;
mod signing;
mod stage;
pub mod statement;
mod timers;
mod types;
mod verdict;
mod voted_out;
mod votes;

pub use self::absent::{DEFAULT_GRACE_MS, MIN_GRACE_MS};
pub use self::gate::Admit;
pub use self::leaving::Leaving;
pub use self::pace::{NEXT_HAND_MS, NextHand};
pub use self::presence::{
    ALONE_MS, COMPUTER_MOVE_MS, QUIET_MS, RESYNC_MAX_MS, RESYNC_MS, UNHEARD_MS,
};
pub(crate) use self::quits::quit_names_its_hand;
pub use self::refusal::{ChatRefused, MsgKind, NotNow, ReadyRefused, Unexpected};
pub use self::refused::{Refused, Why};
pub use self::route::Replayed;
pub use self::seat_rules::{
    OverRefused, QuitRefused, ReplaceRefused, ReturnRefused, SeatHeldRefused, TimeoutRefused,
};
pub(crate) use self::types::MAX_EARLY_PER_SEAT;
pub use self::types::{
    AfterGrace, Dest, Gone, MAX_NAME, MAX_UNEXPLAINED_VOIDS, RESYNC_ANSWER_MS, StopReason,
    TableError, TableEvent, clean_name,
};
use self::types::{MAX_ADDRS, MAX_HELD, MAX_PUBLIC, derive};

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{GameResult, PlayerView, Seat, SeatMap, SeatSet, SplitMix64};
use fairdeal_crypto::PublicKey;
use fairdeal_crypto::hash::hash256;

use self::msg::{Ack, SeatInfo, TableConfig, TableMsg};
use self::role::Role;
use self::stage::Stage;
use crate::hand::DealHead;
use crate::hand::{HandReport, HandSession, Takeovers};

/// One peer's side of a table.
pub struct TableSession {
    secret: [u8; 32],
    master: [u8; 32],
    me: SeatInfo,
    /// Host or joiner, with what only that role knows.
    role: Role,
    name: String,
    preset: fairdeal_core::Preset,
    house: msg::House,
    roster: [Option<SeatInfo>; 4],
    /// Where the table stands, with what only that stage needs.
    stage: Stage,
    /// The game's position at the deal under way (or the last one started; number 0 before
    /// the first): its number, dealer, team totals and the previous deal's result. A deal's
    /// end moves it by [`DealHead::after`], the rule the transcript checker holds every
    /// header to; a returning player takes it from its runner's signed state.
    head: DealHead,
    hand: Option<HandSession>,
    /// Hand messages for a hand not started yet, with the seat of the peer that sent them.
    early: Vec<(usize, Vec<u8>)>,
    /// The current seat identities (a computer player may have replaced one).
    keys: [PublicKey; 4],
    grace_ms: u64,
    presence: presence::Presence,
    /// Timeout votes of the current deal, with their signatures (evidence for a voted-out
    /// seat's player, should it come back): cleared at each deal.
    votes: votes::Votes,
    /// For each seat voted out, the deal and the signed votes that put it out: what its
    /// runner shows the player when it comes back (the player takes nobody's word for it).
    out_proof: SeatMap<Option<held::OutProof>>,
    /// Runner: what it tells the player of each seat it holds, until the player plays again.
    telling: SeatMap<Option<held::Telling>>,
    /// Seats proven at fault: played by a computer player for the rest of the game.
    barred: SeatSet,
    /// The computer players this peer runs for seats taken over (at most three).
    proxies: Vec<replace::Proxy>,
    /// The seats taken over: whose client runs each computer player, and the seed of its
    /// decisions (what the next deal's header records).
    bots: Takeovers,
    /// Seats out of the current hand, waiting for their replacement.
    gone: SeatSet,
    /// When each seat's `Quit` was taken: its client's last signs of life just after are not
    /// its player coming back.
    quit_at: SeatMap<Option<u64>>,
    /// Each seat's latest signed quit (its hand and signature): a runner shows those of the
    /// seats taken over to a returning player whose own runner may be among them.
    signed_quits: SeatMap<Option<(u32, fairdeal_crypto::Sig)>>,
    /// The hand from which each seat is played by its player again after it was given back
    /// (0: never taken over): a quit signed before it is no longer the seat's word.
    back_at: SeatMap<u32>,
    /// This peer left the game (or was put out of it).
    left: bool,
    /// The seat whose client runs this peer's seat while it is away (as this peer worked it
    /// out when it left or saw itself voted out, or as a `SeatHeld`'s evidence showed): the
    /// one seat whose `Return` or `Over` this peer takes.
    held_by: Option<Seat>,
    /// This peer was told that its seat is held (said once, however often the runner tells it).
    held_told: bool,
    /// The person left during this hand: the seat is played to its end, then quits.
    leave_after: Option<u32>,
    /// Hands void in a row with no seat to blame.
    unexplained: u32,
    /// When a join or the acceptances were last asked for again (before the first hand).
    last_ask: Option<u64>,
    /// Runner: seats whose players are back, given back at the next hand.
    returning: SeatSet,
    /// Seats given back from a hand not started here yet, by seat.
    pending_return: SeatMap<Option<msg::ReturnState>>,
    /// How long computer players wait before each move (ms; 0: at once).
    think_ms: u64,
    /// The hands hand their proof checks out ([`TableSession::set_offload`]).
    offload: bool,
    /// The turn the move clock runs for: (hand, actor) and since when.
    turn_clock: Option<((u32, Seat), u64)>,
    /// When this seat's computer player may move next (a proxy keeps its own).
    bot_due: Option<u64>,
    /// Every signed hand envelope of the last two hands, by (hand, sender, seq), to resend.
    held: BTreeMap<(u32, u8, u32), Vec<u8>>,
    /// When each seat's last resync was answered (one is answered at most every
    /// [`RESYNC_ANSWER_MS`]).
    resync_answered: [Option<u64>; 4],
    /// The hand whose seats out (`gone`) this peer waits to see taken over by their runners'
    /// `Replace`; no hand is dealt until they are.
    awaiting_replacement: Option<u32>,
    /// `Replace`s that came before this peer's own verdict on their seats (one per seat).
    early_replace: Vec<replace::EarlyReplace>,
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
    /// Signed table messages put in the transcript already (they are sent to several peers).
    public_signed: BTreeSet<Vec<u8>>,
    /// The hashes of the current deal's envelopes put in the transcript already.
    published: BTreeSet<[u8; 32]>,
    /// Between two hands: the hand just scored, and the countdown.
    between: Option<pace::Between>,
    /// The latest hand after which each seat said it is ready.
    readies: SeatMap<u32>,
    /// A person plays this seat and says when they are ready for the next hand.
    wait_for_person: bool,
    /// How long the table waits between hands (ms; `None`: until every person is ready).
    next_hand_ms: Option<u64>,
    /// Our latest `Ready` (its hand and bytes), sent again to a seat that asks.
    my_ready: Option<(u32, Vec<u8>)>,
    /// The hand contexts of the last hands started (newest last).
    recent_hctx: VecDeque<[u8; 32]>,
    /// Table chat.
    chat: chat::Chat,
    /// A log is being replayed ([`TableSession::replay`]): what this peer said by itself is in
    /// the log, not said again.
    replaying: bool,
    /// A hand is being dealt ([`TableSession::start_hand`]).
    dealing: bool,
    /// The hand dealt ended while it was, and the next is to be dealt.
    deal_again: bool,
}

impl std::fmt::Debug for TableSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableSession")
            .field("me", &self.me.name)
            .field("hand_no", &self.head.hand_no)
            .field("totals", &self.head.totals)
            .finish_non_exhaustive()
    }
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
            role: Role::joiner(),
            name: String::new(),
            preset: fairdeal_core::Preset::Samba,
            house: msg::House::default(),
            roster: Default::default(),
            stage: Stage::lobby_start(),
            head: DealHead {
                hand_no: 0,
                ..DealHead::first(Seat::S)
            },
            hand: None,
            early: Vec::new(),
            keys: [PublicKey([0; 32]); 4],
            grace_ms: DEFAULT_GRACE_MS,
            presence: presence::Presence::default(),
            votes: votes::Votes::default(),
            out_proof: SeatMap::default(),
            telling: SeatMap::default(),
            barred: SeatSet::EMPTY,
            proxies: Vec::new(),
            bots: Takeovers::NONE,
            gone: SeatSet::EMPTY,
            quit_at: SeatMap::default(),
            signed_quits: SeatMap::default(),
            back_at: SeatMap::default(),
            left: false,
            held_by: None,
            held_told: false,
            leave_after: None,
            unexplained: 0,
            last_ask: None,
            returning: SeatSet::EMPTY,
            pending_return: SeatMap::default(),
            think_ms: 0,
            offload: false,
            turn_clock: None,
            bot_due: None,
            held: BTreeMap::new(),
            resync_answered: [None; 4],
            awaiting_replacement: None,
            early_replace: Vec::new(),
            bot: bot.and_then(by_name),
            rng: SplitMix64::new(u64::from_le_bytes([
                seed[0], seed[1], seed[2], seed[3], seed[4], seed[5], seed[6], seed[7],
            ])),
            reports: Vec::new(),
            own_recent: VecDeque::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            public: VecDeque::new(),
            public_signed: BTreeSet::new(),
            published: BTreeSet::new(),
            between: None,
            readies: SeatMap::default(),
            wait_for_person: false,
            next_hand_ms: Some(NEXT_HAND_MS),
            my_ready: None,
            recent_hctx: VecDeque::new(),
            chat: chat::Chat::default(),
            replaying: false,
            dealing: false,
            deal_again: false,
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
        s.role = Role::Host { move_clock_ms: 0 };
        s.name = name.to_owned();
        s.preset = preset;
        s.house = msg::House::from(&house);
        s.roster[0] = Some(me);
        let nonce = s.nonce();
        if let Some(lobby) = s.stage.lobby_mut() {
            lobby.nonces[0] = nonce;
        }
        s.events
            .push_back(TableEvent::Roster(Box::new(s.roster.clone())));
        s
    }

    /// A peer that will join a table.
    pub fn joiner(secret: [u8; 32], master: [u8; 32], me: SeatInfo, bot: Option<&str>) -> Self {
        Self::base(secret, master, me, bot)
    }

    /// Joiner: asks `host` for a seat (once connected to it). A host joins nobody.
    pub fn join(&mut self, host: PublicKey) {
        if self.role.is_host() {
            return;
        }
        self.role.set_host(host);
        self.send(
            Dest::Peer(host),
            TableMsg::Join {
                seat: self.me.clone(),
                want: self.role.want(),
                nonce: self.nonce(),
            },
        );
    }

    /// This peer's nonce for this game: fresh with every game's master secret, the same after
    /// a restart. The configuration must carry it in this peer's seat, so that a host cannot
    /// replay an old game's configuration: no hand context of the old game can repeat, and no
    /// old commitment can be passed off as an equivocation.
    pub fn nonce(&self) -> [u8; 32] {
        derive(&self.master, b"nonce", &[])
    }

    /// This peer's identity key.
    pub fn key(&self) -> PublicKey {
        self.me.key
    }

    /// The agreed configuration, once the game started.
    pub fn config(&self) -> Option<&TableConfig> {
        self.stage.config()
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
        self.head.hand_no
    }

    /// Team totals before the current hand.
    pub fn totals(&self) -> [i32; 2] {
        self.head.totals
    }

    /// The game's result once it is over.
    pub fn finished(&self) -> Option<GameResult> {
        self.stage.finished()
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
            .map(HandSession::waiting_on)
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
            hand_no: self.head.hand_no,
            state,
        }
    }

    /// What this table announces (host only; `None` for a joiner).
    pub fn info(&self) -> Option<msg::TableInfo> {
        self.role.is_host().then(|| msg::TableInfo {
            name: self.name.clone(),
            preset: self.preset,
            house: self.house.clone(),
            // A person's seat a computer player holds is listed as such: the LAN list must
            // not say a friend is playing who is not.
            seated: std::array::from_fn(|i| {
                self.roster[i].as_ref().map(|s| {
                    if !s.bot && self.bots.get(Seat::ALL[i]).is_some() {
                        format!("Computer for {}", s.name)
                    } else {
                        s.name.clone()
                    }
                })
            }),
            version: msg::AGENT_VERSION.to_owned(),
            move_clock_ms: self
                .stage
                .config()
                .map_or(self.role.move_clock_ms(), |c| c.move_clock_ms),
        })
    }

    /// Whether this peer is the host.
    pub fn is_host(&self) -> bool {
        self.role.is_host()
    }

    /// The host's identity, once known.
    pub fn host_key(&self) -> Option<PublicKey> {
        self.role.host(self.me.key)
    }
}
