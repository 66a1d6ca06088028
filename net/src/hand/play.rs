//! The play stage: [`Playing`] checks each move on the replica and opens the cards it shows;
//! a stock draw deals the next stock positions privately to the drawer (with automatic red
//! threes, shown and replaced in turn) before the draw is applied. Moves are applied to the
//! [`Board`] (`board.rs`). This seat's own move is checked and its shown cards opened here
//! ([`Playing::my_move`]); `stage.rs` takes it from the session.

use std::collections::VecDeque;

use fairdeal_core::{Card, Move, Position, RedThreeMode, Refusal, Seat};
use fairdeal_crypto::proofs::Proof;
use fairdeal_crypto::{Body, Fault, ShareItem, SharePoint};

use super::board::Board;
use super::cards::{Deck, Round};
use super::reveal::Revealing;
use super::wire::WireAction;
use super::{Awaiting, Cheats, Ctx, Event};

/// What a stock draw waits for.
enum DrawNeed {
    /// The others' shares of the positions drawn.
    Shares(Round),
    /// The drawer shows the red threes among `candidates`.
    Declare { candidates: Vec<u16> },
}

/// A stock draw under way.
struct Draw {
    /// The drawer.
    seat: u8,
    /// The stock positions it took so far.
    consumed: Vec<u16>,
    need: DrawNeed,
}

/// The play.
pub(super) struct Playing {
    deck: Deck,
    /// The deck's length.
    len: u16,
    /// The next stock position.
    cursor: u16,
    board: Board,
    draw: Option<Draw>,
}

impl Playing {
    /// The play from the deal's `replica`, the stock from `cursor` on.
    pub(super) fn new(ctx: &Ctx, deck: Deck, cursor: u16, replica: Position) -> Self {
        Self {
            deck,
            len: ctx.table.len() as u16,
            cursor,
            board: Board::new(replica),
            draw: None,
        }
    }

    /// The position as played.
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// The end of the play: the seeds are revealed next.
    pub(super) fn into_reveal(self) -> Revealing {
        Revealing::new(self.deck, self.board)
    }

    /// What it expects of `s`.
    pub(super) fn expects(&self, s: u8) -> Option<Awaiting> {
        match &self.draw {
            None => {
                (self.board.replica().actor().index() == usize::from(s)).then_some(Awaiting::Move)
            }
            Some(d) => match &d.need {
                DrawNeed::Shares(round) => round.expects(s).then_some(Awaiting::Shares),
                DrawNeed::Declare { .. } => (d.seat == s).then_some(Awaiting::Declare),
            },
        }
    }

    fn stock_left(&self) -> u16 {
        self.len - self.cursor
    }

    /// Takes the next `n` stock positions.
    fn take_stock(&mut self, n: u16) -> Vec<u16> {
        let n = n.min(self.stock_left());
        let out = (self.cursor..self.cursor + n).collect();
        self.cursor += n;
        out
    }

    /// Takes `s`'s move at `turn`; returns whether the hand is over.
    pub(super) fn take_move(
        &mut self,
        ctx: &Ctx,
        s: u8,
        turn: u32,
        action: &[u8],
        opened: &[ShareItem],
        events: &mut VecDeque<Event>,
    ) -> Result<bool, Fault> {
        if turn as usize != self.board.turns() {
            return Err(Fault::OutOfOrder);
        }
        let Ok(WireAction::Play(mv)) = WireAction::decode(action) else {
            return Err(Fault::IllegalMove);
        };
        let seat = Seat::from_index(usize::from(s));
        for item in opened {
            let face = self.deck.open_held(ctx, s, item)?;
            if s != ctx.me && !self.board.replica_mut().reveal_in_hand(seat, face) {
                return Err(Fault::IllegalMove);
            }
        }
        let replica = self.board.replica_mut();
        if mv == (Move::Draw {}) && replica.stock_len() > 0 {
            replica
                .validate(seat, &mv)
                .map_err(|_| Fault::IllegalMove)?;
            let positions = self.take_stock(ctx.cfg.rules.draw_count as u16);
            self.draw = Some(Draw {
                seat: s,
                consumed: Vec::new(),
                need: DrawNeed::Shares(Round::new(Some(s), positions)),
            });
            return Ok(false);
        }
        let before = self.board.before(seat, ctx.me);
        self.board
            .replica_mut()
            .apply(seat, &mv)
            .map_err(|_| Fault::IllegalMove)?;
        Ok(self.board.record(seat, mv, before, events))
    }

