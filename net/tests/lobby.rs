//! The lobby: a host that arranges the seats and starts when it says so, players asking for a
//! seat, a host rebuilt from its log keeping the seating it chose, and tables found by a
//! browser over loopback.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::store::{Meta, Record};
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{
    Dest, MsgKind, NotNow, TableError, TableEvent, TableSession, Unexpected,
};

fn seat(i: u8) -> ([u8; 32], SeatInfo) {
    let secret = [i + 41; 32];
    (
        secret,
        SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: Vec::new(),
        },
    )
}

fn house() -> HouseRules {
    HouseRules {
        target: Some(1500),
        ..HouseRules::default()
    }
}

/// A held table: host plus three joiners asking for seats `wants`. The host's log is kept.
fn held_table(wants: [Option<u8>; 3]) -> (Vec<TableSession>, Vec<Record>) {
    let (s0, i0) = seat(0);
    let mut host = TableSession::host(
        s0,
        [1; 32],
        i0.clone(),
        Some("greedy"),
        "lobby",
        Preset::Samba,
        house(),
    );
    host.hold_start();
    let log = vec![Record::Meta(Box::new(Meta {
        role: fairdeal_net::store::Part::Host,
        me: i0,
        bot: Some("greedy".into()),
        master: [1; 32],
        table: Some((
            "lobby".into(),
            Preset::Samba,
            fairdeal_net::table::msg::house_to_json(&house()),
        )),
        host: None,
        hold: true,
        want: None,
        move_clock_ms: 0,
    }))];
    let key = host.key();
    let mut peers = vec![host];
    for (i, want) in (1..4u8).zip(wants) {
        let (s, info) = seat(i);
        let mut p = TableSession::joiner(s, [1 + i; 32], info, Some("greedy"));
        p.want_seat(want.and_then(|w| Seat::try_from(w).ok()));
        p.join(key);
        peers.push(p);
    }
    (peers, log)
}

/// Delivers everything until quiet (at most `limit` messages), logging the host's traffic.
fn run(peers: &mut [TableSession], log: &mut Vec<Record>, limit: usize) -> Vec<Vec<TableEvent>> {
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut events = vec![Vec::new(); peers.len()];
    let mut sent = 0;
    while sent < limit {
        let mut moved = false;
        for i in 0..peers.len() {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                sent += 1;
                if i == 0 {
                    log.push(Record::Sent {
                        bytes: bytes.clone(),
                    });
                }
                let targets: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..peers.len()).filter(|&j| j != i).collect(),
                };
                for j in targets {
                    if j == 0 {
                        log.push(Record::Recv {
                            from: keys[i].0,
                            bytes: bytes.clone(),
                        });
                    }
                    peers[j].handle_message(keys[i], &bytes).unwrap();
                }
            }
            while let Some(e) = peers[i].poll_event() {
                events[i].push(e);
            }
        }
        if !moved {
            break;
        }
    }
    events
}

fn started(events: &[TableEvent]) -> bool {
    events.iter().any(|e| matches!(e, TableEvent::Started(_)))
}

fn names(p: &TableSession) -> Vec<String> {
    p.roster()
        .iter()
        .map(|s| s.as_ref().map_or("-".to_owned(), |s| s.name.clone()))
        .collect()
}

#[test]
fn players_sit_where_they_ask_when_the_seat_is_free() {
    // p1 asks for North, p2 asks for North too (taken: first free), p3 asks for South (the
    // host's: first free).
    let (mut peers, mut log) = held_table([Some(2), Some(2), Some(0)]);
    let events = run(&mut peers, &mut log, 10_000);
    assert_eq!(names(&peers[0]), ["p0", "p2", "p1", "p3"]);
    assert!(
        events.iter().all(|e| !started(e)),
        "a held table waits for its host"
    );
    for p in &peers[1..] {
        assert_eq!(names(p), names(&peers[0]), "every joiner sees the seating");
    }
}

