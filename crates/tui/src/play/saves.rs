//! `gin saves`: the games kept in the state folder, newest first, with their opponent, score and
//! whether they are finished.

use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use gin_rules::Player;

use super::{savefile, store};
use crate::files;
use crate::invocation::shell_path;

/// Lists the saved games on standard output.
///
/// # Errors
/// Standard output fails.
pub(crate) fn run() -> Result<()> {
    let games = store::saved_games();
    let mut text = String::new();
    if games.is_empty() {
        let _ = writeln!(text, "No saved games in {}.", store::games_dir().display());
    }
    for (path, modified) in &games {
        let _ = writeln!(text, "{}", line(path, *modified));
    }
    io::stdout().lock().write_all(text.as_bytes()).context("cannot write to standard output")?;
    Ok(())
}

/// One game: `2026-12-04 15:12  vs mc  You 43 · AI 12  hand 3, unfinished  FILE`.
fn line(path: &std::path::Path, modified: SystemTime) -> String {
    let secs = modified.duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs());
    let (year, month, day) = store::civil_date(secs / 86_400);
    let date = format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", secs % 86_400 / 3600, secs % 3600 / 60);
    let file = shell_path(path);
    let summary = files::read_text(path, "the save", files::MAX_SAVE_FILE).and_then(|text| savefile::summary(&text));
    match summary {
        Ok(summary) => format!("{date}  {}  {file}", described(&summary)),
        Err(err) => format!("{date}  {:<44}  {file}", savefile::printable(&format!("not readable: {err:#}"))),
    }
}

/// What the listing says of one save between its date and its file: `vs mc  You 43 · AI 12  hand
/// 3, unfinished`, each part in its column.
pub(crate) fn described(summary: &savefile::Summary) -> String {
    let name = |player: Player| match (summary.human, summary.ai.is_some()) {
        (Some(human), true) if human == player => "You".to_owned(),
        (Some(_), true) => "AI".to_owned(),
        _ => format!("Player {}", player.index() + 1),
    };
    let opponent = match &summary.ai {
        Some(ai) => format!("vs {}", savefile::printable(ai)),
        None => "hotseat".to_owned(),
    };
    let score = format!(
        "{} {} · {} {}",
        name(Player::One),
        summary.points[Player::One],
        name(Player::Two),
        summary.points[Player::Two]
    );
    let state = match (summary.damaged, summary.winner, &summary.forfeit) {
        (Some(line), _, _) => format!("damaged from line {line}"),
        (None, Some(winner), Some(_)) => format!("{} won, AI forfeited", name(winner)),
        (None, Some(winner), None) => format!("finished, {} won", name(winner)),
        (None, None, _) => format!("hand {}, unfinished", summary.hand),
    };
    format!("{opponent:<12}  {score:<22}  {state:<22}")
}
