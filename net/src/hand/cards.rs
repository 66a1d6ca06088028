//! [`Deck`]: the shuffled deck and what has been opened of it, from the deal to the end of the
//! play. Every decryption share checked and kept, each position's face once it opens (to all,
//! or to its holder alone), who holds each position still face down, and the red threes each
//! seat showed. Also [`Round`], a round of shares the script waits for, and [`card_of_id`], the
//! core card a card id stands for.

use std::collections::{BTreeMap, BTreeSet};

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeal_core::Card;
use fairdeal_crypto::hand::{open_public, verify_share, verify_shares};
use fairdeal_crypto::proofs::Proof;
use fairdeal_crypto::{
    AuditInput, CardTable, Ciphertext, Fault, HandCommit, HandKeys, ShareItem, SharePoint,
    ShuffleMsg,
};

use super::Ctx;
use super::shuffle::Shuffling;
use super::wire::WireAction;

/// The core card of a card id (face `id % 54`; both jokers are the joker).
pub fn card_of_id(id: u16) -> Card {
    Card::from_index(usize::from(CardTable::face_index(id))).unwrap_or(Card::JOKER)
}

/// A declaration of red threes, kept for the audit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Declared {
    /// Who declared.
    seat: u8,
    /// The positions that could have been red threes.
    candidates: Vec<u16>,
    /// The positions it opened.
    opened: Vec<u16>,
}

/// The shuffled deck and what has been opened of it.
pub(super) struct Deck {
    /// The four commitments.
    commits: [HandCommit; 4],
    /// The joint key.
    keys: HandKeys,
    /// The four shuffle steps.
    steps: Vec<ShuffleMsg>,
    /// The deck after the fourth step.
    cts: Vec<Ciphertext>,
    /// Every share kept, by (position, seat).
    shares: BTreeMap<(u16, u8), RistrettoPoint>,
    /// The face of every position opened to this seat.
    faces: BTreeMap<u16, Card>,
    /// The position each card id opened at (two positions with one id are a fault at once).
    ids: BTreeMap<u16, u16>,
    /// Who holds each position dealt face down and not shown yet.
    owner: BTreeMap<u16, u8>,
    /// Test knob (feature `cheats`): our red threes kept hidden.
    concealed: BTreeSet<u16>,
    /// The red threes declared, for the audit.
    declared: Vec<Declared>,
    /// Decryption shares of the other seats checked so far.
    openings_checked: usize,
}

impl Deck {
    /// The deck the shuffle stage ends with.
    pub(super) fn new(sh: Shuffling) -> Self {
        Self {
            commits: sh.commits,
            keys: sh.keys,
            steps: sh.steps,
            cts: sh.deck,
            shares: BTreeMap::new(),
            faces: BTreeMap::new(),
            ids: BTreeMap::new(),
            owner: BTreeMap::new(),
            concealed: BTreeSet::new(),
            declared: Vec::new(),
            openings_checked: 0,
        }
    }

    /// Decryption shares of the other seats checked so far.
    pub(super) fn openings_checked(&self) -> usize {
        self.openings_checked
    }

    /// The face `pos` opened to, if it did.
    pub(super) fn face(&self, pos: u16) -> Option<Card> {
        self.faces.get(&pos).copied()
    }

