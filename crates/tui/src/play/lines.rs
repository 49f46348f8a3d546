//! Where `gin play` reads its lines: a line editor with history at a terminal (rustyline), or
//! plain lines from a pipe or a file, echoed so that a transcript reads like a session.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use rustyline::error::ReadlineError;

use crate::render::untrusted;

/// The prompt before every line.
const PROMPT: &str = "> ";

/// The longest piped line echoed whole (the rest is cut, as any text from outside).
const ECHO_CHARS: usize = 200;

/// The longest piped line read whole, in bytes: a command is a few characters.
const MAX_COMMAND: usize = 4 << 10;

/// A source of the player's lines.
pub(super) enum Lines<R> {
    /// A terminal: editing, arrow keys and history, nothing echoed raw.
    Editor(Box<rustyline::DefaultEditor>),
    /// Standard input that is not a terminal.
    Piped(R),
}

impl<R: BufRead> Lines<R> {
    /// A line editor when both ends are a terminal (and one can be made), else `piped`.
    pub(super) fn new(terminal: bool, piped: R) -> Lines<R> {
        if terminal && let Ok(editor) = rustyline::DefaultEditor::new() {
            return Lines::Editor(Box::new(editor));
        }
        Lines::Piped(piped)
    }

    /// Prompts with `> ` and reads a line; `None` at the end of input (Ctrl-D at a terminal).
    /// Ctrl-C at a terminal reads as `quit`.
    ///
    /// # Errors
    /// The input or the output fails.
    pub(super) fn ask(&mut self, out: &mut impl Write) -> Result<Option<String>> {
        match self {
            Lines::Editor(editor) => {
                out.flush()?;
                match editor.readline(PROMPT) {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = editor.add_history_entry(line.as_str());
                        }
                        Ok(Some(line))
                    }
                    Err(ReadlineError::Interrupted) => Ok(Some("quit".to_owned())),
                    Err(ReadlineError::Eof) => Ok(None),
                    Err(err) => Err(err).context("cannot read the terminal"),
                }
            }
            Lines::Piped(input) => {
                write!(out, "{PROMPT}")?;
                out.flush()?;
                // A command is a few characters: a longer line is cut (and the rest dropped), so
                // that no input grows the memory.
                let mut bytes = Vec::new();
                match gin_protocol::line::read_line(input, &mut bytes, MAX_COMMAND)
                    .context("cannot read standard input")?
                {
                    gin_protocol::line::Line::End => return Ok(None),
                    gin_protocol::line::Line::TooLong => {
                        gin_protocol::line::skip_line(input).context("cannot read standard input")?;
                    }
                    gin_protocol::line::Line::Read => {}
                }
                let line = String::from_utf8_lossy(&bytes).into_owned();
                // Echo piped input, so that a transcript reads like a session: never raw.
                writeln!(out, "{}", untrusted(line.trim_end(), ECHO_CHARS))?;
                Ok(Some(line))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_piped_line_is_cut_not_kept() {
        let mut lines = Lines::new(false, std::io::BufReader::new(std::io::Read::take(std::io::repeat(b'x'), 1 << 24)));
        let mut out = Vec::new();
        let line = lines.ask(&mut out).unwrap().unwrap();
        assert_eq!(line.len(), MAX_COMMAND);
        assert_eq!(lines.ask(&mut out).unwrap(), None);
    }

    #[test]
    fn piped_lines_are_echoed_safely() {
        let input = "s\n\u{1b}[31mred\n".to_owned() + &"x".repeat(1000) + "\n";
        let mut lines = Lines::new(false, input.as_bytes());
        let mut out = Vec::new();
        assert_eq!(lines.ask(&mut out).unwrap().as_deref(), Some("s\n"));
        assert_eq!(lines.ask(&mut out).unwrap().as_deref(), Some("\u{1b}[31mred\n"));
        assert!(lines.ask(&mut out).unwrap().is_some());
        assert_eq!(lines.ask(&mut out).unwrap(), None);
        let echoed = String::from_utf8(out).unwrap();
        assert!(echoed.starts_with("> s\n> \\u{1b}[31mred\n> xxx"), "{echoed}");
        assert!(!echoed.contains('\u{1b}'));
        assert!(echoed.len() < 300, "{} bytes", echoed.len());
    }
}
