//! The window's replay (egui_kittest, no GPU): a game of four computer players played in one
//! process, each seat's view kept after every move it saw; its transcript opened with "Open a
//! game file…" steps forward and back, and after every move the table shows what the seats
//! saw after that move (the same public table, every hand face down), the same hands as the
//! seats held, the move in the move list, and the score sheet at the end of the hand.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{harness, shows, wait_for};
use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal_core::{Cards, HouseRules, PlayerView, Preset, PublicState, Seat};
use fairdeal_crypto::{Identity, PublicKey};
use fairdeal_net::hand::Event as HandEvent;
use fairdeal_net::table::msg::SeatInfo;
use fairdeal_net::table::{Dest, TableEvent, TableSession};
use fairdeal_net::transcript::MAGIC;

/// What one seat saw after the `k`-th move of a hand: the public table and its own hand.
type Seen = BTreeMap<(u32, usize), Vec<(Seat, PublicState, Cards)>>;

fn table() -> Vec<TableSession> {
    let card = |i: u8| {
        let secret = [i + 41; 32];
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
        [30; 32],
        c0,
        Some("expert"),
        "replayed",
        Preset::Samba,
        house,
    )];
    let host = peers[0].key();
    for i in 1..4u8 {
        let (s, c) = card(i);
        let mut p = TableSession::joiner(s, [30 + i; 32], c, Some("greedy"));
        p.join(host);
        peers.push(p);
    }
    peers
}

