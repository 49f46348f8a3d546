//! Agents for the gin engine, and a registry that builds them by name.
//!
//! [`registry::build`] turns a spec such as `simple` or `expert:danger_weight=2` into a boxed
//! [`gin_engine::Agent`]. The agents are one table, [`registry::AGENTS`], weakest first: `random`
//! (uniform over the legal actions), `taker`, `greedy` (the heuristic of the original Gin Rummy Java
//! project), `simple` (a port of the EAAI competition's `SimpleGinRummyPlayer`), `expert` (our own:
//! knock and gin distance, outs, danger, and a knock policy, with every weight in
//! [`ExpertParams`]), `holder` (a low holder), and the searches `mc-fast` and `mc` ([`McAgent`]).
//!
//! ```
//! use gin_ai::registry;
//! use gin_engine::{RunOptions, play_game};
//! use gin_rules::{ByPlayer, Ruleset};
//!
//! let mut a = registry::build(&"simple".parse()?, &Default::default())?;
//! let mut b = registry::build(&"greedy".parse()?, &Default::default())?;
//! let record = play_game(&Ruleset::eaai(), 7, ByPlayer([a.as_mut(), b.as_mut()]), RunOptions::default());
//! assert!(record.outcome.winner().is_some());
//! # Ok::<(), registry::SpecError>(())
//! ```

mod expert;
mod greedy;
mod hint;
mod holder;
mod mc;
mod picks;
pub mod registry;
mod simple;
mod taker;
#[cfg(test)]
mod testing;
mod tracker;

pub use expert::{ExpertAgent, ExpertParams};
pub use greedy::GreedyAgent;
pub use hint::{Advisor, Hint, Reason};
pub use holder::{HolderAgent, HolderParams};
pub use mc::{McAgent, McParams, calibration};
pub use simple::SimpleAgent;
pub use taker::TakerAgent;
pub use tracker::Tracker;
