//! What a seat signs at the table besides the deal's own envelopes: one [`Statement`] enum,
//! its domain labels in one place, so that the seat that sends a message, the seat that
//! checks it live and the transcript checker sign and verify the same bytes; and the one
//! signed value that is more than a few fields, a seat given back's [`ReturnState`] (the
//! messages in `msg.rs` carry these, so this file needs nothing of that one).

use fairdeal_core::{Seat, SeatMap};
use fairdeal_crypto::hash::hash256;
use fairdeal_crypto::{Identity, PublicKey, Sig, encoding};
use serde::{Deserialize, Serialize};

/// The table's state at the start of the hand in which a player returns, as the runner of
/// their seat's computer player signs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReturnState {
    /// The hand the player plays again from.
    pub hand_no: u32,
    /// The seat given back.
    #[serde(with = "crate::seat_wire::one")]
    pub seat: Seat,
    /// The dealer of that hand.
    #[serde(with = "crate::seat_wire::one")]
    pub dealer: Seat,
    /// Team totals before it.
    pub totals: [i32; 2],
    /// The previous hand's result hash (it chains the hand contexts).
    pub prev_result: [u8; 32],
    /// The seat identities for that hand (the returning player's own key in its seat).
    pub keys: [PublicKey; 4],
    /// Who runs a computer player in each of the other seats.
    #[serde(with = "crate::seat_wire::map_opt")]
    pub runners: SeatMap<Option<Seat>>,
    /// The seed of each of those computer players (zeros for a seat its player plays): a
    /// player back from away missed the `Replace`s that named them, and a computer player's
    /// moves are checked against the strategy run with its seed.
    pub seeds: SeatMap<[u8; 32]>,
}

/// One signed table statement, by kind. Each digest is `hash256(label, sid ‖ fields)`: the
/// label names the kind and the table's session id binds it to one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement<'a> {
    /// The runner of a held seat gives it back, from this state.
    Return(&'a ReturnState),
    /// The runner of held seat `seat` tells its player the game ended at `totals`.
    Over {
        /// The held seat (the player told).
        seat: Seat,
        /// The final team totals.
        totals: [i32; 2],
    },
    /// Seat `seat` is ready for the hand after `hand_no`.
    Ready {
        /// The hand just scored.
        hand_no: u32,
        /// The signer's seat.
        seat: Seat,
    },
    /// Seat `seat`'s chat line `n`.
    Chat {
        /// The signer's seat.
        seat: Seat,
        /// The line's number (from 1).
        n: u32,
        /// The line.
        text: &'a str,
    },
    /// Seat `seat` leaves in hand `hand_no`.
    Quit {
        /// The hand it leaves in.
        hand_no: u32,
        /// The signer's seat.
        seat: Seat,
    },
    /// A vote that seat `seat` went silent in the deal `hctx` of hand `hand_no`.
    Timeout {
        /// The hand.
        hand_no: u32,
        /// The deal it was observed in.
        hctx: &'a [u8; 32],
        /// The silent seat.
        seat: Seat,
    },
    /// The runner of seat `seat` replaces its computer player's key and seed from hand
    /// `hand_no`.
    Replace {
        /// The hand it plays from.
        hand_no: u32,
        /// The seat replaced.
        seat: Seat,
        /// The computer player's new key.
        key: &'a PublicKey,
        /// The computer player's new seed.
        seed: &'a [u8; 32],
    },
}

