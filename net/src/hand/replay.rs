//! The audit of a finished hand, a method of the reveal stage: the crypto audit (seeds,
//! shuffles), then the whole hand replayed with every card known, compared with what was
//! played.

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{Card, Position, SplitMix64, Team, TeamScore};
use fairdeal_crypto::{Fault, audit};

use super::reveal::Revealing;
use super::{Ctx, REPLACEMENT_STRATEGY, Replacement, card_of_id, replacement_rng};

/// Who is at fault (`None`: void, nobody provably) and how.
type Finding = (Option<u8>, Fault);

impl Revealing {
    /// Audits and replays the hand; returns the scores from the true hands.
    pub(super) fn replay(&self, ctx: &Ctx) -> Result<([i32; 2], [TeamScore; 2]), Finding> {
        let none = (None, Fault::ShuffleMismatch);
        let Some(seeds) = self.seeds() else {
            return Err(none);
        };
        let input = self.deck.audit_input(ctx, seeds).ok_or(none)?;
        let ids = audit(&ctx.table, &input).map_err(|(seat, f)| (Some(seat), f))?;
        let truth: Vec<Card> = ids.iter().map(|&id| card_of_id(id)).collect();
        self.deck.agrees_with(&truth).map_err(|seat| match seat {
            None => none,
            Some(seat) => (Some(seat), Fault::HiddenCard),
        })?;
        let cfg = &ctx.cfg;
        let mut pos =
            Position::deal(cfg.rules.clone(), cfg.dealer, cfg.scores, &truth).map_err(|_| none)?;
        let board = self.board();
        if &pos.public_state() != board.deal_public() {
            return Err((None, Fault::HiddenCard));
        }
        // Computer players that took over a seat: their decisions, replayed from the true hands.
        let mut bots: Vec<(u8, Replacement, Box<dyn Strategy + Send>, SplitMix64)> = cfg
            .bots
            .iter()
            .enumerate()
            .filter_map(|(seat, r)| {
                let r = (*r)?;
                let strategy = by_name(REPLACEMENT_STRATEGY)?;
                Some((
                    seat as u8,
                    r,
                    strategy,
                    replacement_rng(&r.seed, cfg.hand_no),
                ))
            })
            .collect();
        for (i, (seat, mv)) in board.log().iter().enumerate() {
            let mover = Some(seat.index() as u8);
            if let Some((_, r, strategy, rng)) = bots
                .iter_mut()
                .find(|(b, _, _, _)| usize::from(*b) == seat.index())
            {
                let view = pos.view(*seat);
                if strategy.choose(&view, rng).as_ref() != Some(mv) {
                    return Err((Some(r.runner), Fault::Steered));
                }
            }
            pos.apply(*seat, mv)
                .map_err(|_| (mover, Fault::IllegalMove))?;
            if board.public_after(i) != Some(&pos.public_state()) {
                return Err((mover, Fault::HiddenCard));
            }
        }
        if !pos.is_over() {
            return Err(none);
        }
        Ok((
            pos.hand_scores(),
            [pos.team_score(Team::A), pos.team_score(Team::B)],
        ))
    }
}
