//! `Arrangement`: a hand split into melds and unmelded cards.

use std::fmt;

use gin_cards::CardSet;

use crate::{Meld, MeldKind};

/// The most melds any set of cards can hold (52 / 3).
const MAX_MELDS: usize = 17;

/// A hand split into disjoint melds and the unmelded cards (its deadwood).
///
/// Built by the solver ([`Solver::best_arrangement`](crate::Solver::best_arrangement)) or checked
/// from a player's choice by [`Arrangement::new`]; it never allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Arrangement {
    melds: [Meld; MAX_MELDS],
    len: u8,
    unmelded: CardSet,
}

/// Why some melds are not an arrangement of a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    /// A meld uses a card the hand does not hold.
    #[error("meld {meld} uses {missing}, which is not in the hand")]
    NotInHand {
        /// The meld.
        meld: String,
        /// The cards it has that the hand does not.
        missing: CardSet,
    },
    /// Two melds share a card.
    #[error("meld {meld} reuses {shared}: a card belongs to at most one meld")]
    Overlap {
        /// The meld.
        meld: String,
        /// The cards it shares with an earlier meld.
        shared: CardSet,
    },
}

const PLACEHOLDER: Meld = Meld::new_unchecked(CardSet::EMPTY, MeldKind::Set);

impl Arrangement {
    /// An arrangement of `hand` with no melds.
    pub const fn unmelded_hand(hand: CardSet) -> Arrangement {
        Arrangement { melds: [PLACEHOLDER; MAX_MELDS], len: 0, unmelded: hand }
    }

    /// Checks that `melds` are disjoint and inside `hand`; the rest of the hand is unmelded.
    ///
    /// # Errors
    /// [`ArrangementError`] naming the first meld that uses a card not held or already used.
    pub fn new(hand: CardSet, melds: &[Meld]) -> Result<Arrangement, ArrangementError> {
        let mut arrangement = Arrangement::unmelded_hand(hand);
        let mut used = CardSet::EMPTY;
        for &meld in melds {
            let missing = meld.cards() - hand;
            if !missing.is_empty() {
                return Err(ArrangementError::NotInHand { meld: meld.to_string(), missing });
            }
            let shared = meld.cards() & used;
            if !shared.is_empty() {
                return Err(ArrangementError::Overlap { meld: meld.to_string(), shared });
            }
            used |= meld.cards();
            arrangement.push(meld);
        }
        Ok(arrangement)
    }

    /// Adds a meld whose cards are unmelded in `self` (the caller checks).
    pub(crate) fn push(&mut self, meld: Meld) {
        debug_assert!(meld.cards().is_subset(self.unmelded));
        self.melds[usize::from(self.len)] = meld;
        self.len += 1;
        self.unmelded -= meld.cards();
    }

    /// The melds, in the order they were found or given.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..usize::from(self.len)]
    }

    /// The cards in melds.
    pub fn melded(&self) -> CardSet {
        self.melds().iter().fold(CardSet::EMPTY, |all, meld| all | meld.cards())
    }

    /// The cards in no meld.
    pub const fn unmelded(&self) -> CardSet {
        self.unmelded
    }

    /// The whole hand.
    pub fn hand(&self) -> CardSet {
        self.melded() | self.unmelded
    }

    /// The deadwood: the value of the unmelded cards.
    pub const fn deadwood(&self) -> u32 {
        self.unmelded.value()
    }
}

impl fmt::Debug for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arrangement").field("melds", &self.melds()).field("unmelded", &self.unmelded).finish()
    }
}

impl fmt::Display for Arrangement {
    /// Melds then unmelded cards, `7S7H7D 7C8C9C | KH`; `{:#}` uses suit symbols.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, meld) in self.melds().iter().enumerate() {
            if i > 0 {
                f.write_str(if f.alternate() { "  " } else { " " })?;
            }
            if f.alternate() { write!(f, "{meld:#}")? } else { write!(f, "{meld}")? }
        }
        if !self.unmelded.is_empty() {
            if self.len > 0 {
                f.write_str(" | ")?;
            }
            if f.alternate() { write!(f, "{:#}", self.unmelded)? } else { write!(f, "{}", self.unmelded)? }
        }
        Ok(())
    }
}

impl serde::Serialize for Arrangement {
    /// `{"melds": [["7S","7H","7D"], …], "unmelded": [...], "deadwood": 10}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Arrangement", 3)?;
        s.serialize_field("melds", self.melds())?;
        s.serialize_field("unmelded", &self.unmelded)?;
        s.serialize_field("deadwood", &self.deadwood())?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meld(text: &str) -> Meld {
        Meld::new(text.parse().unwrap(), false).unwrap()
    }

    #[test]
    fn checks_melds_against_the_hand() {
        let hand: CardSet = "7S 7H 7D 7C 8C 9C KH".parse().unwrap();
        let ok = Arrangement::new(hand, &[meld("7S 7H 7D"), meld("7C 8C 9C")]).unwrap();
        assert_eq!(ok.deadwood(), 10);
        assert_eq!(ok.hand(), hand);
        assert_eq!(ok.to_string(), "7S7H7D 7C8C9C | KH");
        let overlap = Arrangement::new(hand, &[meld("7S 7H 7C"), meld("7C 8C 9C")]).unwrap_err();
        assert_eq!(overlap.to_string(), "meld 7C8C9C reuses 7C: a card belongs to at most one meld");
        let missing = Arrangement::new(hand, &[meld("AS 2S 3S")]).unwrap_err();
        assert_eq!(missing.to_string(), "meld AS2S3S uses AS 2S 3S, which is not in the hand");
    }

    #[test]
    fn serializes_melds_and_deadwood() {
        let hand: CardSet = "7S 7H 7D KH".parse().unwrap();
        let arrangement = Arrangement::new(hand, &[meld("7S 7H 7D")]).unwrap();
        let json = serde_json::to_string(&arrangement).unwrap();
        assert_eq!(json, r#"{"melds":[["7S","7H","7D"]],"unmelded":["KH"],"deadwood":10}"#);
    }
}
