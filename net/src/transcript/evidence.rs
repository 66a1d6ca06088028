//! The deal-level evidence helpers of the transcript check: why a seat was put out (in
//! words, with the signed messages), the result root recomputed from the file's envelopes, and
//! the claimed seat and slot of an envelope (for naming and sorting, never trusted).

use fairdeal_core::{Seat, SeatMap, SeatSet};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{Body, Envelope, PublicKey, SignedEnvelope, encoding};

use super::replay::Finding;
use crate::hand::Takeovers;
use crate::table::msg::TableMsg;

/// What an honest table puts a seat out of a deal for, as a file shows it: the reason the
/// next header's void or forfeit must have, because the header alone is the word of the
/// file's writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PutOut {
    /// The deal's envelopes prove the seat at fault.
    Cheat,
    /// Every client but the seat's own signed a timeout vote against it in this deal (a
    /// seat's quit during the hand ends it no other way: what the seat still owed went
    /// unsent past the grace period).
    Votes,
}

/// A deal as the checker holds it when it decides why a seat was put out of it.
pub(super) struct Deal<'a> {
    /// The hand's number.
    pub hand_no: u32,
    /// The deal's hand context (a vote names the deal it was observed in).
    pub hctx: &'a [u8; 32],
    /// The deal's seats.
    pub keys: &'a [PublicKey; 4],
    /// The deal's computer players (a runner's vote speaks for the computer players it runs).
    pub bots: &'a Takeovers,
    /// The signed table messages of the deal.
    pub signed: &'a [(PublicKey, TableMsg)],
    /// What its envelopes show.
    pub found: &'a Finding,
    /// The seats leaving in it (a quit of theirs stands): they take no part in the votes.
    pub leaving: SeatSet,
}

impl Deal<'_> {
    /// Why `out` was put out of the deal, if the file holds a reason the table acts on: a
    /// fault its envelopes prove, or a timeout vote against it in this deal from every client
    /// but its own, those of the clients leaving aside (the rule of `TableSession`'s vote
    /// count: a runner's vote speaks for the computer players it runs). A signed quit is none:
    /// the table ends no deal on a quit, whose place among the last moves differs from peer to
    /// peer.
    pub(super) fn put_out(&self, out: Seat) -> Option<PutOut> {
        let found = self.found;
        if found.cheat.as_ref().is_some_and(|c| c.0 == Some(out))
            || found.named.iter().any(|(s, _)| *s == out)
        {
            return Some(PutOut::Cheat);
        }
        let voters: SeatSet = self.votes(out).collect();
        let covered = self.bots.vote_cover(voters);
        (!covered.is_empty() && self.bots.voted_out(out, covered.union(self.leaving)))
            .then_some(PutOut::Votes)
    }

    /// The scores the deal counts with when `out` was put out of it for `why`, if it counts
    /// (as at the table): a seat voted out once the play is over forfeits, with the audited
    /// scores after the audit and the forfeit rule's at the reveal; before then, and for a
    /// proven fault, the deal is void (`None`).
    pub(super) fn owed(&self, out: Seat, why: PutOut) -> Option<[i32; 2]> {
        if why != PutOut::Votes {
            return None;
        }
        let found = self.found;
        found
            .audited
            .or_else(|| found.forfeit.map(|f| f[out.team().index()]))
    }

    /// Whether `out` signed a quit in this hand.
    fn quit(&self, out: Seat) -> bool {
        let key = self.keys[out.index()];
        self.signed.iter().any(|(from, m)| {
            *from == key && matches!(m, TableMsg::Quit { hand_no, .. } if *hand_no == self.hand_no)
        })
    }

    /// The seats that signed a timeout vote against `out` in this deal.
    fn votes(&self, out: Seat) -> impl Iterator<Item = Seat> + '_ {
        self.signed.iter().filter_map(move |(from, m)| match m {
            TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                ..
            } if *hand_no == self.hand_no && hctx == self.hctx && *seat == out => {
                SeatMap(*self.keys).find(|k| k == from)
            }
            _ => None,
        })
    }

    /// Why `out` was put out, in words, with the signed evidence.
    pub(super) fn words(&self, out: Seat, why: PutOut) -> (String, Vec<String>) {
        match why {
            PutOut::Cheat => match &self.found.cheat {
                Some((Some(s), fault, evidence)) if *s == out => {
                    (format!("was caught cheating: {fault}"), evidence.clone())
                }
                _ => {
                    let fault = self
                        .found
                        .named
                        .iter()
                        .find(|(s, _)| *s == out)
                        .map(|(_, f)| f.to_string())
                        .unwrap_or_default();
                    (format!("was caught cheating: {fault}"), Vec::new())
                }
            },
            PutOut::Votes => {
                let mut evidence: Vec<String> = self
                    .votes(out)
                    .map(|s| format!("timeout vote signed by {}", s.name()))
                    .collect();
                // With one other client left at the table its vote alone puts a seat out, and a
                // file is its writer's: the words say whose word it rests on.
                let votes = match evidence.len() {
                    1 => {
                        "1 signed timeout vote, the only other client's: its word alone".to_owned()
                    }
                    n => format!("{n} signed timeout votes"),
                };
                let why = if self.quit(out) {
                    evidence.push(format!("{}'s signed quit", out.name()));
                    format!(
                        "left the table and sent nothing more past the grace period ({votes}); a computer player takes the seat"
                    )
                } else {
                    format!(
                        "was silent past the grace period ({votes}); a computer player takes the seat"
                    )
                };
                (why, evidence)
            }
        }
    }
}

