//! `gin sim`: two agents play many games as mirrored pairs, on several threads, and the command
//! reports how each did.

use std::fmt::Write as _;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZero;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, anyhow};
use clap::Args;
use gin_ai::registry::AgentParams;
use gin_arena::{AgentChoice, AgentFigures, ArenaError, Figures, Forfeit, MAX_THREADS, Watch};
use gin_tui::render::plural;

use crate::agents::{self, load_params};
use crate::rules_arg::{RulesArg, RulesSource};
use crate::status::{Failure, Outcome};

/// `gin help sim`: what the command does and what each figure means.
pub(crate) const LONG_ABOUT: &str = "\
Play two agents against each other many times and report how each did.

Agents are named by a spec: {agents} (docs/agents.md), with \
settings as `expert:knock_max_late=7,danger_weight=2` or `mc:samples=500,threads=2`. `--param FILE` \
reads parameters from a JSON file first (any name it leaves out keeps its default): the expert's at \
the top level, the search's in an \"mc\" object, as {\"danger_weight\": 3, \"mc\": {\"samples\": 500}}. \
The expert parameters apply to expert and to the expert inside mc and mc-fast; the spec's settings \
apply on top. `gin settings` lists every setting with its range, default and meaning.

`cmd:PROGRAM ARGS...` is a program that plays over the external-agent protocol \
(docs/protocol.md), started once per thread and side and again after a forfeit. The rest of the spec is split on \
whitespace, with no quoting: a path or an argument with spaces needs a wrapper script; \
`cmd-v1:PROGRAM ARGS...` is one written to the protocol's first version. A \
program that crashes, takes longer than --agent-timeout over a decision, or answers something \
other than a legal action forfeits that game (a note on standard error names the program, the \
reason, and the log file that holds its standard error); the other games go on, until one agent \
has forfeited --max-forfeits games (10 by default): then the match stops with exit status 1. A \
program's start-up has its own time, --agent-startup, on top of its first decision's.

Mirrored pairs: the games are played in pairs from the same seed, so with the same deals. In the \
first game of a pair `a` sits in seat one and `b` in seat two; in the second they swap seats, so \
each agent is dealt the cards the other was dealt. Luck of the deal cancels out within a pair and \
differences show up in far fewer games. Pair k uses the seed derived from --seed and k, so the \
same --seed gives the same games, and the same results whatever --threads is. An odd --games is \
rounded up to the next even number, to keep every pair whole (a note says so).

The figures, for each agent:
  games won       wins out of all games played (an abandoned game is won by nobody, a forfeit \
is lost by the agent that forfeits), with its 95% confidence interval: the Wilson score interval \
of the win rate
  points/hand     hand points scored, per completed hand (dead hands included)
  hands won by    knock, gin, big gin, undercut: how the hands it won ended
  undercut/knock  how often a knock it declared with deadwood was undercut
  knockable       in how many hands it could knock after some draw, and on average at which of \
