//! The votes that put a seat out, told to every seat. Each client sends its own timeout vote,
//! but a vote lost on a broken link (a Wi-Fi that drops a connection with requests in flight)
//! would leave one peer with the full count, ending the deal, and another without it, playing
//! on: the table split. So a peer whose count puts a seat out sends every seat the signed votes
//! it counted, and again to a seat that asks for what it misses of that hand; a peer that
//! missed one counts them as from their signers, and the deal ends the same way everywhere.

use fairdeal_core::Seat;
use fairdeal_crypto::{PublicKey, Sig};

use super::msg::TableMsg;
use super::{Dest, TableError, TableSession, TimeoutRefused};

impl TableSession {
    /// Whether the votes of a `VotedOut` are taken (one decision for the gate and the
    /// handler): each as its signer's own vote would be. Returns those not counted here yet;
    /// none new is a leftover (`Again`).
    pub(crate) fn check_voted_out(
        &self,
        hand_no: u32,
        seat: Seat,
        hctx: &[u8; 32],
        votes: &[(Seat, Sig)],
    ) -> Result<Vec<(Seat, Sig)>, TimeoutRefused> {
        if votes.is_empty() || votes.len() > 3 {
            return Err(TimeoutRefused::NotACount);
        }
        let mut fresh: Vec<(Seat, Sig)> = Vec::new();
        for (voter, sig) in votes {
            let key = self.keys[voter.index()];
            match self.check_timeout(&key, hand_no, hctx, seat, sig) {
                Ok(v) if !fresh.iter().any(|(f, _)| *f == v) => fresh.push((v, sig.clone())),
                Ok(_) | Err(TimeoutRefused::Again) => {}
                Err(e) => return Err(e),
            }
        }
        if fresh.is_empty() {
            return Err(TimeoutRefused::Again);
        }
        Ok(fresh)
    }

    pub(crate) fn on_voted_out(
        &mut self,
        hand_no: u32,
        seat: Seat,
        hctx: [u8; 32],
        votes: &[(Seat, Sig)],
    ) -> Result<(), TableError> {
        let fresh = self.check_voted_out(hand_no, seat, &hctx, votes)?;
        self.count_shown_votes(hand_no, hctx, seat, fresh);
        Ok(())
    }

    /// Counts votes against `seat` in the deal `hctx` that another peer showed (checked), as
    /// if they had come from their signers: the transcript holds each as its signer's.
    pub(crate) fn count_shown_votes(
        &mut self,
        hand_no: u32,
        hctx: [u8; 32],
        seat: Seat,
        votes: Vec<(Seat, Sig)>,
    ) {
        for (voter, sig) in votes {
            let key: PublicKey = self.keys[voter.index()];
            let vote = TableMsg::Timeout {
                hand_no,
                hctx,
                seat,
                sig: sig.clone(),
            };
            let at = self.public.len();
            self.publish_signed(at, key, &vote.encode());
            self.count_vote(hand_no, hctx, seat, voter, &sig);
        }
    }

    /// Tells every seat (or the one that asks, `to`) the votes that put a seat out of a deal
    /// of hand `hand_no`.
    pub(crate) fn tell_voted_out(&mut self, hand_no: u32, to: Dest) {
        let told: Vec<TableMsg> = Seat::ALL
            .into_iter()
            .filter_map(|seat| {
                let p = self.out_proof[seat].as_ref()?;
                (p.hand_no == hand_no).then(|| TableMsg::VotedOut {
                    hand_no,
                    seat,
                    hctx: p.hctx,
                    votes: p.votes.clone(),
                })
            })
            .collect();
        for msg in told {
            self.send(to.clone(), msg);
        }
    }
}
