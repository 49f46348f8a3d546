//! The save file of `gin play`: JSON Lines, a play header, then the engine's event log, every
//! line sealed with a digest chained over the lines before it (format version 2).
//!
//! Line 1 is the play header,
//! `{"format":"gin-play","version":2,"lines":62,"ai":"expert","human":"one","digest":"…"}`
//! (`ai` and `human` are `null` at a hotseat table; `lines` counts the file's lines, line 1
//! included, so that a save cut at the end of a line is told apart from a whole one); line 2 is
//! the engine's [`LogHeader`]; every further line is one [`Event`] as the referee saw it. Every
//! line ends with the member `"digest":"<16 hex digits>"` ([`super::digest`]): with it taken
//! off, lines 2 on are exactly what [`gin_engine::write_log`] writes (a log of version
//! [`gin_engine::LOG_VERSION`]).
//!
//! Reading checks the digests line by line and refuses a save at the first line that is not as
//! written (changed, without a digest, missing at the end, or added after the last), naming
//! it; `gin play --resume FILE --recover` plays on from the last whole move before it instead.
//! The digest is not a signature: it catches a save cut short or edited by hand, not a forger
//! who computes the digests again. Saves of version 1 (the same lines without digests or
//! `lines`) are read as they always were, and written as version 2 from then on.
//!
//! Resuming replays the record through the engine alone and rebuilds the AI from the events it
//! saw ([`load`]).

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use gin_ai::registry::AgentParams;
use gin_engine::{
    Agent, Decision, Event, Game, LogHeader, ReplayError, agent_seed, read_log, recorded_action, replay_events,
    write_log,
};
use gin_rules::{ByPlayer, Player};
use serde::{Deserialize, Serialize};

use super::digest;
use gin_arena::AgentChoice;

use crate::files;
use crate::invocation::{gin_command, shell_path};

/// The `format` of line 1.
pub(super) const FORMAT: &str = "gin-play";
/// The `version` of line 1 that this gin writes: every line sealed with its digest.
pub(super) const VERSION: u32 = 2;
/// The first version of the format, without digests, still read.
const VERSION_1: u32 = 1;

/// Line 1 of a save, its digest taken off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PlayHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`], or 1 for a save read from version 1 (written as [`VERSION`] all the same).
    pub version: u32,
    /// The number of lines of the file, this one included (from version 2; the writer sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u64>,
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
    pub(crate) fn new(opponent: Option<(&str, Player)>) -> PlayHeader {
        PlayHeader {
            format: FORMAT.to_owned(),
            version: VERSION,
            lines: None,
            ai: opponent.map(|(ai, _)| ai.to_owned()),
            human: opponent.map(|(_, human)| human),
            forfeit: None,
        }
    }
}

/// An AI opponent: its seat and the agent.
pub(crate) type Opponent = (Player, Box<dyn Agent + Send>);

/// Builds the AI a spec names (a built-in agent or `cmd:PROGRAM ARGS...`), started for a game
/// in `seat`.
///
/// # Errors
/// An unknown agent or a bad setting, or a program that cannot be started.
pub(super) fn build_ai(
    spec: &str,
    seat: Player,
    header: &LogHeader,
    params: &AgentParams,
    host: &gin_arena::Host,
) -> Result<Opponent> {
    let parsed: AgentChoice = spec.parse().map_err(|err| anyhow!("{err}"))?;
    let mut agent = gin_arena::build_agent(&parsed, params, host)?;
    agent.start_game(seat, &header.rules, agent_seed(header.seed, seat));
    Ok((seat, agent))
}

/// The AI's move as `player` in `game`, asked as the engine's runner asks it: its action with the
/// cards it shows (`None`: the referee's choice), or its resignation.
pub(super) fn ai_move(agent: &mut dyn Agent, game: &Game, player: Player) -> Decision {
    agent.choose(&game.view(player), &game.legal_actions())
}

/// The text of a save (format [`VERSION`]): the play header, with the number of lines, then the
/// engine's log of `events`, every line sealed with its digest.
///
/// # Errors
/// None in practice: the header and the events always serialize.
pub(crate) fn render(header: &PlayHeader, log: &LogHeader, events: &[Event]) -> Result<String> {
    let mut body = Vec::new();
    write_log(&mut body, log, events).context("cannot write the game's log")?;
    let body = String::from_utf8(body).context("the game's log is not text")?;
    // The engine's header, then one line per event.
    let lines = events.len() as u64 + 2;
    let header = PlayHeader { format: FORMAT.to_owned(), version: VERSION, lines: Some(lines), ..header.clone() };
    let first = serde_json::to_string(&header).context("cannot write the play header")?;
    Ok(digest::seal_all(std::iter::once(first.as_str()).chain(body.lines())))
}

