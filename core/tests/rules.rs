//! One test per rule, named after it (docs/RULES.md links here). Each builds a small scenario
//! in the conformance format and runs it through the same runner as `fairdeal check`.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers unwrap what the test set up"
)]

use fairdeal_core::scenario::{Scenario, Verdict};
use serde_json::{Value, json};

/// A scenario from `preset`, house rules, position fields overriding a small default, and steps.
fn run(preset: &str, house: Value, position: Value, steps: Value) {
    let mut pos = json!({
        "dealer": "E",
        "scores": {"A": 0, "B": 0},
        "turn": "S",
        "phase": "play",
        "hands": {"S": ["5C", "9D", "JH"], "W": ["6C", "7D"], "N": ["8C", "TD"], "E": ["QC", "KD"]},
        "melds": {"A": [], "B": []},
        "red_threes": {"A": 0, "B": 0},
        "pile": ["8S", "5D"],
        "pile_frozen": false,
        "stock": ["4S", "9H", "6D", "7C", "TH", "JC", "KS", "AH", "5H", "8H"]
    });
    for (k, v) in position.as_object().unwrap() {
        pos[k] = v.clone();
    }
    let scenario = json!({
        "id": "T", "preset": preset, "house_rules": house, "position": pos, "steps": steps
    });
    let s: Scenario = serde_json::from_value(scenario).unwrap();
    assert_eq!(s.run(), Verdict::Pass);
}

fn ok(mv: Value) -> Value {
    json!({"do": mv, "expect": "ok"})
}

fn err(mv: Value, code: &str) -> Value {
    json!({"do": mv, "expect": {"error": code}})
}

fn meld_new(cards: Value) -> Value {
    json!({"meld": {"new": [cards]}})
}

#[test]
fn group_wild_limit_samba_allows_as_many_wilds_as_naturals() {
    let hand = json!({"hands": {"S": ["KC", "KD", "2C", "JK", "5C", "6D"]}});
    run(
        "samba",
        json!({}),
        hand.clone(),
        json!([ok(meld_new(json!(["KC", "KD", "2C", "JK"])))]),
    );
    run(
        "dutch-samba",
        json!({}),
        hand.clone(),
        json!([err(
            meld_new(json!(["KC", "KD", "2C", "JK"])),
            "invalid_group"
        )]),
    );
    run(
        "canasta",
        json!({}),
        hand,
        json!([ok(meld_new(json!(["KC", "KD", "2C", "JK"])))]),
    );
}

#[test]
fn group_needs_natural_cards() {
    run(
        "samba",
        json!({}),
        json!({"hands": {"S": ["2C", "2D", "JK", "5C"]}}),
        json!([err(meld_new(json!(["2C", "2D", "JK"])), "invalid_group")]),
    );
}

#[test]
fn opening_minimum_bands_by_team_score() {
    // 1,600 needs 90: K K Jk + 5 5 5 = 85 is short; with a 2 it makes 105 (seed 002).
    let position = json!({
        "scores": {"A": 1600, "B": 0},
        "hands": {"S": ["KC", "KD", "JK", "5C", "5D", "5H", "2S", "9S", "9C"]}
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            err(
                json!({"meld": {"new": [["KC", "KD", "JK"], ["5C", "5D", "5H"]]}}),
                "opening_minimum"
            ),
            ok(json!({"meld": {"new": [["KC", "KD", "JK"], ["5C", "5D", "5H", "2S"]]}}))
        ]),
    );
}

#[test]
fn opening_by_pickup_counts_the_top_card_only() {
    let position = json!({
        "phase": "draw",
        "hands": {"S": ["AS", "AC", "7D", "8D"]},
        "pile": ["KS", "KH", "AD"]
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            json!({"do": {"pickup": {"with": ["AS", "AC"], "onto": null}}, "expect": "ok",
               "state": {"hand_size": {"S": 4}, "pile_size": 0, "meld_sizes": {"A": [3]}}})
        ]),
    );
}

