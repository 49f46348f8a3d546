//! Runs the built `gin` binary as a user would and checks what it prints and how it exits.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod completions;
mod examples;
mod external;
mod hostile;
mod league;
mod play;
mod replay;
mod sim;
mod wire;

/// docs/rules.md V10: the knocker's hand, deadwood 3.
const V10_KNOCKER: &str = "AS 2S 3S 7H 7D 7C JC QC KC 3H";
/// docs/rules.md V5: 11 cards whose best discard, `3D`, leaves gin.
const V5: &str = "AS 2S 4S 2H 4H AD 2D 3D 4D AC 2C";
/// docs/rules.md V4: all 11 cards melded.
const V4: &str = "AS 2S 3S 4S 5C 5D 5H 9H TH JH QH";

/// What one run of `gin` did.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `gin` with `args`, feeding `stdin` (or nothing) to it.
fn gin(args: &[&str], stdin: &str) -> Run {
    gin_bytes(args, stdin.as_bytes())
}

/// As [`gin`], with any bytes on standard input.
fn gin_bytes(args: &[&str], stdin: &[u8]) -> Run {
    gin_run(args, stdin, &[])
}

/// As [`gin`], with these environment variables set.
fn gin_with_env(args: &[&str], env: &[(&str, &std::path::Path)]) -> Run {
    gin_run(args, b"", env)
}

fn gin_run(args: &[&str], stdin: &[u8], env: &[(&str, &std::path::Path)]) -> Run {
    gin_within(args, stdin, env, Duration::from_secs(600)).0
}

/// Runs `gin` with `args`, `stdin` and `env`, failing the test if it takes longer than `limit`
/// (it is then left to the test's end): what no input may make it do. Returns the run and how
/// long it took.
fn gin_within(args: &[&str], stdin: &[u8], env: &[(&str, &std::path::Path)], limit: Duration) -> (Run, Duration) {
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_gin"));
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gin binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    // A thread of its own: gin may stop reading (or never start).
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let waiter = std::thread::spawn(move || child.wait_with_output());
    let deadline = started + limit;
    while !waiter.is_finished() {
        assert!(Instant::now() < deadline, "gin {args:?} still runs after {limit:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = waiter.join().expect("the waiter").expect("gin finishes");
    let _ = feeder.join();
    let run = Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    };
    assert!(!run.stderr.contains("panicked"), "{run:?}");
    (run, started.elapsed())
}

/// The JSON objects `gin` printed, one per line.
fn json_lines(run: &Run) -> Vec<Value> {
    run.stdout.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("{line}: {err}"))).collect()
}

/// Checks that a JSON object has exactly these fields (`serde_json` sorts them on reading).
fn assert_fields(object: &Value, expected: &[&str]) {
    let mut found: Vec<&str> = object.as_object().expect("an object").keys().map(String::as_str).collect();
    let mut expected = expected.to_vec();
    found.sort_unstable();
    expected.sort_unstable();
    assert_eq!(found, expected, "{object}");
}

/// Checks that `line` names the fields in this order.
fn assert_field_order(line: &str, fields: &[&str]) {
    let at: Vec<usize> = fields.iter().map(|field| line.find(&format!("\"{field}\":")).expect(field)).collect();
    assert!(at.is_sorted(), "{line}");
}

/// A file under the test's temporary directory, unique to `name`.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("the temporary directory is writable");
    path
}

