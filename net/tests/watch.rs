//! Spectators at a live table, at the level of the sessions: a spectator that joins seat 0's
//! door mid-hand follows the game to its end; at every move it and all four seats have
//! checked, its replica shows exactly the public table each seat shows (no card a seat keeps
//! hidden from the others); it leaves and comes back and catches up; a second one joins late
//! from nothing; their audited results and whole-file checks are the seats'. A spectator's
//! moves, votes and audits are refused by the door and by the table and change nothing; the
//! door admits at most `MAX_WATCHERS`.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use std::collections::BTreeMap;

use common::table::{secret, table};
use fairdeal_core::{Card, Cards, Position, Preset, PublicState, Seat};
use fairdeal_crypto::{Body, Head, Identity, Outbox, PublicKey};
use fairdeal_net::table::msg::{Statement, TableMsg};
use fairdeal_net::table::{Dest, TableSession};
use fairdeal_net::transcript::Entry;
use fairdeal_net::watch::{Door, FromSeat, FromWatcher, MAX_WATCHERS, Refused, Watch, WatchEvent};

/// What one seat's (or the spectator's) replica shows at a move: the public state, and the
/// cards of each hand it knows.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    public: PublicState,
    known: [Cards; 4],
}

fn seen(p: &Position) -> Seen {
    let known = [0, 1, 2, 3].map(|s| {
        let mut c = p.hand(Seat::from_index(s)).clone();
        let hidden = c.count(Card::HIDDEN);
        for _ in 0..hidden {
            c.remove(Card::HIDDEN);
        }
        c
    });
    Seen {
        public: p.public_state(),
        known,
    }
}

/// Snapshots by (hand, moves checked).
type Book = BTreeMap<(u32, usize), Seen>;

fn note(book: &mut Book, at: Option<(u32, usize)>, p: Option<&Position>) {
    if let (Some(at), Some(p)) = (at, p) {
        book.entry(at).or_insert_with(|| seen(p));
    }
}

/// One spectator and its identity.
struct Onlooker {
    key: PublicKey,
    watch: Watch,
    book: Book,
    verified: Vec<(u32, fairdeal_net::hand::HandReport)>,
    here: bool,
}

impl Onlooker {
    fn new(i: u8) -> Self {
        Self {
            key: Identity::from_secret([200 + i; 32]).public(),
            watch: Watch::new(),
            book: Book::new(),
            verified: Vec::new(),
            here: false,
        }
    }

