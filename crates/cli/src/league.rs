//! `gin league`: a round robin of agents, every pairing a `gin sim` match of mirrored pairs,
//! with each pairing's win rate and points per hand, and ratings (Bradley–Terry, on the Elo
//! scale) with their intervals.

use std::fmt::Write as _;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZero;
use std::path::PathBuf;
use std::thread;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use gin_ai::registry::AgentParams;
use serde::Serialize;

use crate::external::{self, AgentChoice};
use crate::rules_arg::RulesArg;
use crate::sim::{self, Match, Progress, decimal, percent, plural, thousands};
use crate::stats::{Side, Tally, wilson_95};
use crate::{Failure, Outcome};

/// `gin help league`.
pub(crate) const LONG_ABOUT: &str = "\
Play a round robin between agents: every agent against every other, each pairing a match of \
mirrored pairs of games as in `gin sim` (the same deals with the seats swapped), and report \
each pairing's win rate with its 95% interval and points per hand, and a rating for every agent.

Agents are named by specs as in `gin sim` (random, taker, greedy, simple, expert, holder, mc-fast, mc, with \
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

/// The league when no agents are named: one agent of each style (knock at once, pile taker, low
/// holder, gin hunter, searcher).
const DEFAULT_AGENTS: [&str; 5] = ["simple", "taker", "holder", "expert", "mc-fast"];

/// The arguments of `gin league`.
#[derive(Debug, Args)]
pub(crate) struct LeagueArgs {
    /// The agents, two or more: specs as in `gin sim` [default: simple taker holder expert
    /// mc-fast, one of each style].
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
    limits: external::LimitArgs,

    /// Stop once one agent has forfeited this many games of one pairing; 0 never stops.
    #[arg(long, value_name = "N", default_value = "10", value_parser = sim::parse_forfeits)]
    max_forfeits: u64,
}

/// One pairing's figures, `a` being the agent listed first.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Pairing {
    a: String,
    b: String,
    games: u64,
    a_wins: u64,
    b_wins: u64,
    a_win_rate: f64,
    a_ci95: [f64; 2],
    hands: u64,
    a_points_per_hand: Option<f64>,
    b_points_per_hand: Option<f64>,
    abandoned: u64,
    forfeits: u64,
}

/// One agent's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Rating {
    agent: String,
    /// On the Elo scale, the ratings' mean at 0.
    rating: f64,
    ci95: [f64; 2],
    games: u64,
    wins: u64,
}

/// Everything the league reports (`--json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
struct League {
    seed: u64,
    games_per_pairing: u64,
    agents: Vec<String>,
    pairings: Vec<Pairing>,
    ratings: Vec<Rating>,
}

/// Runs `gin league`.
pub(crate) fn run(args: &LeagueArgs) -> Result<Outcome, Failure> {
    let (rules, source) = args.rules.load().map_err(Failure::usage)?;
    let params = match &args.param {
        Some(path) => sim::load_params(path).map_err(Failure::usage)?,
        None => AgentParams::default(),
    };
    let agents: Vec<AgentChoice> = if args.agents.is_empty() {
        DEFAULT_AGENTS.iter().map(|name| name.parse().expect("the built-in league's names are agents")).collect()
    } else {
        args.agents.clone()
    };
    let names: Vec<String> = agents.iter().map(ToString::to_string).collect();
    if agents.len() < 2 {
        return Err(Failure::usage(anyhow!("a league needs two agents or more, found {}", agents.len())));
    }
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(Failure::usage(anyhow!(
                "`{name}` is named twice: every agent plays every other once (give a copy other settings to \
                 compare it with itself)"
            )));
        }
    }
    for agent in &agents {
        agent.check(&params).with_context(|| format!("{agent}")).map_err(Failure::usage)?;
    }
    let pairs = args.games.div_ceil(2);
    let pairings: Vec<(usize, usize)> =
        (0..agents.len()).flat_map(|i| (i + 1..agents.len()).map(move |j| (i, j))).collect();
    let threads =
        args.threads.unwrap_or_else(|| thread::available_parallelism().map_or(1, NonZero::get).min(sim::MAX_THREADS));
    let threads = threads.min(usize::try_from(pairs).unwrap_or(usize::MAX));
    let total = pairs * 2 * pairings.len() as u64;
    let started = Instant::now();
    let progress = io::stderr().is_terminal().then(|| Progress::new(total));
    let host = args.limits.host();
    let mut played = Vec::with_capacity(pairings.len());
    for &(i, j) in &pairings {
        let specs = [agents[i].clone(), agents[j].clone()];
        let plan = Match {
            rules: &rules,
            seed: args.seed,
            pairs,
            specs: &specs,
            params: &params,
            host: &host,
            max_forfeits: args.max_forfeits,
        };
        let tally = match plan.play(threads, progress.as_ref()) {
            Ok(tally) => tally,
            Err(err) => {
                if let Some(note) = host.closing_note() {
                    eprintln!("{note}");
                }
                return Err(err.context(format!("{} against {}", names[i], names[j])).into());
            }
        };
        if let Some(progress) = &progress {
            progress.add_before(pairs * 2);
        }
        let result = pairing(&tally, &names[i], &names[j]);
        if progress.is_none() {
            // No bar to watch (a log file, a pipe): a line per pairing says how far a long run is.
            eprintln!(
                "gin league: pairing {} of {} done: {} against {}, {} wins {:.1}% ({:.0} s so far)",
                played.len() + 1,
                pairings.len(),
                names[i],
                names[j],
                names[i],
                result.a_win_rate * 100.0,
                started.elapsed().as_secs_f64()
            );
        }
        played.push(result);
    }
    if let Some(note) = host.closing_note() {
        eprintln!("{note}");
    }
    let elapsed = started.elapsed();
    let league = League {
        seed: args.seed,
        games_per_pairing: pairs * 2,
        ratings: ratings(&names, &played),
        agents: names,
        pairings: played,
    };
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