    /// Takes `s`'s shares of the positions drawn; returns whether the hand is over.
    pub(super) fn take_shares(
        &mut self,
        ctx: &Ctx,
        s: u8,
        items: &[SharePoint],
        proof: &Proof,
        events: &mut VecDeque<Event>,
    ) -> Result<bool, Fault> {
        let Some(Draw {
            need: DrawNeed::Shares(round),
            consumed,
            ..
        }) = &mut self.draw
        else {
            return Err(Fault::OutOfOrder);
        };
        if !round.take(&mut self.deck, ctx, s, items, proof)? {
            return Ok(false);
        }
        round.open(&mut self.deck, ctx)?;
        consumed.extend(&round.positions);
        if ctx.cfg.rules.red_three_mode == RedThreeMode::AutoReplace {
            let candidates = std::mem::take(&mut round.positions);
            if let Some(d) = &mut self.draw {
                d.need = DrawNeed::Declare { candidates };
            }
            return Ok(false);
        }
        self.finish_draw(ctx.me, events)
    }

    /// Takes the drawer's red threes shown; returns whether the hand is over.
    pub(super) fn take_declare(
        &mut self,
        ctx: &Ctx,
        s: u8,
        action: &[u8],
        opened: &[ShareItem],
        events: &mut VecDeque<Event>,
    ) -> Result<bool, Fault> {
        let Some(Draw {
            need: DrawNeed::Declare { candidates },
            ..
        }) = &self.draw
        else {
            return Err(Fault::OutOfOrder);
        };
        let red = self.deck.take_declare(ctx, s, candidates, action, opened)?;
        let more = if red > 0 && self.stock_left() > 0 {
            self.take_stock(red as u16)
        } else {
            Vec::new()
        };
        if more.is_empty() {
            return self.finish_draw(ctx.me, events);
        }
        // Each red three shown is replaced by the next stock card, dealt privately.
        if let Some(d) = &mut self.draw {
            d.need = DrawNeed::Shares(Round::new(Some(d.seat), more));
        }
        Ok(false)
    }

    /// Applies the draw once every card drawn is dealt; returns whether the hand is over.
    fn finish_draw(&mut self, me: u8, events: &mut VecDeque<Event>) -> Result<bool, Fault> {
        // INVARIANT: both callers have just matched a pending draw; without one there is
        // nothing to apply, and the message that got here was out of order.
        let Some(Draw { seat, consumed, .. }) = self.draw.take() else {
            return Err(Fault::OutOfOrder);
        };
        let faces: Vec<Card> = consumed.iter().map(|&p| self.deck.known_face(p)).collect();
        let who = Seat::from_index(usize::from(seat));
        let had = self.board.before(who, me);
        let replica = self.board.replica_mut();
        let before = replica.stock_len();
        replica.prime_stock(&faces);
        replica
            .apply(who, &Move::Draw {})
            .map_err(|_| Fault::IllegalMove)?;
        if before - replica.stock_len() != consumed.len() {
            return Err(Fault::HiddenCard);
        }
        // Red threes laid out are public now; the rest stays with the drawer.
        Ok(self.board.record(who, Move::Draw {}, had, events))
    }

    /// What this seat sends now, if anything (its moves go out by `submit`).
    pub(super) fn my_message(&mut self, ctx: &Ctx, cheats: &Cheats) -> Option<Body> {
        let d = self.draw.as_ref()?;
        match &d.need {
            DrawNeed::Shares(round) => {
                let (items, proof) = self.deck.round_shares(ctx, &round.positions_from(ctx.me));
                Some(Body::Shares {
                    hctx: ctx.hctx,
                    items,
                    proof,
                })
            }
            DrawNeed::Declare { candidates } => {
                let candidates = candidates.clone();
                let turn = self.board.turns() as u32;
                Some(self.deck.my_declare(ctx, cheats.conceal, &candidates, turn))
            }
        }
    }

    /// Whether it waits for seat `me` to move.
    pub(super) fn turn_of(&self, me: u8) -> bool {
        self.draw.is_none() && self.board.replica().actor().index() == usize::from(me)
    }

    /// This seat's move `mv`, checked on the replica, with the shares that open the cards it
    /// shows that the others cannot see.
    pub(super) fn my_move(&self, ctx: &Ctx, mv: Move) -> Result<Body, Refusal> {
        let me = Seat::from_index(usize::from(ctx.me));
        let replica = self.board.replica();
        replica.validate(me, &mv)?;
        let mut public_part = replica.hand(me).clone();
        let mut mine = self.deck.mine(ctx.me);
        for (_, f) in &mine {
            public_part.remove(*f);
        }
        let mut opened = Vec::new();
        for card in mv.cards() {
            if public_part.remove(card) {
                continue;
            }
            if let Some(i) = mine.iter().position(|(_, f)| *f == card) {
                let (p, _) = mine.swap_remove(i);
                opened.push(self.deck.share(ctx, p));
            }
        }
        Ok(Body::Move {
            hctx: ctx.hctx,
            turn: self.board.turns() as u32,
            action: WireAction::Play(mv).encode(),
            opened,
        })
    }
}