/// The seat an envelope claims (without trusting it), for naming a message in a fault that
/// names no seat.
pub(super) fn claimed_seat(env: &SignedEnvelope) -> Option<Seat> {
    encoding::decode::<Envelope>(&env.bytes)
        .ok()
        .and_then(|e| Seat::try_from(e.sender).ok())
}

pub(super) fn sender_seq(env: &SignedEnvelope) -> (u8, u32, [u8; 32]) {
    let e = encoding::decode::<Envelope>(&env.bytes).ok();
    (
        e.as_ref().map_or(u8::MAX, |e| e.sender),
        e.as_ref().map_or(u32::MAX, |e| e.seq),
        env.hash(),
    )
}

/// The deal's result root from the file's envelopes: every envelope but the signed results,
/// hashed in sorted order (as each seat computes it from what it processed).
pub(super) fn root_of(envelopes: &[SignedEnvelope]) -> [u8; 32] {
    let mut hashes: Vec<[u8; 32]> = envelopes
        .iter()
        .filter(|e| {
            encoding::decode::<Envelope>(&e.bytes)
                .ok()
                .and_then(|v| Body::decode(&v.body).ok())
                .is_some_and(|b| !matches!(b, Body::HandResult { .. }))
        })
        .map(SignedEnvelope::hash)
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    let refs: Vec<&[u8]> = hashes.iter().map(|h| h.as_slice()).collect();
    hash256(b"fairdeal/v1/transcript", &refs)
}

#[cfg(test)]
mod tests {
    use fairdeal_core::{Seat, SeatSet};
    use fairdeal_crypto::{Fault, PublicKey, Sig};

    use super::{Deal, PutOut, TableMsg, Takeovers};
    use crate::transcript::replay::Finding;

    const HCTX: [u8; 32] = [7; 32];

    fn keys() -> [PublicKey; 4] {
        [1, 2, 3, 4].map(|b| PublicKey([b; 32]))
    }

    /// A timeout vote from `voter` against `seat` in hand 1 of the deal `hctx` (signatures
    /// are checked before a deal's reasons are read, so any will do here).
    fn vote(voter: Seat, seat: Seat, hctx: [u8; 32], hand_no: u32) -> (PublicKey, TableMsg) {
        let msg = TableMsg::Timeout {
            hand_no,
            hctx,
            seat,
            sig: Sig(vec![0; 64]),
        };
        (keys()[voter.index()], msg)
    }

    fn quit(seat: Seat, hand_no: u32) -> (PublicKey, TableMsg) {
        let msg = TableMsg::Quit {
            hand_no,
            sig: Sig(vec![0; 64]),
        };
        (keys()[seat.index()], msg)
    }

    fn put_out(
        signed: &[(PublicKey, TableMsg)],
        bots: Takeovers,
        found: &Finding,
        out: Seat,
    ) -> Option<PutOut> {
        let keys = keys();
        let deal = Deal {
            hand_no: 1,
            hctx: &HCTX,
            keys: &keys,
            bots: &bots,
            signed,
            found,
            leaving: SeatSet::EMPTY,
        };
        deal.put_out(out)
    }

    /// A client leaving takes no part in the votes: the two others' votes put a seat out
    /// beside one whose quit stands, and no vote at all puts none out.
    #[test]
    fn a_client_leaving_takes_no_part_in_the_votes() {
        let keys = keys();
        let found = Finding::default();
        let two = [Seat::S, Seat::W].map(|v| vote(v, Seat::E, HCTX, 1));
        let deal = |signed: &[(PublicKey, TableMsg)], leaving: &[Seat]| {
            Deal {
                hand_no: 1,
                hctx: &HCTX,
                keys: &keys,
                bots: &Takeovers::NONE,
                signed,
                found: &found,
                leaving: leaving.iter().copied().collect(),
            }
            .put_out(Seat::E)
        };
        assert_eq!(deal(&two, &[]), None, "North's vote is missing");
        assert_eq!(deal(&two, &[Seat::N]), Some(PutOut::Votes), "North left");
        assert_eq!(
            deal(&[], &[Seat::S, Seat::W, Seat::N]),
            None,
            "no vote at all"
        );
    }

