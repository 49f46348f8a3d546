//! `ExternalAgent`: a program that plays over the external-agent protocol (docs/protocol.md),
//! and [`AgentChoice`], an agent spec that is either built in or `cmd:PROGRAM ARGS...`.
//!
//! The host never trusts the program. It writes to the program from a thread of its own (a
//! program that does not read cannot block the game), reads its answers on another thread, and
//! waits for each answer at most the decision timeout. A program that crashes, hangs, prints
//! something that is not an action, or names an action (or cards to show) the game refuses
//! forfeits the game; the agent then answers an action the engine refuses, so that the runner
//! ends the game, and keeps the reason in its [`Report`] for the command to print. The cards a
//! program names with a knock, big gin or a defense are read into a [`Showing`] that
//! [`Agent::show`] hands to the referee.

use std::collections::VecDeque;
use std::fmt;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use gin_ai::registry::AgentParams;
use gin_ai::registry::{self, AgentSpec, SpecError};
use gin_engine::{Action, Agent, Event, PlayerView};
use gin_rules::{ByPlayer, GameResult, Player, Ruleset, Showing};

use crate::protocol::{self, DecideView, ToAgent, VERSION};

/// The prefix of an agent spec that names a program.
pub(crate) const PROGRAM_PREFIX: &str = "cmd:";

/// How long an agent program may take over one decision, in seconds, unless told otherwise.
pub(crate) const DEFAULT_TIMEOUT: &str = "10";

/// How long an agent program may take to start, on top of its first decision, unless told
/// otherwise.
pub(crate) const DEFAULT_STARTUP: &str = "10";

/// How long a program that was told to quit may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// How much of a program's standard error its log keeps: the last MiB (the file may reach
/// twice that while the program runs).
const LOG_KEEP: usize = 1 << 20;

/// The longest line a program may send.
const MAX_LINE: u64 = 1 << 20;

/// The longest part of a program's line quoted in a message.
const QUOTE: usize = 120;

/// An agent by spec: built in (`simple`, `expert:knock_bias=2`) or a program (`cmd:python3 a.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AgentChoice {
    /// A built-in agent.
    Builtin(AgentSpec),
    /// A program and its arguments, split on whitespace.
    Program(Vec<String>),
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

/// Whether `text` names a program (`cmd:...`), as [`AgentChoice::from_str`] reads it.
pub(crate) fn names_program(text: &str) -> bool {
    text.trim_start().starts_with(PROGRAM_PREFIX)
}

impl FromStr for AgentChoice {
    type Err = ChoiceError;

    fn from_str(text: &str) -> Result<AgentChoice, ChoiceError> {
        match text.trim_start().strip_prefix(PROGRAM_PREFIX) {
            Some(command) => {
                let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
                if words.is_empty() {
                    return Err(ChoiceError::NoProgram);
                }
                Ok(AgentChoice::Program(words))
            }
            None => text.parse().map(AgentChoice::Builtin).map_err(ChoiceError::Spec),
        }
    }
}

impl fmt::Display for AgentChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentChoice::Builtin(spec) => spec.fmt(f),
            AgentChoice::Program(words) => write!(f, "{PROGRAM_PREFIX}{}", words.join(" ")),
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
    /// The most time an agent program (cmd:...) may take over one decision.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_TIMEOUT, value_parser = parse_timeout)]
    agent_timeout: Duration,
    /// The time an agent program may take to start, on top of its first decision's.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_STARTUP, value_parser = parse_timeout)]
    agent_startup: Duration,
}

impl LimitArgs {
    /// The limits these options give.
    pub(crate) fn limits(&self) -> Limits {
        Limits { decision: self.agent_timeout, startup: self.agent_startup }
    }
}

