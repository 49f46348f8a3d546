//! [`serve`]: any agent as a program that plays over the protocol (what `gin bot` runs).

use std::io::{self, BufRead, Write};

use gin_engine::{Action, Agent, Decision, Event};
use gin_rules::Ruleset;
use gin_rules::settings::PARSER_CHARS;

use crate::line::MAX_LINE;
use crate::line::{self, Line};
use crate::version::{OLDEST_VERSION, VERSION};
use crate::wire::HostMessage;
use crate::{Answer, v1};

/// Why [`serve`] stopped before the host was done.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The host's messages could not be read.
    #[error("cannot read the host's messages")]
    Read(#[source] io::Error),
    /// An answer could not be written.
    #[error("cannot write an answer")]
    Write(#[source] io::Error),
    /// A line that is not a message the protocol allows here (its number from 1, and why).
    #[error("line {line}: {problem}")]
    Line {
        /// The line's number, from 1.
        line: u64,
        /// What is wrong with it.
        problem: String,
    },
}

/// Plays `new_agent`'s agents over the protocol: reads the host's messages from `input`, one a
/// line, and answers each `decide` on `output` with one line (flushed). A new agent is built for
/// every `start_game`, in whichever version of the protocol that message names (1 or 2). Stops at
/// `quit` or at the end of the input.
///
/// What it checks of the host (docs/protocol.md says the same): every line is at most
/// [`MAX_LINE`] bytes of UTF-8 and one message; a `decide` comes after a `start_game`; its view
/// adds up to a position a game could reach (the hidden cards filled in, the referee accepts it),
/// it is the view's player's turn, and `legal` is exactly that position's list of legal actions
/// (in any order); a showing in an event or a view is one (disjoint real melds, its deadwood the
/// value of its unmelded cards). Fields it does not know are ignored at every depth.
///
/// # Errors
/// The first line that breaks one of those checks, with its number; an agent that cannot be
/// built; a read or a write that fails.
pub fn serve(
    input: impl BufRead,
    output: &mut impl Write,
    new_agent: &mut dyn FnMut() -> Result<Box<dyn Agent + Send>, String>,
) -> Result<(), ServeError> {
    let mut agent: Option<Box<dyn Agent + Send>> = None;
    // What a decision's view leaves out: the game's rules.
    let mut rules = Ruleset::default();
    // Set once a `start_game` says version 1.
    let mut first_version: Option<v1::Upgrade> = None;
    let mut input = input;
    let mut buffer = Vec::new();
    for number in 1u64.. {
        let refuse = |problem: String| ServeError::Line { line: number, problem };
        match line::read_line(&mut input, &mut buffer, MAX_LINE).map_err(ServeError::Read)? {
            Line::Read => {}
            Line::End => break,
            Line::TooLong => {
                return Err(refuse("longer than 1 MiB, the longest message the protocol allows".to_owned()));
            }
        }
        let Ok(text) = std::str::from_utf8(&buffer) else { return Err(refuse("not UTF-8 text".to_owned())) };
        if text.trim().is_empty() {
            continue;
        }
        // The parser's message may quote the line: cut short.
        let not_a_message = |err: serde_json::Error| {
            refuse(format!("not a host message: {}", gin_cards::excerpt(&err.to_string(), PARSER_CHARS)))
        };
        let message = match &mut first_version {
            Some(upgrade) => {
                let old: v1::HostMessage = serde_json::from_str(text).map_err(not_a_message)?;
                // A `start_game` of another version is read afresh.
                if let v1::HostMessage::StartGame { version, .. } = &old
                    && *version != v1::VERSION
                {
                    serde_json::from_str(text).map_err(not_a_message)?
                } else {
                    match upgrade.upgrade(old).map_err(refuse)? {
                        Some(message) => message,
                        None => continue,
                    }
                }
            }
            None => serde_json::from_str(text).map_err(not_a_message)?,
        };
        match message {
            HostMessage::StartGame { version, seat, rules: game_rules, seed } => {
                if !(OLDEST_VERSION..=VERSION).contains(&version) {
                    return Err(refuse(format!(
                        "protocol version {version} is not supported: this side speaks versions {OLDEST_VERSION} to {VERSION}"
                    )));
                }
                first_version = (version == v1::VERSION).then(|| v1::Upgrade::new(game_rules.0.clone()));
                let mut fresh = new_agent().map_err(|why| refuse(format!("cannot build the agent: {why}")))?;
                fresh.start_game(seat, &game_rules.0, seed);
                rules = game_rules.0;
                agent = Some(fresh);
            }
            HostMessage::StartHand { .. } => {}
            HostMessage::Event { event } => {
                let event =
                    Event::try_from(&event).map_err(|err| refuse(format!("an event that is not one: {err}")))?;
                if let Some(agent) = &mut agent {
                    agent.observe(&event);
                }
            }
            HostMessage::Decide { id, legal, view } => {
                let Some(agent) = &mut agent else { return Err(refuse("a decision before start_game".to_owned())) };
                let view =
                    view.as_view(&rules).map_err(|err| refuse(format!("a view whose knock is not one: {err}")))?;
                let legal: Vec<Action> = legal.into_iter().map(Action::from).collect();
                // An agent trusts its view: one that no game could show is refused here.
                view.check(&legal).map_err(|why| refuse(format!("a decision no game asks: {why}")))?;
                let (action, showing) = match agent.choose(&view, &legal) {
                    Decision::Play { action, showing } => (action, showing.map(|showing| *showing)),
                    Decision::Resign { reason } => {
                        return Err(refuse(format!(
                            "the agent resigned: {}",
                            gin_cards::excerpt(&reason, PARSER_CHARS)
                        )));
                    }
                };
                // The referee's choice where the agent has none: a knock always shows its melds
                // on the wire.
                let showing = showing.or_else(|| view.engine_showing(action));
                let mut line = Answer::new(id, action, showing.as_ref()).to_line();
                line.push('\n');
                output.write_all(line.as_bytes()).and_then(|()| output.flush()).map_err(ServeError::Write)?;
            }
            HostMessage::EndGame { result } => {
                if let Some(agent) = &mut agent {
                    agent.end_game(&result);
                }
            }
            HostMessage::Quit => break,
        }
    }
    Ok(())
}
