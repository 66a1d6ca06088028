//! The end-of-hand audit of a session: the crypto audit (seeds, shuffles), then the whole hand
//! replayed with every card known, compared with what was played.

use fairdeal_core::strategy::{Strategy, by_name};
use fairdeal_core::{Card, Position, SplitMix64};
use fairdeal_crypto::{AuditInput, Fault, audit};

use super::{HandSession, REPLACEMENT_STRATEGY, Replacement, card_of_id, replacement_rng};

/// Who is at fault (`None`: void, nobody provably) and how.
type Finding = (Option<u8>, Fault);

/// Audits and replays the hand; returns the scores from the true hands.
pub(super) fn replay(
    s: &HandSession,
) -> Result<([i32; 2], [fairdeal_core::TeamScore; 2]), Finding> {
    let none = (None, Fault::ShuffleMismatch);
    let [Some(c0), Some(c1), Some(c2), Some(c3)] = &s.commits else {
        return Err(none);
    };
    let [Some(k0), Some(k1), Some(k2), Some(k3)] = s.seeds else {
        return Err(none);
    };
    if s.steps.len() != 4 {
        return Err(none);
    }
    let input = AuditInput {
        hctx: &s.hctx,
        order: s.order,
        commits: [c0, c1, c2, c3],
        seeds: [k0, k1, k2, k3],
        decks: [
            &s.steps[0].deck,
            &s.steps[1].deck,
            &s.steps[2].deck,
            &s.steps[3].deck,
        ],
    };
    let ids = audit(&s.table, &input).map_err(|(seat, f)| (Some(seat), f))?;
    let truth: Vec<Card> = ids.iter().map(|&id| card_of_id(id)).collect();
    // Every face learnt during the hand came through checked shares, so it must agree.
    if s.faces
        .iter()
        .any(|(&p, &f)| truth.get(usize::from(p)) != Some(&f))
    {
        return Err(none);
    }
    // Red threes must have been shown when they were received.
    for d in &s.declared {
        let hidden = d
            .candidates
            .iter()
            .any(|p| truth[usize::from(*p)].is_red_three() && !d.opened.contains(p));
        if hidden {
            return Err((Some(d.seat), Fault::HiddenCard));
        }
    }
    let mut pos = Position::deal(s.cfg.rules.clone(), s.cfg.dealer, s.cfg.scores, &truth)
        .map_err(|_| none)?;
    if Some(pos.public_state()) != s.deal_public {
        return Err((None, Fault::HiddenCard));
    }
    // Computer players that took over a seat: their decisions, replayed from the true hands.
    let mut bots: Vec<(u8, Replacement, Box<dyn Strategy + Send>, SplitMix64)> = s
        .cfg
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
                replacement_rng(&r.seed, s.cfg.hand_no),
            ))
        })
        .collect();
    for (i, (seat, mv)) in s.log.iter().enumerate() {
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
        if s.publics.get(i) != Some(&pos.public_state()) {
            return Err((mover, Fault::HiddenCard));
        }
    }
    if !pos.is_over() {
        return Err(none);
    }
    Ok((
        pos.hand_scores(),
        [
            pos.team_score(fairdeal_core::Team::A),
            pos.team_score(fairdeal_core::Team::B),
        ],
    ))
}