/// Builds the agent a choice names: a built-in agent, or a started program with its time
/// limits. The report says why a program forfeited (a built-in agent's report stays empty).
///
/// # Errors
/// An unknown built-in agent or a bad setting; a program that cannot be started.
pub(crate) fn build_agent(
    choice: &AgentChoice,
    params: &AgentParams,
    limits: Limits,
) -> Result<(Box<dyn Agent + Send>, Report)> {
    match choice {
        AgentChoice::Builtin(spec) => Ok((registry::build(spec, params)?, Report::default())),
        AgentChoice::Program(words) => {
            let agent = ExternalAgent::start(words, limits)?;
            let report = agent.report.clone();
            Ok((Box::new(agent), report))
        }
    }
}

/// `--agent-timeout SECONDS`: a positive number of seconds.
pub(crate) fn parse_timeout(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => {
            Duration::try_from_secs_f64(seconds).map_err(|err| err.to_string())
        }
        Ok(_) => Err("the timeout must be a positive number of seconds".to_owned()),
        Err(err) => Err(format!("{err}: expected a number of seconds")),
    }
}

/// What went wrong with an agent program, shared between the agent and the command that runs it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Report(Arc<Mutex<ReportState>>);

#[derive(Debug, Default)]
struct ReportState {
    /// The program's command line; empty for a built-in agent.
    program: String,
    /// Where its standard error goes.
    log: PathBuf,
    /// What reached the log so far, and whether the program's standard error has closed.
    stderr: Arc<StderrState>,
    /// Why the host gave up on it.
    fault: Option<String>,
    /// Its last answer.
    last_reply: Option<String>,
}

impl Report {
    fn lock(&self) -> std::sync::MutexGuard<'_, ReportState> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Why the program forfeited, given the engine's reason for refusing its action: `None` for a
    /// built-in agent.
    pub(crate) fn explain(&self, refused: &str) -> Option<String> {
        let state = self.lock();
        if state.program.is_empty() {
            return None;
        }
        let what = match (&state.fault, &state.last_reply) {
            (Some(fault), _) => fault.clone(),
            (None, Some(reply)) => format!("answered {}, which the game refuses: {refused}", quote(reply)),
            (None, None) => format!("was refused: {refused}"),
        };
        // The log is named when the program wrote something there (an empty one is removed): a
        // program that just ended has a moment to have its last words copied.
        let deadline = Instant::now() + Duration::from_millis(500);
        while !state.stderr.closed.load(Ordering::Acquire) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        let log = if state.stderr.bytes.load(Ordering::Acquire) > 0 {
            format!("its standard error is in {}", state.log.display())
        } else {
            "it wrote nothing to its standard error".to_owned()
        };
        Some(format!("program `{}` {what} ({log})", state.program))
    }

    pub(crate) fn fault(&self) -> bool {
        self.lock().fault.is_some()
    }

    fn set_fault(&self, fault: String) {
        let mut state = self.lock();
        if state.fault.is_none() {
            state.fault = Some(fault);
        }
    }
}

/// A line from the program, or why there are no more.
enum Line {
    Text(String),
    TooLong,
    Closed,
}

/// An agent program, started with piped standard input and output and its standard error in a
/// log file.
pub(crate) struct ExternalAgent {
    name: String,
    child: Child,
    /// Batches of messages for the writer thread; `None` once closed.
    to_program: Option<Sender<Vec<u8>>>,
    lines: Receiver<Line>,
    timeout: Duration,
    /// The start-up allowance, until the first decision spends it.
    startup: Option<Duration>,
    log: PathBuf,
    /// The thread that copies the program's standard error into `log`.
    stderr: Option<thread::JoinHandle<()>>,
    report: Report,
    seat: Player,
    points: ByPlayer<u32>,
    /// The messages not yet handed to the writer.
    pending: Vec<u8>,
    /// The cards the program's last answer shows, for [`Agent::show`].
    showing: Option<Showing>,
    /// The number of the last `decide` sent.
    decisions: u64,
    /// Whether the program has echoed a decision's `id`: from then on every answer must.
    echoes: bool,
}

