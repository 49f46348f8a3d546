//! `cmd:` agents and `gin bot`: the external-agent protocol, with well-behaved and broken programs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::{gin, temp_file};

/// `python3`, which these tests need: they fail, rather than skip, without it.
fn python3() -> &'static str {
    let found = Command::new("python3").arg("--version").output().is_ok_and(|output| output.status.success());
    assert!(found, "python3 is not on the PATH: the external-agent tests run Python agent programs");
    "python3"
}

/// The example agent of docs/examples.
fn example_agent() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/random_agent.py")
}

/// A Python agent that plays the first legal action (echoing the decision's `id`), except that
/// at a decision it does `misbehave` (Python statements, with `m` the decide message) when
/// `when` holds.
fn broken_agent(name: &str, when: &str, misbehave: &str) -> PathBuf {
    let script = format!(
        "import json, sys, time\n\
         print('agent starting', file=sys.stderr, flush=True)\n\
         for line in sys.stdin:\n    \
             m = json.loads(line)\n    \
             if m['type'] == 'decide':\n        \
                 if {when}:\n            \
                     {misbehave}\n        \
                 print(json.dumps(dict(m['legal'][0], id=m['id'])), flush=True)\n    \
             elif m['type'] == 'quit':\n        \
                 break\n"
    );
    temp_file(&format!("{name}.py"), &script)
}

/// A Python relay between a host and a program: `python3 relay.py LOG PROGRAM ARGS...` passes
/// every line through and appends the exchange to `LOG`, the host's lines as `> LINE`, the
/// program's as `< LINE`.
fn relay() -> PathBuf {
    let script = "import subprocess, sys, threading\n\
                  log = open(sys.argv[1], 'a', buffering=1)\n\
                  lock = threading.Lock()\n\
                  child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n\
                  def answers():\n    \
                      for line in child.stdout:\n        \
                          with lock:\n            \
                              log.write('< ' + line)\n        \
                          sys.stdout.write(line)\n        \
                          sys.stdout.flush()\n\
                  reader = threading.Thread(target=answers)\n\
                  reader.start()\n\
                  for line in sys.stdin:\n    \
                      with lock:\n        \
                          log.write('> ' + line)\n    \
                      child.stdin.write(line)\n    \
                      child.stdin.flush()\n\
                  child.stdin.close()\n\
                  reader.join()\n\
                  sys.exit(child.wait())\n";
    temp_file("relay.py", script)
}

/// `gin sim` of `a` against simple, `games` games on one thread, as JSON.
fn sim_against_simple(a: &str, games: &str, extra: &[&str]) -> (super::Run, Value) {
    let mut args = vec!["sim", "--a", a, "--b", "simple", "--games", games, "--threads", "1", "--json"];
    args.extend_from_slice(extra);
    let run = gin(&args, "");
    let figures = serde_json::from_str(run.stdout.trim()).unwrap_or_else(|err| panic!("{err}: {run:?}"));
    (run, figures)
}

