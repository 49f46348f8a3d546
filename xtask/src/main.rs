//! `cargo xtask`: the project's chores.
//!
//! - `cargo xtask regress [--bless] [--filter TEXT]`: plays the fixed-seed matches of
//!   `fixtures/regress/matches.txt` and compares their logs with the snapshots beside it.
//! - `cargo xtask fuzz [--actions N] [--inputs N] [--seed S]`: random games under random rules
//!   with legal and illegal moves, checked after every step, and arbitrary input for every
//!   parser (see [`fuzz`]).
//! - `cargo xtask train-knock [--games N] [--seed S] [--resume] [--threads T] [--out PATH]`:
//!   trains the knock calibration of `mc` and `mc-fast` by self-play (see [`train`]).
//! - `cargo xtask tidy [--fix]`: checks that every crate folder is in the table of crates
//!   (`tidy::CRATES`) and depends only on the workspace crates it allows, that every dependency comes from
//!   `[workspace.dependencies]`, that every crate takes the workspace lints, and that the docs'
//!   settings tables are those the code's settings tables give (`--fix` rewrites them).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod doc_tables;
mod fuzz;
mod regress;
mod tidy;
mod train;

/// The help of each command: its synopsis, then what it does.
const COMMANDS: [(&str, &str); 4] = [
    (
        "regress",
        "  regress [--bless] [--filter TEXT]
          play the fixed-seed matches of fixtures/regress/matches.txt and compare each log with
          its snapshot; on a difference show the first differing hands and exit non-zero.
          --bless rewrites the snapshots and lists what changed; --filter plays only the
          matches whose name contains TEXT",
    ),
    (
        "fuzz",
        "  fuzz [--actions N] [--inputs N] [--seed S]
          play random games under random rules (every preset, random house rules) with random
          legal and illegal moves and showings, checking after every step that cards are
          conserved, views hide what they must, refusals change nothing, logs replay to the
          same game and scores add up; then throw inputs of every size (mutated real inputs,
          arbitrary bytes, runs blown up to 2 MiB) at every parser (cards, rules files,
          settings, logs, actions, agent specs and parameters, protocol messages both ways,
          saves), checking that a refusal is a short message that changes nothing and that
          what is accepted reads back the same.
          Defaults: 1000000 actions, 100000 inputs, seed 1; a release build is ten times
          faster: cargo run --release -p xtask -- fuzz (docs/fuzz.md)",
    ),
    (
        "tidy",
        "  tidy [--fix]
          check the layering of the crates, the rules for their manifests, and that the
          settings tables of docs/rules.md and docs/agents.md are those the code gives;
          --fix rewrites the tables",
    ),
    (
        "train-knock",
        "  train-knock [--games N] [--seed S] [--resume] [--threads T] [--out PATH]
          train the knock calibration of mc and mc-fast: mc-fast (uncalibrated) plays games
          against simple, expert, holder and itself, and at each knock decision it searches
          the hand is played out both ways (knock, or play on) to learn the true gain of
          knocking. Writes the fitted weights and the sums they come from to PATH after every
          200 games; --resume goes on from the games PATH holds (same seed) up to N in all.
          Defaults: 12000 games, seed 1, every core (1 to 256 threads),
          crates/ai/data/knock-calibration.json",
    ),
];

/// `cargo xtask --help`: every command.
fn usage() -> String {
    let commands: Vec<&str> = COMMANDS.iter().map(|(_, text)| *text).collect();
    format!("usage: cargo xtask <command>\n\ncommands:\n{}", commands.join("\n"))
}

/// `cargo xtask COMMAND --help`: that command's part of [`usage`].
fn command_usage(command: &str) -> Option<String> {
    COMMANDS
        .iter()
        .find(|(name, _)| *name == command)
        .map(|(_, text)| format!("usage: cargo xtask {}", text.trim_start()))
}

/// `cargo xtask COMMAND --help` (or -h) anywhere among its options: that command's help.
fn help_asked(args: &[String]) -> Option<String> {
    let (command, options) = args.split_first()?;
    options.iter().any(|arg| arg == "-h" || arg == "--help").then(|| command_usage(command)).flatten()
}

