//! What the player saw, checked over whole hands played by computer players: last turns,
//! numbered melds, marked draws, replayed canastas, and the flights.

use super::*;
use fairdeal_core::strategy::by_name;
use fairdeal_core::{Phase, Position, Preset, Rules, SplitMix64, canonical_deck};

/// A hand of `preset` dealt by South from a deck shuffled with `rng`.
fn deal(preset: Preset, rng: &mut SplitMix64) -> Position {
    let rules = Rules::preset(preset);
    let mut deck = canonical_deck(&rules);
    for i in (1..deck.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        deck.swap(i, j);
    }
    Position::deal(rules, Seat::S, [0, 0], &deck).unwrap()
}

/// The seat to act plays `strategy`'s move, fed to South's `seen` as the client does (the
/// move's line, the move, then South's view, which becomes `view`); returns the move.
fn computer_move(
    pos: &mut Position,
    strategy: &mut dyn fairdeal_core::strategy::Strategy,
    rng: &mut SplitMix64,
    seen: &mut Seen,
    log: &mut Vec<String>,
    view: &mut PlayerView,
) -> Played {
    let seat = pos.actor();
    let mv = strategy.choose(&pos.view(seat), rng).unwrap();
    pos.apply(seat, &mv).unwrap();
    log.push(mv.describe(seat));
    let next = pos.view(Seat::S);
    let played = Played::between(view, seat, mv, &next);
    seen.moved(played.clone(), Some(log.len() - 1));
    seen.on_view(Some(view), &next, log);
    *view = next;
    played
}

/// Plays a hand with a computer strategy at every seat, feeding South's `Seen` as the
/// client does (each move, then South's view), and checks what it says after each move
/// (given the moves so far as the hand reported them).
fn play(
    preset: Preset,
    seed: u64,
    mut check: impl FnMut(&Seen, &PlayerView, &[String], &[Played]),
) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = deal(preset, &mut rng);
    let mut seen = Seen::default();
    let mut log = Vec::new();
    seen.dealt();
    let mut view = pos.view(Seat::S);
    seen.on_view(None, &view, &mut log);
    let mut strategy = by_name("greedy").unwrap();
    let mut history = Vec::new();
    for _ in 0..2000 {
        if pos.is_over() {
            break;
        }
        history.push(computer_move(
            &mut pos,
            &mut *strategy,
            &mut rng,
            &mut seen,
            &mut log,
            &mut view,
        ));
        check(&seen, &view, &log, &history);
    }
}

#[test]
fn every_seat_keeps_its_last_discard_until_its_next_turn() {
    let mut checked = 0;
    play(Preset::Canasta, 7, |seen, view, _, _| {
        let top = view.pile().last().copied();
        if let (Some(s), Some(top)) = (seen.last_discarder, top) {
            assert_eq!(seen.last[s.index()].discard, Some(top));
            checked += 1;
        }
        // The seat to play starts a new turn only with its first move: until then its
        // previous turn is still shown.
        let turn = view.turn();
        if view.phase() == Phase::Draw && turn != Seat::S {
            let lt = &seen.last[turn.index()];
            assert!(lt.drew == 0 || lt.discard.is_some() || lt.passed, "{lt:?}");
        }
    });
    assert!(checked > 10);
}

