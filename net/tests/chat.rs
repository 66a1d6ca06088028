//! Table chat from peers, property-tested at the gate and the handler: whatever a peer sends
//! (any text, any number, signed by anyone, as fast as it likes), a line is shown only when it
//! is clean, short, new, signed by its sender and within the rate; the gate and the handler
//! agree; nothing of it is ever stored in the log; the table keeps a bounded number of lines.

use fairdeal_core::{HouseRules, Preset};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::table::chat::{
    CHAT_BURST, CHAT_HEARD_BURST, CHAT_HELD, CHAT_LINES, CHAT_REFILL_MS, MAX_CHAT, clean_chat,
};
use fairdeal_net::table::msg::{SeatInfo, Statement, TableMsg};
use fairdeal_net::table::{
    Admit, ChatRefused, Dest, NotNow, TableError, TableEvent, TableSession, Unexpected,
};
use proptest::prelude::*;

fn secret(i: u8) -> [u8; 32] {
    [i + 121; 32]
}

/// Four people seated (nobody moves): the game has started, the first hand waits on South.
fn started() -> Vec<TableSession> {
    let card = |i: u8| SeatInfo {
        key: Identity::from_secret(secret(i)).public(),
        name: format!("p{i}"),
        bot: false,
        addrs: Vec::new(),
    };
    let mut peers = vec![TableSession::host(
        secret(0),
        [9; 32],
        card(0),
        None,
        "chat",
        Preset::Samba,
        HouseRules::default(),
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let mut p = TableSession::joiner(secret(i), [9 + i; 32], card(i), None);
        p.join(host);
        peers.push(p);
    }
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    loop {
        let mut moved = false;
        for i in 0..4 {
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                moved = true;
                let to: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in to {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                }
            }
        }
        if !moved {
            break;
        }
    }
    assert!(
        peers.iter().all(|p| p.config().is_some()),
        "the game started"
    );
    peers
}

/// One chat message a peer might send.
#[derive(Debug, Clone)]
struct Line {
    /// The transport's sender (0–3 seated, 4 a stranger).
    from: u8,
    /// Whose key signs it (0–4).
    signer: u8,
    /// The seat it is signed for (0–3).
    seat: u8,
    /// The line number: the sender's next, or any.
    n: Option<u32>,
    text: String,
    /// Simulated ms before it arrives.
    wait: u64,
}

fn line() -> impl Strategy<Value = Line> {
    let text = prop_oneof![
        3 => "[a-zA-Z ,.!?]{1,40}",
        1 => "\\PC{0,260}",
        1 => "[ \\t\\n\\r\u{7}\u{1b}a-z]{0,30}",
        1 => Just(String::new()),
        1 => Just("x".repeat(MAX_CHAT + 1)),
    ];
    (
        0..5u8,
        prop_oneof![4 => Just(None), 1 => (0..5u8).prop_map(Some)],
        prop_oneof![4 => Just(None), 1 => (0..4u8).prop_map(Some)],
        prop_oneof![4 => Just(None), 1 => any::<u32>().prop_map(Some)],
        text,
        prop_oneof![3 => Just(0u64), 1 => 0..5_000u64],
    )
        .prop_map(|(from, signer, seat, n, text, wait)| Line {
            from,
            signer: signer.unwrap_or(from),
            seat: seat.unwrap_or(from.min(3)),
            n,
            text,
            wait,
        })
}

/// What the property test carries from case to case (one table, one clock).
struct State {
    peer: TableSession,
    now: u64,
    next_n: [u32; 5],
    /// When each seat's lines were shown.
    shown: Vec<Vec<u64>>,
    shown_total: usize,
    refused_total: usize,
}

