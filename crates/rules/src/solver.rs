//! `Solver`: the exact minimum deadwood of a hand, its best arrangement and its best discards.

use std::fmt;

use gin_cards::{Card, CardSet, Suit};

use crate::tables::{ACE_HIGH, ACE_LOW, Tables};
use crate::{Arrangement, Meld, MeldKind};

/// One bit per suit lane at rank 0: shifted left by a rank, the four cards of that rank.
const RANK_BITS: u64 = 0x0001_0001_0001_0001;

/// The exact deadwood solver under one ace rule.
///
/// Runs come from per-suit tables of the best run cover (see `tables.rs`); sets are the only
/// thing that couples suits, so the solver tries each way of taking sets out of the ranks that
/// hold three or four cards (none, all, or, for four, each three) and looks the four suits up
/// for what is left. A hand of 11 cards has at most three such ranks, and a typical hand none,
/// so most hands cost four table lookups. Nothing allocates.
#[derive(Clone, Copy)]
pub struct Solver {
    tables: &'static Tables,
    ace_high: bool,
}

/// The best discards of a hand: the least deadwood left after discarding one card, and every
/// card whose discard leaves that much.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BestDiscards {
    /// The least deadwood of the hand less one card.
    pub deadwood: u32,
    /// The cards whose discard reaches it (empty only for an empty hand).
    pub discards: CardSet,
}

impl Solver {
    /// Aces low, as in every preset.
    pub const ACE_LOW: Solver = Solver { tables: &ACE_LOW, ace_high: false };

    /// A solver for this ace rule: with `ace_high`, Q-K-A also counts as a run (K-A-2 never does).
    pub const fn new(ace_high: bool) -> Solver {
        if ace_high { Solver { tables: &ACE_HIGH, ace_high } } else { Solver::ACE_LOW }
    }

    /// Whether Q-K-A counts as a run.
    pub const fn ace_high(self) -> bool {
        self.ace_high
    }

    /// The least deadwood of all the cards of `hand` (any size; built for up to 11 cards).
    #[inline]
    pub fn min_deadwood(self, hand: CardSet) -> u32 {
        let bits = hand.bits();
        match set_ranks(bits) {
            0 => self.runs(bits),
            ranks => self.min_with_sets(bits, ranks),
        }
    }

    /// One arrangement of `hand` with the least deadwood: its melds and unmelded cards.
    pub fn best_arrangement(self, hand: CardSet) -> Arrangement {
        let bits = hand.bits();
        let mut search = SetSearch { best: u32::MAX, best_sets: [0; 13], chosen: [0; 13] };
        self.arrange_with_sets(bits, set_ranks(bits), 0, &mut search);
        let mut arrangement = Arrangement::unmelded_hand(hand);
        let mut rest = bits;
        for &set in search.best_sets.iter().take_while(|&&set| set != 0) {
            let cards = CardSet::from_bits_truncate(set);
            arrangement.push(Meld::new_unchecked(cards, MeldKind::Set));
            rest &= !set;
        }
        for suit in Suit::ALL {
            self.push_runs(&mut arrangement, suit, CardSet::from_bits_truncate(rest).suit_mask(suit));
        }
        debug_assert_eq!(arrangement.deadwood(), search.best);
        arrangement
    }