#[test]
fn sequences_run_four_to_ace_in_one_suit() {
    let hand = json!({
        "hands": {"S": ["4H", "5H", "6H", "QS", "KS", "AS", "9C"]},
        "melds": {"A": [["KC", "KD", "KH"]], "B": []}
    });
    run(
        "samba",
        json!({}),
        hand.clone(),
        json!([
            ok(meld_new(json!(["4H", "5H", "6H"]))),
            ok(meld_new(json!(["QS", "KS", "AS"])))
        ]),
    );
    run(
        "canasta",
        json!({}),
        hand,
        json!([err(meld_new(json!(["4H", "5H", "6H"])), "not_in_preset")]),
    );
}

#[test]
fn samba_is_closed_at_seven() {
    let position = json!({
        "hands": {"S": ["7D", "5C", "6C"]},
        "melds": {"A": [["8D", "9D", "TD", "JD", "QD", "KD", "AD"]], "B": []}
    });
    run(
        "samba",
        json!({}),
        position,
        json!([err(
            json!({"meld": {"add": [{"to": 0, "cards": ["7D"]}]}}),
            "invalid_sequence"
        )]),
    );
}

#[test]
fn steal_takes_the_whole_pile_when_not_frozen() {
    let position = json!({
        "turn": "W", "phase": "draw",
        "hands": {"W": ["KD", "9C"]},
        "melds": {"A": [], "B": [["7C", "7D", "7H"]]},
        "pile": ["KC", "9D", "7S"]
    });
    run(
        "samba",
        json!({}),
        position.clone(),
        json!([
            json!({"do": {"pickup": {"with": [], "onto": 0}}, "expect": "ok", "state": {"hand_size": {"W": 4}, "pile_size": 0}})
        ]),
    );
    let mut frozen = position;
    frozen["pile_frozen"] = json!(true);
    run(
        "samba",
        json!({}),
        frozen,
        json!([err(
            json!({"pickup": {"with": [], "onto": 0}}),
            "pile_frozen"
        )]),
    );
}

#[test]
fn natural_and_wild_take_only_in_canasta() {
    let position = json!({
        "turn": "W", "phase": "draw",
        "hands": {"W": ["8D", "JK", "5C"]},
        "melds": {"A": [], "B": [["QC", "QD", "QH"]]},
        "pile": ["KC", "8S"]
    });
    run(
        "samba",
        json!({}),
        position.clone(),
        json!([err(
            json!({"pickup": {"with": ["8D", "JK"], "onto": null}}),
            "pickup_invalid"
        )]),
    );
    run(
        "canasta",
        json!({}),
        position,
        json!([ok(json!({"pickup": {"with": ["8D", "JK"], "onto": null}}))]),
    );
}

#[test]
fn dutch_take_top_takes_only_the_top_card() {
    let position = json!({
        "turn": "W", "phase": "draw",
        "hands": {"W": ["5C", "6S"]},
        "melds": {"A": [], "B": [["6H", "7H", "8H"]]},
        "pile": ["KC", "KD", "9H"]
    });
    run(
        "dutch-samba",
        json!({}),
        position.clone(),
        json!([
            json!({"do": {"take_top": {"onto": 0}}, "expect": "ok", "state": {"pile_size": 2, "meld_sizes": {"B": [4]}}})
        ]),
    );
    run(
        "samba",
        json!({}),
        position,
        json!([err(json!({"take_top": {"onto": 0}}), "not_in_preset")]),
    );
}

#[test]
fn wild_or_three_on_top_blocks_the_pile() {
    for top in ["JK", "2S", "3S"] {
        let position = json!({
            "turn": "W", "phase": "draw",
            "hands": {"W": ["3C", "3C", "5C"]},
            "melds": {"A": [], "B": [["QC", "QD", "QH"]]},
            "pile": ["KC", top]
        });
        for preset in ["samba", "dutch-samba", "canasta"] {
            run(
                preset,
                json!({}),
                position.clone(),
                json!([err(
                    json!({"pickup": {"with": ["3C", "3C"], "onto": null}}),
                    "pile_blocked"
                )]),
            );
        }
    }
}

