//! Where gin's agents meet: the arena that `gin sim`, `gin league`, `gin play` and any other
//! program (a Python binding, a sharded run) use to put agents at a table.
//!
//! - [`AgentChoice`] names an agent: built in (`expert:knock_bias=2`) or a program that plays over
//!   the protocol (`cmd:PROGRAM ARGS...`, `cmd-v1:` for the protocol's first version);
//!   [`build_agent`] makes it.
//! - [`Host`] is where programs run: their time limits ([`Limits`]), a private folder of logs
//!   for their standard error, and on Linux the [`keeper`] that ends everything they start.
//! - [`Match`] plays two agents in mirrored pairs of games on many threads and adds up a
//!   [`Tally`], from which [`Figures`] come; [`LeaguePlan`] plays every agent against every other
//!   and rates them ([`League`]).
//! - Whoever runs a match hears how far it is through a [`Watch`]: nothing here prints.
//!
//! ```
//! use gin_ai::registry::AgentParams;
//! use gin_arena::{AgentChoice, Figures, Host, Limits, Match, Unwatched};
//! use gin_rules::Ruleset;
//!
//! let specs: [AgentChoice; 2] = ["simple".parse()?, "random".parse()?];
//! let (rules, params, host) = (Ruleset::eaai(), AgentParams::default(), Host::new(Limits::default()));
//! let plan = Match { rules: &rules, seed: 7, pairs: 5, specs: &specs, params: &params, host: &host, max_forfeits: 0 };
//! let tally = plan.play(2, &Unwatched)?;
//! let figures = Figures::new(&tally, ["simple", "random"], 7);
//! assert_eq!(figures.games, 10);
//! assert!(figures.a.wins > figures.b.wins);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod choice;
mod error;
mod host;
#[cfg(target_os = "linux")]
pub mod keeper;
mod league;
mod matches;
mod stats;

pub use choice::{AgentChoice, ChoiceError, PROGRAM_PREFIX, Program, V1_PROGRAM_PREFIX, build_agent, names_program};
pub use error::{ArenaError, size};
pub use host::{DEFAULT_STARTUP, DEFAULT_TIMEOUT, Host, Limits, MAX_LIMIT_SECONDS, MIN_LIMIT_SECONDS, parse_timeout};
pub use league::{League, LeaguePlan, LeagueWatch, Pairing, Rating, ratings};
pub use matches::{Forfeit, MAX_THREADS, Match, Unwatched, Watch};
pub use stats::{AgentFigures, AgentTally, Figures, Side, Tally, wilson_95};
