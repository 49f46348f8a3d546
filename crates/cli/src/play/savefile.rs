//! The save file of `gin play`: JSON Lines, a play header, then the engine's event log.
//!
//! Line 1 is `{"format":"gin-play","version":1,"ai":"expert","human":"one"}` (`ai` and `human`
//! are `null` at a hotseat table); line 2 is the engine's [`LogHeader`]; every further line is
//! one [`Event`] as the referee saw it: lines 2 on are exactly what [`gin_engine::write_log`]
//! writes (a log of version [`gin_engine::LOG_VERSION`]). Resuming replays the record through
//! the engine alone and rebuilds the AI from the events it saw ([`load`]).

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use gin_ai::registry::AgentParams;
use gin_engine::{Action, Agent, Event, Game, LogHeader, ReplayError, agent_seed, read_log, replay_events, write_log};
use gin_rules::{ByPlayer, Player, Showing};
use serde::{Deserialize, Serialize};

use crate::external::{self, AgentChoice, Report};
use crate::files;

/// The `format` of line 1.
pub(super) const FORMAT: &str = "gin-play";
/// The `version` of line 1.
pub(super) const VERSION: u32 = 1;

/// Line 1 of a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PlayHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The AI's spec, or `None` at a hotseat table.
    pub ai: Option<String>,
    /// The person's seat against the AI, or `None` at a hotseat table.
    pub human: Option<Player>,
    /// Why the AI forfeited, when it did: the game ended there, lost by the AI. Left out while
    /// the game is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
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
            forfeit: None,
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
pub(super) fn build_ai(
    spec: &str,
    seat: Player,
    header: &LogHeader,
    params: &AgentParams,
    host: &external::Host,
) -> Result<(Opponent, Report)> {
    let parsed: AgentChoice = spec.parse().map_err(|err| anyhow!("{err}"))?;
    let (mut agent, report) = external::build_agent(&parsed, params, host)?;
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
    let dir = super::store::parent(path);
    fs::create_dir_all(dir).with_context(|| format!("cannot create the directory `{}`", dir.display()))?;
    let name = super::store::file_name(path);
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
    /// Line 1, naming the AI that plays on.
    pub header: PlayHeader,
    /// Line 2.
    pub log: LogHeader,
    /// The game where the save left it.
    pub game: Game,
    /// Every event so far.
    pub events: Vec<Event>,
    /// The AI, having observed every event so far.
    pub ai: Option<Opponent>,
    /// Why the AI forfeits, when it is a program.
    pub report: Report,
    /// What resuming changed, for the player: another AI than the save's, and why.
    pub notes: Vec<String>,
}

/// The AI that plays on when a save's opponent is a program not named again.
pub(super) const STAND_IN: &str = "mc";

/// Reads a save and rebuilds the game; the AI is `ai` when given, else the save's own.
///
/// # Errors
/// A file that cannot be read, is not a `gin play` save, is of another version or is damaged
/// (the message says which), or an AI that cannot be built.
pub(super) fn load(path: &Path, ai: Option<&str>, params: &AgentParams, host: &external::Host) -> Result<Resumed> {
    let bytes = files::read_bytes(path, "the save file", files::MAX_SAVE_FILE)?;
    let text =
        String::from_utf8(bytes).map_err(|_| anyhow!("`{}` is not a gin save file: it is not text", path.display()))?;
    rebuild(&text, ai, params, host).with_context(|| format!("cannot resume from `{}`", path.display()))
}