#[test]
fn wild_discard_freezes_the_pile() {
    let position =
        json!({"hands": {"S": ["2H", "5C", "9D"]}, "melds": {"A": [["KC", "KD", "KH"]], "B": []}});
    run(
        "samba",
        json!({}),
        position.clone(),
        json!([
            json!({"do": {"discard": "2H"}, "expect": "ok", "state": {"pile_frozen": true, "turn": "W"}})
        ]),
    );
    run(
        "dutch-samba",
        json!({}),
        position,
        json!([json!({"do": {"discard": "2H"}, "expect": "ok", "state": {"pile_frozen": false}})]),
    );
}

#[test]
fn red_threes_replaced_in_samba_kept_in_dutch() {
    let position = json!({"phase": "draw", "stock": ["3H", "8S", "KD", "4C", "5C"], "melds": {"A": [["QC", "QD", "QH"]], "B": []}});
    run(
        "samba",
        json!({}),
        position.clone(),
        json!([
            json!({"do": {"draw": {}}, "expect": "ok", "state": {"hand_size": {"S": 5}, "red_threes": {"A": 1}, "stock_size": 2}})
        ]),
    );
    run(
        "dutch-samba",
        json!({}),
        position,
        json!([
            json!({"do": {"draw": {}}, "expect": "ok", "state": {"hand_size": {"S": 5}, "red_threes": {"A": 0}, "stock_size": 3}}),
            json!({"do": {"lay_red_threes": ["3H"]}, "expect": "ok", "state": {"hand_size": {"S": 4}, "red_threes": {"A": 1}}})
        ]),
    );
}

#[test]
fn black_threes_only_when_going_out() {
    let position = json!({
        "hands": {"S": ["3S", "3C", "3S", "2H"]},
        "melds": {"A": [["KC", "KC", "KD", "KD", "KH", "KH", "KS"], ["9C", "9C", "9D", "9D", "9H", "9H", "9S"]], "B": []}
    });
    run(
        "samba",
        json!({}),
        position,
        json!([
            err(meld_new(json!(["3S", "3C", "3S"])), "black_threes"),
            json!({"do": {"go_out": {"plan": {"new": [["3S", "3C", "3S"]]}, "discard": "2H"}}, "expect": "ok", "state": {"hand_over": true}})
        ]),
    );
}

#[test]
fn going_out_needs_two_completed_combinations_in_samba() {
    let melds = json!({"A": [["KC", "KC", "KD", "KD", "KH", "KH", "KS"], ["4D", "5D", "6D", "7D", "8D", "9D"]], "B": []});
    run(
        "samba",
        json!({}),
        json!({"hands": {"S": ["5C"]}, "melds": melds.clone()}),
        json!([err(json!({"discard": "5C"}), "cannot_go_out")]),
    );
    // Completing the samba in the same turn makes the second combination (D30).
    run(
        "samba",
        json!({}),
        json!({"hands": {"S": ["TD", "5C"]}, "melds": melds}),
        json!([
            json!({"do": {"go_out": {"plan": {"add": [{"to": 1, "cards": ["TD"]}]}, "discard": "5C"}},
               "expect": "ok", "state": {"hand_over": true}})
        ]),
    );
}

#[test]
fn pass_with_one_card_when_not_allowed_out() {
    let position = json!({"hands": {"S": ["5C"]}, "melds": {"A": [["KC", "KD", "KH"]], "B": []}});
    run(
        "samba",
        json!({}),
        position.clone(),
        json!([
            err(json!({"discard": "5C"}), "cannot_go_out"),
            json!({"do": {"pass": {}}, "expect": "ok", "state": {"turn": "W", "hand_size": {"S": 1}}})
        ]),
    );
    run(
        "canasta",
        json!({}),
        position,
        json!([err(json!({"pass": {}}), "not_in_preset")]),
    );
}

