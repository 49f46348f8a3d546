//! `gin play`: a game of Gin Rummy at the terminal, against the AI or between two people, saved
//! after every move.

mod digest;
mod input;
mod lines;
pub(crate) mod savefile;
pub(crate) mod saves;
mod screen;
mod session;
mod store;
mod table;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use gin_ai::registry::AgentParams;
use gin_arena::Host;
use gin_rules::Ruleset;

use crate::failure::Failure;
use crate::files;
use crate::render::Look;
use lines::Lines;
use session::{NewGame, Session};

/// The AI of a new game when [`PlayOptions::ai`] is not given.
const DEFAULT_AI: &str = "mc";

/// When to colour the suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Which saved game to go on with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resume {
    /// The newest unfinished game in the state folder.
    Latest,
    /// The game saved in this file.
    File(PathBuf),
}

/// How to play: the options of `gin play`, each as its `--help` describes it.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The AI to play against (a spec of `gin sim`, or `cmd:PROGRAM ARGS...`); `None` for `mc`.
    /// With [`PlayOptions::resume`], the AI that plays on instead of the save's (a save never
    /// starts a program by itself).
    pub ai: Option<String>,
    /// Where agent programs run, with their time limits.
    pub host: Host,
    /// The seed of the deal; `None` draws one from the clock (and prints it).
    pub seed: Option<u64>,
    /// The rules of a new game.
    pub rules: Ruleset,
    /// Play to this many points instead of the rules' target.
    pub target: Option<u32>,
    /// Two people at one terminal, taking turns (no AI).
    pub hotseat: bool,
    /// Save to this file after every move (`None`: a new file in the state folder). An existing
    /// file that is not this game's save is never replaced, unless [`PlayOptions::force`].
    pub save: Option<PathBuf>,
    /// With [`PlayOptions::save`], replace the file even if it exists and is not this game's save.
    pub force: bool,
    /// Go on with a saved game instead of dealing a new one.
    pub resume: Option<Resume>,
    /// With [`PlayOptions::resume`], play on from a damaged save from the last whole move before
    /// its damage, keeping the damaged file as `FILE.damaged`.
    pub recover: bool,
    /// When to colour the suits.
    pub color: Color,
    /// ASCII only: letters for suits, and the table drawn with `+ - |`.
    pub ascii: bool,
    /// The line mode even at a terminal.
    pub plain: bool,
}

impl PlayOptions {
    /// A new game against the default AI under the standard rules, dealt from the clock, saved
    /// in the state folder, coloured on a terminal: what `gin play` alone does.
    pub fn new(host: Host) -> PlayOptions {
        PlayOptions {
            ai: None,
            host,
            seed: None,
            rules: Ruleset::standard(),
            target: None,
            hotseat: false,
            save: None,
            force: false,
            resume: None,
            recover: false,
            color: Color::Auto,
            ascii: false,
            plain: false,
        }
    }
}

