//! The golden wire fixture (`fixtures/protocol/`): one pair of games between `holder` and an
//! agent program (`gin bot --agent expert`), every message the host sent and every answer, byte
//! for byte, and the example exchange of docs/protocol.md checked against it.
//!
//! The pair is `gin sim --a holder --b 'cmd:RELAY gin bot --agent expert' --rules
//! fixtures/protocol/v2/rules.json --games 1 --seed 24 --threads 1`, where the relay, a shell
//! script, copies each direction to a file. It holds every message kind, every event kind
//! (`stock_rebuilt` and big gin among them) and every answer kind. A change of the wire is made on
//! purpose: `GIN_BLESS_WIRE=1 cargo test -p gin-cli --test it wire` rewrites the fixture, and the
//! protocol's version goes up with it when the change breaks a reader.

use std::path::{Path, PathBuf};

use super::{gin, json_lines};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The folder of the fixture of protocol version `version`.
fn fixture(version: u32) -> PathBuf {
    root().join(format!("fixtures/protocol/v{version}"))
}

/// Plays the fixture's pair through a relay and returns what the host wrote and what the
/// program answered.
fn record(name: &str) -> (String, String) {
    record_as(name, "cmd:")
}

/// As [`record`], with the program started under `prefix` (`cmd:` or `cmd-v1:`).
fn record_as(name: &str, prefix: &str) -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("wire-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let relay = dir.join("relay.sh");
    std::fs::write(&relay, "#!/bin/sh\nd=$1; shift\ntee -a \"$d/host.jsonl\" | \"$@\" | tee -a \"$d/answers.jsonl\"\n")
        .unwrap();
    let program =
        format!("{prefix}sh {} {} {} bot --agent expert", relay.display(), dir.display(), env!("CARGO_BIN_EXE_gin"));
    let rules = fixture(2).join("rules.json");
    let run = gin(
        &[
            "sim",
            "--a",
            "holder",
            "--b",
            &program,
            "--rules",
            rules.to_str().unwrap(),
            "--games",
            "1",
            "--seed",
            "24",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!run.stderr.contains("forfeit"), "{run:?}");
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).unwrap();
    let recorded = (read("host.jsonl"), read("answers.jsonl"));
    std::fs::remove_dir_all(&dir).unwrap();
    recorded
}

/// The kinds of message (`type`) and event (`event`) in a file of JSON lines, and the knocks'
/// `kind`s.
fn kinds(lines: &str) -> std::collections::BTreeSet<String> {
    let mut kinds = std::collections::BTreeSet::new();
    for line in lines.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|err| panic!("{line}: {err}"));
        kinds.insert(value["type"].as_str().unwrap().to_owned());
        if let Some(event) = value["event"]["event"].as_str() {
            kinds.insert(format!("event {event}"));
            if let Some(kind) = value["event"]["kind"].as_str() {
                kinds.insert(format!("knocked {kind}"));
            }
        }
    }
    kinds
}

#[test]
fn the_wire_is_the_golden_fixture_byte_for_byte() {
    let (host, answers) = record("golden");
    let dir = fixture(2);
    if std::env::var_os("GIN_BLESS_WIRE").is_some() {
        std::fs::write(dir.join("host.jsonl"), &host).unwrap();
        std::fs::write(dir.join("answers.jsonl"), &answers).unwrap();
    }
    let expected_host = std::fs::read_to_string(dir.join("host.jsonl")).unwrap();
    let expected_answers = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    // Line by line first, so that a failure names the first line that differs.
    for (number, (got, want)) in host.lines().zip(expected_host.lines()).enumerate() {
        assert_eq!(got, want, "host line {} differs from fixtures/protocol/v2/host.jsonl", number + 1);
    }
    for (number, (got, want)) in answers.lines().zip(expected_answers.lines()).enumerate() {
        assert_eq!(got, want, "answer line {} differs from fixtures/protocol/v2/answers.jsonl", number + 1);
    }
    assert!(host == expected_host, "the host's messages differ from the fixture in length or line ends");
    assert!(answers == expected_answers, "the answers differ from the fixture in length or line ends");
}

