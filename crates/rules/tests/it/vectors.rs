//! docs/rules.md, section 8: every vector that needs no turn sequence.

use gin_rules::{HandOutcome, HandScore, KnockKind, Meld, Player, Ruleset, Solver, score_hand};

use crate::cards;

fn melds(texts: &[&str]) -> Vec<Meld> {
    texts.iter().map(|text| Meld::new(cards(text), false).unwrap()).collect()
}

fn meld_strings(solver: Solver, hand: &str) -> Vec<String> {
    let mut melds: Vec<String> = solver.best_arrangement(cards(hand)).melds().iter().map(ToString::to_string).collect();
    melds.sort();
    melds
}

#[test]
fn v1_a_four_card_set_is_not_always_best() {
    let solver = Solver::ACE_LOW;
    let hand = "7S 7H 7D 7C 8C 9C 2D 3D 4D KH";
    assert_eq!(solver.min_deadwood(cards(hand)), 10);
    assert_eq!(meld_strings(solver, hand), ["2D3D4D", "7C8C9C", "7S7H7D"]);
}

#[test]
fn v2_sets_beat_the_long_run() {
    let solver = Solver::ACE_LOW;
    let hand = "3H 4H 5H 5S 5D 9C 9D 9S 2C AC";
    assert_eq!(solver.min_deadwood(cards(hand)), 10);
    assert_eq!(meld_strings(solver, hand), ["5S5H5D", "9S9D9C"]);
}

#[test]
fn v3_knock_eligibility_is_the_minimum_over_discards() {
    let solver = Solver::ACE_LOW;
    let hand = cards("3C 5C 6C 2D 4D 5D 6D 3H 4H 5H 6H");
    assert!(solver.can_knock(hand, 10));
    assert!(!solver.can_knock(hand, 9));
    let best = solver.best_discards(hand);
    assert_eq!(best.deadwood, 10);
    assert!(best.discards.contains("6C".parse().unwrap()));
    let after = hand.without("6C".parse().unwrap());
    assert_eq!(meld_strings(solver, &after.to_string()), ["3H4H5H6H", "4D5D6D"]);
}

#[test]
fn v4_all_eleven_melded() {
    let solver = Solver::ACE_LOW;
    let hand = cards("AS 2S 3S 4S 5C 5D 5H 9H TH JH QH");
    assert!(solver.is_all_melded(hand), "big gin where enabled");
    let best = solver.best_discards(hand);
    assert_eq!(best.deadwood, 0, "else discard and keep gin");
    assert_eq!(best.discards, cards("AS 4S 9H QH"));
}

#[test]
fn v5_best_discard_is_not_max_melded_then_drop() {
    let solver = Solver::ACE_LOW;
    let hand = cards("AS 2S 4S 2H 4H AD 2D 3D 4D AC 2C");
    let best = solver.best_discards(hand);
    assert_eq!(best.deadwood, 0);
    assert_eq!(best.discards, cards("3D"));
}

#[test]
fn v6_a_chain_lays_off() {
    let knocker = melds(&["5S 6S 7S", "JD QD KD"]);
    let defense = Solver::ACE_LOW.defend(&knocker, cards("8S 9S 4S"));
    assert_eq!(defense.laid_off, cards("8S 9S 4S"));
    assert_eq!(defense.deadwood, 0);
}

#[test]
fn v7_two_cards_below_a_run() {
    let knocker = melds(&["7S 7H 7D", "8C 9C TC", "JD QD KD"]);
    let defense = Solver::ACE_LOW.defend(&knocker, cards("7C 6C"));
    assert_eq!(defense.laid_off, cards("7C 6C"));
    assert_eq!(defense.deadwood, 0);
}

