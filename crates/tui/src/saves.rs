//! The saves of [`crate::play`] as text, read and written without a terminal or a file: the
//! reader `gin play --resume` and `gin saves` use, for tools that check it (`cargo xtask fuzz`
//! throws mutated saves at it).
//!
//! ```
//! use gin_engine::{Game, LogHeader};
//! use gin_rules::{Player, Ruleset};
//! use gin_tui::saves::{self, Save};
//!
//! let rules = Ruleset::standard();
//! let (_, events) = Game::new(&rules, 7);
//! let text = saves::write(Some(("simple", Player::One)), None, &LogHeader::new(7, &rules, None), &events)?;
//! let save = Save::read(&text, false)?;
//! assert_eq!((save.ai(), save.human(), save.events()), (Some("simple"), Some(Player::One), &events[..]));
//! assert_eq!(save.text()?, text);
//! // A line changed is found by its digest, and named.
//! let edited = text.replacen("\"seed\":7", "\"seed\":8", 1);
//! assert_eq!(Save::read(&edited, false).unwrap_err().damaged_from(), Some(2));
//! # Ok::<(), gin_tui::saves::SaveError>(())
//! ```

use std::fmt;

use gin_ai::registry::AgentParams;
use gin_arena::{Host, Limits};
use gin_engine::{Event, Game, LogHeader};
use gin_rules::Player;

use crate::play::savefile::{self, Damaged, PlayHeader, Resumed};
use crate::play::saves::described;

/// A save read back as `gin play --resume FILE` reads it: replayed through the referee, its AI
/// (a built-in one: a save never starts a program) rebuilt from the events it saw.
pub struct Save(Resumed);

impl fmt::Debug for Save {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Save")
            .field("header", &self.0.header)
            .field("log", &self.0.log)
            .field("events", &self.0.events.len())
            .field("damage", &self.0.damage)
            .finish_non_exhaustive()
    }
}

impl Save {
    /// Reads a save's text; with `recover`, a damaged save as `--recover` reads it: up to the
    /// last whole move before its damage.
    ///
    /// # Errors
    /// A text that is not a save of a version this gin reads, a damaged save (unless `recover`
    /// and the damage starts after line 2: [`SaveError::damaged_from`] says where), a game the
    /// AI forfeited, or an AI that cannot be built.
    pub fn read(text: &str, recover: bool) -> Result<Save, SaveError> {
        let host = Host::new(Limits::default());
        savefile::rebuild(text, None, &AgentParams::default(), &host, recover).map(Save).map_err(SaveError)
    }

    /// The game where the save leaves it.
    pub fn game(&self) -> &Game {
        &self.0.game
    }

    /// Every event of the game so far (for a recovered save, those of whole moves).
    pub fn events(&self) -> &[Event] {
        &self.0.events
    }

    /// The AI's spec that plays on, or `None` at a hot seat.
    pub fn ai(&self) -> Option<&str> {
        self.0.header.ai.as_deref()
    }

    /// The person's seat against the AI, or `None` at a hot seat.
    pub fn human(&self) -> Option<Player> {
        self.0.header.human
    }

    /// The line where the save's damage starts, when it was read with `recover` and is damaged.
    pub fn damaged_from(&self) -> Option<usize> {
        self.0.damage.as_ref().map(|damage| damage.line)
    }

    /// The save written again as this gin writes it (format version 2, every line sealed).
    ///
    /// # Errors
    /// None in practice: the header and the events always serialize.
    pub fn text(&self) -> Result<String, SaveError> {
        savefile::render(&self.0.header, &self.0.log, &self.0.events).map_err(SaveError)
    }
}

/// The text of a save of the game `events` (under `log`'s seed and rules), as `gin play` writes
/// it: against the AI `opponent` names with the person in its seat, or at a hot seat (`None`);
/// `forfeit` says why the AI forfeited, when it did.
///
/// # Errors
/// None in practice: the header and the events always serialize.
pub fn write(
    opponent: Option<(&str, Player)>,
    forfeit: Option<&str>,
    log: &LogHeader,
    events: &[Event],
) -> Result<String, SaveError> {
    let header = PlayHeader { forfeit: forfeit.map(str::to_owned), ..PlayHeader::new(opponent) };
    savefile::render(&header, log, events).map_err(SaveError)
}

/// `text` with every line's digest worked out again (and a version-2 header's `lines` counting
/// its lines), so that what was changed in it reaches the reader beneath the digests; `text`
/// itself when its line 1 is not a version-2 header.
pub fn reseal(text: &str) -> String {
    savefile::reseal(text)
}

/// What `gin saves` says of a save between its date and its file: its opponent, its score and
/// whether it is over (`vs mc  You 43 · AI 12  hand 3, unfinished`), a damaged save as
/// `--recover` would resume it.
///
/// # Errors
/// A text that is not a save, or one damaged beyond recovery.
pub fn summary(text: &str) -> Result<String, SaveError> {
    savefile::summary(text).map(|summary| described(&summary)).map_err(SaveError)
}

/// Why a save was refused, in words for the player (`{}` shows the whole message).
#[derive(Debug)]
pub struct SaveError(anyhow::Error);

impl SaveError {
    /// The line where a damaged save's damage starts (changed, cut short, lines added, or a
    /// move the referee refuses), when that is why it was refused.
    pub fn damaged_from(&self) -> Option<usize> {
        self.0.downcast_ref::<Damaged>().map(|Damaged(damage)| damage.line)
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for SaveError {}
