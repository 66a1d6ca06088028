//! The table as a player sees it (egui_kittest, no GPU): the hand sorted and reordered, a
//! completed canasta stacked and celebrated, and — in a real local game at 1024×700 — the
//! last discard of every seat shown after its turn, refused keys answered in words, and the
//! hand at the same place from turn to turn while the melds grow.

#![expect(clippy::unwrap_used, reason = "test set-up")]

mod common;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fairdeal::gui::app::FairdealApp;
use fairdeal::gui::choices::{Difficulty, Theme};
use fairdeal::gui::hand::hand_row;
use fairdeal::gui::hand_order::{HandOrder, sorted};
use fairdeal::gui::melds::melds_area;
use fairdeal::gui::prefs::SortBy;
use fairdeal::gui::seen::{Played, Seen};
use fairdeal_core::strategy::by_name;
use fairdeal_core::{Card, PlayerView, Position, Preset, Rank, Rules, Seat, SplitMix64, Suit};

/// The accessible names of the hand's cards, left to right.
fn hand_names<S>(h: &Harness<'_, S>) -> Vec<String> {
    let mut cards: Vec<(f32, String)> = h
        .get_all_by_role(egui::accesskit::Role::CheckBox)
        .filter_map(|n| {
            let label = n.accesskit_node().label()?;
            label
                .ends_with("in your hand")
                .then(|| (n.rect().left(), label))
        })
        .collect();
    cards.sort_by(|a, b| a.0.total_cmp(&b.0));
    cards.into_iter().map(|(_, l)| l).collect()
}

/// A hand card's name back to the card ("10♥ in your hand" → 10♥).
fn card_of(name: &str) -> Card {
    let face = name.split(' ').next().unwrap();
    if face == "Jk" {
        return Card::JOKER;
    }
    let text: String = face
        .chars()
        .map(|c| match c {
            '♠' => 'S',
            '♥' => 'H',
            '♦' => 'D',
            '♣' => 'C',
            c => c,
        })
        .collect();
    text.parse().unwrap()
}

/// The first frame installs the bundled font (the suit symbols); drawing starts after it.
fn fonts_ready(ui: &egui::Ui, installed: &mut bool) -> bool {
    if !*installed {
        fairdeal::gui::install_fonts(ui.ctx());
        *installed = true;
        return false;
    }
    true
}

struct HandState {
    fonts: bool,
    cards: Vec<Card>,
    order: HandOrder,
    sort: SortBy,
}

#[test]
fn sorting_and_dragging_reorder_the_hand() {
    let cards = vec![
        Card::new(Rank::Nine, Suit::Hearts),
        Card::new(Rank::King, Suit::Spades),
        Card::JOKER,
        Card::new(Rank::Five, Suit::Hearts),
        Card::new(Rank::King, Suit::Hearts),
    ];
    let state = HandState {
        fonts: false,
        cards,
        order: HandOrder::default(),
        sort: SortBy::Rank,
    };
    let mut h = Harness::builder().with_size([800.0, 200.0]).build_ui_state(
        |ui, s: &mut HandState| {
            if !fonts_ready(ui, &mut s.fonts) {
                return;
            }
            let shown = s.order.arrange(&s.cards, s.sort);
            let sort = (!s.order.is_manual()).then_some(s.sort);
            let out = hand_row(ui, &shown, &[], &[], sort);
            if let Some((from, to)) = out.reorder {
                s.order.move_card(&shown, from, to);
            }
        },
        state,
    );
    h.step();
    h.step();
    let by_rank: Vec<Card> = hand_names(&h).iter().map(|n| card_of(n)).collect();
    assert_eq!(by_rank, sorted(&h.state().cards, SortBy::Rank));
    assert_eq!(by_rank[0], Card::JOKER, "wilds first");
    assert_eq!(by_rank[1].rank(), Some(Rank::King), "then the highest rank");
    h.state_mut().sort = SortBy::Suit;
    h.step();
    let by_suit: Vec<Card> = hand_names(&h).iter().map(|n| card_of(n)).collect();
    assert_eq!(by_suit, sorted(&h.state().cards, SortBy::Suit));
    assert_ne!(by_suit, by_rank, "the two orders differ for this hand");
    // Drag the first card to the end of the row.
    let names = hand_names(&h);
    let first = h.get_by_label(&names[0]).rect().center();
    let last = h.get_by_label(&names[4]).rect().right_center() + egui::vec2(30.0, 0.0);
    h.drag_at(first);
    h.step();
    h.hover_at(first + egui::vec2(12.0, 0.0));
    h.step();
    h.hover_at(last);
    h.step();
    h.drop_at(last);
    h.step();
    h.step();
    let moved: Vec<Card> = hand_names(&h).iter().map(|n| card_of(n)).collect();
    assert_eq!(
        moved[4], by_suit[0],
        "the dragged card is now last: {moved:?}"
    );
    assert_eq!(moved[..4], by_suit[1..], "the others keep their order");
}

