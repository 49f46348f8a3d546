//! `gin completions SHELL` and `gin man [COMMAND]`: generated from the command line itself, so
//! they name the real subcommands and options; a bad shell or command is clap's usage error.

use crate::gin;

/// Every subcommand `gin --help` lists.
const COMMANDS: [&str; 9] = ["analyze", "bot", "completions", "man", "play", "replay", "saves", "settings", "sim"];

#[test]
fn bash_completes_every_command_and_plays_options() {
    let run = gin(&["completions", "bash"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr, "");
    let script = &run.stdout;
    assert!(script.contains("complete -F _gin"), "{script}");
    for command in COMMANDS {
        assert!(script.contains(&format!("gin,{command})")), "no `{command}` in:\n{script}");
    }
    for option in ["--resume", "--hotseat", "--ai", "--games"] {
        assert!(script.contains(option), "no `{option}` in:\n{script}");
    }
}

#[test]
fn every_shell_gets_a_script_for_gin() {
    let expected = [
        ("bash", "_gin()"),
        ("zsh", "#compdef gin"),
        ("fish", "complete -c gin"),
        ("elvish", "edit:completion:arg-completer[gin]"),
        ("powershell", "Register-ArgumentCompleter -Native -CommandName 'gin'"),
    ];
    for (shell, marker) in expected {
        let run = gin(&["completions", shell], "");
        assert_eq!(run.code, Some(0), "{shell}: {run:?}");
        assert!(run.stdout.contains(marker), "{shell}: no `{marker}` in:\n{}", run.stdout);
        assert!(run.stdout.contains("resume"), "{shell}: no --resume in:\n{}", run.stdout);
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error_naming_the_shells() {
    let run = gin(&["completions", "tcsh"], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("invalid value 'tcsh'"), "{}", run.stderr);
    assert!(run.stderr.contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{}", run.stderr);

    let none = gin(&["completions"], "");
    assert_eq!(none.code, Some(2), "{none:?}");
    assert!(none.stderr.contains("<SHELL>"), "{}", none.stderr);
}

#[test]
fn the_help_says_where_each_script_goes() {
    let run = gin(&["completions", "--help"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    for needle in [
        "gin completions bash > ~/.local/share/bash-completion/completions/gin",
        "~/.config/fish/completions/gin.fish",
        "_gin",
        "$PROFILE",
        "rc.elv",
        "start a new shell",
    ] {
        assert!(run.stdout.contains(needle), "no `{needle}` in:\n{}", run.stdout);
    }
    let man = gin(&["man", "--help"], "");
    assert_eq!(man.code, Some(0), "{man:?}");
    for needle in ["gin man | man -l -", "~/.local/share/man/man1", "gin-COMMAND(1)"] {
        assert!(man.stdout.contains(needle), "no `{needle}` in:\n{}", man.stdout);
    }
}

#[test]
fn the_manual_pages_are_roff_with_the_real_options() {
    let main = gin(&["man"], "");
    assert_eq!(main.code, Some(0), "{main:?}");
    assert!(main.stdout.contains(".TH gin 1"), "{}", main.stdout);
    assert!(main.stdout.contains(".SH SYNOPSIS"), "{}", main.stdout);
    for command in COMMANDS {
        assert!(main.stdout.contains(&format!("gin\\-{command}(1)")), "no `{command}` in:\n{}", main.stdout);
    }
    let play = gin(&["man", "play"], "");
    assert_eq!(play.code, Some(0), "{play:?}");
    assert!(play.stdout.contains(".TH gin-play 1"), "{}", play.stdout);
    assert!(play.stdout.contains("\\fB\\-\\-resume\\fR"), "{}", play.stdout);
    assert!(play.stdout.contains("gin play \\-\\-hotseat"), "the examples: {}", play.stdout);

    let unknown = gin(&["man", "chess"], "");
    assert_eq!(unknown.code, Some(2), "{unknown:?}");
    assert!(unknown.stderr.contains("invalid value 'chess'"), "{}", unknown.stderr);
}
