//! Two of the file's checks: a signed table message's signature, and a header's changes of
//! keys or computer players, each backed by a signed `Replace` or `Return` from the seat
//! entitled to sign it. Also the seat a key holds ([`seat_of`]), which the checks look
//! signers up by.

use fairdeal_core::{Seat, SeatMap, SeatSet};
use fairdeal_crypto::PublicKey;

use super::Header;
use crate::table::msg::{Statement, TableMsg};
use crate::transcript::report::FaultKind;

/// Checks a signed table message's signature (by `from`, seated in `keys` or in
/// `config_seats`) and returns it decoded.
///
/// # Errors
///
/// The signer is no seat, the message does not decode, is no evidence, or its signature
/// does not check.
pub(crate) fn signed_msg(
    sid: &[u8; 32],
    config_seats: &[PublicKey; 4],
    from: &PublicKey,
    msg: &[u8],
    keys: &[PublicKey; 4],
) -> Result<TableMsg, FaultKind> {
    let seat = seat_of(keys, from).or_else(|| seat_of(config_seats, from));
    let Some(seat) = seat else {
        return Err(FaultKind::Stranger);
    };
    // Nothing here is the seat's statement until its signature checks: the faults below
    // name the file, not the seat.
    let decoded = TableMsg::decode(msg).map_err(|_| FaultKind::Undecodable(seat))?;
    let ok = match &decoded {
        TableMsg::Timeout {
            hand_no,
            hctx,
            seat: s,
            sig,
        } => Statement::Timeout {
            hand_no: *hand_no,
            hctx,
            seat: *s,
        }
        .signed_by(from, sid, sig),
        TableMsg::Quit { hand_no, sig } => Statement::Quit {
            hand_no: *hand_no,
            seat,
        }
        .signed_by(from, sid, sig),
        TableMsg::Replace {
            hand_no,
            seat: s,
            key,
            seed,
            sig,
        } => Statement::Replace {
            hand_no: *hand_no,
            seat: *s,
            key,
            seed,
        }
        .signed_by(from, sid, sig),
        TableMsg::Return { state, sig } => Statement::Return(state).signed_by(from, sid, sig),
        // Signed, but no part of a deal or its result (peers do not write them here; a
        // file that has them is read past them once their signatures check).
        TableMsg::Ready { hand_no, sig } => Statement::Ready {
            hand_no: *hand_no,
            seat,
        }
        .signed_by(from, sid, sig),
        TableMsg::Chat { n, text, sig } => {
            Statement::Chat { seat, n: *n, text }.signed_by(from, sid, sig)
        }
        _ => return Err(FaultKind::NotEvidence(seat)),
    };
    if !ok {
        return Err(FaultKind::BadSignature(seat));
    }
    Ok(decoded)
}

/// Checks a header's keys and computer players (`head`) against what the deal before it
/// implies (`expect`): each change needs a signed `Replace` from the runner the new header
/// names (picked with the seats in `leaving` out), or a signed `Return` from the runner the
/// previous header names, among `signed`.
/// Returns the notes the report gives the changes.
///
/// # Errors
///
/// A change no signed message backs, or one signed by the wrong seat.
pub(super) fn seat_changes(
    hand_no: u32,
    original: &[PublicKey; 4],
    head: &Header,
    expect: &Header,
    leaving: SeatSet,
    signed: &[(PublicKey, TableMsg)],
) -> Result<Vec<String>, FaultKind> {
    let (head_keys, head_bots) = (&head.keys, &head.bots);
    let (expect_keys, expect_bots) = (&expect.keys, &expect.bots);
    let mut notes = Vec::new();
    // Every seat this header has a computer player take (or take again from a runner that
    // left too), and every seat whose quit stands: the seats that left the deal before it,
    // out together when their runners are picked.
    let taken: SeatSet = Seat::ALL
        .into_iter()
        .filter(|&s| head_bots.get(s).is_some() && head_bots.get(s) != expect_bots.get(s))
        .collect::<SeatSet>()
        .union(leaving);
    for s in Seat::ALL {
        let i = s.index();
        if head_keys[i] == expect_keys[i] && head_bots.get(s) == expect_bots.get(s) {
            continue;
        }
        let replaces = signed.iter().filter_map(|(from, m)| match m {
            TableMsg::Replace {
                seat, key, seed, ..
            } if *seat == s
                && *key == head_keys[i]
                && head_bots.get(s).is_some_and(|b| b.seed == *seed) =>
            {
                Some(from)
            }
            _ => None,
        });
        // The runner the table picks for it (from the computer players before this header),
        // and nobody else, may run it.
        let runner_now = head_bots
            .runner(s)
            .filter(|&r| Some(r) == expect_bots.runner_for(s, taken));
        let mut replaced = Err(None);
        for from in replaces {
            let signer = seat_of(expect_keys, from);
            if runner_now.is_some() && signer == runner_now {
                replaced = Ok(());
                break;
            }
            replaced = Err(signer);
        }
        // A seat given back: by the runner of the computer player the previous header
        // records for it (nobody else held the seat, so nobody else may hand it over), to
        // its player's own key (the configuration's), as this header seats it, for this
        // hand. The return's other seats are its signer's view when it signed: two runners
        // giving two seats back at one hand each sign while the other's seat is still held,
        // and each seat's change is backed by its own return.
        let returns = signed.iter().filter_map(|(from, m)| match m {
            TableMsg::Return { state, .. }
                if state.seat == s
                    && state.keys[i] == head_keys[i]
                    && head_keys[i] == original[i]
                    && state.hand_no == hand_no =>
            {
                Some(from)
            }
            _ => None,
        });
        let runner_before = expect_bots.runner(s);
        let mut returned = Err(None);
        for from in returns {
            let signer = seat_of(expect_keys, from);
            if runner_before.is_some() && signer == runner_before && head_bots.get(s).is_none() {
                returned = Ok(());
                break;
            }
            returned = Err(signer);
        }
        match (replaced, returned) {
                (Ok(()), _) => {
                    if let Some(b) = head_bots.get(s) {
                        notes.push(format!(
                            "hand {}: a computer player takes {}'s seat, run by {} (signed), its moves replayed at every audit",
                            hand_no,
                            s.name(),
                            b.runner.name()
                        ));
                    }
                }
                (_, Ok(())) => notes.push(format!(
                    "hand {}: {} is played by its player again (signed by the computer player's runner)",
                    hand_no,
                    s.name()
                )),
                (_, Err(Some(signer))) => {
                    return Err(FaultKind::ReturnNotFromRunner {
                            seat: s,
                            signer,
                            runner: runner_before,
                        });
                }
                (Err(Some(signer)), _) => {
                    return Err(FaultKind::ReplaceNotFromRunner {
                            seat: s,
                            signer,
                            runner: expect_bots.runner_for(s, taken).unwrap_or(signer),
                        });
                }
                _ => return Err(FaultKind::UnsignedSeatChange(s)),
            }
    }
    Ok(notes)
}

/// The seat `key` holds in `keys`, if any.
pub(super) fn seat_of(keys: &[PublicKey; 4], key: &PublicKey) -> Option<Seat> {
    SeatMap(*keys).find(|k| k == key)
}
