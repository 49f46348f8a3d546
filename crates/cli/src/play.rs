//! `gin play`: a game of Gin Rummy at the terminal, against the AI or between two people, saved
//! after every move.

mod digest;
mod input;
mod lines;
mod savefile;
mod saves;
mod screen;
mod store;
mod table;

pub(crate) use savefile::{Damage, Damaged, replayed as replay_save};
pub(crate) use saves::{LONG_ABOUT as SAVES_LONG_ABOUT, SavesArgs, run as run_saves};

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueEnum};
use gin_ai::registry::{self, AgentParams, AgentSpec};
use gin_cards::CardSet;
use gin_engine::{Action, Decision, Event, Game, LogHeader, Phase, PlayError, agent_seed};
use gin_rules::{ByPlayer, Player};

use crate::agents;
use crate::rules_arg::RulesArg;
use crate::{Failure, Outcome};
use input::{CardRef, Command};
use lines::Lines;
use savefile::{Opponent, PlayHeader};
use screen::{HandEnd, Layout, Look, Seats};

/// Clears the screen, then the scrollback, and moves to the top: what a hot seat shows between
/// turns on a terminal.
const CLEAR_ALL: &str = "\x1b[2J\x1b[3J\x1b[H";

/// The AI of a new game when --ai is not given.
const DEFAULT_AI: &str = "mc";

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
    /// The AI to play against: random, taker, greedy, simple, expert, holder, mc-fast or mc, with settings as in
    /// `gin sim` (mc:samples=500), or a program that plays over the external-agent protocol,
    /// `cmd:PROGRAM ARGS...` (split on whitespace, no quoting; see docs/protocol.md).
    /// With --resume, the AI that plays on instead of the save's (a save never starts a program
    /// by itself: name it here to play on against it). [default: mc]
    #[arg(long, value_name = "NAME")]
    ai: Option<String>,
    #[command(flatten)]
    limits: agents::LimitArgs,
    /// The seed of the deal, from 0 to 2^64 - 1 (printed at the start when drawn from the clock).
    #[arg(long, value_name = "N", value_parser = crate::sim::parse_seed)]
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

/// Runs `gin play`.
pub(crate) fn run(args: &PlayArgs) -> Result<Outcome, Failure> {
    let terminal = io::stdout().is_terminal();
    let full_screen = terminal && io::stdin().is_terminal() && !args.plain;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color,
    };
    // Colour and suit symbols are two choices: symbols wherever a terminal shows them.
    let symbols = !args.ascii && (terminal || color);
    let skin = table::Skin { symbols, color, ascii: args.ascii };
    // The table styles its cards itself: its texts carry no escape codes.
    let look = Look { symbols, color: color && !full_screen };
    let mut out = io::stdout().lock();
    check_save_target(args).map_err(Failure::usage)?;
    let host = args.limits.host();
    let session = match &args.resume {
        Some(resume) => {
            let path = match resume {
                Some(path) => path.clone(),
                None => latest_unfinished()?,
            };
            let save = args.save.clone().unwrap_or_else(|| path.clone());
            let target = store::resolve(&save)?;
            // Nothing is read, copied or written for a save that could not be written.
            store::check_target(&target)?;
            // Locked before it is read: two sessions never resume one game.
            let lock = store::lock(&target)?;
            let resumed = savefile::load(&path, args.ai.as_deref(), &AgentParams::default(), &host, args.recover)?;
            Session::resumed(resumed, save, target, lock, look, terminal)
        }
        None => {
            let mut session = Session::new(args, look, terminal, &host).map_err(Failure::usage)?;
            store::check_target(&session.target)?;
            session._lock = Some(store::lock(&session.target)?);
            session
        }
    };
    let mut session = session;
    let stdin = io::stdin();
    // A line editor (arrow keys, history) when a person types at a terminal.
    let mut input = Lines::new(terminal && stdin.is_terminal(), stdin.lock());
    let opening = session.begin(args.resume.is_some())?;
    if full_screen {
        drop(input);
        return play_at_the_table(session, args, skin, look, &opening, &host, &mut out);
    }
    for line in &opening {
        writeln!(out, "{line}").map_err(anyhow::Error::from)?;
    }
    writeln!(out, "Type help for the commands.").map_err(anyhow::Error::from)?;
    session.play(&mut input, &mut out)?;
    Ok(Outcome::Success)
}