    /// Every arrangement of `hand` with the least deadwood (a long run and the shorter runs it
    /// splits into count as different arrangements). This one allocates and searches: it is for
    /// choosing among best arrangements at a knock, not for inner loops.
    pub fn best_arrangements(self, hand: CardSet) -> Vec<Arrangement> {
        fn search(
            rest: CardSet,
            deadwood: u32,
            limit: u32,
            melds: &[Meld],
            chosen: &mut Vec<Meld>,
            hand: CardSet,
            out: &mut Vec<Arrangement>,
        ) {
            let Some(card) = rest.first() else {
                if let Ok(arrangement) = Arrangement::new(hand, chosen) {
                    out.push(arrangement);
                }
                return;
            };
            for &meld in melds {
                if meld.cards().contains(card) && meld.cards().is_subset(rest) {
                    chosen.push(meld);
                    search(rest - meld.cards(), deadwood, limit, melds, chosen, hand, out);
                    chosen.pop();
                }
            }
            let value = u32::from(card.value());
            if deadwood + value <= limit {
                search(rest.without(card), deadwood + value, limit, melds, chosen, hand, out);
            }
        }
        let limit = self.min_deadwood(hand);
        let melds = crate::melds_in(hand, self.ace_high);
        let mut out = Vec::new();
        search(hand, 0, limit, &melds, &mut Vec::new(), hand, &mut out);
        out
    }

    /// The least deadwood after discarding one card, and all the discards that reach it.
    ///
    /// For an 11-card hand this is the deadwood the player can knock with; an empty hand has no
    /// discard and gives deadwood 0 with no cards.
    pub fn best_discards(self, hand: CardSet) -> BestDiscards {
        let bits = hand.bits();
        if bits == 0 {
            return BestDiscards { deadwood: 0, discards: CardSet::EMPTY };
        }
        let mut best = BestDiscards { deadwood: u32::MAX, discards: CardSet::EMPTY };
        self.discards_with_sets(bits, set_ranks(bits), &mut best);
        best
    }

    /// The least deadwood after discarding one of the cards of `allowed` from `hand`, and every
    /// one of them whose discard leaves that much; `None` when `hand` holds none of them.
    ///
    /// With every card of the hand allowed this is [`Solver::best_discards`]. Otherwise the best
    /// discards that are allowed answer, and only when none is are the allowed cards tried one by
    /// one. [`Ruleset::best_legal_discards`](crate::Ruleset::best_legal_discards) asks it for the
    /// discards the rules allow.
    ///
    /// ```
    /// use gin_cards::CardSet;
    /// use gin_rules::Solver;
    ///
    /// let solver = Solver::ACE_LOW;
    /// let hand: CardSet = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD 2D".parse()?;
    /// let best = solver.best_discards_among(hand, hand).unwrap();
    /// assert_eq!((best.deadwood, best.discards.to_string()), (2, "KD".to_owned()));
    /// // Without the king the two goes; the ace alone breaks a run.
    /// assert_eq!(solver.best_discards_among(hand, hand.without("KD".parse()?)).unwrap().deadwood, 10);
    /// assert_eq!(solver.best_discards_among(hand, "AS".parse()?).unwrap().deadwood, 17);
    /// assert_eq!(solver.best_discards_among(hand, "QH".parse()?), None);
    /// # Ok::<(), gin_cards::ParseError>(())
    /// ```
    #[inline]
    pub fn best_discards_among(self, hand: CardSet, allowed: CardSet) -> Option<BestDiscards> {
        let allowed = allowed & hand;
        if allowed.is_empty() {
            return None;
        }
        let best = self.best_discards(hand);
        let reaching = best.discards & allowed;
        if !reaching.is_empty() {
            return Some(BestDiscards { deadwood: best.deadwood, discards: reaching });
        }
        // Only cards not allowed leave the least deadwood: the next best of the allowed ones.
        let mut best = BestDiscards { deadwood: u32::MAX, discards: CardSet::EMPTY };
        for card in allowed {
            let deadwood = self.min_deadwood(hand.without(card));
            if deadwood < best.deadwood {
                best = BestDiscards { deadwood, discards: CardSet::from_card(card) };
            } else if deadwood == best.deadwood {
                best.discards.insert(card);
            }
        }
        Some(best)
    }

    /// Whether an 11-card hand may knock under `limit`: some discard leaves at most `limit`.
    pub fn can_knock(self, hand: CardSet, limit: u32) -> bool {
        self.best_discards(hand).deadwood <= limit
    }

