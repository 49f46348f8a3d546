//! How this gin was started, for the messages that suggest a command to type next
//! (`Continue with: gin play --resume FILE`): after `cargo run --release -- play` there may be no
//! `gin` on the PATH, and a suggestion that does not run is worse than none.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The command that starts this gin, as one would type it in a shell:
/// - `gin` when the running program is the first `gin` on the PATH;
/// - `cargo run --release --`, `cargo run --` or `cargo run --profile NAME --` when it is a build
///   in a Cargo target folder (`target/release/gin`, `target/debug/gin`), to be typed in the
///   source tree;
/// - else the program's full path, quoted for the shell where it needs to be.
///
/// Suggestions append their arguments: `format!("{} play --resume {file}", gin_command())`.
pub(crate) fn gin_command() -> String {
    match std::env::current_exe() {
        Ok(exe) => command_for(&exe, std::env::var_os("PATH").as_deref()),
        // Nothing better to say than the name the documentation uses.
        Err(_) => "gin".to_owned(),
    }
}

/// [`gin_command`] for the program `exe`, with `path` as the PATH variable.
fn command_for(exe: &Path, path: Option<&OsStr>) -> String {
    let Some(name) = exe.file_name() else { return shell_word(&exe.display().to_string()) };
    if first_on_path(name, path).is_some_and(|found| same_file(&found, exe)) {
        let name = name.to_string_lossy();
        // The name as typed: `gin`, not `gin.exe`.
        let typed = name.strip_suffix(std::env::consts::EXE_SUFFIX).filter(|stem| !stem.is_empty());
        return shell_word(typed.unwrap_or(&name));
    }
    match cargo_profile(exe) {
        Some("debug") => "cargo run --".to_owned(),
        Some("release") => "cargo run --release --".to_owned(),
        Some(profile) => format!("cargo run --profile {} --", shell_word(profile)),
        None => shell_word(&exe.display().to_string()),
    }
}

/// The first file called `name` in the folders of `path`, as a shell would find the command.
fn first_on_path(name: &OsStr, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        // An empty entry means the current folder, which is not where gin was found.
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Whether two paths name one file (through links and `..`).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The Cargo profile folder (`debug`, `release`, or a custom profile's) holding `exe`, when it is
/// one in a Cargo target folder: one that Cargo marked with its `CACHEDIR.TAG`, possibly under a
/// target triple (`target/x86_64-unknown-linux-gnu/release/gin`).
fn cargo_profile(exe: &Path) -> Option<&str> {
    let profile_dir = exe.parent()?;
    let profile = profile_dir.file_name()?.to_str()?;
    let marked = |dir: &Path| dir.join("CACHEDIR.TAG").is_file();
    let target = profile_dir.parent()?;
    (marked(target) || target.parent().is_some_and(marked)).then_some(profile)
}

/// `text` as one shell word: as it is when it holds only characters no shell treats specially,
/// else in single quotes.
pub(crate) fn shell_word(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-~+=:,@".contains(c)) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A path as one shell word: see [`shell_word`].
pub(crate) fn shell_path(path: &Path) -> String {
    shell_word(&path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fresh folder of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gin-invocation-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// An empty file at `path`, its folders made.
    fn touch(path: &Path) -> PathBuf {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"").unwrap();
        path.to_owned()
    }

    fn path_of(dirs: &[&Path]) -> std::ffi::OsString {
        std::env::join_paths(dirs).unwrap()
    }

    #[test]
    fn the_first_gin_on_the_path_is_just_gin() {
        let dir = scratch("on-path");
        let exe = touch(&dir.join("bin/gin"));
        let path = path_of(&[&dir.join("empty"), &dir.join("bin")]);
        assert_eq!(command_for(&exe, Some(&path)), "gin");
        // Another gin earlier on the PATH would run instead: the full path is needed.
        touch(&dir.join("other/gin"));
        let path = path_of(&[&dir.join("other"), &dir.join("bin")]);
        assert_eq!(command_for(&exe, Some(&path)), exe.display().to_string());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_build_in_a_cargo_target_folder_is_cargo_run() {
        let dir = scratch("cargo");
        touch(&dir.join("target/CACHEDIR.TAG"));
        let release = touch(&dir.join("target/release/gin"));
        let debug = touch(&dir.join("target/debug/gin"));
        let custom = touch(&dir.join("target/profiling/gin"));
        assert_eq!(command_for(&release, None), "cargo run --release --");
        assert_eq!(command_for(&debug, Some(OsStr::new(""))), "cargo run --");
        assert_eq!(command_for(&custom, None), "cargo run --profile profiling --");
        let triple = touch(&dir.join("target/x86_64-unknown-linux-gnu/release/gin"));
        assert_eq!(command_for(&triple, None), "cargo run --release --");
        // Installed from there onto the PATH, it is gin again.
        assert_eq!(command_for(&release, Some(&path_of(&[&dir.join("target/release")]))), "gin");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn elsewhere_it_is_the_full_path_quoted_for_the_shell() {
        let dir = scratch("elsewhere");
        // A `release` folder that is no Cargo target folder.
        let plain = touch(&dir.join("opt/release/gin"));
        assert_eq!(command_for(&plain, None), plain.display().to_string());
        let spaced = touch(&dir.join("my games/gin"));
        assert_eq!(command_for(&spaced, None), format!("'{}'", spaced.display()));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("games/2026-01-02-seed-7.gin"), "games/2026-01-02-seed-7.gin");
        assert_eq!(shell_word("my game.gin"), "'my game.gin'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn the_running_test_is_named_somehow() {
        assert!(!gin_command().is_empty());
    }
}