#[test]
fn the_fixture_holds_every_kind_of_message_event_and_answer() {
    let dir = fixture(2);
    let host = kinds(&std::fs::read_to_string(dir.join("host.jsonl")).unwrap());
    for kind in ["start_game", "start_hand", "event", "decide", "end_game", "quit"] {
        assert!(host.contains(kind), "no `{kind}` message in the fixture: {host:?}");
    }
    for event in [
        "game_started",
        "hand_started",
        "took_upcard",
        "passed_upcard",
        "drew_stock",
        "drew_pile",
        "discarded",
        "stock_rebuilt",
        "knocked",
        "hand_ended",
        "game_ended",
    ] {
        assert!(host.contains(&format!("event {event}")), "no `{event}` event in the fixture: {host:?}");
    }
    for kind in ["knock", "gin", "big_gin"] {
        assert!(host.contains(&format!("knocked {kind}")), "no knock of kind `{kind}` in the fixture: {host:?}");
    }
    let answers = kinds(&std::fs::read_to_string(dir.join("answers.jsonl")).unwrap());
    for kind in ["take_upcard", "pass_upcard", "draw_stock", "draw_pile", "discard", "knock", "big_gin", "lay_off"] {
        assert!(answers.contains(kind), "no `{kind}` answer in the fixture: {answers:?}");
    }
}

/// The example exchange of docs/protocol.md: its `>` and `<` lines, with `...` where it cuts.
fn documented_exchange() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/protocol.md")).unwrap();
    let start = doc.find("## An example exchange").expect("docs/protocol.md has an example exchange");
    let section = &doc[start..];
    let block = section.split("```").nth(1).expect("the example is a code block");
    block.lines().filter(|line| line.starts_with("> ") || line.starts_with("< ")).map(str::to_owned).collect()
}

/// Whether `line` is `documented` with its cuts (`...`) filled in.
fn fits(documented: &str, line: &str) -> bool {
    let mut rest = line;
    let pieces: Vec<&str> = documented.split("...").collect();
    for (index, piece) in pieces.iter().enumerate() {
        let found = if index == 0 {
            rest.starts_with(piece).then_some(0)
        } else if index == pieces.len() - 1 {
            rest.ends_with(piece).then(|| rest.len() - piece.len())
        } else {
            rest.find(piece)
        };
        let Some(at) = found else { return false };
        rest = &rest[at + piece.len()..];
    }
    true
}

#[test]
fn the_documented_exchange_is_the_fixture_with_cuts() {
    let dir = fixture(2);
    let host = std::fs::read_to_string(dir.join("host.jsonl")).unwrap();
    let answers = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    let mut host = host.lines();
    let mut answers = answers.lines();
    let documented = documented_exchange();
    assert!(documented.len() > 20, "{documented:?}");
    for line in documented {
        let (direction, text) = line.split_at(2);
        if text == "..." {
            continue;
        }
        let lines = if direction == "> " { &mut host } else { &mut answers };
        // The documented lines come in the fixture's order; a cut may skip lines between them.
        assert!(
            lines.any(|recorded| fits(text, recorded)),
            "docs/protocol.md's example line is not in fixtures/protocol/v2 (in order, with its cuts): {line}"
        );
    }
}

#[test]
fn gin_bot_answers_the_fixture_as_it_did_and_ignores_fields_it_does_not_know() {
    let dir = fixture(2);
    let host = std::fs::read_to_string(dir.join("host.jsonl")).unwrap();
    let answers = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    let run = gin(&["bot", "--agent", "expert"], &host);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout == answers, "gin bot's answers to fixtures/protocol/v2/host.jsonl are not answers.jsonl");
    // A newer host adds fields anywhere: gin bot reads past them and plays the same.
    let added: String = host
        .lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            add_unknown_fields(&mut value);
            value.to_string() + "\n"
        })
        .collect();
    // The field is in nested objects too (events, views, showings, rules), not only at the top.
    assert!(added.matches("added_later").count() > 3 * host.lines().count());
    let run = gin(&["bot", "--agent", "expert"], &added);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout == answers, "unknown fields changed gin bot's answers");
}

/// Adds a field no reader knows to every object of `value`, at every depth.
fn add_unknown_fields(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(add_unknown_fields);
            fields.insert("added_later".to_owned(), serde_json::json!({"x": [1, null]}));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(add_unknown_fields),
        _ => {}
    }
}

