//! `gin league`: a round robin of agents, every pairing a `gin sim` match of mirrored pairs,
//! with each pairing's win rate and points per hand, and ratings (Bradley–Terry, on the Elo
//! scale) with their intervals.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::num::NonZero;
use std::path::PathBuf;
use std::thread;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use gin_ai::registry::AgentParams;
use gin_arena::{AgentChoice, ArenaError, Forfeit, League, LeaguePlan, LeagueWatch, Pairing, Watch};
use gin_tui::render::plural;

use crate::agents;
use crate::rules_arg::RulesArg;
use crate::sim::{self, Progress, decimal, percent, thousands};
use crate::status::{Failure, Outcome};

/// `gin help league`.
pub(crate) const LONG_ABOUT: &str = "\
Play a round robin between agents: every agent against every other, each pairing a match of \
mirrored pairs of games as in `gin sim` (the same deals with the seats swapped), and report \
each pairing's win rate with its 95% interval and points per hand, and a rating for every agent.

Agents are named by specs as in `gin sim` ({agents}, with \
settings, or cmd:PROGRAM ARGS...). Every pairing plays the same deals: game pair k of every \
pairing is dealt from the seed derived from --seed and k, so differences between pairings are \
the agents', not the cards'. The results are the same for a seed whatever --threads is.

The ratings fit the Bradley–Terry model to all the games: agent i beats agent j with probability \
1 / (1 + 10^((Rj - Ri) / 400)), the Elo scale, with the ratings' mean at 0. Each pairing counts \
half a win for each side on top of its games, so that an agent that wins every game still has a \
finite rating. The 95% interval of a rating is ±1.96 standard errors, from the model's Fisher \
information (the ratings being centred on their mean). A gap of 70 points is a win rate of about \
60%, 190 points about 75%.

Output: the ratings, the pairings (row against column: the row's win rate), and each pairing in \
full (games, wins, the interval, points per hand of each side) on standard output; a progress \
bar on standard error while it runs, when that is a terminal, and otherwise a line there as each \
pairing ends. With --json, one JSON object: \
`seed`, `games_per_pairing`, `agents`, `pairings` (each with `a`, `b`, `games`, `a_wins`, \
`b_wins`, `a_win_rate`, `a_ci95`, `hands`, `a_points_per_hand`, `b_points_per_hand`, \
`abandoned`, `forfeits`) and `ratings` (each with `agent`, `rating`, `ci95`, `games`, `wins`), \
best first. It holds no timings: the same seed gives the same bytes.

Exit status: 0 when the league was played, 2 for a bad option (fewer than two agents, one named \
twice, an unknown agent or setting), 1 if a game could not be run or a match was stopped by \
--max-forfeits.";

/// The examples after `gin league --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin league                                         (the built-in league, 400 games a pairing)
  gin league simple expert mc-fast --rules eaai --games 4000
  gin league expert expert:danger_weight=5 --games 2000 --json";

/// The arguments of `gin league`.
#[derive(Debug, Args)]
pub(crate) struct LeagueArgs {
    /// The agents, two or more: specs as in `gin sim` [default: {league}, one of each style].
    #[arg(value_name = "SPEC")]
    agents: Vec<AgentChoice>,

    /// The games of each pairing, played as mirrored pairs (an odd number is rounded up).
    #[arg(long, value_name = "N", default_value = "400", value_parser = sim::parse_games)]
    games: u64,

    /// The seed, from 0 to 2^64 - 1: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = sim::parse_seed)]
    seed: u64,

    #[command(flatten)]
    rules: RulesArg,

    /// The number of threads that play games, from 1 to 256; by default, one per core. The
    /// results do not depend on it.
    #[arg(long, value_name = "T", value_parser = sim::parse_threads)]
    threads: Option<usize>,

    /// A JSON file of parameters for the expert and mc agents, as for `gin sim`.
    #[arg(long, value_name = "FILE")]
    param: Option<PathBuf>,

    /// Print one JSON object, for programs, instead of the tables.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    limits: agents::LimitArgs,

    /// Stop once one agent has forfeited this many games of one pairing; 0 never stops.
    #[arg(long, value_name = "N", default_value = "10", value_parser = sim::parse_forfeits)]
    max_forfeits: u64,
}

/// Runs `gin league`.
pub(crate) fn run(args: &LeagueArgs) -> Result<Outcome, Failure> {
    let (rules, source) = args.rules.load().map_err(Failure::usage)?;
    let params = match &args.param {
        Some(path) => agents::load_params(path).map_err(Failure::usage)?,
        None => AgentParams::default(),
    };
    let agents: Vec<AgentChoice> = if args.agents.is_empty() {
        gin_ai::registry::default_league()
            .map(|name| name.parse().expect("the built-in league's names are agents"))
            .collect()
    } else {
        args.agents.clone()
    };
    for agent in &agents {
        agent.check(&params).with_context(|| format!("{agent}")).map_err(Failure::usage)?;
    }
    let pairs = args.games.div_ceil(2);
    let threads = args
        .threads
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, NonZero::get).min(gin_arena::MAX_THREADS));
    let threads = threads.min(usize::try_from(pairs).unwrap_or(usize::MAX));
    let host = args.limits.host();
    let plan = LeaguePlan {
        agents: &agents,
        rules: &rules,
        seed: args.seed,
        pairs,
        params: &params,
        host: &host,
        max_forfeits: args.max_forfeits,
    };
    let total = pairs * 2 * plan.pairings().len() as u64;
    let started = Instant::now();
    let watch = LeagueProgress { progress: Progress::new(total), started };
    let played = plan.play(threads, &watch);
    watch.progress.clear();
    if let Some(note) = host.closing_note() {
        eprintln!("{note}");
    }
    let league = match played {
        Ok(league) => league,
        Err(err @ ArenaError::League(_)) => return Err(Failure::usage(anyhow::Error::new(err))),
        Err(err) => return Err(sim::stopped(err).into()),
    };
    let elapsed = started.elapsed();
    let mut out = BufWriter::new(io::stdout().lock());
    let text = if args.json {
        serde_json::to_string(&league).context("cannot write the league as JSON")? + "\n"
    } else {
        render(&league, &format!("{source}, {}", plural(threads as u64, "thread")))
    };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).context("cannot write to standard output")?;
    let seconds = elapsed.as_secs_f64();
    eprintln!(
        "{} games in {seconds:.2} s: {} games/s on {}",
        thousands(total),
        thousands((total as f64 / seconds.max(1e-9)).round() as u64),
        plural(threads as u64, "thread")
    );
    Ok(Outcome::Success)
}

