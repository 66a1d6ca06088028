//! Transcripts for the forgery tests: honest games' files (one plain, one in which North
//! quits and South runs its computer player), cut into deals, joined again, checked, and the
//! typed fault a forged one is refused with.

use fairdeal_core::{Preset, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::TableSession;
use fairdeal_net::table::msg::TableMsg;
use fairdeal_net::transcript::{self, Entry, FaultKind, MAGIC, Report};

use super::table::{quit_mid_hand, run, secret};

/// Four computer players at a table of `preset` playing to `target`.
pub fn table(preset: Preset, target: i32) -> Vec<TableSession> {
    super::table::table("forgery", preset, target)
}

pub fn check(entries: &[Entry]) -> Report {
    let mut b = MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    transcript::verify(&transcript::decode(&b).unwrap())
}

/// The first fault's kind (the check stops there), or the report if it passed.
pub fn refused(entries: &[Entry]) -> FaultKind {
    let report = check(entries);
    let Some(f) = report.faults.first() else {
        panic!("the forgery passed:\n{}", report.text());
    };
    // The words name what is wrong; no honest seat is blamed for the file's bytes.
    assert!(f.seat.is_none(), "{}", report.text());
    assert!(report.text().contains(&f.to_string()), "{}", report.text());
    f.kind.clone()
}

/// The file split into what comes before the first deal and one block per deal (its header
/// and every entry up to the next header).
pub fn blocks(file: &[Entry]) -> (Vec<Entry>, Vec<Vec<Entry>>) {
    let first = file
        .iter()
        .position(|e| matches!(e, Entry::Hand { .. }))
        .unwrap();
    let mut deals: Vec<Vec<Entry>> = Vec::new();
    for e in &file[first..] {
        if matches!(e, Entry::Hand { .. }) {
            deals.push(Vec::new());
        }
        deals.last_mut().unwrap().push(e.clone());
    }
    (file[..first].to_vec(), deals)
}

pub fn join(head: &[Entry], deals: &[Vec<Entry>]) -> Vec<Entry> {
    head.iter().chain(deals.iter().flatten()).cloned().collect()
}

pub fn sid(peers: &[TableSession]) -> [u8; 32] {
    peers[0].config().unwrap().sid()
}

pub fn signed(signer: u8, msg: &TableMsg) -> Entry {
    Entry::Signed {
        from: Identity::from_secret(secret(signer)).public(),
        msg: msg.encode(),
    }
}

/// An honest Samba game of at least three verified deals, and West's transcript of it (run
/// into the fifth hand: a peer may start the fourth before West has every signed result of
/// the third).
pub fn honest_game() -> (Vec<TableSession>, Vec<Entry>) {
    let mut peers = table(Preset::Samba, 100_000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| {
        p.iter().all(|p| p.hand_no() > 4)
    });
    let file = files.swap_remove(1);
    let report = check(&file);
    assert!(report.ok(), "{}", report.text());
    assert!(report.roots().len() >= 3, "{}", report.text());
    // The report names the table and its players, from the signed configuration.
    let names = ["p0", "p1", "p2", "p3"].map(str::to_owned);
    assert_eq!(report.table, Some(("forgery".to_owned(), names)));
    (peers, file)
}

/// A game in which North quits in hand 1 and is voted out for what it no longer sends (the
/// deal void), and South runs its computer player from the deal after, to hand 4; West's
/// transcript.
pub fn quit_game() -> (Vec<TableSession>, Vec<Entry>) {
    let mut peers = table(Preset::Canasta, 100_000);
    let mut files = vec![Vec::new(); 4];
    run(&mut peers, &mut files, &[], &|p| p[2].view().is_some());
    quit_mid_hand(&mut peers, &mut files, 2);
    run(&mut peers, &mut files, &[], &|p| p[0].hand_no() > 1);
    run(&mut peers, &mut files, &[2], &|p| {
        [0, 1, 3].iter().all(|&i| p[i].hand_no() > 3)
    });
    assert_eq!(peers[1].runners()[2], Some(Seat::S), "South runs North");
    let file = files.swap_remove(1);
    let report = check(&file);
    assert!(report.ok(), "{}", report.text());
    (peers, file)
}

/// The decoded table message of a `Signed` entry.
pub fn table_msg(e: &Entry) -> Option<(PublicKey, TableMsg)> {
    match e {
        Entry::Signed { from, msg } => Some((*from, TableMsg::decode(msg).ok()?)),
        _ => None,
    }
}

/// The first `Quit` in `file`: its index, its signer and the hand it names.
pub fn first_quit(file: &[Entry]) -> (usize, PublicKey, u32) {
    file.iter()
        .enumerate()
        .find_map(|(at, e)| match table_msg(e) {
            Some((from, TableMsg::Quit { hand_no, .. })) => Some((at, from, hand_no)),
            _ => None,
        })
        .expect("the file has a quit")
}

/// The first `Replace` in `file`: its index, and the hand, seat, key and seed it names.
pub fn first_replace(file: &[Entry]) -> (usize, u32, Seat, PublicKey, [u8; 32]) {
    file.iter()
        .enumerate()
        .find_map(|(at, e)| match table_msg(e) {
            Some((
                _,
                TableMsg::Replace {
                    hand_no,
                    seat,
                    key,
                    seed,
                    ..
                },
            )) => Some((at, hand_no, seat, key, seed)),
            _ => None,
        })
        .expect("the file has a replacement")
}
