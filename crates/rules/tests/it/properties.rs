//! The fast solvers against the slow references, on random and meld-dense hands of 0 to 11 cards.

use gin_cards::{Card, CardSet, random};
use gin_rules::{Arrangement, Meld, Ruleset, Solver, melds_in, reference};
use proptest::prelude::*;

/// Any 0 to 11 cards.
fn random_hand() -> impl Strategy<Value = CardSet> {
    proptest::sample::subsequence((0..52).collect::<Vec<u8>>(), 0..=11).prop_map(to_set)
}

/// 0 to 11 cards out of five neighbouring ranks in all suits: sets and runs everywhere.
fn dense_hand() -> impl Strategy<Value = CardSet> {
    (0u8..9, proptest::sample::subsequence((0..20).collect::<Vec<u8>>(), 0..=11))
        .prop_map(|(low, picks)| picks.into_iter().map(|i| card(low + i % 5, i / 5)).collect())
}

/// 0 to 11 cards out of the ranks J Q K A 2 3, where the ace rule matters.
fn corner_hand() -> impl Strategy<Value = CardSet> {
    proptest::sample::subsequence((0..24).collect::<Vec<u8>>(), 0..=11)
        .prop_map(|picks| picks.into_iter().map(|i| card((10 + i % 6) % 13, i / 6)).collect())
}

fn any_hand() -> impl Strategy<Value = CardSet> {
    prop_oneof![random_hand(), dense_hand(), corner_hand()]
}

fn card(rank: u8, suit: u8) -> Card {
    Card::from_index(suit * 13 + rank).expect("rank < 13 and suit < 4")
}

fn to_set(indices: Vec<u8>) -> CardSet {
    indices.into_iter().filter_map(Card::from_index).collect()
}

/// Checks an arrangement: real, disjoint melds inside the hand, and the deadwood adds up.
fn check_arrangement(arrangement: &Arrangement, hand: CardSet, ace_high: bool) -> Result<(), TestCaseError> {
    let mut used = CardSet::EMPTY;
    for meld in arrangement.melds() {
        let checked = Meld::new(meld.cards(), ace_high);
        prop_assert_eq!(checked, Ok(*meld), "not a real meld");
        prop_assert!(meld.cards().is_disjoint(used), "melds overlap in {:?}", arrangement);
        used |= meld.cards();
    }
    prop_assert!(used.is_disjoint(arrangement.unmelded()));
    prop_assert_eq!(used | arrangement.unmelded(), hand);
    prop_assert_eq!(arrangement.deadwood(), arrangement.unmelded().value());
    Ok(())
}

