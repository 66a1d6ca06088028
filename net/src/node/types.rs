//! What a node is given and what it gives back: how this peer takes part ([`Role`],
//! [`NodeOptions`]), what it reports to its front end ([`NodeEvent`], with [`Path`] and
//! [`Unheard`]), what a front end asks of it ([`Intent`]), how a game ends ([`Outcome`]) or
//! fails ([`NodeError`], [`NetError`]), and the peer id of an identity key and back
//! ([`key_of`], [`peer_of`]). The event loop and its parts name these.

use std::path::PathBuf;

use fairdeal_core::{GameResult, HouseRules, Move, Preset, Seat};
use fairdeal_crypto::PublicKey;
use libp2p::{Multiaddr, PeerId};

use crate::table::TableEvent;

/// How this peer takes part.
#[derive(Debug, Clone)]
pub enum Role {
    /// Open a table and sit South.
    Host {
        /// The table's name.
        table: String,
        /// The preset.
        preset: Preset,
        /// House rules (the target included).
        house: HouseRules,
    },
    /// Join a table by address, or by name on the LAN.
    Join {
        /// The host's address (with `/p2p/...` or not).
        address: Option<Multiaddr>,
        /// The table's name, found by mDNS.
        table: Option<String>,
    },
}

/// A node's options.
#[derive(Debug, Clone)]
pub struct NodeOptions {
    /// The data directory (identity, game log, lock).
    pub data_dir: PathBuf,
    /// Where to listen.
    pub listen: Multiaddr,
    /// LAN discovery on/off.
    pub mdns: bool,
    /// Host or join.
    pub role: Role,
    /// Computer strategy for this seat (`None`: a person at the terminal or UI).
    pub bot: Option<String>,
    /// Display name.
    pub name: String,
    /// How long a silent seat may pause the table before its hand is voided (default 60 s).
    pub grace_ms: Option<u64>,
    /// Host: wait for [`Intent::Start`] instead of starting when four are seated.
    pub hold: bool,
    /// Joiner: the seat asked for (0–3, S W N E).
    pub want: Option<u8>,
    /// How long this seat's computer player (and one it runs for a seat taken over) waits
    /// before each move, so that people can follow (0: at once).
    pub think_ms: u64,
    /// Host: the move clock, ms a turn (0: none; the default).
    pub move_clock_ms: u64,
    /// A person at a window says when they are ready for the next hand ([`Intent::Ready`]);
    /// off (the terminal), the seat is ready as soon as a hand is scored.
    pub wait_for_person: bool,
    /// Between hands, deal the next hand after [`crate::table::NEXT_HAND_MS`] even if a
    /// person has not said they are ready (on at LAN tables, so nobody holds up the others).
    /// Off at a table where one person plays with computer players: nobody waits for them,
    /// and the score sheet stays until they press "Next hand".
    pub countdown: bool,
    /// A relay to be reachable through (with its `/p2p/RELAY`), for friends beyond the LAN:
    /// the node reserves a circuit there and tells the others that address too.
    pub relay: Option<Multiaddr>,
}

/// What a node reports to its front end.
#[derive(Debug, Clone)]
pub enum NodeEvent {
    /// Listening at this address (with `/p2p/...`).
    Listening(Multiaddr),
    /// A table event.
    Table(TableEvent),
    /// The table is waiting for these seats (for a banner and timeouts).
    Waiting(Vec<Seat>),
    /// A person's move was refused.
    Refused(String),
    /// A one-line status for the log.
    Status(String),
    /// It is this seat's turn (a person plays it): what the seat sees.
    YourTurn(Box<fairdeal_core::PlayerView>),
    /// What this seat sees changed (a person plays it).
    View(Box<fairdeal_core::PlayerView>),
    /// The table's move clock (once a second while a turn is played): whose turn, and how
    /// long is left before that player's client plays for them.
    Clock {
        /// Whose turn.
        seat: Seat,
        /// Time left (ms).
        left_ms: u64,
    },
    /// Between hands (once a second, and when it changes): what the next hand waits for.
    /// `None` (once): this seat is out of the game (its player left, or a computer player
    /// holds it until the next hand), so no hand waits for it, and a score sheet still open
    /// has no "Next hand" to offer.
    NextHand(Option<crate::table::NextHand>),
    /// The seats this peer has heard nothing from for a while (see
    /// [`crate::table::UNHEARD_MS`]): once a second while there are any, and once more, empty,
    /// when every seat is heard again.
    Unheard(Vec<Unheard>),
    /// The connection to a seated player came up or went down.
    Link {
        /// The seat.
        seat: Seat,
        /// Connected now.
        up: bool,
    },
    /// How this node reaches a seated player changed: directly, or only through the relay.
    Path {
        /// The seat.
        seat: Seat,
        /// The way.
        path: Path,
    },
}

