//! Where games are kept: one file per game in the state folder, named by its date and seed; a
//! lock that keeps two sessions off one game; no temporary file left behind; a save reached
//! through symbolic links written where they lead, and only over a regular file its owner may
//! write.

use std::fs::{self, File, Metadata, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};

/// The folder of gin's state: `$XDG_STATE_HOME/gin`, else `$HOME/.local/state/gin`, else `gin`
/// in the current directory.
pub(crate) fn state_dir() -> PathBuf {
    let non_empty = |name| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    let state = non_empty("XDG_STATE_HOME")
        .filter(|dir| dir.is_absolute())
        .or_else(|| non_empty("HOME").map(|home| home.join(".local").join("state")));
    state.unwrap_or_default().join("gin")
}

/// The folder that holds one file per game.
pub(crate) fn games_dir() -> PathBuf {
    state_dir().join("games")
}

/// A new game's file in [`games_dir`]: `2026-12-04-151233-seed-42.gin` (the time in UTC), with
/// `-2`, `-3`... before `.gin` if that name is taken.
pub(crate) fn new_game_path(seed: u64, now: SystemTime) -> PathBuf {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs());
    let (year, month, day) = civil_date(secs / 86_400);
    let time = secs % 86_400;
    let stem =
        format!("{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}-seed-{seed}", time / 3600, time / 60 % 60, time % 60);
    let dir = games_dir();
    let mut path = dir.join(format!("{stem}.gin"));
    let mut n = 2;
    while fs::symlink_metadata(&path).is_ok() {
        path = dir.join(format!("{stem}-{n}.gin"));
        n += 1;
    }
    path
}

/// The date (year, month, day) of the day `days` after 1970-01-01, in the proleptic Gregorian
/// calendar.
pub(crate) fn civil_date(days: u64) -> (u64, u64, u64) {
    // Days since 0000-03-01, counted in 400-year eras of 146,097 days.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

/// The saved games: every `*.gin` file in [`games_dir`] and in [`state_dir`] (where earlier
/// versions kept `last-game.gin`), newest first.
pub(crate) fn saved_games() -> Vec<(PathBuf, SystemTime)> {
    let mut games = Vec::new();
    for dir in [games_dir(), state_dir()] {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_game = path.extension().is_some_and(|ext| ext == "gin")
                && !path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.'));
            let Ok(meta) = entry.metadata() else { continue };
            if is_game && meta.is_file() {
                games.push((path, meta.modified().unwrap_or(UNIX_EPOCH)));
            }
        }
    }
    games.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| b.0.cmp(&a.0)));
    games
}

/// The lock of one game's save, held while a session plays it: a file `.NAME.lock` beside the
/// save, locked exclusively (an advisory lock: the operating system drops it if the process
/// dies), and removed when the session ends.
#[derive(Debug)]
pub(crate) struct Lock {
    path: PathBuf,
    _file: File,
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Locks the game saved in `save` for this session, then removes the temporary files an
/// interrupted write of it left (only the lock's holder writes them).
///
/// # Errors
/// Another session holds the lock, or its folder cannot be written.
pub(crate) fn lock(save: &Path) -> Result<Lock> {
    let dir = parent(save);
    fs::create_dir_all(dir).with_context(|| format!("cannot create the directory `{}`", dir.display()))?;
    let name = file_name(save);
    let path = dir.join(format!(".{name}.lock"));
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot create the lock file `{}`", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(anyhow!(
                "another `gin play` is playing the game saved in `{}`: finish or quit it there first",
                save.display()
            ));
        }
        Err(TryLockError::Error(err)) => {
            return Err(err).with_context(|| format!("cannot lock `{}`", path.display()));
        }
    }
    clean_temporaries(dir, &name);
    Ok(Lock { path, _file: file })
}

/// Removes `.NAME.*.tmp` in `dir`: what an interrupted write of the save `NAME` left.
fn clean_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.");
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if file.starts_with(&prefix) && file.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The most symbolic links [`resolve`] follows: more is taken for a loop.
const MAX_LINKS: usize = 40;

