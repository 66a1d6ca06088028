//! A finished game played back move by move: for every deal of a transcript whose four seeds
//! were revealed, the whole deck recomputed by the audit, the deal made again with every card
//! known, and each checked move applied to it, so the table can be shown as it stood after any
//! move. What a seat could see at that moment is a view of those positions
//! ([`fairdeal_core::PlayerView::public`] for the public transcript, the seat's own view for
//! its private log).
//!
//! The moves come from the same hand session that checks the deal (its replay as one revealed
//! seat), never from decoding envelopes a second way; the deal's verdict is
//! [`crate::transcript::verify`]'s, kept beside it.

use std::path::Path;
use std::sync::Arc;

use fairdeal_core::{Move, Position, Seat};
use fairdeal_crypto::hand::seed_commit;
use fairdeal_crypto::{
    AuditInput, Body, CardTable, CtBytes, Envelope, Fault, HandCommit, Identity, SignedEnvelope,
    audit, encoding,
};

use crate::hand::{Event, HandConfig, HandReport, HandSession, card_of_id};
use crate::table::msg::TableConfig;
use crate::transcript::{self, Entry, Located, Report};

/// One move and the table after it.
#[derive(Debug, Clone)]
pub struct Step {
    /// Who moved.
    pub seat: Seat,
    /// The move, as checked.
    pub mv: Move,
    /// The whole position after it (every card known: the deal is over and audited).
    pub after: Position,
}

/// Why a deal of the file cannot be played back (it is still listed, with its verdict).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Gap {
    /// Some seed was never revealed (the deal stopped before its end, or a seat withheld it).
    #[error("not every seat revealed its seed, so the cards of this deal cannot be known")]
    Unrevealed,
    /// The revealed seeds do not give the signed shuffles.
    #[error("the audit failed ({0}): the cards of this deal cannot be known")]
    Audit(Fault),
    /// The envelopes do not replay.
    #[error("the deal's messages do not replay")]
    Envelopes,
    /// A move the true position refuses (the check names the seat).
    #[error("move {0} does not apply to the audited cards")]
    Illegal(usize),
}

/// One deal of the game.
#[derive(Debug, Clone)]
pub struct HandPlay {
    /// Its number (from 1; a redeal takes the next).
    pub hand_no: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Team totals before it.
    pub scores: [i32; 2],
    /// The position as dealt (empty when the deal cannot be played back).
    pub dealt: Option<Position>,
    /// Every move, in order.
    pub steps: Vec<Step>,
    /// The audited result the seats signed, when the deal completed.
    pub report: Option<HandReport>,
    /// Why it cannot be played back (or only part of it).
    pub gap: Option<Gap>,
}

impl HandPlay {
    /// The position after `moves` moves (0: as dealt), clamped to the last.
    pub fn position(&self, moves: usize) -> Option<&Position> {
        match moves.min(self.steps.len()) {
            0 => self.dealt.as_ref(),
            n => self.steps.get(n - 1).map(|s| &s.after),
        }
    }
}

/// A game played back.
#[derive(Debug, Clone)]
pub struct Playback {
    /// The co-signed configuration (`None`: the file has none that checks).
    pub config: Option<TableConfig>,
    /// Every deal in the file, in order.
    pub hands: Vec<HandPlay>,
    /// What checking the file found ([`transcript::verify`]).
    pub report: Report,
    /// The seat whose private log this is (its hand may be shown), `None` for a transcript.
    pub me: Option<Seat>,
}

/// Why a game file cannot be opened for play back.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A transcript that cannot be read or decoded.
    #[error("{0}")]
    Transcript(String),
    /// A game log that cannot be replayed (unreadable, damaged, or no identity beside it).
    #[error(transparent)]
    Log(#[from] crate::node::ReplayError),
}

/// Opens `path`: a `transcript.fdt`, or a `GAME.fdlog` with its `identity.key` beside it
/// (rebuilt into its table session, whose public entries are the same transcript, and whose
/// seat's hand may then be shown).
///
/// # Errors
///
/// The file cannot be read, decoded or replayed.
pub fn open(path: &Path) -> Result<Playback, OpenError> {
    if crate::store::is_game_log(path) {
        let loaded = crate::store::read(path).map_err(crate::node::ReplayError::from)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let secret = crate::store::read_identity(dir)
            .ok_or_else(|| crate::node::ReplayError::NoIdentity(dir.join("identity.key")))?;
        let (mut session, _) = crate::node::rebuild(secret, &loaded.records)
            .map_err(crate::node::ReplayError::from)?;
        let mut entries = Vec::new();
        let mut offset = transcript::MAGIC.len();
        while let Some(entry) = session.poll_public() {
            let len = entry.to_record().len();
            entries.push(Located {
                index: entries.len(),
                offset,
                entry,
            });
            offset += len;
        }
        let mut p = play(&entries);
        p.me = session.seat();
        return Ok(p);
    }
    // A file damaged part of the way through plays back up to the damage, which the
    // report then names.
    let (entries, damage) =
        transcript::read_until_damage(path).map_err(|e| OpenError::Transcript(e.to_string()))?;
    let mut p = play(&entries);
    p.report.faults.extend(damage);
    Ok(p)
}