its turns it first could (a turn is one of its draws: from the stock, from the pile, or taking \
the first upcard; \"could knock\" means some discard it may play leaves deadwood within the \
hand's knock limit)
  pickups         the share of its discards that the opponent took from the pile
and for the match: the hands completed, the dead hands (no knock before the stock ran down), \
ties (under the no-score tie rule), the average hand length in turns (both players together), \
abandoned games (no winner within the engine's hand limit) and forfeits (an action the referee \
refused; the game is lost).

Output: a table on standard output, the time taken and the games per second on standard error, \
and a progress bar on standard error while it runs, when that is a terminal. With --json, one \
JSON object instead of the table: `games`, `pairs`, `seed`, `hands`, `dead_hands`, `ties`, \
`abandoned`, `forfeits`, `turns_per_hand`, and `a` and `b`, each with `name` (the spec), `wins`, \
`losses`, `forfeits`, `win_rate`, `ci95` ([low, high]), `points`, `points_per_hand`, \
`hands_won`, `knocks`, `gins`, `big_gins`, `undercuts` (hands won each way), \
`knocks_declared`, `undercuts_suffered`, `undercuts_suffered_per_knock`, `knockable_hands`, \
`knockable_hand_rate`, `turns_to_knockable`, `discards`, `discards_picked_up` and \
`discard_pickup_rate`. A rate with nothing to count is null. It holds no timings: the same \
seed gives the same bytes.

Exit status: 0 when the games were played (forfeits included), 2 for a bad option (an unknown \
agent or setting, --games 0, --threads 0, an unreadable --rules or --param file), 1 if a game \
could not be run (such as an agent program that cannot be started) or the match was stopped by \
--max-forfeits.";

/// The examples after `gin sim --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin sim --a expert                                (against simple, 1000 games)
  gin sim --a simple --b greedy --games 10000 --rules eaai
  gin sim --a expert:knock_max_late=7 --b expert --param tuned.json --seed 42 --json
  gin sim --a random --b random --threads 1
  gin sim --a 'cmd:python3 docs/examples/random_agent.py' --b simple --games 100";

/// The arguments of `gin sim`.
#[derive(Debug, Args)]
pub(crate) struct SimArgs {
    /// The first agent: {agents}, with settings as
    /// expert:key=value,... (`gin settings` lists them), or cmd:PROGRAM ARGS...
    #[arg(long = "a", value_name = "SPEC")]
    a: AgentChoice,

    /// The second agent, by default simple (the EAAI competition's reference player).
    #[arg(long = "b", value_name = "SPEC", default_value = "simple")]
    b: AgentChoice,

    /// The number of games, played as mirrored pairs (an odd number is rounded up).
    #[arg(long, value_name = "N", default_value = "1000", value_parser = parse_games)]
    games: u64,

    /// The match seed, from 0 to 2^64 - 1: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = parse_seed)]
    seed: u64,

    #[command(flatten)]
    rules: RulesArg,

    /// The number of threads that play games, from 1 to 256; by default, one per core. The
    /// results do not depend on it.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,

    /// A JSON file of parameters, such as {"knock_max_late": 7, "mc": {"samples": 500}}, for the expert and mc agents.
    #[arg(long, value_name = "FILE")]
    param: Option<PathBuf>,

    /// Print one JSON object, for programs, instead of the table.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    limits: agents::LimitArgs,

    /// Stop the match once one agent has forfeited this many games (an agent program that keeps
    /// failing); 0 never stops.
    #[arg(long, value_name = "N", default_value = "10", value_parser = parse_forfeits)]
    max_forfeits: u64,
}

/// The most games one run plays (at 12,000 games a second, more than two years): every count
/// derived from it (pairs, games played, points) stays far from overflowing.
const MAX_GAMES: u64 = 1_000_000_000_000;

/// `--games`: at least one, at most [`MAX_GAMES`].
pub(crate) fn parse_games(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("at least one game must be played".to_owned()),
        Ok(games) if games > MAX_GAMES => Err(format!("at most {MAX_GAMES} games in one run")),
        Ok(games) => Ok(games),
        Err(err) => Err(format!("{err}: expected a number of games")),
    }
}

/// `--seed`: any whole number from 0 to 2^64 - 1.
pub(crate) fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|err| format!("{err}: expected a seed, a whole number from 0 to {}", u64::MAX))
}

/// `--max-forfeits`: from 0 (never stop) to [`MAX_GAMES`].
pub(crate) fn parse_forfeits(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(count) if count <= MAX_GAMES => Ok(count),
        Ok(_) => Err(format!("at most {MAX_GAMES}, the most games one run plays (0 never stops)")),
        Err(err) => Err(format!("{err}: expected a number of forfeits from 0 (never stop) to {MAX_GAMES}")),
    }
}

/// `--threads`: from 1 to [`MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(threads @ 1..) if threads <= MAX_THREADS as u64 => Ok(threads as usize),
        Ok(0) => Err(format!("at least one thread is needed (from 1 to {MAX_THREADS})")),
        Ok(_) => Err(format!("at most {MAX_THREADS} threads: more only share the same cores")),
        Err(err) => Err(format!("{err}: expected a number of threads from 1 to {MAX_THREADS}")),
    }
}