/// [`load`] from the file's text.
///
/// The game is rebuilt from the record alone: every move, the AI's included, is read from the
/// events and played through the engine, which must give the events saved. No agent is asked to
/// choose again, so a save resumes whatever became of the agent that played it. The AI that
/// plays on is then built afresh and shown every event as its seat saw them; the built-in
/// agents draw each decision's random numbers from the game's seed and where the game stands
/// ([`gin_engine::PlayerView::decision_seed`]), so they go on as if the game had never stopped.
///
/// A save never starts a program: an opponent `cmd:...` in the save is replaced by [`STAND_IN`]
/// unless `ai` names a program again.
fn rebuild(text: &str, ai: Option<&str>, params: &AgentParams, host: &external::Host) -> Result<Resumed> {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let mut header = read_header(first)?;
    let (log, logged) = read_log(rest).map_err(|err| anyhow!("the save is damaged: {}", shift_lines(err)))?;
    if log.setup.is_some() {
        bail!("line 2: this save starts from a set-up deal, which `gin play` never writes");
    }
    let game = replay_events(&log, &logged).map_err(|err| anyhow!("the save is damaged: {}", shift_lines(err)))?;
    if let Some(why) = &header.forfeit {
        bail!("this game is over: the AI forfeited it ({}); `gin replay` shows it", printable(why));
    }
    let events: Vec<Event> = logged.into_iter().map(|(_, event)| event).collect();
    let mut notes = Vec::new();
    let spec = match (header.ai.as_deref(), header.human, ai) {
        (None, None, Some(_)) => bail!("this save is a game between two people: --ai does not apply to it"),
        (None, None, None) => None,
        (Some(_), Some(_), Some(chosen)) => Some(chosen.to_owned()),
        (Some(saved), Some(_), None) if external::names_program(saved) => {
            notes.push(format!(
                "The save's opponent is a program (`{}`), and a save never starts a program: playing on \
                 against {STAND_IN}. To play on against the program, name it: --ai '{}'.",
                printable(saved),
                printable(saved)
            ));
            Some(STAND_IN.to_owned())
        }
        (Some(saved), Some(_), None) => Some(saved.to_owned()),
        _ => bail!("line 1: `ai` and `human` must both be given (a game against the AI) or both null (hotseat)"),
    };
    let mut report = Report::default();
    let ai = match (spec, header.human) {
        (Some(spec), Some(human)) => {
            let seat = human.opponent();
            let ((seat, mut agent), built) = build_ai(&spec, seat, &log, params, host)
                .with_context(|| format!("the AI `{}` cannot be built (choose another with --ai)", printable(&spec)))?;
            for event in &events {
                agent.observe(&event.seen_by(seat));
            }
            if header.ai.as_deref() != Some(spec.as_str()) && ai.is_some() {
                notes.push(format!("Playing on against {}.", printable(&spec)));
            }
            header.ai = Some(spec);
            report = built;
            Some((seat, agent))
        }
        _ => None,
    };
    Ok(Resumed { header, log, game, events, ai, report, notes })
}

/// A spec or a name from a file as it may be shown on a terminal: control characters escaped,
/// and cut short when long.
pub(super) fn printable(text: &str) -> String {
    crate::render::untrusted(text, 200)
}

/// What `gin saves` shows of a save.
pub(super) struct Summary {
    /// The AI's spec, or `None` at a hotseat table.
    pub ai: Option<String>,
    /// The person's seat against the AI.
    pub human: Option<Player>,
    /// The game's score.
    pub points: ByPlayer<u32>,
    /// The hand being played, or the last one.
    pub hand: u32,
    /// The winner, once the game is over.
    pub winner: Option<Player>,
    /// Why the AI forfeited, if it did.
    pub forfeit: Option<String>,
}

/// Reads a save's text as [`load`] does, without building its AI.
///
/// # Errors
/// A save that is not one, or is damaged: the message says what.
pub(super) fn summary(text: &str) -> Result<Summary> {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let header = read_header(first)?;
    let (log, logged) = read_log(rest).map_err(|err| anyhow!("damaged: {}", shift_lines(err)))?;
    let game = replay_events(&log, &logged).map_err(|err| anyhow!("damaged: {}", shift_lines(err)))?;
    Ok(Summary {
        ai: header.ai,
        human: header.human,
        points: game.score().points,
        hand: game.hand_number(),
        winner: game.result().map(|result| result.winner).or(header.human.filter(|_| header.forfeit.is_some())),
        forfeit: header.forfeit,
    })
}

