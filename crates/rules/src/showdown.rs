//! The end of a hand: [`Showing`], the cards one player lays down, and [`Showdown`], both
//! players' showings with the score they lead to.

use std::fmt;

use gin_cards::CardSet;

use crate::{Arrangement, ByPlayer, HandScore, KnockKind, Meld, Player};

/// The most melds a showing holds: a hand of 10 or 11 cards has room for three.
pub const MAX_SHOWN_MELDS: usize = 3;

const PLACEHOLDER: Meld = Meld::new_unchecked(CardSet::EMPTY, crate::MeldKind::Set);

/// The cards one player lays down at the end of a hand: its melds, the cards it lays off on the
/// knocker's melds (the defender only), and the rest, unmelded.
///
/// A `Showing` always splits one hand into disjoint parts with at most [`MAX_SHOWN_MELDS`]
/// melds; it is `Copy` and never allocates. Whether it fits a position (the knocker's melds under
/// the ace rule, layoffs that reach the knocker's melds, a deadwood within the knock limit) is the
/// referee's business.
///
/// ```
/// use gin_cards::CardSet;
/// use gin_rules::{Meld, Showing};
///
/// let hand: CardSet = "AS 2S 3S 7H 7D 7C 9C KH".parse()?;
/// let melds = [Meld::new("AS 2S 3S".parse()?, false)?, Meld::new("7H 7D 7C".parse()?, false)?];
/// let shown = Showing::new(hand, &melds, CardSet::EMPTY)?;
/// assert_eq!(shown.deadwood(), 19);
/// assert_eq!(shown.unmelded().to_string(), "KH 9C");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Showing {
    melds: [Meld; MAX_SHOWN_MELDS],
    len: u8,
    /// The value of `unmelded`, worked out once.
    deadwood: u16,
    laid_off: CardSet,
    unmelded: CardSet,
}

/// Why some melds and layoffs are not a showing of a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShowingError {
    /// More melds than a hand of 10 or 11 cards can hold.
    #[error("{count} melds shown: a hand holds at most {MAX_SHOWN_MELDS}")]
    TooManyMelds {
        /// How many were named.
        count: usize,
    },
    /// Cards named that the hand does not hold.
    #[error("{cards} shown but not in the hand")]
    NotInHand {
        /// The cards.
        cards: CardSet,
    },
    /// A card named twice (in two melds, or melded and laid off).
    #[error("{cards} shown twice: a card belongs to one meld or is laid off, not both")]
    Twice {
        /// The cards named twice.
        cards: CardSet,
    },
    /// The deadwood written down does not match the unmelded cards.
    #[error("deadwood {found} does not match the unmelded cards, worth {expected}")]
    Deadwood {
        /// The value of the unmelded cards.
        expected: u32,
        /// The value written.
        found: u32,
    },
}

impl Showing {
    /// Shows `melds` and lays off `laid_off` from `hand`; the rest of the hand is unmelded.
    ///
    /// # Errors
    /// [`ShowingError`] for more than three melds, cards not in `hand`, or a card used twice.
    pub fn new(hand: CardSet, melds: &[Meld], laid_off: CardSet) -> Result<Showing, ShowingError> {
        if melds.len() > MAX_SHOWN_MELDS {
            return Err(ShowingError::TooManyMelds { count: melds.len() });
        }
        let mut shown =
            Showing { melds: [PLACEHOLDER; MAX_SHOWN_MELDS], len: 0, deadwood: 0, laid_off, unmelded: hand };
        let mut used = laid_off;
        for &meld in melds {
            let twice = meld.cards() & used;
            if !twice.is_empty() {
                return Err(ShowingError::Twice { cards: twice });
            }
            used |= meld.cards();
            shown.melds[usize::from(shown.len)] = meld;
            shown.len += 1;
        }
        let missing = used - hand;
        if !missing.is_empty() {
            return Err(ShowingError::NotInHand { cards: missing });
        }
        shown.unmelded = hand - used;
        // At most 52 cards of at most 10 points each: it fits.
        shown.deadwood = shown.unmelded.value() as u16;
        Ok(shown)
    }