/// Runs `gin sim`.
pub(crate) fn run(args: &SimArgs) -> Result<Outcome, Failure> {
    let (rules, source) = args.rules.load().map_err(Failure::usage)?;
    let params = match &args.param {
        Some(path) => load_params(path).map_err(Failure::usage)?,
        None => AgentParams::default(),
    };
    let specs = [args.a.clone(), args.b.clone()];
    for (side, spec) in ["a", "b"].into_iter().zip(&specs) {
        spec.check(&params).with_context(|| format!("--{side} {spec}")).map_err(Failure::usage)?;
    }
    if args.param.is_some() && !specs.iter().any(AgentChoice::takes_params) {
        eprintln!("note: --param is for the {}, and neither --a nor --b is one", crate::agents::param_takers());
    }
    let pairs = args.games.div_ceil(2);
    if args.games % 2 == 1 {
        eprintln!("note: --games {} is odd: playing {} games, {pairs} mirrored pairs", args.games, pairs * 2);
    }
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZero::get).min(MAX_THREADS));
    let threads = threads.min(usize::try_from(pairs).unwrap_or(usize::MAX));
    let host = args.limits.host();
    let plan = gin_arena::Match {
        rules: &rules,
        seed: args.seed,
        pairs,
        specs: &specs,
        params: &params,
        host: &host,
        max_forfeits: args.max_forfeits,
    };

    let started = Instant::now();
    let progress = Progress::new(pairs * 2);
    let played = plan.play(threads, &progress);
    progress.clear();
    if let Some(note) = host.closing_note() {
        eprintln!("{note}");
    }
    let tally = played.map_err(stopped)?;
    let elapsed = started.elapsed();

    let names = specs.each_ref().map(ToString::to_string);
    let figures = Figures::new(&tally, [&names[0], &names[1]], args.seed);
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(&mut out, &figures).context("cannot write to standard output")?;
        out.write_all(b"\n").context("cannot write to standard output")?;
    } else {
        let settings = Settings { source: &source, threads };
        out.write_all(render_table(&figures, &settings).as_bytes()).context("cannot write to standard output")?;
    }
    out.flush().context("cannot write to standard output")?;
    let seconds = elapsed.as_secs_f64();
    eprintln!(
        "{} games in {seconds:.2} s: {} games/s on {}",
        tally.games,
        thousands((tally.games as f64 / seconds.max(1e-9)).round() as u64),
        plural(threads as u64, "thread")
    );
    Ok(Outcome::Success)
}

/// A progress bar on standard error, and the notes of forfeits: what a match's [`Watch`] hears,
/// shown.
pub(crate) struct Progress {
    /// The bar, when standard error is a terminal: the games in all, and when the run began.
    bar: Option<(u64, Instant)>,
}

impl Progress {
    const WIDTH: usize = 30;

    /// A bar for `total` games, starting now, if standard error is a terminal (the notes go there
    /// in any case).
    pub(crate) fn new(total: u64) -> Progress {
        Progress { bar: io::stderr().is_terminal().then(|| (total, Instant::now())) }
    }

    /// Whether a bar is drawn.
    pub(crate) fn shows_bar(&self) -> bool {
        self.bar.is_some()
    }

    /// Clears the bar.
    pub(crate) fn clear(&self) {
        if self.bar.is_some() {
            let mut stderr = io::stderr().lock();
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
        }
    }
}

impl Watch for Progress {
    fn games_done(&self, done: u64) {
        let Some((total, started)) = self.bar else { return };
        let done = done.min(total);
        let fraction = if total == 0 { 1.0 } else { done as f64 / total as f64 };
        let filled = ((fraction * Self::WIDTH as f64) as usize).min(Self::WIDTH);
        let seconds = started.elapsed().as_secs_f64();
        let rate = done as f64 / seconds.max(1e-9);
        let left = if done == 0 { String::from("?") } else { format!("{:.0}", ((total - done) as f64 / rate).ceil()) };
        let mut stderr = io::stderr().lock();
        // A failed write to the terminal only loses the bar.
        let _ = write!(
            stderr,
            "\r\x1b[2K[{}{}] {:>3.0}%  {done}/{total} games  {} games/s  {left} s left",
            "#".repeat(filled),
            ".".repeat(Self::WIDTH - filled),
            fraction * 100.0,
            thousands(rate as u64),
        );
        let _ = stderr.flush();
    }

    fn forfeit(&self, forfeit: &Forfeit) {
        // What a program sent is escaped where it is quoted; the whole line is made safe for the
        // terminal again here.
        let note = format!(
            "note: game seed {}, --a in seat {}: --{} forfeits: {}",
            forfeit.seed,
            forfeit.a_seat.index() + 1,
            forfeit.side.name(),
            forfeit.reason
        );
        self.clear();
        eprintln!("{}", gin_tui::render::message(&note));
    }
}

/// The error of a match or a league as the command line says it: a side by its option.
pub(crate) fn stopped(err: ArenaError) -> anyhow::Error {
    match err {
        ArenaError::Forfeits { side, agent, count, played, games, last } => anyhow!(
            "--{} {agent} forfeited {count} games, the most --max-forfeits allows: the match was stopped after \
             {played} of {games} games (the last forfeit: {last})",
            side.name()
        ),
        ArenaError::Pairing { a, b, error } => stopped(*error).context(format!("{a} against {b}")),
        other => anyhow::Error::new(other),
    }
}

/// The settings shown above the table that are not in the figures.
struct Settings<'a> {
    source: &'a RulesSource,
    threads: usize,
}

