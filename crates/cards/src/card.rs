//! `Rank`, `Suit` and `Card`.

use std::fmt;

/// The rank of a card, ace low (`Ace` = 0 … `King` = 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// Ace: deadwood 1, low in runs (see the `ace_high` rule setting).
    Ace = 0,
    /// Two.
    Two,
    /// Three.
    Three,
    /// Four.
    Four,
    /// Five.
    Five,
    /// Six.
    Six,
    /// Seven.
    Seven,
    /// Eight.
    Eight,
    /// Nine.
    Nine,
    /// Ten, written `T`.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Rank {
    /// The 13 ranks, ace to king.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank with this index (0 = ace … 12 = king), if any.
    pub const fn from_index(index: u8) -> Option<Rank> {
        if index < 13 { Some(Rank::ALL[index as usize]) } else { None }
    }

    /// This rank's index: 0 for the ace … 12 for the king.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Deadwood value: ace 1, two to nine their face value, ten and court cards 10.
    pub const fn value(self) -> u8 {
        let face = self as u8 + 1;
        if face > 10 { 10 } else { face }
    }

    /// The rank's letter in the project's notation: `A23456789TJQK`.
    pub const fn to_char(self) -> char {
        b"A23456789TJQK"[self as usize] as char
    }

    /// The rank named by one character (`A`, `2`…`9`, `T`, `J`, `Q`, `K`, any case).
    pub const fn from_char(c: char) -> Option<Rank> {
        let index = match c {
            'A' | 'a' => 0,
            '2'..='9' => c as u8 - b'1',
            'T' | 't' => 9,
            'J' | 'j' => 10,
            'Q' | 'q' => 11,
            'K' | 'k' => 12,
            _ => return None,
        };
        Rank::from_index(index)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The suit of a card, in the project's order: spades, hearts, diamonds, clubs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Spades, `S` or `♠`.
    Spades = 0,
    /// Hearts, `H` or `♥`.
    Hearts,
    /// Diamonds, `D` or `♦`.
    Diamonds,
    /// Clubs, `C` or `♣`.
    Clubs,
}

impl Suit {
    /// The four suits in order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with this index (0 = spades … 3 = clubs), if any.
    pub const fn from_index(index: u8) -> Option<Suit> {
        if index < 4 { Some(Suit::ALL[index as usize]) } else { None }
    }

    /// This suit's index: 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The suit's letter: `S`, `H`, `D` or `C`.
    pub const fn to_char(self) -> char {
        b"SHDC"[self as usize] as char
    }

    /// The suit's symbol: `♠`, `♥`, `♦` or `♣`.
    pub const fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// Whether the suit is printed red (hearts and diamonds).
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    /// The suit named by a letter (any case) or a symbol (`♠♥♦♣`, also the white `♤♡♢♧`).
    pub const fn from_char(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    /// The letter; with `{:#}` the symbol.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() { write!(f, "{}", self.symbol()) } else { write!(f, "{}", self.to_char()) }
    }
}

/// One playing card, stored in one byte.
///
/// The byte is the card's bit position in a [`CardSet`](crate::CardSet): `suit * 16 + rank`.
/// Cards order by suit, then rank, which is also the order a `CardSet` iterates in.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((suit as u8) << 4 | rank as u8)
    }

    /// The card at this bit position (`suit * 16 + rank`), if that is a card.
    pub const fn from_bit(bit: u8) -> Option<Card> {
        if bit < 64 && bit & 15 < 13 { Some(Card(bit)) } else { None }
    }

    /// The card's bit position in a [`CardSet`](crate::CardSet): `suit * 16 + rank`.
    pub const fn bit(self) -> u8 {
        self.0
    }

    /// The card with this dense index (`suit * 13 + rank`, 0..52), if any.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 52 { Some(Card(((index / 13) << 4) | (index % 13))) } else { None }
    }

    /// The card's dense index, `suit * 13 + rank`, in 0..52.
    pub const fn index(self) -> u8 {
        (self.0 >> 4) * 13 + (self.0 & 15)
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 & 15) as usize]
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 >> 4) as usize]
    }

    /// Deadwood value: ace 1, two to nine their face value, ten and court cards 10.
    pub const fn value(self) -> u8 {
        self.rank().value()
    }
}

impl fmt::Display for Card {
    /// Two characters, rank then suit letter (`TS`); with `{:#}` the suit symbol (`T♠`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{}{:#}", self.rank(), self.suit())
        } else {
            write!(f, "{}{}", self.rank(), self.suit())
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_rules() {
        let values: Vec<u8> = Rank::ALL.iter().map(|r| r.value()).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
    }

    #[test]
    fn index_and_bit_round_trip() {
        for index in 0..52 {
            let card = Card::from_index(index).unwrap();
            assert_eq!(card.index(), index);
            assert_eq!(Card::from_bit(card.bit()), Some(card));
            assert_eq!(Card::new(card.rank(), card.suit()), card);
        }
        assert_eq!(Card::from_index(52), None);
        assert_eq!(Card::from_bit(13), None);
        assert_eq!(Card::from_bit(64), None);
    }

    #[test]
    fn displays_in_ascii_and_with_symbols() {
        let card = Card::new(Rank::Ten, Suit::Spades);
        assert_eq!(card.to_string(), "TS");
        assert_eq!(format!("{card:#}"), "T♠");
        assert_eq!(format!("{:#}", Card::new(Rank::Ace, Suit::Hearts)), "A♥");
    }

    #[test]
    fn chars_round_trip() {
        for rank in Rank::ALL {
            assert_eq!(Rank::from_char(rank.to_char()), Some(rank));
            assert_eq!(Rank::from_char(rank.to_char().to_ascii_lowercase()), Some(rank));
        }
        for suit in Suit::ALL {
            assert_eq!(Suit::from_char(suit.to_char()), Some(suit));
            assert_eq!(Suit::from_char(suit.symbol()), Some(suit));
        }
        assert_eq!(Rank::from_char('1'), None);
        assert_eq!(Rank::from_char('X'), None);
        assert_eq!(Suit::from_char('X'), None);
    }
}
