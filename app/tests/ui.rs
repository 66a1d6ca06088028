//! The real app driven through its accessibility tree (egui_kittest, no GPU): start a local
//! game, draw, have a plan refused with its reason, play a legal meld, discard, and play on
//! until the hand's score sheet shows the verified deal.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::controller::Timing;

use common::{
    hand, harness, harness_in, labels, leave_now, shows, start_with_two_computer_players,
    step_both, table_with_a_guest, table_with_a_guest_timed, wait_for, wait_for_with,
};

#[test]
fn play_a_hand_through_the_window() {
    // The deal follows from the table id, so from the configuration's bytes: a change of
    // encoding (or of the shuffle's derivation) deals another hand, and the seed may need
    // choosing again (2: the hints offer a meld in the first hand).
    let mut h = harness(2);
    h.step();
    h.get_by_label("Play now").click();
    h.step();
    // Our first turn: draw.
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    h.get_by_label("Draw (D)").click();
    wait_for(&mut h, "Discard selected (X)", Duration::from_secs(60));
    // A plan of two cards is refused, with the reason in words.
    let cards = hand(&h);
    assert!(cards.len() >= 10, "the hand shows its cards: {cards:?}");
    // Two cards of different ranks: never a meld.
    let first = cards[0].clone();
    let rank = |s: &str| s.chars().next();
    let second = cards
        .iter()
        .find(|c| rank(c) != rank(&first))
        .cloned()
        .unwrap();
    let first_two = [first, second];
    plan_new_meld(&mut h, &first_two);
    // An illegal plan is not offered: its button is disabled and the reason is shown.
    assert!(
        h.get_by_label_contains("Play plan")
            .accesskit_node()
            .is_disabled(),
        "an illegal plan cannot be played"
    );
    h.get_by_label_contains("Play plan").click();
    h.step();
    h.step();
    assert!(shows(&h, "Not allowed:"), "a refused plan says why");
    // Where it can be read: in the window, left of the move list (at the end of the plan's
    // row it was scrolled out of sight).
    let why = h.get_by_label_contains("Not allowed:").rect();
    let moves = h.get_by_label("Moves").rect();
    assert!(
        why.left() >= 0.0 && why.right() <= moves.left() && why.bottom() <= 780.0,
        "the reason shows at {why:?}, the move list starts at {moves:?}"
    );
    // Undo takes the plan back, and with it the refusal (it stayed on, about nothing).
    h.get_by_label("Undo last planned (U)").click();
    h.step();
    h.step();
    assert!(!shows(&h, "Not allowed:"), "the refusal went with the plan");
    plan_new_meld(&mut h, &first_two);
    // A discard while cards are planned waits, and says why (it ended the turn and put the
    // plan back in the hand without a word).
    let one = hand(&h)[0].clone();
    h.get_all_by_label(&one).next().unwrap().click();
    h.step();
    h.key_press(egui::Key::X);
    h.step();
    h.step();
    assert!(
        shows(&h, "Play the plan first (Enter) or undo it (U)"),
        "{:?}",
        labels(&h)
    );
    assert!(shows(&h, "Discard selected (X)"), "still this turn");
    h.get_all_by_label(&one).next().unwrap().click();
    h.step();
    // A longer plan (more groups of two, until the row is too short for them): its buttons
    // stay in sight, at the start of the row (after the groups they scrolled out of it). At
    // 1024 wide, where the row is shortest, a hand's worth of groups is longer than it.
    h.set_size(egui::vec2(1024.0, 700.0));
    h.step();
    h.step();
    let moves = h.get_by_label("Moves").rect();
    let planned_right = |h: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>| {
        h.get_all_by_label_contains("planned")
            .map(|n| n.rect().right())
            .fold(f32::MIN, f32::max)
    };
    let mut groups = 1;
    while groups < 7 && planned_right(&h) <= moves.left() {
        let two: Vec<String> = hand(&h).into_iter().take(2).collect();
        plan_new_meld(&mut h, &two);
        groups += 1;
    }
    assert!(
        planned_right(&h) > moves.left(),
        "{groups} planned groups fit the row: nothing to scroll"
    );
    for button in ["Undo last planned (U)", "Play plan"] {
        let r = h
            .get_all_by_label_contains(button)
            .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
            .unwrap_or_else(|| panic!("no {button} button"))
            .rect();
        assert!(
            r.left() >= 0.0 && r.right() <= moves.left(),
            "{button} at {r:?}, the move list starts at {moves:?}"
        );
    }
    // A plain mouse wheel (up and down only) scrolls the long plan sideways: its last group
    // comes towards the buttons.
    let last_group = |h: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>| {
        h.get_all_by_label_contains("planned")
            .map(|n| n.rect().left())
            .fold(f32::MIN, f32::max)
    };
    let far = last_group(&h);
    let row = h.get_by_label("Undo last planned (U)").rect().center();
    h.hover_at(row);
    h.step();
    for _ in 0..10 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -3.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    assert!(
        last_group(&h) < far - 20.0,
        "the wheel scrolled the plan: its last group was at x = {far}, now {}",
        last_group(&h)
    );
    // And back, so that the buttons at the start of the row are in sight again.
    for _ in 0..20 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, 3.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    for _ in 0..groups {
        h.get_by_label("Undo last planned (U)").click();
        h.step();
        h.step();
    }
    assert!(!shows(&h, "planned"), "undo empties the plan");
    // Drag a card from the hand onto "new meld": it moves into the plan.
    let name = hand(&h)[0].clone();
    let from = h.get_all_by_label(&name).next().unwrap().rect().center();
    let to = h.get_by_label("drop here: new meld").rect().center();
    h.drag_at(from);
    h.step();
    h.hover_at(from + egui::vec2(10.0, 10.0));
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.step();
    h.step();
    // "2♣ in your hand" or "2♣ just drawn, in your hand": the plan names the card alone.
    let card = name.split_whitespace().next().unwrap_or_default();
    let planned = format!("{card} planned");
    assert!(
        shows(&h, &planned),
        "the dragged card is planned: {planned}"
    );
    h.get_by_label("Undo last planned (U)").click();
    h.step();
    h.step();
    // Open the hints: they offer a legal opening and a legal finish when there is one.
    h.get_by_label("Hints (H): every legal move").click();
    h.step();
    h.step();
    // Play on: draw, meld what the hints offer, discard the first card, until the hand ends.
    let start = Instant::now();
    let mut melded = false;
    let mut hints_this_turn = 0;
    while !shows(&h, "Deal verified") {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the hand did not finish"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
        if shows(&h, "Draw (D)") {
            h.get_by_label("Draw (D)").click();
            h.step();
            hints_this_turn = 0;
            continue;
        }
        if shows(&h, "Discard selected (X)") {
            let hint = hints_this_turn < 2
                && h.query_all_by_label("Play it")
                    .next()
                    .map(|play| play.click())
                    .is_some();
            if hint {
                hints_this_turn += 1;
                melded = true;
                h.step();
                assert!(
                    !shows(&h, "Not allowed"),
                    "a move the hints offer is accepted"
                );
                continue;
            }
            let first = hand(&h).into_iter().next();
            if let Some(name) = first {
                h.get_all_by_label(&name).next().unwrap().click();
                h.step();
                if shows(&h, "Pass")
                    && !h
                        .query_by_label("Discard selected (X)")
                        .is_some_and(|_| true)
                {
                    h.get_by_label("Pass (keep your last card)").click();
                } else {
                    h.get_by_label("Discard selected (X)").click();
                }
                h.step();
            }
        }
        if shows(&h, "Yes (Y)") && shows(&h, "May I go out?") {
            h.get_by_label("Yes (Y)").click();
            h.step();
        }
    }
    assert!(
        shows(&h, "Melded cards"),
        "the score sheet shows its breakdown"
    );
    assert!(
        shows(&h, "shuffles recomputed") && shows(&h, "card openings by the other players"),
        "the score sheet shows the fairness check"
    );
    assert!(
        !shows(&h, "decryption shares"),
        "the score sheet speaks a player's words"
    );
    // The game is deterministic for its seed: with this deal the hints offer a meld, which was
    // played and accepted (checked right after the click, above).
    assert!(melded, "a legal meld was played from the window");
}

