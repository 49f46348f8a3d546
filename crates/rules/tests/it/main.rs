//! Integration tests of gin-rules: the docs/rules.md vectors, the 2,000 reference hands, and property
//! tests of the fast solvers against the slow references.

mod deadwood_tsv;
mod properties;
mod vectors;

use gin_cards::CardSet;

/// Parses a list of cards, panicking on a typo in the test itself.
pub fn cards(text: &str) -> CardSet {
    text.parse().unwrap_or_else(|e| panic!("bad test cards {text:?}: {e}"))
}