#[test]
fn partner_answer_is_binding() {
    let position = json!({
        "phase": "draw",
        "hands": {"S": ["QC", "4D"]},
        "melds": {"A": [["9C", "9C", "9D", "9D", "9H", "9H", "9S"], ["QH", "QH", "QS"]], "B": []},
        "stock": ["QD", "JH", "KH"]
    });
    run(
        "canasta",
        json!({}),
        position.clone(),
        json!([
            ok(json!({"draw": {}})),
            ok(json!({"ask_partner": {}})),
            json!({"seat": "N", "do": {"answer": false}, "expect": "ok"}),
            err(
                json!({"go_out": {"plan": {"add": [{"to": 1, "cards": ["QC", "QD"]}]}, "discard": "4D"}}),
                "cannot_go_out"
            ),
            ok(json!({"discard": "4D"}))
        ]),
    );
    run(
        "canasta",
        json!({"must_ask": true}),
        position,
        json!([
            ok(json!({"draw": {}})),
            err(
                json!({"go_out": {"plan": {"add": [{"to": 1, "cards": ["QC", "QD"]}]}, "discard": "4D"}}),
                "cannot_go_out"
            )
        ]),
    );
}

#[test]
fn canasta_keeps_two_cards_until_it_may_go_out() {
    let position = json!({"hands": {"S": ["KC", "KD", "KH", "5C"]}, "melds": {"A": [["9C", "9D", "9H"]], "B": []}});
    run(
        "canasta",
        json!({}),
        position,
        json!([err(meld_new(json!(["KC", "KD", "KH"])), "cannot_go_out")]),
    );
}

#[test]
fn canasta_concealed_going_out_is_exempt_and_scores_200() {
    let position = json!({
        "phase": "draw",
        "scores": {"A": 2000, "B": 0},
        "hands": {"S": ["4C", "4C", "4D", "4D", "4H", "4H", "4S", "6C", "6D", "6H", "KS"], "N": ["5C"], "W": [], "E": []},
        "stock": ["6S", "9H"]
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            ok(json!({"draw": {}})),
            json!({"do": {"go_out": {"plan": {"new": [["4C", "4C", "4D", "4D", "4H", "4H", "4S"], ["6C", "6D", "6H", "6S"]]}, "discard": "KS"}},
               "expect": "ok", "state": {"hand_score": {"A": 35 + 500 + 20 + 200 - 5, "B": 0}}})
        ]),
    );
}

#[test]
fn hand_score_seed_002_example() {
    let position = json!({
        "hands": {"S": ["KD"], "N": ["KC", "7C"], "W": ["AS", "2C", "KS", "9H"], "E": ["KH", "9D", "8C", "5S"]},
        "melds": {
            "A": [["QC", "QC", "QD", "QD", "QH", "QH", "QS"], ["8C", "8S", "8D", "8D", "8H", "JK", "JK"], ["4C", "4D", "4H"]],
            "B": [["AC", "AD", "AH", "2D"], ["6C", "6D", "6H"]]
        },
        "red_threes": {"A": 2, "B": 1}
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            json!({"do": {"discard": "KD"}, "expect": "ok", "state": {"hand_over": true, "hand_score": {"A": 1320, "B": 100}}})
        ]),
    );
}

#[test]
fn red_threes_count_against_a_team_that_never_melded() {
    let position = json!({
        "hands": {"S": ["KD"], "N": ["5C"], "W": ["AS", "2C", "KS", "9H", "5D"], "E": ["KH", "9D", "8C", "5S", "4C"]},
        "melds": {"A": [["QC", "QC", "QD", "QD", "QH", "QH", "QS"]], "B": []},
        "red_threes": {"A": 0, "B": 1}
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            json!({"do": {"discard": "KD"}, "expect": "ok", "state": {"hand_score": {"B": -100 - 65 - 40}}})
        ]),
    );
}

