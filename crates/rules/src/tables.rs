//! Per-suit lookup tables of the best run cover, computed at compile time.
//!
//! For every 13-bit mask of ranks held in one suit (bit 0 = ace … bit 12 = king), the tables give
//! the least deadwood those cards leave when only runs may be formed, and the same after dropping
//! the best one card (with the set of cards whose drop reaches it). Sets are handled by the solver,
//! which tries each way of taking sets out before it looks the suits up.

/// Deadwood value of rank position `i` in a 14-position suit (13 is the ace played high).
const fn value(i: usize) -> u8 {
    if i == 13 {
        1
    } else if i >= 9 {
        10
    } else {
        i as u8 + 1
    }
}

/// Least run-only deadwood of every 14-bit mask, where bit 13 is an ace that may only be high.
///
/// The lowest card held is either deadwood or the first card of a run, so
/// `best(m) = min(value(low) + best(m - low), best(m - run))` over the runs starting at `low`;
/// every mask it refers to is smaller, so one pass in increasing order fills the table.
const fn runs14() -> [u8; 1 << 14] {
    let mut best = [0u8; 1 << 14];
    let mut mask = 1usize;
    while mask < 1 << 14 {
        let low = mask.trailing_zeros() as usize;
        let mut answer = value(low) + best[mask & (mask - 1)];
        let mut run = 1usize << low;
        let mut end = low + 1;
        while end < 14 && mask >> end & 1 == 1 {
            run |= 1 << end;
            if end - low >= 2 && best[mask & !run] < answer {
                answer = best[mask & !run];
            }
            end += 1;
        }
        best[mask] = answer;
        mask += 1;
    }
    best
}

const RUNS14: [u8; 1 << 14] = runs14();

/// Run-only deadwood of every suit mask, aces low (`ace_high = false`) or either (`true`).
const fn runs13(ace_high: bool) -> [u8; 1 << 13] {
    let mut table = [0u8; 1 << 13];
    let mut mask = 0usize;
    while mask < 1 << 13 {
        let low = RUNS14[mask];
        table[mask] = if ace_high && mask & 1 == 1 {
            let high = RUNS14[(mask & !1) | 1 << 13];
            if high < low { high } else { low }
        } else {
            low
        };
        mask += 1;
    }
    table
}

/// For every suit mask: the least run-only deadwood after dropping one of its cards (`u8::MAX`
/// for the empty mask), and the 13-bit mask of the cards whose drop reaches it.
const fn drops(runs: &[u8; 1 << 13]) -> ([u8; 1 << 13], [u16; 1 << 13]) {
    let mut best = [u8::MAX; 1 << 13];
    let mut which = [0u16; 1 << 13];
    let mut mask = 1usize;
    while mask < 1 << 13 {
        let mut rest = mask;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            let left = runs[mask & !bit];
            if left < best[mask] {
                best[mask] = left;
                which[mask] = bit as u16;
            } else if left == best[mask] {
                which[mask] |= bit as u16;
            }
            rest &= rest - 1;
        }
        mask += 1;
    }
    (best, which)
}

/// The tables for one ace rule.
pub(crate) struct Tables {
    /// Least run-only deadwood of a suit mask.
    pub runs: [u8; 1 << 13],
    /// Least run-only deadwood after dropping one card of the mask (`u8::MAX` when empty).
    pub drop: [u8; 1 << 13],
    /// The cards whose drop reaches `drop`.
    pub drop_which: [u16; 1 << 13],
}

const fn tables(ace_high: bool) -> Tables {
    let runs = runs13(ace_high);
    let (drop, drop_which) = drops(&runs);
    Tables { runs, drop, drop_which }
}

/// Aces low (every preset).
pub(crate) static ACE_LOW: Tables = tables(false);
/// Aces low or high (Q-K-A), never around the corner.
pub(crate) static ACE_HIGH: Tables = tables(true);

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(ranks: &str) -> usize {
        ranks.chars().map(|c| 1usize << "A23456789TJQK".find(c).unwrap()).sum()
    }

    #[test]
    fn run_cover_examples() {
        let t = &ACE_LOW;
        assert_eq!(t.runs[0], 0);
        assert_eq!(t.runs[mask("A23")], 0);
        assert_eq!(t.runs[mask("A24")], 7);
        assert_eq!(t.runs[mask("A234567")], 0);
        assert_eq!(t.runs[mask("QKA")], 21);
        assert_eq!(ACE_HIGH.runs[mask("QKA")], 0);
        assert_eq!(ACE_HIGH.runs[mask("KA2")], 13);
        assert_eq!(ACE_HIGH.runs[mask("A23QK")], 5);
        assert_eq!(t.runs[mask("A23QK")], 20);
        assert_eq!(t.runs[mask("23456789TJQK")], 0);
    }

    #[test]
    fn every_suit_mask_matches_the_reference() {
        use gin_cards::{CardSet, Suit};
        for (tables, ace_high) in [(&ACE_LOW, false), (&ACE_HIGH, true)] {
            for mask in 0..1u16 << 13 {
                let cards = CardSet::from_suit_mask(Suit::Hearts, mask);
                let runs = crate::reference::min_deadwood(cards, ace_high);
                assert_eq!(u32::from(tables.runs[usize::from(mask)]), runs, "{cards} ace_high={ace_high}");
                if mask != 0 {
                    let (drop, which) = crate::reference::best_discards(cards, ace_high);
                    assert_eq!(u32::from(tables.drop[usize::from(mask)]), drop, "{cards}");
                    let which_mask = which.suit_mask(Suit::Hearts);
                    assert_eq!(tables.drop_which[usize::from(mask)], which_mask, "{cards}");
                }
            }
        }
    }

    #[test]
    fn drop_examples() {
        let t = &ACE_LOW;
        // A234: dropping A or 4 leaves a run; dropping 2 or 3 does not.
        assert_eq!(t.drop[mask("A234")], 0);
        assert_eq!(usize::from(t.drop_which[mask("A234")]), mask("A4"));
        // 5 9 K: drop the king.
        assert_eq!(t.drop[mask("59K")], 14);
        assert_eq!(usize::from(t.drop_which[mask("59K")]), mask("K"));
        assert_eq!(t.drop[0], u8::MAX);
        assert_eq!(t.drop[mask("7")], 0);
    }
}