    /// A showing as written down, each part named (how a log or a message carries one), checked:
    /// the parts are disjoint and `deadwood` is the value of `unmelded`.
    ///
    /// # Errors
    /// [`ShowingError`] for more than three melds, a card in two parts, or a wrong deadwood.
    pub fn from_parts(
        melds: &[Meld],
        laid_off: CardSet,
        unmelded: CardSet,
        deadwood: u32,
    ) -> Result<Showing, ShowingError> {
        let hand = melds.iter().fold(laid_off | unmelded, |all, meld| all | meld.cards());
        let shown = Showing::new(hand, melds, laid_off)?;
        if shown.unmelded != unmelded {
            let twice = unmelded & (shown.melded() | shown.laid_off);
            return Err(ShowingError::Twice { cards: twice });
        }
        if shown.deadwood() != deadwood {
            return Err(ShowingError::Deadwood { expected: shown.deadwood(), found: deadwood });
        }
        Ok(shown)
    }

    /// The showing of an arrangement with nothing laid off, or `None` for an arrangement of more
    /// than three melds (of more cards than a hand holds).
    pub fn of_arrangement(arrangement: &Arrangement) -> Option<Showing> {
        Showing::of_parts(arrangement, CardSet::EMPTY)
    }

    /// The showing of an arrangement of the cards not laid off, and the cards laid off: an
    /// arrangement's melds are disjoint and apart from its unmelded cards already, so only the
    /// number of melds is checked (the caller keeps `laid_off` apart from the arrangement).
    pub(crate) fn of_parts(arrangement: &Arrangement, laid_off: CardSet) -> Option<Showing> {
        let melds = arrangement.melds();
        if melds.len() > MAX_SHOWN_MELDS {
            return None;
        }
        let mut shown = Showing {
            melds: [PLACEHOLDER; MAX_SHOWN_MELDS],
            len: melds.len() as u8,
            deadwood: arrangement.deadwood() as u16,
            laid_off,
            unmelded: arrangement.unmelded(),
        };
        shown.melds[..melds.len()].copy_from_slice(melds);
        Some(shown)
    }

    /// The melds, in the order they were given.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..usize::from(self.len)]
    }

    /// The cards in melds.
    pub fn melded(&self) -> CardSet {
        self.melds().iter().fold(CardSet::EMPTY, |all, meld| all | meld.cards())
    }

    /// The cards laid off on the knocker's melds.
    pub const fn laid_off(&self) -> CardSet {
        self.laid_off
    }

    /// The cards neither melded nor laid off.
    pub const fn unmelded(&self) -> CardSet {
        self.unmelded
    }

    /// The deadwood: the value of the unmelded cards.
    pub const fn deadwood(&self) -> u32 {
        self.deadwood as u32
    }

    /// Every card shown: the whole hand.
    pub fn hand(&self) -> CardSet {
        self.melded() | self.laid_off | self.unmelded
    }
}

impl fmt::Debug for Showing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Showing")
            .field("melds", &self.melds())
            .field("laid_off", &self.laid_off)
            .field("unmelded", &self.unmelded)
            .finish()
    }
}

impl serde::Serialize for Showing {
    /// `{"melds": [["7S","7H","7D"], …], "laid_off": [...], "unmelded": [...], "deadwood": 10}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Showing", 4)?;
        s.serialize_field("melds", self.melds())?;
        s.serialize_field("laid_off", &self.laid_off)?;
        s.serialize_field("unmelded", &self.unmelded)?;
        s.serialize_field("deadwood", &self.deadwood())?;
        s.end()
    }
}

impl<'de> serde::Deserialize<'de> for Showing {
    /// Reads what [`Showing`]'s `Serialize` writes and checks it: melds (with the ace allowed
    /// high, as [`Meld`] reads them), disjoint parts, and a deadwood that matches.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Showing, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            melds: Vec<Meld>,
            #[serde(default)]
            laid_off: CardSet,
            unmelded: CardSet,
            deadwood: u32,
        }
        let raw = Raw::deserialize(deserializer)?;
        Showing::from_parts(&raw.melds, raw.laid_off, raw.unmelded, raw.deadwood).map_err(serde::de::Error::custom)
    }
}

