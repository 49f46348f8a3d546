//! [`Host`]: where agent programs run (their time limits, the run's folder of logs, the keeper),
//! and `ExternalAgent`, a program that plays over the external-agent protocol (docs/protocol.md).
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

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gin_cards::untrusted;
use gin_engine::{Action, Agent, Decision, Event, PlayerView};
use gin_protocol::{Answer, HostMessage, MAX_LINE, v1};
use gin_rules::{ByPlayer, GameResult, Player, Ruleset, Showing};

use crate::choice::Program;
use logs::{LogDir, LogHandle};
pub(crate) use process::KEEPER_FAILED;
use process::{Line, Process, StderrState};

/// How long an agent program may take over one decision, in seconds, unless told otherwise.
pub const DEFAULT_TIMEOUT: &str = "10";

/// How long an agent program may take to start, on top of its first decision, unless told
/// otherwise.
pub const DEFAULT_STARTUP: &str = "10";

/// How long a program that was told to quit may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// The longest part of a program's line quoted in a message.
const QUOTE: usize = 120;

/// How long an agent program may take: over each decision, and once more, at its first
/// decision, to start up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The most time over one decision.
    pub decision: Duration,
    /// The time it may take to start, on top of its first decision's.
    pub startup: Duration,
}

impl Default for Limits {
    /// [`DEFAULT_TIMEOUT`] seconds a decision, and as many more to start.
    fn default() -> Limits {
        let seconds = |text: &str| Duration::from_secs(text.parse().unwrap_or(10));
        Limits { decision: seconds(DEFAULT_TIMEOUT), startup: seconds(DEFAULT_STARTUP) }
    }
}

/// The shortest time limit an agent program may be given, in seconds.
pub const MIN_LIMIT_SECONDS: f64 = 0.001;

/// The longest time limit an agent program may be given, in seconds (an hour): the sum of both
/// limits, added to the clock, stays far from any overflow.
pub const MAX_LIMIT_SECONDS: f64 = 3600.0;

/// `--agent-timeout SECONDS` and `--agent-startup SECONDS`: from [`MIN_LIMIT_SECONDS`] to
/// [`MAX_LIMIT_SECONDS`].
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
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
                crate::error::size(logs::RUN_CAP)
            )
        };
        format!("program `{}` {what} ({log})", self.program)
    }
}

/// Where and how agent programs run: their time limits, the run's folder of logs, and on Linux
/// the keeper that ends everything a program starts. One per command run, shared by every
/// program it starts.
#[derive(Clone, Debug)]
pub struct Host {
    /// The programs' time limits.
    pub limits: Limits,
    logs: Arc<LogDir>,
    /// The binary whose `agent-keeper` command keeps each program, where there is one.
    keeper: Option<PathBuf>,
}

impl Host {
    /// A host with these limits, its programs' logs in a folder of the run's own (64 MiB at most
    /// in all), without a keeper ([`Host::with_keeper`]).
    pub fn new(limits: Limits) -> Host {
        Host { limits, logs: Arc::new(LogDir::new(logs::RUN_CAP)), keeper: None }
    }

    /// The same host, starting every program under `keeper`: a binary whose `agent-keeper --
    /// PROGRAM ARGS...` runs [`crate::keeper::run`] (the `gin` binary is one). On Linux the keeper
    /// ends everything a program starts, even what leaves its process group; without one, the
    /// program's process group is ended, which a process that calls `setsid` escapes.
    #[must_use]
    pub fn with_keeper(mut self, keeper: Option<PathBuf>) -> Host {
        self.keeper = keeper;
        self
    }

    /// What the command says at the end of its run: logs that were removed to stay within the
    /// cap, if any were.
    pub fn closing_note(&self) -> Option<String> {
        let evicted = self.logs.evicted();
        (evicted > 0).then(|| {
            format!(
                "note: {evicted} agent {} removed (the oldest first) to keep this run's agent logs within {}{}",
                if evicted == 1 { "log was" } else { "logs were" },
                crate::error::size(logs::RUN_CAP),
                self.logs.folder().map(|folder| format!(", in {}", folder.display())).unwrap_or_default()
            )
        })
    }
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
            name: crate::choice::AgentChoice::Program(program.clone()).to_string(),
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
        let lines = if self.version == v1::VERSION {
            v1::downgrade(message).iter().map(v1::HostMessage::to_line).collect()
        } else {
            vec![message.to_line()]
        };
        for line in lines {
            self.pending.extend_from_slice(line.as_bytes());
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
                self.fail(format!("sent a line longer than {}", crate::error::size(MAX_LINE as u64)));
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
                self.fail(format!("answered with a line longer than {}", crate::error::size(MAX_LINE as u64)));
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