    /// Whether `card` forms some meld with cards of `hand`: two more of its rank, or two
    /// neighbours in its suit that make a run with it (under this solver's ace rule).
    pub fn can_meld(self, hand: CardSet, card: Card) -> bool {
        let others = hand.without(card);
        if (others & CardSet::of_rank(card.rank())).len() >= 2 {
            return true;
        }
        // The suit as positions 0..=13 (13: the ace again, when it may play high).
        let mask = u32::from(others.suit_mask(card.suit()));
        let suit = if self.ace_high { mask | (mask & 1) << 13 } else { mask };
        let run_through = |p: u32| {
            let with = suit | 1 << p;
            (p.saturating_sub(2)..=p).any(|low| low + 2 <= 13 && (with >> low) & 0b111 == 0b111)
        };
        let at = u32::from(card.rank().index());
        run_through(at) || (self.ace_high && at == 0 && run_through(13))
    }

    /// Whether every card of the hand can be melded: gin for 10 cards, big gin for 11.
    pub fn is_all_melded(self, hand: CardSet) -> bool {
        self.min_deadwood(hand) == 0
    }

    /// Run-only deadwood of the four suits of `bits`.
    #[inline(always)]
    fn runs(self, bits: u64) -> u32 {
        let t = &self.tables.runs;
        u32::from(t[(bits & 0x1fff) as usize])
            + u32::from(t[(bits >> 16 & 0x1fff) as usize])
            + u32::from(t[(bits >> 32 & 0x1fff) as usize])
            + u32::from(t[(bits >> 48 & 0x1fff) as usize])
    }

    /// The least deadwood of `rest`, trying each set choice for the ranks in `ranks`.
    fn min_with_sets(self, rest: u64, ranks: u16) -> u32 {
        if ranks == 0 {
            return self.runs(rest);
        }
        let same = rest & RANK_BITS << ranks.trailing_zeros();
        let ranks = ranks & (ranks - 1);
        let mut best = self.min_with_sets(rest & !same, ranks);
        if best == 0 {
            return 0;
        }
        best = best.min(self.min_with_sets(rest, ranks));
        if same.count_ones() == 4 {
            let mut each = same;
            while each != 0 && best != 0 {
                let card = each & each.wrapping_neg();
                best = best.min(self.min_with_sets(rest & !(same ^ card), ranks));
                each &= each - 1;
            }
        }
        best
    }

    /// As `min_with_sets`, remembering the sets of the best choice in `search`.
    fn arrange_with_sets(self, rest: u64, ranks: u16, depth: usize, search: &mut SetSearch) {
        if ranks == 0 {
            let deadwood = self.runs(rest);
            if deadwood < search.best {
                search.best = deadwood;
                search.best_sets = search.chosen;
                search.best_sets[depth..].fill(0);
            }
            return;
        }
        let same = rest & RANK_BITS << ranks.trailing_zeros();
        let ranks = ranks & (ranks - 1);
        search.chosen[depth] = same;
        self.arrange_with_sets(rest & !same, ranks, depth + 1, search);
        if same.count_ones() == 4 {
            let mut each = same;
            while each != 0 {
                let card = each & each.wrapping_neg();
                search.chosen[depth] = same ^ card;
                self.arrange_with_sets(rest & !(same ^ card), ranks, depth + 1, search);
                each &= each - 1;
            }
        }
        search.chosen[depth] = 0;
        // No set of this rank: the next rank's choice takes this slot.
        self.arrange_with_sets(rest, ranks, depth, search);
    }

    /// As `min_with_sets`, but for the hand less its best discard, folding leaves into `best`.
    fn discards_with_sets(self, rest: u64, ranks: u16, best: &mut BestDiscards) {
        if ranks == 0 {
            self.discard_leaf(rest, best);
            return;
        }
        let same = rest & RANK_BITS << ranks.trailing_zeros();
        let ranks = ranks & (ranks - 1);
        self.discards_with_sets(rest & !same, ranks, best);
        self.discards_with_sets(rest, ranks, best);
        if same.count_ones() == 4 {
            let mut each = same;
            while each != 0 {
                let card = each & each.wrapping_neg();
                self.discards_with_sets(rest & !(same ^ card), ranks, best);
                each &= each - 1;
            }
        }
    }

