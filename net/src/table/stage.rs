//! The stages of a table as types: [`Stage`] holds what only one stage needs. The lobby
//! (the host's nonces of the players seated, whether it holds the start, acceptances that
//! came before the configuration), then the agreed configuration (the card table it deals
//! with, the four signatures) while it is signed, while the game is played, and once it is
//! over (with the result). What every stage reads (the roster, the totals, the hand in play,
//! presence...) stays on [`super::TableSession`].

use std::sync::Arc;

use fairdeal_core::GameResult;
use fairdeal_crypto::{CardTable, PublicKey, Sig};

use super::msg::TableConfig;

/// Where the table stands.
pub(super) enum Stage {
    /// Before the configuration: the host seats players, a joiner waits for its seat.
    Lobby(Box<Lobby>),
    /// The host's configuration is fixed: every seat signs it.
    Signing(Box<Agreed>),
    /// All four signed it: hand after hand.
    Playing(Box<Agreed>),
    /// The game is over, with its result.
    Over(Box<Agreed>, GameResult),
}

/// The lobby's data.
#[derive(Debug, Default)]
pub(super) struct Lobby {
    /// Host: the nonce each seated player joined with (zeros for a free seat).
    pub(super) nonces: [[u8; 32]; 4],
    /// Host: wait for `request_start` rather than starting when four sit.
    pub(super) hold: bool,
    /// Host: the start was asked for (computer players may still be on their way).
    pub(super) start_requested: bool,
    /// Acceptances that arrived before the host's configuration.
    pub(super) pending_accepts: Vec<(PublicKey, [u8; 32], Sig)>,
}

/// The agreed configuration and what comes with it.
pub(super) struct Agreed {
    /// The configuration every seat signs.
    pub(super) config: TableConfig,
    /// The card table of its rules' deck.
    pub(super) table: Option<Arc<CardTable>>,
    /// Which seats signed it.
    pub(super) accepts: [bool; 4],
    /// Their signatures, for the transcript.
    pub(super) accept_sigs: [Option<Sig>; 4],
}

impl Stage {
    /// A table in its lobby.
    pub(super) fn lobby_start() -> Self {
        Self::Lobby(Box::default())
    }

    /// The lobby's data, in the lobby.
    pub(super) fn lobby(&self) -> Option<&Lobby> {
        match self {
            Self::Lobby(l) => Some(l),
            _ => None,
        }
    }

    /// The lobby's data to change, in the lobby.
    pub(super) fn lobby_mut(&mut self) -> Option<&mut Lobby> {
        match self {
            Self::Lobby(l) => Some(l),
            _ => None,
        }
    }

    /// The agreed configuration and its signatures, once the host fixed it.
    pub(super) fn agreed(&self) -> Option<&Agreed> {
        match self {
            Self::Lobby(_) => None,
            Self::Signing(a) | Self::Playing(a) | Self::Over(a, _) => Some(a),
        }
    }

    /// The same, to change.
    pub(super) fn agreed_mut(&mut self) -> Option<&mut Agreed> {
        match self {
            Self::Lobby(_) => None,
            Self::Signing(a) | Self::Playing(a) | Self::Over(a, _) => Some(a),
        }
    }

    /// The configuration, once the host fixed it.
    pub(super) fn config(&self) -> Option<&TableConfig> {
        self.agreed().map(|a| &a.config)
    }

    /// The game's result once it is over.
    pub(super) fn finished(&self) -> Option<GameResult> {
        match self {
            Self::Over(_, result) => Some(*result),
            _ => None,
        }
    }

    /// The lobby ends with `config` (to be signed, dealt with `table`); returns the
    /// acceptances that came before it. Does nothing past the lobby.
    pub(super) fn agree(
        &mut self,
        config: TableConfig,
        table: Option<Arc<CardTable>>,
    ) -> Vec<(PublicKey, [u8; 32], Sig)> {
        let Self::Lobby(lobby) = self else {
            return Vec::new();
        };
        let pending = std::mem::take(&mut lobby.pending_accepts);
        *self = Self::Signing(Box::new(Agreed {
            config,
            table,
            accepts: [false; 4],
            accept_sigs: Default::default(),
        }));
        pending
    }

    /// All four signed: the game is played.
    pub(super) fn play(&mut self) {
        if let Self::Signing(_) = self {
            let Self::Signing(a) = std::mem::replace(self, Self::lobby_start()) else {
                return;
            };
            *self = Self::Playing(a);
        }
    }

    /// The game is over with `result` (its configuration stays readable). Does nothing in
    /// the lobby (no game to be over).
    pub(super) fn finish(&mut self, result: GameResult) {
        let old = std::mem::replace(self, Self::lobby_start());
        *self = match old {
            Self::Signing(a) | Self::Playing(a) | Self::Over(a, _) => Self::Over(a, result),
            lobby @ Self::Lobby(_) => lobby,
        };
    }
}
