//! `ExternalAgent`: a program that plays over the external-agent protocol (docs/protocol.md),
//! and [`AgentChoice`], an agent spec that is either built in or `cmd:PROGRAM ARGS...`.
//!
//! The host never trusts the program. It writes to the program from a thread of its own (a
//! program that does not read cannot block the game), reads its answers on another thread, and
//! waits for each answer at most the decision timeout. A program that crashes, hangs, prints
//! something that is not an action, or names an action (or cards to show) the game refuses
//! forfeits the game: the agent resigns ([`Decision::Resign`]) with the reason, which names the
//! program, what it sent and its log, and the runner records it as the forfeit. The cards a
//! program names with a knock, big gin or a defense go to the referee with its action.

mod logs;
mod process;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gin_ai::registry::AgentParams;
use gin_ai::registry::{self, AgentSpec, SpecError};
use gin_engine::{Action, Agent, Decision, Event, PlayerView};
use gin_rules::{ByPlayer, GameResult, Player, Ruleset, Showing};

use gin_protocol::{Answer, HostMessage, MAX_LINE, v1};

use crate::files;
use crate::render::untrusted;
use logs::{LogDir, LogHandle};
pub(crate) use process::KEEPER_FAILED;
use process::{Line, Process, StderrState};

/// The prefix of an agent spec that names a program, which speaks the protocol's current version.
pub(crate) const PROGRAM_PREFIX: &str = "cmd:";

/// The prefix of an agent spec that names a program written to the protocol's first version.
pub(crate) const V1_PROGRAM_PREFIX: &str = "cmd-v1:";

/// How long an agent program may take over one decision, in seconds, unless told otherwise.
pub(crate) const DEFAULT_TIMEOUT: &str = "10";

/// How long an agent program may take to start, on top of its first decision, unless told
/// otherwise.
pub(crate) const DEFAULT_STARTUP: &str = "10";

/// How long a program that was told to quit may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// The longest part of a program's line quoted in a message.
const QUOTE: usize = 120;

/// An agent by spec: built in (`simple`, `expert:knock_bias=2`) or a program (`cmd:python3 a.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AgentChoice {
    /// A built-in agent.
    Builtin(AgentSpec),
    /// A program and its arguments, split on whitespace.
    Program(Program),
}

/// An agent program: its command line, and the version of the protocol it speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Program {
    /// The program and its arguments.
    pub words: Vec<String>,
    /// [`gin_protocol::VERSION`], or 1 for a program started as `cmd-v1:`.
    pub version: u32,
}

/// Why an agent spec names no agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChoiceError {
    /// A built-in agent's spec that is not right.
    Spec(SpecError),
    /// `cmd:` with no program after it.
    NoProgram,
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceError::Spec(err) => err.fmt(f),
            ChoiceError::NoProgram => write!(f, "no program given: write {PROGRAM_PREFIX}PROGRAM ARGS..."),
        }
    }
}

impl std::error::Error for ChoiceError {}

/// Whether `text` names a program (`cmd:...` or `cmd-v1:...`), as [`AgentChoice::from_str`] reads it.
pub(crate) fn names_program(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with(PROGRAM_PREFIX) || text.starts_with(V1_PROGRAM_PREFIX)
}

impl FromStr for AgentChoice {
    type Err = ChoiceError;

    fn from_str(text: &str) -> Result<AgentChoice, ChoiceError> {
        let text = text.trim_start();
        let program = match (text.strip_prefix(PROGRAM_PREFIX), text.strip_prefix(V1_PROGRAM_PREFIX)) {
            (Some(command), _) => Some((command, gin_protocol::VERSION)),
            (None, Some(command)) => Some((command, v1::VERSION)),
            (None, None) => None,
        };
        match program {
            Some((command, version)) => {
                let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
                if words.is_empty() {
                    return Err(ChoiceError::NoProgram);
                }
                Ok(AgentChoice::Program(Program { words, version }))
            }
            None => text.parse().map(AgentChoice::Builtin).map_err(ChoiceError::Spec),
        }
    }
}

impl fmt::Display for AgentChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentChoice::Builtin(spec) => spec.fmt(f),
            AgentChoice::Program(Program { words, version }) => {
                let prefix = if *version == v1::VERSION { V1_PROGRAM_PREFIX } else { PROGRAM_PREFIX };
                write!(f, "{prefix}{}", words.join(" "))
            }
        }
    }
}

