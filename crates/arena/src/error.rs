//! [`ArenaError`], and how the arena's messages state a limit ([`size`]).

use crate::stats::Side;

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
