//! `gin`, the command line of the gin Gin Rummy engine.
//!
//! `gin play` is a game against the AI at the terminal, saved after every move;
//! `gin analyze` shows a hand's best melds, its deadwood, and whether it can knock or is gin;
//! `gin sim` plays two agents against each other many times and reports how each did;
//! `gin settings` lists every setting of the rules and the agents;
//! `gin bot` runs a built-in agent as an external agent (docs/protocol.md), and any agent spec
//! may be `cmd:PROGRAM ARGS...`, a program that plays over that protocol;
//! `gin completions` and `gin man` print shell completions and manual pages made from this
//! command line's own definition.
//! `gin play`, `gin replay` and `gin saves` are the game at the terminal, [`gin_tui`]: this crate
//! turns their options into its own and its failures into exit statuses.
//! Only this crate and `gin-tui` print: the other libraries return values, the commands render them.

mod agents;
mod analyze;
mod bot;
mod completions;
mod league;
mod man;
mod play_args;
mod rules_arg;
mod settings;
mod sim;
mod status;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use status::{EXIT_BAD_INPUT, Failure, Outcome};

/// A Gin Rummy engine: play against the AI, analyze hands, pit agents against each other.
#[derive(Debug, Parser)]
#[command(
    name = "gin",
    version,
    about,
    long_about = "A Gin Rummy engine: play against the AI, analyze hands, pit agents against each other.\n\n\
        Cards are a rank and a suit: ranks A 2-9 T J Q K (10 also means T), \
        suits S H D C or ♠ ♥ ♦ ♣, in any case: `TS`, `ts`, `10s` and `T♠` are all the ten of spades.",
    after_help = "Examples:\n  \
        gin play\n  \
        gin analyze \"AS 2S 3S 7H 7D 7C JC QC KC 3H\"\n  \
        gin analyze --json - < hands.txt\n  \
        gin saves\n  \
        gin sim --a expert --b simple --games 10000\n  \
        gin settings rules\n  \
        gin completions bash > ~/.local/share/bash-completion/completions/gin\n\n\
        Run `gin help <command>` for everything a command can do."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run an agent program so that nothing it starts outlives it (started by gin itself).
    #[cfg(target_os = "linux")]
    #[command(name = "agent-keeper", hide = true)]
    AgentKeeper(agents::KeeperArgs),
    /// Show a hand's best melds, its deadwood, and whether it can knock or is gin.
    #[command(long_about = analyze::LONG_ABOUT, after_help = analyze::AFTER_HELP)]
    Analyze(analyze::AnalyzeArgs),
    /// Run a built-in agent as an external agent over the protocol (standard input and output).
    #[command(long_about = bot::LONG_ABOUT, after_help = bot::AFTER_HELP)]
    Bot(bot::BotArgs),
    /// Print a shell's completion script for gin (bash, zsh, fish, elvish or powershell).
    #[command(long_about = completions::LONG_ABOUT, after_help = completions::AFTER_HELP)]
    Completions(completions::CompletionsArgs),
    /// Play a round robin of agents and rate them: win rates with intervals, points per hand, ratings.
    #[command(long_about = league::LONG_ABOUT, after_help = league::AFTER_HELP)]
    League(league::LeagueArgs),
    /// Print gin's manual page (or a command's) in roff, for `man`.
    #[command(long_about = man::LONG_ABOUT, after_help = man::AFTER_HELP)]
    Man(man::ManArgs),
    /// Play Gin Rummy against the AI (or two people at one terminal), saved after every move.
    #[command(long_about = play_args::LONG_ABOUT, after_help = play_args::AFTER_HELP)]
    Play(play_args::PlayArgs),
    /// List the saved games, newest first: date, opponent, score, finished or not.
    #[command(long_about = play_args::SAVES_LONG_ABOUT)]
    Saves(play_args::SavesArgs),
    /// Show a saved or finished game hand by hand.
    #[command(long_about = play_args::REPLAY_LONG_ABOUT, after_help = play_args::REPLAY_AFTER_HELP)]
    Replay(play_args::ReplayArgs),
    /// List every setting of the rules and of the agents: what it takes, its default, its meaning.
    #[command(long_about = settings::LONG_ABOUT, after_help = settings::AFTER_HELP)]
    Settings(settings::SettingsArgs),
    /// Play two agents against each other in mirrored pairs of games and compare them.
    #[command(long_about = sim::LONG_ABOUT, after_help = sim::AFTER_HELP)]
    Sim(sim::SimArgs),
}

/// The command line, its help texts filled in from the registry's table of agents.
fn command() -> clap::Command {
    agents::with_agents(Cli::command())
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(err) => err.exit(),
    };
    let result = match &cli.command {
        #[cfg(target_os = "linux")]
        Command::AgentKeeper(args) => return gin_arena::keeper::run(&args.program),
        Command::Analyze(args) => analyze::run(args),
        Command::Bot(args) => bot::run(args),
        Command::Completions(args) => completions::run(args, command()),
        Command::League(args) => league::run(args),
        Command::Man(args) => man::run(args, command()),
        Command::Play(args) => play(args),
        Command::Replay(args) => gin_tui::replay(&args.options()).map(|()| Outcome::Success).map_err(Failure::from),
        Command::Saves(_) => gin_tui::list_saves().map(|()| Outcome::Success).map_err(Failure::from),
        Command::Settings(args) => settings::run(args),
        Command::Sim(args) => sim::run(args),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::BadInput) => ExitCode::from(EXIT_BAD_INPUT),
        // The reader went away (`gin analyze - < hands | head`): nothing left to say to anyone.
        Err(failure) if is_broken_pipe(&failure.error) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", gin_tui::render::message(&format!("{:#}", failure.error)));
            ExitCode::from(failure.status)
        }
    }
}

/// Runs `gin play`.
fn play(args: &play_args::PlayArgs) -> Result<Outcome, Failure> {
    let options = args.options().map_err(Failure::usage)?;
    gin_tui::play(&options)?;
    Ok(Outcome::Success)
}

/// Whether the error comes from writing to a closed pipe.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn every_command_that_takes_an_agent_names_every_agent() {
        for name in ["sim", "bot", "play", "league"] {
            let mut cli = command();
            let help = cli.find_subcommand_mut(name).unwrap().render_long_help().to_string();
            let words: Vec<&str> = help.split(|c: char| !c.is_ascii_alphanumeric() && c != '-').collect();
            for agent in gin_ai::registry::NAMES {
                assert!(words.contains(&agent), "`gin {name} --help` does not name `{agent}`");
            }
            // Every placeholder is written out.
            assert!(!help.contains("{agents}") && !help.contains("{league}"), "gin {name} --help: {help}");
            if name != "bot" {
                assert!(help.contains("a preset (standard, pagat, eaai, oklahoma)") && !help.contains("{presets}"));
            }
        }
        let mut cli = command();
        let league = cli.find_subcommand_mut("league").unwrap().render_long_help().to_string();
        assert!(league.contains("[default: taker simple expert holder mc-fast, one of each style]"), "{league}");
    }

    #[test]
    fn broken_pipes_are_recognised_through_context() {
        let error =
            anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe)).context("cannot write to standard output");
        assert!(is_broken_pipe(&error));
        assert!(!is_broken_pipe(&anyhow::anyhow!("something else")));
    }
}