/// Plays at the full-screen table; after it, says where the game is and how to go on.
fn play_at_the_table(
    session: Session,
    args: &PlayArgs,
    skin: table::Skin,
    look: Look,
    opening: &[String],
    host: &gin_arena::Host,
    out: &mut impl Write,
) -> Result<Outcome, Failure> {
    // Another game: the same opponent (a program only when named on the command line) and
    // rules, a new deal from the clock, a new save.
    let ai = match (&args.ai, &session.header.ai) {
        (Some(ai), _) => Some(ai.clone()),
        (None, Some(ai)) if !gin_arena::names_program(ai) => Some(ai.clone()),
        _ => None,
    };
    let hotseat = session.header.human.is_none();
    let rules = session.game.rules().clone();
    let new_game = || -> Result<(Session, Vec<String>)> {
        let next = PlayArgs {
            ai: ai.clone(),
            hotseat,
            seed: None,
            save: None,
            force: false,
            resume: None,
            recover: false,
            ..args.clone()
        };
        // The last game's rules (a resumed game's own).
        let mut session = Session::with_rules(&next, &rules, look, true, host)?;
        session._lock = Some(store::lock(&session.target)?);
        let opening = session.begin(false)?;
        Ok((session, opening))
    };
    let (exit, mut session) = table::run(session, skin, opening, new_game)?;
    match exit {
        table::Exit::Quit => session.farewell("Stopped.", out)?,
        table::Exit::Finished => {
            if let Some(result) = session.game.result() {
                write!(out, "{}", screen::game_end(result, session.game.rules(), &session.seats, look))
                    .map_err(anyhow::Error::from)?;
            }
            writeln!(out, "The whole game is in {}.", session.save.display()).map_err(anyhow::Error::from)?;
        }
    }
    Ok(Outcome::Success)
}

/// The latest unfinished game among the saved ones.
///
/// # Errors
/// There is none.
fn latest_unfinished() -> Result<PathBuf> {
    store::saved_games()
        .into_iter()
        .map(|(path, _)| path)
        .find(|path| {
            crate::files::read_text(path, "the save", crate::files::MAX_SAVE_FILE)
                .is_ok_and(|text| !text.trim().is_empty() && !savefile::is_finished(&text))
        })
        .ok_or_else(|| {
            anyhow!(
                "no unfinished game to resume in `{}`: start one with `gin play`, or name a save with --resume FILE",
                store::games_dir().display()
            )
        })
}

/// Refuses `--save FILE` when FILE (where its links lead) exists and is not a regular file, with
/// or without `--force`; and when it exists and is not the game being resumed, unless `--force`:
/// a save never replaces an unfinished game or any other file by surprise, and never a FIFO, a
/// device or a directory.
fn check_save_target(args: &PlayArgs) -> Result<()> {
    let Some(save) = &args.save else { return Ok(()) };
    let target = store::resolve(save)?;
    // Nothing there: nothing to lose.
    let Ok(meta) = std::fs::symlink_metadata(&target) else { return Ok(()) };
    if !meta.is_file() {
        let what = crate::files::kind(&meta);
        let what = if target == *save {
            format!("it is {what}")
        } else {
            format!("it is a link to `{}`, {what}", target.display())
        };
        return Err(anyhow!(
            "--save `{}`: {what}, and gin saves only to regular files (--force or not)",
            save.display()
        ));
    }
    // An empty file (such as one made by `mktemp`): nothing to lose.
    if args.force || meta.len() == 0 {
        return Ok(());
    }
    let same_file = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if args.resume.as_ref().and_then(Option::as_deref).is_some_and(|resume| same_file(resume, save)) {
        return Ok(());
    }
    Err(anyhow!(
        "--save `{}`: the file exists and is not this game's save, and gin never replaces it by surprise: \
         choose another name, or add --force to replace it",
        save.display()
    ))
}

