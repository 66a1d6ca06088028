//! Fuzz-style properties: hostile text, files, positions and moves never panic, and a refused
//! move never changes anything.
//!
//! The generators aim at the interesting region (card names built from valid and invalid
//! rank and suit tokens, scenarios and positions that are real ones slightly altered, moves
//! that are mostly the legal ones or near them), and each test counts how many of its cases
//! were valid input and requires a fair share of both valid and invalid ones, so a generator
//! that drifts back to pure noise fails the test instead of passing vacuously.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers unwrap what the test set up"
)]

use std::cell::Cell;
use std::collections::BTreeMap;

use fairdeal_core::scenario::{Scenario, Verdict};
use fairdeal_core::selfplay::random_hand;
use fairdeal_core::{
    Add, Card, Move, Plan, Position, PositionDesc, Preset, Rules, Seat, SplitMix64,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn card() -> impl Strategy<Value = Card> {
    (0usize..53).prop_map(|i| Card::from_index(i).unwrap())
}

fn cards(max: usize) -> impl Strategy<Value = Vec<Card>> {
    prop::collection::vec(card(), 0..max)
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        prop::collection::vec(cards(8), 0..3),
        prop::collection::vec(
            (0usize..6, cards(4)).prop_map(|(to, cards)| Add { to, cards }),
            0..3,
        ),
        prop::collection::vec((0usize..6, 0usize..6).prop_map(|(a, b)| [a, b]), 0..2),
    )
        .prop_map(|(new, add, merge)| Plan { new, add, merge })
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::Draw {}),
        (cards(4), prop::option::of(0usize..6), plan())
            .prop_map(|(with, onto, also)| Move::Pickup { with, onto, also }),
        (0usize..6).prop_map(|onto| Move::TakeTop { onto }),
        plan().prop_map(Move::Meld),
        (plan(), prop::option::of(card()))
            .prop_map(|(plan, discard)| Move::GoOut { plan, discard }),
        cards(3).prop_map(Move::LayRedThrees),
        card().prop_map(Move::Discard),
        Just(Move::Pass {}),
        Just(Move::AskPartner {}),
        any::<bool>().prop_map(Move::Answer),
    ]
}

/// A position reached by `steps` random legal moves from a shuffled deal.
fn played_position(preset: Preset, seed: u64, steps: usize) -> Position {
    let rules = Rules::preset(preset);
    let mut rng = SplitMix64::new(seed);
    let record = random_hand(&rules, Seat::S, [0, 0], &mut rng);
    let mut pos = Position::deal(rules, Seat::S, [0, 0], &record.deck).unwrap();
    for (seat, mv) in record.moves.iter().take(steps) {
        pos.apply(*seat, mv).unwrap();
    }
    pos
}

fn bump(c: &Cell<u32>) {
    c.set(c.get() + 1);
}

/// Rank tokens, and whether the card syntax accepts them.
const RANKS: [(&str, bool); 19] = [
    ("2", true),
    ("5", true),
    ("9", true),
    ("10", true),
    ("T", true),
    ("t", true),
    ("J", true),
    ("q", true),
    ("K", true),
    ("A", true),
    ("1", false),
    ("11", false),
    ("0", false),
    ("02", false),
    ("+2", false),
    ("X", false),
    ("", false),
    ("١", false),
    ("AA", false),
];
/// Suit tokens, and whether the card syntax accepts them.
const SUITS: [(&str, bool); 10] = [
    ("C", true),
    ("d", true),
    ("H", true),
    ("s", true),
    ("X", false),
    ("", false),
    ("♥", false),
    ("CC", false),
    ("K", false),
    ("?", false),
];

/// Text made of a rank token and a suit token (with padding), and the card the written rules
/// say it names: `RS` with rank 2–9, T or 10, J, Q, K, A and suit C, D, H, S in any case,
/// surrounding whitespace ignored; `JK` the joker and `??` the hidden card. Random text comes
/// with no expectation (`None`).
fn card_text() -> impl Strategy<Value = (String, Option<Option<Card>>)> {
    let by_name: BTreeMap<String, Card> = (0..Card::FACES)
        .map(|i| Card::from_index(i).unwrap())
        .chain([Card::HIDDEN])
        .map(|c| (c.to_string(), c))
        .collect();
    let tokens = (
        prop::sample::select(RANKS.to_vec()),
        prop::sample::select(SUITS.to_vec()),
        prop::sample::select(vec!["", " ", "\t", "\u{a0}"]),
    )
        .prop_map(move |((r, r_ok), (s, s_ok), pad)| {
            let text = format!("{pad}{r}{s}{pad}");
            let up = format!("{r}{s}").to_ascii_uppercase();
            let canonical = up.replace("10", "T");
            let named = match up.as_str() {
                "JK" | "??" => by_name.get(&up).copied(),
                _ if r_ok && s_ok => by_name.get(&canonical).copied(),
                _ => None,
            };
            (text, Some(named))
        });
    // A real card's name as printed, in either case.
    let named = (card(), any::<bool>()).prop_map(|(c, lower)| {
        let text = c.to_string();
        (
            if lower { text.to_lowercase() } else { text },
            Some(Some(c)),
        )
    });
    prop_oneof![
        6 => tokens,
        2 => named,
        1 => "\\PC{0,6}".prop_map(|s| (s, None)),
    ]
}