    /// With the sets fixed, the best single discard among the cards left for runs: all suits as
    /// they are but one, which drops its best card.
    #[inline]
    fn discard_leaf(self, rest: u64, best: &mut BestDiscards) {
        let t = self.tables;
        let masks = [
            (rest & 0x1fff) as usize,
            (rest >> 16 & 0x1fff) as usize,
            (rest >> 32 & 0x1fff) as usize,
            (rest >> 48 & 0x1fff) as usize,
        ];
        let total: u32 = masks.iter().map(|&m| u32::from(t.runs[m])).sum();
        for (lane, &mask) in masks.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let deadwood = total - u32::from(t.runs[mask]) + u32::from(t.drop[mask]);
            let which = CardSet::from_bits_truncate(u64::from(t.drop_which[mask]) << (16 * lane));
            if deadwood < best.deadwood {
                *best = BestDiscards { deadwood, discards: which };
            } else if deadwood == best.deadwood {
                best.discards |= which;
            }
        }
    }

    /// Adds to `arrangement` the runs of one suit's best run cover of `mask`, longest runs first.
    fn push_runs(self, arrangement: &mut Arrangement, suit: Suit, mut mask: u16) {
        let low_runs = &ACE_LOW.runs;
        let target = self.tables.runs[usize::from(mask)];
        let mut push = |bits: u16| {
            let cards = CardSet::from_suit_mask(suit, bits);
            arrangement.push(Meld::new_unchecked(cards, MeldKind::Run));
        };
        if self.ace_high && mask & 1 == 1 && low_runs[usize::from(mask)] != target {
            // The ace plays high: it ends a run start..=king.
            for start in (1..=11).rev() {
                let run = (0x1fff & !((1u16 << start) - 1)) | 1;
                if mask & run == run && low_runs[usize::from(mask & !run)] == target {
                    push(run);
                    mask &= !run;
                    break;
                }
            }
        }
        while mask != 0 {
            let here = low_runs[usize::from(mask)];
            let low = mask.trailing_zeros();
            let mut length = (mask >> low).trailing_ones();
            while length >= 3 {
                let run = ((1u16 << length) - 1) << low;
                if low_runs[usize::from(mask & !run)] == here {
                    push(run);
                    mask &= !run;
                    break;
                }
                length -= 1;
            }
            if length < 3 {
                // The lowest card is deadwood.
                mask &= mask - 1;
            }
        }
    }
}

/// The state of the search for the best set choice in `best_arrangement`.
struct SetSearch {
    best: u32,
    best_sets: [u64; 13],
    chosen: [u64; 13],
}

/// The ranks (as a 13-bit mask) of which `bits` holds three or four cards.
#[inline(always)]
const fn set_ranks(bits: u64) -> u16 {
    let s0 = bits as u16;
    let s1 = (bits >> 16) as u16;
    let s2 = (bits >> 32) as u16;
    let s3 = (bits >> 48) as u16;
    (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::ACE_LOW
    }
}

impl PartialEq for Solver {
    fn eq(&self, other: &Solver) -> bool {
        self.ace_high == other.ace_high
    }
}