/// Checks line 1.
pub(crate) fn read_header(line: &str) -> Result<PlayHeader> {
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
        ReplayError::Setup(err) => format!("line 2: the first hand's setup is invalid: {err}"),
        ReplayError::Illegal { line, error } => format!("line {}: the move it records is refused: {error}", line + 1),
        ReplayError::Mismatch { line, logged, replayed } => {
            format!("line {}: it says {logged} but the game gives {replayed}", line + 1)
        }
        ReplayError::Unexpected { line, event } => {
            format!("line {}: unexpected {event}: expected an event recording a player's move", line + 1)
        }
    }
}

/// Whether a save's game is over: its last event ends the game, or its AI forfeited (a quick
/// look).
pub(super) fn is_finished(text: &str) -> bool {
    let forfeited = text.lines().next().is_some_and(|header| header.contains("\"forfeit\":"));
    forfeited
        || text
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .is_some_and(|line| line.contains("\"event\":\"game_ended\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> external::Host {
        external::Host::new(external::Limits {
            decision: std::time::Duration::from_secs(10),
            startup: std::time::Duration::from_secs(10),
        })
    }

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

    /// The text of a save of `events` under `header` and `log`.
    fn save(header: &PlayHeader, log: &LogHeader, events: &[Event]) -> String {
        let mut text = serde_json::to_string(header).unwrap() + "\n";
        let mut buffer = Vec::new();
        write_log(&mut buffer, log, events).unwrap();
        text.push_str(std::str::from_utf8(&buffer).unwrap());
        text
    }

    fn resume(text: &str) -> Resumed {
        rebuild(text, None, &AgentParams::default(), &host()).unwrap()
    }

    #[test]
    fn a_save_resumed_anywhere_goes_on_as_the_game_did() {
        // The AI (simple, which draws random numbers) shows its own melds and layoffs; the other
        // seat knocks whenever it may.
        let rules = gin_rules::Ruleset::standard();
        let log = LogHeader::new(9, &rules, None);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let (mut game, mut events) = Game::new(&rules, 9);
        let params = AgentParams::default();
        let ((seat, mut agent), _) = build_ai("simple", Player::Two, &log, &params, &host()).unwrap();
        for event in &events {
            agent.observe(&event.seen_by(seat));
        }
        let mut knocks = 0;
        // Where the AI was to move, and what it did.
        let mut decisions = Vec::new();
        while let Some(player) = game.to_act() {
            let (action, showing) = if player == seat {
                let chosen = ai_move(agent.as_mut(), &game, player);
                decisions.push((events.len(), chosen));
                chosen
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
        let text = save(&header, &log, &events);
        let resumed = resume(&text);
        assert_eq!(resumed.game, game);
        assert_eq!(resumed.events, events);
        assert!(resumed.notes.is_empty());
        assert!(is_finished(&text));
        // Stopped at any of the AI's moves, the AI rebuilt from the record makes the same move.
        assert!(decisions.len() > 20, "{} decisions", decisions.len());
        for &(at, chosen) in &decisions {
            let resumed = resume(&save(&header, &log, &events[..at]));
            let (seat, mut ai) = resumed.ai.expect("an AI");
            assert_eq!(ai_move(ai.as_mut(), &resumed.game, seat), chosen, "resumed after {at} events");
        }
        // Stopped before a defense: the log up to a knock resumes to the defender's decision.
        let knocked = events
            .iter()
            .rposition(|event| matches!(event, Event::Knocked { kind: gin_rules::KnockKind::Knock, .. }))
            .unwrap();
        let cut = save(&header, &log, &events[..=knocked]);
        let resumed = resume(&cut);
        assert_eq!(resumed.events, events[..=knocked]);
        assert_eq!(resumed.game.deal().phase(), gin_engine::Phase::LayOff);
        assert!(!is_finished(&cut));
    }

    /// A save written by `gin play --ai expert` (this format, version 1), stopped mid-game.
    const FIXTURE: &str = include_str!("../../tests/fixtures/expert-mid-game.gin");

    #[test]
    fn a_save_resumes_after_the_agents_defaults_change() {
        let mut changed = AgentParams::default();
        changed.expert.danger_weight = 0.0;
        changed.expert.knock_max_early = 3;
        // The changed expert would not have played this game: asked to choose the save's moves
        // again, as resuming once did, it disagrees with one of them.
        let (first, rest) = FIXTURE.split_once('\n').unwrap();
        let human = read_header(first).unwrap().human.unwrap();
        let (log, logged) = read_log(rest).unwrap();
        let ((seat, mut agent), _) = build_ai("expert", human.opponent(), &log, &changed, &host()).unwrap();
        assert_eq!(seat, human.opponent());
        let (mut game, _) = Game::new(&log.rules, log.seed);
        let mut disagreements = 0;
        for (_, event) in &logged {
            if let Some((player, action, showing)) = gin_engine::recorded_action(event, &game) {
                if player == seat {
                    disagreements += usize::from(ai_move(agent.as_mut(), &game, player).0 != action);
                }
                game.play_with(player, action, showing.as_ref()).unwrap();
            }
            agent.observe(&event.seen_by(seat));
        }
        assert!(disagreements > 0);
        for params in [AgentParams::default(), changed] {
            let resumed = rebuild(FIXTURE, None, &params, &host()).unwrap();
            assert!(resumed.events.len() > 100, "{} events", resumed.events.len());
            assert!(resumed.game.result().is_none());
            assert_eq!(resumed.header.ai.as_deref(), Some("expert"));
            assert!(resumed.ai.is_some());
        }
    }

    #[test]
    fn a_save_never_starts_a_program() {
        let rules = gin_rules::Ruleset::standard();
        let log = LogHeader::new(3, &rules, None);
        let (_, events) = Game::new(&rules, 3);
        let program = "cmd:touch /nonexistent/gin-must-not-run";
        let text = save(&PlayHeader::new(Some((program, Player::One))), &log, &events);
        let resumed = resume(&text);
        assert_eq!(resumed.header.ai.as_deref(), Some(STAND_IN));
        assert_eq!(resumed.ai.as_ref().map(|(_, agent)| agent.name()), Some("mc"));
        assert!(resumed.notes[0].contains("a save never starts a program"), "{:?}", resumed.notes);
        assert!(resumed.notes[0].contains("--ai 'cmd:touch /nonexistent/gin-must-not-run'"), "{:?}", resumed.notes);
        // Named again, another AI plays on instead; a hotseat save takes none.
        let chosen = rebuild(&text, Some("simple"), &AgentParams::default(), &host()).unwrap();
        assert_eq!(chosen.header.ai.as_deref(), Some("simple"));
        let hotseat = save(&PlayHeader::new(None), &log, &events);
        let err = rebuild(&hotseat, Some("simple"), &AgentParams::default(), &host()).err().unwrap();
        assert!(err.to_string().contains("two people"), "{err}");
    }

    #[test]
    fn names_from_a_file_are_shown_safely() {
        assert_eq!(printable("cmd:evil\u{1b}[31m"), "cmd:evil\\u{1b}[31m");
        let long = "x".repeat(500);
        assert_eq!(printable(&long).chars().count(), 201);
    }

    #[test]
    fn fuzz_parsers_saves() {
        let corpus = vec![FIXTURE.to_owned()];
        let mut rng = crate::fuzzing::rng("saves");
        for _ in 0..crate::fuzzing::inputs() {
            let text = crate::fuzzing::input(&mut rng, &corpus);
            crate::fuzzing::no_panic("save", &text, |text| {
                let _ = summary(text);
                let _ = rebuild(text, None, &AgentParams::default(), &host());
            });
        }
    }
}
