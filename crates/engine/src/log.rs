//! The event log as JSON Lines, and replaying it.
//!
//! The first line is a [`LogHeader`] (format, version, seed, rules, and the first deal when it
//! was set up by hand); each further line is one [`Event`] as the referee saw it. Replaying a
//! log plays the actions its events record on a new game from the header and checks that every
//! event comes out the same.

use std::io::{self, Write};

use gin_cards::excerpt;
use gin_rules::settings::{NAME_CHARS, PARSER_CHARS};
use gin_rules::{Player, Ruleset, Showing};

use crate::{Action, Event, Game, HandSetup, PlayError, SetupError};

/// The version of the log format written by [`write_log`].
pub const LOG_VERSION: u32 = 2;
const LOG_FORMAT: &str = "gin-log";

/// The first line of a log: what a replay needs to deal the same cards.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogHeader {
    /// Always `gin-log`.
    pub format: String,
    /// [`LOG_VERSION`].
    pub version: u32,
    /// The game's seed.
    pub seed: u64,
    /// The rules.
    pub rules: Ruleset,
    /// The first hand, when the game was started from a setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<HandSetup>,
}

impl LogHeader {
    /// The header of a game started with [`Game::new`] (or [`Game::from_setup`] with `setup`).
    pub fn new(seed: u64, rules: &Ruleset, setup: Option<HandSetup>) -> LogHeader {
        LogHeader { format: LOG_FORMAT.to_owned(), version: LOG_VERSION, seed, rules: rules.clone(), setup }
    }
}