/// Card names are read exactly as the written rules say (valid and invalid names alike),
/// and every card prints to a name that reads back. Random text never panics.
///
/// Sabotage caught (checked): `FromStr` not trimming whitespace; `FromStr` accepting `1` as a
/// rank (the `(2..=9)` range widened).
#[test]
fn card_text_is_read_by_the_written_rules() {
    let (valid, total) = (Cell::new(0), Cell::new(0));
    let mut runner = share_runner();
    runner
        .run(&card_text(), |(text, named)| {
            bump(&total);
            let parsed = text.parse::<Card>();
            if let Ok(c) = parsed {
                bump(&valid);
                prop_assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            }
            // Random text (no expectation) is only required not to panic.
            if let Some(named) = named {
                prop_assert_eq!(parsed.ok(), named, "{:?}", text);
            }
            Ok(())
        })
        .unwrap();
    report("card text", valid.get(), total.get());
}

/// Cases a test needs before the share of valid ones says anything about its generator.
///
/// These runners check a ratio, so they take at least this many cases whatever
/// `PROPTEST_CASES` says: at 64 cases a generator aiming at a third valid falls under a tenth
/// by chance about once in a few hundred runs; at 256 the same miss is beyond six deviations.
const SHARE_CASES: u32 = 256;

/// A runner with enough cases for [`report`] to judge the generator.
fn share_runner() -> TestRunner {
    let config = Config::default();
    let cases = config.cases.max(SHARE_CASES);
    TestRunner::new(Config { cases, ..config })
}

/// Prints the share of valid cases and fails unless both valid and invalid ones are common
/// (at least a tenth of each).
fn report(what: &str, valid: u32, total: u32) {
    eprintln!("{what}: {valid} of {total} generated cases valid");
    assert!(
        valid * 10 >= total && valid * 10 <= total * 9,
        "{what}: {valid} of {total} valid; the generator misses its target"
    );
}

/// A real trace (every move `ok`, the end checked) from a random hand of `preset`.
fn trace(preset: Preset, seed: u64) -> serde_json::Value {
    let rules = Rules::preset(preset);
    let record = random_hand(&rules, Seat::W, [0, 0], &mut SplitMix64::new(seed));
    serde_json::to_value(record.to_scenario("fuzz")).unwrap()
}

/// One change to a scenario, as JSON.
#[derive(Debug, Clone)]
enum Edit {
    None,
    /// Step `a`'s move replaced by step `b`'s.
    CopyMove(usize, usize),
    /// Step `a` removed.
    DropStep(usize),
    /// Deck cards `a` and `b` swapped.
    SwapDeck(usize, usize),
    /// The final stock-size check changed by `d`.
    Stock(i64),
    /// An unknown field added.
    Unknown,
    /// One byte of the JSON text replaced.
    Byte(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => Just(Edit::None),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::CopyMove(a, b)),
        2 => any::<usize>().prop_map(Edit::DropStep),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapDeck(a, b)),
        1 => (-3i64..4).prop_map(Edit::Stock),
        1 => Just(Edit::Unknown),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Byte(a, b)),
    ]
}

fn apply_edit(mut v: serde_json::Value, e: &Edit) -> Vec<u8> {
    let steps = v["steps"].as_array_mut().unwrap();
    let n = steps.len();
    match *e {
        Edit::None => {}
        Edit::CopyMove(a, b) => {
            let mv = steps[b % n]["do"].clone();
            steps[a % n]["do"] = mv;
        }
        Edit::DropStep(a) => {
            steps.remove(a % n);
        }
        Edit::SwapDeck(a, b) => {
            let deck = v["deal"]["deck_top"].as_array_mut().unwrap();
            let m = deck.len();
            deck.swap(a % m, b % m);
        }
        Edit::Stock(d) => {
            let s = &mut steps[n - 1]["state"]["stock_size"];
            *s = serde_json::json!(s.as_i64().unwrap() + d);
        }
        Edit::Unknown => {
            v["surprise"] = serde_json::json!(1);
        }
        Edit::Byte(at, b) => {
            let mut bytes = serde_json::to_vec(&v).unwrap();
            let i = at % bytes.len();
            bytes[i] = b;
            return bytes;
        }
    }
    serde_json::to_vec(&v).unwrap()
}

