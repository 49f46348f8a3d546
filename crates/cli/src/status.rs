//! How a command ends: what it returns to `main`, which turns it into the exit status.

/// Exit status when some hand or input line could not be read.
pub(crate) const EXIT_BAD_INPUT: u8 = 1;
/// Exit status for a bad invocation (clap uses it too).
pub(crate) const EXIT_USAGE: u8 = 2;

/// How a command that ran to its end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything was answered.
    Success,
    /// Some input could not be read (and was reported); the rest was answered.
    BadInput,
}

/// An error that stops a command, with the exit status it calls for.
#[derive(Debug)]
pub(crate) struct Failure {
    /// The exit status.
    pub(crate) status: u8,
    /// What went wrong.
    pub(crate) error: anyhow::Error,
}

impl Failure {
    /// A bad option value, such as an unreadable `--rules` file: exit status 2, like clap's.
    pub(crate) fn usage(error: anyhow::Error) -> Failure {
        Failure { status: EXIT_USAGE, error }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Failure {
        Failure { status: EXIT_BAD_INPUT, error }
    }
}

impl From<gin_tui::Failure> for Failure {
    fn from(failure: gin_tui::Failure) -> Failure {
        match failure {
            gin_tui::Failure::Usage(error) => Failure::usage(error),
            gin_tui::Failure::Other(error) => Failure::from(error),
        }
    }
}
