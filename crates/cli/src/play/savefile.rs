//! The save file of `gin play`: JSON Lines, a play header, then the engine's event log.
//!
//! Line 1 is `{"format":"gin-play","version":1,"ai":"expert","human":"one"}` (`ai` and `human`
//! are `null` at a hotseat table); line 2 is the engine's [`LogHeader`]; every further line is
//! one [`Event`] as the referee saw it: lines 2 on are exactly what [`gin_engine::write_log`]
//! writes (a log of version [`gin_engine::LOG_VERSION`]). Resuming deals the same game from the
//! header, rebuilds the AI from its spec and its seed, and walks the events: the AI chooses each
//! of its moves again, with the cards it shows ([`ai_move`], as in play), and must choose what the
//! log says; the people's moves are read from the log with the cards they showed
//! ([`gin_engine::recorded_action`]), and every event the game produces must be the one logged.
//! The AI's random state is then exactly where it was.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use gin_ai::registry::AgentParams;
use gin_engine::{Action, Agent, Event, Game, LogHeader, ReplayError, agent_seed, read_log, write_log};
use gin_rules::{Player, Showing};
use serde::{Deserialize, Serialize};

use crate::external::{self, AgentChoice, Report};

/// The `format` of line 1.
pub(super) const FORMAT: &str = "gin-play";
/// The `version` of line 1.
pub(super) const VERSION: u32 = 1;

/// Line 1 of a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct PlayHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The AI's spec, or `None` at a hotseat table.
    pub ai: Option<String>,
    /// The person's seat against the AI, or `None` at a hotseat table.
    pub human: Option<Player>,
}

impl PlayHeader {
    /// The header of a game against the AI `ai` with the person in `human`'s seat, or of a
    /// hotseat game.
    pub(super) fn new(opponent: Option<(&str, Player)>) -> PlayHeader {
        PlayHeader {
            format: FORMAT.to_owned(),
            version: VERSION,
            ai: opponent.map(|(ai, _)| ai.to_owned()),
            human: opponent.map(|(_, human)| human),
        }
    }
}

/// An AI opponent: its seat and the agent.
pub(super) type Opponent = (Player, Box<dyn Agent + Send>);

/// Builds the AI a spec names (a built-in agent or `cmd:PROGRAM ARGS...`), started for a game
/// in `seat`, with the report that says why a program forfeits.
///
/// # Errors
/// An unknown agent or a bad setting, or a program that cannot be started.
pub(super) fn build_ai(spec: &str, seat: Player, header: &LogHeader, timeout: Duration) -> Result<(Opponent, Report)> {
    let parsed: AgentChoice = spec.parse().map_err(|err| anyhow!("{err}"))?;
    let (mut agent, report) = external::build_agent(&parsed, &AgentParams::default(), timeout)?;
    agent.start_game(seat, &header.rules, agent_seed(header.seed, seat));
    Ok(((seat, agent), report))
}

/// The AI's move as `player` in `game`: its choice, then the cards it shows with a knock, big
/// gin or a defense (`None`: the referee's choice), asked as the engine's runner asks them.
pub(super) fn ai_move(agent: &mut dyn Agent, game: &Game, player: Player) -> (Action, Option<Showing>) {
    let legal = game.legal_actions();
    let view = game.view(player);
    let action = agent.choose(&view, &legal);
    let showing = if action.shows_cards() { agent.show(&view, action) } else { None };
    (action, showing)
}

/// Writes the whole save atomically: a temporary file in the same directory, then a rename over
/// `path`. Creates the directory if needed.
///
/// # Errors
/// Any I/O error, naming the path.
pub(super) fn write(path: &Path, header: &PlayHeader, log: &LogHeader, events: &[Event]) -> Result<()> {
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("cannot create the directory `{}`", dir.display()))?;
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| "game".to_owned());
    let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> io::Result<()> {
        let mut file = io::BufWriter::new(fs::File::create(&temporary)?);
        serde_json::to_writer(&mut file, header)?;
        file.write_all(b"\n")?;
        write_log(&mut file, log, events)?;
        file.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write the save file `{}`", path.display()))
}

/// A game read back from a save, ready to go on.
pub(super) struct Resumed {
    /// Line 1.
    pub header: PlayHeader,
    /// Line 2.
    pub log: LogHeader,
    /// The game where the save left it.
    pub game: Game,
    /// Every event so far.
    pub events: Vec<Event>,
    /// The AI, having seen and chosen everything it did before.
    pub ai: Option<Opponent>,
    /// Why the AI forfeits, when it is a program.
    pub report: Report,
}

