//! Hostile signed table messages for the property tests: any kind, with fields near the
//! truth, signed by the sender or by a seat whose secret it holds.

use fairdeal_core::{Seat, SplitMix64};
use fairdeal_crypto::Identity;
use fairdeal_net::table::TableSession;
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};

/// One random signed table message from seat `from`: its fields near the truth (this hand,
/// the one before or after; a real seat or none; its own signature or that of a seat among
/// `signers`, the seats whose secrets the sender holds).
pub fn hostile(
    rng: &mut SplitMix64,
    peers: &[TableSession],
    secrets: &[[u8; 32]],
    signers: &[usize],
    from: usize,
) -> Vec<u8> {
    let config = peers[from].config().expect("the game started");
    let sid = config.sid();
    let pick = |rng: &mut SplitMix64| signers[rng.below(signers.len())];
    let signer = if rng.below(4) == 0 { pick(rng) } else { from };
    let id = Identity::from_secret(secrets[signer]);
    let me = Seat::from_index(from);
    let now = peers[from].hand_no();
    // This hand half the time, else the one before or after.
    let hand_no = if rng.below(2) == 0 {
        now
    } else {
        (now + 2 * rng.below(2) as u32).saturating_sub(1)
    };
    // Any seat (a number past 3 does not decode as one: the decoders' own tests cover it).
    let seat = Seat::from_index(rng.below(4));
    let hctx = match (rng.below(3), peers[from].hand()) {
        (0, _) | (_, None) => [rng.below(256) as u8; 32],
        (_, Some(h)) => h.hctx(),
    };
    match rng.below(7) {
        0 => TableMsg::Timeout {
            hand_no,
            hctx,
            seat,
            sig: id.sign(
                &Statement::Timeout {
                    hand_no,
                    hctx: &hctx,
                    seat,
                }
                .digest(&sid),
            ),
        },
        1 if rng.below(2) == 0 => super::quit_msg(&id, &sid, hand_no, me),
        1 => {
            // A quit of a seat whose secret the sender holds, passed on (or one signed by
            // the wrong seat for the seat named).
            let quitter = pick(rng);
            let by = Identity::from_secret(secrets[pick(rng)]);
            let seat = Seat::from_index(quitter);
            TableMsg::QuitPassed {
                seat,
                hand_no,
                sig: by.sign(&Statement::Quit { hand_no, seat }.digest(&sid)),
            }
        }
        2 => {
            let key = if rng.below(3) == 0 {
                config.seats[rng.below(4)]
            } else {
                Identity::from_secret([rng.below(200) as u8 + 1; 32]).public()
            };
            let seed = [rng.below(256) as u8; 32];
            match super::replace_msg(&id, &sid, hand_no, seat, key, seed) {
                // Passed on, as a replacement by the seat whose secret signed it (or by
                // another, for a wrong signer).
                TableMsg::Replace { sig, .. } if rng.below(2) == 0 => TableMsg::ReplacePassed {
                    runner: Seat::from_index(if rng.below(3) == 0 { pick(rng) } else { signer }),
                    hand_no,
                    seat,
                    key,
                    seed,
                    sig,
                },
                msg => msg,
            }
        }
        3 => {
            let state = ReturnState {
                hand_no,
                seat,
                dealer: Seat::from_index(rng.below(4)),
                totals: peers[from].totals(),
                prev_result: [0; 32],
                keys: config.seats,
                runners: fairdeal_core::SeatMap::default(),
                seeds: fairdeal_core::SeatMap::default(),
            };
            let sig = id.sign(&Statement::Return(&state).digest(&sid));
            if rng.below(2) == 0 {
                // Passed on, as a return by the seat whose secret signed it (or by another,
                // for a wrong signer).
                TableMsg::ReturnPassed {
                    runner: Seat::from_index(if rng.below(3) == 0 { pick(rng) } else { signer }),
                    state,
                    sig,
                }
            } else {
                TableMsg::Return { state, sig }
            }
        }
        4 => TableMsg::Ready {
            hand_no,
            sig: id.sign(&Statement::Ready { hand_no, seat: me }.digest(&sid)),
        },
        5 => {
            let totals = [rng.below(3) as i32 * 4000, 0];
            TableMsg::Over {
                totals,
                sig: id.sign(&Statement::Over { seat, totals }.digest(&sid)),
            }
        }
        _ => {
            // Votes against the seat in this deal, each signed by a random seat (the
            // sender's own, another's, or a wrong signer for the voter named): from random
            // voters, or from every other seat (a whole count).
            let whole = rng.below(2) == 0;
            let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != seat).collect();
            let n = if whole { 3 } else { rng.below(4) };
            let votes = (0..n)
                .map(|k| {
                    let voter = if whole {
                        others[k]
                    } else {
                        Seat::from_index(rng.below(4))
                    };
                    let by = Identity::from_secret(secrets[pick(rng)]);
                    (
                        voter,
                        by.sign(
                            &Statement::Timeout {
                                hand_no,
                                hctx: &hctx,
                                seat,
                            }
                            .digest(&sid),
                        ),
                    )
                })
                .collect();
            if rng.below(3) == 0 {
                // The same votes, told as a count.
                return TableMsg::VotedOut {
                    hand_no,
                    seat,
                    hctx,
                    votes,
                }
                .encode();
            }
            // Quits of other seats, each signed by a random seat, for this hand or another.
            let quits = (0..rng.below(4))
                .map(|_| {
                    let quitter = Seat::from_index(rng.below(4));
                    let by = Identity::from_secret(secrets[pick(rng)]);
                    let at = hand_no + rng.below(2) as u32;
                    let digest = Statement::Quit {
                        hand_no: at,
                        seat: quitter,
                    }
                    .digest(&sid);
                    (quitter, (at, by.sign(&digest)))
                })
                .collect();
            // And, at times, those votes shown as putting another seat out.
            let outs = if rng.below(3) == 0 {
                vec![fairdeal_net::table::msg::SeatOut {
                    seat: Seat::from_index(rng.below(4)),
                    hand_no,
                    hctx,
                    votes: votes.clone(),
                }]
            } else {
                Vec::new()
            };
            TableMsg::SeatHeld {
                hand_no,
                seat,
                hctx,
                votes,
                quits,
                outs,
            }
        }
    }
    .encode()
}
