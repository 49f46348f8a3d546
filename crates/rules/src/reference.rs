//! Slow, obviously correct versions of the solvers, to check the fast ones against.
//!
//! They search every combination of the melds [`melds_in`] lists, with no tables and no
//! shortcuts. Use them in tests only: their cost grows exponentially with the hand.

use gin_cards::CardSet;

use crate::{Meld, MeldKind, melds_in};

/// The least deadwood of `hand`: its first card is either unmelded or in one of the melds that
/// contain it, and the rest is solved the same way.
pub fn min_deadwood(hand: CardSet, ace_high: bool) -> u32 {
    fn search(rest: CardSet, melds: &[Meld]) -> u32 {
        let Some(card) = rest.first() else { return 0 };
        let mut best = u32::from(card.value()) + search(rest.without(card), melds);
        for meld in melds {
            if meld.cards().contains(card) && meld.cards().is_subset(rest) {
                best = best.min(search(rest - meld.cards(), melds));
            }
        }
        best
    }
    search(hand, &melds_in(hand, ace_high))
}

/// The least deadwood after one discard and every discard that reaches it, by trying each.
pub fn best_discards(hand: CardSet, ace_high: bool) -> (u32, CardSet) {
    let mut best = (u32::MAX, CardSet::EMPTY);
    for card in hand {
        let deadwood = min_deadwood(hand.without(card), ace_high);
        if deadwood < best.0 {
            best = (deadwood, CardSet::from_card(card));
        } else if deadwood == best.0 {
            best.1.insert(card);
        }
    }
    if hand.is_empty() { (0, CardSet::EMPTY) } else { best }
}

/// Whether `laid` can be laid off on `knocker_melds`: each card goes onto one meld, and each meld
/// with the cards it receives is still a meld of the same kind.
pub fn is_valid_layoff(knocker_melds: &[Meld], laid: CardSet, ace_high: bool) -> bool {
    fn assign(cards: &[gin_cards::Card], melds: &mut [CardSet], kinds: &[MeldKind], ace_high: bool) -> bool {
        let Some((&card, rest)) = cards.split_first() else {
            return melds
                .iter()
                .zip(kinds)
                .all(|(&cards, &kind)| Meld::new(cards, ace_high).is_ok_and(|meld| meld.kind() == kind));
        };
        for i in 0..melds.len() {
            melds[i].insert(card);
            let ok = assign(rest, melds, kinds, ace_high);
            melds[i].remove(card);
            if ok {
                return true;
            }
        }
        false
    }
    let cards: Vec<_> = laid.iter().collect();
    let mut melds: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let kinds: Vec<MeldKind> = knocker_melds.iter().map(|m| m.kind()).collect();
    assign(&cards, &mut melds, &kinds, ace_high)
}

/// The defender's least deadwood over its own melds and layoffs together: every subset of the
/// cards that share a rank or a suit with some knocker meld is tried as the cards laid off.
pub fn defend(knocker_melds: &[Meld], hand: CardSet, ace_high: bool) -> u32 {
    let mut related = CardSet::EMPTY;
    for meld in knocker_melds {
        for card in meld.cards() {
            let same = match meld.kind() {
                MeldKind::Set => CardSet::of_rank(card.rank()),
                MeldKind::Run => CardSet::from_suit_mask(card.suit(), 0x1fff),
            };
            related |= hand & same;
        }
    }
    let candidates: Vec<_> = related.iter().collect();
    let mut best = min_deadwood(hand, ace_high);
    for subset in 1u32..1 << candidates.len() {
        let laid: CardSet = (0..candidates.len()).filter(|i| subset >> i & 1 == 1).map(|i| candidates[i]).collect();
        if is_valid_layoff(knocker_melds, laid, ace_high) {
            best = best.min(min_deadwood(hand - laid, ace_high));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_traps() {
        let v1: CardSet = "7S 7H 7D 7C 8C 9C 2D 3D 4D KH".parse().unwrap();
        assert_eq!(min_deadwood(v1, false), 10);
        let v2: CardSet = "3H 4H 5H 5S 5D 9C 9D 9S 2C AC".parse().unwrap();
        assert_eq!(min_deadwood(v2, false), 10);
    }

    #[test]
    fn layoff_validity() {
        let run = [Meld::new("5S 6S 7S".parse().unwrap(), false).unwrap()];
        assert!(is_valid_layoff(&run, "8S 9S".parse().unwrap(), false));
        assert!(!is_valid_layoff(&run, "9S".parse().unwrap(), false));
        assert!(is_valid_layoff(&run, CardSet::EMPTY, false));
    }
}
