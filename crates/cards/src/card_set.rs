//! `CardSet`: a set of cards as a 64-bit mask.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};

use crate::{Card, Rank, Suit};

/// A set of cards as a bit set: bit `suit * 16 + rank` is set when the card is in the set.
///
/// Each suit occupies one 16-bit lane (ranks in the low 13 bits), so a suit's cards are a
/// 13-bit mask ([`CardSet::suit_mask`]) and the cards of one rank are four bits 16 apart.
/// Iteration yields cards in a fixed order: spades, hearts, diamonds, clubs, each ace to king.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CardSet(u64);

/// The bits of the 52 real cards.
const FULL_BITS: u64 = 0x1fff_1fff_1fff_1fff;

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet(FULL_BITS);

    /// The set with these bits, if every set bit is a card (`bit & 15 < 13`).
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !FULL_BITS == 0 { Some(CardSet(bits)) } else { None }
    }

    /// The set with these bits; bits that are not cards are dropped.
    pub const fn from_bits_truncate(bits: u64) -> CardSet {
        CardSet(bits & FULL_BITS)
    }

    /// The underlying bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set holding just this card.
    pub const fn from_card(card: Card) -> CardSet {
        CardSet(1 << card.bit())
    }

    /// The cards of one suit whose ranks are the set bits of `mask` (bit 0 = ace); bits 13..16 are dropped.
    pub const fn from_suit_mask(suit: Suit, mask: u16) -> CardSet {
        CardSet(((mask & 0x1fff) as u64) << (16 * suit as u32))
    }

    /// All four cards of a rank.
    pub const fn of_rank(rank: Rank) -> CardSet {
        CardSet(0x0001_0001_0001_0001 << rank as u32)
    }

    /// The ranks held in one suit as a 13-bit mask (bit 0 = ace).
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        (self.0 >> (16 * suit as u32)) as u16
    }

    /// The number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds this card.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.bit() & 1 == 1
    }

    /// Whether every card of `self` is in `other`.
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share no card.
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The set with `card` added.
    #[must_use]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.bit())
    }

    /// The set with `card` removed.
    #[must_use]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.bit()))
    }

    /// Cards in either set.
    #[must_use]
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards in both sets.
    #[must_use]
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in `self` and not in `other`.
    #[must_use]
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The 52-card complement.
    #[must_use]
    pub const fn complement(self) -> CardSet {
        CardSet(!self.0 & FULL_BITS)
    }

    /// Adds a card; returns whether it was new.
    pub fn insert(&mut self, card: Card) -> bool {
        let new = !self.contains(card);
        self.0 |= 1 << card.bit();
        new
    }

    /// Removes a card; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let present = self.contains(card);
        self.0 &= !(1 << card.bit());
        present
    }

    /// The first card in iteration order, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 { None } else { Card::from_bit(self.0.trailing_zeros() as u8) }
    }

    /// The sum of the cards' deadwood values.
    pub const fn value(self) -> u32 {
        // Aces..nines weigh their face value, tens and court cards 10: sum per rank.
        let mut total = 0;
        let mut rank = 0;
        while rank < 13 {
            let count = (self.0 & (0x0001_0001_0001_0001 << rank)).count_ones();
            let value = if rank >= 9 { 10 } else { rank + 1 };
            total += count * value;
            rank += 1;
        }
        total
    }

    /// The cards in iteration order.
    pub const fn iter(self) -> Iter {
        Iter(self.0)
    }

    /// Writes the cards separated by `sep`, with suit symbols when `symbols` is set.
    fn write_joined(self, f: &mut fmt::Formatter<'_>, sep: &str, symbols: bool) -> fmt::Result {
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            if symbols {
                write!(f, "{card:#}")?;
            } else {
                write!(f, "{card}")?;
            }
        }
        Ok(())
    }
}

/// Iterator over the cards of a [`CardSet`], spades to clubs, ace to king.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::from_bit(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter {
    fn next_back(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << bit);
        Card::from_bit(bit)
    }
}

impl ExactSizeIterator for Iter {}
impl FusedIterator for Iter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl Extend<Card> for CardSet {
    fn extend<I: IntoIterator<Item = Card>>(&mut self, iter: I) {
        for card in iter {
            self.insert(card);
        }
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        CardSet::from_card(card)
    }
}

