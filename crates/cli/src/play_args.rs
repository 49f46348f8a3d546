//! The options of `gin play`, `gin replay` and `gin saves`, and their help: clap's side of the
//! game at the terminal, which [`gin_tui`] plays.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::agents;
use crate::rules_arg::RulesArg;
use crate::sim;

/// `gin help play`.
pub(crate) const LONG_ABOUT: &str = "\
Play Gin Rummy at the terminal: against the AI (mc, the searching agent, unless --ai says \
otherwise), or two people at one terminal with --hotseat.

At a terminal the game is a full-screen table that stays put: the opponent's cards (backs, and \
those known from its pickups), the stock, the discard pile's top card, the last moves, your hand \
as cards grouped into its melds with the deadwood apart, the score, and a status line saying what \
you may do and which keys do it:
  left/right, h/l   select a card (1-9, 0 and - pick the 1st to 11th)
  Enter, space      discard the selected card
  s / d             draw from the stock / take the discard pile's top card
  t / p             take / pass the first upcard
  k                 knock (or go gin) discarding the selected card, after a confirmation that \
shows your melds and what the opponent may lay off
  b                 big gin, where the rules play it
  i                 a hint: what the opponent's own level would do, and why
  v                 the whole discard pile
  ?                 help;  q  quit (the game is saved)
The mouse works too: click a card to select it and again to discard it, click the stock or the \
pile to draw. The end of a hand spreads both hands with their melds and layoffs and the points; \
the end of the game shows the score sheet and offers another game. A hot seat shows a pass \
screen between turns. The table redraws when the terminal is resized and folds below 64x20; \
--ascii draws it with ASCII only, --color never (or NO_COLOR) without colour.

With --plain, or when input or output is not a terminal (a pipe, a script, a screen reader), \
the game is played in lines: each turn prints the table and reads a command: a card by name (7h, \
7H, 7♥, 10h) or position (3), s or d to draw, t or p for the upcard, k and a card to knock, hint, \
help, save or quit.

The game is saved after every move (to --save FILE, or to a file in your state directory shown \
at the start). `gin play --resume FILE` goes on exactly where it stopped: the save is the game's \
record, replayed through the referee alone, so it resumes whatever has changed in the AI since; \
the built-in AIs then play on as they would have. `--resume FILE --ai NAME` plays on against \
another AI. A save never starts a program: an AI program (cmd:...) named in a save is replaced by \
mc unless --ai names it again. Quitting, end of input and Ctrl-C all leave the save in place. \
A save keeps its permissions, is written through a symbolic link to where it leads, is never \
written over a file its owner may not write, and only ever to a regular file.

Every line of a save ends with a digest chained over the lines before it (SHA-256), so a save cut \
short or edited by hand is refused, naming the line where the damage starts; \
`gin play --resume FILE --recover` plays on from the last whole move before that line, and keeps \
the damaged file as FILE.damaged. The digest is not a signature: it catches accidents and edits, \
not someone who computes the digests again.

The deal comes from --seed; without it a seed is drawn from the clock and printed, so that a \
game can be played again.

Exit status: 0 when the game ends or is left to resume later, 1 for a save that cannot be \
read or written, 2 for a bad option.";

/// The examples after `gin play --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin play
  gin play --ai simple --seed 42
  gin play --rules oklahoma --target 50
  gin play --hotseat
  gin play --plain --ascii           (one line per command, letters for suits)
  gin play --resume                  (the newest unfinished game; `gin saves` lists them)
  gin play --resume FILE --ai expert";

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The options of `gin play`.
#[derive(Clone, Debug, Args)]
pub(crate) struct PlayArgs {
    /// The AI to play against: {agents}, with settings as in
    /// `gin sim` (mc:samples=500), or a program that plays over the external-agent protocol,
    /// `cmd:PROGRAM ARGS...` (split on whitespace, no quoting; see docs/protocol.md).
    /// With --resume, the AI that plays on instead of the save's (a save never starts a program
    /// by itself: name it here to play on against it). [default: mc]
    #[arg(long, value_name = "NAME")]
    ai: Option<String>,
    #[command(flatten)]
    limits: agents::LimitArgs,
    /// The seed of the deal, from 0 to 2^64 - 1 (printed at the start when drawn from the clock).
    #[arg(long, value_name = "N", value_parser = sim::parse_seed)]
    seed: Option<u64>,
    #[command(flatten)]
    rules: RulesArg,
    /// Play to this many points instead of the rules' target.
    #[arg(long, value_name = "N", value_parser = parse_target)]
    target: Option<u32>,
    /// Two people at one terminal, taking turns; the screen is cleared between turns.
    #[arg(long, conflicts_with = "ai")]
    hotseat: bool,
    /// Save the game to FILE after every move (default: a file in your state directory). An
    /// existing FILE that is not this game's save is never replaced, unless --force.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// With --save, replace FILE even if it exists and is not this game's save.
    #[arg(long, requires = "save")]
    force: bool,
    /// Go on with the game saved in FILE (and keep saving to it, unless --save says otherwise);
    /// without FILE, the latest unfinished game in your state directory (`gin saves` lists them).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with_all = ["seed", "spec", "target", "hotseat"])]
    resume: Option<Option<PathBuf>>,
    /// With --resume, play on from a damaged save (one whose digests show it was cut short or
    /// changed): from the last whole move before the damaged line, keeping the damaged file as
    /// FILE.damaged. An undamaged save just resumes.
    #[arg(long, requires = "resume")]
    recover: bool,
    /// Colour the suits: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    color: ColorChoice,
    /// ASCII only: letters for suits (7H instead of 7♥), and the table drawn with + - |.
    #[arg(long)]
    ascii: bool,
    /// The line mode even at a terminal: one line per command, the table printed after every
    /// move (for screen readers and scripts; used anyway when input or output is not a terminal).
    #[arg(long)]
    plain: bool,
}