struct MeldState {
    fonts: bool,
    before: PlayerView,
    after: PlayerView,
    seen: Seen,
    fed: bool,
}

/// Plays greedy hands of `preset` until a move completes a meld that `done` names (a canasta,
/// a samba); returns South's views before and after it, and the move.
fn a_meld_completed(
    preset: Preset,
    done: fn(&fairdeal_core::Meld) -> bool,
) -> (PlayerView, PlayerView, Seat, fairdeal_core::Move) {
    for seed in 1..400u64 {
        let rules = Rules::preset(preset);
        let mut deck = fairdeal_core::canonical_deck(&rules);
        let mut rng = SplitMix64::new(seed);
        for i in (1..deck.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        let mut pos = Position::deal(rules, Seat::S, [0, 0], &deck).unwrap();
        let mut strategy = by_name("greedy").unwrap();
        while !pos.is_over() {
            let seat = pos.actor();
            let mv = strategy.choose(&pos.view(seat), &mut rng).unwrap();
            let before = pos.view(Seat::S);
            let canastas = |p: &Position| p.melds(seat.team()).iter().filter(|m| done(m)).count();
            let had = canastas(&pos);
            pos.apply(seat, &mv).unwrap();
            if canastas(&pos) > had {
                return (before, pos.view(Seat::S), seat, mv);
            }
        }
    }
    panic!("no such meld completed in 400 greedy hands of {preset}");
}

#[test]
fn a_completed_canasta_shows_stacked_and_is_celebrated() {
    completed_meld_shows_stacked_and_is_celebrated(
        Preset::Canasta,
        |m| m.is_canasta(),
        "canasta (+",
    );
}

#[test]
fn a_completed_samba_shows_stacked_and_is_celebrated() {
    completed_meld_shows_stacked_and_is_celebrated(
        Preset::Samba,
        |m| m.is_samba(),
        "is a samba (+1500)",
    );
}

fn completed_meld_shows_stacked_and_is_celebrated(
    preset: Preset,
    done: fn(&fairdeal_core::Meld) -> bool,
    said: &'static str,
) {
    let (before, after, seat, mv) = a_meld_completed(preset, done);
    let team = seat.team();
    let mut seen = Seen::default();
    let mut log = vec![mv.describe(seat)];
    seen.on_view(None, &before, &mut Vec::new());
    seen.moved(Played::between(&before, seat, mv, &after), Some(0));
    let state = MeldState {
        fonts: false,
        before,
        after,
        seen,
        fed: false,
    };
    let mut h = Harness::builder().with_size([900.0, 300.0]).build_ui_state(
        move |ui, s: &mut MeldState| {
            if !fonts_ready(ui, &mut s.fonts) {
                return;
            }
            if !s.fed {
                s.fed = true;
                s.seen.on_view(Some(&s.before), &s.after, &mut log);
                assert!(log[0].contains(said), "the log says it: {}", log[0]);
            }
            let ours = team == Seat::S.team();
            melds_area(ui, &s.after, team, "melds", ours, &mut s.seen, true);
            let view = s.after.clone();
            fairdeal::gui::motion::paint(ui, &mut s.seen, &view, true);
        },
        state,
    );
    h.step();
    h.step();
    let stacked: Vec<String> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.contains(", stacked")))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert!(
        !stacked.is_empty(),
        "a completed {preset} meld is one stack"
    );
    assert!(
        stacked.iter().any(|l| l.contains("just completed")),
        "and is celebrated: {stacked:?}"
    );
    // The celebration ends by itself.
    for _ in 0..20 {
        h.step();
    }
    assert!(h.state().seen.completed.is_empty());
    assert!(
        !h.query_all_by(|n| n.label().is_some_and(|l| l.contains("just completed")))
            .any(|_| true)
    );
}

