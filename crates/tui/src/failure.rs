//! Why a command of the game stopped: a bad option, or anything else.

/// Why [`crate::play`], [`crate::replay`] or [`crate::list_saves`] stopped before its end, kept
/// apart by kind so that a command line can answer each with its own exit status.
#[derive(Debug)]
pub enum Failure {
    /// A bad option: a `--save` file gin may not replace, an AI that cannot be built (the `gin`
    /// binary's exit status 2).
    Usage(anyhow::Error),
    /// Anything else: a save or game file that cannot be read or written, a damaged one, an AI
    /// that forfeits, the terminal failing (exit status 1).
    Other(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Failure {
        Failure::Other(error)
    }
}