/// Takes `p`'s events; when the last of them is a move, what `p` sees now is kept as what it
/// saw after that move (the count of the hand's moves it has seen).
fn drain(p: &mut TableSession, moves: &mut BTreeMap<u32, usize>, seen: &mut Seen) {
    let mut last_moved = None;
    while let Some(ev) = p.poll_event() {
        last_moved = match ev {
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
    if let (Some(at), Some(v)) = (last_moved, p.view()) {
        seen.entry(at)
            .or_default()
            .push((v.seat(), v.position().public_state(), v.hand().clone()));
    }
}

/// Takes `p`'s transcript entries, written to `file` when `p` is seat 0's peer.
fn keep(p: &mut TableSession, file: &mut Vec<u8>, first: bool) {
    while let Some(e) = p.poll_public() {
        if first {
            file.extend_from_slice(&e.to_record());
        }
    }
}

/// Plays the game to its end; returns seat 0's transcript and what every seat saw.
fn play() -> (Vec<u8>, Seen) {
    let mut peers = table();
    let keys: Vec<PublicKey> = peers.iter().map(TableSession::key).collect();
    let mut file = MAGIC.to_vec();
    let mut seen = Seen::new();
    let mut moves: Vec<BTreeMap<u32, usize>> = vec![BTreeMap::new(); 4];
    loop {
        let mut busy = false;
        for i in 0..4 {
            keep(&mut peers[i], &mut file, i == 0);
            drain(&mut peers[i], &mut moves[i], &mut seen);
            while let Some((dest, bytes)) = peers[i].poll_transmit() {
                busy = true;
                let to: Vec<usize> = match dest {
                    Dest::Peer(k) => keys.iter().position(|x| *x == k).into_iter().collect(),
                    Dest::Seats => (0..4).filter(|&j| j != i).collect(),
                };
                for j in to {
                    let _ = peers[j].handle_message(keys[i], &bytes);
                    drain(&mut peers[j], &mut moves[j], &mut seen);
                    keep(&mut peers[j], &mut file, j == 0);
                }
            }
        }
        if !busy {
            break;
        }
    }
    (file, seen)
}

/// The replay's cursor, and checks that the table drawn now is what the seats saw.
fn check_here(h: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>, seen: &Seen) {
    let r = h.state().replay().expect("a replay is shown");
    let (hand, at) = r.cursor();
    let hand_no = r.playback().hands[hand].hand_no;
    let view = r.view().expect("a view of the table");
    // Public: nobody's card is shown, South's included.
    assert!(view.hand().iter().all(|c| c.is_hidden()), "a card shown");
    // Nor is the table told as South's: the file is no seat's.
    for word in [
        "Your hand",
        "Our melds",
        "We ",
        "partner",
        "opponent",
        "drop here",
        "for us",
    ] {
        let found: Vec<String> = h
            .get_all_by(|_| true)
            .flat_map(|n| {
                let node = n.accesskit_node();
                [node.label(), node.value()]
                    .into_iter()
                    .flatten()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
            })
            .filter(|l| l.contains(word))
            .collect();
        assert!(found.is_empty(), "{word:?} in the public replay: {found:?}");
    }
    assert!(
        shows(h, "South's hand ("),
        "the bottom hand named by its seat"
    );
    if let Some(saw) = seen.get(&(hand_no, at)) {
        for (seat, public, own) in saw {
            assert_eq!(
                &view.position().public_state(),
                public,
                "hand {hand_no} after move {at}: the replay is not what {seat:?} saw"
            );
            let pos = r.position().expect("the position");
            assert_eq!(
                PlayerView::new(pos, *seat).hand(),
                own,
                "hand {hand_no} after move {at}: {seat:?}'s hand"
            );
        }
    }
    if at > 0 {
        let step = &r.playback().hands[hand].steps[at - 1];
        let words = fairdeal::gui::move_words::onlooker_line(&step.mv, step.seat);
        // The window adds what it saw the move do (new melds' numbers, canastas).
        let last = r.log().last().map(String::as_str).unwrap_or_default();
        assert!(
            last.starts_with(&words),
            "the move list ends {last:?}, not {words:?}"
        );
    }
}

/// Sabotage caught (checked): the replay's view South's own (`PlayerView::new`: a card face
/// up); the table rebuilt one move behind (not what the seats saw).
#[test]
fn a_transcript_replays_forward_and_back_as_the_seats_saw_it() {
    let (file, seen) = play();
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("transcript.fdt");
    std::fs::write(&path, &file).unwrap();

    let mut h = harness(31);
    h.step();
    h.get_by_label("Open a game file…").click();
    wait_for(&mut h, "Game file", Duration::from_secs(5));
    h.get_by_label("Game file").click();
    h.step();
    h.get_by_label("Game file")
        .type_text(&path.display().to_string());
    h.step();
    h.get_by_label("Open").click();
    wait_for(&mut h, "Replay: hand 1", Duration::from_secs(120));
    assert!(
        shows(&h, "The game verifies."),
        "the verify report beside it"
    );
    let n = h.state().replay().unwrap().playback().hands[0].steps.len();
    assert!(n > 10, "a hand of {n} moves");
    // At 1024×700 the bar keeps "Move 0 of n" on the screen, and a replay has nothing to
    // leave but its Back.
    h.set_size(egui::vec2(1024.0, 700.0));
    for _ in 0..3 {
        h.step();
    }
    let at = h.get_by_label(&format!("Move 0 of {n}")).rect();
    assert!(at.right() <= 1024.0, "\"Move 0 of {n}\" cut at {at:?}");
    assert!(
        !shows(&h, "Leave the table"),
        "a replay offers to leave a table"
    );
    h.set_size(egui::vec2(1180.0, 780.0));
    h.step();
    let mut compared = 0;
    // Forward, move by move, to the end of the hand.
    for k in 1..=n {
        h.key_press(egui::Key::ArrowRight);
        h.step();
        assert_eq!(h.state().replay().unwrap().cursor(), (0, k));
        check_here(&h, &seen);
        compared += usize::from(seen.contains_key(&(1, k)));
    }
    assert!(
        compared * 2 > n,
        "the seats' views after {compared} of {n} moves"
    );
    assert!(shows(&h, &format!("Move {n} of {n}")));
    assert!(
        shows(&h, "Hand 1: score sheet"),
        "the score sheet at the hand's end"
    );
    assert!(shows(&h, "Deal verified"));
    // Back, move by move, then by turns, then to the hand's start.
    for k in (n - 5..n).rev() {
        h.key_press(egui::Key::ArrowLeft);
        h.step();
        assert_eq!(h.state().replay().unwrap().cursor(), (0, k));
        check_here(&h, &seen);
    }
    let before = h.state().replay().unwrap().cursor().1;
    h.key_press(egui::Key::PageUp);
    h.step();
    let after = h.state().replay().unwrap().cursor().1;
    assert!(after < before, "a turn back: {before} → {after}");
    {
        let r = h.state().replay().unwrap();
        let steps = &r.playback().hands[0].steps;
        // The table between two seats' turns.
        assert!(after == 0 || steps[after - 1].seat != steps[after].seat);
    }
    check_here(&h, &seen);
    h.key_press(egui::Key::PageDown);
    h.step();
    assert!(
        h.state().replay().unwrap().cursor().1 > after,
        "a turn forward"
    );
    check_here(&h, &seen);
    h.key_press(egui::Key::Home);
    h.step();
    assert_eq!(h.state().replay().unwrap().cursor(), (0, 0));
    check_here(&h, &seen);
    h.key_press(egui::Key::End);
    h.step();
    assert_eq!(h.state().replay().unwrap().cursor(), (0, n));
    // The buttons do what the keys do.
    h.get_by_label("‹ Move (←)").click();
    h.step();
    assert_eq!(h.state().replay().unwrap().cursor(), (0, n - 1));
    check_here(&h, &seen);
    h.get_by_label("Back").click();
    h.step();
    h.step();
    assert!(h.state().replay().is_none());
    assert!(shows(&h, "Open a game file…"), "the start screen again");
}