#[test]
fn the_host_chooses_partners_then_starts_with_that_seating() {
    let (mut peers, mut log) = held_table([None, None, None]);
    run(&mut peers, &mut log, 10_000);
    assert_eq!(names(&peers[0]), ["p0", "p1", "p2", "p3"]);
    // South keeps its seat; the others can be swapped.
    let south = Err(TableError::NotNow(NotNow::HostKeepsSouth));
    assert_eq!(peers[0].swap_seats(Seat::S, Seat::N), south);
    assert_eq!(peers[0].swap_seats(Seat::W, Seat::S), south);
    assert_eq!(
        peers[1].swap_seats(Seat::W, Seat::N),
        Err(NotNow::OnlyHostSeats.into()),
        "only the host arranges seats"
    );
    assert_eq!(
        peers[1].request_start(),
        Err(NotNow::OnlyHostStarts.into()),
        "only the host starts"
    );
    assert_eq!(
        peers[1].request_start().unwrap_err().to_string(),
        "only the host can start the game",
        "the words the person sees"
    );
    peers[0].swap_seats(Seat::W, Seat::N).unwrap();
    run(&mut peers, &mut log, 10_000);
    assert_eq!(names(&peers[3]), ["p0", "p2", "p1", "p3"]);
    peers[0].request_start().unwrap();
    let events = run(&mut peers, &mut log, 2_000);
    for (i, e) in events.iter().enumerate() {
        assert!(started(e), "peer {i} started");
    }
    let config = peers[0].config().unwrap();
    assert_eq!(config.names, ["p0", "p2", "p1", "p3"]);
    assert_eq!(
        peers[0].swap_seats(Seat::W, Seat::N),
        Err(NotNow::Started.into()),
        "no seat changes once started"
    );
    assert_eq!(peers[0].request_start(), Err(NotNow::Started.into()));
}

#[test]
fn a_start_asked_before_four_sit_waits_for_the_fourth() {
    let (mut peers, mut log) = held_table([None, None, None]);
    let last = peers.pop().unwrap();
    run(&mut peers, &mut log, 10_000);
    assert_eq!(peers[0].free_seats(), 1);
    peers[0].request_start().unwrap();
    let events = run(&mut peers, &mut log, 10_000);
    assert!(!started(&events[0]));
    peers.push(last);
    let events = run(&mut peers, &mut log, 2_000);
    assert!(started(&events[0]) && started(&events[3]));
}

#[test]
fn a_host_rebuilt_from_its_log_keeps_the_seating_it_chose() {
    let (mut peers, mut log) = held_table([None, None, None]);
    run(&mut peers, &mut log, 10_000);
    peers[0].swap_seats(Seat::W, Seat::E).unwrap();
    run(&mut peers, &mut log, 10_000);
    let (rebuilt, _) = fairdeal_net::node::rebuild(seat(0).0, &log).unwrap();
    assert_eq!(names(&rebuilt), ["p0", "p3", "p2", "p1"]);
    assert!(rebuilt.config().is_none(), "still held after the rebuild");
    // Started, then rebuilt: the same configuration.
    peers[0].request_start().unwrap();
    run(&mut peers, &mut log, 2_000);
    let (rebuilt, _) = fairdeal_net::node::rebuild(seat(0).0, &log).unwrap();
    assert_eq!(rebuilt.config(), peers[0].config());
}

#[test]
fn a_joiner_who_leaves_frees_its_seat_and_a_host_who_leaves_closes_the_table() {
    let (mut peers, mut log) = held_table([None, None, None]);
    run(&mut peers, &mut log, 10_000);
    peers[2].leave().unwrap();
    run(&mut peers, &mut log, 10_000);
    assert_eq!(names(&peers[0]), ["p0", "p1", "-", "p3"]);
    assert_eq!(
        names(&peers[1]),
        ["p0", "p1", "-", "p3"],
        "the others see the free seat"
    );
    // Someone who is not seated cannot free a seat.
    let stranger = Identity::from_secret([99; 32]).public();
    assert_eq!(
        peers[0].handle_message(
            stranger,
            &fairdeal_net::table::msg::TableMsg::Leave.encode()
        ),
        Err(TableError::NotSeated)
    );
    peers[0].leave().unwrap();
    let events = run(&mut peers, &mut log, 10_000);
    for i in [1usize, 3] {
        assert!(
            events[i].iter().any(|e| matches!(e, TableEvent::Closed)),
            "peer {i} hears the table closed"
        );
    }
    assert!(
        !events[2].iter().any(|e| matches!(e, TableEvent::Closed)),
        "p2 had left"
    );
}