impl Eq for Solver {}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver").field("ace_high", &self.ace_high).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn set_ranks_finds_three_and_four_of_a_kind() {
        assert_eq!(set_ranks(hand("7S 7H 7D 8C 8H").bits()), 1 << 6);
        assert_eq!(set_ranks(hand("7S 7H 7D 7C AS AH AC").bits()), 1 << 6 | 1);
        assert_eq!(set_ranks(hand("7S 7H 8D 8C").bits()), 0);
    }

    #[test]
    fn empty_and_tiny_hands() {
        let solver = Solver::ACE_LOW;
        assert_eq!(solver.min_deadwood(CardSet::EMPTY), 0);
        assert_eq!(solver.best_discards(CardSet::EMPTY), BestDiscards { deadwood: 0, discards: CardSet::EMPTY });
        assert_eq!(solver.min_deadwood(hand("KS")), 10);
        assert_eq!(solver.best_discards(hand("KS")), BestDiscards { deadwood: 0, discards: hand("KS") });
        assert_eq!(solver.best_arrangement(hand("KS")).unmelded(), hand("KS"));
    }

    #[test]
    fn arrangement_prefers_long_runs_and_ace_high_when_it_helps() {
        let solver = Solver::new(true);
        let arrangement = solver.best_arrangement(hand("QS KS AS 2S 5H 6H 7H 8H"));
        let melds: Vec<String> = arrangement.melds().iter().map(ToString::to_string).collect();
        assert_eq!(melds, ["QSKSAS", "5H6H7H8H"]);
        assert_eq!(arrangement.unmelded(), hand("2S"));
        let low = Solver::ACE_LOW.best_arrangement(hand("AS 2S 3S QS KS"));
        assert_eq!(low.deadwood(), 20);
    }

    #[test]
    fn every_best_arrangement() {
        let solver = Solver::ACE_LOW;
        // 7S7H7D7C with 8C9C: the clubs run takes 7C, or the four sevens stand (8C 9C left).
        let all = solver.best_arrangements(hand("7S 7H 7D 7C 8C 9C 5D"));
        assert!(all.iter().all(|a| a.deadwood() == 5), "{all:?}");
        assert_eq!(all.len(), 1, "{all:?}");
        // Six in a row: one run of six, or two runs of three.
        let six = solver.best_arrangements(hand("AS 2S 3S 4S 5S 6S"));
        assert_eq!(six.len(), 2, "{six:?}");
        // V8's knocker: three runs or three sets.
        let v8 = solver.best_arrangements(hand("AS 5S 6S 7S 5C 6C 7C 5D 6D 7D"));
        assert_eq!(v8.len(), 2, "{v8:?}");
        assert!(v8.iter().all(|a| a.unmelded() == hand("AS")));
    }

    #[test]
    fn best_discards_among_some_cards() {
        let solver = Solver::ACE_LOW;
        // Three melds, and the QS or the KH to go, leaving 10.
        let eleven = hand("7S 7H 7D 7C 8C 9C 2D 3D 4D KH QS");
        assert_eq!(solver.best_discards(eleven), BestDiscards { deadwood: 10, discards: hand("QS KH") });
        let among = |allowed: &str| solver.best_discards_among(eleven, hand(allowed));
        assert_eq!(among("QS KH AS"), Some(solver.best_discards(eleven)));
        assert_eq!(among("KH 7S"), Some(BestDiscards { deadwood: 10, discards: hand("KH") }));
        // With no best discard allowed, the best of the others: breaking the run of diamonds (27)
        // costs less than a seven (34), and the sevens tie.
        assert_eq!(among("7S 2D"), Some(BestDiscards { deadwood: 27, discards: hand("2D") }));
        assert_eq!(among("7S 7H 7D"), Some(BestDiscards { deadwood: 34, discards: hand("7S 7H 7D") }));
        assert_eq!(among("AS"), None);
        assert_eq!(solver.best_discards_among(CardSet::EMPTY, CardSet::FULL), None);
    }

    #[test]
    fn all_sets() {
        let solver = Solver::ACE_LOW;
        let eleven = hand("7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D");
        assert_eq!(solver.min_deadwood(eleven), 0);
        assert!(solver.is_all_melded(eleven));
        let best = solver.best_discards(eleven);
        assert_eq!(best.deadwood, 0);
        assert_eq!(best.discards, hand("7S 7H 7D 7C 8S 8H 8D 8C"));
    }
}
