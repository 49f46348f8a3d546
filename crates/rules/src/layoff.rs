//! Laying off: the defender's least deadwood over its own melds and layoffs together.

use gin_cards::{Card, CardSet, Rank};

use crate::{Arrangement, Meld, MeldKind, Solver};

/// The defender's best answer to a knock: which cards to lay off on the knocker's melds and how to
/// meld the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Defense {
    /// The defender's deadwood after laying off (`D` in the scoring rules).
    pub deadwood: u32,
    /// The cards laid off on the knocker's melds.
    pub laid_off: CardSet,
    /// The defender's own melds and unmelded cards, from the cards not laid off.
    pub arrangement: Arrangement,
}

impl Defense {
    /// The defender's showing: its own melds, the cards it lays off and the rest; `None` only
    /// when the defender held more cards than a hand holds (more than three melds).
    pub fn showing(&self) -> Option<crate::Showing> {
        debug_assert!(self.arrangement.hand().is_disjoint(self.laid_off));
        crate::Showing::of_parts(&self.arrangement, self.laid_off)
    }
}

/// The cards at rank positions `from`, `from + step`, … of one suit that `hand` holds without a gap,
/// within positions 0..=`last` (13 is the ace played high), at most 13 of them.
fn chain(hand: CardSet, suit: gin_cards::Suit, from: i32, step: i32, last: i32) -> ([Card; 13], usize) {
    let mut cards = [Card::new(Rank::Ace, suit); 13];
    let mut len = 0;
    let mut position = from;
    while (0..=last).contains(&position) && len < 13 {
        let rank = Rank::from_index((position % 13) as u8).unwrap_or(Rank::Ace);
        let card = Card::new(rank, suit);
        if !hand.contains(card) {
            break;
        }
        cards[len] = card;
        len += 1;
        position += step;
    }
    (cards, len)
}

impl Solver {
    /// The defender's least deadwood over its own melds and layoffs on `knocker_melds` together,
    /// and the layoffs and arrangement that reach it.
    ///
    /// Layoffs follow docs/rules.md, rule 15: the fourth card of a 3-card set, and cards extending a run
    /// at either end, in chains (`8S` then `9S` onto `5S6S7S`); nothing on a 4-card set, below an
    /// ace or above a king (above a king only an ace, and only with the ace-high rule). The
    /// defender may break its own melds to lay off. Pass no melds when layoffs are not allowed.
    pub fn defend(self, knocker_melds: &[Meld], hand: CardSet) -> Defense {
        let (deadwood, laid_off) = self.least_defense(knocker_melds, hand);
        let arrangement = self.best_arrangement(hand - laid_off);
        debug_assert_eq!(arrangement.deadwood(), deadwood);
        Defense { deadwood, laid_off, arrangement }
    }

    /// The deadwood of [`Solver::defend`] alone, without the arrangement that reaches it: for a
    /// search that needs only the score.
    pub fn defense_deadwood(self, knocker_melds: &[Meld], hand: CardSet) -> u32 {
        self.least_defense(knocker_melds, hand).0
    }

    /// The defender's least deadwood and the layoffs that reach it.
    fn least_defense(self, knocker_melds: &[Meld], hand: CardSet) -> (u32, CardSet) {
        let mut best = (u32::MAX, CardSet::EMPTY);
        self.try_layoffs(knocker_melds, hand, CardSet::EMPTY, &mut best);
        best
    }

    /// The cards of `cards` that could be laid off on `melds` if all of `cards` were offered: the
    /// fourth card of each 3-card set, and the chains at both ends of each run.
    pub fn layoff_reach(self, melds: &[Meld], cards: CardSet) -> CardSet {
        let top = if self.ace_high() { 13 } else { 12 };
        let mut reach = CardSet::EMPTY;
        for &meld in melds {
            match meld.kind() {
                MeldKind::Set => reach |= meld.layoff_targets(self.ace_high()) & cards,
                MeldKind::Run => {
                    let Some((suit, low, high)) = meld.run_span() else { continue };
                    let (below, below_len) = chain(cards, suit, i32::from(low) - 1, -1, top);
                    let (above, above_len) = chain(cards, suit, i32::from(high) + 1, 1, top);
                    reach.extend(below[..below_len].iter().chain(&above[..above_len]).copied());
                }
            }
        }
        reach
    }

