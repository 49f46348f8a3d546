//! Parsing cards and hands from text.

use std::str::FromStr;

use crate::{Card, CardSet, Rank, Suit};

/// Why a card, a list of cards or a hand could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A card was expected and nothing was given.
    #[error("empty card: expected a rank and a suit such as `TS`")]
    Empty,
    /// The rank part of a token is not a rank.
    #[error("unknown rank `{rank}` in `{token}`: expected A, 2-9, T (or 10), J, Q or K")]
    UnknownRank {
        /// The whole token that was read.
        token: String,
        /// The part that should have been a rank.
        rank: String,
    },
    /// The suit part of a token is not a suit.
    #[error("unknown suit `{suit}` in `{token}`: expected S, H, D or C (or ♠ ♥ ♦ ♣)")]
    UnknownSuit {
        /// The whole token that was read.
        token: String,
        /// The part that should have been a suit.
        suit: String,
    },
    /// A rank with no suit after it.
    #[error("`{token}` has no suit: expected a rank and a suit such as `TS`")]
    MissingSuit {
        /// The whole token that was read.
        token: String,
    },
    /// Text after a complete card where none may follow.
    #[error("`{token}` is not one card: expected a rank and a suit such as `TS`")]
    TrailingText {
        /// The whole token that was read.
        token: String,
    },
    /// The same card twice in one list.
    #[error("duplicate card {card} (given again as `{token}`)")]
    DuplicateCard {
        /// The card given twice.
        card: Card,
        /// The token that repeated it.
        token: String,
    },
    /// A hand with the wrong number of cards.
    #[error("wrong hand size: {found} cards, expected {expected}")]
    WrongHandSize {
        /// The number of cards given.
        found: usize,
        /// What was expected, for example `10 or 11`.
        expected: String,
    },
}

/// Reads one card from the front of `text`; returns it and the rest.
/// The longest part of a token an error quotes, in characters.
const TOKEN_CHARS: usize = 40;

/// A token as an error quotes it: at most [`TOKEN_CHARS`] characters.
fn token_excerpt(token: &str) -> String {
    excerpt(token, TOKEN_CHARS)
}

/// `text` as an error message quotes input: at most `max_chars` characters, with `…` after a
/// cut, so that no message repeats a huge input whole. Every error of the workspace's crates
/// that quotes what it was given quotes it through this.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Text that came from outside (typed, read from a file, sent by a program) as it may be shown
/// on a terminal: control characters escaped (`\u{1b}`), never sent raw, and at most
/// `max_chars` characters, with `…` after a cut.
pub fn untrusted(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for c in text.chars().take(max_chars) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

fn parse_prefix<'a>(text: &'a str, token: &str) -> Result<(Card, &'a str), ParseError> {
    let mut chars = text.chars();
    let first = chars.next().ok_or(ParseError::Empty)?;
    let (rank, rest) = if first == '1' && text[1..].starts_with('0') {
        (Rank::Ten, &text[2..])
    } else {
        let rank = Rank::from_char(first).ok_or_else(|| ParseError::UnknownRank {
            token: token_excerpt(token),
            rank: if first == '1' { "1".to_owned() } else { first.to_string() },
        })?;
        (rank, chars.as_str())
    };
    let mut chars = rest.chars();
    let suit_char = chars.next().ok_or_else(|| ParseError::MissingSuit { token: token_excerpt(token) })?;
    let suit = Suit::from_char(suit_char)
        .ok_or_else(|| ParseError::UnknownSuit { token: token_excerpt(token), suit: suit_char.to_string() })?;
    // Allow a variation selector after a symbol (`♥️`), as some keyboards add one.
    let rest = chars.as_str().trim_start_matches('\u{fe0f}');
    Ok((Card::new(rank, suit), rest))
}

impl FromStr for Card {
    type Err = ParseError;

    /// Reads one card: a rank (`A`, `2`-`9`, `T` or `10`, `J`, `Q`, `K`) then a suit (`S H D C` or
    /// `♠ ♥ ♦ ♣`), in any case, surrounding white space ignored.
    fn from_str(s: &str) -> Result<Card, ParseError> {
        let token = s.trim();
        let (card, rest) = parse_prefix(token, token)?;
        if rest.is_empty() { Ok(card) } else { Err(ParseError::TrailingText { token: token_excerpt(token) }) }
    }
}

impl FromStr for CardSet {
    type Err = ParseError;

    /// Reads any number of distinct cards separated by white space or commas; a token may also run
    /// cards together (`7S7H7D`). A repeated card is an error.
    fn from_str(s: &str) -> Result<CardSet, ParseError> {
        let mut set = CardSet::EMPTY;
        for token in s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let mut rest = token;
            while !rest.is_empty() {
                let (card, after) = parse_prefix(rest, token)?;
                if !set.insert(card) {
                    return Err(ParseError::DuplicateCard { card, token: token_excerpt(token) });
                }
                rest = after;
            }
        }
        Ok(set)
    }
}

impl CardSet {
    /// Reads a hand whose size must be one of `sizes`, as [`CardSet::from_str`] reads cards.
    ///
    /// # Errors
    /// Any [`ParseError`] of the cards, or [`ParseError::WrongHandSize`] naming the sizes allowed.
    pub fn parse_hand(text: &str, sizes: &[usize]) -> Result<CardSet, ParseError> {
        let set: CardSet = text.parse()?;
        if sizes.contains(&set.len()) {
            return Ok(set);
        }
        let expected = match sizes {
            [] => "no cards".to_owned(),
            [one] => one.to_string(),
            [init @ .., last] => {
                let init: Vec<String> = init.iter().map(ToString::to_string).collect();
                format!("{} or {last}", init.join(", "))
            }
        };
        Err(ParseError::WrongHandSize { found: set.len(), expected })
    }
}