/// Writes the whole save atomically to `target` (a save's path resolved through its links,
/// [`super::store::resolve`]): a temporary file in the same directory, given the existing save's
/// permission bits, then a rename over `target`, so that a link to it stays a link. Creates the
/// directory if needed.
///
/// # Errors
/// Something at `target` that is not a regular file or that its owner may not write
/// ([`super::store::check_target`]: it is left as it is), or any I/O error, naming the path.
pub(super) fn write(target: &Path, header: &PlayHeader, log: &LogHeader, events: &[Event]) -> Result<()> {
    let text = render(header, log, events)?;
    let existing = super::store::check_target(target)?;
    let dir = super::store::parent(target);
    fs::create_dir_all(dir).with_context(|| format!("cannot create the directory `{}`", dir.display()))?;
    let name = super::store::file_name(target);
    let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> io::Result<()> {
        // Only the lock's holder writes this name: whatever is there was left by a write of ours.
        let _ = fs::remove_file(&temporary);
        let file = File::options().write(true).create_new(true).open(&temporary)?;
        if let Some(meta) = &existing {
            file.set_permissions(permission_bits(meta))?;
        }
        let mut out = io::BufWriter::new(file);
        out.write_all(text.as_bytes())?;
        out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        fs::rename(&temporary, target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write the save file `{}`", target.display()))
}

/// A file's permission bits (read, write and execute for its owner, group and others), without
/// its type or its set-user-ID, set-group-ID and sticky bits.
#[cfg(unix)]
fn permission_bits(meta: &fs::Metadata) -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(meta.permissions().mode() & 0o777)
}

/// A file's permissions.
#[cfg(not(unix))]
fn permission_bits(meta: &fs::Metadata) -> fs::Permissions {
    meta.permissions()
}

/// A game read back from a save, ready to go on.
pub(crate) struct Resumed {
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
    /// What resuming changed, for the player: a save recovered from its damage, a save of
    /// version 1, another AI than the save's, and why.
    pub notes: Vec<String>,
    /// Where the save was damaged, when it was resumed from the last whole move before that.
    pub damage: Option<Damage>,
}

/// The AI that plays on when a save's opponent is a program not named again.
pub(super) const STAND_IN: &str = "mc";

/// Reads a save and rebuilds the game; the AI is `ai` when given, else the save's own. A damaged
/// save is refused with the line where the damage starts and how to recover; with `recover`, the
/// game is rebuilt up to the last whole move before the damage, and the damaged file kept as
/// `FILE.damaged` (or `FILE.damaged-2`...) before anything is written.
///
/// # Errors
/// A file that cannot be read, is not a `gin play` save, is of another version or is damaged
/// (the message says which line, and how to recover), an AI that cannot be built, or a damaged
/// file that cannot be copied.
pub(super) fn load(
    path: &Path,
    ai: Option<&str>,
    params: &AgentParams,
    host: &gin_arena::Host,
    recover: bool,
) -> Result<Resumed> {
    let bytes = files::read_bytes(path, "the save file", files::MAX_SAVE_FILE)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| anyhow!("`{}` is not a gin save file: it is not text", path.display()))?;
    let mut resumed = rebuild(text, ai, params, host, recover)
        .map_err(|err| match err.downcast_ref::<Damaged>() {
            Some(Damaged(damage)) => anyhow!("{err}; {}", damage.advice(path)),
            None => err,
        })
        .with_context(|| format!("cannot resume from `{}`", path.display()))?;
    if let Some(damage) = &resumed.damage {
        let copy = keep_copy(path, &bytes)?;
        resumed.notes.insert(
            0,
            format!(
                "warning: the save is damaged from line {} ({}). Resuming from the last whole move before it, \
                 in hand {}; the damaged file is kept as {}.",
                damage.line,
                damage.why,
                resumed.game.hand_number(),
                copy.display()
            ),
        );
    }
    Ok(resumed)
}

/// The most copies of damaged saves [`keep_copy`] numbers before it gives up.
const MAX_COPIES: u32 = 1000;

