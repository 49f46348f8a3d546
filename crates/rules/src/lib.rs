//! The rules of Gin Rummy for the gin engine: [`Solver`], the exact deadwood solver, with melds,
//! layoffs, knock eligibility, and hand and game scoring under a [`Ruleset`].
//!
//! ```
//! use gin_cards::CardSet;
//! use gin_rules::Solver;
//!
//! let solver = Solver::new(false);
//! // docs/rules.md, V1: greedy "largest meld first" leaves 27; the minimum is 10.
//! let hand: CardSet = "7S 7H 7D 7C 8C 9C 2D 3D 4D KH".parse()?;
//! assert_eq!(solver.min_deadwood(hand), 10);
//! let best = solver.best_arrangement(hand);
//! assert_eq!(best.melds().len(), 3);
//! assert_eq!(best.unmelded().to_string(), "KH");
//!
//! // docs/rules.md, V5: with 11 cards, the best discard leaves gin.
//! let eleven: CardSet = "AS 2S 4S 2H 4H AD 2D 3D 4D AC 2C".parse()?;
//! let discards = solver.best_discards(eleven);
//! assert_eq!(discards.deadwood, 0);
//! assert_eq!(discards.discards.to_string(), "3D");
//! # Ok::<(), gin_cards::ParseError>(())
//! ```

mod arrangement;
mod knock;
mod layoff;
mod meld;
mod player;
pub mod reference;
mod ruleset;
mod scoring;
pub mod settings;
mod showdown;
mod solver;
mod tables;

pub use arrangement::{Arrangement, ArrangementError};
pub use layoff::Defense;
pub use meld::{Meld, MeldError, MeldKind, melds_in};
pub use player::*;
pub use ruleset::*;
pub use scoring::*;
pub use showdown::{MAX_SHOWN_MELDS, Showdown, Showing, ShowingError};
pub use solver::{BestDiscards, Solver};