#[test]
fn nobody_leaves_a_started_game_by_message() {
    let (mut peers, mut log) = held_table([None, None, None]);
    run(&mut peers, &mut log, 10_000);
    peers[0].request_start().unwrap();
    run(&mut peers, &mut log, 2_000);
    assert_eq!(peers[1].leave(), Err(NotNow::Started.into()));
    let k1 = peers[1].key();
    assert_eq!(
        peers[0].handle_message(k1, &fairdeal_net::table::msg::TableMsg::Leave.encode()),
        Err(Unexpected::AfterStart(MsgKind::Leave).into())
    );
    assert!(peers[0].config().is_some());
}

/// Lobby messages from anyone, in any order, with any seat wish: never a panic, and the host's
/// seating stays sound (the host at South, nobody twice, only people who asked).
///
/// The generator asks for a real seat (0–3) in most wishes, so seats are actually contested;
/// the test counts the joins that seated someone and requires them to be common.
///
/// Sabotage caught (checked): the host seating a joiner at its wished seat without checking
/// that it is free (two people at one seat fails "nobody twice").
#[test]
fn hostile_lobby_traffic_never_breaks_the_seating() {
    use fairdeal_net::table::msg::TableMsg;
    use proptest::prelude::*;
    use std::cell::Cell;

    let people: Vec<([u8; 32], SeatInfo)> = (1..7u8).map(seat).collect();
    // A wish: usually a seat, sometimes none (a number past 3 does not decode as a seat).
    let want = prop_oneof![
        6 => (0usize..4).prop_map(|s| Some(Seat::from_index(s))),
        2 => Just(None),
    ];
    let op = (0usize..6, 0u8..6, want, 0u8..4);
    let (joins, seated, wished) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    proptest!(ProptestConfig::with_cases(200), |(ops in proptest::collection::vec(op, 0..40))| {
        let (s0, i0) = seat(0);
        let mut host = TableSession::host(s0, [1; 32], i0.clone(), None, "t", Preset::Samba, house());
        host.hold_start();
        let mut asked: Vec<PublicKey> = vec![i0.key];
        for (who, kind, want, n) in ops {
            let (_, info) = &people[who];
            let from = info.key;
            let msg = match kind {
                0 => {
                    asked.push(from);
                    TableMsg::Join { seat: info.clone(), want, nonce: [who as u8; 32] }
                }
                // A join in someone else's name.
                1 => TableMsg::Join { seat: people[(who + 1) % 6].1.clone(), want, nonce: [0; 32] },
                2 => TableMsg::Leave,
                3 => TableMsg::Roster {
                    name: "x".into(),
                    preset: Preset::Canasta,
                    house: fairdeal_net::table::msg::House { target: Some(-1), ..Default::default() },
                    seats: [None, Some(info.clone()), None, None],
                    nonces: [[0; 32]; 4],
                },
                4 => {
                    let _ = host.swap_seats(Seat::from_index(usize::from(n)), want.unwrap_or(Seat::S));
                    continue;
                }
                _ => {
                    let _ = host.request_start();
                    continue;
                }
            };
            let is_join = kind == 0;
            let before = host.roster().iter().flatten().count();
            let _ = host.handle_message(from, &msg.encode());
            while host.poll_transmit().is_some() {}
            while host.poll_event().is_some() {}
            let roster = host.roster();
            if is_join {
                joins.set(joins.get() + 1);
                if roster.iter().flatten().count() > before {
                    seated.set(seated.get() + 1);
                    let at = roster.iter().position(|s| s.as_ref().is_some_and(|s| s.key == from));
                    if want.is_some() && at.map(Seat::from_index) == want {
                        wished.set(wished.get() + 1);
                    }
                }
            }
            prop_assert_eq!(roster[0].as_ref().map(|s| s.key), Some(i0.key));
            let keys: Vec<PublicKey> = roster.iter().flatten().map(|s| s.key).collect();
            let mut unique = keys.clone();
            unique.sort_by_key(|k| k.0);
            unique.dedup();
            prop_assert_eq!(unique.len(), keys.len(), "nobody sits twice");
            prop_assert!(keys.iter().all(|k| asked.contains(k)), "only people who asked sit");
        }
    });
    let (joins, seated, wished) = (joins.get(), seated.get(), wished.get());
    eprintln!("lobby: {joins} joins, {seated} seated someone, {wished} at the seat wished");
    assert!(
        seated * 4 >= joins,
        "joins seat someone often enough to test the seating"
    );
    assert!(wished > 0, "wishes for a free seat are granted at times");
}