#[test]
fn the_python_example_plays_whole_games() {
    let agent = format!("cmd:{} {}", python3(), example_agent().display());
    let (run, figures) = sim_against_simple(&agent, "4", &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(figures["games"], 4);
    assert_eq!(figures["forfeits"], 0, "{run:?}");
    assert_eq!(figures["a"]["name"], agent);
    assert!(figures["a"]["discards"].as_u64().unwrap() > 0);
    assert!(!run.stderr.contains("forfeits"), "{run:?}");
}

#[test]
fn a_builtin_agent_over_the_protocol_plays_exactly_as_itself() {
    let bot = format!("cmd:{} bot --agent simple", env!("CARGO_BIN_EXE_gin"));
    let args = ["--rules", "eaai", "--seed", "11"];
    let (run, mut over_protocol) = sim_against_simple(&bot, "6", &args);
    assert_eq!(run.code, Some(0), "{run:?}");
    let (_, built_in) = sim_against_simple("simple", "6", &args);
    assert_eq!(over_protocol["a"]["name"], bot);
    over_protocol["a"]["name"] = "simple".into();
    assert_eq!(over_protocol, built_in);
}

#[test]
fn a_knock_left_to_the_engine_shows_its_melds_on_the_wire() {
    // greedy leaves its melds and its defense to the engine: `gin bot` sends the engine's choice.
    let log = temp_file("greedy-exchange.log", "");
    let bot = format!(
        "cmd:{} {} {} {} bot --agent greedy",
        python3(),
        relay().display(),
        log.display(),
        env!("CARGO_BIN_EXE_gin")
    );
    let args = ["--seed", "3"];
    let (run, mut over_protocol) = sim_against_simple(&bot, "2", &args);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(over_protocol["forfeits"], 0, "{run:?}");
    let (_, built_in) = sim_against_simple("greedy", "2", &args);
    over_protocol["a"]["name"] = "greedy".into();
    assert_eq!(over_protocol, built_in);

    let exchange = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<(char, Value)> = exchange
        .lines()
        .map(|line| {
            let (side, json) = line.split_at(2);
            (side.chars().next().unwrap(), serde_json::from_str(json).unwrap_or_else(|err| panic!("{line}: {err}")))
        })
        .collect();
    let (mut knocks, mut defenses) = (0, 0);
    for (at, (side, answer)) in lines.iter().enumerate() {
        if *side != '<' {
            continue;
        }
        // The event that tells the answer back: the knock, or the end of the hand it answers.
        let told = |event: &str| {
            lines[at..]
                .iter()
                .find(|(side, message)| *side == '>' && message["event"]["event"] == event)
                .map(|(_, message)| message["event"].clone())
                .unwrap_or_else(|| panic!("no {event} after {answer}"))
        };
        match answer["type"].as_str().unwrap() {
            "knock" | "big_gin" => {
                knocks += 1;
                assert!(answer["melds"].as_array().is_some_and(|melds| !melds.is_empty()), "{answer}");
                assert_eq!(told("knocked")["shown"]["melds"], answer["melds"], "{answer}");
            }
            "lay_off" => {
                defenses += 1;
                let shown = told("hand_ended")["showdown"]["shown"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|shown| shown["melds"] == answer["melds"] && shown["laid_off"] == answer["laid_off"])
                    .cloned();
                assert!(shown.is_some(), "{answer}");
            }
            _ => assert!(answer.get("melds").is_none() && answer.get("laid_off").is_none(), "{answer}"),
        }
    }
    assert!(knocks > 0 && defenses > 0, "{knocks} knocks, {defenses} defenses:\n{exchange}");
    std::fs::remove_file(log).unwrap();
}

/// Runs a broken program as `--a` and checks that both games end in its forfeit, with a note
/// that names the program and says `why`.
fn assert_forfeits(program: &Path, why: &str, extra: &[&str]) {
    let agent = format!("cmd:{} {}", python3(), program.display());
    let (run, figures) = sim_against_simple(&agent, "2", extra);
    assert_eq!(run.code, Some(0), "the match is played, forfeits included: {run:?}");
    assert_eq!(figures["forfeits"], 2, "{run:?}");
    assert_eq!(figures["a"]["forfeits"], 2, "{run:?}");
    assert_eq!(figures["b"]["wins"], 2, "{run:?}");
    let notes: Vec<&str> = run.stderr.lines().filter(|line| line.contains("--a forfeits")).collect();
    assert_eq!(notes.len(), 2, "{run:?}");
    for note in notes {
        assert!(note.contains(&format!("program `python3 {}`", program.display())), "{note}");
        assert!(note.contains(why), "expected `{why}` in: {note}");
        let log = note.rsplit_once("its standard error is in ").expect("the log is named").1.trim_end_matches(')');
        assert!(std::fs::read_to_string(log).is_ok_and(|text| text.starts_with("agent starting\n")), "{note}");
        let _ = std::fs::remove_file(log);
    }
}

#[test]
fn a_program_that_crashes_forfeits() {
    let program = broken_agent("crash", "True", "sys.exit(3)");
    assert_forfeits(&program, "exited with status 3 before answering", &[]);
}

#[test]
fn a_program_that_hangs_forfeits_after_the_timeout() {
    let program = broken_agent("hang", "True", "time.sleep(60)");
    assert_forfeits(
        &program,
        "did not answer its first decision within 1.5 s (0.5 s to start and 1 s to decide)",
        &["--agent-timeout", "1", "--agent-startup", "0.5"],
    );
    // A later decision has the decision's time alone.
    let program = broken_agent("hang-later", "m['view']['draws'] > 2", "time.sleep(60)");
    assert_forfeits(&program, "did not answer within 1 s (it was stopped)", &["--agent-timeout", "1"]);
}

#[test]
fn starting_up_has_its_own_time() {
    // A program that takes 1.5 s to start, then answers at once.
    let script = "import json, sys, time\n\
                  time.sleep(1.5)\n\
                  for line in sys.stdin:\n    \
                      m = json.loads(line)\n    \
                      if m['type'] == 'decide':\n        \
                          print(json.dumps(m['legal'][0]), flush=True)\n    \
                      elif m['type'] == 'quit':\n        \
                          break\n";
    let program = temp_file("slow-start.py", script);
    let agent = format!("cmd:{} {}", python3(), program.display());
    let (run, figures) = sim_against_simple(&agent, "2", &["--agent-timeout", "1"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(figures["forfeits"], 0, "{run:?}");
    let (run, figures) = sim_against_simple(&agent, "2", &["--agent-timeout", "1", "--agent-startup", "0.1"]);
    assert_eq!(figures["a"]["forfeits"], 2, "{run:?}");
    assert!(run.stderr.contains("did not answer its first decision within 1.1 s"), "{run:?}");
    for line in run.stderr.lines().filter(|line| line.contains("its standard error is in ")) {
        let _ = std::fs::remove_file(line.rsplit_once("its standard error is in ").unwrap().1.trim_end_matches(')'));
    }
}

#[test]
fn a_program_that_prints_garbage_forfeits() {
    let program = broken_agent("garbage", "True", "print('hello there', flush=True); continue");
    assert_forfeits(&program, "answered `hello there`, which is not an action", &[]);
}

#[test]
fn a_line_written_out_of_turn_is_never_taken_for_the_answer() {
    // A legal action, but answering the decision before: a second answer to an old question.
    let stale = "print(json.dumps(dict(m['legal'][0], id=m['id'] - 1)), flush=True)";
    let program = broken_agent("stale", "m['id'] > 3", stale);
    assert_forfeits(&program, "out of turn: it answers decision 3, and decision 4 was asked", &[]);
    // A program that has echoed `id` before: a line without one is not an answer.
    let program = broken_agent("unnumbered", "m['id'] > 3", "print(json.dumps(m['legal'][0]), flush=True)");
    assert_forfeits(&program, "out of turn: it answers no decision, and decision 4 was asked", &[]);
}

#[test]
fn a_program_that_names_a_card_it_does_not_hold_forfeits() {
    let misbehave = "card = next(c for c in ['AS', 'KH', '7D', '2C'] if c not in m['view']['hand'])\n            \
                     print(json.dumps({'type': 'discard', 'card': card, 'id': m['id']}), flush=True); continue";
    let program = broken_agent("illegal", "m['view']['phase'] == 'discard'", misbehave);
    assert_forfeits(&program, "which the game refuses", &[]);
}

#[test]
fn a_program_that_shows_cards_it_does_not_hold_forfeits() {
    let misbehave = "card = next(c for c in ['AS', 'KH', '7D', '2C'] if c not in m['view']['hand'])\n            \
                     print(json.dumps({'type': 'lay_off', 'laid_off': [card], 'id': m['id']}), flush=True); continue";
    let program = broken_agent("bad-layoff", "m['view']['phase'] == 'lay_off'", misbehave);
    assert_forfeits(&program, "which the game refuses: ", &[]);
    let misbehave =
        "print(json.dumps({'type': 'lay_off', 'melds': [m['view']['hand'][:2]], 'id': m['id']}), flush=True); continue";
    let program = broken_agent("bad-meld", "m['view']['phase'] == 'lay_off'", misbehave);
    assert_forfeits(&program, "is not a meld: a meld has at least 3 cards", &[]);
}

#[test]
fn a_program_that_cannot_be_started_stops_the_match() {
    let run = gin(&["sim", "--a", "cmd:/nonexistent/agent", "--games", "2"], "");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("cannot start the agent program `/nonexistent/agent`"), "{run:?}");
}

#[test]
fn play_stops_when_the_ai_program_forfeits() {
    let program = broken_agent("play-crash", "True", "sys.exit(3)");
    let save = temp_file("external-play.gin", "");
    let ai = format!("cmd:{} {}", python3(), program.display());
    let save_arg = save.display().to_string();
    let run = gin(&["play", "--ai", &ai, "--seed", "1", "--save", &save_arg], "p\np\ns\n");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("the AI forfeits: program `python3"), "{run:?}");
    assert!(run.stderr.contains("exited with status 3"), "{run:?}");
    if let Some((_, log)) = run.stderr.rsplit_once("its standard error is in ") {
        let _ = std::fs::remove_file(log.trim_end().trim_end_matches(')'));
    }
    // The save records the forfeit: the game is over, and resuming it says so rather than
    // playing on (or meeting the same failure again).
    assert!(run.stderr.contains(&format!("the save {} records it", save.display())), "{run:?}");
    let header = std::fs::read_to_string(&save).unwrap().lines().next().unwrap().to_owned();
    assert!(header.contains(r#""forfeit":"program `python3"#), "{header}");
    for again in [vec!["play", "--resume", &save_arg], vec!["play", "--resume", &save_arg, "--ai", &ai]] {
        let resumed = gin(&again, "");
        assert_eq!(resumed.code, Some(1), "{resumed:?}");
        assert!(resumed.stderr.contains("this game is over: the AI forfeited it"), "{resumed:?}");
    }
    std::fs::remove_file(save).unwrap();
}

#[test]
fn the_bot_refuses_what_is_not_a_host_message() {
    let run = gin(&["bot", "--agent", "simple"], "{\"type\":\"quit\"}\n");
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""), "{run:?}");
    let run = gin(&["bot", "--agent", "simple"], "hello\n");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("line 1: not a host message"), "{run:?}");
    let run = gin(&["bot", "--agent", "chess"], "");
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn a_match_against_a_program_that_keeps_failing_stops() {
    let program = broken_agent("always-crash", "True", "sys.exit(4)");
    let agent = format!("cmd:{} {}", python3(), program.display());
    let run = gin(&["sim", "--a", &agent, "--games", "1000", "--threads", "1", "--max-forfeits", "3"], "");
    assert_eq!(run.code, Some(1), "{run:?}");
    let error = run.stderr.lines().last().unwrap();
    assert!(error.starts_with(&format!("error: --a {agent} forfeited 3 games")), "{error}");
    assert!(error.contains("the match was stopped after 3 of 1000 games"), "{error}");
    assert!(error.contains("exited with status 4"), "{error}");
    assert_eq!(run.stderr.lines().filter(|line| line.contains("--a forfeits")).count(), 3, "{run:?}");
    for line in run.stderr.lines().filter(|line| line.contains("its standard error is in ")) {
        let _ = std::fs::remove_file(line.rsplit_once("its standard error is in ").unwrap().1.trim_end_matches(')'));
    }
    // 0: no limit.
    let run = gin(&["sim", "--a", &agent, "--games", "4", "--threads", "1", "--max-forfeits", "0", "--json"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    for line in run.stderr.lines().filter(|line| line.contains("its standard error is in ")) {
        let _ = std::fs::remove_file(line.rsplit_once("its standard error is in ").unwrap().1.trim_end_matches(')'));
    }
}

/// Whether the process `pid` is gone (or only a zombie waiting to be reaped), within a moment.
fn ended(pid: u32) -> bool {
    (0..200).any(|_| {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        let gone =
            state.as_ref().map_or(true, |stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z')));
        if !gone {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        gone
    })
}

#[test]
fn a_program_is_ended_with_everything_it_started() {
    for (name, misbehave, extra) in [
        ("spawns-and-hangs", "time.sleep(60)", &["--agent-timeout", "1", "--agent-startup", "0.1"][..]),
        ("spawns-and-plays", "pass", &[][..]),
    ] {
        let pid_file = temp_file(&format!("{name}.pid"), "");
        let spawn = format!(
            "import subprocess; p = subprocess.Popen(['sleep', '60']); open('{}', 'w').write(str(p.pid)); time.sleep(0.1)",
            pid_file.display()
        );
        let program = broken_agent(name, "m['view']['draws'] == 0", &format!("{spawn}\n            {misbehave}"));
        let agent = format!("cmd:{} {}", python3(), program.display());
        let (run, _) = sim_against_simple(&agent, "2", extra);
        assert_eq!(run.code, Some(0), "{run:?}");
        let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        assert!(ended(pid), "{name}: the program's child {pid} still runs");
        for line in run.stderr.lines().filter(|line| line.contains("its standard error is in ")) {
            let _ =
                std::fs::remove_file(line.rsplit_once("its standard error is in ").unwrap().1.trim_end_matches(')'));
        }
    }
}

#[test]
fn a_programs_log_keeps_its_last_mebibyte_and_an_empty_one_goes() {
    // 3 MiB of numbered lines on standard error, then a crash.
    let script = "import sys\n\
                  for i in range(300000):\n    \
                      sys.stderr.write('line %09d\\n' % i)\n\
                  sys.stderr.flush()\n\
                  sys.exit(5)\n";
    let program = temp_file("chatty.py", script);
    let agent = format!("cmd:{} {}", python3(), program.display());
    let (run, _) = sim_against_simple(&agent, "2", &["--max-forfeits", "0"]);
    let notes: Vec<&str> = run.stderr.lines().filter(|line| line.contains("--a forfeits")).collect();
    assert_eq!(notes.len(), 2, "{run:?}");
    for note in notes {
        let log = note.rsplit_once("its standard error is in ").expect("the log is named").1.trim_end_matches(')');
        let text = std::fs::read_to_string(log).unwrap();
        assert!(text.len() <= 1 << 20, "{} bytes", text.len());
        assert!(text.len() > (1 << 20) - 20, "{} bytes", text.len());
        assert!(text.ends_with("line 000299999\n"), "{}", &text[text.len() - 40..]);
        std::fs::remove_file(log).unwrap();
    }
    // A program that writes nothing there leaves no log, and the note says so.
    let quiet = temp_file("quiet-crash.py", "import sys\nsys.exit(6)\n");
    let agent = format!("cmd:{} {}", python3(), quiet.display());
    let (run, _) = sim_against_simple(&agent, "2", &[]);
    let note = run.stderr.lines().find(|line| line.contains("--a forfeits")).unwrap();
    assert!(note.contains("it wrote nothing to its standard error"), "{note}");
}