impl<const N: usize> From<[Card; N]> for CardSet {
    fn from(cards: [Card; N]) -> CardSet {
        cards.into_iter().collect()
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        self.union(rhs)
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        *self = self.union(rhs);
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        self.intersection(rhs)
    }
}

impl BitAndAssign for CardSet {
    fn bitand_assign(&mut self, rhs: CardSet) {
        *self = self.intersection(rhs);
    }
}

impl BitXor for CardSet {
    type Output = CardSet;
    fn bitxor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 ^ rhs.0)
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        self.difference(rhs)
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        *self = self.difference(rhs);
    }
}

impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        self.complement()
    }
}

impl fmt::Display for CardSet {
    /// Cards separated by spaces (`AS 2S 3S`); with `{:#}` suit symbols (`A♠ 2♠ 3♠`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_joined(f, " ", f.alternate())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        self.write_joined(f, " ", false)?;
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(rank: Rank, suit: Suit) -> Card {
        Card::new(rank, suit)
    }

    #[test]
    fn full_holds_52_cards_and_complement_round_trips() {
        assert_eq!(CardSet::FULL.len(), 52);
        assert_eq!(CardSet::FULL.iter().count(), 52);
        assert_eq!(CardSet::EMPTY.complement(), CardSet::FULL);
        let some = CardSet::from([card(Rank::Ace, Suit::Spades), card(Rank::King, Suit::Clubs)]);
        assert_eq!(some.complement().len(), 50);
        assert_eq!(!!some, some);
        assert_eq!(CardSet::from_bits(1 << 13), None);
        assert_eq!(CardSet::from_bits_truncate(1 << 13 | 1), CardSet::from_card(card(Rank::Ace, Suit::Spades)));
    }

    #[test]
    fn iterates_spades_to_clubs_ace_to_king() {
        let cards: Vec<Card> = CardSet::FULL.iter().collect();
        let mut sorted = cards.clone();
        sorted.sort_by_key(|c| (c.suit(), c.rank()));
        assert_eq!(cards, sorted);
        let reversed: Vec<Card> = CardSet::FULL.iter().rev().collect();
        assert_eq!(reversed.first(), cards.last());
    }

    #[test]
    fn set_operations() {
        let a = CardSet::from([card(Rank::Ace, Suit::Spades), card(Rank::Two, Suit::Spades)]);
        let b = CardSet::from([card(Rank::Two, Suit::Spades), card(Rank::Three, Suit::Hearts)]);
        assert_eq!((a | b).len(), 3);
        assert_eq!((a & b).len(), 1);
        assert_eq!((a - b).first(), Some(card(Rank::Ace, Suit::Spades)));
        assert_eq!((a ^ b).len(), 2);
        assert!((a & b).is_subset(a));
        assert!(!a.is_subset(b));
        assert!((a - b).is_disjoint(b));
        let mut c = a;
        assert!(c.insert(card(Rank::King, Suit::Diamonds)));
        assert!(!c.insert(card(Rank::King, Suit::Diamonds)));
        assert!(c.remove(card(Rank::Ace, Suit::Spades)));
        assert!(!c.remove(card(Rank::Ace, Suit::Spades)));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn masks_per_suit_and_rank() {
        let set = CardSet::from_suit_mask(Suit::Hearts, 0b111) | CardSet::of_rank(Rank::King);
        assert_eq!(set.suit_mask(Suit::Hearts), 0b1_0000_0000_0111);
        assert_eq!(set.suit_mask(Suit::Clubs), 1 << 12);
        assert_eq!(set.len(), 7);
    }

    #[test]
    fn value_sums_deadwood() {
        assert_eq!(CardSet::FULL.value(), 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40));
        let hand = CardSet::from([card(Rank::Ace, Suit::Clubs), card(Rank::Queen, Suit::Hearts)]);
        assert_eq!(hand.value(), 11);
    }

    #[test]
    fn displays_in_order() {
        let set = CardSet::from([card(Rank::Ten, Suit::Clubs), card(Rank::Ace, Suit::Spades)]);
        assert_eq!(set.to_string(), "AS TC");
        assert_eq!(format!("{set:#}"), "A♠ T♣");
        assert_eq!(format!("{set:?}"), "[AS TC]");
    }
}