    /// Asks `door` to watch from what it holds, and takes the answer.
    fn come(&mut self, door: &mut Door) {
        let ask = FromWatcher::Watch {
            name: "kib".into(),
            from: self.watch.held(),
        };
        let answer = door.handle(self.key, &ask.encode()).unwrap();
        self.here = true;
        if let Some(a) = answer {
            self.take(&a.encode());
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        let FromSeat::Entries { from, entries, .. } = FromSeat::decode(bytes).unwrap() else {
            panic!("not entries");
        };
        // Entry by entry, so the replica is noted after every move it checked.
        for (k, e) in entries.into_iter().enumerate() {
            self.watch.take_from(from + k as u64, vec![e]).unwrap();
            note(&mut self.book, self.watch.progress(), self.watch.replica());
            while let Some(ev) = self.watch.poll_event() {
                if let WatchEvent::Verified(r) = ev {
                    let (n, _) = self.watch.progress().unwrap();
                    self.verified.push((n, r));
                }
            }
        }
    }

    fn pump(&mut self, door: &mut Door) {
        while self.here
            && let Some(batch) = door.next_for(&self.key)
        {
            self.take(&batch.encode());
        }
    }
}

/// Checks a spectator's book against the seats': at every (hand, move) both noted, the same
/// public state as every seat and, of each hand, exactly the cards the three other seats know
/// (so nothing its owner alone knows).
fn same_as_seats(who: &Onlooker, seats: &[Book; 4]) -> usize {
    let mut compared = 0;
    for (at, w) in &who.book {
        for (k, book) in seats.iter().enumerate() {
            let Some(s) = book.get(at) else { continue };
            compared += 1;
            assert_eq!(w.public, s.public, "public state at {at:?}, seat {k}");
            for j in (0..4).filter(|&j| j != k) {
                assert_eq!(
                    w.known[j], s.known[j],
                    "hand {j} at {at:?}, as seat {k} knows it"
                );
            }
        }
    }
    compared
}

#[test]
fn a_spectator_follows_a_game_mid_hand_to_its_end_and_sees_no_hidden_card() {
    let mut peers = table("watched", Preset::Canasta, 3000);
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut door = Door::new(keys.clone());
    let mut files: Vec<Vec<Entry>> = vec![Vec::new(); 4];
    let mut seats: [Book; 4] = Default::default();
    let mut early = Onlooker::new(0);
    let mut late = Onlooker::new(1);
    let mut left_at = None;
    loop {
        let mut moved = false;
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                    let h = peers[j].hand();
                    note(
                        &mut seats[j],
                        h.map(|h| (peers[j].hand_no(), h.turn_count())),
                        h.and_then(|h| h.replica()),
                    );
                }
            }
            while peers[i].poll_event().is_some() {}
        }
        let fresh: Vec<Entry> = std::iter::from_fn(|| peers[0].poll_public()).collect();
        files[0].extend(fresh.iter().cloned());
        door.publish(&fresh);
        let (hand_no, turns) = (
            peers[0].hand_no(),
            peers[0].hand().map_or(0, |h| h.turn_count()),
        );
        // Joins mid-hand; leaves in the second hand and comes back a while later.
        if !early.here && left_at.is_none() && hand_no == 1 && turns >= 6 {
            early.come(&mut door);
        }
        if early.here && hand_no == 2 && turns >= 4 && left_at.is_none() {
            door.handle(early.key, &FromWatcher::Leave.encode())
                .unwrap();
            early.here = false;
            left_at = Some(early.watch.held());
        }
        if !early.here && left_at.is_some() && hand_no == 2 && turns >= 12 {
            early.come(&mut door);
        }
        if !late.here && hand_no == 3 && turns >= 2 {
            late.come(&mut door);
        }
        early.pump(&mut door);
        late.pump(&mut door);
        if !moved {
            break;
        }
    }
    assert!(peers[0].finished().is_some(), "the game ends");
    eprintln!(
        "{} hands, {} entries",
        peers[0].reports().len(),
        files[0].len()
    );
    assert!(peers[0].reports().len() >= 3, "three hands at least");
    let held = left_at.unwrap();
    assert!(held < early.watch.held(), "it came back and caught up");
    let a = same_as_seats(&early, &seats);
    let b = same_as_seats(&late, &seats);
    assert!(a > 100 && b > 20, "compared at {a} and {b} points");
    // Its own audits, hand by hand, are the seats'; so is the whole stream's check.
    for o in [&early, &late] {
        let seats_reports: Vec<_> = peers[1].reports().iter().collect();
        let mine: Vec<_> = o.verified.iter().map(|(_, r)| r).collect();
        assert!(!mine.is_empty());
        for (w, s) in mine
            .iter()
            .zip(&seats_reports[seats_reports.len() - mine.len()..])
        {
            assert_eq!(
                (w.scores, w.transcript_root, w.breakdown, w.shuffles_checked),
                (s.scores, s.transcript_root, s.breakdown, s.shuffles_checked)
            );
            // A seat checks the shares it did not make; a spectator made none.
            assert!(w.openings_checked > s.openings_checked);
        }
        let entries: Vec<_> = fairdeal_net::transcript::decode(&file_of(&files[0])).unwrap();
        assert_eq!(o.watch.verify(), fairdeal_net::transcript::verify(&entries));
        assert!(o.watch.verify().faults.is_empty());
    }
    // Offered again from the start (a seat that resends), what is held is skipped.
    let report = early.watch.verify();
    let n = early.watch.held();
    early.watch.take_from(0, files[0].clone()).unwrap();
    assert_eq!((early.watch.held(), early.watch.verify()), (n, report));
}