/// `--target N`, checked by the rules' own table of settings: one range wherever a target is
/// read (the command line, a rules file, a save).
fn parse_target(text: &str) -> Result<u32, String> {
    use gin_rules::settings::Settings as _;
    let mut rules = gin_rules::Ruleset::standard();
    rules.set_text("target", text).map_err(|err| err.to_string())?;
    Ok(rules.target)
}

/// A game in progress, with its save.
struct Session {
    game: Game,
    events: Vec<Event>,
    log: LogHeader,
    header: PlayHeader,
    ai: Option<Opponent>,
    save: PathBuf,
    /// Where `save` leads through its symbolic links ([`store::resolve`]): the file written (and
    /// locked), `save` itself when it is no link.
    target: PathBuf,
    /// The lock that keeps other sessions off this game's save.
    _lock: Option<store::Lock>,
    /// Why the last write of the save failed, if it did: the file then holds an earlier point.
    unsaved: Option<String>,
    seed_drawn: bool,
    look: Look,
    seats: Seats,
    terminal: bool,
    /// The moves not yet shown to each player.
    pending: ByPlayer<Vec<Event>>,
    /// The person who last saw the table (hotseat: whom to hide it from).
    last_viewer: Option<Player>,
    /// What resuming changed (another AI than the save's), told at the start.
    notes: Vec<String>,
}

/// Why a game stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Quit,
    EndOfInput,
}

impl Session {
    fn new(args: &PlayArgs, look: Look, terminal: bool, host: &gin_arena::Host) -> Result<Session> {
        let (mut rules, _) = args.rules.load()?;
        if let Some(target) = args.target {
            rules.target = target;
        }
        Session::with_rules(args, &rules, look, terminal, host)
    }

    /// A new game under `rules` (the rest of the options from `args`).
    fn with_rules(
        args: &PlayArgs,
        rules: &gin_rules::Ruleset,
        look: Look,
        terminal: bool,
        host: &gin_arena::Host,
    ) -> Result<Session> {
        let seed = args.seed.unwrap_or_else(clock_seed);
        let log = LogHeader::new(seed, rules, None);
        // The person sits in seat one; the engine draws the first dealer from the seed.
        let human = Player::One;
        let (ai, header, seats) = if args.hotseat {
            (None, PlayHeader::new(None), Seats::hotseat())
        } else {
            let spec = args.ai.as_deref().unwrap_or(DEFAULT_AI);
            let ai = savefile::build_ai(spec, human.opponent(), &log, &AgentParams::default(), host).context("--ai")?;
            (Some(ai), PlayHeader::new(Some((spec, human))), Seats::versus_ai(human))
        };
        let (game, opening) = Game::new(rules, seed);
        let mut session = Session {
            game,
            events: Vec::new(),
            log,
            header,
            ai,
            save: PathBuf::new(),
            target: PathBuf::new(),
            _lock: None,
            unsaved: None,
            seed_drawn: args.seed.is_none(),
            look,
            seats,
            terminal,
            pending: ByPlayer::default(),
            last_viewer: None,
            notes: Vec::new(),
        };
        session.save = match &args.save {
            Some(path) => path.clone(),
            None => store::new_game_path(seed, std::time::SystemTime::now()),
        };
        session.target = store::resolve(&session.save)?;
        session.record(opening);
        Ok(session)
    }

    fn resumed(
        resumed: savefile::Resumed,
        save: PathBuf,
        target: PathBuf,
        lock: store::Lock,
        look: Look,
        terminal: bool,
    ) -> Session {
        let seats = match resumed.header.human {
            Some(human) => Seats::versus_ai(human),
            None => Seats::hotseat(),
        };
        Session {
            game: resumed.game,
            events: resumed.events,
            log: resumed.log,
            header: resumed.header,
            ai: resumed.ai,
            save,
            target,
            _lock: Some(lock),
            unsaved: None,
            seed_drawn: false,
            look,
            seats,
            terminal,
            pending: ByPlayer::default(),
            last_viewer: None,
            notes: resumed.notes,
        }
    }