impl ExternalAgent {
    /// Starts `words[0]` with the rest as its arguments.
    ///
    /// # Errors
    /// The log file cannot be created, or the program cannot be started.
    pub(crate) fn start(words: &[String], limits: Limits) -> Result<ExternalAgent> {
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let (program, args) = words.split_first().ok_or_else(|| anyhow!("no program given"))?;
        let number = STARTED.fetch_add(1, Ordering::Relaxed);
        let log = std::env::temp_dir().join(format!("gin-agent-{}-{number}.log", std::process::id()));
        let file = File::create(&log).with_context(|| format!("cannot create the log file `{}`", log.display()))?;
        let command_line = words.join(" ");
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        // A group of its own, so that it is ended with every process it starts.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .inspect_err(|_| {
                let _ = fs::remove_file(&log);
            })
            .with_context(|| format!("cannot start the agent program `{command_line}`"))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr_state = Arc::new(StderrState::default());
        let stderr = {
            let log = log.clone();
            let state = Arc::clone(&stderr_state);
            thread::spawn(move || keep_log(stderr, file, &log, LOG_KEEP, &state))
        };
        let (to_program, batches) = mpsc::channel();
        thread::spawn(move || write_batches(stdin, &batches));
        let (line_sender, lines) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, &line_sender));
        let report = Report(Arc::new(Mutex::new(ReportState {
            program: command_line.clone(),
            log: log.clone(),
            stderr: Arc::clone(&stderr_state),
            fault: None,
            last_reply: None,
        })));
        Ok(ExternalAgent {
            name: format!("{PROGRAM_PREFIX}{command_line}"),
            child,
            to_program: Some(to_program),
            lines,
            timeout: limits.decision,
            startup: Some(limits.startup),
            log,
            stderr: Some(stderr),
            report,
            seat: Player::One,
            points: ByPlayer::default(),
            pending: Vec::new(),
            showing: None,
            decisions: 0,
            echoes: false,
        })
    }

    /// Queues one message.
    fn queue(&mut self, message: &ToAgent<'_>) {
        if self.report.fault() {
            return;
        }
        // Serializing these types to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut self.pending, message);
        self.pending.push(b'\n');
    }

    /// Hands the queued messages to the writer thread.
    fn send(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let batch = std::mem::take(&mut self.pending);
        if let Some(sender) = &self.to_program {
            // A closed writer means the program's input is closed; the reader will tell.
            let _ = sender.send(batch);
        }
    }

    /// How the program ended, if it did within a moment.
    fn exit_status(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Records why the program forfeits.
    fn fail(&mut self, fault: String) {
        self.report.set_fault(fault);
        self.pending.clear();
        self.to_program = None;
    }

    /// The program's answer to a decision in `view`, with the cards it shows, or `None` when it
    /// gave none that can be played.
    fn answer(&mut self, view: &PlayerView<'_>) -> Option<(Action, Option<Showing>)> {
        // The program answers nothing but decisions: anything waiting is out of turn.
        match self.lines.try_recv() {
            Ok(Line::Text(text)) => {
                self.fail(format!("sent {} when no decision was asked for", quote(&text)));
                return None;
            }
            Ok(Line::TooLong) => {
                self.fail(format!("sent a line longer than {MAX_LINE} bytes"));
                return None;
            }
            Ok(Line::Closed) | Err(mpsc::TryRecvError::Disconnected) => {
                let fault = self.closed();
                self.fail(fault);
                return None;
            }
            Err(mpsc::TryRecvError::Empty) => {}
        }
        self.send();
        let startup = self.startup.take();
        let wait = self.timeout + startup.unwrap_or_default();
        match self.lines.recv_timeout(wait) {
            Ok(Line::Text(text)) => match protocol::parse_answer(text.trim()) {
                Ok(answer)
                    if answer.id.is_some_and(|id| id != self.decisions) || (self.echoes && answer.id.is_none()) =>
                {
                    let which = answer.id.map_or_else(|| "no decision".to_owned(), |id| format!("decision {id}"));
                    self.fail(format!(
                        "sent {} out of turn: it answers {which}, and decision {} was asked",
                        quote(&text),
                        self.decisions
                    ));
                    None
                }
                Ok(answer) => match answer.showing(view) {
                    Ok(showing) => {
                        self.echoes |= answer.id.is_some();
                        self.report.lock().last_reply = Some(text);
                        Some((answer.action, showing))
                    }
                    Err(err) => {
                        self.fail(format!("answered {}, which the game refuses: {err}", quote(&text)));
                        None
                    }
                },
                Err(err) => {
                    self.fail(format!("answered {}, which is not an action: {err}", quote(&text)));
                    None
                }
            },
            Ok(Line::TooLong) => {
                self.fail(format!("answered with a line longer than {MAX_LINE} bytes"));
                None
            }
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let fault = self.closed();
                self.fail(fault);
                None
            }
            Err(RecvTimeoutError::Timeout) => {
                self.end_group();
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

    /// Ends the program and every process of its group.
    fn end_group(&mut self) {
        #[cfg(unix)]
        if let Ok(id) = i32::try_from(self.child.id()) {
            let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(id), nix::sys::signal::Signal::SIGKILL);
        }
        let _ = self.child.kill();
    }

    /// Why the program's output closed.
    fn closed(&mut self) -> String {
        match self.exit_status() {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code} before answering"),
                None => format!("was killed ({status}) before answering"),
            },
            None => "closed its standard output before answering".to_owned(),
        }
    }
}