impl PlayArgs {
    /// The options as `gin_tui` takes them, with the rules loaded and the host of agent
    /// programs made.
    ///
    /// # Errors
    /// The rules cannot be loaded (a usage error).
    pub(crate) fn options(&self) -> anyhow::Result<gin_tui::PlayOptions> {
        let (rules, _) = self.rules.load()?;
        Ok(gin_tui::PlayOptions {
            ai: self.ai.clone(),
            host: self.limits.host(),
            seed: self.seed,
            rules,
            target: self.target,
            hotseat: self.hotseat,
            save: self.save.clone(),
            force: self.force,
            resume: self.resume.as_ref().map(|file| match file {
                Some(path) => gin_tui::Resume::File(path.clone()),
                None => gin_tui::Resume::Latest,
            }),
            recover: self.recover,
            color: match self.color {
                ColorChoice::Auto => gin_tui::Color::Auto,
                ColorChoice::Always => gin_tui::Color::Always,
                ColorChoice::Never => gin_tui::Color::Never,
            },
            ascii: self.ascii,
            plain: self.plain,
        })
    }
}

/// `--target N`, checked by the rules' own table of settings: one range wherever a target is
/// read (the command line, a rules file, a save).
fn parse_target(text: &str) -> Result<u32, String> {
    use gin_rules::settings::Settings as _;
    let mut rules = gin_rules::Ruleset::standard();
    rules.set_text("target", text).map_err(|err| err.to_string())?;
    Ok(rules.target)
}

/// `gin help replay`.
pub(crate) const REPLAY_LONG_ABOUT: &str = "Show a game hand by hand from its file: a game saved by `gin play` (finished or not), or an event \
log written by the engine (a `gin-log` header line, then one event per line).\n\n\
The file is checked by playing it again, and a save's digests line by line: a damaged or edited file is refused, naming the line where it goes wrong \
(`gin play --resume FILE --recover` plays a damaged save on from the last whole move before that line).";

/// The examples after `gin replay --help`.
pub(crate) const REPLAY_AFTER_HELP: &str = "Examples:\n  \
    gin replay ~/.local/state/gin/games/2026-12-04-151233-seed-42.gin   (`gin saves` lists them)\n  \
    gin replay --summary game.gin          (one line per hand)";

/// `gin replay` options.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The game: a save file of `gin play`, or an engine event log.
    file: PathBuf,
    /// One line per hand: its dealer, result, deadwood counts, points and the running score.
    #[arg(long)]
    summary: bool,
    /// Print cards as `TS` even on a terminal, where the default is `T♠`.
    #[arg(long)]
    ascii: bool,
}

impl ReplayArgs {
    /// The options as `gin_tui` takes them.
    pub(crate) fn options(&self) -> gin_tui::ReplayOptions {
        gin_tui::ReplayOptions { file: self.file.clone(), summary: self.summary, ascii: self.ascii }
    }
}

/// `gin help saves`.
pub(crate) const SAVES_LONG_ABOUT: &str = "\
List the games `gin play` has saved in your state directory, newest first: when each was last \
played (UTC), the opponent, the score, and whether it is finished (or damaged: from which line, \
with the score at the last whole move before it, where `gin play --resume FILE --recover` plays on). Every game has its own file, \
named by the date and time it started and its seed, so no game replaces another. \
`gin play --resume` with no file continues the newest unfinished one; `gin play --resume FILE` \
any of them; `gin replay FILE` shows one hand by hand.";

/// The options of `gin saves`.
#[derive(Debug, Args)]
pub(crate) struct SavesArgs {}