/// The league's progress: the bar over all its games, and without a bar a line a pairing.
struct LeagueProgress {
    progress: Progress,
    started: Instant,
}

impl Watch for LeagueProgress {
    fn games_done(&self, done: u64) {
        self.progress.games_done(done);
    }

    fn forfeit(&self, forfeit: &Forfeit) {
        self.progress.forfeit(forfeit);
    }
}

impl LeagueWatch for LeagueProgress {
    fn pairing_done(&self, done: usize, total: usize, pairing: &Pairing) {
        if !self.progress.shows_bar() {
            // No bar to watch (a log file, a pipe): a line per pairing says how far a long run is.
            eprintln!(
                "gin league: pairing {done} of {total} done: {} against {}, {} wins {:.1}% ({:.0} s so far)",
                pairing.a,
                pairing.b,
                pairing.a,
                pairing.a_win_rate * 100.0,
                self.started.elapsed().as_secs_f64()
            );
        }
    }
}

/// The tables: ratings, the win-rate grid, and each pairing in full.
fn render(league: &League, settings: &str) -> String {
    let mut text = String::new();
    let pairings = league.pairings.len();
    // Writing to a String cannot fail.
    let _ = writeln!(
        text,
        "gin league: {} agents, {} of {} games (mirrored pairs), seed {}, {settings}\n",
        league.agents.len(),
        plural(pairings as u64, "pairing"),
        league.games_per_pairing,
        league.seed
    );
    let width = league.agents.iter().map(String::len).max().unwrap_or(0).max(5);
    let _ = writeln!(text, "Ratings (Bradley–Terry, Elo scale, mean 0; 95% interval)");
    for (rank, rating) in league.ratings.iter().enumerate() {
        let _ = writeln!(
            text,
            "{:>3}. {:<width$}  {:>+5.0}  [{:>+5.0}, {:>+5.0}]  won {} of {} games ({})",
            rank + 1,
            rating.agent,
            rating.rating,
            rating.ci95[0],
            rating.ci95[1],
            rating.wins,
            rating.games,
            percent((rating.games > 0).then(|| rating.wins as f64 / rating.games as f64)),
        );
    }
    // The grid: the row's win rate against the column.
    let _ = writeln!(text, "\nWin rate of the row against the column");
    let cell = 7.max(league.agents.iter().map(|name| name.len().min(12)).max().unwrap_or(0));
    let _ = write!(text, "{:width$}", "");
    for name in &league.agents {
        let short: String = name.chars().take(12).collect();
        let _ = write!(text, "  {short:>cell$}");
    }
    let _ = writeln!(text);
    for row in &league.agents {
        let _ = write!(text, "{row:<width$}");
        for column in &league.agents {
            let rate = league.pairings.iter().find_map(|p| {
                if &p.a == row && &p.b == column {
                    Some(p.a_win_rate)
                } else if &p.b == row && &p.a == column {
                    Some(if p.games == 0 { 0.0 } else { p.b_wins as f64 / p.games as f64 })
                } else {
                    None
                }
            });
            let _ = write!(text, "  {:>cell$}", percent(rate));
        }
        let _ = writeln!(text);
    }
    let _ = writeln!(text, "\nPairings (a against b)");
    let pair_width = league.pairings.iter().map(|p| p.a.len() + p.b.len() + 4).max().unwrap_or(0);
    let _ = writeln!(
        text,
        "{:pair_width$}  {:>6}  {:>6}  {:>15}  {:>8}  {:>8}",
        "", "games", "a wins", "95% interval", "a pts/h", "b pts/h"
    );
    for p in &league.pairings {
        let _ = writeln!(
            text,
            "{:pair_width$}  {:>6}  {:>6}  {:>15}  {:>8}  {:>8}",
            format!("{} vs {}", p.a, p.b),
            p.games,
            percent(Some(p.a_win_rate)),
            format!("{} to {}", percent(Some(p.a_ci95[0])), percent(Some(p.a_ci95[1]))),
            decimal(p.a_points_per_hand, 2),
            decimal(p.b_points_per_hand, 2),
        );
    }
    let abandoned: u64 = league.pairings.iter().map(|p| p.abandoned).sum();
    let forfeits: u64 = league.pairings.iter().map(|p| p.forfeits).sum();
    if abandoned + forfeits > 0 {
        let _ = writeln!(text, "\n{abandoned} games abandoned, {forfeits} forfeited");
    }
    text
}