/// Reads a save and rebuilds the game, the AI included.
///
/// # Errors
/// A file that cannot be read, is not a `gin play` save, is of another version, is damaged, or
/// was played by another version of the AI: the message says which.
pub(super) fn load(path: &Path, timeout: Duration) -> Result<Resumed> {
    let bytes = fs::read(path).with_context(|| format!("cannot read the save file `{}`", path.display()))?;
    let text =
        String::from_utf8(bytes).map_err(|_| anyhow!("`{}` is not a gin save file: it is not text", path.display()))?;
    rebuild(&text, timeout).with_context(|| format!("cannot resume from `{}`", path.display()))
}

/// [`load`] from the file's text.
fn rebuild(text: &str, timeout: Duration) -> Result<Resumed> {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let header = read_header(first)?;
    let (log, logged) = read_log(rest).map_err(|err| anyhow!("the save is damaged: {}", shift_lines(err)))?;
    let mut report = Report::default();
    let mut ai = match (&header.ai, header.human) {
        (Some(spec), Some(human)) => {
            let (ai, built) = build_ai(spec, human.opponent(), &log, timeout)
                .with_context(|| format!("the save names an AI this gin cannot build (`{spec}`)"))?;
            report = built;
            Some(ai)
        }
        (None, None) => None,
        _ => bail!("line 1: `ai` and `human` must both be given (a game against the AI) or both null (hotseat)"),
    };
    if log.setup.is_some() {
        bail!("line 2: this save starts from a set-up deal, which `gin play` never writes");
    }
    let (mut game, opening) = Game::new(&log.rules, log.seed);
    let mut logged = logged.into_iter().peekable();
    let mut events = Vec::new();
    let mut take = |produced: Vec<Event>,
                    logged: &mut std::iter::Peekable<std::vec::IntoIter<(usize, Event)>>,
                    ai: &mut Option<Opponent>,
                    by_ai: bool|
     -> Result<()> {
        for event in produced {
            match logged.next() {
                Some((_, seen)) if seen == event => {}
                Some((line, seen)) if by_ai => bail!(
                    "line {}: the save does not match this version of the AI `{}`: the save says {} but the AI now plays {}",
                    line + 1,
                    header.ai.as_deref().unwrap_or("?"),
                    json(&seen),
                    json(&event)
                ),
                Some((line, seen)) => {
                    bail!(
                        "the save is damaged: line {}: it says {} but the game gives {}",
                        line + 1,
                        json(&seen),
                        json(&event)
                    )
                }
                // A save cut at an event boundary: what it holds was reproduced; the rest follows.
                None => {}
            }
            if let Some((seat, agent)) = ai {
                agent.observe(&event.seen_by(*seat));
            }
            events.push(event);
        }
        Ok(())
    };
    take(opening, &mut logged, &mut ai, false)?;
    while let Some((line, event)) = logged.peek().cloned() {
        let Some(player) = game.to_act() else {
            bail!("the save is damaged: line {}: {} comes after the end of the game", line + 1, json(&event));
        };
        let ai_seat = ai.as_ref().map(|(seat, _)| *seat);
        let (action, showing, by_ai) = if ai_seat == Some(player) {
            let (_, agent) = ai.as_mut().expect("the AI's seat");
            let (action, showing) = ai_move(agent.as_mut(), &game, player);
            (action, showing, true)
        } else {
            match gin_engine::recorded_action(&event, &game) {
                Some((who, action, showing)) if who == player => (action, showing, false),
                _ => {
                    bail!("the save is damaged: line {}: expected a move by {player}, found {}", line + 1, json(&event))
                }
            }
        };
        let produced = game.play_with(player, action, showing.as_ref()).map_err(|err| {
            if let Some(why) = report.explain(&err.to_string()).filter(|_| by_ai) {
                anyhow!("line {}: the AI forfeits: {why}", line + 1)
            } else if by_ai {
                anyhow!(
                    "line {}: the AI now plays a move the game refuses ({err}): the save does not match this AI",
                    line + 1
                )
            } else {
                anyhow!("the save is damaged: line {}: the move it records is refused: {err}", line + 1)
            }
        })?;
        take(produced, &mut logged, &mut ai, by_ai)?;
    }
    Ok(Resumed { header, log, game, events, ai, report })
}

/// Checks line 1.
fn read_header(line: &str) -> Result<PlayHeader> {
    let not_a_save = || anyhow!("not a `gin play` save file: line 1 should be {{\"format\":\"{FORMAT}\",...}}");
    if line.trim().is_empty() {
        bail!("the save file is empty");
    }
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| not_a_save())?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(FORMAT) {
        return Err(not_a_save());
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(version) if version == u64::from(VERSION) => {}
        Some(found) => bail!("save format version {found} is not supported: this gin reads version {VERSION}"),
        None => return Err(not_a_save()),
    }
    serde_json::from_value(value).map_err(|err| anyhow!("line 1: {err}"))
}

