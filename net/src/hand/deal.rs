//! The deal stage: [`Dealing`] follows core's [`DealScript`] (the one deal procedure the
//! engine's plain deal follows too) over the shuffled deck. The initial shares open each
//! seat's own cards to it and the upcard to all; then each step of the script becomes what
//! the hand waits for: a position turned up is opened to all, a seat shows its red threes,
//! their replacements are opened to that seat alone. When the script is done the replica is
//! dealt from the faces known here, and the play starts.

use fairdeal_core::{Card, DealScript, DealStep, Position};
use fairdeal_crypto::proofs::Proof;
use fairdeal_crypto::{Body, Fault, ShareItem, SharePoint};

use super::cards::{Deck, Round};
use super::play::Playing;
use super::shuffle::Shuffling;
use super::{Awaiting, Cheats, Ctx};

/// What the deal waits for.
enum Need {
    /// The initial deal: every seat's shares of everything dealt but its own cards, and of
    /// the upcard (which seats' are in).
    Initial([bool; 4]),
    /// Shares of a position turned up (to all) or of red-three replacements (to one seat).
    Shares(Round),
    /// `seat` shows the red threes among `candidates`.
    Declare { seat: u8, candidates: Vec<u16> },
    /// Nothing: the script is done.
    Done,
}

/// The deal.
pub(super) struct Dealing {
    deck: Deck,
    script: DealScript,
    need: Need,
}

/// The positions of the initial deal `s` shares: every dealt position but its own, and the
/// upcard.
fn initial_positions(script: &DealScript, s: u8) -> Vec<u16> {
    let dealt = script.dealt();
    (0..=dealt)
        .filter(|&p| p == dealt || script.seat_of(p).index() != usize::from(s))
        .map(pos16)
        .collect()
}

/// A deck position as the wire numbers it (decks hold at most 162 cards).
fn pos16(p: usize) -> u16 {
    p as u16
}

impl Dealing {
    /// The deal of the deck the shuffle stage ends with.
    pub(super) fn new(ctx: &Ctx, sh: Shuffling) -> Self {
        Self {
            deck: Deck::new(sh),
            script: DealScript::new(&ctx.cfg.rules, ctx.cfg.head.dealer),
            need: Need::Initial([false; 4]),
        }
    }

    /// What it expects of `s`.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        let due = match &self.need {
            Need::Initial(got) => !got[usize::from(s)],
            Need::Shares(round) => round.expects(s),
            Need::Declare { seat, .. } => {
                return (*seat == s).then_some(Awaiting::Declare);
            }
            Need::Done => false,
        };
        due.then_some(Awaiting::Shares)
    }

    /// Takes `s`'s shares; the replica once the deal is complete.
    pub(super) fn take_shares(
        &mut self,
        ctx: &Ctx,
        s: u8,
        items: &[SharePoint],
        proof: &Proof,
    ) -> Result<Option<Position>, Fault> {
        match &mut self.need {
            Need::Initial(got) => {
                let want = initial_positions(&self.script, s);
                self.deck.take_round(ctx, s, &want, items, proof)?;
                // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`).
                got[usize::from(s)] = true;
                if got.iter().any(|g| !g) {
                    return Ok(None);
                }
                let dealt = self.script.dealt();
                for p in 0..dealt {
                    let seat = self.script.seat_of(p).number();
                    if seat == ctx.me {
                        self.deck.open_known(ctx, pos16(p))?;
                    }
                    self.deck.give(pos16(p), seat);
                }
                let upcard = self.deck.open_known(ctx, pos16(dealt))?;
                self.script.turned(upcard);
            }
            Need::Shares(round) => {
                if !round.take(&mut self.deck, ctx, s, items, proof)? {
                    return Ok(None);
                }
                round.open(&mut self.deck, ctx)?;
                match *self.script.step() {
                    DealStep::TurnUp(p) => {
                        let face = self.deck.face(pos16(p));
                        self.script.turned(face.unwrap_or(Card::HIDDEN));
                    }
                    _ => self.script.replaced(),
                }
            }
            Need::Declare { .. } | Need::Done => return Err(Fault::OutOfOrder),
        }
        self.follow(ctx)
    }

    /// Takes `s`'s red threes shown; the replica once the deal is complete.
    pub(super) fn take_declare(
        &mut self,
        ctx: &Ctx,
        s: u8,
        action: &[u8],
        opened: &[ShareItem],
    ) -> Result<Option<Position>, Fault> {
        let Need::Declare { candidates, .. } = &self.need else {
            return Err(Fault::OutOfOrder);
        };
        let shown = self.deck.take_declare(ctx, s, candidates, action, opened)?;
        self.script.shown(shown);
        self.follow(ctx)
    }

    /// What the script's next step waits for; the replica once it is done.
    fn follow(&mut self, ctx: &Ctx) -> Result<Option<Position>, Fault> {
        self.need = match self.script.step() {
            &DealStep::TurnUp(p) => Need::Shares(Round::new(None, vec![pos16(p)])),
            DealStep::RedThrees { seat, positions } => Need::Declare {
                seat: seat.number(),
                candidates: positions.iter().copied().map(pos16).collect(),
            },
            DealStep::Replace { seat, positions } => Need::Shares(Round::new(
                Some(seat.number()),
                positions.iter().copied().map(pos16).collect(),
            )),
            DealStep::Done => {
                self.need = Need::Done;
                return self.replica(ctx).map(Some);
            }
        };
        Ok(None)
    }

    /// The replica dealt from the faces known here (the others' cards hidden).
    fn replica(&self, ctx: &Ctx) -> Result<Position, Fault> {
        let deck: Vec<Card> = (0..ctx.table.len() as u16)
            .map(|p| self.deck.known_face(p))
            .collect();
        let cfg = &ctx.cfg;
        let replica =
            Position::deal_partial(cfg.rules.clone(), cfg.head.dealer, cfg.head.totals, &deck)
                .map_err(|_| Fault::ShuffleMismatch)?;
        if replica.stock_len() != ctx.table.len() - self.script.cursor() {
            return Err(Fault::HiddenCard);
        }
        Ok(replica)
    }

    /// The play, from the deal's `replica`.
    pub(super) fn into_play(self, ctx: &Ctx, replica: Position) -> Playing {
        Playing::new(ctx, self.deck, pos16(self.script.cursor()), replica)
    }

    /// What this seat sends now, if anything.
    pub(super) fn my_message(&mut self, ctx: &Ctx, cheats: &Cheats) -> Option<Body> {
        let positions = match &self.need {
            Need::Initial(_) => initial_positions(&self.script, ctx.me),
            Need::Shares(round) => round.positions_from(ctx.me),
            Need::Declare { candidates, .. } => {
                return Some(self.deck.my_declare(ctx, cheats.conceal, candidates, 0));
            }
            Need::Done => return None,
        };
        let (items, proof) = self.deck.round_shares(ctx, &positions);
        Some(Body::Shares {
            hctx: ctx.hctx,
            items,
            proof,
        })
    }
}