    /// What the crypto audit of the shuffles takes, with the four `seeds` (`None` if the
    /// shuffle did not have its four steps).
    pub(super) fn audit_input<'a>(
        &'a self,
        ctx: &'a Ctx,
        seeds: [[u8; 32]; 4],
    ) -> Option<AuditInput<'a>> {
        let [s0, s1, s2, s3] = self.steps.as_slice() else {
            return None;
        };
        let [c0, c1, c2, c3] = &self.commits;
        Some(AuditInput {
            hctx: &ctx.hctx,
            order: ctx.order,
            commits: [c0, c1, c2, c3],
            seeds,
            decks: [&s0.deck, &s1.deck, &s2.deck, &s3.deck],
        })
    }

    /// Checks what was opened during the hand against the `truth` the audit recomputed:
    /// every face learnt came through checked shares, so it must agree (else `Err(None)`:
    /// nobody by itself); every red three must have been shown when it was received (else
    /// `Err(Some(seat))`).
    pub(super) fn agrees_with(&self, truth: &[Card]) -> Result<(), Option<u8>> {
        if self
            .faces
            .iter()
            .any(|(&p, &f)| truth.get(usize::from(p)) != Some(&f))
        {
            return Err(None);
        }
        for d in &self.declared {
            let hidden = d.candidates.iter().any(|p| {
                truth.get(usize::from(*p)).is_some_and(|c| c.is_red_three())
                    && !d.opened.contains(p)
            });
            if hidden {
                return Err(Some(d.seat));
            }
        }
        Ok(())
    }

    /// Remembers the first card opened as another (the `cheats` knob that breaks this seat's
    /// own state).
    pub(super) fn misremember_a_face(&mut self) {
        if let Some(face) = self.faces.values_mut().next() {
            *face = Card::from_index((face.index() + 1) % 53).unwrap_or(Card::JOKER);
        }
    }

    /// This seat's share of `pos` with its own proof (a card shown in a move).
    pub(super) fn share(&self, ctx: &Ctx, pos: u16) -> ShareItem {
        ctx.secret.share(pos, &self.cts[usize::from(pos)])
    }

    /// This seat's shares of a round's `positions`, with one proof for them all.
    pub(super) fn round_shares(&self, ctx: &Ctx, positions: &[u16]) -> (Vec<SharePoint>, Proof) {
        let round: Vec<(u16, &Ciphertext)> = positions
            .iter()
            .map(|&p| (p, &self.cts[usize::from(p)]))
            .collect();
        ctx.secret.shares(&round)
    }

    /// Who holds `pos` face down, if anyone.
    pub(super) fn give(&mut self, pos: u16, seat: u8) {
        self.owner.insert(pos, seat);
    }

    /// The positions `seat` holds face down, with their faces if this seat knows them (our
    /// concealed red threes left out).
    pub(super) fn mine(&self, seat: u8) -> Vec<(u16, Card)> {
        self.owner
            .iter()
            .filter(|(p, o)| **o == seat && !self.concealed.contains(p))
            .filter_map(|(&p, _)| self.faces.get(&p).map(|&f| (p, f)))
            .collect()
    }

    /// The face of `pos` as this seat's replica may use it (concealed cards stay hidden).
    pub(super) fn known_face(&self, pos: u16) -> Card {
        if self.concealed.contains(&pos) {
            return Card::HIDDEN;
        }
        self.faces.get(&pos).copied().unwrap_or(Card::HIDDEN)
    }

    /// Checks and keeps `s`'s share.
    pub(super) fn store_share(&mut self, ctx: &Ctx, s: u8, item: &ShareItem) -> Result<(), Fault> {
        let ct = self
            .cts
            .get(usize::from(item.pos))
            .ok_or(Fault::OutOfOrder)?;
        let d = if s == ctx.me {
            fairdeal_crypto::group::decompress(&item.d).ok_or(Fault::BadEncoding)?
        } else {
            self.openings_checked += 1;
            verify_share(&ctx.hctx, s, &self.keys, ct, item)?
        };
        self.shares.insert((item.pos, s), d);
        Ok(())
    }

    /// Takes a round of shares from `s`: exactly the positions `want`, checked by the round's
    /// one proof.
    pub(super) fn take_round(
        &mut self,
        ctx: &Ctx,
        s: u8,
        want: &[u16],
        items: &[SharePoint],
        proof: &Proof,
    ) -> Result<(), Fault> {
        if !items.iter().map(|it| it.pos).eq(want.iter().copied()) {
            return Err(Fault::OutOfOrder);
        }
        let d = if s == ctx.me {
            items
                .iter()
                .map(|it| fairdeal_crypto::group::decompress(&it.d).ok_or(Fault::BadEncoding))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            let cts = items
                .iter()
                .map(|it| self.cts.get(usize::from(it.pos)).ok_or(Fault::OutOfOrder))
                .collect::<Result<Vec<_>, _>>()?;
            self.openings_checked += items.len();
            verify_shares(&ctx.hctx, s, &self.keys, &cts, items, proof)?
        };
        for (it, d) in items.iter().zip(d) {
            self.shares.insert((it.pos, s), d);
        }
        Ok(())
    }

    /// Opens `pos`, which must open (to all, or to this seat if it is ours).
    pub(super) fn open_known(&mut self, ctx: &Ctx, pos: u16) -> Result<Card, Fault> {
        self.open_position(ctx, pos)?.ok_or(Fault::ShuffleMismatch)
    }

    /// Opens a position held by `s` with its owner's share (the other three are in hand).
    pub(super) fn open_held(&mut self, ctx: &Ctx, s: u8, item: &ShareItem) -> Result<Card, Fault> {
        if self.owner.get(&item.pos) != Some(&s) {
            return Err(Fault::IllegalMove);
        }
        self.store_share(ctx, s, item)?;
        // Its share checked out: a position that does not open is the deck's fault.
        let face = self.open_known(ctx, item.pos)?;
        self.owner.remove(&item.pos);
        Ok(face)
    }

    /// Decrypts `pos` with the four shares held, or privately if it is ours and three are held
    /// (`None` if it does not open to a card).
    ///
    /// # Errors
    ///
    /// [`Fault::DuplicateCard`] if it opens to a card id another position already opened to:
    /// some shuffler copied a card, which no single message proves, so no seat is named.
    fn open_position(&mut self, ctx: &Ctx, pos: u16) -> Result<Option<Card>, Fault> {
        if let Some(&f) = self.faces.get(&pos) {
            return Ok(Some(f));
        }
        let Some(&ct) = self.cts.get(usize::from(pos)) else {
            return Ok(None);
        };
        let ds: Vec<RistrettoPoint> = (0..4u8)
            .filter_map(|s| self.shares.get(&(pos, s)).copied())
            .collect();
        let id = if ds.len() == 4 {
            open_public(&ctx.table, &ct, &ds)
        } else if ds.len() == 3
            && ctx.me != super::watch::WATCHER
            && !self.shares.contains_key(&(pos, ctx.me))
        {
            ctx.secret.open_own(&ctx.table, &ct, &ds)
        } else {
            None
        };
        let Some(id) = id else {
            return Ok(None);
        };
        if self.ids.insert(id, pos).is_some_and(|other| other != pos) {
            return Err(Fault::DuplicateCard);
        }
        let face = card_of_id(id);
        self.faces.insert(pos, face);
        Ok(Some(face))
    }

    /// Takes `s`'s declaration of the red threes among `candidates`; returns how many it
    /// showed.
    pub(super) fn take_declare(
        &mut self,
        ctx: &Ctx,
        s: u8,
        candidates: &[u16],
        action: &[u8],
        opened: &[ShareItem],
    ) -> Result<usize, Fault> {
        if WireAction::decode(action) != Ok(WireAction::RevealRedThrees {}) {
            return Err(Fault::OutOfOrder);
        }
        let mut shown = Vec::new();
        for item in opened {
            if !candidates.contains(&item.pos) {
                return Err(Fault::IllegalMove);
            }
            let face = self.open_held(ctx, s, item)?;
            if !face.is_red_three() {
                return Err(Fault::IllegalMove);
            }
            shown.push(item.pos);
        }
        let count = shown.len();
        self.declared.push(Declared {
            seat: s,
            candidates: candidates.to_vec(),
            opened: shown,
        });
        Ok(count)
    }

    /// This seat's declaration of its red threes among `candidates` (none shown with the
    /// `cheats` knob: they are kept hidden), as its move at `turn`.
    pub(super) fn my_declare(
        &mut self,
        ctx: &Ctx,
        conceal: bool,
        candidates: &[u16],
        turn: u32,
    ) -> fairdeal_crypto::Body {
        let reds: Vec<u16> = candidates
            .iter()
            .copied()
            .filter(|p| self.faces.get(p).is_some_and(|f| f.is_red_three()))
            .collect();
        let opened = if conceal {
            self.concealed.extend(reds);
            Vec::new()
        } else {
            reds.iter().map(|&p| self.share(ctx, p)).collect()
        };
        fairdeal_crypto::Body::Move {
            hctx: ctx.hctx,
            turn,
            action: WireAction::RevealRedThrees {}.encode(),
            opened,
        }
    }
}

