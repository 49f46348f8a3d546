//! `Deck`: the stock of cards in a fixed, seeded order.

use rand_core::Rng;

use crate::random::shuffle;
use crate::{Card, CardSet};

/// Cards in order, drawn from the top.
///
/// A new deck is shuffled from a generator ([`Deck::shuffled`]); the same generator state always
/// gives the same order. It serializes as its cards top first, and reading one back refuses repeated
/// cards.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deck {
    /// The cards, top of the deck last.
    cards: Vec<Card>,
}

/// Why a list of cards is not a deck.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// The same card twice.
    #[error("duplicate card {0} in the deck")]
    DuplicateCard(Card),
}

impl Deck {
    /// The 52 cards in a random order drawn from `rng`.
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deck {
        let mut cards: Vec<Card> = CardSet::FULL.iter().collect();
        shuffle(rng, &mut cards);
        Deck { cards }
    }

    /// The 52 cards, spades ace on top, clubs king at the bottom.
    pub fn ordered() -> Deck {
        Deck { cards: CardSet::FULL.iter().rev().collect() }
    }

    /// A deck of these cards, the first on top.
    ///
    /// # Errors
    /// [`DeckError::DuplicateCard`] if a card is given twice.
    pub fn from_top_first(cards: impl IntoIterator<Item = Card>) -> Result<Deck, DeckError> {
        let mut seen = CardSet::EMPTY;
        let mut list = Vec::new();
        for card in cards {
            if !seen.insert(card) {
                return Err(DeckError::DuplicateCard(card));
            }
            list.push(card);
        }
        list.reverse();
        Ok(Deck { cards: list })
    }

    /// Takes the top card, if any.
    pub fn draw(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// Takes the top `n` cards as a set, or nothing if fewer than `n` are left.
    pub fn deal(&mut self, n: usize) -> Option<CardSet> {
        if n > self.cards.len() {
            return None;
        }
        let at = self.cards.len() - n;
        Some(self.cards.drain(at..).collect())
    }

    /// The top card without taking it.
    pub fn peek(&self) -> Option<Card> {
        self.cards.last().copied()
    }

    /// The number of cards left.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether no card is left.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards left, top first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Card> + ExactSizeIterator + '_ {
        self.cards.iter().rev().copied()
    }

    /// The cards left as a set.
    pub fn to_set(&self) -> CardSet {
        self.cards.iter().copied().collect()
    }

    /// Shuffles the cards left, as [`Deck::shuffled`] does.
    pub fn shuffle<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        shuffle(rng, &mut self.cards);
    }
}

impl serde::Serialize for Deck {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for Deck {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Deck, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        Deck::from_top_first(cards).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::seeded_rng;

    #[test]
    fn a_shuffled_deck_holds_every_card_once() {
        let deck = Deck::shuffled(&mut seeded_rng(3));
        assert_eq!(deck.len(), 52);
        assert_eq!(deck.to_set(), CardSet::FULL);
    }

    #[test]
    fn the_same_seed_gives_the_same_order() {
        let a = Deck::shuffled(&mut seeded_rng(11));
        let b = Deck::shuffled(&mut seeded_rng(11));
        let c = Deck::shuffled(&mut seeded_rng(12));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn draws_and_deals_from_the_top() {
        let mut deck = Deck::ordered();
        assert_eq!(deck.peek().map(|c| c.to_string()), Some("AS".into()));
        let hand = deck.deal(10).unwrap();
        assert_eq!(hand.to_string(), "AS 2S 3S 4S 5S 6S 7S 8S 9S TS");
        assert_eq!(deck.draw().map(|c| c.to_string()), Some("JS".into()));
        assert_eq!(deck.len(), 41);
        assert_eq!(deck.deal(42), None);
        assert_eq!(deck.len(), 41);
    }

    #[test]
    fn serializes_top_first_and_refuses_duplicates() {
        let deck = Deck::from_top_first(["AS", "KH", "2C"].map(|c| c.parse().unwrap())).unwrap();
        let json = serde_json::to_string(&deck).unwrap();
        assert_eq!(json, r#"["AS","KH","2C"]"#);
        assert_eq!(serde_json::from_str::<Deck>(&json).unwrap(), deck);
        let err = serde_json::from_str::<Deck>(r#"["AS","AS"]"#).unwrap_err().to_string();
        assert!(err.contains("duplicate card AS"), "{err}");
    }
}
