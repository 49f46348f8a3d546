//! Cards for the gin Gin Rummy engine: [`CardSet`], a set of cards as a `u64` bit set, and the
//! vocabulary around it: [`Card`], [`Rank`], [`Suit`], a seeded [`Deck`] and the project's
//! reproducible randomness ([`random`]).
//!
//! Cards are written rank then suit (`TS` is the ten of spades); parsing also takes lower case,
//! `10` for ten and the suit symbols `♠♥♦♣`, and display with `{:#}` prints the symbols.
//!
//! ```
//! use gin_cards::{Card, CardSet, Deck, random};
//!
//! let hand: CardSet = "AS 2S 3S 7h 7d 7c 10c".parse()?;
//! assert_eq!(hand.len(), 7);
//! assert!(hand.contains("TC".parse::<Card>()?));
//! assert_eq!(hand.value(), 1 + 2 + 3 + 7 * 3 + 10);
//! assert_eq!(format!("{hand:#}"), "A♠ 2♠ 3♠ 7♥ 7♦ 7♣ T♣");
//!
//! // The same seed deals the same cards on every machine.
//! let mut deck = Deck::shuffled(&mut random::seeded_rng(42));
//! let first = deck.deal(10).unwrap();
//! let mut again = Deck::shuffled(&mut random::seeded_rng(42));
//! assert_eq!(again.deal(10), Some(first));
//! # Ok::<(), gin_cards::ParseError>(())
//! ```

mod card;
mod card_set;
mod deck;
mod parse;
pub mod random;
mod serde_impls;

pub use card::{Card, Rank, Suit};
pub use card_set::{CardSet, Iter};
pub use deck::{Deck, DeckError};
pub use parse::{ParseError, excerpt, untrusted};
