//! What the screens ask for. A screen draws from the model and pushes intents; the
//! controller carries them out after the frame: it alone talks to the
//! network, starts nodes and computer players, and writes files.

use std::path::PathBuf;

use fairdeal_core::{Move, Seat};
use fairdeal_net::node::FoundTable;

/// What the player asked for.
#[derive(Debug, Clone)]
pub enum Intent {
    /// Start screen: a local game against three computer players.
    PlayNow,
    /// Start screen: open a table on the LAN.
    Host,
    /// Start screen: sit at a table found on the LAN, in seat `want` if free.
    Join {
        /// The table.
        table: Box<FoundTable>,
        /// The seat asked for.
        want: Option<u8>,
    },
    /// Start screen: join the table at the address typed in.
    JoinAddress(String),
    /// Start screen: join the table beyond the LAN that this invitation names.
    JoinInvite(String),
    /// Start screen: resume the unfinished game in this folder.
    Resume(PathBuf),
    /// Start screen: give up the unfinished game in this folder.
    Abandon(PathBuf),
    /// Start screen: show or hide the rules in brief.
    Help,
    /// Start screen: the verify screen opens (this user's recent games are listed).
    OpenVerify,
    /// Verify screen: check the transcript at this path.
    Verify(String),
    /// Start screen: "Open a game file…" (this user's recent games are listed).
    OpenReplay,
    /// Replay form: read the game file at this path and replay it.
    Replay(String),
    /// Replay: back to the start screen.
    CloseReplay,
    /// Start screen: watch this LAN table as a spectator.
    Watch(Box<FoundTable>),
    /// Lobby (joiner): every seat is taken, so watch the table asked instead.
    WatchLobby,
    /// Watching: back to the start screen.
    CloseWatch,
    /// Lobby (host): swap the players of these two seats.
    SwapSeats(Seat, Seat),
    /// Lobby (host): computer players take the empty seats and the game starts.
    StartTable,
    /// Table: play this move (already checked against the view).
    Play(Move),
    /// Table: say this to the table.
    Say(String),
    /// Score sheet: ready for the next hand.
    Ready,
    /// Table settings: the window's theme (remembered with the settings).
    Theme(super::choices::Theme),
    /// Table: leave a game under way (a computer player takes the seat; Resume gives it back).
    LeaveGame,
    /// Lobby or game over: leave the table, back to the start screen.
    Leave,
    /// Game over: another game with the same settings.
    PlayAgain,
    /// Start screen: the answer to "a game waits to be resumed" (asked before another game
    /// starts).
    AskedFirst(AskFirst),
}

/// What becomes of a game that waits to be resumed when another is about to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskFirst {
    /// Resume the waiting game instead.
    Resume,
    /// Leave the waiting game for good, and start the other.
    LeaveForGood,
    /// Neither: back to the start screen.
    Cancel,
}

impl Intent {
    /// Whether this starts another game (which gives up a game waiting to be resumed).
    pub fn starts_a_game(&self) -> bool {
        matches!(
            self,
            Self::PlayNow
                | Self::Host
                | Self::Join { .. }
                | Self::JoinAddress(_)
                | Self::JoinInvite(_)
        )
    }

    /// The start intent in words, for the question asked before it: "Play now", ….
    pub fn words(&self) -> String {
        match self {
            Self::PlayNow => "play against the computer".to_owned(),
            Self::Host => "open a new table".to_owned(),
            Self::Join { table, .. } => format!("join \"{}\"", table.info.name),
            Self::JoinAddress(_) => "join the table at that address".to_owned(),
            Self::JoinInvite(_) => "join the table of that invitation".to_owned(),
            _ => String::new(),
        }
    }
}
