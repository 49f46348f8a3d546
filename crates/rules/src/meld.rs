//! `Meld`: a validated set or run, and the enumeration of the melds inside a hand.

use std::fmt;

use gin_cards::{Card, CardSet, Rank, Suit};

/// Whether a meld is a set (same rank) or a run (same suit, consecutive ranks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    /// Three or four cards of one rank.
    Set,
    /// Three or more cards of one suit in consecutive ranks.
    Run,
}

/// A valid meld: a set of 3 or 4 cards of one rank, or a run of 3 or more consecutive cards of one
/// suit. Built only by [`Meld::new`] (or found by the solver), so a `Meld` is always valid under the
/// ace rule it was checked with.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    cards: CardSet,
    kind: MeldKind,
}

/// Why some cards are not a meld.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    /// Fewer than three cards.
    #[error("`{0}` is not a meld: a meld has at least 3 cards")]
    TooFewCards(CardSet),
    /// Neither a set nor a run.
    #[error(
        "`{0}` is not a meld: expected a set (3 or 4 cards of one rank) or a run (3 or more consecutive cards of one suit)"
    )]
    NotSetOrRun(CardSet),
    /// A run that only works with the ace high, under ace-low rules.
    #[error("`{0}` is not a meld: aces are low (Q-K-A counts only with the ace_high rule, K-A-2 never)")]
    AceNotHigh(CardSet),
}

/// The 13-bit rank mask of a suit with the ace moved above the king: bit 0 = two … bit 12 = ace.
const fn ace_high_mask(mask: u16) -> u16 {
    (mask >> 1) | (mask & 1) << 12
}

/// Whether a non-empty mask is one block of consecutive bits.
const fn is_contiguous(mask: u16) -> bool {
    let shifted = mask >> mask.trailing_zeros();
    shifted & (shifted + 1) == 0
}

impl Meld {
    /// Checks that `cards` form a set or a run; `ace_high` lets Q-K-A (and J-Q-K-A …) count.
    ///
    /// # Errors
    /// [`MeldError`] naming the cards and why they are not a meld.
    pub fn new(cards: CardSet, ace_high: bool) -> Result<Meld, MeldError> {
        if cards.len() < 3 {
            return Err(MeldError::TooFewCards(cards));
        }
        let first = cards.first().expect("three or more cards");
        if cards.is_subset(CardSet::of_rank(first.rank())) {
            return Ok(Meld { cards, kind: MeldKind::Set });
        }
        let suit = first.suit();
        let mask = cards.suit_mask(suit);
        if CardSet::from_suit_mask(suit, mask) != cards {
            return Err(MeldError::NotSetOrRun(cards));
        }
        if is_contiguous(mask) {
            return Ok(Meld { cards, kind: MeldKind::Run });
        }
        if is_contiguous(ace_high_mask(mask)) {
            return if ace_high { Ok(Meld { cards, kind: MeldKind::Run }) } else { Err(MeldError::AceNotHigh(cards)) };
        }
        Err(MeldError::NotSetOrRun(cards))
    }

    /// A meld the caller knows is valid (used by the solvers).
    pub(crate) const fn new_unchecked(cards: CardSet, kind: MeldKind) -> Meld {
        Meld { cards, kind }
    }

    /// The meld's cards.
    pub const fn cards(self) -> CardSet {
        self.cards
    }

    /// Set or run.
    pub const fn kind(self) -> MeldKind {
        self.kind
    }

    /// The number of cards.
    pub const fn len(self) -> usize {
        self.cards.len()
    }

    /// Always false: a meld has at least three cards.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The cards as they are played: a set in suit order, a run low to high with an ace played
    /// high (Q-K-A) last.
    pub fn cards_in_order(self) -> impl Iterator<Item = Card> {
        let high_ace = match self.run_span() {
            Some((_, _, 13)) => self.cards.first(),
            _ => None,
        };
        self.cards.iter().filter(move |&card| Some(card) != high_ace).chain(high_ace)
    }