/// Keeps a damaged save's `bytes` in a new file beside it, `FILE.damaged` (`FILE.damaged-2`...
/// when taken: never over another file), with the save's permission bits.
///
/// # Errors
/// The copy cannot be made.
fn keep_copy(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let meta = fs::metadata(path).ok();
    for n in 1..=MAX_COPIES {
        let mut name = path.as_os_str().to_owned();
        name.push(if n == 1 { ".damaged".to_owned() } else { format!(".damaged-{n}") });
        let copy = PathBuf::from(name);
        let mut options = File::options();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = match options.open(&copy) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => {
                return Err(err)
                    .with_context(|| format!("cannot keep a copy of the damaged save as `{}`", copy.display()));
            }
        };
        let written = (|| -> io::Result<()> {
            if let Some(meta) = &meta {
                file.set_permissions(permission_bits(meta))?;
            }
            file.write_all(bytes)?;
            file.sync_all()
        })();
        if written.is_err() {
            let _ = fs::remove_file(&copy);
        }
        written.with_context(|| format!("cannot keep a copy of the damaged save as `{}`", copy.display()))?;
        return Ok(copy);
    }
    bail!("cannot keep a copy of the damaged save `{}`: {MAX_COPIES} copies are there already", path.display())
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
pub(crate) fn rebuild(
    text: &str,
    ai: Option<&str>,
    params: &AgentParams,
    host: &gin_arena::Host,
    recover: bool,
) -> Result<Resumed> {
    let Record { mut header, log, game, events, damage } = replay_save(text, recover)?;
    if let Some(why) = &header.forfeit {
        bail!("this game is over: the AI forfeited it ({}); `gin replay` shows it", printable(why));
    }
    let mut notes = Vec::new();
    if header.version == VERSION_1 {
        notes.push(format!(
            "This save predates digests (format version 1): it was read as it is, and is saved as version \
             {VERSION}, with a digest on every line, from now on."
        ));
    }
    let spec = match (header.ai.as_deref(), header.human, ai) {
        (None, None, Some(_)) => bail!("this save is a game between two people: --ai does not apply to it"),
        (None, None, None) => None,
        (Some(_), Some(_), Some(chosen)) => Some(chosen.to_owned()),
        (Some(saved), Some(_), None) if gin_arena::names_program(saved) => {
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
    let ai = match (spec, header.human) {
        (Some(spec), Some(human)) => {
            let seat = human.opponent();
            let (seat, mut agent) = build_ai(&spec, seat, &log, params, host)
                .with_context(|| format!("the AI `{}` cannot be built (choose another with --ai)", printable(&spec)))?;
            for event in &events {
                agent.observe(&event.seen_by(seat));
            }
            if header.ai.as_deref() != Some(spec.as_str()) && ai.is_some() {
                notes.push(format!("Playing on against {}.", printable(&spec)));
            }
            header.ai = Some(spec);
            Some((seat, agent))
        }
        _ => None,
    };
    Ok(Resumed { header, log, game, events, ai, notes, damage })
}

/// Where a save is damaged: the first line that is not as it was written, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Damage {
    /// The line where the damage starts, counted from 1 (for a save cut short, the first line
    /// missing).
    pub line: usize,
    /// What is wrong, naming the line: `line 57 was changed: its digest does not match the
    /// lines before it`.
    pub why: String,
}

impl Damage {
    /// Whether a game can go on from before the damage: line 1 says who sits where, line 2
    /// holds the game's seed and rules, and nothing can be played without them.
    pub(crate) fn is_recoverable(&self) -> bool {
        self.line > 2
    }

    /// What an error about the damage of the save `file` adds: how to recover from it, or why
    /// that cannot be done.
    pub(crate) fn advice(&self, file: &Path) -> String {
        match self.line {
            1 => "line 1 says who sits where, so a save damaged there cannot be recovered".to_owned(),
            2 => "line 2 holds the game's seed and rules, so a save damaged there cannot be recovered".to_owned(),
            line => format!(
                "`{} play --resume {} --recover` plays on from the last whole move before line {line}, keeping a \
                 copy of the damaged file",
                gin_command(),
                shell_path(file)
            ),
        }
    }
}

/// A save refused for its damage.
#[derive(Debug)]
pub(crate) struct Damaged(pub Damage);

impl fmt::Display for Damaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the save is damaged: {}", self.0.why)
    }
}

impl std::error::Error for Damaged {}

/// A save's text opened: its header, and the engine's log beneath it checked against the
/// digests.
#[derive(Debug)]
pub(super) struct Opened {
    /// Line 1.
    pub header: PlayHeader,
    /// Lines 2 on, up to the first damaged one, exactly as the engine wrote them (their digests
    /// taken off).
    pub log: String,
    /// Where the digests or the line count say the damage starts, if they do (a save of version
    /// 1 has neither: its damage shows only when it is replayed).
    pub damage: Option<Damage>,
}

/// Opens a save's text: checks line 1, and in a save of version 2 every line's digest and the
/// number of lines.
///
/// # Errors
/// A text that is not a `gin play` save, of a version this gin does not read, or whose line 1 is
/// damaged (a [`Damaged`] error).
pub(super) fn open(text: &str) -> Result<Opened> {
    // A byte-order mark an editor put first is not part of line 1 (`gin replay` reads past it too).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().next().unwrap_or("");
    let not_a_save = || anyhow!("not a `gin play` save file: line 1 should be {{\"format\":\"{FORMAT}\",...}}");
    if first.trim().is_empty() {
        bail!("the save file is empty");
    }
    let value: serde_json::Value = serde_json::from_str(first).map_err(|_| {
        if first.starts_with(&format!("{{\"format\":\"{FORMAT}\",")) {
            anyhow!(Damaged(Damage {
                line: 1,
                why: "line 1 is not a whole JSON object: it was cut or changed".to_owned()
            }))
        } else {
            not_a_save()
        }
    })?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(FORMAT) {
        return Err(not_a_save());
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(version) if version == u64::from(VERSION_1) => {
            let mut value = value;
            // Version 1 knew no `lines`: whatever a member of that name says is not read.
            if let Some(object) = value.as_object_mut() {
                object.remove("lines");
            }
            let header = header_of(value)?;
            let log = text.split_once('\n').map_or("", |(_, rest)| rest).to_owned();
            Ok(Opened { header, log, damage: None })
        }
        Some(version) if version == u64::from(VERSION) => open_sealed(text),
        Some(found) => {
            bail!("save format version {found} is not supported: this gin reads versions {VERSION_1} and {VERSION}")
        }
        None => Err(not_a_save()),
    }
}