impl AgentChoice {
    /// Whether this is a built-in agent that `--param` configures: `expert`, `mc` or `mc-fast`.
    pub(crate) fn is_expert(&self) -> bool {
        matches!(self, AgentChoice::Builtin(spec) if matches!(spec.name.as_str(), "expert" | "mc" | "mc-fast"))
    }

    /// Whether this is a program played over the protocol.
    pub(crate) fn is_program(&self) -> bool {
        matches!(self, AgentChoice::Program(_))
    }

    /// Checks the spec without starting anything.
    ///
    /// # Errors
    /// An unknown built-in agent or a bad setting.
    pub(crate) fn check(&self, params: &AgentParams) -> Result<()> {
        if let AgentChoice::Builtin(spec) = self {
            registry::build(spec, params)?;
        }
        Ok(())
    }
}

/// How long an agent program may take: over each decision, and once more, at its first
/// decision, to start up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Limits {
    /// The most time over one decision.
    pub decision: Duration,
    /// The time it may take to start, on top of its first decision's.
    pub startup: Duration,
}

/// `--agent-timeout` and `--agent-startup`, shared by the commands that start agent programs.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct LimitArgs {
    /// The most time an agent program (cmd:...) may take over one decision, from 0.001 to 3600
    /// seconds.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_TIMEOUT, value_parser = parse_timeout)]
    agent_timeout: Duration,
    /// The time an agent program may take to start, on top of its first decision's, from 0.001
    /// to 3600 seconds.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_STARTUP, value_parser = parse_timeout)]
    agent_startup: Duration,
}

impl LimitArgs {
    /// The limits these options give.
    pub(crate) fn limits(&self) -> Limits {
        Limits { decision: self.agent_timeout, startup: self.agent_startup }
    }

    /// A host for the programs of one run, with these limits.
    pub(crate) fn host(&self) -> Host {
        Host::new(self.limits())
    }
}

/// Builds the agent a choice names: a built-in agent, or a started program with its time
/// limits (which resigns, saying why, when it misbehaves).
///
/// # Errors
/// An unknown built-in agent or a bad setting; a program that cannot be started.
pub(crate) fn build_agent(choice: &AgentChoice, params: &AgentParams, host: &Host) -> Result<Box<dyn Agent + Send>> {
    match choice {
        AgentChoice::Builtin(spec) => Ok(registry::build(spec, params)?),
        AgentChoice::Program(program) => Ok(Box::new(ExternalAgent::start(program, host)?)),
    }
}

/// The shortest time limit an agent program may be given, in seconds.
pub(crate) const MIN_LIMIT_SECONDS: f64 = 0.001;

/// The longest time limit an agent program may be given, in seconds (an hour): the sum of both
/// limits, added to the clock, stays far from any overflow.
pub(crate) const MAX_LIMIT_SECONDS: f64 = 3600.0;

/// `--agent-timeout SECONDS` and `--agent-startup SECONDS`: from [`MIN_LIMIT_SECONDS`] to
/// [`MAX_LIMIT_SECONDS`].
pub(crate) fn parse_timeout(text: &str) -> Result<Duration, String> {
    let range = format!("from {MIN_LIMIT_SECONDS} to {MAX_LIMIT_SECONDS} seconds");
    match text.trim().parse::<f64>() {
        Ok(seconds) if (MIN_LIMIT_SECONDS..=MAX_LIMIT_SECONDS).contains(&seconds) => {
            Ok(Duration::from_secs_f64(seconds))
        }
        Ok(_) => Err(format!("a time limit must be {range} (an hour at most)")),
        Err(err) => Err(format!("{err}: expected a number of seconds, {range}")),
    }
}

/// What the host knows of a program's misbehaviour, to say why it forfeits.
#[derive(Debug)]
struct Account {
    /// The program's command line, as it may be shown.
    program: String,
    /// Where its standard error goes.
    log: PathBuf,
    /// What reached the log so far, and whether the program's standard error has closed.
    stderr: Arc<StderrState>,
    /// Whether the log is still there.
    kept: LogHandle,
    /// Why the host gave up on it.
    fault: Option<String>,
}