#[test]
fn gin_bot_plays_a_whole_exchange_of_a_first_version_host() {
    // The host's side of two games, as the gin of the first version wrote it.
    let host = std::fs::read_to_string(fixture(1).join("host.jsonl")).unwrap();
    let run = gin(&["bot", "--agent", "simple"], &host);
    assert_eq!(run.code, Some(0), "{run:?}");
    let decisions: Vec<serde_json::Value> = host
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|message| message["type"] == "decide")
        .collect();
    let answers = json_lines(&run);
    assert_eq!(answers.len(), decisions.len(), "one answer a decision");
    for (answer, decision) in answers.iter().zip(&decisions) {
        // Each answer is one of the decision's legal actions (with the cards it shows), and
        // names no decision: the first version numbers none.
        assert!(answer.get("id").is_none(), "{answer}");
        let mut action = answer.clone();
        let fields = action.as_object_mut().unwrap();
        fields.remove("melds");
        fields.remove("laid_off");
        assert!(decision["legal"].as_array().unwrap().contains(&action), "{answer} is not legal in {decision}");
    }
    assert!(answers.iter().any(|answer| answer["type"] == "lay_off"), "the exchange answers knocks");
}

#[test]
fn a_first_version_program_is_seated_and_plays_as_the_current_one() {
    let sim = |b: &str| {
        let run =
            gin(&["sim", "--a", "simple", "--b", b, "--rules", "eaai", "--games", "4", "--seed", "2", "--json"], "");
        assert_eq!(run.code, Some(0), "{run:?}");
        assert!(!run.stderr.contains("forfeit"), "{run:?}");
        let mut result = json_lines(&run).remove(0);
        result["b"]["name"] = serde_json::Value::Null;
        result
    };
    let bot = format!("{} bot --agent simple", env!("CARGO_BIN_EXE_gin"));
    let builtin = sim("simple");
    assert_eq!(sim(&format!("cmd-v1:{bot}")), builtin);
    assert_eq!(sim(&format!("cmd:{bot}")), builtin);
}

/// The fields of a message, and of its event, view or knock, in order: what a reader of a version
/// reads.
fn shape(line: &str) -> (String, Vec<String>) {
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    let keys = |value: &serde_json::Value| -> Vec<String> {
        value.as_object().map(|fields| fields.keys().cloned().collect()).unwrap_or_default()
    };
    let mut kind = value["type"].as_str().unwrap().to_owned();
    let mut fields = keys(&value);
    for part in ["event", "view", "score"] {
        if value[part].is_object() {
            fields.push(format!("{part}: {}", keys(&value[part]).join(",")));
        }
    }
    if let Some(event) = value["event"]["event"].as_str() {
        kind = format!("event {event}");
        if value["event"]["score"].is_object() {
            fields.push(format!("score: {}", keys(&value["event"]["score"]).join(",")));
        }
    }
    (kind, fields)
}

#[test]
fn the_host_speaks_the_first_version_to_a_cmd_v1_program() {
    // serde_json keeps fields in the order written (its preserve_order feature is off: keys are
    // sorted), so the order is checked on the text itself.
    let first = std::fs::read_to_string(fixture(1).join("host.jsonl")).unwrap();
    let mut shapes = std::collections::BTreeMap::new();
    for line in first.lines() {
        let (kind, fields) = shape(line);
        shapes.entry(kind).or_insert_with(std::collections::BTreeSet::new).insert(fields);
        assert_fields_in_order(line);
    }
    let (host, answers) = record_as("first-version", "cmd-v1:");
    assert!(!answers.contains(r#""id""#), "the first version numbers no decision, so no answer names one");
    let mut seen = std::collections::BTreeSet::new();
    for line in host.lines() {
        let (kind, fields) = shape(line);
        seen.insert(kind.clone());
        // Kinds the first version's recording lacks (a stock rebuilt, say) are checked for the
        // fields that changed only.
        match shapes.get(&kind) {
            Some(known) => assert!(known.contains(&fields), "{kind} as the first version never wrote it: {line}"),
            None => assert!(!line.contains(r#""shown""#) && !line.contains(r#""showdown""#), "{line}"),
        }
        assert_fields_in_order(line);
    }
    for kind in ["start_game", "decide", "event knocked", "event laid_off", "event hand_ended", "quit"] {
        assert!(seen.contains(kind), "no {kind} in {seen:?}");
    }
    assert!(host.starts_with(r#"{"type":"start_game","version":1,"#));
}

/// Checks that the fields of every object on `line` come in an order the first version wrote:
/// `type` first, and `event` first in an event.
fn assert_fields_in_order(line: &str) {
    assert!(line.starts_with(r#"{"type":"#), "{line}");
    if line.starts_with(r#"{"type":"event""#) {
        assert!(line.starts_with(r#"{"type":"event","event":{"event":"#), "{line}");
    }
}