fn shows(h: &Harness<'static, FairdealApp>, text: &str) -> bool {
    h.get_all_by(|_| true).any(|n| {
        let node = n.accesskit_node();
        node.label().is_some_and(|l| l.contains(text))
            || node.value().is_some_and(|v| v.contains(text))
    })
}

fn enabled(h: &Harness<'static, FairdealApp>, label: &str) -> bool {
    h.query_by_label(label)
        .is_some_and(|n| !n.accesskit_node().is_disabled())
}

/// Steps until `done`, or fails after `limit`.
fn until(
    h: &mut Harness<'static, FairdealApp>,
    what: &str,
    limit: Duration,
    done: impl Fn(&Harness<'static, FairdealApp>) -> bool,
) {
    let start = Instant::now();
    while !done(h) {
        assert!(
            start.elapsed() < limit,
            "{what} did not happen in {limit:?}"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(15));
    }
}

/// The feedback line's words, if it shows any (the text starting with a button's name).
fn said(h: &Harness<'static, FairdealApp>, start: &str) -> Option<String> {
    h.query_all_by(|_| true)
        .filter_map(|n| {
            let node = n.accesskit_node();
            node.value().or_else(|| node.label())
        })
        .find(|l| l.starts_with(start))
}

#[test]
fn following_a_hand_at_1024x700() {
    let dir = std::env::temp_dir().join(format!("fairdeal-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app = FairdealApp::for_tests(dir.clone(), 21);
    app.settings.preset = Preset::Canasta;
    app.settings.difficulty = Difficulty::Hard;
    app.settings.theme = Theme::Light;
    let mut h = common::window(app, [1024.0, 700.0]);
    h.step();
    h.get_by_label("Play now").click();
    let my_draw = |h: &Harness<'static, FairdealApp>| enabled(h, "Draw (D)");
    until(&mut h, "our first turn", Duration::from_secs(180), my_draw);
    // A key that cannot do anything now says why, in the words of its button's tooltip.
    h.key_press(egui::Key::X);
    h.step();
    h.step();
    assert!(
        said(&h, "Discard selected (X): ")
            .is_some_and(|s| s.contains("draw from the stock (D) or take the pile first")),
        "a refused key says why"
    );
    // Sorting by suit reorders the hand as the setting says.
    h.get_by_label("By suit").click();
    h.step();
    h.step();
    let shown: Vec<Card> = hand_names(&h).iter().map(|n| card_of(n)).collect();
    assert_eq!(shown, sorted(&shown, SortBy::Suit), "sorted by suit");
    h.get_by_label("By rank").click();
    h.step();
    h.step();
    let shown: Vec<Card> = hand_names(&h).iter().map(|n| card_of(n)).collect();
    assert_eq!(shown, sorted(&shown, SortBy::Rank), "sorted by rank");
    let mut hand_top: Option<f32> = None;
    let mut areas_top = None;
    let mut melds_seen = 0;
    for turn in 0..6 {
        // Everything a turn needs is inside the window.
        for label in ["Draw (D)", "Hints (H): every legal move"] {
            let r = h.get_by_label(label).rect();
            assert!(
                r.bottom() <= 700.0 && r.right() <= 1024.0,
                "{label} at {r:?}"
            );
        }
        let first = hand_names(&h)[0].clone();
        let rect = h.get_all_by_label(&first).next().unwrap().rect();
        assert!(
            rect.bottom() <= 700.0,
            "the hand is inside the window: {rect:?}"
        );
        match hand_top {
            None => hand_top = Some(rect.top()),
            Some(y) => assert_eq!(y, rect.top(), "the hand stays put (turn {turn})"),
        }
        // So do our melds' area and the pile.
        let ours = h
            .query_all_by(|n| n.value().is_some_and(|v| v.starts_with("Our melds (click")))
            .next()
            .map(|n| n.rect().top());
        let pile = h
            .query_all_by(|n| n.label().is_some_and(|l| l.ends_with("on the pile")))
            .next()
            .map(|n| n.rect().top());
        assert!(ours.is_some(), "our melds' area shows");
        match areas_top {
            None => areas_top = Some((ours, pile)),
            Some(was) => assert_eq!(was, (ours, pile), "the melds and pile stay put"),
        }
        melds_seen = melds_seen.max(
            h.query_all_by(|n| {
                n.label()
                    .is_some_and(|l| l.contains(" meld ") && l.contains(": "))
            })
            .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
            .count(),
        );
        h.get_by_label("Draw (D)").click();
        until(&mut h, "the draw", Duration::from_secs(60), |h| {
            enabled(h, "Meld selected now (M)")
                || h.query_by_label("Discard selected (X)").is_some()
        });
        // Cards just drawn are marked.
        assert!(
            hand_names(&h).iter().any(|n| n.contains("just drawn")),
            "the cards just drawn are marked"
        );
        h.key_press(egui::Key::M);
        h.step();
        h.step();
        assert_eq!(
            said(&h, "Meld selected now (M): ").as_deref(),
            Some("Meld selected now (M): Select the cards to meld first")
        );
        // A click in the moment after new cards came in is not taken (the hand just moved
        // under the pointer): a person looks first, half a second here.
        for _ in 0..30 {
            h.step();
        }
        let card = hand_names(&h).into_iter().next().unwrap();
        h.get_all_by_label(&card).next().unwrap().click();
        h.step();
        h.step();
        if enabled(&h, "Discard selected (X)") {
            h.get_by_label("Discard selected (X)").click();
        } else {
            h.get_by_label("Pass (keep your last card)").click();
        }
        h.step();
        // Out of turn, a key says whose turn it is (X: harmless if the turn came back), in the
        // frame it was pressed in: it goes once the turn passes on, and with computer players
        // at full speed that is the next frame.
        h.key_press(egui::Key::X);
        h.step();
        if !my_draw(&h) && said(&h, "Discard selected (X): ").is_none() {
            // The discard's own frame may have cleared the selection after the key (a
            // word goes when the cards in hand change): once more, the hand now settled.
            h.key_press(egui::Key::X);
            h.step();
        }
        if !my_draw(&h) {
            let s = said(&h, "Discard selected (X): ");
            assert!(
                s.as_ref().is_some_and(|s| s.contains("not your turn")),
                "{s:?}"
            );
        }
        until(&mut h, "our next turn", Duration::from_secs(120), |h| {
            my_draw(h) || shows(h, "Deal verified")
        });
        if shows(&h, "Deal verified") {
            break;
        }
        // Every other seat's last discard is shown, highlighted, after its turn.
        for seat in ["West", "North", "East"] {
            assert!(
                shows(&h, &format!("discarded by {seat}")),
                "{seat}'s last discard shows after its turn"
            );
        }
    }
    assert!(melds_seen > 0, "melds were laid while the hand stayed put");
    let _ = std::fs::remove_dir_all(&dir);
}