impl Account {
    /// Why the program forfeits: its fault, and where its standard error is. Everything in it that
    /// came from the program is escaped and cut short.
    fn explain(&self) -> String {
        let what = self.fault.as_deref().unwrap_or("forfeits");
        // The log is named when the program wrote something there (an empty one is removed): a
        // program that just ended has a moment to have its last words copied.
        let deadline = Instant::now() + Duration::from_millis(500);
        while !self.stderr.closed.load(Ordering::Acquire) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        let log = if self.stderr.bytes.load(Ordering::Acquire) == 0 {
            "it wrote nothing to its standard error".to_owned()
        } else if self.kept.kept() {
            format!("its standard error is in {}", self.log.display())
        } else {
            format!(
                "its standard error was in {}, removed to keep the run's agent logs within {}",
                self.log.display(),
                files::size(logs::RUN_CAP)
            )
        };
        format!("program `{}` {what} ({log})", self.program)
    }
}

/// Where and how agent programs run: their time limits, the run's folder of logs, and on Linux
/// the keeper that ends everything a program starts. One per command run, shared by every
/// program it starts.
#[derive(Clone, Debug)]
pub(crate) struct Host {
    /// The programs' time limits.
    pub limits: Limits,
    logs: Arc<LogDir>,
    /// `gin agent-keeper`'s binary (this one), where there is a keeper.
    keeper: Option<PathBuf>,
}

impl Host {
    /// A host with these limits, its logs in a folder of the run's own within [`logs::RUN_CAP`].
    pub(crate) fn new(limits: Limits) -> Host {
        Host { limits, logs: Arc::new(LogDir::new(logs::RUN_CAP)), keeper: keeper_binary() }
    }

    /// What the command says at the end of its run: logs that were removed to stay within the
    /// cap, if any were.
    pub(crate) fn closing_note(&self) -> Option<String> {
        let evicted = self.logs.evicted();
        (evicted > 0).then(|| {
            format!(
                "note: {evicted} agent {} removed (the oldest first) to keep this run's agent logs within {}{}",
                if evicted == 1 { "log was" } else { "logs were" },
                files::size(logs::RUN_CAP),
                self.logs.folder().map(|folder| format!(", in {}", folder.display())).unwrap_or_default()
            )
        })
    }
}

/// The keeper: this binary, on Linux.
#[cfg(target_os = "linux")]
fn keeper_binary() -> Option<PathBuf> {
    // The running binary itself, even if its file was replaced since it started (without
    // `/proc`, no keeper: the program's process group is ended, as elsewhere).
    let this = PathBuf::from("/proc/self/exe");
    this.exists().then_some(this)
}

#[cfg(not(target_os = "linux"))]
fn keeper_binary() -> Option<PathBuf> {
    None
}

/// An agent program, started with piped standard input and output and its standard error in a
/// log file.
pub(crate) struct ExternalAgent {
    name: String,
    process: Process,
    timeout: Duration,
    /// The start-up allowance, until the first decision spends it.
    startup: Option<Duration>,
    account: Account,
    seat: Player,
    points: ByPlayer<u32>,
    /// The messages not yet handed to the writer.
    pending: Vec<u8>,
    /// The number of the last `decide` sent.
    decisions: u64,
    /// The protocol's version the program speaks.
    version: u32,
    /// Whether the program has echoed a decision's `id`: from then on every answer must.
    echoes: bool,
}

impl ExternalAgent {
    /// Starts the program (its first word, with the rest as its arguments) under `host`.
    ///
    /// # Errors
    /// The log file cannot be created, or the program cannot be started.
    pub(crate) fn start(program: &Program, host: &Host) -> Result<ExternalAgent> {
        let words = &program.words;
        let command_line = words.join(" ");
        let shown = untrusted(&command_line, QUOTE);
        let log = host.logs.create().context("cannot create a log file for the agent program")?;
        let log_path = log.path().to_path_buf();
        let kept = log.handle();
        let process = Process::start(words, host.keeper.as_deref(), log)
            .with_context(|| format!("cannot start the agent program `{shown}`"))?;
        let account = Account { program: shown, log: log_path, stderr: process.stderr(), kept, fault: None };
        Ok(ExternalAgent {
            name: format!("{PROGRAM_PREFIX}{command_line}"),
            process,
            timeout: host.limits.decision,
            startup: Some(host.limits.startup),
            account,
            seat: Player::One,
            points: ByPlayer::default(),
            pending: Vec::new(),
            decisions: 0,
            version: program.version,
            echoes: false,
        })
    }