#[test]
fn v10_knocker_hand_in_text() {
    let run = gin(&["analyze", V10_KNOCKER], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.stdout,
        "\
hand           AS 2S 3S 3H 7H 7D 7C JC QC KC
melds          [7H 7D 7C] [AS 2S 3S] [JC QC KC]
unmelded       3H
deadwood       3
can knock      yes: deadwood 3, limit 10
gin            no
"
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn cards_may_be_separate_arguments_in_any_spelling() {
    let spelled = ["as", "2♠", "3s", "7h", "7♦", "7C", "jc", "qc", "kc", "3h"];
    let mut args = vec!["analyze"];
    args.extend(spelled);
    assert_eq!(gin(&args, "").stdout, gin(&["analyze", V10_KNOCKER], "").stdout);
}

#[test]
fn ascii_forces_letters() {
    let run = gin(&["analyze", "--ascii", "A♠ 2♠ 3♠ 7♥ 7♦ 7♣ J♣ Q♣ K♣ 3♥"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.is_ascii(), "{}", run.stdout);
    assert!(run.stdout.contains("melds          [7H 7D 7C] [AS 2S 3S] [JC QC KC]\n"));
}

#[test]
fn eleven_cards_in_text_show_the_best_discard() {
    let run = gin(&["analyze", V5], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.starts_with("hand           AS 2S 4S 2H 4H AD 2D 3D 4D AC 2C  (11 cards)\n"));
    assert!(run.stdout.contains("\ndeadwood       2 with all 11 cards\n"), "{}", run.stdout);
    assert!(run.stdout.contains("\nbest discard   3D, leaving deadwood 0\n"), "{}", run.stdout);
    assert!(run.stdout.contains("\ngin            yes: discard 3D\n"), "{}", run.stdout);
}

#[test]
fn json_for_ten_cards_has_exactly_the_documented_fields() {
    let run = gin(&["analyze", "--json", V10_KNOCKER], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1);
    let report = &lines[0];
    let fields = ["hand", "deadwood", "melds", "unmelded", "can_knock", "gin"];
    assert_fields(report, &fields);
    assert_field_order(&run.stdout, &fields);
    assert_eq!(report["hand"].as_array().unwrap().len(), 10);
    assert_eq!(report["hand"][0], "AS");
    assert_eq!(report["deadwood"], 3);
    assert_eq!(report["melds"], serde_json::json!([["7H", "7D", "7C"], ["AS", "2S", "3S"], ["JC", "QC", "KC"]]));
    assert_eq!(report["unmelded"], serde_json::json!(["3H"]));
    assert_eq!(report["can_knock"], true);
    assert_eq!(report["gin"], false);
}

#[test]
fn json_for_eleven_cards_follows_v5() {
    let run = gin(&["analyze", "--json", V5], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1);
    let report = &lines[0];
    let fields =
        ["hand", "deadwood", "melds", "unmelded", "can_knock", "gin", "deadwood_after_discard", "best_discards"];
    assert_fields(report, &fields);
    assert_field_order(&run.stdout, &fields);
    assert_eq!(report["hand"].as_array().unwrap().len(), 11);
    // `deadwood`, `melds` and `unmelded` describe all 11 cards.
    assert_eq!(report["deadwood"], 2);
    assert_eq!(report["unmelded"], serde_json::json!(["AS", "AC"]));
    let melded: usize = report["melds"].as_array().unwrap().iter().map(|meld| meld.as_array().unwrap().len()).sum();
    assert_eq!(melded, 9);
    assert_eq!(report["deadwood_after_discard"], 0);
    assert_eq!(report["best_discards"], serde_json::json!(["3D"]));
    assert_eq!(report["can_knock"], true);
    assert_eq!(report["gin"], true);
}

#[test]
fn big_gin_is_gin_and_the_ruleset_decides_the_bonus() {
    let standard = gin(&["analyze", V4], "");
    assert!(standard.stdout.contains("\nbest discards  AS 4S 9H QH, each leaving deadwood 0\n"), "{}", standard.stdout);
    assert!(
        standard.stdout.contains("\ngin            yes: big gin, all 11 cards melded (bonus 31)\n"),
        "{}",
        standard.stdout
    );
    let pagat = gin(&["analyze", "--rules", "pagat", V4], "");
    assert_eq!(pagat.code, Some(0), "{pagat:?}");
    assert!(pagat.stdout.contains("big gin is off, so discard AS, 4S, 9H or QH and keep gin\n"), "{}", pagat.stdout);
    let json = json_lines(&gin(&["analyze", "--json", "--rules", "PAGAT", V4], ""));
    assert_eq!(json[0]["deadwood"], 0);
    assert_eq!(json[0]["gin"], true);
}

#[test]
fn lines_from_stdin_report_bad_lines_and_answer_the_rest() {
    let input = format!(
        "# a comment, then a blank line\n\n{V10_KNOCKER}\nXS 2S 3S 7H 7D 7C JC QC KC 3H\n\
         AS 2S 3S 7H 7D 7C JC QC KC 3Z\nAS 2S 3S 7H 7D 7C JC QC KC as\nAS 2S 3S\n{V5}\n"
    );
    let text = gin(&["analyze"], &input);
    assert_eq!(text.code, Some(1), "{text:?}");
    let errors: Vec<&str> = text.stderr.lines().collect();
    assert_eq!(
        errors,
        [
            "error: line 4: unknown rank `X` in `XS`: expected A, 2-9, T (or 10), J, Q or K",
            "error: line 5: unknown suit `Z` in `3Z`: expected S, H, D or C (or ♠ ♥ ♦ ♣)",
            "error: line 6: duplicate card AS (given again as `as`)",
            "error: line 7: wrong hand size: 3 cards, expected 10 or 11",
            "error: 4 lines could not be read as hands (2 hands answered)",
        ]
    );
    let blocks: Vec<&str> = text.stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{}", text.stdout);
    assert!(blocks[0].starts_with("hand           AS 2S 3S 3H 7H 7D 7C JC QC KC  (line 3)\n"));
    assert!(blocks[1].starts_with("hand           AS 2S 4S 2H 4H AD 2D 3D 4D AC 2C  (11 cards, line 8)\n"));

    let json = gin(&["analyze", "--json", "-"], &input);
    assert_eq!(json.code, Some(1), "{json:?}");
    let lines = json_lines(&json);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["deadwood"], 3);
    let errors: Vec<(i64, &str)> = lines[1..5]
        .iter()
        .map(|line| {
            assert_fields(line, &["line", "error"]);
            (line["line"].as_i64().unwrap(), line["error"].as_str().unwrap())
        })
        .collect();
    assert_eq!(errors[0].0, 4);
    assert!(errors[0].1.contains("`XS`"), "{}", errors[0].1);
    assert_eq!(errors[1].0, 5);
    assert!(errors[1].1.contains("unknown suit `Z` in `3Z`"), "{}", errors[1].1);
    assert_eq!(errors[2].0, 6);
    assert!(errors[2].1.contains("duplicate card AS"), "{}", errors[2].1);
    assert_eq!(errors[3].0, 7);
    assert!(errors[3].1.contains("3 cards, expected 10 or 11"), "{}", errors[3].1);
    assert_eq!(lines[5]["best_discards"], serde_json::json!(["3D"]));
}

#[test]
fn clean_input_exits_zero_with_one_json_line_per_hand() {
    let input = format!("{V10_KNOCKER}\r\n{V5}\n{V4}");
    let run = gin(&["analyze", "--json"], &input);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(json_lines(&run).len(), 3);
    assert_eq!(run.stderr, "");
}

#[test]
fn no_panic_on_junk() {
    let junk = [
        "",
        "   ",
        "garbage",
        "日本語 ♥♥♥ \u{fe0f}",
        "1",
        "10",
        "AS,,,2S",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH \
         AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    ];
    for hand in junk {
        let run = gin(&["analyze", hand], "");
        assert_eq!(run.code, Some(1), "{hand:?}: {run:?}");
        assert!(run.stderr.starts_with("error: invalid hand: "), "{run:?}");
        assert_eq!(run.stdout, "");
    }
    let mut lines = junk.join("\n").into_bytes();
    lines.extend_from_slice(b"\n\xff\xfe\n");
    let run = gin_bytes(&["analyze", "--json"], &lines);
    assert_eq!(run.code, Some(1), "{run:?}");
    let last = json_lines(&run).pop().unwrap();
    assert_eq!(last, serde_json::json!({"line": 9, "error": "not valid UTF-8 text"}));
}

#[test]
fn rules_from_a_json_file() {
    let limit_two = temp_file("limit-two.json", r#"{"knock_limit": 2}"#);
    let run = gin(&["analyze", "--rules", limit_two.to_str().unwrap(), V10_KNOCKER], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("\ncan knock      no: deadwood 3, limit 2\n"), "{}", run.stdout);

    let ace_high = temp_file("ace-high.json", r#"{"preset": "pagat", "ace_high": true}"#);
    let hand = "QS KS AS 2S 3S 5H 6H 7H 8H 9H";
    let low = json_lines(&gin(&["analyze", "--json", hand], ""));
    assert_eq!(low[0]["deadwood"], 20);
    let high = json_lines(&gin(&["analyze", "--json", "--rules", ace_high.to_str().unwrap(), hand], ""));
    assert_eq!(high[0]["deadwood"], 5);
    assert_eq!(high[0]["melds"][0], serde_json::json!(["QS", "KS", "AS"]));
    for path in [limit_two, ace_high] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn bad_rules_name_the_path() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gin-cli-no-such-rules.json");
    let missing = missing.to_str().unwrap();
    let run = gin(&["analyze", "--rules", missing, V10_KNOCKER], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.starts_with(&format!("error: cannot read the rules file `{missing}`: ")), "{}", run.stderr);
    assert_eq!(run.stdout, "");

    let invalid = temp_file("invalid.json", r#"{"knock_limit": 11}"#);
    let run = gin(&["analyze", "--rules", invalid.to_str().unwrap(), V10_KNOCKER], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: invalid rules file `{}`: setting `knock_limit` must be from 0 to 10, found 11\n",
            invalid.display()
        )
    );
    std::fs::remove_file(invalid).unwrap();

    let run = gin(&["analyze", "--rules", "okla", V10_KNOCKER], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.starts_with("error: --rules `okla` is neither a preset (standard, pagat, eaai, oklahoma)"),
        "{}",
        run.stderr
    );
}

#[test]
fn oklahoma_takes_the_limit_from_the_upcard() {
    // docs/rules.md V15: with an ace upcard the limit is 0, and deadwood 1 cannot knock.
    let deadwood_one = "AS 2S 3S 4H 5H 6H 7D 8D 9D AC";
    let ace = json_lines(&gin(&["analyze", "--json", "--rules", "oklahoma", "--upcard", "AC", deadwood_one], ""));
    assert_eq!(ace[0]["deadwood"], 1);
    assert_eq!(ace[0]["can_knock"], false);
    let two = json_lines(&gin(&["analyze", "--json", "--rules", "oklahoma", "--upcard", "2♣", deadwood_one], ""));
    assert_eq!(two[0]["can_knock"], true);

    let text = gin(&["analyze", "--rules", "oklahoma", "--upcard", "ah", V10_KNOCKER], "");
    assert!(
        text.stdout.contains("\ncan knock      no: deadwood 3, limit 0 from the upcard AH (gin only)\n"),
        "{}",
        text.stdout
    );
}

#[test]
fn oklahoma_without_an_upcard_answers_only_what_it_can() {
    let input = format!("{V10_KNOCKER}\n{V5}\n7S 8H 9D TC JS QH KD 2C 4S 6H\n");
    let json = json_lines(&gin(&["analyze", "--json", "--rules", "oklahoma"], &input));
    assert_eq!(json[0]["can_knock"], Value::Null);
    assert_eq!(json[1]["can_knock"], true, "gin knocks whatever the upcard");
    assert_eq!(json[2]["can_knock"], false, "deadwood above 10 never knocks");

    let text = gin(&["analyze", "--rules", "oklahoma", V10_KNOCKER], "");
    assert_eq!(text.code, Some(0), "{text:?}");
    assert!(
        text.stdout.contains(
            "\ncan knock      depends on the upcard: deadwood 3 needs 3 or higher \
             (oklahoma rules; give --upcard)\n"
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn a_bad_upcard_is_a_usage_error() {
    let run = gin(&["analyze", "--rules", "oklahoma", "--upcard", "1S", V10_KNOCKER], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("unknown rank `1` in `1S`"), "{}", run.stderr);
}

#[test]
fn help_teaches_the_notation_and_names_the_commands() {
    let top = gin(&["--help"], "");
    assert_eq!(top.code, Some(0), "{top:?}");
    assert!(top.stdout.contains("\n  analyze  "), "{}", top.stdout);
    assert!(top.stdout.contains("gin play"), "{}", top.stdout);
    let play = gin(&["play", "--help"], "");
    assert_eq!(play.code, Some(0), "{play:?}");
    for needle in ["--resume", "--hotseat", "--seed", "saved after every move"] {
        assert!(play.stdout.contains(needle), "{needle}: {}", play.stdout);
    }

    let analyze = gin(&["analyze", "--help"], "");
    assert_eq!(analyze.code, Some(0), "{analyze:?}");
    for needle in ["`TS`, `ts`, `10s` and `T♠`", "--upcard", "--rules", "--ascii", "Examples:"] {
        assert!(analyze.stdout.contains(needle), "{needle}: {}", analyze.stdout);
    }

    let version = gin(&["--version"], "");
    assert_eq!(version.stdout, format!("gin {}\n", env!("CARGO_PKG_VERSION")));
}

/// The line of `name` in a settings listing.
fn setting_line<'a>(listing: &'a str, name: &str) -> Option<&'a str> {
    listing.lines().find(|line| line.split_whitespace().next() == Some(name))
}

#[test]
fn settings_lists_every_setting_of_every_table_with_the_defaults_of_the_rules_given() {
    use gin_ai::{ExpertParams, HolderParams, McParams};
    use gin_rules::settings::Settings as _;

    let all = gin(&["settings"], "");
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    let names = gin_rules::Ruleset::table()
        .iter()
        .map(|s| s.name)
        .chain(ExpertParams::table().iter().map(|s| s.name))
        .chain(HolderParams::table().iter().map(|s| s.name))
        .chain(McParams::table().iter().map(|s| s.name));
    for name in names {
        assert!(setting_line(&all.stdout, name).is_some(), "`{name}` is missing:\n{}", all.stdout);
    }
    // The rules' defaults are those of --rules; the two search levels have their own.
    let standard = gin(&["settings", "rules"], "").stdout;
    let oklahoma = gin(&["settings", "rules", "--rules", "oklahoma"], "").stdout;
    assert!(setting_line(&standard, "knock_limit").unwrap().contains("(default 10)"), "{standard}");
    assert!(setting_line(&oklahoma, "knock_limit").unwrap().contains("(default \"upcard\")"), "{oklahoma}");
    let fast = gin(&["settings", "mc-fast"], "").stdout;
    let strong = gin(&["settings", "mc"], "").stdout;
    assert!(setting_line(&fast, "samples").unwrap().contains("(default 200)"), "{fast}");
    assert!(setting_line(&strong, "samples").unwrap().contains("(default 2000)"), "{strong}");
    assert!(setting_line(&strong, "danger_weight").is_none(), "only the asked table: {strong}");
    let holder = gin(&["settings", "holder"], "").stdout;
    assert!(setting_line(&holder, "knock_margin").unwrap().contains("(default 5.0)"), "{holder}");

    let bad = gin(&["settings", "everything"], "");
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("possible values: rules, expert, holder, mc-fast, mc"), "{}", bad.stderr);
}

#[test]
fn a_setting_out_of_range_in_a_spec_names_the_setting_its_range_and_the_value() {
    let run = gin(&["sim", "--a", "expert:danger_weight=500", "--games", "2"], "");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("setting `danger_weight` must be from -100 to 100, found 500"), "{}", run.stderr);
}