/// A log error with its line numbers counted in the whole file (the log starts on line 2).
fn shift_lines(err: ReplayError) -> String {
    match err {
        ReplayError::Empty => "it ends after line 1: the game's header (line 2) is missing".to_owned(),
        ReplayError::Parse { line, message } => format!("line {}: {message}", line + 1),
        ReplayError::Version { format, version } => {
            format!("line 2: not a gin log of the version this gin reads (found format {format:?}, version {version})")
        }
        other => other.to_string(),
    }
}

fn json(event: &Event) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| format!("{event:?}"))
}

/// Where a game is saved when no `--save` is given: `$XDG_STATE_HOME/gin/last-game.gin`, else
/// `$HOME/.local/state/gin/last-game.gin`, else `last-game.gin` in the current directory.
pub(super) fn default_path() -> PathBuf {
    let non_empty = |name| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    let dir = non_empty("XDG_STATE_HOME")
        .filter(|dir| dir.is_absolute())
        .or_else(|| non_empty("HOME").map(|home| home.join(".local").join("state")))
        .map(|state| state.join("gin"));
    dir.unwrap_or_default().join("last-game.gin")
}

/// Whether a save's last event ends the game (a quick look, for not losing unfinished games).
pub(super) fn is_finished(text: &str) -> bool {
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| line.contains("\"event\":\"game_ended\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_are_checked_with_clear_messages() {
        let ok = read_header(r#"{"format":"gin-play","version":1,"ai":"expert","human":"one"}"#).unwrap();
        assert_eq!(ok, PlayHeader::new(Some(("expert", Player::One))));
        assert_eq!(
            serde_json::to_string(&PlayHeader::new(None)).unwrap(),
            r#"{"format":"gin-play","version":1,"ai":null,"human":null}"#
        );
        let err = |line: &str| read_header(line).unwrap_err().to_string();
        assert!(err("garbage").starts_with("not a `gin play` save file"));
        assert!(err(r#"{"format":"gin-log","version":1}"#).starts_with("not a `gin play` save file"));
        assert_eq!(
            err(r#"{"format":"gin-play","version":2}"#),
            "save format version 2 is not supported: this gin reads version 1"
        );
        assert!(err("").contains("empty"));
    }

    #[test]
    fn a_game_saved_and_rebuilt_is_the_same_game() {
        // The AI (simple) shows its own melds and layoffs; the other seat knocks whenever it may.
        let rules = gin_rules::Ruleset::standard();
        let log = LogHeader::new(9, &rules, None);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let (mut game, mut events) = Game::new(&rules, 9);
        let ((seat, mut agent), _) = build_ai("simple", Player::Two, &log, Duration::from_secs(10)).unwrap();
        for event in &events {
            agent.observe(&event.seen_by(seat));
        }
        let mut knocks = 0;
        while let Some(player) = game.to_act() {
            let (action, showing) = if player == seat {
                ai_move(agent.as_mut(), &game, player)
            } else {
                let legal = game.legal_actions();
                let knock = legal.iter().copied().find(|action| matches!(action, Action::Knock { .. }));
                (knock.unwrap_or(legal[0]), None)
            };
            knocks += usize::from(matches!(action, Action::Knock { .. }));
            let produced = game.play_with(player, action, showing.as_ref()).unwrap();
            for event in &produced {
                agent.observe(&event.seen_by(seat));
            }
            events.extend(produced);
        }
        assert!(game.result().is_some() && knocks > 2, "{knocks} knocks");
        let save = |events: &[Event]| {
            let mut text = serde_json::to_string(&header).unwrap() + "\n";
            let mut buffer = Vec::new();
            write_log(&mut buffer, &log, events).unwrap();
            text.push_str(std::str::from_utf8(&buffer).unwrap());
            text
        };
        let text = save(&events);
        let resumed = rebuild(&text, Duration::from_secs(10)).unwrap();
        assert_eq!(resumed.game, game);
        assert_eq!(resumed.events, events);
        assert!(is_finished(&text));
        // Stopped before a defense: the log up to a knock resumes to the defender's decision.
        let knocked = events
            .iter()
            .rposition(|event| matches!(event, Event::Knocked { kind: gin_rules::KnockKind::Knock, .. }))
            .unwrap();
        let cut = save(&events[..=knocked]);
        let resumed = rebuild(&cut, Duration::from_secs(10)).unwrap();
        assert_eq!(resumed.events, events[..=knocked]);
        assert_eq!(resumed.game.deal().phase(), gin_engine::Phase::LayOff);
        assert!(!is_finished(&cut));
    }
}