    /// Whether the cards `laid` can all be laid off on `melds` together.
    ///
    /// Each meld's reach is a chain from its ends, and two chains that meet in a gap can always
    /// be served by one of them, so `laid` is valid exactly when every card is within reach.
    pub fn is_valid_layoff(self, melds: &[Meld], laid: CardSet) -> bool {
        laid.is_subset(self.layoff_reach(melds, laid))
    }

    /// Tries every choice of layoffs on `melds[0]`, then the rest, with `laid` already laid off.
    fn try_layoffs(self, melds: &[Meld], hand: CardSet, laid: CardSet, best: &mut (u32, CardSet)) {
        if best.0 == 0 {
            return;
        }
        let Some((&meld, others)) = melds.split_first() else {
            let deadwood = self.min_deadwood(hand - laid);
            if deadwood < best.0 {
                *best = (deadwood, laid);
            }
            return;
        };
        let free = hand - laid;
        match meld.kind() {
            MeldKind::Set => {
                self.try_layoffs(others, hand, laid, best);
                let fourth = meld.layoff_targets(self.ace_high()) & free;
                if !fourth.is_empty() {
                    self.try_layoffs(others, hand, laid | fourth, best);
                }
            }
            MeldKind::Run => {
                let Some((suit, low, high)) = meld.run_span() else {
                    return;
                };
                let top = if self.ace_high() { 13 } else { 12 };
                let (below, below_len) = chain(free, suit, i32::from(low) - 1, -1, top);
                let (above, above_len) = chain(free, suit, i32::from(high) + 1, 1, top);
                let mut down = CardSet::EMPTY;
                for i in 0..=below_len {
                    if i > 0 {
                        down.insert(below[i - 1]);
                    }
                    let mut up = CardSet::EMPTY;
                    for j in 0..=above_len {
                        if j > 0 {
                            up.insert(above[j - 1]);
                        }
                        // A card may be reachable from both ends (a one-card gap); use it once.
                        if down.is_disjoint(up) {
                            self.try_layoffs(others, hand, laid | down | up, best);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn melds(texts: &[&str]) -> Vec<Meld> {
        texts.iter().map(|t| Meld::new(cards(t), false).unwrap()).collect()
    }

    #[test]
    fn v6_chains_both_ends() {
        let knocker = melds(&["5S 6S 7S"]);
        let defense = Solver::ACE_LOW.defend(&knocker, cards("8S 9S 4S KH KD KC"));
        assert_eq!(defense.laid_off, cards("4S 8S 9S"));
        assert_eq!(defense.deadwood, 0);
    }

    #[test]
    fn v7_two_layoffs_on_one_run() {
        let knocker = melds(&["7S 7H 7D", "8C 9C TC", "JD QD KD"]);
        let defense = Solver::ACE_LOW.defend(&knocker, cards("7C 6C"));
        assert_eq!(defense.laid_off, cards("6C 7C"));
        assert_eq!(defense.deadwood, 0);
    }

    #[test]
    fn nothing_on_a_four_card_set_or_past_the_ends() {
        let knocker = melds(&["9S 9H 9D 9C", "AH 2H 3H", "JD QD KD"]);
        let defense = Solver::ACE_LOW.defend(&knocker, cards("KH AD"));
        assert_eq!(defense.laid_off, CardSet::EMPTY);
        assert_eq!(defense.deadwood, 11);
        let high = Solver::new(true);
        let knocker = vec![Meld::new(cards("JD QD KD"), true).unwrap()];
        assert_eq!(high.defend(&knocker, cards("AD")).laid_off, cards("AD"));
    }

    #[test]
    fn a_gap_card_is_laid_off_once() {
        let knocker = melds(&["2S 3S 4S", "6S 7S 8S"]);
        let defense = Solver::ACE_LOW.defend(&knocker, cards("5S"));
        assert_eq!(defense.laid_off, cards("5S"));
        assert_eq!(defense.deadwood, 0);
    }
}