#[test]
fn start_screen_offers_play_now_and_settings() {
    let mut h = harness(1);
    h.step();
    assert!(shows(&h, "Play now"));
    assert!(shows(&h, "Your name"));
    assert!(shows(&h, "Computer players"));
    // The rules in brief, for the chosen game (canasta in these tests).
    h.get_by_label("How to play (F1)").click();
    // The window fades in over a few frames.
    for _ in 0..10 {
        h.step();
    }
    assert!(
        shows(&h, "Going out: empty your hand"),
        "the rules in brief show"
    );
    assert!(!shows(&h, "samba, 1500"), "and they are canasta's");
    // Esc closes them.
    h.key_press(egui::Key::Escape);
    for _ in 0..10 {
        h.step();
    }
    assert!(
        !shows(&h, "Going out: empty your hand"),
        "Esc closed the rules"
    );
}

#[test]
fn a_friend_joins_a_table_by_address_and_both_play_with_two_computer_players() {
    let (mut host, mut guest) = table_with_a_guest(11, 12);
    // The host sees the guest seated (at West, asked for), and starts with two computer
    // players in the seats left.
    host.get_by_label_contains("2 computer players").click();
    let start = Instant::now();
    while !(shows(&host, "Stock") && shows(&guest, "Stock")) {
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the game did not start for both"
        );
        host.step();
        guest.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        shows(&host, "West · Bea (opponent)"),
        "the host sees the guest at West"
    );
    assert!(
        shows(&guest, "South · Ann (opponent)"),
        "the guest sees the host at South"
    );
}