/// Why a log could not be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The log is empty.
    #[error("the log is empty: expected a header line")]
    Empty,
    /// A line that is not the JSON expected there.
    #[error("line {line}: {message}")]
    Parse {
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Another format or version.
    #[error("line 1: not a gin log of version {LOG_VERSION} (found format {format:?}, version {version})")]
    Version {
        /// The format named.
        format: String,
        /// The version named.
        version: u32,
    },
    /// The header's setup is not a deal.
    #[error("line 1: the first hand's setup is invalid: {0}")]
    Setup(#[from] SetupError),
    /// An event records an action the referee refuses.
    #[error("line {line}: the recorded action is refused: {error}")]
    Illegal {
        /// The line number.
        line: usize,
        /// Why.
        error: PlayError,
    },
    /// The game went differently from the log.
    #[error("line {line}: the log says {logged} but the replay gives {replayed}")]
    Mismatch {
        /// The line number.
        line: usize,
        /// The logged event, as JSON.
        logged: String,
        /// The replayed event, as JSON (or `nothing`).
        replayed: String,
    },
    /// An event that no player's action causes, where an action was expected.
    #[error("line {line}: unexpected {event}: expected an event recording a player's action")]
    Unexpected {
        /// The line number.
        line: usize,
        /// The event, as JSON.
        event: String,
    },
}

/// Writes a log: the header, then one event per line.
///
/// # Errors
/// The writer's errors.
pub fn write_log(out: &mut impl Write, header: &LogHeader, events: &[Event]) -> io::Result<()> {
    serde_json::to_writer(&mut *out, header)?;
    out.write_all(b"\n")?;
    for event in events {
        serde_json::to_writer(&mut *out, event)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Reads a log's header and events (blank lines are skipped).
///
/// # Errors
/// [`ReplayError`] naming the first line that is not what it should be.
pub fn read_log(text: &str) -> Result<(LogHeader, Vec<(usize, Event)>), ReplayError> {
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line)).filter(|(_, line)| !line.trim().is_empty());
    let (_, first) = lines.next().ok_or(ReplayError::Empty)?;
    let header: LogHeader = serde_json::from_str(first)
        .map_err(|e| ReplayError::Parse { line: 1, message: format!("bad header: {}", parser_message(&e)) })?;
    if header.format != LOG_FORMAT || header.version != LOG_VERSION {
        return Err(ReplayError::Version { format: excerpt(&header.format, NAME_CHARS), version: header.version });
    }
    let events = lines
        .map(|(line, text)| {
            serde_json::from_str(text)
                .map(|event| (line, event))
                .map_err(|e| ReplayError::Parse { line, message: parser_message(&e) })
        })
        .collect::<Result<_, _>>()?;
    Ok((header, events))
}

/// Replays a log: deals from its header, plays the action each event records, and checks every
/// event the game produces against the log. Returns the game as the log leaves it.
///
/// # Errors
/// [`ReplayError`] at the first line that cannot be read or that the game does not reproduce.
pub fn replay(text: &str) -> Result<Game, ReplayError> {
    let (header, events) = read_log(text)?;
    replay_events(&header, &events)
}

/// [`replay`] from a log already read ([`read_log`]): deals from `header`, plays the action each
/// event records and checks every event the game produces. Returns the game as the events leave
/// it.
///
/// # Errors
/// [`ReplayError`] at the first event the game does not reproduce.
pub fn replay_events(header: &LogHeader, events: &[(usize, Event)]) -> Result<Game, ReplayError> {
    let (mut game, opening) = match &header.setup {
        Some(setup) => Game::from_setup(&header.rules, header.seed, setup)?,
        None => Game::new(&header.rules, header.seed),
    };
    let mut logged = events.iter().peekable();
    compare(&opening, &mut logged)?;
    while let Some(&&(line, ref event)) = logged.peek() {
        let (player, action, showing) =
            recorded_action(event, &game).ok_or_else(|| ReplayError::Unexpected { line, event: json(event) })?;
        let produced =
            game.play_with(player, action, showing.as_ref()).map_err(|error| ReplayError::Illegal { line, error })?;
        compare(&produced, &mut logged)?;
    }
    Ok(game)
}

/// Checks that the next logged events are `produced`.
fn compare<'a>(
    produced: &[Event],
    logged: &mut std::iter::Peekable<impl Iterator<Item = &'a (usize, Event)>>,
) -> Result<(), ReplayError> {
    for event in produced {
        match logged.next() {
            Some((_, seen)) if seen == event => {}
            Some((line, seen)) => {
                return Err(ReplayError::Mismatch { line: *line, logged: json(seen), replayed: json(event) });
            }
            // The log may stop anywhere: what it holds was reproduced.
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The player's action that `event` records, with the cards it showed, if a player's action
/// causes it in `game` (the game as it was just before the event): how [`replay`] reads a log,
/// for others that replay one. Playing the action with its showing gives the same events.
pub fn recorded_action(event: &Event, game: &Game) -> Option<(Player, Action, Option<Showing>)> {
    let recorded = match event {
        Event::TookUpcard { player, .. } => (*player, Action::TakeUpcard, None),
        Event::PassedUpcard { player } => (*player, Action::PassUpcard, None),
        Event::DrewStock { player, .. } => (*player, Action::DrawStock, None),
        Event::DrewPile { player, .. } => (*player, Action::DrawPile, None),
        Event::Discarded { player, card } => (*player, Action::Discard { card: *card }, None),
        Event::Knocked { player, discard: Some(discard), shown, .. } => {
            (*player, Action::Knock { discard: *discard }, Some(*shown))
        }
        Event::Knocked { player, discard: None, shown, .. } => (*player, Action::BigGin, Some(*shown)),
        Event::HandEnded { showdown: Some(showdown), .. } if game.deal().phase() == crate::Phase::LayOff => {
            let defender = showdown.defender();
            (defender, Action::LayOff, Some(showdown.shown[defender]))
        }
        _ => return None,
    };
    Some(recorded)
}

/// The JSON parser's message, which may quote the line, cut short.
fn parser_message(err: &serde_json::Error) -> String {
    excerpt(&err.to_string(), PARSER_CHARS)
}

fn json(event: &Event) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| format!("{event:?}"))
}