/// A way the knocker might show its melds: disjoint melds of its hand picked in a seeded order,
/// so not always a best arrangement (docs/rules.md, V8).
fn shown_melds(knocker: CardSet, ace_high: bool, seed: u64) -> Vec<Meld> {
    let mut melds = melds_in(knocker, ace_high);
    random::shuffle(&mut random::seeded_rng(seed), &mut melds);
    let mut used = CardSet::EMPTY;
    melds.retain(|meld| {
        let free = meld.cards().is_disjoint(used);
        if free {
            used |= meld.cards();
        }
        free
    });
    melds
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn min_deadwood_matches_the_reference(hand in any_hand(), ace_high in any::<bool>()) {
        let solver = Solver::new(ace_high);
        prop_assert_eq!(solver.min_deadwood(hand), reference::min_deadwood(hand, ace_high), "{}", hand);
    }

    #[test]
    fn can_meld_matches_the_meld_list(hand in any_hand(), index in 0u8..52, ace_high in any::<bool>()) {
        let card = Card::from_index(index).unwrap();
        let listed = melds_in(hand.with(card), ace_high).iter().any(|meld| meld.cards().contains(card));
        prop_assert_eq!(Solver::new(ace_high).can_meld(hand, card), listed, "{} with {}", card, hand);
    }

    #[test]
    fn every_best_arrangement_is_valid_and_least(hand in any_hand(), ace_high in any::<bool>()) {
        let solver = Solver::new(ace_high);
        let all = solver.best_arrangements(hand);
        prop_assert!(!all.is_empty());
        let least = solver.min_deadwood(hand);
        for arrangement in &all {
            check_arrangement(arrangement, hand, ace_high)?;
            prop_assert_eq!(arrangement.deadwood(), least);
        }
    }

    #[test]
    fn best_arrangement_is_valid_and_least(hand in any_hand(), ace_high in any::<bool>()) {
        let solver = Solver::new(ace_high);
        let arrangement = solver.best_arrangement(hand);
        check_arrangement(&arrangement, hand, ace_high)?;
        prop_assert_eq!(arrangement.deadwood(), reference::min_deadwood(hand, ace_high));
    }

    #[test]
    fn best_discards_match_the_reference(hand in any_hand(), ace_high in any::<bool>()) {
        let solver = Solver::new(ace_high);
        let fast = solver.best_discards(hand);
        let slow = reference::best_discards(hand, ace_high);
        prop_assert_eq!((fast.deadwood, fast.discards), slow, "{}", hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn layoff_validity_matches_the_reference(
        low in 0u8..9,
        order in any::<u64>(),
        offered in proptest::sample::subsequence((0..10).collect::<Vec<usize>>(), 0..=6),
        ace_high in any::<bool>(),
    ) {
        // A dense window, so that many offered cards touch the knocker's melds.
        let mut window: Vec<Card> = (0..20).map(|i| card((low + i % 5) % 13, i / 5)).collect();
        random::shuffle(&mut random::seeded_rng(order), &mut window);
        let knocker: CardSet = window[..10].iter().copied().collect();
        let melds = shown_melds(knocker, ace_high, order);
        let laid: CardSet = offered.iter().map(|&i| window[10 + i]).collect();
        let solver = Solver::new(ace_high);
        prop_assert_eq!(solver.is_valid_layoff(&melds, laid), reference::is_valid_layoff(&melds, laid, ace_high), "{} on {:?}", laid, melds);
    }

    #[test]
    fn defense_matches_the_reference(
        dense in any::<bool>(),
        low in 0u8..9,
        deal in proptest::sample::subsequence((0..52).collect::<Vec<u8>>(), 20),
        order in any::<u64>(),
        ace_high in any::<bool>(),
    ) {
        // Twenty cards, from a dense window of ranks or from the whole deck; ten each.
        let cards: Vec<Card> = if dense {
            let mut window: Vec<Card> = (0..20).map(|i| card((low + i % 5) % 13, i / 5)).collect();
            random::shuffle(&mut random::seeded_rng(order), &mut window);
            window
        } else {
            deal.iter().filter_map(|&i| Card::from_index(i)).collect()
        };
        let knocker: CardSet = cards[..10].iter().copied().collect();
        let defender: CardSet = cards[10..].iter().copied().collect();
        let solver = Solver::new(ace_high);
        let melds = shown_melds(knocker, ace_high, order);
        let defense = solver.defend(&melds, defender);
        prop_assert_eq!(defense.deadwood, reference::defend(&melds, defender, ace_high), "{} vs {:?}", defender, melds);
        prop_assert!(defense.laid_off.is_subset(defender));
        prop_assert!(reference::is_valid_layoff(&melds, defense.laid_off, ace_high));
        prop_assert!(solver.is_valid_layoff(&melds, defense.laid_off));
        check_arrangement(&defense.arrangement, defender - defense.laid_off, ace_high)?;
        prop_assert_eq!(defense.arrangement.deadwood(), defense.deadwood);
        prop_assert_eq!(solver.defense_deadwood(&melds, defender), defense.deadwood);
        // Laying off never leaves more than the defender's own best melds would.
        prop_assert!(defense.deadwood <= solver.min_deadwood(defender));
    }
}

/// The least deadwood after discarding one of `allowed` from `hand`, and the cards that reach
/// it, by trying each with the reference solver; `None` when no card of `hand` is allowed.
fn slow_best_discards_among(hand: CardSet, allowed: CardSet, ace_high: bool) -> Option<(u32, CardSet)> {
    let tried: Vec<(u32, Card)> =
        (hand & allowed).iter().map(|card| (reference::min_deadwood(hand.without(card), ace_high), card)).collect();
    let least = tried.iter().map(|&(deadwood, _)| deadwood).min()?;
    Some((least, tried.iter().filter(|&&(deadwood, _)| deadwood == least).map(|&(_, card)| card).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn best_discards_among_match_the_reference(
        hand in any_hand(),
        // Each card of the hand allowed or not, with every card and no card likely.
        allowed in prop_oneof![Just(u64::MAX), Just(0), any::<u64>()],
        ace_high in any::<bool>(),
    ) {
        let allowed = CardSet::from_bits_truncate(allowed);
        let fast = Solver::new(ace_high).best_discards_among(hand, allowed);
        let slow = slow_best_discards_among(hand, allowed, ace_high);
        prop_assert_eq!(fast.map(|best| (best.deadwood, best.discards)), slow, "{} among {}", hand, allowed);
    }

    #[test]
    fn best_legal_discards_never_let_the_taken_card_go(
        hand in any_hand(),
        pick in any::<usize>(),
        may_discard_taken_card in any::<bool>(),
        ace_high in any::<bool>(),
    ) {
        let rules = Ruleset { may_discard_taken_card, ace_high, ..Ruleset::standard() };
        let taken = hand.iter().nth(pick % hand.len().max(1));
        let allowed = match taken {
            Some(card) if !may_discard_taken_card => hand.without(card),
            _ => hand,
        };
        let fast = rules.best_legal_discards(hand, taken);
        let slow = slow_best_discards_among(hand, allowed, ace_high);
        prop_assert_eq!(fast.map(|best| (best.deadwood, best.discards)), slow, "{} taking {:?}", hand, taken);
        // Some discard knocks exactly when the best legal discard is within the limit.
        let knocks = rules.knock_discards(hand, taken, 10);
        prop_assert_eq!(!knocks.is_empty(), fast.is_some_and(|best| best.deadwood <= 10));
    }
}