#[test]
fn chat_from_peers_is_shown_only_clean_signed_new_and_within_the_rate() {
    // Peer 0 (South) hears from the others.
    let peer = started().swap_remove(0);
    let sid = peer.config().unwrap().sid();
    let keys: Vec<PublicKey> = (0..5u8)
        .map(|i| Identity::from_secret(secret(i)).public())
        .collect();
    let state = std::cell::RefCell::new(State {
        peer,
        now: 0,
        next_n: [1; 5],
        shown: vec![Vec::new(); 4],
        shown_total: 0,
        refused_total: 0,
    });
    proptest!(ProptestConfig::with_cases(64), |(lines in proptest::collection::vec(line(), 1..100))| {
        let st = &mut *state.borrow_mut();
        for l in &lines {
            st.now += l.wait;
            st.peer.handle_timeout(st.now);
            while st.peer.poll_event().is_some() {}
            let n = l.n.unwrap_or(st.next_n[usize::from(l.from)]);
            let sig = Identity::from_secret(secret(l.signer))
                .sign(&Statement::Chat { seat: fairdeal_core::Seat::from_index(usize::from(l.seat)), n, text: &l.text }.digest(&sid));
            let bytes = TableMsg::Chat { n, text: l.text.clone(), sig }.encode();
            let from = keys[usize::from(l.from)];
            let admitted = st.peer.admit(from, &bytes);
            prop_assert_ne!(admitted, Ok(Admit::Store), "chat is never logged");
            let handled = st.peer.handle_message(from, &bytes);
            prop_assert_eq!(admitted.is_ok(), handled.is_ok(), "gate and handler agree");
            let shown: Vec<_> = std::iter::from_fn(|| st.peer.poll_event())
                .filter_map(|e| match e {
                    TableEvent::Chat(c) => Some(c),
                    _ => None,
                })
                .collect();
            if handled.is_ok() {
                st.shown_total += 1;
                st.next_n[usize::from(l.from)] = n.saturating_add(1);
                prop_assert_eq!(shown.len(), 1);
                let c = &shown[0];
                prop_assert!(l.from < 4 && l.from != 0, "from a seated peer, not ourselves");
                prop_assert_eq!(l.signer, l.from, "signed by its sender");
                prop_assert_eq!(l.seat, l.from, "for its sender's seat");
                prop_assert_eq!(c.seat.index(), usize::from(l.from));
                prop_assert_eq!(&c.text, &l.text);
                prop_assert_eq!(clean_chat(&c.text), c.text.clone(), "clean");
                prop_assert!(!c.text.is_empty() && c.text.chars().count() <= MAX_CHAT);
                let now = st.now;
                let times = &mut st.shown[usize::from(l.from)];
                times.push(now);
                // Never more than the (heard) burst plus one a refill interval over any stretch.
                for (k, &t) in times.iter().enumerate() {
                    let lines = (times.len() - k) as u64;
                    let allowed = u64::from(CHAT_HEARD_BURST) + (now - t) / CHAT_REFILL_MS;
                    prop_assert!(lines <= allowed, "{} lines in {} ms", lines, now - t);
                }
            } else {
                st.refused_total += 1;
                prop_assert!(shown.is_empty());
            }
            prop_assert!(st.peer.chat_lines().count() <= CHAT_LINES);
        }
    });
    // Both outcomes are common whatever the case count (`PROPTEST_CASES` overrides it): each
    // is at least a twentieth of the lines tried.
    let st = state.borrow();
    let tried = st.shown_total + st.refused_total;
    assert!(
        st.shown_total * 20 > tried,
        "valid lines are shown ({} of {tried})",
        st.shown_total
    );
    assert!(
        st.refused_total * 20 > tried,
        "invalid ones are refused ({} of {tried})",
        st.refused_total
    );
    // Past `CHAT_LINES` shown, the oldest went.
    assert_eq!(
        st.peer.chat_lines().count(),
        st.shown_total.min(CHAT_LINES),
        "the oldest went"
    );
}

/// Sabotage caught: a chat line kept in the game log (or treated as a game message) would
/// change what the log replays; this one never reaches it, and the hand is as before.
#[test]
fn our_own_line_reaches_the_others_and_changes_nothing_in_the_game() {
    let mut peers = started();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let before: Vec<_> = peers.iter().map(TableSession::ack).collect();
    peers[1].say("  Good\u{7} game  ").unwrap();
    assert_eq!(
        peers[1].say(" \n "),
        Err(NotNow::NothingToSay.into()),
        "nothing to say"
    );
    let (_, bytes) = peers[1].poll_transmit().unwrap();
    for j in [0usize, 2, 3] {
        assert_eq!(peers[j].admit(keys[1], &bytes), Ok(Admit::Show));
        peers[j].handle_message(keys[1], &bytes).unwrap();
        let got: Vec<_> = peers[j].chat_lines().map(|l| l.text.clone()).collect();
        assert_eq!(got, ["Good game"]);
        assert_eq!(
            peers[j].handle_message(keys[1], &bytes),
            Err(TableError::Unexpected(Unexpected::Chat(ChatRefused::Again))),
            "the same line again is a replay"
        );
    }
    let after: Vec<_> = peers.iter().map(TableSession::ack).collect();
    assert_eq!(before, after, "no game state changed");
}

/// Lines one peer sends to another, delivered at once: what the receiver shows.
fn deliver(peers: &mut [TableSession], from: usize, to: usize) -> Vec<String> {
    let key = peers[from].key();
    while let Some((_, bytes)) = peers[from].poll_transmit() {
        let _ = peers[to].handle_message(key, &bytes);
    }
    std::iter::from_fn(|| peers[to].poll_event())
        .filter_map(|e| match e {
            TableEvent::Chat(c) => Some(c.text),
            _ => None,
        })
        .collect()
}

/// Sabotage caught: with the lines past the burst refused (the old rule), the sixth of
/// several quick lines showed in the sender's chat and reached nobody; with the others
/// taking no more than the sender's own burst, lines the network bunched were dropped.
#[test]
fn lines_past_the_rate_are_held_and_sent_as_it_allows_and_none_is_lost_on_the_way() {
    let mut peers = started();
    for p in &mut peers {
        p.handle_timeout(1);
        while p.poll_event().is_some() {}
    }
    let burst = usize::try_from(CHAT_BURST).unwrap();
    let said: Vec<String> = (0..burst + CHAT_HELD)
        .map(|i| format!("line {i}"))
        .collect();
    for text in &said {
        peers[1].say(text).expect("held, not refused");
    }
    let mine: Vec<String> = peers[1].chat_lines().map(|l| l.text.clone()).collect();
    assert_eq!(mine, said, "the sender sees every line at once, in order");
    assert_eq!(peers[1].chat_held(), CHAT_HELD);
    assert_eq!(
        peers[1].say("one too many"),
        Err(NotNow::ChatTooFast.into()),
        "past what is held, the sender is told"
    );
    // The network holds back what goes at the rate and hands it all over at the end.
    let mut sent = 0;
    let mut now = 1;
    while peers[1].chat_held() > 0 {
        now += CHAT_REFILL_MS;
        peers[1].handle_timeout(now);
        sent += 1;
        assert!(sent <= CHAT_HELD, "one held line a refill interval");
    }
    assert_eq!(sent, CHAT_HELD);
    peers[2].handle_timeout(now);
    let got = deliver(&mut peers, 1, 2);
    assert_eq!(got, said, "every line the sender saw reaches the others");
}