/// An action the engine refuses whatever the phase: so that the game ends in a forfeit.
fn refused_action(legal: &[Action]) -> Action {
    if legal.contains(&Action::LayOff) { Action::PassUpcard } else { Action::LayOff }
}

impl Agent for ExternalAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.seat = seat;
        self.points = ByPlayer::default();
        self.queue(&ToAgent::StartGame { version: VERSION, seat, rules, seed });
    }

    fn observe(&mut self, event: &Event) {
        match event {
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                let hand = hands[self.seat].unwrap_or_default();
                let (number, dealer, upcard, knock_limit, points) =
                    (*number, *dealer, *upcard, *knock_limit, self.points);
                self.queue(&ToAgent::StartHand { number, dealer, upcard, knock_limit, hand, points });
            }
            Event::HandEnded { points, .. } => self.points = *points,
            _ => {}
        }
        self.queue(&ToAgent::Event { event });
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.showing = None;
        if !self.report.fault() {
            self.decisions += 1;
            self.queue(&ToAgent::Decide { id: self.decisions, legal, view: DecideView::of(view) });
            if let Some((action, showing)) = self.answer(view) {
                self.showing = showing;
                return action;
            }
        }
        refused_action(legal)
    }

    /// The cards the program named with the action it just answered (`None`: it left them to
    /// the referee).
    fn show(&mut self, _view: &PlayerView<'_>, _action: Action) -> Option<Showing> {
        self.showing.take()
    }

    fn end_game(&mut self, result: &GameResult) {
        self.queue(&ToAgent::EndGame { result });
        self.send();
    }
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        let faulted = self.report.fault();
        if !faulted {
            self.queue(&ToAgent::Quit);
            self.send();
        }
        // Closing the writer closes the program's input once everything queued is written.
        self.to_program = None;
        let deadline = Instant::now() + QUIT_GRACE;
        if !faulted {
            // Wait for the program to close its output (it usually exits then), then for its exit.
            while let Ok(Line::Text(_) | Line::TooLong) =
                self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {}
            while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
                thread::sleep(Duration::from_millis(1));
            }
        }
        // Whatever it left running in its group goes with it (the program itself too, if it
        // has not exited).
        self.end_group();
        let _ = self.child.wait();
        // The log is complete once the program's standard error is closed; an empty one is not
        // kept.
        if let Some(copier) = self.stderr.take() {
            let _ = copier.join();
        }
        if fs::metadata(&self.log).is_ok_and(|meta| meta.len() == 0) {
            let _ = fs::remove_file(&self.log);
        }
    }
}