#[test]
fn new_melds_are_numbered_in_the_log_and_highlighted() {
    let mut numbered = 0;
    play(Preset::Samba, 3, |seen, view, log, _| {
        let line = log.last().unwrap();
        if let Some(at) = line.find(" new meld ") {
            let n: usize = line[at + 10..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap();
            // The seat that just played has meld n highlighted.
            let seat = [Seat::S, Seat::W, Seat::N, Seat::E]
                .into_iter()
                .find(|s| line.starts_with(s.name()))
                .unwrap();
            assert!(n >= 1 && n <= view.melds(seat.team()).len(), "{line}");
            let (who, cards) = seen.touched(seat.team(), n - 1).unwrap();
            assert_eq!(who, seat);
            assert!(!cards.is_empty());
            numbered += 1;
        }
    });
    assert!(numbered > 0);
}

/// A resumed hand (its moves replayed, then one view) shows the same last turns and the
/// same cards just drawn as the hand watched move by move: the pile a pickup took and the
/// cards a draw brought come with the moves, not from a view before them.
///
/// Sabotage caught (checked): `drawn` worked out from the views again (empty after a
/// resume), and the pile's top card left out of a pickup when there is no view before.
#[test]
fn a_resumed_hand_shows_the_last_turns_and_drawn_cards_as_watched() {
    let mut compared = [0usize; 2];
    for seed in 1..12 {
        play(Preset::Samba, seed, |watched, view, log, history| {
            // The window closed and opened again here: every move replayed, one view.
            let mut resumed = Seen::default();
            let mut log_r = Vec::new();
            resumed.dealt();
            for p in history {
                log_r.push(p.mv.describe(p.seat));
                resumed.moved(p.clone(), Some(log_r.len() - 1));
            }
            resumed.on_view(None, view, &mut log_r);
            assert_eq!(resumed.last, watched.last, "seed {seed}: {log:?}");
            assert_eq!(resumed.drawn, watched.drawn, "seed {seed}");
            let last = history.last().unwrap();
            compared[0] += usize::from(last.seat == Seat::S && !watched.drawn.is_empty());
            compared[1] += usize::from(matches!(last.mv, Move::Pickup { .. }));
        });
    }
    assert!(compared[0] > 10 && compared[1] > 0, "{compared:?}");
}

/// A resumed hand replays its moves before its first view: the red threes of the deal
/// still come first, and each move's line keeps its meld numbers.
#[test]
fn a_replayed_hand_logs_the_dealt_red_threes_before_its_moves() {
    let mut checked = 0;
    for seed in 1..40 {
        let mut rng = SplitMix64::new(seed);
        let mut pos = deal(Preset::Canasta, &mut rng);
        if dealt_threes(&pos.view(Seat::S), &[], false).is_none() {
            continue;
        }
        let mut seen = Seen::default();
        let mut log = vec!["— Hand 1 —".to_owned()];
        seen.dealt();
        let mut strategy = by_name("greedy").unwrap();
        for _ in 0..12 {
            let seat = pos.actor();
            let mv = strategy.choose(&pos.view(seat), &mut rng).unwrap();
            let before = pos.view(Seat::S);
            pos.apply(seat, &mv).unwrap();
            log.push(mv.describe(seat));
            let played = Played::between(&before, seat, mv, &pos.view(Seat::S));
            seen.moved(played, Some(log.len() - 1));
        }
        let moves: Vec<String> = log[1..].to_vec();
        seen.on_view(None, &pos.view(Seat::S), &mut log);
        assert!(
            log[1].starts_with("Red threes laid out at the deal"),
            "{log:?}"
        );
        assert_eq!(log.len(), moves.len() + 2);
        for (line, mv) in log[2..].iter().zip(&moves) {
            assert!(line.starts_with(mv.as_str()), "{line} / {mv}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no hand dealt a red three");
}

#[test]
fn red_threes_drawn_are_named_and_canastas_celebrated() {
    let (mut threes, mut canastas, mut at_deal) = (0, 0, 0);
    for seed in 1..6 {
        play(Preset::Canasta, seed, |seen, _, log, _| {
            if log.len() == 2 && log[0].starts_with("Red threes laid out at the deal") {
                at_deal += 1;
            }
            let line = log.last().unwrap();
            if line.contains("red three") && line.contains("replaced from the stock") {
                threes += 1;
            }
            if line.contains("canasta (+") {
                canastas += 1;
                assert!(!seen.completed.is_empty());
            }
        });
    }
    assert!(threes > 0, "no red three was drawn in five hands");
    assert!(at_deal > 0, "no red three was dealt in five hands");
    assert!(canastas > 0, "no canasta was completed in five hands");
}

#[test]
fn my_draw_is_marked_and_flights_run_once() {
    let (mut marked, mut kept, mut cleared) = (0, 0, 0);
    let (mut flown, mut most) = (0, 0);
    let mut seen_flights = false;
    play(Preset::Samba, 5, |seen, view, log, _| {
        let mine = &seen.last[Seat::S.index()];
        let just_drew = log
            .last()
            .is_some_and(|l| l.starts_with("South draws from the stock"));
        if just_drew {
            // Samba draws two (a red three drawn is replaced: still two new cards).
            assert_eq!(seen.drawn.len(), 2, "{mine:?}");
            for c in &seen.drawn {
                assert!(view.hand().contains(*c));
            }
            marked += 1;
        }
        seen_flights |= !seen.flights.is_empty();
        // A move's cards take off one after the other, and only so many of them (the
        // flights pile up here: nothing ticks them).
        let batch = &seen.flights[flown.min(seen.flights.len())..];
        flown = seen.flights.len();
        assert!(batch.len() <= MAX_FLIGHTS_PER_MOVE + 4, "{batch:?}");
        for f in batch {
            let together = batch.iter().filter(|g| g.delay == f.delay).count();
            assert!(together <= 2, "{batch:?}");
        }
        most = most.max(batch.len());
        // Kept while the others play; gone when South's next turn begins (it stayed
        // until South drew again).
        let others_moved = log.last().is_some_and(|l| !l.starts_with("South"));
        if others_moved && view.actor() != Seat::S && !seen.drawn.is_empty() {
            kept += 1;
        }
        if others_moved && view.actor() == Seat::S && view.phase() == Phase::Draw {
            assert!(seen.drawn.is_empty(), "{:?}", seen.drawn);
            cleared += 1;
        }
    });
    assert!(marked > 0 && seen_flights);
    assert!(kept > 0 && cleared > 0, "{kept} {cleared}");
    assert!(most > 3, "some move sent several cards: {most}");
    let flight = Flight {
        card: Card::HIDDEN,
        from: Place::Stock,
        to: Place::Hand,
        delay: 0.0,
        start: None,
    };
    let mut s = Seen::default();
    s.flights.push(flight.clone());
    assert!(s.tick(10.0, true));
    assert!(s.tick(10.2, true));
    assert!(!s.tick(10.3, true), "done after {FLIGHT} s");
    s.flights.push(flight);
    assert!(!s.tick(11.0, false), "reduced motion: nothing flies");
}

/// The notes a live hand put on its log lines ("— meld 3 is a mixed canasta (+300)!"): the
/// line and the meld number.
fn canasta_notes(log: &[String]) -> Vec<(usize, String)> {
    log.iter()
        .enumerate()
        .filter_map(|(i, l)| {
            l.find(" — our meld ")
                .or_else(|| l.find(" — their meld "))
                .map(|at| (i, l[at..].split(" is a").next().unwrap().to_owned()))
        })
        .collect()
}

/// A resumed hand replays its moves without the views between them: the log's canasta
/// notes were lost (the live notes needed the view before each move).
#[test]
fn a_replayed_hand_says_its_canastas_as_the_live_one_did() {
    for (preset, seed) in [(Preset::Canasta, 7), (Preset::Samba, 3)] {
        let mut last = None;
        play(preset, seed, |_, view, log, history| {
            last = Some((view.clone(), log.to_vec(), history.to_vec()));
        });
        let (view, live, history) = last.unwrap();
        let notes = canasta_notes(&live);
        assert!(!notes.is_empty(), "{preset:?}: the hand had a canasta");
        let mut seen = Seen::default();
        seen.dealt();
        let mut log = Vec::new();
        for p in history {
            log.push(p.mv.describe(p.seat));
            seen.moved(p, Some(log.len() - 1));
        }
        seen.on_view(None, &view, &mut log);
        assert_eq!(canasta_notes(&log), notes, "{preset:?}");
        assert!(seen.completed.is_empty(), "a replay is not celebrated");
    }
}

/// Moves that come several to one view (a frame that took several of the table's events at
/// once) say each canasta on the line of the move that completed it, as when each move came
/// with its own view: a pile taken onto a meld of six was said on the line of the meld laid
/// after it.
#[test]
fn moves_taken_several_to_a_view_say_each_canasta_on_the_line_that_made_it() {
    for (preset, seed) in [
        (Preset::Canasta, 7),
        (Preset::Samba, 3),
        (Preset::Canasta, 11),
        (Preset::Samba, 5),
        (Preset::DutchSamba, 2),
    ] {
        let mut last = None;
        play(preset, seed, |_, _, log, history| {
            last = Some((log.to_vec(), history.to_vec()));
        });
        let (live, history) = last.unwrap();
        let notes = canasta_notes(&live);
        for batch in 2..=4 {
            let mut pos = deal(preset, &mut SplitMix64::new(seed));
            let mut seen = Seen::default();
            seen.dealt();
            let mut view = pos.view(Seat::S);
            let mut log = Vec::new();
            seen.on_view(None, &view, &mut log);
            for chunk in history.chunks(batch) {
                for p in chunk {
                    pos.apply(p.seat, &p.mv).unwrap();
                    log.push(p.mv.describe(p.seat));
                    seen.moved(p.clone(), Some(log.len() - 1));
                }
                let next = pos.view(Seat::S);
                seen.on_view(Some(&view), &next, &mut log);
                view = next;
            }
            assert_eq!(
                canasta_notes(&log),
                notes,
                "{preset:?} seed {seed}, {batch} moves a view"
            );
        }
    }
}

/// Two hands watched move by move as the client sees them (`Dealt`, the hand's line, each
/// move and South's view after it), the second cut after `cut` moves: the log, each hand's
/// moves, the watched `Seen` and the last view.
fn watch_two_hands(seed: u64, cut: usize) -> (Seen, Vec<String>, Vec<Vec<Played>>, PlayerView) {
    let mut rng = SplitMix64::new(seed);
    let mut strategy = by_name("greedy").unwrap();
    let (mut seen, mut log, mut hands) = (Seen::default(), Vec::new(), Vec::new());
    let mut last = None;
    for (h, limit) in [(1, 2000), (2, cut)] {
        let mut pos = deal(Preset::Samba, &mut rng);
        seen.dealt();
        log.push(format!("— Hand {h} —"));
        let mut view = pos.view(Seat::S);
        seen.on_view(last.as_ref(), &view, &mut log);
        let mut moves = Vec::new();
        for _ in 0..limit {
            if pos.is_over() {
                break;
            }
            moves.push(computer_move(
                &mut pos,
                &mut *strategy,
                &mut rng,
                &mut seen,
                &mut log,
                &mut view,
            ));
        }
        hands.push(moves);
        last = Some(view);
    }
    (seen, log, hands, last.unwrap())
}

/// Each "(new meld N)" in `lines`, in order (an earlier hand's canastas are not said
/// again after a resume: its melds are not in the view).
fn new_meld_notes(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let at = l
                .find("(our new meld")
                .or_else(|| l.find("(their new meld"))?;
            let note = &l[at..];
            Some(note[..=note.find(')')?].to_owned())
        })
        .collect()
}

/// A resume replays every hand of the game before one view of the hand on now: that hand
/// logs the same lines (meld numbers from its own 1, its canastas, its dealt red threes) and
/// shows the same last turns as when watched; a hand only just dealt shows no last turns,
/// and the earlier hand's lines keep their own numbers.
///
/// Sabotage caught (checked): meld numbers not restarted at a hand's deal in a replay (hand
/// 2's melds went on from hand 1's), an earlier hand's turns kept after the replay, and a
/// canasta made by a merge not said (a resume then loses "meld 4 is a mixed canasta").
#[test]
fn a_resumed_game_numbers_each_hands_melds_and_keeps_only_this_hands_turns() {
    let (mut compared, mut by_merge) = (0, 0);
    for (seed, cut) in (1..=24).map(|s| (s, [0, 30, 45, 60, 90, 400][s as usize % 6])) {
        let (watched, log, hands, view) = watch_two_hands(seed, cut);
        let mut resumed = Seen::default();
        let mut log_r = Vec::new();
        for (h, moves) in hands.iter().enumerate() {
            resumed.dealt();
            log_r.push(format!("— Hand {} —", h + 1));
            for p in moves {
                log_r.push(p.mv.describe(p.seat));
                resumed.moved(p.clone(), Some(log_r.len() - 1));
            }
        }
        resumed.on_view(None, &view, &mut log_r);
        let from = |l: &[String]| l.iter().position(|x| x == "— Hand 2 —").unwrap();
        let (w2, r2) = (from(&log), from(&log_r));
        assert_eq!(log_r[r2..], log[w2..], "seed {seed}: hand 2 as logged");
        assert_eq!(
            new_meld_notes(&log_r[..r2]),
            new_meld_notes(&log[..w2]),
            "seed {seed}: hand 1's meld numbers"
        );
        assert_eq!(resumed.last, watched.last, "seed {seed}: the last turns");
        assert_eq!(resumed.drawn, watched.drawn, "seed {seed}");
        if cut == 0 {
            assert!(resumed.last.iter().all(|t| *t == LastTurn::default()));
        }
        compared += usize::from(!new_meld_notes(&log[w2..]).is_empty());
        by_merge += log[w2..]
            .iter()
            .filter(|l| l.contains("merge melds") && l.contains(" is a "))
            .count();
    }
    assert!(by_merge > 0, "no canasta made by a merge was replayed");
    assert!(
        compared >= 2,
        "too few second hands with new melds: {compared}"
    );
}

/// Merged melds join the lower one and the places after the emptied ones close up, as the
/// engine orders them.
#[test]
fn merges_move_the_melds_after_them_down() {
    assert_eq!(merged(5, &[]), None);
    assert_eq!(merged(5, &[[1, 3]]), Some(vec![0, 1, 2, 1, 3]));
    assert_eq!(merged(5, &[[3, 1]]), Some(vec![0, 1, 2, 1, 3]));
    assert_eq!(merged(5, &[[1, 3], [3, 4]]), Some(vec![0, 1, 2, 1, 1]));
    // A bad index (the engine refuses such a plan) moves nothing.
    assert_eq!(merged(2, &[[0, 7]]), Some(vec![0, 1]));
}

/// A hand just dealt sounds "your turn" when the player leads, and only then (the first turn
/// of a hand made no sound, since nothing had moved).
///
/// Sabotage caught (checked): without the dealt-hand cue, no dealer gives South the cue.
#[test]
fn a_hand_dealt_with_the_player_to_lead_sounds_your_turn() {
    use super::super::sound::Cue;
    let mut led = 0;
    for dealer in Seat::ALL {
        let rules = Rules::preset(Preset::Samba);
        let deck = canonical_deck(&rules);
        let pos = Position::deal(rules, dealer, [0, 0], &deck).unwrap();
        let mut seen = Seen::default();
        seen.dealt();
        let view = pos.view(Seat::S);
        seen.on_view(None, &view, &mut Vec::new());
        let ours = view.actor() == Seat::S;
        led += usize::from(ours);
        assert_eq!(
            seen.cues.contains(&Cue::YourTurn),
            ours,
            "dealer {dealer:?}"
        );
        // Later views of the same turn say nothing more.
        seen.cues.clear();
        seen.on_view(Some(&view), &view, &mut Vec::new());
        assert!(seen.cues.is_empty(), "dealer {dealer:?}: {:?}", seen.cues);
    }
    assert_eq!(led, 1, "one dealer gives South the lead");
}

/// After a move that played onto a meld, that meld is the one to scroll into sight; the
/// table takes it (sets `None`) when it is drawn.
#[test]
fn a_move_onto_a_meld_asks_for_that_meld_to_be_shown() {
    let mut asked = 0;
    play(Preset::Samba, 5, |seen, _, _, history| {
        let last = history.last().unwrap();
        if let Move::Meld(_) = last.mv {
            let team = last.seat.team();
            let (i, _) = seen.last[last.seat.index()].melds.last().unwrap();
            assert_eq!(seen.reveal, Some((team, *i)), "{:?}", last.mv);
            asked += 1;
        }
    });
    assert!(asked > 5, "{asked}");
}