/// Scenario files that are real traces slightly altered: they never panic the runner; an
/// unaltered trace passes; and the runner gets past the set-up into the steps for most of them.
///
/// Sabotage caught (checked): a state check comparing the wrong value (`stock_size` off by one
/// once the hand is over) fails the unaltered trace.
#[test]
fn altered_scenarios_never_panic() {
    let bases: Vec<serde_json::Value> = Preset::ALL
        .iter()
        .enumerate()
        .map(|(i, &p)| trace(p, 100 + i as u64))
        .collect();
    let (parsed, total, passed, failed_in_steps) =
        (Cell::new(0), Cell::new(0), Cell::new(0), Cell::new(0));
    let mut runner = share_runner();
    runner
        .run(&(0..bases.len(), edit()), |(b, e)| {
            bump(&total);
            let bytes = apply_edit(bases[b].clone(), &e);
            if let Ok(s) = serde_json::from_slice::<Scenario>(&bytes) {
                bump(&parsed);
                let verdict = s.run();
                if matches!(e, Edit::None) {
                    prop_assert_eq!(&verdict, &Verdict::Pass);
                }
                match verdict {
                    Verdict::Pass => bump(&passed),
                    Verdict::Fail { step, .. } if step > 0 => bump(&failed_in_steps),
                    Verdict::Fail { .. } => {}
                }
            }
            Ok(())
        })
        .unwrap();
    report("scenarios", parsed.get(), total.get());
    eprintln!(
        "scenarios: {} passed, {} failed at a step",
        passed.get(),
        failed_in_steps.get()
    );
    assert!(passed.get() > 0 && failed_in_steps.get() > 0);
}

/// A move for the position: mostly one of its legal moves or one with a card changed, else any.
fn move_for(pos: &Position, kind: u8, pick: prop::sample::Index, other: Card, any: Move) -> Move {
    let legal = pos.legal_moves();
    if legal.is_empty() || kind >= 6 {
        return any;
    }
    let mv = legal[pick.index(legal.len())].clone();
    if kind < 4 {
        return mv;
    }
    // A near-legal move: the same kind with one card swapped for another.
    match mv {
        Move::Discard(_) => Move::Discard(other),
        Move::Meld(mut plan) if !plan.new.is_empty() => {
            plan.new[0][0] = other;
            Move::Meld(plan)
        }
        Move::Pickup {
            mut with,
            onto,
            also,
        } if !with.is_empty() => {
            with[0] = other;
            Move::Pickup { with, onto, also }
        }
        _ => any,
    }
}

/// A move on a played position either applies (conserving every card) or is refused and
/// changes nothing; `validate` agrees with `apply`. Most generated moves are legal or nearly.
///
/// Sabotage caught (checked): a discard that leaves the card in the hand as well (the legal
/// discards the generator now reaches break the conservation of cards).
#[test]
fn arbitrary_moves_on_played_positions() {
    let (valid, total) = (Cell::new(0), Cell::new(0));
    let strategy = (
        prop::sample::select(Preset::ALL.to_vec()),
        0u64..1000,
        0usize..200,
        (0u8..8, any::<prop::sample::Index>(), card(), any_move()),
        0usize..6,
    );
    let mut runner = share_runner();
    runner
        .run(
            &strategy,
            |(preset, seed, steps, (kind, pick, other, any), seat)| {
                bump(&total);
                let pos = played_position(preset, seed, steps);
                let mv = move_for(&pos, kind, pick, other, any);
                // Usually the seat to act; sometimes another one.
                let seat = if seat < 4 {
                    pos.actor()
                } else {
                    Seat::from_index(seat)
                };
                let mut after = pos.clone();
                let verdict = pos.validate(seat, &mv);
                let applied = after.apply(seat, &mv);
                prop_assert_eq!(verdict.is_ok(), applied.is_ok());
                if applied.is_err() {
                    prop_assert_eq!(&after, &pos);
                } else {
                    bump(&valid);
                    prop_assert_eq!(after.all_cards(), pos.all_cards());
                }
                Ok(())
            },
        )
        .unwrap();
    report("moves", valid.get(), total.get());
}

/// One change to a real position's description.
#[derive(Debug, Clone)]
enum PosEdit {
    None,
    /// A card moved from hand `a` to hand `b`.
    MoveCard(usize, usize, prop::sample::Index),
    /// A card of hand `a` replaced.
    Replace(usize, prop::sample::Index, Card),
    /// Another seat to act.
    Turn(usize),
    /// A card added to the pile.
    AddToPile(Card),
    /// The stock's top card dropped.
    DropStock,
}