/// How a node reaches a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// A connection of their own (the LAN, or a hole punched through the routers).
    Direct,
    /// Only a circuit through the relay.
    Relayed,
}

impl Path {
    /// In words, for the seat's line ("direct" / "through the relay").
    pub fn words(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::Relayed => "through the relay",
        }
    }
}

/// A seat this peer hears nothing from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unheard {
    /// The seat.
    pub seat: Seat,
    /// For how long (ms).
    pub ms: u64,
    /// A computer player's seat: whose client runs it, as far as this peer can tell (see
    /// [`crate::table::TableSession::client_of`]).
    pub client: Option<Seat>,
    /// While a hand is dealt or played: how long (ms) before the table votes the seat out if
    /// it stays silent (the grace period left), and what then becomes of the hand.
    pub grace_left: Option<(u64, crate::table::AfterGrace)>,
}

/// What a front end can ask of a node.
#[derive(Debug, Clone)]
pub enum Intent {
    /// Play a move for this seat.
    Play(Move),
    /// Host, in the lobby: start once four are seated.
    Start,
    /// Host, in the lobby: swap the players of two seats (West, North or East; the host keeps
    /// South).
    SwapSeats(Seat, Seat),
    /// Before the start: give up the seat (joiner) or close the table (host), tell the
    /// others, and stop. During the game: leave the table and stop; during a hand the node
    /// first plays the seat to the hand's end (by the replacement strategy), so that the hand
    /// is scored, and then a computer player takes the seat.
    Leave,
    /// Leave (the node finishes and returns).
    Quit,
    /// Between hands: the person is ready for the next hand.
    Ready,
    /// Say a line of table chat.
    Say(String),
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Final totals, team A and B.
    pub totals: [i32; 2],
    /// The result.
    pub result: GameResult,
    /// Hands played and verified.
    pub hands: usize,
}

/// A node that failed.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The game log.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The network could not be set up, listened on or dialled.
    #[error("network: {0}")]
    Net(#[from] NetError),
    /// The game log does not replay into a session.
    #[error(transparent)]
    Restore(#[from] super::restore::RestoreError),
    /// Stopped before the game ended.
    #[error("stopped before the game ended")]
    Stopped,
    /// The table stopped before the end of the game (its last event said why).
    #[error("the table stopped before the end of the game: {0}")]
    TableStopped(crate::table::StopReason),
    /// Nobody else at the table answered for `secs` seconds after the game had started.
    #[error(
        "nobody at the table has answered for {secs} s: the others have left, or finished the \
         game without this seat; the game log is kept, so joining again (or Resume in the \
         window) tries again"
    )]
    NobodyAnswers {
        /// How long.
        secs: u64,
    },
    /// The relay given with `--relay` (or in an invitation) gave no circuit in time.
    #[error(
        "could not reach the relay {address} ({why}): check the relay's address, and that the \
         relay is running and reachable from this network"
    )]
    NoRelay {
        /// The relay's address.
        address: String,
        /// What happened.
        why: String,
    },
    /// A joiner never reached the host at the address it was given.
    #[error(
        "could not reach the host at {address} ({why}): check the address, and that the host \
         is still running and on this network"
    )]
    Unreachable {
        /// The address.
        address: String,
        /// The last failure.
        why: String,
    },
}

/// The identity key of a peer id (ed25519 peer ids carry the key).
pub fn key_of(peer: &PeerId) -> Option<PublicKey> {
    let mh: &libp2p::multihash::Multihash<64> = peer.as_ref();
    if mh.code() != 0 {
        return None;
    }
    let pk = libp2p::identity::PublicKey::try_decode_protobuf(mh.digest()).ok()?;
    let ed = pk.try_into_ed25519().ok()?;
    Some(PublicKey(ed.to_bytes()))
}

/// The peer id of an identity key.
pub fn peer_of(key: &PublicKey) -> Option<PeerId> {
    let ed = libp2p::identity::ed25519::PublicKey::try_from_bytes(&key.0).ok()?;
    Some(libp2p::identity::PublicKey::from(ed).to_peer_id())
}

/// What went wrong with the network itself.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The identity secret does not make a libp2p key.
    #[error("the identity does not make a network key: {0}")]
    Key(#[from] libp2p::identity::DecodingError),
    /// The transport (TCP, noise, yamux) or the behaviours could not be built.
    #[error("the transport could not be set up: {0}")]
    Setup(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The listen address was refused.
    #[error("cannot listen: {0}")]
    Listen(#[from] libp2p::TransportError<std::io::Error>),
    /// A dial was refused at once (a bad address, say).
    #[error("cannot dial: {0}")]
    Dial(#[from] libp2p::swarm::DialError),
}