/// Plays back decoded transcript entries (checked first by [`transcript::verify`]; a deal is
/// played back only from envelopes whose signatures check).
pub fn play(entries: &[Located]) -> Playback {
    let report = transcript::verify(entries);
    let mut out = Playback {
        config: None,
        hands: Vec::new(),
        report,
        me: None,
    };
    let Some(Entry::Table { config, .. }) = entries.first().map(|l| &l.entry) else {
        return out;
    };
    if out.report.table.is_none() {
        // Its signatures do not check: nothing after it means anything.
        return out;
    }
    let rules = config.rules();
    let Ok(table) = CardTable::new(rules.deck_size() as u16) else {
        return out;
    };
    let table = Arc::new(table);
    let sid = config.sid();
    let mut deal: Option<(HandConfig, Vec<SignedEnvelope>)> = None;
    for at in &entries[1..] {
        match &at.entry {
            Entry::Hand { head, keys, bots } => {
                if let Some((cfg, envs)) = deal.take() {
                    out.hands.push(play_hand(&cfg, &table, envs));
                }
                let cfg = HandConfig {
                    sid,
                    keys: **keys,
                    rules: rules.clone(),
                    head: *head,
                    proofs: config.proofs,
                    bots: **bots,
                };
                deal = Some((cfg, Vec::new()));
            }
            Entry::Envelope { hand_no, signed } => {
                if let Some((cfg, envs)) = deal.as_mut()
                    && cfg.head.hand_no == *hand_no
                    && !envs.contains(signed)
                {
                    envs.push(signed.clone());
                }
            }
            Entry::Table { .. } | Entry::Signed { .. } => {}
        }
    }
    if let Some((cfg, envs)) = deal.take() {
        out.hands.push(play_hand(&cfg, &table, envs));
    }
    out.config = Some((**config).clone());
    out
}

/// The sender and sequence number of an envelope (the order a replay takes them in).
fn sender_seq(env: &SignedEnvelope) -> (u8, u32) {
    encoding::decode::<Envelope>(&env.bytes).map_or((u8::MAX, u32::MAX), |e| (e.sender, e.seq))
}

/// Plays back one deal.
fn play_hand(
    cfg: &HandConfig,
    table: &Arc<CardTable>,
    mut envelopes: Vec<SignedEnvelope>,
) -> HandPlay {
    let mut hp = HandPlay {
        hand_no: cfg.head.hand_no,
        dealer: cfg.head.dealer,
        scores: cfg.head.totals,
        dealt: None,
        steps: Vec::new(),
        report: None,
        gap: None,
    };
    envelopes.sort_by_key(sender_seq);
    let hctx = cfg.hctx();
    let mut commits: [Option<HandCommit>; 4] = Default::default();
    let mut seeds: [Option<[u8; 32]>; 4] = [None; 4];
    let mut decks: [Option<Vec<CtBytes>>; 4] = Default::default();
    for env in &envelopes {
        let Ok(v) = env.verify(&hctx, &cfg.keys) else {
            continue;
        };
        let s = usize::from(v.envelope.sender);
        match Body::decode(&v.envelope.body) {
            Ok(Body::HandCommit(c)) => commits[s] = Some(c),
            Ok(Body::HandReveal { seed, .. } | Body::Audit { seed, .. }) => seeds[s] = Some(seed),
            Ok(Body::Shuffle(m)) if (1..=4).contains(&m.step) => {
                decks[usize::from(m.step - 1)] = Some(m.deck);
            }
            _ => {}
        }
    }
    let (Some(c), Some(sd), Some(dk)) = (
        all(&commits),
        all(&seeds).filter(|sd| {
            (0..4u8).all(|s| {
                commits[usize::from(s)]
                    .as_ref()
                    .is_some_and(|c| seed_commit(&hctx, s, &sd[usize::from(s)]) == c.seed_commit)
            })
        }),
        all(&decks),
    ) else {
        hp.gap = Some(Gap::Unrevealed);
        return hp;
    };
    let input = AuditInput {
        hctx: &hctx,
        order: cfg.head.shuffle_order(),
        commits: [&c[0], &c[1], &c[2], &c[3]],
        seeds: sd,
        decks: [&dk[0], &dk[1], &dk[2], &dk[3]],
    };
    let truth: Vec<_> = match audit(table, &input) {
        Ok(ids) => ids.into_iter().map(card_of_id).collect(),
        Err((_, fault)) => {
            hp.gap = Some(Gap::Audit(fault));
            return hp;
        }
    };
    let Ok(mut pos) = Position::deal(cfg.rules.clone(), cfg.head.dealer, cfg.head.totals, &truth)
    else {
        hp.gap = Some(Gap::Envelopes);
        return hp;
    };
    hp.dealt = Some(pos.clone());
    // The replay signs only what it would send next, which is thrown away.
    let nobody = Identity::from_secret([0x5a; 32]);
    let Ok(mut hand) = HandSession::restore(
        cfg.clone(),
        Seat::S,
        nobody,
        sd[0],
        table.clone(),
        &envelopes,
    ) else {
        hp.gap = Some(Gap::Envelopes);
        return hp;
    };
    while let Some(ev) = hand.poll_event() {
        match ev {
            Event::Moved { seat, mv, .. } => {
                if pos.apply(seat, &mv).is_err() {
                    hp.gap = Some(Gap::Illegal(hp.steps.len() + 1));
                    return hp;
                }
                hp.steps.push(Step {
                    seat,
                    mv,
                    after: pos.clone(),
                });
            }
            Event::Complete(r) => hp.report = Some(r),
            _ => {}
        }
    }
    hp
}

/// All four, or `None`.
fn all<T: Clone>(xs: &[Option<T>; 4]) -> Option<[T; 4]> {
    let [Some(a), Some(b), Some(c), Some(d)] = xs else {
        return None;
    };
    Some([a.clone(), b.clone(), c.clone(), d.clone()])
}