/// A whole short game as seat 0 published it.
fn short_game(name: &str) -> Vec<Entry> {
    let mut peers = table(name, Preset::Canasta, 1500);
    let mut files: Vec<Vec<Entry>> = vec![Vec::new(); 4];
    common::table::run(&mut peers, &mut files, &[], &|_| false);
    assert!(peers[0].reports().len() >= 2);
    files.swap_remove(0)
}

/// Feeds `entries` one by one; the first error and how many were taken before it.
fn feed(entries: &[Entry]) -> (usize, Option<fairdeal_net::watch::WatchError>) {
    let mut w = Watch::new();
    for (i, e) in entries.iter().enumerate() {
        if let Err(err) = w.take(e.clone()) {
            assert_eq!(w.held(), i as u64, "nothing taken past it");
            return (i, Some(err));
        }
    }
    (entries.len(), None)
}

#[test]
fn a_stream_that_does_not_check_stops_where_it_goes_wrong() {
    use fairdeal_net::transcript::{FaultKind, TranscriptFault};
    use fairdeal_net::watch::WatchError;
    let game = short_game("forged");
    assert_eq!(feed(&game), (game.len(), None));
    let second = game
        .iter()
        .position(|e| matches!(e, Entry::Hand { head, .. } if head.hand_no == 2))
        .unwrap();
    // The second deal's totals are not the first deal's audited scores.
    let mut g = game.clone();
    if let Entry::Hand { head, .. } = &mut g[second] {
        head.totals[0] += 10;
    }
    assert!(matches!(
        feed(&g),
        (i, Some(WatchError::Refused(TranscriptFault { kind: FaultKind::Retotalled { .. }, .. }))) if i == second
    ));
    // Nor its previous result the first deal's root.
    let mut g = game.clone();
    if let Entry::Hand { head, .. } = &mut g[second] {
        head.prev_result[0] ^= 1;
    }
    assert!(matches!(
        feed(&g),
        (i, Some(WatchError::Refused(TranscriptFault { kind: FaultKind::WrongPrevious { .. }, .. }))) if i == second
    ));
    // An envelope whose signature does not check.
    let at = game
        .iter()
        .position(|e| matches!(e, Entry::Envelope { .. }))
        .unwrap()
        + 5;
    let mut g = game.clone();
    if let Entry::Envelope { signed, .. } = &mut g[at] {
        let last = signed.bytes.len() - 1;
        signed.bytes[last] ^= 1;
    }
    assert!(matches!(
        feed(&g),
        (i, Some(WatchError::Refused(TranscriptFault { kind: FaultKind::BadEnvelope(_), hand_no: Some(1), .. }))) if i == at
    ));
    // An envelope of the first deal offered during the second.
    let mut g = game.clone();
    let old = g[at].clone();
    g.insert(second + 1, old);
    assert!(matches!(
        feed(&g),
        (i, Some(WatchError::Refused(TranscriptFault { kind: FaultKind::EnvelopeOutOfDeal(_), hand_no: Some(1), .. }))) if i == second + 1
    ));
    // A configuration whose signatures do not check.
    let mut g = game.clone();
    if let Entry::Table { accepts, .. } = &mut g[0] {
        accepts[2] = accepts[1].clone();
    }
    assert!(matches!(
        feed(&g),
        (
            0,
            Some(WatchError::Refused(TranscriptFault {
                kind: FaultKind::ConfigSignature(Seat::N),
                ..
            }))
        )
    ));
    // Nothing before the configuration.
    assert!(matches!(
        feed(&game[1..]),
        (
            0,
            Some(WatchError::Refused(TranscriptFault {
                kind: FaultKind::NoConfiguration,
                ..
            }))
        )
    ));
    // A key changed in the second header, "backed" by a table message under a seat's name
    // that is no signed message at all: the spectator stops at that message, before the
    // header (and any move signed under the new key) is shown.
    let mut g = game.clone();
    let from = match &g[second] {
        Entry::Hand { keys, .. } => keys[1],
        _ => unreachable!("the second deal's header"),
    };
    if let Entry::Hand { keys, .. } = &mut g[second] {
        keys[2] = Identity::from_secret([77; 32]).public();
    }
    g.insert(
        second,
        Entry::Signed {
            from,
            msg: vec![0xff; 8],
        },
    );
    assert!(
        matches!(feed(&g), (i, Some(WatchError::Refused(TranscriptFault { kind: FaultKind::Undecodable(_), .. }))) if i == second),
        "{:?}",
        feed(&g)
    );
}