#[test]
fn names_are_cleaned_and_unreadable_seat_cards_refused() {
    use fairdeal_net::table::clean_name;
    use fairdeal_net::table::msg::TableMsg;
    assert_eq!(clean_name("  Ann \n"), "Ann");
    assert_eq!(clean_name("\u{7}\t"), "Player");
    assert_eq!(clean_name(&"x".repeat(500)).chars().count(), 40);
    let (mut peers, mut log) = held_table([None, None, None]);
    let _ = peers.split_off(1);
    run(&mut peers, &mut log, 100);
    for (name, addrs) in [
        ("x".repeat(41), vec![]),
        (String::new(), vec![]),
        ("bell\u{7}".to_owned(), vec![]),
        ("Ann".to_owned(), vec!["a".repeat(201)]),
        ("Ann".to_owned(), vec!["/ip4/1.2.3.4/tcp/1".to_owned(); 17]),
    ] {
        let (_, mut info) = seat(5);
        info.name = name;
        info.addrs = addrs;
        let from = info.key;
        let msg = TableMsg::Join {
            seat: info,
            want: None,
            nonce: [0; 32],
        }
        .encode();
        assert_eq!(
            peers[0].handle_message(from, &msg),
            Err(Unexpected::BadSeatCard.into())
        );
        assert_eq!(peers[0].free_seats(), 3, "nobody was seated");
    }
}

/// A host replays an old game's configuration: the same four players sit down again for a new
/// game (fresh master secrets), and the host sends them, as its proposal, the signed
/// configuration of their first game, whose hand contexts and acceptances they produced before.
/// No honest player signs it or starts under it: each refuses a configuration without its own
/// fresh nonce, so no hand context of the old game can repeat and no old commitment can be
/// passed off as an equivocation. Nobody is blamed (nothing was played). The honest proposal of
/// the new game then starts, under a new table id.
///
/// Sabotage caught (checked): `on_start` without the nonce check (the players then sign the
/// old configuration and the old game starts again).
#[test]
fn a_host_replaying_an_old_games_configuration_gets_no_signature() {
    let (mut peers, mut log) = held_table([None, None, None]);
    peers[0].request_start().unwrap();
    let events = run(&mut peers, &mut log, 2_000);
    assert!(events.iter().all(|e| started(e)));
    let old = peers[0].config().unwrap().clone();
    // The new game: the same identities, fresh masters.
    let (s0, i0) = seat(0);
    let mut host = TableSession::host(s0, [51; 32], i0, None, "lobby", Preset::Samba, house());
    host.hold_start();
    let mut joiners: Vec<TableSession> = (1..4u8)
        .map(|i| {
            let (s, info) = seat(i);
            let mut p = TableSession::joiner(s, [51 + i; 32], info, None);
            p.join(host.key());
            p
        })
        .collect();
    for p in &mut joiners {
        while let Some((_, bytes)) = p.poll_transmit() {
            host.handle_message(p.key(), &bytes).unwrap();
        }
    }
    let replay = fairdeal_net::table::msg::TableMsg::Start {
        config: old.clone(),
    }
    .encode();
    for p in &mut joiners {
        while p.poll_transmit().is_some() {}
        assert_eq!(
            p.handle_message(host.key(), &replay),
            Err(TableError::NotOurNonce)
        );
        assert!(p.config().is_none(), "{:?} took the old configuration", p);
        assert!(
            std::iter::from_fn(|| p.poll_transmit()).next().is_none(),
            "nothing signed"
        );
        assert!(!std::iter::from_fn(|| p.poll_event()).any(|e| started(&[e])));
    }
    // The honest proposal carries every seat's new nonce and starts, under a new table id.
    let mut peers: Vec<TableSession> = std::iter::once(host).chain(joiners).collect();
    peers[0].request_start().unwrap();
    let events = run(&mut peers, &mut Vec::new(), 2_000);
    assert!(events.iter().all(|e| started(e)));
    let new = peers[0].config().unwrap();
    assert_ne!(new.sid(), old.sid());
    assert!((0..4).all(|i| new.nonces[i] != old.nonces[i]));
    assert_eq!(new.nonces[2], peers[2].nonce());
}