    /// For a run: its suit and its lowest and highest rank positions, where positions 0..=12 are
    /// ace..king and 13 is an ace played high (Q-K-A).
    pub fn run_span(self) -> Option<(Suit, u8, u8)> {
        if self.kind != MeldKind::Run {
            return None;
        }
        let suit = self.cards.first()?.suit();
        let mask = self.cards.suit_mask(suit);
        if is_contiguous(mask) {
            Some((suit, mask.trailing_zeros() as u8, 15 - mask.leading_zeros() as u8))
        } else {
            let high = ace_high_mask(mask);
            Some((suit, high.trailing_zeros() as u8 + 1, 16 - high.leading_zeros() as u8))
        }
    }

    /// The cards that could be laid off on this meld one at a time right now: the missing card of a
    /// 3-card set, or the card just beyond either end of a run (nothing on a 4-card set, below an
    /// ace or above a king; above a king only an ace, and only when `ace_high`).
    pub fn layoff_targets(self, ace_high: bool) -> CardSet {
        match self.kind {
            MeldKind::Set => {
                if self.len() == 3 {
                    let rank = self.cards.first().map_or(Rank::Ace, Card::rank);
                    CardSet::of_rank(rank) - self.cards
                } else {
                    CardSet::EMPTY
                }
            }
            MeldKind::Run => {
                let Some((suit, low, high)) = self.run_span() else {
                    return CardSet::EMPTY;
                };
                let mut targets = CardSet::EMPTY;
                if low > 0 {
                    targets |= CardSet::from_suit_mask(suit, 1 << (low - 1));
                }
                if high < 12 || (high == 12 && ace_high) {
                    targets |= CardSet::from_suit_mask(suit, 1 << ((high + 1) % 13));
                }
                targets - self.cards
            }
        }
    }
}

impl fmt::Display for Meld {
    /// The cards run together in playing order (`7S7H7D`, `QSKSAS`); with `{:#}` suit symbols and
    /// spaces (`7♠ 7♥ 7♦`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.cards_in_order().enumerate() {
            if f.alternate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{card:#}")?;
            } else {
                write!(f, "{card}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}({self})", self.kind)
    }
}

impl serde::Serialize for Meld {
    /// A meld serializes as its list of cards in playing order.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards_in_order())
    }
}

impl<'de> serde::Deserialize<'de> for Meld {
    /// Reads a list of cards and checks that they form a meld, with the ace allowed high: a
    /// reader that plays aces low checks again with [`Meld::new`].
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Meld, D::Error> {
        let cards = CardSet::deserialize(deserializer)?;
        Meld::new(cards, true).map_err(serde::de::Error::custom)
    }
}