#[test]
fn v8_the_knockers_arrangement_decides_the_layoffs() {
    let solver = Solver::ACE_LOW;
    let knocker = cards("AS 5S 6S 7S 5C 6C 7C 5D 6D 7D");
    assert_eq!(solver.min_deadwood(knocker), 1);
    let defender = cards("3S 4S 8S 4C 8C 4D 8D 5H 6H 7H");
    let runs = solver.defend(&melds(&["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"]), defender);
    // Laying off all seven, or the 3S 4S 4C 4D and melding the eights: both leave nothing.
    assert_eq!(runs.deadwood, 0);
    assert!(cards("3S 4S 4C 4D").is_subset(runs.laid_off));
    assert!(runs.arrangement.melds().iter().any(|meld| meld.cards() == cards("5H 6H 7H")));
    let sets = solver.defend(&melds(&["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]), defender);
    assert_eq!(sets.deadwood, 3);
    assert_eq!(sets.arrangement.unmelded(), cards("3S"));
}

#[test]
fn v10_a_layoff_turns_a_knock_into_an_undercut() {
    let solver = Solver::ACE_LOW;
    let knocker = cards("AS 2S 3S 7H 7D 7C JC QC KC 3H");
    assert_eq!(solver.min_deadwood(knocker), 3);
    let shown: Vec<Meld> = solver.best_arrangement(knocker).melds().to_vec();
    let defender = cards("4S 9D 9H 9S TD TH TS 4D 5D 6D");
    assert_eq!(solver.min_deadwood(defender), 4);
    let defense = solver.defend(&shown, defender);
    assert_eq!(defense.laid_off, cards("4S"));
    assert_eq!(defense.deadwood, 0);
}

#[test]
fn v13_breaking_own_melds_to_lay_off() {
    let solver = Solver::ACE_LOW;
    let shown = melds(&["KS KC KD", "5S 6S 7S", "9C TC JC"]);
    let defender = cards("2S 8S 9S AC 2C 7C 8C 2D 8D 2H");
    assert_eq!(solver.min_deadwood(defender), 17);
    let defense = solver.defend(&shown, defender);
    assert_eq!(defense.deadwood, 9);
    assert_eq!(defense.laid_off, cards("8S 9S 8C 7C"));
    assert_eq!(defense.arrangement.unmelded(), cards("AC 8D"));
}

#[test]
fn v14_what_each_meld_accepts() {
    let accepts = |text: &str| melds(&[text])[0].layoff_targets(false);
    assert!(accepts("7S 7H 7D 7C").is_empty());
    assert_eq!(accepts("7S 7H 7D"), cards("7C"));
    assert_eq!(accepts("AS 2S 3S"), cards("4S"));
    assert_eq!(accepts("JH QH KH"), cards("TH"));
    // The defender's solver agrees: nothing goes on a 4-card set, below an ace or above a king.
    let solver = Solver::ACE_LOW;
    let shown = melds(&["7S 7H 7D 7C", "AS 2S 3S", "JH QH KH"]);
    assert_eq!(solver.defend(&shown, cards("4S TH AH KS")).laid_off, cards("4S TH"));
}

/// A hand won by `winner` with `base + bonus` points, not doubled.
fn scored(outcome: HandOutcome, winner: Player, base: u32, bonus: u32) -> HandScore {
    HandScore { outcome, winner: Some(winner), points: base + bonus, base, bonus, doubled: false }
}

/// Scores a knock under `rules` from the hands, as the referee would: the knocker shows a best
/// arrangement and the defender answers with its best defense.
fn score_knock(rules: &Ruleset, knocker: &str, defender: &str, upcard: &str) -> HandScore {
    let solver = rules.solver();
    let shown = solver.best_arrangement(cards(knocker));
    let kind = if shown.deadwood() == 0 { KnockKind::Gin } else { KnockKind::Knock };
    let defense = if kind == KnockKind::Gin {
        solver.best_arrangement(cards(defender)).deadwood()
    } else {
        solver.defend(shown.melds(), cards(defender)).deadwood
    };
    score_hand(rules, Player::One, kind, shown.deadwood(), defense, upcard.parse().unwrap())
}

#[test]
fn v8_and_v10_and_v13_scores() {
    let rules = Ruleset::standard();
    let solver = rules.solver();
    let v8 = cards("3S 4S 8S 4C 8C 4D 8D 5H 6H 7H");
    let runs = solver.defend(&melds(&["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"]), v8);
    let score = score_hand(&rules, Player::One, KnockKind::Knock, 1, runs.deadwood, "KH".parse().unwrap());
    assert_eq!(score, scored(HandOutcome::Undercut, Player::Two, 1, 25));
    let sets = solver.defend(&melds(&["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]), v8);
    let score = score_hand(&rules, Player::One, KnockKind::Knock, 1, sets.deadwood, "KH".parse().unwrap());
    assert_eq!(score, scored(HandOutcome::Knock, Player::One, 2, 0));

    let v10 = score_knock(&rules, "AS 2S 3S 7H 7D 7C JC QC KC 3H", "4S 9D 9H 9S TD TH TS 4D 5D 6D", "KH");
    assert_eq!(v10, scored(HandOutcome::Undercut, Player::Two, 3, 25));

    let v13 = solver.defend(&melds(&["KS KC KD", "5S 6S 7S", "9C TC JC"]), cards("2S 8S 9S AC 2C 7C 8C 2D 8D 2H"));
    let score = score_hand(&rules, Player::One, KnockKind::Knock, 10, v13.deadwood, "KH".parse().unwrap());
    assert_eq!(score, scored(HandOutcome::Undercut, Player::Two, 1, 25));
}

#[test]
fn v9_a_tie_is_an_undercut() {
    let score = score_hand(&Ruleset::standard(), Player::One, KnockKind::Knock, 5, 5, "KH".parse().unwrap());
    assert_eq!(score, scored(HandOutcome::Undercut, Player::Two, 0, 25));
}

#[test]
fn v12_gin_against_zero_deadwood() {
    let rules = Ruleset::standard();
    let score = score_knock(&rules, "AS 2S 3S 7H 7D 7C JC QC KC TC", "4S 5S 6S 9D 9H 9S 2D 3D 4D 5D", "KH");
    assert_eq!(score, scored(HandOutcome::Gin, Player::One, 0, 25));
}

#[test]
fn v15_oklahoma_ace_upcard_means_gin_only() {
    let rules = Ruleset::oklahoma();
    let limit = rules.knock_limit_for("AC".parse().unwrap());
    assert_eq!(limit, 0);
    // Deadwood 1 after the best discard: knockable under 1, not under the ace's 0.
    let hand = cards("2S 3S 4S 7H 7D 7C JC QC KC AD 9H");
    assert_eq!(rules.solver().best_discards(hand).deadwood, 1);
    assert!(!rules.solver().can_knock(hand, limit));
    let two_upcard = rules.knock_limit_for("2C".parse().unwrap());
    assert_eq!(two_upcard, 2);
    assert!(rules.solver().can_knock(hand, two_upcard));
}
