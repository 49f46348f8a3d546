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
mod host;
#[cfg(target_os = "linux")]
pub mod keeper;
mod league;
mod matches;
mod stats;

pub use choice::{AgentChoice, ChoiceError, PROGRAM_PREFIX, Program, V1_PROGRAM_PREFIX, build_agent, names_program};
pub use host::{DEFAULT_STARTUP, DEFAULT_TIMEOUT, Host, Limits, MAX_LIMIT_SECONDS, MIN_LIMIT_SECONDS, parse_timeout};
pub use league::{League, LeaguePlan, LeagueWatch, Pairing, Rating, pairing, ratings};
pub use matches::{Forfeit, MAX_THREADS, Match, Unwatched, Watch};
pub use stats::{AgentFigures, AgentTally, Figures, Side, Tally, wilson_95};

/// Why the arena could not play what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An agent could not be built (a bad spec or setting) or its program could not be started.
    #[error("{agent}: {message}")]
    Agent {
        /// The agent's spec.
        agent: String,
        /// Why.
        message: String,
    },
    /// One side forfeited as many games as the match allows: the match was stopped.
    #[error(
        "{} {agent} forfeited {count} games, the most allowed: the match was stopped after {played} of {games} games \
         (the last forfeit: {last})",
        side.name()
    )]
    Forfeits {
        /// The side.
        side: Side,
        /// Its agent's spec.
        agent: String,
        /// Its forfeits.
        count: u64,
        /// The games played.
        played: u64,
        /// The games the match was to play.
        games: u64,
        /// Why it forfeited last.
        last: String,
    },
    /// A league that cannot be played as asked.
    #[error("{0}")]
    League(String),
    /// A pairing of a league stopped.
    #[error("{a} against {b}: {error}")]
    Pairing {
        /// The pairing's first agent.
        a: String,
        /// Its second.
        b: String,
        /// What stopped it.
        #[source]
        error: Box<ArenaError>,
    },
    /// An agent or the engine panicked: a bug.
    #[error("a game stopped on an internal error (a bug in an agent or the engine)")]
    Panicked,
}

/// `64 MiB`, `1 MiB`, `512 bytes`: a size as a message states a limit (the host's and the
/// command line's messages alike).
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