#[test]
fn a_client_closed_mid_game_resumes_it_from_its_logs() {
    let (h, dir) = local_game("resume", 31);
    let before = hand(&h);
    // Closing the window stops every node of this client (the player's and its computer
    // players'); their logs stay.
    drop(h);
    let mut h = harness_in(dir.clone(), 32);
    h.step();
    assert!(
        shows(&h, "was interrupted; it can be resumed"),
        "the start screen offers the game back"
    );
    h.get_by_label("Resume it").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    assert_eq!(hand(&h), before, "the same hand, at the same turn");
    h.get_by_label("Draw (D)").click();
    wait_for(&mut h, "Discard selected (X)", Duration::from_secs(60));
    assert_eq!(hand(&h).len(), before.len() + 1, "and the game goes on");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A local game against three computer players in a fresh data directory named after `name`,
/// dealt from `seed`, at South's first turn: the window and the directory.
fn local_game(
    name: &str,
    seed: u64,
) -> (
    egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>,
    std::path::PathBuf,
) {
    let dir = std::env::temp_dir().join(format!("fairdeal-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut h = harness_in(dir.clone(), seed);
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    (h, dir)
}

/// The sizes of every game log under the data directory `dir`.
fn log_bytes(dir: &std::path::Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut out = Vec::new();
    for game in std::fs::read_dir(dir.join("games"))
        .into_iter()
        .flatten()
        .flatten()
    {
        for node in std::fs::read_dir(game.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let log = node.path().join("GAME.fdlog");
            if let Ok(meta) = std::fs::metadata(&log) {
                out.push((log, meta.len()));
            }
        }
    }
    out.sort();
    out
}

/// "Leave the table" in a game against this client's own computer players puts the game aside
/// as it stands: nobody plays on while the player is away, Resume is offered as soon as the
/// nodes have stopped, and it goes on from the same turn with the same hand.
///
/// Sabotage caught (checked): a local game left like a LAN game (the table told, a computer
/// player takes the seat) goes on without the player, so the resumed hand is not the one left;
/// the chat not kept for the resume.
#[test]
fn a_local_game_left_mid_turn_resumes_at_the_same_turn() {
    let (mut h, dir) = local_game("leave", 33);
    let before = hand(&h);
    // Enter on "Leave the table" (the keyboard focus there, as Tab puts it) asks first;
    // Enter again, or Esc, stays: otherwise Tab and Enter leave the game at once.
    for stay in [egui::Key::Enter, egui::Key::Escape] {
        h.get_by_label("Leave the table").focus();
        h.step();
        h.key_press(egui::Key::Enter);
        for _ in 0..3 {
            h.step();
        }
        assert!(shows(&h, "Leave the table?"), "the question is asked");
        assert!(h.state().in_game(), "nobody left yet");
        h.key_press(stay);
        for _ in 0..3 {
            h.step();
        }
        assert!(!shows(&h, "Leave the table?"), "{stay:?} answered it");
        assert!(h.state().in_game(), "{stay:?} stays at the table");
    }
    // Something said before leaving is there after Resume (the chat does not come back
    // empty).
    h.get_by_label("Good luck").click();
    let start = Instant::now();
    while !shows(&h, "Good luck") || shows(&h, "Nothing said yet.") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the line came back"
        );
        h.step();
    }
    h.get_by_label("Leave the table").click();
    for _ in 0..3 {
        h.step();
    }
    h.get_by_label("Leave now").click();
    wait_for(&mut h, "Resume it", Duration::from_secs(10));
    // Away for a while: with the game put aside, no node plays on (no log grows).
    let logs = log_bytes(&dir);
    assert_eq!(
        logs.len(),
        4,
        "the player's log and three computer players'"
    );
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        h.step();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(log_bytes(&dir), logs, "nothing was played while away");
    h.get_by_label("Resume it").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    assert!(
        !shows(&h, "A computer player is playing your seat"),
        "the seat is ours at once"
    );
    assert!(!shows(&h, "Nothing said yet."), "the chat is kept");
    assert_eq!(hand(&h), before, "the same hand, at the same turn");
    assert!(
        !h.get_by_label("Draw (D)").accesskit_node().is_disabled(),
        "still our turn"
    );
    h.get_by_label("Draw (D)").click();
    wait_for(&mut h, "Discard selected (X)", Duration::from_secs(60));
    assert_eq!(hand(&h).len(), before.len() + 1, "and the game goes on");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_friend_who_leaves_the_lobby_frees_the_seat() {
    let (mut host, mut guest) = table_with_a_guest(41, 42);
    assert!(shows(&host, "Bea"));
    wait_for(&mut guest, "Leave the table", Duration::from_secs(60));
    guest.get_by_label("Leave the table").click();
    wait_for(&mut guest, "Play now", Duration::from_secs(10));
    wait_for(&mut host, "3 computer players", Duration::from_secs(60));
    assert!(!shows(&host, "Bea"), "the seat is free again");
}

#[test]
fn a_bad_address_is_explained_and_changes_nothing() {
    let mut h = harness(51);
    h.step();
    h.state_mut().settings.address = "192.168.1.20:4000".to_owned();
    h.step();
    h.get_by_label("Join").click();
    h.step();
    h.step();
    assert!(
        shows(&h, "that is not an address"),
        "the error says what is wrong"
    );
    assert!(!h.state().in_game(), "no game was started");
    assert!(shows(&h, "Play now"), "the start screen is still there");
}

/// A person who thinks over a turn for three times the grace period keeps the seat: the table
/// hears their client all along, nobody votes them out, and their move is taken afterwards.
///
/// Sabotage caught (checked): the signs of life the node feeds the table ignored
/// (`TableSession::heard` a no-op), so that a thinking player is judged by the messages they
/// send: the computer players vote the thinker out within the pause.
#[test]
fn a_player_who_thinks_past_the_grace_period_keeps_the_seat() {
    let mut h = harness(61);
    h.state_mut().set_timing(Timing {
        pace_ms: 0,
        grace_ms: Some(3_000),
    });
    h.step();
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Draw (D)", Duration::from_secs(120));
    let before = hand(&h);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        h.step();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!shows(&h, "stayed away"), "nobody was voted out");
    assert!(!shows(&h, "void"), "no hand was void");
    assert_eq!(hand(&h), before, "the same hand, still our turn");
    assert!(
        !h.get_by_label("Draw (D)").accesskit_node().is_disabled(),
        "still our turn"
    );
    h.get_by_label("Draw (D)").click();
    wait_for(&mut h, "Discard selected (X)", Duration::from_secs(60));
    assert_eq!(hand(&h).len(), before.len() + 1, "the move was taken");
}

/// A guest who leaves mid-game goes back to the start screen at once; the guest's own client
/// plays West to the end of the hand, which is scored (no hand is void), then a computer
/// player run by the partner's client takes the seat, and Resume gives it back at the next
/// hand: the guest plays West again.
///
/// Sabotage caught (checked): leaving that signs the `Quit` at once voids hand 1 ("is void"
/// at the host, nothing scored); a leaving client that says nothing to the table left the
/// host untold that Bea had left until the hand ended.
///
/// Sabotage it is meant to catch: a returning seat not given back (the runner keeps playing
/// it) never shows "You have your seat back." nor an enabled "Draw (D)" in the guest's window
/// (the same sabotage is checked at session level in net/tests/people.rs).
#[test]
fn a_guest_who_leaves_mid_game_takes_the_seat_back_at_the_next_hand() {
    let (mut host, mut guest) = table_with_a_guest_timed(71, 72, Some(5_000));
    // The host's own seat plays itself, so that hands go on while the guest is away.
    host.state_mut().autoplay();
    start_with_two_computer_players(&mut host, &mut guest);
    leave_now(&mut guest);
    wait_for_with(&mut guest, &mut host, "Play now", Duration::from_secs(10));
    assert!(
        !guest.state().in_game(),
        "the guest is back at the start screen"
    );
    // The hand goes on to its end, the guest's own client playing West, and counts.
    assert!(
        shows(&guest, "is being played to the end of this hand"),
        "the start screen says the hand is being played out"
    );
    // The host is told at once that Bea left, not only when the hand ends.
    let start = Instant::now();
    while !host
        .state()
        .move_log()
        .iter()
        .any(|l| l.starts_with("Bea left; a computer player (run by Bea's client"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the host was not told that Bea left; the move list ends {:?}",
            host.state()
                .move_log()
                .iter()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
        );
        step_both(&mut host, &mut guest);
    }
    wait_for_with(
        &mut host,
        &mut guest,
        "now plays West",
        Duration::from_secs(300),
    );
    assert!(!shows(&host, "is void"), "no hand was void");
    let (scored, void) = host.state().hands_scored_and_void();
    assert!(scored >= 1, "the hand the guest left was scored");
    assert_eq!(void, 0, "and none was void");
    // The start screen offers the game back once the table has been told.
    wait_for_with(&mut guest, &mut host, "Resume it", Duration::from_secs(30));
    guest.get_by_label("Resume it").click();
    // In the move list, which may have scrolled on by the time a loaded machine looks.
    let back = |g: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>| {
        g.state()
            .move_log()
            .iter()
            .find(|l| l.starts_with("You have your seat back."))
            .cloned()
    };
    let held = |g: &egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>| {
        g.state()
            .move_log()
            .iter()
            .any(|l| l.starts_with("A computer player played your seat while you were away"))
    };
    let mut steps_held = 0;
    let mut said: Vec<String> = Vec::new();
    let start = Instant::now();
    while back(&guest).is_none() {
        if let Some(s) = guest.state().status()
            && said.last().is_none_or(|l| l != s)
            && said.len() < 40
        {
            said.push(s.to_owned());
        }
        // The resumed log ends on hand 1's score sheet; while the seat is held it offers
        // nothing to do, and must not stay over the table waiting for a "Next hand".
        if held(&guest) {
            steps_held += 1;
            assert!(
                steps_held < 10 || !shows(&guest, "score sheet"),
                "the score sheet of the hand before stays open while the seat is held"
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "\"You have your seat back.\" not said in 300 s; the window shows {:?}; it said {said:?}; the move list ends {:?}",
            labels(&guest),
            guest
                .state()
                .move_log()
                .iter()
                .filter(|l| !l.contains(" draws ")
                    && !l.contains(" discards ")
                    && !l.contains(" melds "))
                .collect::<Vec<_>>()
        );
        step_both(&mut guest, &mut host);
    }
    // The hand the resumed log replays is told as the guest's own: "You draw", not "West
    // draws".
    let said = |start: &str| {
        guest
            .state()
            .move_log()
            .iter()
            .any(|l| l.starts_with(start))
    };
    assert!(
        said("You draw") && !said("West draws"),
        "the guest's own moves told in the third person after Resume"
    );
    assert!(
        back(&guest).is_some_and(|l| l.contains("While you were away: we")),
        "the guest is told what the hands it missed scored: {:?}",
        back(&guest)
    );
    let start = Instant::now();
    loop {
        step_both(&mut guest, &mut host);
        if guest
            .query_all_by_label("Draw (D)")
            .any(|n| !n.accesskit_node().is_disabled())
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the guest never got a turn after coming back"
        );
    }
    assert!(hand(&guest).len() >= 10, "the guest holds West's hand");
}

/// A guest whose host does not answer at the address is told so while the client keeps
/// trying, then that it gave up, goes back to the start screen, and leaves no game folder
/// behind once another game begins.
///
/// Sabotage caught (checked): with dial errors ignored the lobby said only "Asking the host
/// for a seat…" for ever; without the sweep the dead table's folder stayed beside the new game.
#[test]
fn a_guest_whose_host_is_out_of_reach_is_told_so_and_goes_back() {
    let mut h = harness(53);
    h.state_mut().set_timing(Timing {
        pace_ms: 0,
        grace_ms: Some(3_000),
    });
    h.step();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    h.state_mut().settings.address = format!(
        "/ip4/127.0.0.1/tcp/{port}/p2p/12D3KooWGGceUJ6ZFk9WkMtyq478rRTRKaBETAtVJHdA6bLjKpKp"
    );
    h.step();
    h.get_by_label("Join").click();
    wait_for(&mut h, "Cannot reach the host", Duration::from_secs(30));
    wait_for(&mut h, "could not reach the host", Duration::from_secs(30));
    h.get_by_label("Back to the start").click();
    wait_for(&mut h, "Play now", Duration::from_secs(10));
    assert!(!h.state().in_game(), "back at the start screen");
    let games = h.state().data_dir().join("games");
    let count = || std::fs::read_dir(&games).map_or(0, |d| d.count());
    assert_eq!(
        count(),
        1,
        "the dead table's folder is there until the next game"
    );
    h.get_by_label("Play now").click();
    wait_for(&mut h, "Stock", Duration::from_secs(120));
    assert_eq!(count(), 1, "only the new game's folder is left");
}

/// Selects the cards named (in the hand) and plans them as a new meld (P).
fn plan_new_meld(
    h: &mut egui_kittest::Harness<'static, fairdeal::gui::app::FairdealApp>,
    names: &[String],
) {
    for name in names {
        h.get_all_by_label(name)
            .next()
            .unwrap_or_else(|| panic!("{name} is not in the hand"))
            .click();
        h.step();
    }
    h.get_by_label("Plan selected as a new meld (P)").click();
    // The plan appears above the buttons: let the layout settle before the next click.
    h.step();
    h.step();
}

/// A quick double click on a hint makes one move. Otherwise a double click on "takes the
/// pile" takes it, and the second click lands on "discards Q♣", which the new list of moves
/// has put under the pointer: the turn is gone.
///
/// Sabotage caught (checked): the second click of a double click taken as a click.
#[test]
fn a_double_click_on_a_hint_makes_one_move() {
    let (mut h, dir) = local_game("hint2", 34);
    h.get_by_label("Hints (H): every legal move").click();
    for _ in 0..30 {
        h.step();
    }
    let before = hand(&h);
    let at = h.get_by_label("You draw from the stock").rect().center();
    let press = |h: &mut egui_kittest::Harness<'static, _>, pressed| {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    };
    h.hover_at(at);
    press(&mut h, true);
    press(&mut h, false);
    h.step();
    // The drawn card comes in, and the list of moves changes under the pointer, before the
    // second click, within egui's double-click time (a harness step is a quarter second of
    // it: the node's events are taken in without a step).
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(50));
        h.state_mut().pump();
    }
    press(&mut h, true);
    press(&mut h, false);
    h.step();
    assert_eq!(hand(&h).len(), before.len() + 1, "the first click drew");
    for _ in 0..30 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        hand(&h).len(),
        before.len() + 1,
        "the second click did nothing"
    );
    assert!(
        shows(&h, "Discard selected (X)"),
        "still our turn, to meld or discard"
    );
    assert!(!shows(&h, "Not allowed"), "nothing was tried twice");
    let _ = std::fs::remove_dir_all(&dir);
}