/// Every meld that can be formed from `cards`: each set of 3 and of 4, and each run of every
/// length ≥ 3 (sub-runs included). Order: sets by rank, then runs by suit and start.
pub fn melds_in(cards: CardSet, ace_high: bool) -> Vec<Meld> {
    let mut melds = Vec::new();
    for rank in Rank::ALL {
        let same = cards & CardSet::of_rank(rank);
        if same.len() >= 3 {
            melds.push(Meld::new_unchecked(same, MeldKind::Set));
            if same.len() == 4 {
                for card in same {
                    melds.push(Meld::new_unchecked(same.without(card), MeldKind::Set));
                }
            }
        }
    }
    let top = if ace_high { 14 } else { 13 };
    for suit in Suit::ALL {
        let mask = cards.suit_mask(suit);
        // Positions 0..=12 are ace..king, 13 the ace again (ace high).
        let extended = u32::from(mask) | u32::from(mask & 1) << 13;
        for start in 0..top {
            let mut run = 0u32;
            for end in start..top {
                if extended >> end & 1 == 0 {
                    break;
                }
                run |= 1 << end;
                if end - start >= 2 {
                    let bits = (run & 0x1fff) | run >> 13;
                    let set = CardSet::from_suit_mask(suit, bits as u16);
                    melds.push(Meld::new_unchecked(set, MeldKind::Run));
                }
            }
        }
    }
    melds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn sets_and_runs_are_melds() {
        assert_eq!(Meld::new(set("7S 7H 7D"), false).unwrap().kind(), MeldKind::Set);
        assert_eq!(Meld::new(set("7S 7H 7D 7C"), false).unwrap().kind(), MeldKind::Set);
        assert_eq!(Meld::new(set("AS 2S 3S"), false).unwrap().kind(), MeldKind::Run);
        assert_eq!(Meld::new(set("9C TC JC QC KC"), false).unwrap().kind(), MeldKind::Run);
    }

    #[test]
    fn other_cards_are_not() {
        assert_eq!(Meld::new(set("7S 7H"), false), Err(MeldError::TooFewCards(set("7S 7H"))));
        assert_eq!(Meld::new(set("AS 2S 4S"), false), Err(MeldError::NotSetOrRun(set("AS 2S 4S"))));
        assert_eq!(Meld::new(set("AS 2S 3H"), false), Err(MeldError::NotSetOrRun(set("AS 2S 3H"))));
        assert!(Meld::new(set("7S 7H 8S"), false).is_err());
    }

    #[test]
    fn the_ace_rule() {
        assert_eq!(Meld::new(set("QS KS AS"), false), Err(MeldError::AceNotHigh(set("QS KS AS"))));
        assert!(Meld::new(set("QS KS AS"), true).is_ok());
        assert!(Meld::new(set("JS QS KS AS"), true).is_ok());
        for ace_high in [false, true] {
            assert!(Meld::new(set("KS AS 2S"), ace_high).is_err(), "K-A-2 never counts");
        }
        let high = Meld::new(set("QS KS AS"), true).unwrap();
        assert_eq!(high.run_span(), Some((Suit::Spades, 11, 13)));
        assert_eq!(high.to_string(), "QSKSAS");
        let low = Meld::new(set("AS 2S 3S"), true).unwrap();
        assert_eq!(low.run_span(), Some((Suit::Spades, 0, 2)));
    }

    #[test]
    fn layoff_targets_follow_v14() {
        let targets = |text: &str| Meld::new(set(text), false).unwrap().layoff_targets(false);
        assert_eq!(targets("7S 7H 7D 7C"), CardSet::EMPTY);
        assert_eq!(targets("7S 7H 7D"), set("7C"));
        assert_eq!(targets("AS 2S 3S"), set("4S"));
        assert_eq!(targets("JH QH KH"), set("TH"));
        assert_eq!(targets("5S 6S 7S"), set("4S 8S"));
        let jqk = Meld::new(set("JH QH KH"), true).unwrap();
        assert_eq!(jqk.layoff_targets(true), set("TH AH"));
        let qka = Meld::new(set("QH KH AH"), true).unwrap();
        assert_eq!(qka.layoff_targets(true), set("JH"));
    }

    #[test]
    fn melds_read_back_from_json() {
        let meld = Meld::new(set("QS KS AS"), true).unwrap();
        let json = serde_json::to_string(&meld).unwrap();
        assert_eq!(json, r#"["QS","KS","AS"]"#);
        assert_eq!(serde_json::from_str::<Meld>(&json).unwrap(), meld);
        let err = serde_json::from_str::<Meld>(r#"["AS","2S","4S"]"#).unwrap_err().to_string();
        assert!(err.contains("is not a meld"), "{err}");
    }

    #[test]
    fn melds_in_lists_every_meld() {
        let melds = melds_in(set("7S 7H 7D 7C 8C 9C"), false);
        // The 4-set, four 3-sets, and the run 7C8C9C.
        assert_eq!(melds.len(), 6);
        let runs = melds_in(set("AS 2S 3S 4S 5S"), false);
        // 3 runs of 3, 2 of 4, 1 of 5.
        assert_eq!(runs.len(), 6);
        assert_eq!(melds_in(set("QS KS AS"), false).len(), 0);
        assert_eq!(melds_in(set("QS KS AS"), true).len(), 1);
        assert_eq!(melds_in(set("QS KS AS 2S 3S"), true).len(), 2);
        for meld in melds_in(set("AS 2S 3S 4S 5S 5H 5D 5C QS KS"), true) {
            assert_eq!(Meld::new(meld.cards(), true), Ok(meld));
        }
    }
}