    /// Queues one message, in the version of the protocol the program speaks.
    fn queue(&mut self, message: &HostMessage) {
        if self.account.fault.is_some() {
            return;
        }
        // Serializing these types to a Vec cannot fail.
        if self.version == v1::VERSION {
            for old in v1::downgrade(message) {
                let _ = serde_json::to_writer(&mut self.pending, &old);
                self.pending.push(b'\n');
            }
        } else {
            let _ = serde_json::to_writer(&mut self.pending, message);
            self.pending.push(b'\n');
        }
    }

    /// Hands the queued messages to the writer thread.
    fn send(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        self.process.send(std::mem::take(&mut self.pending));
    }

    /// Records why the program forfeits, and ends it with everything it started.
    fn fail(&mut self, fault: String) {
        self.account.fault.get_or_insert(fault);
        self.pending.clear();
        self.process.end();
    }

    /// A line the program sent unasked: the keeper saying it could not start the program, or
    /// text out of turn.
    fn unasked(&self, text: &str) -> String {
        match text.strip_prefix(KEEPER_FAILED) {
            Some(why) if self.decisions <= 1 => format!("could not be started: {}", untrusted(why, QUOTE)),
            _ => format!("sent {} when no decision was asked for", quote(text)),
        }
    }

    /// The program's answer to a decision in `view`, with the cards it shows, or `None` when it
    /// gave none that can be played.
    fn answer(&mut self, view: &PlayerView<'_>) -> Option<(Action, Option<Showing>)> {
        // The program answers nothing but decisions: anything waiting is out of turn.
        match self.process.try_line() {
            Some(Line::Text(text)) => {
                let fault = self.unasked(&text);
                self.fail(fault);
                return None;
            }
            Some(Line::TooLong) => {
                self.fail(format!("sent a line longer than {}", files::size(MAX_LINE as u64)));
                return None;
            }
            Some(Line::Closed) => {
                let fault = self.closed();
                self.fail(fault);
                return None;
            }
            None => {}
        }
        self.send();
        let startup = self.startup.take();
        let wait = self.timeout + startup.unwrap_or_default();
        match self.process.next_line(wait) {
            Some(Line::Text(text)) if text.starts_with(KEEPER_FAILED) => {
                let fault = self.unasked(&text);
                self.fail(fault);
                None
            }
            Some(Line::Text(text)) => match Answer::parse(text.trim()) {
                Ok(answer)
                    if answer.id().is_some_and(|id| id != self.decisions) || (self.echoes && answer.id().is_none()) =>
                {
                    let which = answer.id().map_or_else(|| "no decision".to_owned(), |id| format!("decision {id}"));
                    self.fail(format!(
                        "sent {} out of turn: it answers {which}, and decision {} was asked",
                        quote(&text),
                        self.decisions
                    ));
                    None
                }
                Ok(answer) => match answer.showing(view) {
                    // Refused by the referee: said here, with what the program sent.
                    Ok(showing) if let Some(err) = view.refusal(answer.action(), showing.as_ref()) => {
                        self.fail(format!(
                            "answered {}, which the game refuses: {}",
                            quote(&text),
                            untrusted(&err.to_string(), QUOTE)
                        ));
                        None
                    }
                    Ok(showing) => {
                        self.echoes |= answer.id().is_some();
                        Some((answer.action(), showing))
                    }
                    Err(err) => {
                        self.fail(format!(
                            "answered {}, which the game refuses: {}",
                            quote(&text),
                            untrusted(&err.to_string(), QUOTE)
                        ));
                        None
                    }
                },
                Err(err) => {
                    self.fail(format!("answered {}, which is not an action: {}", quote(&text), untrusted(&err, QUOTE)));
                    None
                }
            },
            Some(Line::TooLong) => {
                self.fail(format!("answered with a line longer than {}", files::size(MAX_LINE as u64)));
                None
            }
            Some(Line::Closed) => {
                let fault = self.closed();
                self.fail(fault);
                None
            }
            None => {
                let within = match startup {
                    Some(startup) => format!(
                        "its first decision within {} s ({} s to start and {} s to decide)",
                        wait.as_secs_f64(),
                        startup.as_secs_f64(),
                        self.timeout.as_secs_f64()
                    ),
                    None => format!("within {} s", self.timeout.as_secs_f64()),
                };
                self.fail(format!("did not answer {within} (it was stopped)"));
                None
            }
        }
    }

