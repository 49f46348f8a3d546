//! The 2,000 hands of `fixtures/deadwood.tsv` (random and meld-dense, 10 and 11 cards) with their
//! exact deadwood from an exhaustive reference that agrees with other public engines.

use gin_rules::Solver;

use crate::cards;

const TSV: &str = include_str!("../../../../fixtures/deadwood.tsv");

#[test]
fn the_solver_matches_every_reference_hand() {
    let solver = Solver::ACE_LOW;
    let mut checked = (0, 0);
    for (number, line) in TSV.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [hand, deadwood, after] = fields[..] else { panic!("line {}: {line:?}", number + 1) };
        let hand = cards(hand);
        let deadwood: u32 = deadwood.parse().unwrap();
        assert_eq!(solver.min_deadwood(hand), deadwood, "line {}: {hand}", number + 1);
        assert_eq!(solver.best_arrangement(hand).deadwood(), deadwood, "line {}: {hand}", number + 1);
        if after == "NA" {
            assert_eq!(hand.len(), 10);
            checked.0 += 1;
        } else {
            assert_eq!(hand.len(), 11);
            let after: u32 = after.parse().unwrap();
            assert_eq!(solver.best_discards(hand).deadwood, after, "line {}: {hand}", number + 1);
            checked.1 += 1;
        }
    }
    assert_eq!(checked.0 + checked.1, 2000);
    assert!(checked.0 > 0 && checked.1 > 0, "{checked:?}");
}
