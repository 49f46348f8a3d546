//! Gin Rummy at the terminal: [`play`] a game against the AI, or between two people at one
//! terminal, saved after every move; [`replay`] a saved game hand by hand; [`list_saves`].
//!
//! [`play`] draws a full-screen table (ratatui) when standard input and output are a terminal,
//! and plays in lines otherwise (a pipe, a script, a screen reader, or
//! [`PlayOptions::plain`]). Every move is saved, atomically, to a file whose every line is
//! sealed with a digest chained over the lines before it, so that a save cut short or edited by
//! hand is refused, naming the line; resuming replays the record through the referee alone.
//!
//! The `gin` binary turns its command line (`gin play`, `gin replay`, `gin saves`) into these
//! options and maps a [`Failure`] onto its exit status. What it shares with its other commands
//! lives here too: how cards and text from outside look on a terminal ([`render`]), and how a
//! file a user names is read ([`files`]). [`saves`] reads and writes a save's text for tools
//! that check the reader.
//!
//! ```no_run
//! use gin_arena::{Host, Limits};
//! use gin_tui::{Failure, PlayOptions};
//!
//! // `gin play --plain --ai simple --seed 42`: one command a line from standard input.
//! let host = Host::new(Limits::default());
//! let options = PlayOptions { ai: Some("simple".to_owned()), seed: Some(42), plain: true, ..PlayOptions::new(host) };
//! match gin_tui::play(&options) {
//!     Ok(()) => {}
//!     Err(Failure::Usage(error)) => eprintln!("bad option: {error:#}"),
//!     Err(Failure::Other(error)) => eprintln!("error: {error:#}"),
//! }
//! ```

mod failure;
pub mod files;
mod invocation;
mod play;
pub mod render;
mod replay;
pub mod saves;

pub use failure::Failure;
pub use play::{Color, PlayOptions, Resume};
pub use replay::ReplayOptions;

/// Plays a game at the terminal, as `gin play` does: the full-screen table when standard input
/// and output are a terminal (unless [`PlayOptions::plain`]), else the line mode. It returns
/// when the game ends or the player stops (the game is then saved, to resume later).
///
/// # Errors
/// [`Failure::Usage`] for an option that cannot be used (a `--save` file gin may not replace,
/// an AI that cannot be built); [`Failure::Other`] for a save that cannot be read or written, a
/// damaged save, an AI that forfeits (the save records it), or the terminal failing.
pub fn play(options: &PlayOptions) -> Result<(), Failure> {
    play::run(options)
}

/// Prints a game file hand by hand (or one line a hand), as `gin replay` does: a save of
/// [`play`], checked line by line, or an engine event log.
///
/// # Errors
/// [`Failure::Other`]: the file cannot be read, is not a gin game or is damaged (the message
/// names the line), or standard output fails.
pub fn replay(options: &ReplayOptions) -> Result<(), Failure> {
    replay::run(options).map_err(Failure::Other)
}

/// Lists the saved games on standard output, newest first, as `gin saves` does: when each was
/// last played, the opponent, the score, and whether it is finished or damaged.
///
/// # Errors
/// [`Failure::Other`]: standard output fails.
pub fn list_saves() -> Result<(), Failure> {
    play::saves::run().map_err(Failure::Other)
}