    /// Why the program's output closed: how it ended.
    fn closed(&mut self) -> String {
        match self.process.exit_status(Duration::from_millis(200)) {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code} before answering"),
                None => format!("was killed ({status}) before answering"),
            },
            None => "closed its standard output before answering".to_owned(),
        }
    }
}

impl Agent for ExternalAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.seat = seat;
        self.points = ByPlayer::default();
        self.queue(&HostMessage::start_game(seat, rules, seed));
    }

    fn observe(&mut self, event: &Event) {
        match event {
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                let hand = hands[self.seat].unwrap_or_default();
                let (number, dealer, upcard, knock_limit, points) =
                    (*number, *dealer, *upcard, *knock_limit, self.points);
                self.queue(&HostMessage::StartHand { number, dealer, upcard, knock_limit, hand, points });
            }
            Event::HandEnded { points, .. } => self.points = *points,
            _ => {}
        }
        self.queue(&HostMessage::Event { event: event.into() });
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        if self.account.fault.is_none() {
            self.decisions += 1;
            self.queue(&HostMessage::decide(self.decisions, legal, view));
            if let Some((action, showing)) = self.answer(view) {
                return Decision::showing(action, showing);
            }
        }
        Decision::resign(self.account.explain())
    }

    fn end_game(&mut self, result: &GameResult) {
        self.queue(&HostMessage::EndGame { result: *result });
        self.send();
    }
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        if self.account.fault.is_none() {
            self.queue(&HostMessage::Quit);
            self.send();
            // Its input closes once everything queued is written; it has a moment to exit.
            self.process.close_input();
            self.process.await_exit(QUIT_GRACE);
        }
        // Whatever it left running goes with it (the program itself too, if it has not exited).
        self.process.end();
    }
}

/// A program's line in backquotes, as it may be shown: escaped, and cut short when long.
fn quote(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return "an empty line".to_owned();
    }
    format!("`{}`", untrusted(text, QUOTE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_builtin_agent_or_a_program() {
        let program: AgentChoice = "cmd:python3  agent.py --fast".parse().unwrap();
        let words = vec!["python3".to_owned(), "agent.py".to_owned(), "--fast".to_owned()];
        assert_eq!(program, AgentChoice::Program(Program { words: words.clone(), version: gin_protocol::VERSION }));
        assert_eq!(program.to_string(), "cmd:python3 agent.py --fast");
        let old: AgentChoice = " cmd-v1:python3 agent.py --fast".parse().unwrap();
        assert_eq!(old, AgentChoice::Program(Program { words, version: 1 }));
        assert_eq!(old.to_string(), "cmd-v1:python3 agent.py --fast");
        assert!(names_program(" cmd-v1:x") && names_program("cmd:x") && !names_program("cmdv1:x"));
        assert!("cmd-v1:".parse::<AgentChoice>().unwrap_err().to_string().contains("no program given"));
        let builtin: AgentChoice = "expert:knock_bias=2".parse().unwrap();
        assert!(builtin.is_expert());
        assert_eq!(builtin.to_string(), "expert:knock_bias=2");
        assert!("cmd:  ".parse::<AgentChoice>().unwrap_err().to_string().contains("no program given"));
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("3600"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_timeout("0.001"), Ok(Duration::from_millis(1)));
        for bad in ["0", "-1", "3600.5", "1e19", "inf", "NaN", "soon"] {
            let err = parse_timeout(bad).unwrap_err();
            assert!(err.contains("from 0.001 to 3600 seconds"), "{bad}: {err}");
        }
    }

    #[test]
    fn long_lines_are_cut_in_messages() {
        assert_eq!(quote("hello"), "`hello`");
        assert_eq!(quote(""), "an empty line");
        assert!(quote(&"x".repeat(500)).ends_with("x…`"));
        assert_eq!(quote(&"x".repeat(500)).chars().count(), QUOTE + 3);
        // What a program sends never drives the terminal.
        assert_eq!(quote("\u{1b}]0;owned\u{7}\u{0}"), "`\\u{1b}]0;owned\\u{7}\\u{0}`");
    }
}