/// F12 shows the frame times over the table, and nothing on the table moves: written above
/// the table, the line gives an empty strip (the felt painted over it) that pushes the whole
/// table down.
/// Zoom is held back where the window could not hold the table any more.
///
/// Sabotage caught (checked): the line written above the table again; zoom not held back.
#[test]
fn f12_shows_the_frame_times_and_moves_nothing() {
    let (mut h, dir) = local_game("f12", 35);
    let draw = h.get_by_label("Draw (D)").rect();
    let stock = h.get_by_label_contains("Stock").rect();
    h.key_press(egui::Key::F12);
    for _ in 0..3 {
        h.step();
    }
    assert!(
        h.query_by_label_contains("Frame times (F12):").is_some(),
        "the figures show"
    );
    assert_eq!(h.get_by_label("Draw (D)").rect(), draw, "the buttons stay");
    assert_eq!(
        h.get_by_label_contains("Stock").rect(),
        stock,
        "the table stays"
    );
    h.key_press(egui::Key::F12);
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label_contains("Frame times (F12):").is_none());
    // Zoom (Ctrl and +) in a 1024×700 window would lay the move list over the table: it is
    // held back, and says so.
    h.set_size(egui::vec2(1024.0, 700.0));
    h.step();
    let stock = h.get_by_label_contains("Stock").rect();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(h.ctx.zoom_factor(), 1.0, "no zoom in a window this small");
    assert!(shows(&h, "Zoom: at most 100 %"), "the table says why");
    assert_eq!(
        h.get_by_label_contains("Stock").rect(),
        stock,
        "the table stays"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