/// [`open`] for a save of version 2: checks the digests line by line, then the number of lines.
fn open_sealed(text: &str) -> Result<Opened> {
    let checked = digest::check(text);
    let faulty = |line: usize, fault: digest::Fault| {
        let why = match fault {
            digest::Fault::Missing => format!(
                "line {line} has no digest (every line of a save ends with ,\"digest\":\"…\"}}): it was cut or changed"
            ),
            digest::Fault::Changed => {
                format!("line {line} was changed: its digest does not match the lines before it")
            }
        };
        Damage { line, why }
    };
    let Some(first) = checked.lines.first() else {
        let (line, fault) = checked.fault.unwrap_or((1, digest::Fault::Missing));
        return Err(Damaged(faulty(line, fault)).into());
    };
    let header = header_of(serde_json::from_str(first).map_err(|err| anyhow!("line 1: {err}"))?)?;
    let Some(total) = header.lines else {
        bail!("line 1: a save of version {VERSION} says how many lines it has (`lines`), and this one does not")
    };
    let good = checked.lines.len() as u64;
    let after_the_last = |line: usize| line as u64 > total;
    let damage = match checked.fault {
        Some((line, _)) if after_the_last(line) => Some(Damage {
            line: total as usize + 1,
            why: format!("line {} comes after the {total} lines its header counts: lines were added", total + 1),
        }),
        _ if good > total => Some(Damage {
            line: total as usize + 1,
            why: format!("line {} comes after the {total} lines its header counts: lines were added", total + 1),
        }),
        Some((line, fault)) => Some(faulty(line, fault)),
        None if good < total => Some(Damage {
            line: good as usize + 1,
            why: format!("it ends after line {good}, but its header says {total} lines: the save was cut short"),
        }),
        None => None,
    };
    let end = checked.lines.len().min(usize::try_from(total).unwrap_or(usize::MAX)).max(1);
    let mut log = String::new();
    for line in &checked.lines[1..end] {
        log.push_str(line);
        log.push('\n');
    }
    Ok(Opened { header, log, damage })
}

/// Line 1 read into a [`PlayHeader`].
fn header_of(value: serde_json::Value) -> Result<PlayHeader> {
    serde_json::from_value(value).map_err(|err| anyhow!("line 1: {}", gin_cards::excerpt(&err.to_string(), 200)))
}

/// A save's game, replayed from its record.
struct Record {
    /// Line 1.
    header: PlayHeader,
    /// Line 2.
    log: LogHeader,
    /// The game where the record leaves it.
    game: Game,
    /// Every event of the record, the deal's and those of whole moves.
    events: Vec<Event>,
    /// Where the save is damaged, when it was cut back to the last whole move before that.
    damage: Option<Damage>,
}

/// Opens a save's text ([`open`]) and replays its record through the engine. A damaged save
/// (a digest, the line count, a line the engine cannot read or a move it refuses or plays
/// otherwise, or a record that stops in the middle of a move's events) is refused with a
/// [`Damaged`] error, or with `recover` cut back to the last whole move before the damage: its
/// events are then the deal's and those of whole moves, so that the next save replays.
///
/// # Errors
/// A text that is not a save, or a damaged one (unless `recover`, and the damage starts after
/// line 2).
fn replay_save(text: &str, recover: bool) -> Result<Record> {
    let Opened { header, log: text, mut damage } = open(text)?;
    if let Some(found) = &damage
        && (!recover || !found.is_recoverable())
    {
        return Err(Damaged(found.clone()).into());
    }
    let mut kept = text.as_str();
    let (log, logged, game) = loop {
        let replayed = read_log(kept).and_then(|(log, logged)| {
            if log.setup.is_some() {
                return Ok(Err(()));
            }
            let game = replay_events(&log, &logged)?;
            Ok(Ok((log, logged, game)))
        });
        match replayed {
            Ok(Ok(found)) => break found,
            Ok(Err(())) => bail!("line 2: this save starts from a set-up deal, which `gin play` never writes"),
            Err(err) => {
                let found = Damage { line: file_line(&err), why: shift_lines(err) };
                if !recover || !found.is_recoverable() {
                    return Err(Damaged(found).into());
                }
                // Lines 2 to the one before the damage: the log's first lines.
                kept = first_lines(kept, found.line - 2);
                damage = Some(found);
            }
        }
    };
    let (game, events) = match whole_moves(&log, &logged) {
        None => (game, logged.into_iter().map(|(_, event)| event).collect()),
        Some(cut) => {
            if damage.is_none() {
                let last = kept.lines().count() + 1;
                let found = Damage {
                    line: last + 1,
                    why: format!(
                        "it ends after line {last} in the middle of a move: the rest of the move's events are missing"
                    ),
                };
                if !recover {
                    return Err(Damaged(found).into());
                }
                damage = Some(found);
            }
            cut
        }
    };
    Ok(Record { header, log, game, events, damage })
}

/// A save's game as `gin replay` shows it: its header, its log's header, the game and every
/// event, replayed from the record as [`load`] does (without building its AI).
///
/// # Errors
/// A text that is not a save, or a damaged one ([`Damaged`]: the line, and what is wrong).
pub(crate) fn replayed(text: &str) -> Result<(PlayHeader, LogHeader, Game, Vec<Event>)> {
    let Record { header, log, game, events, .. } = replay_save(text, false)?;
    Ok((header, log, game, events))
}

/// The first `n` lines of `text`, with their line breaks.
fn first_lines(text: &str, n: usize) -> &str {
    let end = text.match_indices('\n').nth(n.saturating_sub(1)).map_or(text.len(), |(at, _)| at + 1);
    if n == 0 { "" } else { &text[..end] }
}

