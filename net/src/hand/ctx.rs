//! What a seat's session is fixed by for the whole hand ([`Ctx`]: its configuration, seat,
//! hand context, secret, card table and shuffle order), and the test knobs that make it cheat
//! ([`Cheats`]). Every stage reads them; they sit below the stages, which are handed them.

use std::sync::Arc;

use fairdeal_crypto::{CardTable, HandSecret};

use super::HandConfig;

/// What a seat's session is fixed by for the whole hand.
pub(super) struct Ctx {
    pub(super) cfg: HandConfig,
    /// This seat.
    pub(super) me: u8,
    /// The hand context every message is bound to.
    pub(super) hctx: [u8; 32],
    pub(super) secret: HandSecret,
    pub(super) table: Arc<CardTable>,
    /// The seats in shuffle order (the dealer's left first).
    pub(super) order: [u8; 4],
}

/// Test knobs (feature `cheats`) that make this seat cheat, for tests of the audit.
#[derive(Debug, Default)]
pub(super) struct Cheats {
    /// Hide red threes instead of showing them.
    pub(super) conceal: bool,
    /// In our shuffle step, overwrite position `.1` with a re-randomised copy of position `.0`.
    pub(super) copy_card: Option<(u16, u16)>,
    /// In our shuffle step, position `.0` becomes a fresh encryption of card id `.1`.
    pub(super) plant_card: Option<(u16, u16)>,
    /// At the end-of-hand audit, a card we opened is remembered as another (our own state
    /// broken, not a cheat).
    pub(super) misremember: bool,
}
