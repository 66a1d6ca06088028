//! The gate is the handler's check without its effect: for every signed table message about
//! a seat (timeout votes, quits, replacements, returns, readies, game overs, held seats),
//! sent by any seat with any fields at any moment (mid-hand and between hands), a peer's gate
//! admits it exactly when its handler takes it. A message the gate stores but the handler
//! refuses makes the log say more than the game did; one the gate refuses but the handler
//! would take is lost.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use common::sim::{Sim, table};
use fairdeal_core::{Preset, Seat, SplitMix64};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::msg::{ReturnState, Statement, TableMsg};
use fairdeal_net::table::{DEFAULT_GRACE_MS, TableSession};

/// One random signed table message from seat `from`: its fields near the truth (this hand,
/// the one before or after; a real seat or none; its own signature or another seat's).
fn hostile(
    rng: &mut SplitMix64,
    peers: &[TableSession],
    secrets: &[[u8; 32]],
    from: usize,
) -> Vec<u8> {
    let config = peers[from].config().unwrap();
    let sid = config.sid();
    let signer = if rng.below(4) == 0 {
        rng.below(4)
    } else {
        from
    };
    let id = Identity::from_secret(secrets[signer]);
    let me = Seat::from_index(from);
    let now = peers[from].hand_no();
    let hand_no = (now + rng.below(3) as u32).saturating_sub(1);
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
        1 => TableMsg::Quit {
            hand_no,
            sig: id.sign(&Statement::Quit { hand_no, seat: me }.digest(&sid)),
        },
        2 => {
            let key = if rng.below(3) == 0 {
                config.seats[rng.below(4)]
            } else {
                Identity::from_secret([rng.below(200) as u8 + 1; 32]).public()
            };
            let seed = [rng.below(256) as u8; 32];
            common::replace_msg(&id, &sid, hand_no, seat, key, seed)
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
            TableMsg::Return { state, sig }
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
            // sender's own, another's, or a wrong signer for the voter named).
            let votes = (0..rng.below(4))
                .map(|_| {
                    let voter = Seat::from_index(rng.below(4));
                    let by = Identity::from_secret(secrets[rng.below(4)]);
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
                    let by = Identity::from_secret(secrets[rng.below(4)]);
                    let at = hand_no + rng.below(2) as u32;
                    let digest = Statement::Quit {
                        hand_no: at,
                        seat: quitter,
                    }
                    .digest(&sid);
                    (quitter, (at, by.sign(&digest)))
                })
                .collect();
            TableMsg::SeatHeld {
                hand_no,
                seat,
                hctx,
                votes,
                quits,
            }
        }
    }
    .encode()
}

/// Sends `n` hostile messages from random seats to every other peer, checking at each that
/// the gate's answer is the handler's.
fn gate_is_handler(sim: &mut Sim, secrets: &[[u8; 32]], seed: u64, n: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut taken_here = 0;
    for case in 0..n {
        let from = rng.below(4);
        let bytes = hostile(&mut rng, &sim.peers, secrets, from);
        let key: PublicKey = sim.keys[from];
        for j in (0..4).filter(|&j| j != from) {
            let admitted = sim.peers[j].admit(key, &bytes);
            let taken = sim.peers[j].handle_message(key, &bytes);
            assert_eq!(
                admitted.is_ok(),
                taken.is_ok(),
                "case {case}: {:?} from {from} at {j}: gate {admitted:?}, handler {taken:?}",
                TableMsg::decode(&bytes).unwrap()
            );
            taken_here += usize::from(taken.is_ok());
        }
        sim.drain();
    }
    taken_here
}

/// Sabotage caught (checked): the gate's old checks of a quit (the hand number and the
/// signature only): a quit between hands is admitted, which the handler refuses.
#[test]
fn the_gate_admits_a_seats_message_exactly_when_its_handler_takes_it() {
    let (peers, secrets) = table("rulebook", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(60_000, &|s| s.peers.iter().all(|p| p.view().is_some()));
    let taken = gate_is_handler(&mut sim, &secrets, 1, 200);
    assert!(taken > 0, "some were taken mid-hand");
    // As the first hand is scored: a peer between hands, the others finishing theirs or
    // dealing the next.
    let (peers, secrets) = table("rulebook", Preset::Samba, 100_000);
    let mut sim = Sim::new(peers);
    sim.run(400 * DEFAULT_GRACE_MS, &|s| {
        s.peers.iter().any(|p| !p.reports().is_empty())
    });
    assert!(
        sim.peers.iter().any(|p| !p.reports().is_empty()),
        "a hand scored"
    );
    let taken = gate_is_handler(&mut sim, &secrets, 2, 200);
    assert!(taken > 0, "some were taken as the hand was scored");
    eprintln!("taken: {taken}");
}