/// A pairing's figures from its match's tally (`a` was the match's side A).
fn pairing(tally: &Tally, a: &str, b: &str) -> Pairing {
    let (side_a, side_b) = (tally.agent(Side::A), tally.agent(Side::B));
    let per_hand = |points: u64| (tally.hands > 0).then(|| points as f64 / tally.hands as f64);
    Pairing {
        a: a.to_owned(),
        b: b.to_owned(),
        games: tally.games,
        a_wins: side_a.wins,
        b_wins: side_b.wins,
        a_win_rate: if tally.games == 0 { 0.0 } else { side_a.wins as f64 / tally.games as f64 },
        a_ci95: wilson_95(side_a.wins, tally.games),
        hands: tally.hands,
        a_points_per_hand: per_hand(side_a.points),
        b_points_per_hand: per_hand(side_b.points),
        abandoned: tally.abandoned,
        forfeits: side_a.forfeits + side_b.forfeits,
    }
}

/// The Elo scale: 400 points are a factor of 10 in the odds.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Bradley–Terry ratings of `names` from the pairings' wins (half a win added to each side of
/// each pairing), fitted by the minorization–maximization iteration, on the Elo scale with mean 0,
/// with 95% intervals from the Fisher information; best first.
fn ratings(names: &[String], pairings: &[Pairing]) -> Vec<Rating> {
    let n = names.len();
    let index = |name: &str| names.iter().position(|known| known == name).expect("a pairing of the league's agents");
    // wins[i][j]: games i won against j (with the prior's half win); played[i][j] = played[j][i].
    let mut wins = vec![vec![0.0; n]; n];
    let mut played = vec![vec![0.0; n]; n];
    let (mut games, mut won) = (vec![0; n], vec![0; n]);
    for pairing in pairings {
        let (a, b) = (index(&pairing.a), index(&pairing.b));
        wins[a][b] += pairing.a_wins as f64 + 0.5;
        wins[b][a] += pairing.b_wins as f64 + 0.5;
        let decided = (pairing.a_wins + pairing.b_wins) as f64 + 1.0;
        played[a][b] += decided;
        played[b][a] += decided;
        games[a] += pairing.games;
        games[b] += pairing.games;
        won[a] += pairing.a_wins;
        won[b] += pairing.b_wins;
    }
    // Strengths (gamma = e^rating); the iteration converges for any connected league.
    let mut gamma = vec![1.0; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let total_wins: f64 = wins[i].iter().sum();
            let denominator: f64 = (0..n).filter(|&j| j != i).map(|j| played[i][j] / (gamma[i] + gamma[j])).sum();
            next[i] = if denominator > 0.0 { total_wins / denominator } else { gamma[i] };
        }
        // Geometric mean 1: ratings with mean 0.
        let log_mean = next.iter().map(|g: &f64| g.ln()).sum::<f64>() / n as f64;
        next.iter_mut().for_each(|g| *g /= log_mean.exp());
        let change = next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let strength: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    // The Fisher information (a graph Laplacian: each row sums to 0) and its pseudo-inverse, the
    // covariance of ratings centred on their mean: (L + J/n)^-1 - J/n.
    let mut matrix = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let p = 1.0 / (1.0 + (strength[j] - strength[i]).exp());
                let information = played[i][j] * p * (1.0 - p);
                matrix[i][j] -= information;
                matrix[i][i] += information;
            }
        }
    }
    for row in &mut matrix {
        row.iter_mut().for_each(|cell| *cell += 1.0 / n as f64);
    }
    let inverse = invert(matrix);
    let mut ratings: Vec<Rating> = (0..n)
        .map(|i| {
            let variance = inverse.as_ref().map_or(f64::NAN, |inverse| inverse[i][i] - 1.0 / n as f64);
            let half = 1.959_963_984_540_054 * variance.max(0.0).sqrt() * ELO;
            let rating = strength[i] * ELO;
            Rating {
                agent: names[i].clone(),
                rating,
                ci95: [rating - half, rating + half],
                games: games[i],
                wins: won[i],
            }
        })
        .collect();
    ratings.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.agent.cmp(&b.agent)));
    ratings
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting; `None` when
/// it is singular.
fn invert(mut matrix: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut inverse: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for column in 0..n {
        let pivot = (column..n).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-12 {
            return None;
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = matrix[column][column];
        for k in 0..n {
            matrix[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in 0..n {
            if row != column {
                let factor = matrix[row][column];
                for k in 0..n {
                    matrix[row][k] -= factor * matrix[column][k];
                    inverse[row][k] -= factor * inverse[column][k];
                }
            }
        }
    }
    Some(inverse)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(a: &str, b: &str, a_wins: u64, b_wins: u64) -> Pairing {
        let games = a_wins + b_wins;
        Pairing {
            a: a.to_owned(),
            b: b.to_owned(),
            games,
            a_wins,
            b_wins,
            a_win_rate: a_wins as f64 / games as f64,
            a_ci95: wilson_95(a_wins, games),
            hands: games * 4,
            a_points_per_hand: None,
            b_points_per_hand: None,
            abandoned: 0,
            forfeits: 0,
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn ratings_follow_the_win_rates_and_centre_on_zero() {
        // b beats a 3 games in 4 and c beats b 3 in 4, and c beats a 9 in 10: about +190 each step.
        let played = [pairing("a", "b", 1000, 3000), pairing("b", "c", 1000, 3000), pairing("a", "c", 400, 3600)];
        let ratings = ratings(&names(&["a", "b", "c"]), &played);
        let order: Vec<&str> = ratings.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(order, ["c", "b", "a"]);
        let sum: f64 = ratings.iter().map(|r| r.rating).sum();
        assert!(sum.abs() < 1e-6, "{sum}");
        // The fitted gap between neighbours is the Elo gap of 75% (190.8), give or take what the
        // third pairing pulls.
        let gap = ratings[0].rating - ratings[1].rating;
        assert!((170.0..215.0).contains(&gap), "{gap}");
        for rating in &ratings {
            let half = (rating.ci95[1] - rating.ci95[0]) / 2.0;
            assert!(half > 5.0 && half < 40.0, "{rating:?}");
            assert_eq!(rating.games, 8000);
        }
    }

    #[test]
    fn even_agents_rate_even_and_a_clean_sweep_stays_finite() {
        let even = ratings(&names(&["x", "y"]), &[pairing("x", "y", 500, 500)]);
        assert!(even.iter().all(|r| r.rating.abs() < 1e-6), "{even:?}");
        // Twice the games, a narrower interval.
        let wide = even[0].ci95[1] - even[0].ci95[0];
        let more = ratings(&names(&["x", "y"]), &[pairing("x", "y", 1000, 1000)]);
        assert!(more[0].ci95[1] - more[0].ci95[0] < wide * 0.75, "{more:?}");
        let sweep = ratings(&names(&["x", "y"]), &[pairing("x", "y", 100, 0)]);
        assert!(sweep[0].rating.is_finite() && sweep[0].rating > 300.0, "{sweep:?}");
    }

    #[test]
    fn the_inverse_of_a_matrix_and_of_none() {
        let inverse = invert(vec![vec![2.0, 1.0], vec![1.0, 3.0]]).unwrap();
        let expected = [[0.6, -0.2], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inverse[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
