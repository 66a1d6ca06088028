//! The audit of a finished hand, a method of the reveal stage: the crypto audit (seeds,
//! shuffles), then the whole hand replayed with every card known, compared with what was
//! played.

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{Card, Position, SplitMix64, Team, TeamScore};
use fairdeal_crypto::{Fault, audit};

use super::reveal::Revealing;
use super::{Ctx, HandBug, REPLACEMENT_STRATEGY, Replacement, card_of_id, replacement_rng};

/// What the audit of a finished hand found instead of its scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Finding {
    /// A fault, with the seat provably at fault (`None`: the hand is void, nobody provably).
    Fault(Option<u8>, Fault),
    /// This seat's own state is not what the audit relies on: a bug here, nobody's fault.
    Bug(HandBug),
}

impl Revealing {
    /// Audits and replays the hand; returns the scores from the true hands.
    pub(super) fn replay(&self, ctx: &Ctx) -> Result<([i32; 2], [TeamScore; 2]), Finding> {
        // Called once every seed is in (`finish_audit`).
        let seeds = self.seeds().ok_or(Finding::Bug(HandBug::SeedsMissing))?;
        // The reveal comes after the four shuffle steps.
        let input = self
            .deck
            .audit_input(ctx, seeds)
            .ok_or(Finding::Bug(HandBug::ShuffleSteps))?;
        let ids = audit(&ctx.table, &input).map_err(|(seat, f)| Finding::Fault(Some(seat), f))?;
        let truth: Vec<Card> = ids.iter().map(|&id| card_of_id(id)).collect();
        // Every face learnt came through shares checked against the deck just audited.
        self.deck.agrees_with(&truth).map_err(|seat| match seat {
            None => Finding::Bug(HandBug::FacesDisagree),
            Some(seat) => Finding::Fault(Some(seat), Fault::HiddenCard),
        })?;
        let cfg = &ctx.cfg;
        // The audit opened the whole deck, each card once.
        let mut pos = Position::deal(cfg.rules.clone(), cfg.head.dealer, cfg.head.totals, &truth)
            .map_err(|_| Finding::Bug(HandBug::NoDeal))?;
        let board = self.board();
        if &pos.public_state() != board.deal_public() {
            return Err(Finding::Fault(None, Fault::HiddenCard));
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
                    replacement_rng(&r.seed, cfg.head.hand_no),
                ))
            })
            .collect();
        for (i, (seat, mv)) in board.log().iter().enumerate() {
            let mover = Some(seat.number());
            if let Some((_, r, strategy, rng)) = bots
                .iter_mut()
                .find(|(b, _, _, _)| usize::from(*b) == seat.index())
            {
                let view = pos.view(*seat);
                if strategy.choose(&view, rng).as_ref() != Some(mv) {
                    return Err(Finding::Fault(Some(r.runner.number()), Fault::Steered));
                }
            }
            pos.apply(*seat, mv)
                .map_err(|_| Finding::Fault(mover, Fault::IllegalMove))?;
            if board.public_after(i) != Some(&pos.public_state()) {
                return Err(Finding::Fault(mover, Fault::HiddenCard));
            }
        }
        // The reveal comes once the hand as played is over, and every step above matched it.
        if !pos.is_over() {
            return Err(Finding::Bug(HandBug::NotOver));
        }
        Ok((
            pos.hand_scores(),
            [pos.team_score(Team::A), pos.team_score(Team::B)],
        ))
    }
}
