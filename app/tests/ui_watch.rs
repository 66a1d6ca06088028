//! The window's Watch view (egui_kittest, no GPU): a game of four computer players played in
//! one process, each seat's view kept after every move it saw; a spectator's session takes
//! seat 0's stream entry by entry and the Watch view draws what it reports. After every move
//! the table drawn is what the seats saw after that move (the same public table), every hand
//! is face down, the move list ends with the move, and at the end of the hand its score sheet
//! shows the spectator's own "Deal verified" line.

use std::collections::BTreeMap;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::intent::Intent;
use fairdeal::gui::prefs::TablePrefs;
use fairdeal::gui::watch::Watching;
use fairdeal_core::{HouseRules, Preset, PublicState, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::hand::Event as HandEvent;
use fairdeal_net::node::watch::{WatchUpdate, drain};
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, TableEvent, TableSession};
use fairdeal_net::transcript::Entry;
use fairdeal_net::watch::{Watch, WatchEvent};

/// What the seats saw after the `k`-th move of a hand: the public table.
type Seen = BTreeMap<(u32, usize), Vec<(Seat, PublicState)>>;

fn table() -> Vec<TableSession> {
    let card = |i: u8| {
        let secret = [i + 141; 32];
        let info = SeatInfo {
            key: Identity::from_secret(secret).public(),
            name: format!("p{i}"),
            bot: true,
            addrs: Vec::new(),
        };
        (secret, info)
    };
    let house = HouseRules {
        target: Some(50),
        ..HouseRules::default()
    };
    let (s0, c0) = card(0);
    let mut peers = vec![TableSession::host(
        s0,
        [130; 32],
        c0,
        Some("expert"),
        "watched",
        Preset::Samba,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, c) = card(i);
        let mut p = TableSession::joiner(s, [130 + i; 32], c, Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    peers
}

fn see(p: &mut TableSession, moves: &mut BTreeMap<u32, usize>, seen: &mut Seen) {
    let mut last = None;
    while let Some(ev) = p.poll_event() {
        last = match ev {
            TableEvent::Hand {
                hand_no,
                event: HandEvent::Moved { .. },
            } => {
                let n = moves.entry(hand_no).or_default();
                *n += 1;
                Some((hand_no, *n))
            }
            _ => None,
        };
    }
    if let (Some(at), Some(v)) = (last, p.view()) {
        let e = seen.entry(at).or_default();
        e.push((v.seat(), v.position().public_state()));
    }
}

/// Plays the game; seat 0's stream and what every seat saw.
fn play() -> (Vec<Entry>, Seen) {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut stream = Vec::new();
    let mut seen = Seen::new();
    let mut moves: Vec<BTreeMap<u32, usize>> = vec![BTreeMap::new(); 4];
    loop {
        let mut busy = false;
        for i in 0..4 {
            stream.extend(std::iter::from_fn(|| peers[0].poll_public()));
            see(&mut peers[i], &mut moves[i], &mut seen);
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                busy = true;
                let to: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in to {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                    see(&mut peers[j], &mut moves[j], &mut seen);
                }
            }
        }
        if !busy {
            break;
        }
    }
    stream.extend(std::iter::from_fn(|| peers[0].poll_public()));
    (stream, seen)
}

struct State {
    fonts: bool,
    watching: Watching,
    prefs: TablePrefs,
    out: Vec<Intent>,
}

fn shows(h: &Harness<'_, State>, text: &str) -> bool {
    h.get_all_by(|_| true).any(|n| {
        let node = n.accesskit_node();
        node.label().is_some_and(|l| l.contains(text))
            || node.value().is_some_and(|v| v.contains(text))
    })
}

/// The watch view of a table called "watched" at 1280×800, fed through the sender.
fn watch_window() -> (
    tokio::sync::mpsc::Sender<WatchUpdate>,
    Harness<'static, State>,
) {
    let (tx, rx) = tokio::sync::mpsc::channel(100_000);
    let state = State {
        fonts: false,
        watching: Watching::fed("watched", rx),
        prefs: TablePrefs::default(),
        out: Vec::new(),
    };
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(
            |ui, s: &mut State| {
                if !s.fonts {
                    fairdeal::gui::install_fonts(ui.ctx());
                    s.fonts = true;
                    return;
                }
                s.watching.ui(ui, &mut s.prefs, &mut s.out);
            },
            state,
        );
    h.step();
    (tx, h)
}

/// Sabotage caught (checked): the table left as dealt, not moved on after each move.
#[test]
fn the_watch_view_shows_the_public_table_after_every_checked_move() {
    let (stream, seen) = play();
    let (tx, mut h) = watch_window();
    let mut w = Watch::new();
    let mut checked = 0;
    let mut moves = 0;
    let mut hand_no = 0;
    for e in stream {
        w.take(e).unwrap();
        let updates = drain(&mut w);
        let moved = updates.iter().find_map(|u| match u {
            WatchUpdate::Event(WatchEvent::Moved { seat, mv, .. }) => {
                Some(fairdeal::gui::move_words::onlooker_line(mv, *seat))
            }
            _ => None,
        });
        let verified = updates
            .iter()
            .any(|u| matches!(u, WatchUpdate::Event(WatchEvent::Verified(_))));
        for u in updates {
            tx.try_send(u).unwrap();
        }
        if moved.is_none() && !verified {
            continue;
        }
        h.step();
        let (n, k) = w.progress().unwrap();
        if n != hand_no {
            (hand_no, moves) = (n, 0);
        }
        if let Some(words) = moved {
            moves += 1;
            assert_eq!(k, moves);
            let watching = &h.state().watching;
            let view = watching.view().unwrap();
            assert!(view.hand().iter().all(|c| c.is_hidden()), "a card shown");
            for s in Seat::ALL {
                assert!(
                    view.position().hand(s).iter().all(|c| c.is_hidden()),
                    "{s:?}'s card shown"
                );
            }
            if let Some(saw) = seen.get(&(n, k)) {
                for (seat, public) in saw {
                    assert_eq!(
                        &view.position().public_state(),
                        public,
                        "{seat:?} at {n}/{k}"
                    );
                    checked += 1;
                }
            }
            // The window adds what it saw the move do (new melds' numbers, canastas).
            let last = watching.log().last().cloned().unwrap_or_default();
            assert!(
                last.starts_with(&words),
                "the move list ends {last:?}, not {words:?}"
            );
        }
        if verified {
            for _ in 0..3 {
                h.step();
            }
            assert!(
                shows(&h, "Deal verified"),
                "the score sheet at the end of hand {n}"
            );
        }
    }
    assert!(checked > 50, "compared with the seats at {checked} points");
    assert!(shows(&h, "Watching watched"));
    // The game is over (to 50): a spectator's sheet only closes, and then the end is said
    // with who won, and the way back.
    assert!(!shows(&h, "Next hand"), "a spectator deals nothing");
    h.get_by_label("Close (Enter)").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(shows(&h, "Game over"), "the end of the game is said");
    assert!(
        shows(&h, " win, ") || shows(&h, "A drawn game"),
        "with who won"
    );
    assert!(shows(&h, "Back to the start"));
    assert!(!shows(&h, "Play again") && !shows(&h, "Open a new table"));
}

/// Every text the window shows (labels and values), for a look at its words.
fn texts(h: &Harness<'_, State>) -> Vec<String> {
    h.get_all_by(|_| true)
        .flat_map(|n| {
            let node = n.accesskit_node();
            [node.label(), node.value()]
        })
        .flatten()
        .map(|t| t.to_string())
        .collect()
}

/// Sabotage caught (checked): the table drawn as if the window sat at South ("We 0",
/// "Our melds", "Your hand", "(partner)", the plan's drop zone, the chat line) and its Leave
/// opening the player's question.
#[test]
fn the_onlooker_table_speaks_of_seats_and_leaves_at_once() {
    let (stream, _) = play();
    let (tx, mut h) = watch_window();
    let mut w = Watch::new();
    let mut looked = 0;
    for e in stream {
        w.take(e).unwrap();
        let mut melded = false;
        for u in drain(&mut w) {
            melded |= matches!(
                &u,
                WatchUpdate::Event(WatchEvent::Moved {
                    mv: fairdeal_core::Move::Meld(_),
                    ..
                })
            );
            tx.try_send(u).unwrap();
        }
        if !melded {
            continue;
        }
        h.step();
        h.step();
        let all = texts(&h);
        for word in [
            "Your hand",
            "Our melds",
            "We ",
            "partner",
            "opponent",
            "drop",
            "for us",
        ] {
            assert!(
                !all.iter().any(|t| t.contains(word)),
                "{word:?} shown to an onlooker: {:?}",
                all.iter().find(|t| t.contains(word))
            );
        }
        assert!(all.iter().any(|t| t.contains("South's hand (")), "{all:?}");
        assert!(
            all.iter()
                .any(|t| t.contains("South and North's melds")
                    || t.contains("West and East's melds")),
            "{all:?}"
        );
        assert!(all.iter().any(|t| t.contains("p0 + p2")), "{all:?}");
        assert!(all.iter().any(|t| t.contains("Only the players chat")));
        assert!(!all.iter().any(|t| t.contains("Say something")));
        assert!(shows(&h, "every hand is face down"));
        let log = h.state().watching.log().join("\n");
        for word in ["our ", "their ", "ours", "theirs"] {
            assert!(!log.contains(word), "{word:?} in the log: {log}");
        }
        looked += 1;
        if looked == 3 {
            break;
        }
    }
    assert_eq!(looked, 3, "melds seen on the watched table");
    h.get_by_label("Leave the table").click();
    h.step();
    h.step();
    assert!(
        h.state()
            .out
            .iter()
            .any(|i| matches!(i, Intent::CloseWatch)),
        "{:?}",
        h.state().out
    );
    assert!(
        !shows(&h, "Leave the table?"),
        "the player's question was asked"
    );
    assert!(!shows(&h, "still counts"));
}