/// The thread that copies a program's standard error into `file` (at `path`), keeping its last
/// `keep` bytes: the file is cut back to them whenever it reaches twice that, and at the end.
fn keep_log(mut stderr: impl Read, file: File, path: &Path, keep: usize, state: &StderrState) {
    let mut file = Some(file);
    let mut written = 0usize;
    // The last `keep` bytes, in order, to cut the file back to.
    let mut tail: VecDeque<u8> = VecDeque::new();
    let mut buffer = [0u8; 8192];
    let cut_back = |file: &mut Option<File>, tail: &VecDeque<u8>| -> usize {
        let (front, back) = tail.as_slices();
        *file = File::create(path).ok();
        if let Some(fresh) = file {
            let _ = fresh.write_all(front).and_then(|()| fresh.write_all(back));
        }
        tail.len()
    };
    loop {
        let n = match stderr.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let chunk = &buffer[..n];
        tail.extend(chunk);
        if tail.len() > keep {
            tail.drain(..tail.len() - keep);
        }
        if let Some(open) = &mut file {
            let _ = open.write_all(chunk);
        }
        written += n;
        state.bytes.fetch_add(n as u64, Ordering::Release);
        if written >= 2 * keep {
            written = cut_back(&mut file, &tail);
        }
    }
    if written > keep {
        cut_back(&mut file, &tail);
    }
    state.closed.store(true, Ordering::Release);
}

/// How far the copy of a program's standard error has got.
#[derive(Debug, Default)]
struct StderrState {
    /// Bytes the program wrote there.
    bytes: AtomicU64,
    /// Whether it has closed (the log is then complete).
    closed: std::sync::atomic::AtomicBool,
}

/// The writer thread: writes each batch and flushes, until the agent closes the channel or the
/// program's input is closed.
fn write_batches(stdin: ChildStdin, batches: &Receiver<Vec<u8>>) {
    let mut stdin = stdin;
    while let Ok(batch) = batches.recv() {
        if stdin.write_all(&batch).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// The reader thread: sends each line of the program's output, then `Closed`.
fn read_lines(stdout: impl Read, lines: &Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut buffer = Vec::new();
        let line = match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => Line::Closed,
            Ok(_) if buffer.last() != Some(&b'\n') && buffer.len() as u64 >= MAX_LINE => Line::TooLong,
            Ok(_) => Line::Text(String::from_utf8_lossy(&buffer).trim_end_matches(['\n', '\r']).to_owned()),
        };
        let last = !matches!(line, Line::Text(_));
        if lines.send(line).is_err() || last {
            return;
        }
    }
}

/// A program's line in backquotes, cut short when long.
fn quote(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return "an empty line".to_owned();
    }
    match text.char_indices().nth(QUOTE) {
        Some((at, _)) => format!("`{}...`", &text[..at]),
        None => format!("`{text}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_builtin_agent_or_a_program() {
        let program: AgentChoice = "cmd:python3  agent.py --fast".parse().unwrap();
        assert_eq!(program, AgentChoice::Program(vec!["python3".into(), "agent.py".into(), "--fast".into()]));
        assert_eq!(program.to_string(), "cmd:python3 agent.py --fast");
        let builtin: AgentChoice = "expert:knock_bias=2".parse().unwrap();
        assert!(builtin.is_expert());
        assert_eq!(builtin.to_string(), "expert:knock_bias=2");
        assert!("cmd:  ".parse::<AgentChoice>().unwrap_err().to_string().contains("no program given"));
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("soon").is_err());
    }

    #[test]
    fn the_refused_action_is_never_legal() {
        assert_eq!(refused_action(&[Action::LayOff]), Action::PassUpcard);
        assert_eq!(refused_action(&[Action::DrawStock]), Action::LayOff);
    }

    #[test]
    fn long_lines_are_cut_in_messages() {
        assert_eq!(quote("hello"), "`hello`");
        assert_eq!(quote(""), "an empty line");
        assert!(quote(&"x".repeat(500)).ends_with("...`"));
    }
}