/// A round of shares the script waits for: of `positions`, for `to` (from the other three) or
/// for everyone (`to: None`, from all four).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Round {
    /// Who the positions go to (`None`: face up, to all).
    pub(super) to: Option<u8>,
    /// The positions.
    pub(super) positions: Vec<u16>,
    /// Which seats' shares are in.
    got: [bool; 4],
}

impl Round {
    /// A round nobody has answered yet.
    pub(super) fn new(to: Option<u8>, positions: Vec<u16>) -> Self {
        Self {
            to,
            positions,
            got: [false; 4],
        }
    }

    /// Whether it waits for `s`'s shares.
    pub(super) fn expects(&self, s: u8) -> bool {
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.to != Some(s) && !self.got[usize::from(s)]
    }

    /// The positions `s` shares in it.
    pub(super) fn positions_from(&self, s: u8) -> Vec<u16> {
        if self.to != Some(s) {
            self.positions.clone()
        } else {
            Vec::new()
        }
    }

    /// Takes `s`'s shares; returns whether the round is complete.
    pub(super) fn take(
        &mut self,
        deck: &mut Deck,
        ctx: &Ctx,
        s: u8,
        items: &[SharePoint],
        proof: &Proof,
    ) -> Result<bool, Fault> {
        deck.take_round(ctx, s, &self.positions_from(s), items, proof)?;
        // INVARIANT: s < 4: the hand asks only about seats 0..4 (`run_script`, `waiting_on`).
        self.got[usize::from(s)] = true;
        Ok((0..4u8).all(|t| !self.expects(t)))
    }

    /// Opens the round's positions once complete: to all, or (dealt to `to`) to their holder,
    /// noting who holds them.
    pub(super) fn open(&self, deck: &mut Deck, ctx: &Ctx) -> Result<(), Fault> {
        match self.to {
            None => {
                for &p in &self.positions {
                    deck.open_known(ctx, p)?;
                }
            }
            Some(t) => {
                for &p in &self.positions {
                    if t == ctx.me {
                        deck.open_known(ctx, p)?;
                    }
                    deck.give(p, t);
                }
            }
        }
        Ok(())
    }
}