/// The file a save's path leads to: the path itself, or the end of the chain of symbolic links
/// it starts (a dangling link's target is where the file goes). A save is written there, over
/// the target, so that the links stay links; its lock is taken there, so that two sessions
/// through two links to one save still keep each other off.
///
/// # Errors
/// A link that cannot be read, or a chain of more than 40 links (a loop).
pub(crate) fn resolve(path: &Path) -> Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)
                    .with_context(|| format!("cannot read the symbolic link `{}`", current.display()))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            // Nothing there (the file is made there), or not a link: the end of the chain.
            _ => return Ok(current),
        }
    }
    bail!("`{}`: more than {MAX_LINKS} symbolic links lead on from it (a loop?)", path.display())
}

/// What is at a save's resolved path ([`resolve`]): nothing (`None`), or a regular file gin may
/// replace, with its metadata (the written save keeps its permission bits).
///
/// # Errors
/// Something that is not a regular file (a FIFO, a device, a directory: the message says which),
/// a file without its owner's write bit (never replaced: its owner said not to), or a path
/// that cannot be looked at.
pub(crate) fn check_target(target: &Path) -> Result<Option<Metadata>> {
    let shown = target.display();
    match fs::symlink_metadata(target) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("cannot look at the save file `{shown}`")),
        Ok(meta) if !meta.is_file() => {
            bail!(
                "the save file `{shown}` is {}, not a regular file, and gin saves only to regular files",
                crate::files::kind(&meta)
            )
        }
        Ok(meta) if !owner_may_write(&meta) => bail!(
            "the save file `{shown}` is read-only (mode {}), and gin never replaces a save its owner may not \
             write: make it writable (chmod u+w) or save to another file with --save FILE",
            mode(&meta)
        ),
        Ok(meta) => Ok(Some(meta)),
    }
}

/// Whether the file's owner has the write bit (whoever gin runs as: root too).
#[cfg(unix)]
fn owner_may_write(meta: &Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o200 != 0
}

/// Whether the file is not marked read-only.
#[cfg(not(unix))]
fn owner_may_write(meta: &Metadata) -> bool {
    !meta.permissions().readonly()
}

/// A file's permission bits for a message: `0444`.
#[cfg(unix)]
fn mode(meta: &Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    format!("{:04o}", meta.permissions().mode() & 0o7777)
}

/// A file's permissions for a message.
#[cfg(not(unix))]
fn mode(_meta: &Metadata) -> String {
    "read-only".to_owned()
}

/// The folder a save is written in.
pub(crate) fn parent(path: &Path) -> &Path {
    path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// A save's file name, for the names of its lock and temporary files.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| "game".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_follow_the_calendar() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_791), (2026, 12, 4));
        assert_eq!(civil_date(20_818), (2026, 12, 31));
        assert_eq!(civil_date(20_819), (2027, 1, 1));
    }

    #[test]
    fn a_games_name_has_its_date_time_and_seed() {
        let at = UNIX_EPOCH + Duration::from_secs(20_791 * 86_400 + 15 * 3600 + 12 * 60 + 33);
        let path = new_game_path(42, at);
        assert_eq!(path.file_name().unwrap(), "2026-12-04-151233-seed-42.gin");
        assert_eq!(path.parent().unwrap(), games_dir());
    }

    #[test]
    fn a_lock_keeps_a_second_session_off_and_cleans_temporaries() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/tmp")
            .join(format!("gin-lock-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let save = dir.join("game.gin");
        let stale = dir.join(".game.gin.12345.tmp");
        let other = dir.join(".other.gin.12345.tmp");
        fs::write(&stale, "half a save").unwrap();
        fs::write(&other, "another game's").unwrap();
        let held = lock(&save).unwrap();
        assert!(!stale.exists() && other.exists());
        let err = lock(&save).unwrap_err().to_string();
        assert!(err.contains("another `gin play` is playing the game saved in"), "{err}");
        drop(held);
        let again = lock(&save).unwrap();
        drop(again);
        fs::remove_dir_all(dir).unwrap();
    }
}