/// The table: the settings, one column per agent, then the match's figures.
fn render_table(figures: &Figures, settings: &Settings<'_>) -> String {
    let agents = [&figures.a, &figures.b];
    let mut rows: Vec<(String, [String; 2])> = Vec::new();
    let mut row = |label: &str, cell: &dyn Fn(&AgentFigures) -> String| {
        rows.push((label.to_owned(), agents.map(cell)));
    };
    let games = figures.games;
    row("games won", &|f| format!("{} ({})", f.wins, percent(Some(f.win_rate))));
    row("  95% interval", &|f| format!("{} to {}", percent(Some(f.ci95[0])), percent(Some(f.ci95[1]))));
    row("games lost", &|f| f.losses.to_string());
    row("  by forfeit", &|f| f.forfeits.to_string());
    row("points per hand", &|f| decimal(f.points_per_hand, 2));
    row("hands won", &|f| f.hands_won.to_string());
    row("  by knock", &|f| f.knocks.to_string());
    row("  by gin", &|f| f.gins.to_string());
    row("  by big gin", &|f| f.big_gins.to_string());
    row("  by undercut", &|f| f.undercuts.to_string());
    row("knocks (not gin)", &|f| f.knocks_declared.to_string());
    row("  undercut", &|f| format!("{} ({})", f.undercuts_suffered, percent(f.undercuts_suffered_per_knock)));
    row("knockable hands", &|f| format!("{} ({})", f.knockable_hands, percent(f.knockable_hand_rate)));
    row("  turns to knockable", &|f| decimal(f.turns_to_knockable, 2));
    row("discards", &|f| f.discards.to_string());
    row("  picked up", &|f| format!("{} ({})", f.discards_picked_up, percent(f.discard_pickup_rate)));

    let headers = ["a: ".to_owned() + &figures.a.name, "b: ".to_owned() + &figures.b.name];
    let label_width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0) + 2;
    let widths: [usize; 2] = std::array::from_fn(|i| {
        rows.iter().map(|(_, cells)| cells[i].len()).chain([headers[i].len()]).max().unwrap_or(0)
    });
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        text,
        "gin sim: {games} games ({} mirrored pairs), seed {}, {}, {}\n",
        figures.pairs,
        figures.seed,
        settings.source,
        plural(settings.threads as u64, "thread")
    );
    let _ =
        writeln!(text, "{:label_width$}{:>w0$}  {:>w1$}", "", headers[0], headers[1], w0 = widths[0], w1 = widths[1]);
    for (label, [a, b]) in &rows {
        let _ = writeln!(text, "{label:label_width$}{a:>w0$}  {b:>w1$}", w0 = widths[0], w1 = widths[1]);
    }
    let hands = figures.hands;
    let _ = writeln!(
        text,
        "\nhands {hands}: {} dead ({}), {} tied; {} turns per hand on average (draws of both players)",
        figures.dead_hands,
        percent((hands > 0).then(|| figures.dead_hands as f64 / hands as f64)),
        figures.ties,
        decimal(figures.turns_per_hand, 1),
    );
    let _ = writeln!(text, "games {games}: {} abandoned, {} forfeited", figures.abandoned, figures.forfeits);
    text
}

/// `51.2%`, or `-` when there is nothing to show.
pub(crate) fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".to_owned(), |rate| format!("{:.1}%", rate * 100.0))
}

/// A number with `places` decimals, or `-`.
pub(crate) fn decimal(value: Option<f64>, places: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.places$}"))
}

/// `12,345`.
pub(crate) fn thousands(number: u64) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(percent(Some(0.5123)), "51.2%");
        assert_eq!(percent(None), "-");
        assert_eq!(decimal(Some(2.0 / 3.0), 2), "0.67");
    }

    #[test]
    fn games_and_threads_must_be_positive() {
        assert_eq!(parse_games("10"), Ok(10));
        assert!(parse_games("0").unwrap_err().contains("at least one game"));
        assert!(parse_games("-3").is_err());
        assert_eq!(parse_threads("4"), Ok(4));
        assert_eq!(parse_threads("256"), Ok(256));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_seed("18446744073709551616").unwrap_err().contains("from 0 to 18446744073709551615"));
        assert_eq!(parse_forfeits("0"), Ok(0));
        assert!(parse_forfeits("1000000000001").unwrap_err().contains("at most 1000000000000"));
        assert!(parse_threads("0").unwrap_err().contains("at least one thread"));
        assert!(parse_threads("257").unwrap_err().contains("at most 256 threads"));
        assert!(parse_threads("100000").unwrap_err().contains("at most 256 threads"));
        assert!(parse_threads("99999999999999999999999").unwrap_err().contains("from 1 to 256"));
    }
}