/// A host proposes a configuration no table can play: the first dealer is seat 7 (which a
/// seat number wrapped modulo 4 would make East), or one player sits in two seats. Nobody
/// signs it, with the reason (a dealer past 3 does not even decode); nothing starts.
///
/// Sabotage caught (checked): `on_start` without the player check, and the configuration's
/// dealer read as a plain byte (the players then sign and start, East dealing).
#[test]
fn a_configuration_with_a_seat_past_three_or_a_player_twice_is_not_signed() {
    use fairdeal_core::Seat;
    use fairdeal_net::table::msg::{TableConfig, TableMsg};
    // The dealer's byte, found as the one byte in which two proposals that differ only in
    // their dealer differ, set to 7.
    fn dealer_seven(c: &TableConfig) -> Vec<u8> {
        let with = |d| {
            TableMsg::Start {
                config: TableConfig {
                    first_dealer: d,
                    ..c.clone()
                },
            }
            .encode()
        };
        let (mut south, east) = (with(Seat::S), with(Seat::E));
        let at: Vec<usize> = (0..south.len()).filter(|&i| south[i] != east[i]).collect();
        assert_eq!(at.len(), 1, "the dealer is one byte");
        south[at[0]] = 7;
        south
    }
    fn twice(c: &TableConfig) -> Vec<u8> {
        let mut c = c.clone();
        c.seats[3] = c.seats[1];
        TableMsg::Start { config: c }.encode()
    }
    type Spoil = fn(&TableConfig) -> Vec<u8>;
    type Why = fn(&TableError) -> bool;
    let bad: [(Spoil, Why); 2] = [
        (dealer_seven, |e| matches!(e, TableError::Decode(_))),
        (twice, |e| *e == TableError::PlayerInTwoSeats),
    ];
    for (spoil, why) in bad {
        let (mut peers, _) = held_table([None, None, None]);
        run(&mut peers, &mut Vec::new(), 2_000); // everyone seated
        peers[0].request_start().unwrap();
        let start = std::iter::from_fn(|| peers[0].poll_transmit())
            .find_map(|(_, bytes)| match TableMsg::decode(&bytes) {
                Ok(TableMsg::Start { config }) => Some(config),
                _ => None,
            })
            .expect("the host proposes a configuration");
        let msg = spoil(&start);
        let host = peers[0].key();
        for p in &mut peers[1..3] {
            while p.poll_transmit().is_some() {}
            let err = p.handle_message(host, &msg).expect_err("refused");
            assert!(why(&err), "{err:?}");
            assert!(p.config().is_none());
            assert!(
                std::iter::from_fn(|| p.poll_transmit()).next().is_none(),
                "signed"
            );
        }
        // The unspoilt proposal is signed (the test would pass for any refusal otherwise).
        let good = TableMsg::Start { config: start }.encode();
        assert_eq!(peers[1].handle_message(host, &good), Ok(()));
        assert!(peers[1].config().is_some());
    }
}