/// [`command_usage`] of a command that has one.
fn usage_of(command: &str) -> String {
    command_usage(command).unwrap_or_else(usage)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(text) = help_asked(&args) {
        println!("{text}");
        return ExitCode::SUCCESS;
    }
    let result = match args.first().map(String::as_str) {
        Some("tidy") => run_tidy(&args[1..]),
        Some("regress") => run_regress(&args[1..]),
        Some("fuzz") => run_fuzz(&args[1..]),
        Some("train-knock") => run_train_knock(&args[1..]),
        Some("-h" | "--help") | None => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(anyhow::anyhow!("unknown command `{other}`\n\n{}", usage())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn run_fuzz(args: &[String]) -> anyhow::Result<()> {
    let mut plan = fuzz::Plan { actions: 1_000_000, inputs: 100_000, seed: 1 };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| anyhow::anyhow!("{flag} needs a value\n\n{}", usage_of("fuzz")))?;
        let number: u64 = value
            .parse()
            .map_err(|_| anyhow::anyhow!("{flag} takes a whole number, found `{value}`\n\n{}", usage_of("fuzz")))?;
        match flag.as_str() {
            "--actions" => plan.actions = number,
            "--inputs" => plan.inputs = number,
            "--seed" => plan.seed = number,
            other => anyhow::bail!("unknown option `{other}` for fuzz\n\n{}", usage_of("fuzz")),
        }
    }
    let tally = fuzz::run(plan)?;
    println!(
        "fuzz: {} games ({} left unfinished after 20000 steps), {} game actions ({} legal, {} illegal, {} showings) \
         in {:.1} s; {} parser inputs ({} of them saves; the longest {} bytes) in {:.1} s; every check held",
        tally.games,
        tally.abandoned,
        tally.legal + tally.illegal + tally.showings,
        tally.legal,
        tally.illegal,
        tally.showings,
        tally.seconds_games,
        tally.inputs,
        tally.saves,
        tally.longest,
        tally.seconds_inputs
    );
    Ok(())
}

fn run_train_knock(args: &[String]) -> anyhow::Result<()> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from).min(256);
    let out = workspace_root().join("crates/ai/data/knock-calibration.json");
    let mut plan = train::Plan { games: 12000, seed: 1, resume: false, out, threads };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--resume" {
            plan.resume = true;
            continue;
        }
        let value =
            rest.next().ok_or_else(|| anyhow::anyhow!("{flag} needs a value\n\n{}", usage_of("train-knock")))?;
        let number = || -> anyhow::Result<u64> {
            value.parse().map_err(|_| {
                anyhow::anyhow!("{flag} takes a whole number, found `{value}`\n\n{}", usage_of("train-knock"))
            })
        };
        match flag.as_str() {
            "--games" => plan.games = number()?,
            "--seed" => plan.seed = number()?,
            "--threads" => {
                let threads = number()?;
                anyhow::ensure!((1..=256).contains(&threads), "--threads takes 1 to 256, found {threads}");
                plan.threads = usize::try_from(threads)?;
            }
            "--out" => plan.out = PathBuf::from(value),
            other => anyhow::bail!("unknown option `{other}` for train-knock\n\n{}", usage_of("train-knock")),
        }
    }
    let file = train::run(&plan)?;
    let always: f64 = file.stats.label_sum / file.stats.decisions.max(1) as f64;
    println!(
        "train-knock: {} games, {} knock decisions (always knocking gains {always:+.4} of a game each); weights \
         written to {}",
        file.games,
        file.stats.decisions,
        plan.out.display()
    );
    Ok(())
}

fn run_tidy(args: &[String]) -> anyhow::Result<()> {
    let fix = match args {
        [] => false,
        [flag] if flag == "--fix" => true,
        [other, ..] => anyhow::bail!("unknown option `{other}` for tidy\n\n{}", usage_of("tidy")),
    };
    let root = workspace_root();
    let mut problems = tidy::check_workspace(&root)?;
    problems.extend(doc_tables::check(&root, fix)?);
    if problems.is_empty() {
        println!(
            "tidy: every crate is in the table of crates and depends only on what it allows, the manifests are \
             tidy, and the docs' settings tables match the code"
        );
        return Ok(());
    }
    for problem in &problems {
        eprintln!("- {problem}");
    }
    anyhow::bail!("tidy found {} problem(s)", problems.len())
}

fn run_regress(args: &[String]) -> anyhow::Result<()> {
    let (mut bless, mut filter) = (false, String::new());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--bless" => bless = true,
            "--filter" => {
                filter = rest.next().ok_or_else(|| anyhow::anyhow!("--filter needs the text to match"))?.clone();
            }
            other => anyhow::bail!("unknown option `{other}` for regress\n\n{}", usage_of("regress")),
        }
    }
    let dir = workspace_root().join("fixtures/regress");
    let comparisons = regress::check(&dir, &filter, &|_| {})?;
    if comparisons.is_empty() {
        anyhow::bail!("no match name contains `{filter}`");
    }
    let changed: Vec<&regress::Comparison> = comparisons.iter().filter(|c| c.diff.is_some()).collect();
    if bless {
        for comparison in &changed {
            let path = dir.join(format!("{}.log", comparison.name));
            std::fs::write(&path, &comparison.log)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            println!("blessed {}", comparison.name);
        }
        println!("regress: {} of {} snapshots rewritten", changed.len(), comparisons.len());
        return Ok(());
    }
    for comparison in &changed {
        println!("{} differs:", comparison.name);
        println!("{}", comparison.diff.as_deref().unwrap_or_default());
    }
    println!(
        "regress: {} matches, {} the same, {} different",
        comparisons.len(),
        comparisons.len() - changed.len(),
        changed.len()
    );
    if changed.is_empty() {
        Ok(())
    } else {
        anyhow::bail!(
            "the logs of {} match(es) changed: if the change is meant, run `cargo xtask regress --bless` and commit the new snapshots",
            changed.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_answers_help() {
        for (name, _) in COMMANDS {
            for flag in ["--help", "-h"] {
                let args = [name.to_owned(), "--seed".to_owned(), flag.to_owned()];
                let text = help_asked(&args).unwrap_or_else(|| panic!("`cargo xtask {name} {flag}` gives no help"));
                assert!(text.starts_with(&format!("usage: cargo xtask {name} ")), "{text}");
            }
        }
        assert_eq!(help_asked(&["fuzz".to_owned(), "--actions".to_owned(), "5".to_owned()]), None);
        assert!(usage().contains("fuzz [--actions N]") && usage().contains("tidy [--fix]"));
    }
}