/// The end of a hand that someone knocked: who, how, what both players showed, and the score.
///
/// The referee fills it in once; everything that reports a hand (replays, the game's screens,
/// statistics, the regression logs) reads it from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Showdown {
    /// The knocker.
    pub knocker: Player,
    /// Knock, gin or big gin, as declared.
    pub kind: KnockKind,
    /// What each player showed: the knocker its melds and deadwood, the defender its melds, its
    /// layoffs and its deadwood after them.
    pub shown: ByPlayer<Showing>,
}

impl Showdown {
    /// The defender.
    pub const fn defender(&self) -> Player {
        self.knocker.opponent()
    }

    /// The knocker's deadwood (`K` in the scoring rules).
    pub fn knocker_deadwood(&self) -> u32 {
        self.shown[self.knocker].deadwood()
    }

    /// The defender's deadwood after its layoffs (`D` in the scoring rules).
    pub fn defender_deadwood(&self) -> u32 {
        self.shown[self.defender()].deadwood()
    }

    /// The score of the hand under `rules`, whose first upcard was `upcard`.
    pub fn score(&self, rules: &crate::Ruleset, upcard: gin_cards::Card) -> HandScore {
        crate::score_hand(rules, self.knocker, self.kind, self.knocker_deadwood(), self.defender_deadwood(), upcard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn meld(text: &str) -> Meld {
        Meld::new(cards(text), false).unwrap()
    }

    #[test]
    fn a_showing_splits_the_hand() {
        let hand = cards("AS 2S 3S 7H 7D 7C 7S KH");
        let shown = Showing::new(hand, &[meld("AS 2S 3S"), meld("7H 7D 7C")], cards("7S")).unwrap();
        assert_eq!(shown.hand(), hand);
        assert_eq!(shown.unmelded(), cards("KH"));
        assert_eq!((shown.laid_off(), shown.deadwood()), (cards("7S"), 10));
        let err = Showing::new(hand, &[meld("AS 2S 3S"), meld("7S 7D 7C")], cards("7S")).unwrap_err();
        assert_eq!(err.to_string(), "7S shown twice: a card belongs to one meld or is laid off, not both");
        let err = Showing::new(hand, &[meld("8C 9C TC")], CardSet::EMPTY).unwrap_err();
        assert_eq!(err.to_string(), "8C 9C TC shown but not in the hand");
        let four = [meld("AS 2S 3S"), meld("7H 7D 7C"), meld("8C 9C TC"), meld("KH KD KC")];
        let err = Showing::new(CardSet::FULL, &four, CardSet::EMPTY).unwrap_err();
        assert_eq!(err.to_string(), "4 melds shown: a hand holds at most 3");
    }

    #[test]
    fn an_arrangements_showing_is_the_checked_one() {
        let mut rng = gin_cards::random::seeded_rng(5);
        let solver = crate::Solver::ACE_LOW;
        for _ in 0..300 {
            let deck = gin_cards::Deck::shuffled(&mut rng);
            let hand: CardSet = deck.iter().take(10).collect();
            let best = solver.best_arrangement(hand);
            let checked = Showing::new(hand, best.melds(), CardSet::EMPTY).unwrap();
            assert_eq!(Showing::of_arrangement(&best), Some(checked));
            assert_eq!(checked.deadwood(), best.deadwood());
        }
    }

    #[test]
    fn a_showing_round_trips_through_json_and_is_checked() {
        let hand = cards("AS 2S 3S 7H 7D 7C 7S KH");
        let shown = Showing::new(hand, &[meld("AS 2S 3S"), meld("7H 7D 7C")], cards("7S")).unwrap();
        let json = serde_json::to_string(&shown).unwrap();
        assert_eq!(
            json,
            r#"{"melds":[["AS","2S","3S"],["7H","7D","7C"]],"laid_off":["7S"],"unmelded":["KH"],"deadwood":10}"#
        );
        assert_eq!(serde_json::from_str::<Showing>(&json).unwrap(), shown);
        let bad = |json: &str| serde_json::from_str::<Showing>(json).unwrap_err().to_string();
        assert!(bad(r#"{"melds":[["AS","2S","3S"]],"unmelded":["AS"],"deadwood":1}"#).contains("AS shown twice"));
        assert!(bad(r#"{"melds":[],"unmelded":["KH"],"deadwood":9}"#).contains("deadwood 9 does not match"));
        assert!(bad(r#"{"melds":[["AS","2S","4S"]],"unmelded":[],"deadwood":0}"#).contains("not a meld"));
    }
}
