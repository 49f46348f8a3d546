//! `gin replay`: a saved game hand by hand, the opponent's hidden cards kept hidden while the game
//! goes on, and damaged files refused.

use std::path::PathBuf;

use crate::gin;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_game_in_progress_replays_without_the_ais_cards() {
    let save = scratch("in-progress.gin");
    let path = save.to_str().unwrap();
    let run = gin(&["play", "--seed", "5", "--ai", "random", "--save", path], "quit\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = gin(&["replay", "--ascii", path], "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("Hand 1:"), "{}", run.stdout);
    assert!(run.stdout.contains("you hold"), "{}", run.stdout);
    assert!(!run.stdout.contains("the AI (random) holds"), "the AI's hand shows:\n{}", run.stdout);
    assert!(run.stdout.contains("--resume"), "{}", run.stdout);
    let summary = gin(&["replay", "--summary", path], "");
    assert_eq!(summary.code, Some(0), "{}", summary.stderr);
    assert!(summary.stdout.starts_with("seed 5, target 100"), "{}", summary.stdout);
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let save = scratch("damaged.gin");
    let path = save.to_str().unwrap();
    let run = gin(&["play", "--seed", "6", "--ai", "random", "--save", path], "quit\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&save).unwrap();
    // Change a dealt card of the human's hand: the deal no longer comes from the seed.
    let at = text.find("\"hands\":[[\"").unwrap() + "\"hands\":[[\"".len();
    let other = if &text[at..at + 2] == "KC" { "QC" } else { "KC" };
    let damaged = format!("{}{other}{}", &text[..at], &text[at + 2..]);
    std::fs::write(&save, damaged).unwrap();
    let run = gin(&["replay", path], "");
    assert_eq!(run.code, Some(1));
    // The save's digests name the line, and say how to play on from before it.
    let line = text[..at].matches('\n').count() + 1;
    assert!(
        run.stderr.contains(&format!(
            "{path} is damaged: line {line} was changed: its digest does not match the lines before it; "
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("play --resume {path} --recover` plays on from the last whole move before line {line}")),
        "{}",
        run.stderr
    );

    std::fs::write(&save, "{\"format\":\"chess\"}\n").unwrap();
    let run = gin(&["replay", path], "");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("not a gin game"), "{}", run.stderr);

    let run = gin(&["replay", "/nonexistent/game.gin"], "");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("cannot read the game file `/nonexistent/game.gin`"), "{}", run.stderr);
}