/// The events of a replayed record cut back to whole moves, with the game after them: the
/// deal's events (whole even when the record stops among them: the seed gives them), then the
/// events of each move whose events are all there. `None` when nothing is cut.
fn whole_moves(log: &LogHeader, logged: &[(usize, Event)]) -> Option<(Game, Vec<Event>)> {
    let (mut game, mut kept) = Game::new(&log.rules, log.seed);
    let mut at = kept.len();
    while at < logged.len() {
        // The record was replayed: every action it holds is there and legal.
        let Some((player, action, showing)) = recorded_action(&logged[at].1, &game) else { break };
        let mut next = game.clone();
        let Ok(produced) = next.play_with(player, action, showing.as_ref()) else { break };
        if at + produced.len() > logged.len() {
            break;
        }
        at += produced.len();
        kept.extend(produced);
        game = next;
    }
    (kept.len() != logged.len()).then_some((game, kept))
}

/// A spec or a name from a file as it may be shown on a terminal: control characters escaped,
/// and cut short when long.
pub(super) fn printable(text: &str) -> String {
    crate::render::untrusted(text, 200)
}

/// What `gin saves` shows of a save.
pub(crate) struct Summary {
    /// The AI's spec, or `None` at a hotseat table.
    pub ai: Option<String>,
    /// The person's seat against the AI.
    pub human: Option<Player>,
    /// The game's score (for a damaged save, at the last whole move before the damage).
    pub points: ByPlayer<u32>,
    /// The hand being played, or the last one.
    pub hand: u32,
    /// The winner, once the game is over.
    pub winner: Option<Player>,
    /// Why the AI forfeited, if it did.
    pub forfeit: Option<String>,
    /// The line where the save's damage starts, if it is damaged.
    pub damaged: Option<usize>,
}

/// Reads a save's text as [`load`] does, without building its AI; a damaged save as
/// `--recover` would resume it.
///
/// # Errors
/// A save that is not one, or is damaged beyond recovery: the message says what.
pub(crate) fn summary(text: &str) -> Result<Summary> {
    let Record { header, game, damage, .. } = replay_save(text, true)?;
    Ok(Summary {
        ai: header.ai,
        human: header.human,
        points: game.score().points,
        hand: game.hand_number(),
        winner: game.result().map(|result| result.winner).or(header.human.filter(|_| header.forfeit.is_some())),
        forfeit: header.forfeit,
        damaged: damage.map(|damage| damage.line),
    })
}