/// Plays a game at the terminal: the full-screen table when standard input and output are a
/// terminal (and not [`PlayOptions::plain`]), else the line mode, one command a line.
///
/// # Errors
/// A usage error for an option that cannot be used (a `--save` file gin may not replace, an AI
/// that cannot be built); any other failure for a save that cannot be read or written, or an AI
/// that forfeits.
pub(crate) fn run(options: &PlayOptions) -> Result<(), Failure> {
    let terminal = io::stdout().is_terminal();
    let full_screen = terminal && io::stdin().is_terminal() && !options.plain;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    let color = match options.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal && !no_color,
    };
    // Colour and suit symbols are two choices: symbols wherever a terminal shows them.
    let symbols = !options.ascii && (terminal || color);
    let skin = table::Skin { look: Look { symbols, color }, ascii: options.ascii };
    // The table styles its cards itself: its texts carry no escape codes.
    let look = Look { symbols, color: color && !full_screen };
    let mut out = io::stdout().lock();
    check_save_target(options).map_err(Failure::Usage)?;
    let host = &options.host;
    let session = match &options.resume {
        Some(resume) => {
            let path = match resume {
                Resume::File(path) => path.clone(),
                Resume::Latest => latest_unfinished()?,
            };
            let save = options.save.clone().unwrap_or_else(|| path.clone());
            let target = store::resolve(&save)?;
            // Nothing is read, copied or written for a save that could not be written.
            store::check_target(&target)?;
            // Locked before it is read: two sessions never resume one game.
            let lock = store::lock(&target)?;
            let resumed = savefile::load(&path, options.ai.as_deref(), &AgentParams::default(), host, options.recover)?;
            Session::resumed(resumed, save, target, lock, look, terminal)
        }
        None => {
            let mut rules = options.rules.clone();
            if let Some(target) = options.target {
                rules.target = target;
            }
            let opponent = (!options.hotseat).then(|| options.ai.as_deref().unwrap_or(DEFAULT_AI));
            let game = NewGame { rules: &rules, seed: options.seed, opponent, save: options.save.as_deref() };
            let mut session = Session::new(game, look, terminal, host).map_err(Failure::Usage)?;
            store::check_target(&session.target)?;
            session._lock = Some(store::lock(&session.target)?);
            session
        }
    };
    let mut session = session;
    let stdin = io::stdin();
    // A line editor (arrow keys, history) when a person types at a terminal.
    let mut input = Lines::new(terminal && stdin.is_terminal(), stdin.lock());
    let opening = session.begin(options.resume.is_some())?;
    if full_screen {
        drop(input);
        return play_at_the_table(session, options, skin, look, &opening, &mut out);
    }
    for line in &opening {
        writeln!(out, "{line}").map_err(anyhow::Error::from)?;
    }
    writeln!(out, "Type help for the commands.").map_err(anyhow::Error::from)?;
    session.play(&mut input, &mut out)?;
    Ok(())
}

/// Plays at the full-screen table; after it, says where the game is and how to go on.
fn play_at_the_table(
    session: Session,
    options: &PlayOptions,
    skin: table::Skin,
    look: Look,
    opening: &[String],
    out: &mut impl Write,
) -> Result<(), Failure> {
    // Another game: the same opponent (a program only when named on the command line) and
    // rules, a new deal from the clock, a new save.
    let ai = match (&options.ai, &session.header.ai) {
        (Some(ai), _) => Some(ai.clone()),
        (None, Some(ai)) if !gin_arena::names_program(ai) => Some(ai.clone()),
        _ => None,
    };
    let hotseat = session.header.human.is_none();
    let rules = session.game.rules().clone();
    let new_game = || -> Result<(Session, Vec<String>)> {
        let opponent = (!hotseat).then(|| ai.as_deref().unwrap_or(DEFAULT_AI));
        // The last game's rules (a resumed game's own).
        let game = NewGame { rules: &rules, seed: None, opponent, save: None };
        let mut session = Session::new(game, look, true, &options.host)?;
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
    Ok(())
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
            files::read_text(path, "the save", files::MAX_SAVE_FILE)
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
fn check_save_target(options: &PlayOptions) -> Result<()> {
    let Some(save) = &options.save else { return Ok(()) };
    let target = store::resolve(save)?;
    // Nothing there: nothing to lose.
    let Ok(meta) = std::fs::symlink_metadata(&target) else { return Ok(()) };
    if !meta.is_file() {
        let what = files::kind(&meta);
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
    if options.force || meta.len() == 0 {
        return Ok(());
    }
    let same_file = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(Resume::File(resume)) = &options.resume
        && same_file(resume, save)
    {
        return Ok(());
    }
    Err(anyhow!(
        "--save `{}`: the file exists and is not this game's save, and gin never replaces it by surprise: \
         choose another name, or add --force to replace it",
        save.display()
    ))
}