    /// Writes the first save; returns the opening lines: who plays, the seed, where the game is
    /// saved.
    ///
    /// # Errors
    /// The save cannot be written.
    fn begin(&mut self, resumed: bool) -> Result<Vec<String>> {
        self.write_save().context("the game cannot be saved; give another place with --save FILE")?;
        let rules = self.game.rules();
        let opponent = match &self.header.ai {
            Some(ai) => format!("You against the AI ({ai})"),
            None => "Two players at one terminal".to_owned(),
        };
        let mut lines = Vec::new();
        if resumed {
            let score = self.game.score();
            lines.push(format!(
                "Resuming: {opponent}, hand {}, {} {} · {} {}.",
                self.game.hand_number(),
                self.seats.name(Player::One),
                score.points[Player::One],
                self.seats.name(Player::Two),
                score.points[Player::Two]
            ));
            lines.extend(self.notes.iter().cloned());
        } else {
            let points = if rules.target == 1 { "point" } else { "points" };
            lines.push(format!("{opponent}, playing to {} {points}.", rules.target));
            let how = if self.seed_drawn { "drawn from the clock; " } else { "" };
            lines.push(format!("Seed {} ({how}play this deal again with --seed {}).", self.log.seed, self.log.seed));
        }
        lines.push(format!("Saving after every move to {}", self.save.display()));
        if self.target != self.save {
            lines.push(format!("Saving through the link {} to {}.", self.save.display(), self.target.display()));
        }
        Ok(lines)
    }