#[test]
fn game_ends_at_target_and_ties_draw() {
    let tie = |b: i32| {
        json!({
            "scores": {"A": 4950, "B": b},
            "hands": {"S": ["KD"], "N": [], "W": [], "E": []},
            "melds": {"A": [["QC", "QC", "QD", "QD", "QH", "QH", "QS"]], "B": [["5C", "5D", "5H"]]}
        })
    };
    let last = |game: &str| {
        json!([json!({"do": {"discard": "KD"}, "expect": "ok", "state": {"game": game}})])
    };
    run("canasta", json!({}), tie(5605), last("draw"));
    run(
        "canasta",
        json!({"tie_rule": "play_another_hand"}),
        tie(5605),
        last("continue"),
    );
    run("canasta", json!({}), tie(4000), last("A"));
    let position = json!({
        "scores": {"A": 4950, "B": 5045},
        "hands": {"S": ["KD"], "N": [], "W": [], "E": []},
        "melds": {"A": [["QC", "QC", "QD", "QD", "QH", "QH", "QS"]], "B": [["5C", "5D", "5H"]]}
    });
    // A: 70 + 500 + 100 = 670 → 5,620; B: 15 → 5,060.
    run(
        "canasta",
        json!({}),
        position,
        json!([json!({"do": {"discard": "KD"}, "expect": "ok", "state": {"game": "A"}})]),
    );
}

#[test]
fn refused_moves_name_the_turn_and_phase() {
    run(
        "samba",
        json!({}),
        json!({"phase": "draw"}),
        json!([
            json!({"seat": "W", "do": {"draw": {}}, "expect": {"error": "not_your_turn"}}),
            err(json!({"discard": "5C"}), "wrong_phase"),
            err(json!({"answer": true}), "wrong_phase")
        ]),
    );
}

#[test]
fn canasta_no_question_with_one_card_left() {
    // E took the pile with two cards of his three and holds one: a "no" would leave him no
    // legal move, so the question is refused; discarding the last card goes out.
    let position = json!({
        "turn": "E", "phase": "draw",
        "hands": {"E": ["KH", "KD", "3C"], "S": ["5C"], "N": ["6C"], "W": ["7C"]},
        "melds": {"A": [], "B": [["JC", "JC", "JD", "JD", "JH", "JH", "JS"]]},
        "pile": ["KS"],
        "stock": ["4S", "9H"]
    });
    run(
        "canasta",
        json!({}),
        position,
        json!([
            ok(json!({"pickup": {"with": ["KH", "KD"], "onto": null}})),
            err(json!({"ask_partner": {}}), "ask_not_allowed"),
            json!({"do": {"discard": "3C"}, "expect": "ok", "state": {"hand_over": true}})
        ]),
    );
}

#[test]
fn classic_stock_end_compels_only_a_legal_take() {
    let position = json!({
        "turn": "W", "phase": "draw",
        "hands": {"W": ["6S"], "S": ["KH"], "N": ["QD"], "E": ["5C", "6C"]},
        "melds": {"A": [["AC", "AD", "AH"]], "B": [["JC", "JH", "JS"]]},
        "pile": ["JD"],
        "stock": []
    });
    // Holding one card he may not take a one-card pile, so he is not compelled: drawing from
    // the empty stock ends the hand.
    run(
        "canasta",
        json!({"stock_end": "classic"}),
        position.clone(),
        json!([
            err(json!({"pickup": {"with": [], "onto": 0}}), "pickup_invalid"),
            json!({"do": {"draw": {}}, "expect": "ok", "state": {"hand_over": true}})
        ]),
    );
    let mut two = position;
    two["hands"]["W"] = json!(["6S", "7S"]);
    run(
        "canasta",
        json!({"stock_end": "classic"}),
        two,
        json!([
            err(json!({"draw": {}}), "must_take_pile"),
            ok(json!({"pickup": {"with": [], "onto": 0}}))
        ]),
    );
}

#[test]
fn an_empty_plan_is_refused() {
    run(
        "samba",
        json!({}),
        json!({"melds": {"A": [["KC", "KD", "KH"]], "B": []}}),
        json!([err(json!({"meld": {}}), "invalid_group")]),
    );
}