    /// Votes put a seat out only when every other client signed one against that seat, in
    /// that hand, in that deal; a runner's vote speaks for the computer players it runs.
    #[test]
    fn votes_count_for_their_seat_hand_and_deal_only() {
        let none = Takeovers::NONE;
        let found = Finding::default();
        let against_e =
            |hctx, hand| [Seat::S, Seat::W, Seat::N].map(|v| vote(v, Seat::E, hctx, hand));
        assert_eq!(
            put_out(&against_e(HCTX, 1), none, &found, Seat::E),
            Some(PutOut::Votes)
        );
        assert_eq!(
            put_out(&against_e(HCTX, 1)[..2], none, &found, Seat::E),
            None
        );
        assert_eq!(put_out(&against_e(HCTX, 1), none, &found, Seat::N), None);
        assert_eq!(put_out(&against_e([8; 32], 1), none, &found, Seat::E), None);
        assert_eq!(put_out(&against_e(HCTX, 2), none, &found, Seat::E), None);
        // South runs West's computer player: South's vote speaks for West too.
        let mut bots = none;
        bots.take(Seat::W, Seat::S, [0; 32]);
        let two = [
            vote(Seat::S, Seat::E, HCTX, 1),
            vote(Seat::N, Seat::E, HCTX, 1),
        ];
        assert_eq!(put_out(&two, bots, &found, Seat::E), Some(PutOut::Votes));
        assert_eq!(put_out(&two, none, &found, Seat::E), None);
    }

    /// A seat's quit puts it out of no deal by itself, whether the deal was played out or
    /// not: only the votes on its silence since do, and the words then say it left.
    #[test]
    fn a_quit_alone_puts_nobody_out_and_is_said_with_the_votes() {
        let none = Takeovers::NONE;
        let found = Finding::default();
        assert_eq!(put_out(&[quit(Seat::N, 1)], none, &found, Seat::N), None);
        let mut signed: Vec<_> = [Seat::S, Seat::W, Seat::E]
            .map(|v| vote(v, Seat::N, HCTX, 1))
            .into();
        assert_eq!(put_out(&signed, none, &found, Seat::N), Some(PutOut::Votes));
        fn words(signed: &[(PublicKey, TableMsg)]) -> (String, Vec<String>) {
            let keys = keys();
            let found = Finding::default();
            let deal = Deal {
                hand_no: 1,
                hctx: &HCTX,
                keys: &keys,
                bots: &Takeovers::NONE,
                signed,
                found: &found,
                leaving: SeatSet::EMPTY,
            };
            deal.words(Seat::N, PutOut::Votes)
        }
        let (why, evidence) = words(&signed);
        assert!(why.starts_with("was silent"), "{why}");
        assert!(why.contains("(3 signed timeout votes)"), "{why}");
        assert_eq!(evidence.len(), 3);
        // One vote alone (one other client left) is said to be that client's word alone.
        let (why, _) = words(&signed[..1]);
        assert!(why.contains("its word alone"), "{why}");
        // North's quit of another hand, or another seat's, is not North leaving this one.
        signed.push(quit(Seat::N, 2));
        signed.push(quit(Seat::W, 1));
        let (why, _) = words(&signed);
        assert!(why.starts_with("was silent"), "{why}");
        signed.push(quit(Seat::N, 1));
        let (why, evidence) = words(&signed);
        assert!(why.starts_with("left the table"), "{why}");
        assert_eq!(
            evidence.last().map(String::as_str),
            Some("North's signed quit")
        );
    }

    /// The words for a seat caught name its own fault, with the crypto's evidence when that
    /// is what proved it: never another seat's fault.
    #[test]
    fn a_caught_seats_words_name_its_own_fault() {
        let keys = keys();
        let bots = Takeovers::NONE;
        let found = Finding {
            cheat: Some((
                Some(Seat::E),
                Fault::DuplicateKey,
                vec!["commitment signed by East".to_owned()],
            )),
            named: vec![(Seat::W, Fault::OutOfOrder)],
            ..Finding::default()
        };
        let deal = Deal {
            hand_no: 1,
            hctx: &HCTX,
            keys: &keys,
            bots: &bots,
            signed: &[],
            found: &found,
            leaving: SeatSet::EMPTY,
        };
        let (why, evidence) = deal.words(Seat::E, PutOut::Cheat);
        assert_eq!(why, format!("was caught cheating: {}", Fault::DuplicateKey));
        assert_eq!(evidence, ["commitment signed by East"]);
        let (why, evidence) = deal.words(Seat::W, PutOut::Cheat);
        assert_eq!(why, format!("was caught cheating: {}", Fault::OutOfOrder));
        assert!(evidence.is_empty());
    }

    /// A fault the replays or the crypto's evidence prove puts its seat out, and no other.
    #[test]
    fn a_proven_fault_counts_for_its_seat_only() {
        let none = Takeovers::NONE;
        let named = Finding {
            named: vec![(Seat::W, Fault::OutOfOrder)],
            ..Finding::default()
        };
        assert_eq!(put_out(&[], none, &named, Seat::W), Some(PutOut::Cheat));
        assert_eq!(put_out(&[], none, &named, Seat::E), None);
        let caught = Finding {
            cheat: Some((Some(Seat::E), Fault::OutOfOrder, Vec::new())),
            ..Finding::default()
        };
        assert_eq!(put_out(&[], none, &caught, Seat::E), Some(PutOut::Cheat));
        assert_eq!(put_out(&[], none, &caught, Seat::S), None);
    }
}