    /// Plays until the game ends or the player stops.
    fn play(&mut self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<()> {
        let stop = loop {
            let Some(player) = self.game.to_act() else {
                self.show_pending(out, self.viewer_for_narration())?;
                if let Some(result) = self.game.result() {
                    writeln!(out)?;
                    write!(out, "{}", screen::game_end(result, self.game.rules(), &self.seats, self.look))?;
                    writeln!(out, "The whole game is in {}.", self.save.display())?;
                }
                return Ok(());
            };
            let result = match self.automatic_move(player)? {
                Some((produced, before)) => self.after_move(produced, before, input, out),
                None => self.human_turn(player, input, out),
            };
            if let Err(stop) = result? {
                break stop;
            }
        };
        let how = match stop {
            Stop::Quit => "Stopped.",
            Stop::EndOfInput => "\nEnd of input.",
        };
        self.farewell(how, out)
    }

    /// What quitting says: where the game is saved and how to go on, or that the save failed.
    fn farewell(&mut self, how: &str, out: &mut impl Write) -> Result<()> {
        if let Some(why) = self.retry_save() {
            writeln!(out, "{how} The game could NOT be saved: {why}.")?;
            writeln!(out, "{} holds it only as it was before the failed save, if at all.", self.save.display())?;
            return Ok(());
        }
        writeln!(out, "{how} The game is saved in {}", self.save.display())?;
        writeln!(out, "Continue with: {} play --resume {}", crate::invocation::gin_command(), shell_word(&self.save))?;
        Ok(())
    }

    /// Plays `player`'s move when no person makes it (the AI's, or the referee's answer to a
    /// knock), returning its events and the snapshot before it; `None` when a person is to move.
    ///
    /// # Errors
    /// The AI forfeits: its move is refused. The save records the forfeit.
    fn automatic_move(&mut self, player: Player) -> Result<Option<(Vec<Event>, Snapshot)>> {
        let ai_seat = self.ai.as_ref().map(|(seat, _)| *seat);
        let decision = if ai_seat == Some(player) {
            let (_, agent) = self.ai.as_mut().expect("the AI's seat");
            savefile::ai_move(agent.as_mut(), &self.game, player)
        } else if self.game.deal().phase() == Phase::LayOff {
            // A person's answer to a knock: the referee's best (rule 16).
            Decision::play(Action::LayOff)
        } else {
            return Ok(None);
        };
        let before = self.snapshot();
        let played = match decision {
            Decision::Play { action, showing } => self
                .game
                .play_with(player, action, showing.as_ref())
                .map_err(|err| format!("it chose a move the game refuses ({action}): {err}")),
            Decision::Resign { reason } => Err(reason),
        };
        match played {
            Ok(produced) => Ok(Some((produced, before))),
            Err(why) => {
                // The game ends here, lost by the AI: the save says so, and is not resumed into
                // the same failure.
                self.header.forfeit = Some(why.clone());
                let saved = match self.write_save() {
                    Ok(()) => format!("the save {} records it", self.save.display()),
                    Err(err) => format!("and it could NOT be saved: {err:#}"),
                };
                Err(anyhow!("the AI forfeits: {why}; {saved}"))
            }
        }
    }

    /// Records a move's events and saves: what the move ended, and whether the save failed.
    fn commit(&mut self, produced: Vec<Event>, (number, mut hands): Snapshot) -> Committed {
        let ended = produced.iter().position(|event| matches!(event, Event::HandEnded { .. }));
        for event in &produced {
            if let Event::Discarded { player, card } = event {
                hands[*player].remove(*card);
            }
        }
        // The end of the hand, for a dead hand with both players' cards as they ended it.
        let end = ended.and_then(|at| HandEnd::of(&produced[at], number, hands, self.game.rules().solver()));
        let after_end = ended.map(|at| produced.len() - at - 1);
        self.record(produced);
        self.unsaved = self.write_save().err().map(|err| format!("{err:#}"));
        Committed { end, after_end, save_error: self.unsaved.clone() }
    }

    /// One decision of a person: shows the table and asks until a move is played.
    fn human_turn(
        &mut self,
        player: Player,
        input: &mut Lines<impl BufRead>,
        out: &mut impl Write,
    ) -> Result<Result<(), Stop>> {
        if self.header.human.is_none() && self.last_viewer != Some(player) {
            if self.last_viewer.is_some() {
                if self.terminal {
                    // Clear the screen and the scrollback (`3J`): the other hand must not be a
                    // scroll away.
                    write!(out, "{CLEAR_ALL}")?;
                } else {
                    writeln!(out, "\n{}", "─".repeat(60))?;
                }
            }
            writeln!(
                out,
                "{}'s turn. Press Enter when only {} can see the screen.",
                self.seats.name(player),
                self.seats.name(player)
            )?;
            if let Err(stop) = self.wait_for_enter(input, out)? {
                return Ok(Err(stop));
            }
        }
        self.last_viewer = Some(player);
        self.show_pending(out, player)?;
        let legal = self.game.legal_actions();
        let view = self.game.view(player);
        writeln!(out)?;
        write!(out, "{}", screen::table(&view, &self.seats, self.look))?;
        let layout = Layout::of(view.hand, self.game.rules().solver());
        let question = screen::question(&view, &legal, self.look);
        loop {
            writeln!(out, "{question}")?;
            let Some(line) = self.ask(input, out)? else { return Ok(Err(Stop::EndOfInput)) };
            let command = match input::parse(&line) {
                Ok(command) => command,
                Err(message) => {
                    writeln!(out, "{message}")?;
                    continue;
                }
            };
            let action = match self.action_for(command, player, &layout) {
                Ok(Some(action)) => action,
                Ok(None) => continue,
                Err(Reply::Say(message)) => {
                    writeln!(out, "{message}")?;
                    continue;
                }
                Err(Reply::Stop) => return Ok(Err(Stop::Quit)),
                Err(Reply::Hint) => {
                    for line in self.hint(player) {
                        writeln!(out, "{line}")?;
                    }
                    continue;
                }
            };
            let before = self.snapshot();
            match self.game.play(player, action) {
                Ok(produced) => return self.after_move(produced, before, input, out),
                Err(err) => writeln!(out, "{}", refusal(&err, self.look))?,
            }
        }
    }

    /// The action a command asks for, `None` to ask again silently, or what to say instead.
    fn action_for(&self, command: Command, player: Player, layout: &Layout) -> Result<Option<Action>, Reply> {
        let phase = self.game.deal().phase();
        let say = |text: &str| Err(Reply::Say(text.to_owned()));
        let card = |target: CardRef| -> Result<gin_cards::Card, Reply> {
            let hand = self.game.deal().cards(player);
            match target {
                CardRef::Card(card) if hand.contains(card) => Ok(card),
                CardRef::Card(card) => Err(Reply::Say(format!("{} is not in your hand.", self.look.card(card)))),
                CardRef::Position(n) => layout.order().get(n - 1).copied().ok_or_else(|| {
                    Reply::Say(format!("There is no card at position {n}: your hand shows positions 1-{}.", hand.len()))
                }),
            }
        };
        let action = match (command, phase) {
            (Command::Nothing, _) => return Ok(None),
            (Command::Help, _) => return Err(Reply::Say(input::HELP.to_owned())),
            (Command::Hint, _) => return Err(Reply::Hint),
            (Command::Quit, _) => return Err(Reply::Stop),
            (Command::Save, _) => {
                if let Some(why) = &self.unsaved {
                    return Err(Reply::Say(format!("The last move could NOT be saved: {why}.")));
                }
                return Err(Reply::Say(format!(
                    "The game is saved after every move, in {}.\nContinue it any time with: {} play --resume {}",
                    self.save.display(),
                    crate::invocation::gin_command(),
                    shell_word(&self.save)
                )));
            }
            (Command::Take, Phase::UpcardOffer) => Action::TakeUpcard,
            (Command::Pass, Phase::UpcardOffer) => Action::PassUpcard,
            (_, Phase::UpcardOffer) => return say("The first upcard is on offer: t to take it, p to pass."),
            (Command::Stock, Phase::Draw) => Action::DrawStock,
            (Command::Pile, Phase::Draw) => Action::DrawPile,
            (Command::Take | Command::Pass, Phase::Draw) => {
                return say("The upcard offer is over: draw with s (stock) or d (discard pile).");
            }
            (_, Phase::Draw) => return say("Draw first: s from the stock, d from the discard pile."),
            (Command::Discard(target), Phase::Discard) => Action::Discard { card: card(target)? },
            (Command::Knock(target), Phase::Discard) => Action::knock(card(target)?),
            (Command::KnockWithoutCard, Phase::Discard) => {
                return say("Knock discarding which card? Type k and the card, like `k 7h` or `k 3`.");
            }
            (Command::BigGin, Phase::Discard) => Action::BigGin,
            (Command::Stock | Command::Pile | Command::Take | Command::Pass, Phase::Discard) => {
                return say("You have drawn: now discard a card (by name or position), or k and a card to knock.");
            }
            (_, Phase::LayOff | Phase::Over) => return Ok(None),
        };
        Ok(Some(action))
    }

    /// Records a move's events, saves, and shows the end of a hand when it ends one.
    fn after_move(
        &mut self,
        produced: Vec<Event>,
        before: Snapshot,
        input: &mut Lines<impl BufRead>,
        out: &mut impl Write,
    ) -> Result<Result<(), Stop>> {
        let Committed { end, after_end, save_error } = self.commit(produced, before);
        if let Some(why) = save_error {
            writeln!(out, "warning: {why}: this move is not saved; gin tries again after the next one")?;
        }
        let Some(after_end) = after_end else { return Ok(Ok(())) };
        let viewer = self.viewer_for_narration();
        // Tell the moves up to the end of the hand; the next deal starts afresh.
        let told = &self.pending[viewer][..self.pending[viewer].len() - after_end - 1];
        for sentence in screen::narrate(told, viewer, &self.seats, self.look) {
            writeln!(out, "{sentence}")?;
        }
        self.pending = ByPlayer::default();
        if let Some(end) = end {
            writeln!(out)?;
            write!(out, "{}", screen::hand_end(&end, self.game.rules(), &self.seats, self.look))?;
        }
        if self.game.result().is_none() {
            writeln!(out, "Press Enter to deal hand {}.", self.game.hand_number())?;
            if let Err(stop) = self.wait_for_enter(input, out)? {
                return Ok(Err(stop));
            }
            self.last_viewer = None;
        }
        Ok(Ok(()))
    }

    /// Keeps events: in the log, for the AI, and to be told.
    fn record(&mut self, events: Vec<Event>) {
        if let Some((seat, agent)) = &mut self.ai {
            for event in &events {
                agent.observe(&event.seen_by(*seat));
            }
        }
        for player in Player::ALL {
            self.pending[player].extend(events.iter().cloned());
        }
        self.events.extend(events);
    }

    /// Tells the moves not yet shown, as `viewer` saw them.
    fn show_pending(&mut self, out: &mut impl Write, viewer: Player) -> Result<()> {
        let told = std::mem::take(&mut self.pending[viewer]);
        let sentences = screen::narrate(&told, viewer, &self.seats, self.look);
        if !sentences.is_empty() {
            writeln!(out)?;
        }
        for sentence in sentences {
            writeln!(out, "{sentence}")?;
        }
        Ok(())
    }

    /// Whose eyes the moves are told for: the person against the AI, or at a hotseat table the
    /// one who did not just move.
    fn viewer_for_narration(&self) -> Player {
        self.header.human.or(self.last_viewer.map(Player::opponent)).unwrap_or(Player::One)
    }

    /// The hand's number and both players' cards, before a move.
    fn snapshot(&self) -> Snapshot {
        (self.game.hand_number(), ByPlayer::from_fn(|player| self.game.deal().cards(player)))
    }

    /// What the opponent's own level (`mc` at a hotseat table or against a program) would do in
    /// `player`'s place, and why.
    fn hint(&self, player: Player) -> Vec<String> {
        let spec = match self.header.ai.as_deref().map(str::parse::<AgentSpec>) {
            Some(Ok(spec)) if !spec.name.starts_with("cmd") => spec,
            _ => AgentSpec { name: "mc".to_owned(), settings: Vec::new() },
        };
        let mut advisor = match registry::build_advisor(&spec, &AgentParams::default()) {
            Ok(advisor) => advisor,
            Err(err) => return vec![format!("No hint: {err}.")],
        };
        advisor.start_game(player, self.game.rules(), agent_seed(self.log.seed, player));
        for event in &self.events {
            advisor.observe(&event.seen_by(player));
        }
        let view = self.game.view(player);
        let legal = self.game.legal_actions();
        let hint = advisor.advise(&view, &legal);
        screen::hint(&hint, advisor.name(), &view, self.look)
    }

    /// After a failed save, tries once more; why it still fails, if it does.
    fn retry_save(&mut self) -> Option<String> {
        if self.unsaved.is_some() {
            self.unsaved = self.write_save().err().map(|err| format!("{err:#}"));
        }
        self.unsaved.clone()
    }

    /// Writes the save, where its links lead.
    fn write_save(&self) -> Result<()> {
        savefile::write(&self.target, &self.header, &self.log, &self.events)
    }

    /// Waits for Enter; `quit` (or the end of input) stops instead.
    fn wait_for_enter(&self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<Result<(), Stop>> {
        match self.ask(input, out)? {
            None => Ok(Err(Stop::EndOfInput)),
            Some(line) if input::parse(&line) == Ok(Command::Quit) => Ok(Err(Stop::Quit)),
            Some(_) => Ok(Ok(())),
        }
    }

    /// Prompts with `> ` and reads a line; `None` at the end of input.
    fn ask(&self, input: &mut Lines<impl BufRead>, out: &mut impl Write) -> Result<Option<String>> {
        input.ask(out)
    }
}

/// The hand's number and both players' cards, taken before a move.
type Snapshot = (u32, ByPlayer<CardSet>);

/// What a move did, once recorded and saved.
struct Committed {
    /// The end of the hand, when the move ended one.
    end: Option<HandEnd>,
    /// When the move ended the hand: how many of its events (the next deal) follow the end.
    after_end: Option<usize>,
    /// Why the save failed, when it did (the file then holds an earlier point of the game).
    save_error: Option<String>,
}

/// What to do instead of a move.
enum Reply {
    Say(String),
    Hint,
    Stop,
}

/// Why the referee refused a move, for the player.
fn refusal(err: &PlayError, look: Look) -> String {
    match err {
        PlayError::TakenCard { card } => format!(
            "You just took {} from the discard pile: it may not be discarded (or knocked with) this turn.",
            look.card(*card)
        ),
        PlayError::OverKnockLimit { deadwood, limit } => {
            format!("You cannot knock: that leaves deadwood {deadwood}, over the knock limit of {limit}.")
        }
        PlayError::NotBigGin { deadwood } => format!("Not big gin: {deadwood} deadwood would be left unmelded."),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
            format!("{first}{}.", chars.as_str())
        }
    }
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // Keep it short enough to type: nine decimal digits.
    (now.as_nanos() as u64 ^ u64::from(std::process::id())) % 1_000_000_000
}

/// A path as a shell word (quoted when it holds anything unusual).
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    if text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-~+=:,@".contains(c)) {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