fn file_of(entries: &[Entry]) -> Vec<u8> {
    let mut b = fairdeal_net::transcript::MAGIC.to_vec();
    for e in entries {
        b.extend_from_slice(&e.to_record());
    }
    b
}

#[test]
fn a_spectators_moves_votes_and_audits_are_refused_and_change_nothing() {
    let mut peers = table("refusing", Preset::Canasta, 50);
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    // Play until the first hand has a few moves.
    let mut files: Vec<Vec<Entry>> = vec![Vec::new(); 4];
    common::table::run(&mut peers, &mut files, &[], &|p| {
        p[0].hand().is_some_and(|h| h.turn_count() >= 3)
    });
    let hand = peers[0].hand().unwrap();
    let hctx = hand.hctx();
    let hand_no = peers[0].hand_no();
    let sid = peers[0].config().unwrap().sid();
    let spy = Identity::from_secret([222; 32]);
    let mut out = Outbox::new(hctx, 0);
    let envelope = |out: &mut Outbox, body: Body| {
        TableMsg::Hand {
            bytes: out.seal(&spy, body.encode()).to_wire(),
        }
        .encode()
    };
    let attempts = vec![
        envelope(
            &mut out,
            Body::Move {
                hctx,
                turn: 3,
                action: Vec::new(),
                opened: Vec::new(),
            },
        ),
        envelope(
            &mut out,
            Body::Audit {
                hctx,
                seed: [1; 32],
                heads: [Head {
                    count: 0,
                    last: [0; 32],
                }; 4],
            },
        ),
        TableMsg::Timeout {
            hand_no,
            hctx,
            seat: Seat::W,
            sig: spy.sign(
                &Statement::Timeout {
                    hand_no,
                    hctx: &hctx,
                    seat: Seat::W,
                }
                .digest(&sid),
            ),
        }
        .encode(),
    ];
    let mut door = Door::new(keys.clone());
    door.handle(
        spy.public(),
        &FromWatcher::Watch {
            name: "spy".into(),
            from: 0,
        }
        .encode(),
    )
    .unwrap();
    // What the table had queued before the attempts is set aside: only what they cause counts.
    for p in peers.iter_mut() {
        while p.poll_transmit().is_some() {}
        while p.poll_public().is_some() {}
    }
    let before: Vec<_> = peers
        .iter()
        .map(|p| (p.hand().unwrap().progress(), p.hand().unwrap().have()))
        .collect();
    for bytes in &attempts {
        assert_eq!(
            door.handle(spy.public(), bytes).err(),
            Some(Refused::NotAWatchMessage)
        );
        for p in peers.iter_mut() {
            assert!(
                p.handle_message(spy.public(), bytes).is_err(),
                "the table refuses it"
            );
        }
    }
    assert_eq!(door.watchers(), vec![spy.public()], "the door is as it was");
    for (p, b) in peers.iter_mut().zip(&before) {
        assert_eq!((p.hand().unwrap().progress(), p.hand().unwrap().have()), *b);
        assert!(p.poll_transmit().is_none(), "nothing sent for it");
        assert!(p.poll_public().is_none(), "nothing published for it");
    }
    // A seat's own identity is no spectator.
    let ask = FromWatcher::Watch {
        name: "me".into(),
        from: 0,
    };
    assert_eq!(
        door.handle(keys[2], &ask.encode()).err(),
        Some(Refused::Seated)
    );
    let _ = secret(0);
}