impl FromStr for Rank {
    type Err = ParseError;

    /// Reads a rank: `A`, `2`-`9`, `T` or `10`, `J`, `Q`, `K`, any case.
    fn from_str(s: &str) -> Result<Rank, ParseError> {
        let token = s.trim();
        let unknown = || ParseError::UnknownRank { token: token_excerpt(token), rank: token_excerpt(token) };
        if token == "10" {
            return Ok(Rank::Ten);
        }
        let mut chars = token.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Rank::from_char(c).ok_or_else(unknown),
            _ => Err(unknown()),
        }
    }
}

impl FromStr for Suit {
    type Err = ParseError;

    /// Reads a suit: `S H D C` in any case, or `♠ ♥ ♦ ♣`.
    fn from_str(s: &str) -> Result<Suit, ParseError> {
        let token = s.trim();
        let unknown = || ParseError::UnknownSuit { token: token_excerpt(token), suit: token_excerpt(token) };
        let mut chars = token.trim_end_matches('\u{fe0f}').chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_char(c).ok_or_else(unknown),
            _ => Err(unknown()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ten_of_spades() -> Card {
        Card::new(Rank::Ten, Suit::Spades)
    }

    #[test]
    fn every_spelling_of_a_card() {
        for text in ["TS", "ts", "10s", "10S", "T♠", "t♠", "10♠", " TS ", "T♤"] {
            assert_eq!(text.parse::<Card>(), Ok(ten_of_spades()), "{text}");
        }
        assert_eq!("7♥\u{fe0f}".parse::<Card>(), Ok(Card::new(Rank::Seven, Suit::Hearts)));
    }

    #[test]
    fn every_card_round_trips_through_both_displays() {
        for card in CardSet::FULL {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(format!("{card:#}").parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn bad_cards_say_what_is_wrong() {
        assert_eq!("XS".parse::<Card>(), Err(ParseError::UnknownRank { token: "XS".into(), rank: "X".into() }));
        assert_eq!("1S".parse::<Card>(), Err(ParseError::UnknownRank { token: "1S".into(), rank: "1".into() }));
        assert_eq!("TX".parse::<Card>(), Err(ParseError::UnknownSuit { token: "TX".into(), suit: "X".into() }));
        assert_eq!("T".parse::<Card>(), Err(ParseError::MissingSuit { token: "T".into() }));
        assert_eq!("10".parse::<Card>(), Err(ParseError::MissingSuit { token: "10".into() }));
        assert_eq!("TSX".parse::<Card>(), Err(ParseError::TrailingText { token: "TSX".into() }));
        assert_eq!("".parse::<Card>(), Err(ParseError::Empty));
        let message = "QZ".parse::<Card>().unwrap_err().to_string();
        assert!(message.contains("unknown suit `Z` in `QZ`"), "{message}");
    }

    #[test]
    fn errors_quote_a_long_token_cut_short() {
        let long = format!("X{}", "S".repeat(100_000));
        let message = long.parse::<Card>().unwrap_err().to_string();
        assert!(message.len() < 200, "{} bytes", message.len());
        assert!(message.contains(&format!("`X{}…`", "S".repeat(39))), "{message}");
        let message = format!("AS {}", "7".repeat(100_000)).parse::<CardSet>().unwrap_err().to_string();
        assert!(message.len() < 200, "{message}");
        assert_eq!(excerpt("héllo", 2), "hé…");
        assert_eq!(excerpt("héllo", 5), "héllo");
    }

    #[test]
    fn hands_accept_separators_and_runs_of_cards() {
        let hand: CardSet = "AS 2S,3S  7s7h7d\t10c".parse().unwrap();
        assert_eq!(hand.to_string(), "AS 2S 3S 7S 7H 7D TC");
        assert_eq!(hand.len(), 7);
        assert_eq!("".parse::<CardSet>(), Ok(CardSet::EMPTY));
    }

    #[test]
    fn hands_refuse_duplicates_and_wrong_sizes() {
        assert_eq!(
            "AS 2S as".parse::<CardSet>(),
            Err(ParseError::DuplicateCard { card: Card::new(Rank::Ace, Suit::Spades), token: "as".into() })
        );
        let err = CardSet::parse_hand("AS 2S", &[10, 11]).unwrap_err();
        assert_eq!(err, ParseError::WrongHandSize { found: 2, expected: "10 or 11".into() });
        assert_eq!(err.to_string(), "wrong hand size: 2 cards, expected 10 or 11");
        assert!(CardSet::parse_hand("AS 2S", &[2]).is_ok());
    }

    #[test]
    fn ranks_and_suits_parse_alone() {
        assert_eq!("10".parse::<Rank>(), Ok(Rank::Ten));
        assert_eq!("q".parse::<Rank>(), Ok(Rank::Queen));
        assert!("11".parse::<Rank>().is_err());
        assert_eq!("♦".parse::<Suit>(), Ok(Suit::Diamonds));
        assert!("SS".parse::<Suit>().is_err());
    }
}