impl Statement<'_> {
    /// The domain label of this kind.
    fn label(&self) -> &'static [u8] {
        match self {
            Self::Return(_) => b"fairdeal/v1/return",
            Self::Over { .. } => b"fairdeal/v1/over",
            Self::Ready { .. } => b"fairdeal/v1/ready",
            Self::Chat { .. } => b"fairdeal/v1/chat",
            Self::Quit { .. } => b"fairdeal/v1/quit",
            Self::Timeout { .. } => b"fairdeal/v1/timeout",
            Self::Replace { .. } => b"fairdeal/v1/replace",
        }
    }

    /// What is signed at the table `sid`.
    pub fn digest(&self, sid: &[u8; 32]) -> [u8; 32] {
        let label = self.label();
        match *self {
            Self::Return(state) => hash256(label, &[sid, &encoding::encode(state)]),
            Self::Over { seat, totals } => hash256(
                label,
                &[
                    sid,
                    &[seat.number()],
                    &totals[0].to_le_bytes(),
                    &totals[1].to_le_bytes(),
                ],
            ),
            Self::Ready { hand_no, seat } | Self::Quit { hand_no, seat } => {
                hash256(label, &[sid, &hand_no.to_le_bytes(), &[seat.number()]])
            }
            Self::Chat { seat, n, text } => hash256(
                label,
                &[sid, &[seat.number()], &n.to_le_bytes(), text.as_bytes()],
            ),
            Self::Timeout {
                hand_no,
                hctx,
                seat,
            } => hash256(
                label,
                &[sid, &hand_no.to_le_bytes(), hctx, &[seat.number()]],
            ),
            Self::Replace {
                hand_no,
                seat,
                key,
                seed,
            } => hash256(
                label,
                &[sid, &hand_no.to_le_bytes(), &[seat.number()], &key.0, seed],
            ),
        }
    }

    /// Signed by `by` at the table `sid`.
    pub fn sign(&self, by: &Identity, sid: &[u8; 32]) -> Sig {
        by.sign(&self.digest(sid))
    }

    /// Whether `sig` is `from`'s signature of this statement at the table `sid`.
    pub fn signed_by(&self, from: &PublicKey, sid: &[u8; 32], sig: &Sig) -> bool {
        from.verify(&self.digest(sid), sig).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeal_core::SeatMap;

    fn hex(d: [u8; 32]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Every kind's digest pinned: a signature made before a change of this code checks after
    /// it (saved games hold them), and no two kinds sign the same bytes.
    #[test]
    fn each_statement_signs_the_bytes_it_always_signed() {
        let sid = [7u8; 32];
        let key = Identity::from_secret([9; 32]).public();
        let state = ReturnState {
            hand_no: 3,
            seat: Seat::N,
            dealer: Seat::W,
            totals: [150, -20],
            prev_result: [5; 32],
            keys: [key, key, key, key],
            runners: SeatMap([None, Some(Seat::W), None, Some(Seat::E)]),
            seeds: SeatMap([[0; 32], [3; 32], [0; 32], [4; 32]]),
        };
        let all = [
            Statement::Return(&state),
            Statement::Over {
                seat: Seat::N,
                totals: [1500, -40],
            },
            Statement::Ready {
                hand_no: 4,
                seat: Seat::W,
            },
            Statement::Chat {
                seat: Seat::E,
                n: 12,
                text: "good luck",
            },
            Statement::Quit {
                hand_no: 4,
                seat: Seat::W,
            },
            Statement::Timeout {
                hand_no: 2,
                hctx: &[6; 32],
                seat: Seat::S,
            },
            Statement::Replace {
                hand_no: 5,
                seat: Seat::N,
                key: &key,
                seed: &[8; 32],
            },
        ];
        let got: Vec<String> = all.iter().map(|s| hex(s.digest(&sid))).collect();
        let want = GOLDEN;
        assert_eq!(got, want);
        let mut distinct = got.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), all.len());
    }

    /// Computed by the per-kind digest functions this enum replaced; the return's since its
    /// state carries the computer players' seeds.
    const GOLDEN: [&str; 7] = [
        "1197d5ef9f72a9f264ea811ecc626368122548949b69665cc8f6626317c932b7",
        "fba9dd0f3c310c0bc88d152504a5d3364a8110178f2243c60c50d3c9c5b4c08a",
        "72627d4443c4de43b9d4962cbd511b05fccde9e1b7b6bccd055ac35fdfa04efe",
        "c29e8c59ae036a7d6d887eb845e34c0368108afe765c2a2bb256390643b1a91d",
        "00c3c535cdf48ece7eb61a843957394ff05d1eca133da881f484a982811ba2e1",
        "b71c60683508c286f727dafd603d4402324f1534489c9534bf63b94666f6bc00",
        "6909d4bb375343841fdfaf49c0cc2260dbe97fe9d47a556acff2a83467d474a8",
    ];
}