#[test]
fn the_door_admits_at_most_max_watchers() {
    let mut door = Door::new(Vec::new());
    door.publish(&[Entry::Signed {
        from: PublicKey([1; 32]),
        msg: vec![1],
    }]);
    let key = |i: usize| Identity::from_secret([i as u8 + 1; 32]).public();
    let ask = FromWatcher::Watch {
        name: "x".into(),
        from: 0,
    }
    .encode();
    for i in 0..MAX_WATCHERS {
        assert!(door.handle(key(i), &ask).is_ok());
    }
    assert_eq!(door.handle(key(MAX_WATCHERS), &ask), Err(Refused::Full));
    assert_eq!(
        Refused::Full.answer(),
        FromSeat::Full {
            max: MAX_WATCHERS as u16
        }
    );
    // One already in asks again (coming back): still in; one leaves: the next fits.
    assert!(door.handle(key(0), &ask).is_ok());
    door.handle(key(3), &FromWatcher::Leave.encode()).unwrap();
    assert!(door.handle(key(MAX_WATCHERS), &ask).is_ok());
    assert_eq!(door.watching().len(), MAX_WATCHERS);
}

/// A deal void because a player left: the next header must deal again on the same totals by
/// the same dealer, chained to the void. A seat that streams another header is refused at
/// that header, so the spectator never shows a deal on totals or a dealer the file's check
/// would refuse (before, a spectator held headers to the deal before only once it was scored).
#[test]
fn after_a_void_deal_a_header_with_other_totals_or_dealer_is_refused_at_once() {
    use fairdeal_net::transcript::{FaultKind, TranscriptFault};
    use fairdeal_net::watch::WatchError;
    let mut peers = table("void", Preset::Canasta, 100);
    let mut files: Vec<Vec<Entry>> = vec![Vec::new(); 4];
    common::table::run(&mut peers, &mut files, &[], &|p| p[2].view().is_some());
    common::table::quit_mid_hand(&mut peers, &mut files, 2);
    common::table::run(&mut peers, &mut files, &[], &|p| p[0].hand_no() > 1);
    files[0].extend(std::iter::from_fn(|| peers[0].poll_public()));
    let game = files.swap_remove(0);
    let second = game
        .iter()
        .position(|e| matches!(e, Entry::Hand { head, .. } if head.hand_no == 2))
        .expect("the deal after the void one");
    let upto = &game[..=second];
    assert_eq!(feed(upto), (second + 1, None), "as the seats wrote it");
    let refused = |g: &[Entry]| match feed(g) {
        (i, Some(WatchError::Refused(TranscriptFault { kind, .. }))) if i == second => kind,
        other => panic!("taken past the header: {other:?}"),
    };
    let mut g = upto.to_vec();
    if let Entry::Hand { head, .. } = &mut g[second] {
        head.totals[1] += 500;
    }
    let kind = refused(&g);
    assert!(
        matches!(
            kind,
            FaultKind::ForfeitTotals | FaultKind::Retotalled { .. }
        ),
        "{kind:?}"
    );
    let mut g = upto.to_vec();
    if let Entry::Hand { head, .. } = &mut g[second] {
        head.dealer = head.dealer.next();
    }
    assert!(matches!(refused(&g), FaultKind::WrongDealer { .. }));
    let mut g = upto.to_vec();
    if let Entry::Hand { head, .. } = &mut g[second] {
        head.prev_result[0] ^= 1;
    }
    assert!(matches!(refused(&g), FaultKind::UnexplainedNext));
}