fn pos_edit() -> impl Strategy<Value = PosEdit> {
    let idx = any::<prop::sample::Index>();
    prop_oneof![
        1 => Just(PosEdit::None),
        2 => (0usize..4, 0usize..4, idx.clone()).prop_map(|(a, b, i)| PosEdit::MoveCard(a, b, i)),
        2 => (0usize..4, idx, card()).prop_map(|(a, i, c)| PosEdit::Replace(a, i, c)),
        1 => (0usize..4).prop_map(PosEdit::Turn),
        1 => card().prop_map(PosEdit::AddToPile),
        1 => Just(PosEdit::DropStock),
    ]
}

fn edit_desc(mut d: PositionDesc, e: &PosEdit) -> PositionDesc {
    match e {
        PosEdit::None => {}
        PosEdit::MoveCard(a, b, i) => {
            let from = d.hands.entry(Seat::from_index(*a)).or_default();
            if !from.is_empty() {
                let c = from.remove(i.index(from.len()));
                d.hands.entry(Seat::from_index(*b)).or_default().push(c);
            }
        }
        PosEdit::Replace(a, i, c) => {
            let hand = d.hands.entry(Seat::from_index(*a)).or_default();
            if !hand.is_empty() {
                let k = i.index(hand.len());
                hand[k] = *c;
            }
        }
        PosEdit::Turn(t) => d.turn = Seat::from_index(*t),
        PosEdit::AddToPile(c) => d.pile.push(*c),
        PosEdit::DropStock => {
            if !d.stock.is_empty() {
                d.stock.remove(0);
            }
        }
    }
    d
}

/// Position descriptions (real ones slightly altered, and random ones) never panic; a position
/// that is accepted survives any move attempt unchanged if refused, and round-trips.
///
/// An accepted position never holds more copies of a card than the pack (a real position
/// holds the whole pack, so its cards bound every altered one).
///
/// Sabotage caught (checked): `from_desc` skipping `check_card_counts` (a replaced card then
/// gives three copies of a face in a two-pack game, and is accepted).
#[test]
fn altered_position_descriptions_never_panic() {
    let (valid, total) = (Cell::new(0), Cell::new(0));
    let strategy = (
        prop::sample::select(Preset::ALL.to_vec()),
        0u64..1000,
        0usize..150,
        pos_edit(),
        any_move(),
    );
    let mut runner = share_runner();
    runner
        .run(&strategy, |(preset, seed, steps, e, mv)| {
            bump(&total);
            let real = played_position(preset, seed, steps);
            let desc = edit_desc(real.to_desc(), &e);
            if matches!(e, PosEdit::None) {
                prop_assert!(Position::from_desc(Rules::preset(preset), &desc).is_ok());
            }
            if let Ok(pos) = Position::from_desc(Rules::preset(preset), &desc) {
                bump(&valid);
                prop_assert!(
                    real.all_cards().contains_all(&pos.all_cards()),
                    "more copies of a card than the pack holds"
                );
                let mut after = pos.clone();
                if after.apply(pos.actor(), &mv).is_err() {
                    prop_assert_eq!(&after, &pos);
                }
                let again = Position::from_desc(Rules::preset(preset), &pos.to_desc()).unwrap();
                prop_assert_eq!(again, pos);
            }
            Ok(())
        })
        .unwrap();
    report("positions", valid.get(), total.get());
}

proptest! {
    /// Random descriptions (random cards in every part) never panic.
    #[test]
    fn arbitrary_position_descriptions_never_panic(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        hands in prop::collection::vec(cards(6), 4),
        melds in prop::collection::vec(cards(5), 0..3),
        pile in cards(4),
        stock in cards(5),
        turn in 0usize..4,
        play in any::<bool>(),
        mv in any_move(),
    ) {
        let seats = ["S", "W", "N", "E"];
        let json = serde_json::json!({
            "dealer": "S",
            "scores": {"A": 0, "B": 0},
            "turn": seats[turn],
            "phase": if play { "play" } else { "draw" },
            "hands": {"S": hands[0], "W": hands[1], "N": hands[2], "E": hands[3]},
            "melds": {"A": melds, "B": []},
            "red_threes": {"A": 0, "B": 0},
            "pile": pile,
            "stock": stock,
        });
        let desc: PositionDesc = serde_json::from_value(json).unwrap();
        if let Ok(pos) = Position::from_desc(Rules::preset(preset), &desc) {
            let mut after = pos.clone();
            let seat = Seat::from_index(turn);
            if after.apply(seat, &mv).is_err() {
                prop_assert_eq!(&after, &pos);
            }
            let again = Position::from_desc(Rules::preset(preset), &pos.to_desc()).unwrap();
            prop_assert_eq!(again, pos);
        }
    }
}