/// The line of the whole file where a log error is (the log starts on line 2).
fn file_line(err: &ReplayError) -> usize {
    match err {
        ReplayError::Empty | ReplayError::Version { .. } | ReplayError::Setup(_) => 2,
        ReplayError::Parse { line, .. }
        | ReplayError::Illegal { line, .. }
        | ReplayError::Mismatch { line, .. }
        | ReplayError::Unexpected { line, .. } => line + 1,
    }
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
/// look, which reads no digest).
pub(super) fn is_finished(text: &str) -> bool {
    let forfeited = text.lines().next().is_some_and(|header| header.contains("\"forfeit\":"));
    forfeited
        || text
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .is_some_and(|line| line.contains("\"event\":\"game_ended\""))
}

/// `text` with every line's digest worked out again (and a version-2 header's `lines`
/// counting its lines), so that the reader beneath the digests sees what was changed in it;
/// `text` itself when its line 1 is not a version-2 header.
pub(crate) fn reseal(text: &str) -> String {
    let mut lines: Vec<String> =
        text.lines().map(|line| digest::unseal(line).map_or_else(|| line.to_owned(), |(object, _)| object)).collect();
    let count = lines.len();
    let Some(first) = lines.first_mut() else { return text.to_owned() };
    match serde_json::from_str::<serde_json::Value>(first) {
        Ok(serde_json::Value::Object(mut header)) if header.get("version") == Some(&2.into()) => {
            header.insert("lines".to_owned(), count.into());
            *first = serde_json::Value::Object(header).to_string();
        }
        _ => return text.to_owned(),
    }
    digest::seal_all(lines.iter().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> gin_arena::Host {
        gin_arena::Host::new(gin_arena::Limits {
            decision: std::time::Duration::from_secs(10),
            startup: std::time::Duration::from_secs(10),
        })
    }

    #[test]
    fn header_lines_are_checked_with_clear_messages() {
        let ok = open(r#"{"format":"gin-play","version":1,"ai":"expert","human":"one"}"#).unwrap();
        assert_eq!(ok.header, PlayHeader { version: 1, ..PlayHeader::new(Some(("expert", Player::One))) });
        assert_eq!(
            serde_json::to_string(&PlayHeader::new(None)).unwrap(),
            r#"{"format":"gin-play","version":2,"ai":null,"human":null}"#
        );
        let err = |text: &str| open(text).unwrap_err().to_string();
        assert!(err("garbage").starts_with("not a `gin play` save file"));
        assert!(err(r#"{"format":"gin-log","version":1}"#).starts_with("not a `gin play` save file"));
        assert_eq!(
            err(r#"{"format":"gin-play","version":3}"#),
            "save format version 3 is not supported: this gin reads versions 1 and 2"
        );
        assert!(err("").contains("empty"));
        // Version 2: line 1 too has its digest, and says how many lines there are.
        assert_eq!(
            err(r#"{"format":"gin-play","version":2,"lines":2,"ai":null,"human":null}"#),
            "the save is damaged: line 1 has no digest (every line of a save ends with ,\"digest\":\"…\"}): it was \
             cut or changed"
        );
        let sealed = digest::seal_all([r#"{"format":"gin-play","version":2,"ai":null,"human":null}"#]);
        assert!(err(&sealed).contains("says how many lines it has (`lines`)"), "{}", err(&sealed));
        assert!(err(r#"{"format":"gin-play","version":2,"ai":nu"#).contains("line 1 is not a whole JSON object"));
    }

    /// The text of a save of `events` under `header` and `log`, as the writer writes it.
    fn save(header: &PlayHeader, log: &LogHeader, events: &[Event]) -> String {
        render(header, log, events).unwrap()
    }

    /// The same save as version 1 wrote it: no digests, no `lines`.
    fn save_v1(header: &PlayHeader, log: &LogHeader, events: &[Event]) -> String {
        let header = PlayHeader { version: VERSION_1, lines: None, ..header.clone() };
        let mut text = serde_json::to_string(&header).unwrap() + "\n";
        let mut buffer = Vec::new();
        write_log(&mut buffer, log, events).unwrap();
        text.push_str(std::str::from_utf8(&buffer).unwrap());
        text
    }

    fn resume(text: &str) -> Resumed {
        rebuild(text, None, &AgentParams::default(), &host(), false).unwrap()
    }

    /// Why `text` is refused, without --recover.
    fn refused(text: &str) -> Damage {
        match rebuild(text, None, &AgentParams::default(), &host(), false) {
            Ok(_) => panic!("accepted: {text}"),
            Err(err) => err.downcast_ref::<Damaged>().unwrap_or_else(|| panic!("{err:#}")).0.clone(),
        }
    }

    /// `text` resumed with --recover.
    fn recovered(text: &str) -> Resumed {
        rebuild(text, None, &AgentParams::default(), &host(), true).unwrap()
    }

    /// The first `n` lines of `text`, each with its line break.
    fn lines_of(text: &str, n: usize) -> String {
        text.lines().take(n).map(|line| format!("{line}\n")).collect()
    }

    /// Where the AI decided: the number of events before, and what it chose.
    type Decided = (usize, Decision);

    /// A whole game of `simple` (seat two) against a seat that knocks whenever it may: its log
    /// header, its events, and where the AI decided (the number of events before, and what it
    /// chose).
    fn simple_game(seed: u64) -> (LogHeader, Vec<Event>, Vec<Decided>) {
        let rules = gin_rules::Ruleset::standard();
        let log = LogHeader::new(seed, &rules, None);
        let (mut game, mut events) = Game::new(&rules, seed);
        let params = AgentParams::default();
        let (seat, mut agent) = build_ai("simple", Player::Two, &log, &params, &host()).unwrap();
        for event in &events {
            agent.observe(&event.seen_by(seat));
        }
        let mut decisions = Vec::new();
        while let Some(player) = game.to_act() {
            let (action, showing) = if player == seat {
                let chosen = ai_move(agent.as_mut(), &game, player);
                decisions.push((events.len(), chosen.clone()));
                let Decision::Play { action, showing } = chosen else { panic!("simple resigned") };
                (action, showing)
            } else {
                let legal = game.legal_actions();
                let knock = legal.iter().copied().find(|action| matches!(action, gin_engine::Action::Knock { .. }));
                (knock.unwrap_or(legal[0]), None)
            };
            let produced = game.play_with(player, action, showing.as_deref()).unwrap();
            for event in &produced {
                agent.observe(&event.seen_by(seat));
            }
            events.extend(produced);
        }
        (log, events, decisions)
    }

    #[test]
    fn a_save_resumed_anywhere_goes_on_as_the_game_did() {
        // The AI (simple, which draws random numbers) shows its own melds and layoffs; the other
        // seat knocks whenever it may.
        let (log, events, decisions) = simple_game(9);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let knocks = events.iter().filter(|event| matches!(event, Event::Knocked { .. })).count();
        let text = save(&header, &log, &events);
        let resumed = resume(&text);
        let (game, _) = Game::new(&log.rules, log.seed);
        assert!(resumed.game.result().is_some() && knocks > 2, "{knocks} knocks");
        assert_ne!(resumed.game, game);
        assert_eq!(resumed.events, events);
        assert!(resumed.notes.is_empty());
        // The quick look reads the end of the game through the digests.
        assert!(is_finished(&text));
        assert!(is_finished(&save_v1(&header, &log, &events)));
        // Stopped at any of the AI's moves, the AI rebuilt from the record makes the same move.
        assert!(decisions.len() > 20, "{} decisions", decisions.len());
        for (at, chosen) in decisions {
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

    #[test]
    fn every_line_carries_its_digest_and_the_log_beneath_is_the_engines() {
        let (log, events, _) = simple_game(4);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let text = save(&header, &log, &events[..40]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 42);
        assert!(
            lines[0]
                .starts_with(r#"{"format":"gin-play","version":2,"lines":42,"ai":"simple","human":"one","digest":""#)
        );
        let mut chain = digest::Chain::new();
        let mut beneath = Vec::new();
        for line in &lines {
            let (object, carried) = digest::unseal(line).unwrap();
            assert!(line.ends_with(&format!(",\"digest\":\"{carried}\"}}")), "{line}");
            assert_eq!(chain.next(&object), carried);
            beneath.push(object);
        }
        let mut engine = Vec::new();
        write_log(&mut engine, &log, &events[..40]).unwrap();
        assert_eq!(beneath[1..].join("\n") + "\n", String::from_utf8(engine).unwrap());
    }

    #[test]
    fn a_cut_save_is_refused_at_its_line_and_recovered_to_a_whole_move() {
        let (log, events, _) = simple_game(9);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let text = save(&header, &log, &events);
        let total = events.len() + 2;
        // Cut just after a hand's end, before the next deal: in the middle of the events of the
        // move that ended the hand. Event i is on line i + 3.
        let ended = events
            .iter()
            .enumerate()
            .position(|(i, event)| matches!(event, Event::HandEnded { .. }) && i > 40 && i + 1 < events.len())
            .unwrap();
        let cut = lines_of(&text, ended + 3);
        let damage = refused(&cut);
        assert_eq!(damage.line, ended + 4);
        assert_eq!(
            damage.why,
            format!("it ends after line {}, but its header says {total} lines: the save was cut short", ended + 3)
        );
        // The same cut in version 1 was taken for the game; now the record stopping inside a move
        // is refused even there, since the next save would not replay.
        let cut_v1 = lines_of(&save_v1(&header, &log, &events), ended + 3);
        let damage_v1 = refused(&cut_v1);
        assert!(damage_v1.why.contains("in the middle of a move"), "{damage_v1:?}");
        for cut in [cut, cut_v1] {
            let resumed = recovered(&cut);
            assert!(resumed.damage.is_some());
            // The move that ended the hand is dropped whole: the game waits for it again.
            let knocked = events[..ended].iter().rposition(|event| matches!(event, Event::Knocked { .. })).unwrap();
            assert_eq!(resumed.events, events[..=knocked]);
            assert!(matches!(resumed.game.deal().phase(), gin_engine::Phase::LayOff | gin_engine::Phase::Over));
            // Written again, it is a whole save that resumes to the same point.
            let again = resume(&save(&resumed.header, &resumed.log, &resumed.events));
            assert_eq!((again.game, again.events), (resumed.game, resumed.events));
        }
        // Cut in the middle of a line, or with a line too many.
        let damage = refused(&text[..text.len() - 10]);
        assert_eq!(damage.line, total);
        assert!(damage.why.starts_with(&format!("line {total} has no digest")), "{damage:?}");
        let last = text.lines().last().unwrap();
        let damage = refused(&format!("{text}{last}\n"));
        assert_eq!(damage.line, total + 1);
        assert_eq!(
            damage.why,
            format!("line {} comes after the {total} lines its header counts: lines were added", total + 1)
        );
        // --recover on a whole save just resumes it.
        let whole = recovered(&text);
        assert_eq!((whole.damage, whole.events), (None, events));
    }

    #[test]
    fn an_edit_that_keeps_the_game_legal_is_refused_at_its_line() {
        let (log, events, _) = simple_game(9);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let text = save(&header, &log, &events);
        // Two of the AI's discards swapped, where the game stays legal (version 1 took such a
        // save for the game).
        let discards: Vec<(usize, gin_cards::Card)> = events
            .iter()
            .enumerate()
            .filter_map(|(i, event)| match event {
                Event::Discarded { player: Player::Two, card } => Some((i, *card)),
                _ => None,
            })
            .collect();
        let swapped = discards
            .windows(2)
            .find_map(|pair| {
                let [(first, a), (second, b)] = [pair[0], pair[1]];
                let mut edited = events.clone();
                edited[first] = Event::Discarded { player: Player::Two, card: b };
                edited[second] = Event::Discarded { player: Player::Two, card: a };
                rebuild(&save_v1(&header, &log, &edited), None, &AgentParams::default(), &host(), false)
                    .is_ok()
                    .then_some((first, a, b))
            })
            .expect("two discards of the AI that may be swapped");
        let (first, a, b) = swapped;
        let line = first + 3;
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let second =
            lines.iter().skip(line).position(|l| l.contains(&format!("\"player\":\"two\",\"card\":\"{b}\""))).unwrap()
                + line;
        lines[line - 1] = lines[line - 1].replace(&format!("\"card\":\"{a}\""), &format!("\"card\":\"{b}\""));
        lines[second] = lines[second].replace(&format!("\"card\":\"{b}\""), &format!("\"card\":\"{a}\""));
        let edited = lines.join("\n") + "\n";
        let damage = refused(&edited);
        assert_eq!(damage.line, line);
        assert_eq!(damage.why, format!("line {line} was changed: its digest does not match the lines before it"));
        let resumed = recovered(&edited);
        assert_eq!(resumed.events, events[..first]);
        // The seats swapped on line 1: refused, and not recoverable.
        let seats = text.replacen(r#""human":"one""#, r#""human":"two""#, 1);
        assert_eq!(refused(&seats).line, 1);
        let err = rebuild(&seats, None, &AgentParams::default(), &host(), true).err().unwrap();
        assert_eq!(
            err.to_string(),
            "the save is damaged: line 1 was changed: its digest does not match the lines before it"
        );
        assert!(!refused(&seats).is_recoverable());
        assert!(refused(&seats).advice(Path::new("x.gin")).contains("cannot be recovered"));
        assert!(refused(&edited).advice(Path::new("x.gin")).ends_with(&format!(
            "play --resume x.gin --recover` plays on from the last whole move before line {line}, keeping a copy of the damaged file"
        )));
    }

    /// A save written by `gin play --ai expert` (version 1 of the format), stopped mid-game.
    const FIXTURE: &str = include_str!("../../tests/fixtures/expert-mid-game.gin");

    /// The same save, resumed by `gin play --resume` and so written again as version 2.
    const FIXTURE_V2: &str = include_str!("../../tests/fixtures/expert-mid-game-v2.gin");

    #[test]
    fn a_save_of_version_1_reads_as_it_did_and_is_written_as_version_2() {
        let old = resume(FIXTURE);
        assert_eq!(old.header.version, 1);
        assert!(old.notes[0].starts_with("This save predates digests (format version 1)"), "{:?}", old.notes);
        assert!(!FIXTURE.contains("\"digest\""));
        // The writer writes it again byte for byte as the version-2 fixture: the format is pinned.
        assert_eq!(save(&old.header, &old.log, &old.events), FIXTURE_V2);
        let new = resume(FIXTURE_V2);
        assert_eq!((&new.game, &new.events, new.header.ai.as_deref()), (&old.game, &old.events, Some("expert")));
        assert!(new.notes.is_empty(), "{:?}", new.notes);
        assert_eq!(new.header.lines, Some(FIXTURE_V2.lines().count() as u64));
        // A version-1 header's `lines`, unknown then, is not read.
        let with_lines = FIXTURE.replacen(r#""version":1,"#, r#""version":1,"lines":"many","#, 1);
        assert_eq!(resume(&with_lines).events, old.events);
        // A byte-order mark an editor put first is read past, as `gin replay` reads past it.
        assert_eq!(resume(&format!("\u{feff}{FIXTURE_V2}")).events, old.events);
    }

    #[test]
    fn a_save_resumes_after_the_agents_defaults_change() {
        let mut changed = AgentParams::default();
        changed.expert.danger_weight = 0.0;
        changed.expert.knock_max_early = 3;
        // The changed expert would not have played this game: asked to choose the save's moves
        // again, as resuming once did, it disagrees with one of them.
        let (_, rest) = FIXTURE.split_once('\n').unwrap();
        let human = open(FIXTURE).unwrap().header.human.unwrap();
        let (log, logged) = read_log(rest).unwrap();
        let (seat, mut agent) = build_ai("expert", human.opponent(), &log, &changed, &host()).unwrap();
        assert_eq!(seat, human.opponent());
        let (mut game, _) = Game::new(&log.rules, log.seed);
        let mut disagreements = 0;
        for (_, event) in &logged {
            if let Some((player, action, showing)) = gin_engine::recorded_action(event, &game) {
                if player == seat {
                    disagreements += usize::from(ai_move(agent.as_mut(), &game, player).action() != Some(action));
                }
                game.play_with(player, action, showing.as_ref()).unwrap();
            }
            agent.observe(&event.seen_by(seat));
        }
        assert!(disagreements > 0);
        for params in [AgentParams::default(), changed] {
            let resumed = rebuild(FIXTURE, None, &params, &host(), false).unwrap();
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
        let chosen = rebuild(&text, Some("simple"), &AgentParams::default(), &host(), false).unwrap();
        assert_eq!(chosen.header.ai.as_deref(), Some("simple"));
        let hotseat = save(&PlayHeader::new(None), &log, &events);
        let err = rebuild(&hotseat, Some("simple"), &AgentParams::default(), &host(), false).err().unwrap();
        assert!(err.to_string().contains("two people"), "{err}");
    }

    #[test]
    fn names_from_a_file_are_shown_safely() {
        assert_eq!(printable("cmd:evil\u{1b}[31m"), "cmd:evil\\u{1b}[31m");
        let long = "x".repeat(500);
        assert_eq!(printable(&long).chars().count(), 201);
    }

    #[cfg(unix)]
    #[test]
    fn a_write_keeps_the_mode_and_never_replaces_a_read_only_save_or_what_is_no_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/tmp")
            .join(format!("gin-savefile-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (log, events, _) = simple_game(3);
        let header = PlayHeader::new(Some(("simple", Player::One)));
        let path = dir.join("game.gin");
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o7777;
        write(&path, &header, &log, &events[..10]).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write(&path, &header, &log, &events[..20]).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(fs::read_to_string(&path).unwrap(), save(&header, &log, &events[..20]));
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let err = format!("{:#}", write(&path, &header, &log, &events[..30]).unwrap_err());
        assert!(
            err.contains("is read-only (mode 0444), and gin never replaces a save its owner may not write"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), save(&header, &log, &events[..20]));
        assert_eq!(mode(&path), 0o444);
        let err = format!("{:#}", write(&dir, &header, &log, &events).unwrap_err());
        assert!(err.ends_with("is a directory, not a regular file, and gin saves only to regular files"), "{err}");
        // A damaged save's copies are numbered, never written over, and as private as the save.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        assert_eq!(keep_copy(&path, b"one").unwrap(), dir.join("game.gin.damaged"));
        assert_eq!(keep_copy(&path, b"two").unwrap(), dir.join("game.gin.damaged-2"));
        assert_eq!(fs::read(dir.join("game.gin.damaged")).unwrap(), b"one");
        assert_eq!(mode(&dir.join("game.gin.damaged-2")), 0o640);
        fs::remove_dir_all(dir).unwrap();
    }
}
