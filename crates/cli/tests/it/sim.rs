//! `gin sim`: the figures it reports, their determinism, the mirrored pairs, and bad input.

use serde_json::Value;

use super::{Run, assert_fields, gin, temp_file};

/// The fields of each agent's object, in their order.
const AGENT_FIELDS: [&str; 22] = [
    "name",
    "wins",
    "losses",
    "forfeits",
    "win_rate",
    "ci95",
    "points",
    "points_per_hand",
    "hands_won",
    "knocks",
    "gins",
    "big_gins",
    "undercuts",
    "knocks_declared",
    "undercuts_suffered",
    "undercuts_suffered_per_knock",
    "knockable_hands",
    "knockable_hand_rate",
    "turns_to_knockable",
    "discards",
    "discards_picked_up",
    "discard_pickup_rate",
];

/// Runs `gin sim --json` with `args` and reads its one object.
fn sim_json(args: &[&str]) -> (Run, Value) {
    let mut all = vec!["sim", "--json"];
    all.extend_from_slice(args);
    let run = gin(&all, "");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    let value = serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}: {}", run.stdout));
    (run, value)
}

fn int(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("not a count: {value}"))
}

fn float(value: &Value) -> f64 {
    value.as_f64().unwrap_or_else(|| panic!("not a number: {value}"))
}

/// An agent's object without its name, to compare two agents.
fn unnamed(agent: &Value) -> Value {
    let mut agent = agent.clone();
    agent.as_object_mut().unwrap().remove("name");
    agent
}

#[test]
fn json_has_the_documented_fields_and_consistent_counts() {
    let (run, report) =
        sim_json(&["--a", "random", "--b", "simple", "--games", "30", "--seed", "5", "--rules", "eaai"]);
    assert_fields(
        &report,
        &["games", "pairs", "seed", "hands", "dead_hands", "ties", "abandoned", "forfeits", "turns_per_hand", "a", "b"],
    );
    assert!(run.stderr.contains("games/s"), "{}", run.stderr);
    let games = int(&report["games"]);
    assert_eq!((games, int(&report["pairs"]), int(&report["seed"])), (30, 15, 5));
    let (hands, dead, ties) = (int(&report["hands"]), int(&report["dead_hands"]), int(&report["ties"]));
    let abandoned = int(&report["abandoned"]);
    assert!(hands >= games, "every finished game has a hand");
    let mut hands_won = 0;
    let mut forfeits = 0;
    for (side, name) in [("a", "random"), ("b", "simple")] {
        let agent = &report[side];
        assert_fields(agent, &AGENT_FIELDS);
        assert_eq!(agent["name"], name);
        let (wins, losses) = (int(&agent["wins"]), int(&agent["losses"]));
        assert_eq!(wins + losses + abandoned, games, "{agent}");
        let rate = float(&agent["win_rate"]);
        assert!((0.0..=1.0).contains(&rate), "{agent}");
        assert!((rate - wins as f64 / games as f64).abs() < 1e-12, "{agent}");
        let [low, high] = [float(&agent["ci95"][0]), float(&agent["ci95"][1])];
        assert!(0.0 <= low && low <= rate && rate <= high && high <= 1.0, "{agent}");
        assert!(high - low > 0.05, "30 games cannot pin a rate down: {agent}");
        let won = int(&agent["hands_won"]);
        let ways = ["knocks", "gins", "big_gins", "undercuts"].map(|way| int(&agent[way]));
        assert_eq!(ways.iter().sum::<u64>(), won, "{agent}");
        assert_eq!(int(&agent["big_gins"]), 0, "eaai rules have no big gin");
        hands_won += won;
        forfeits += int(&agent["forfeits"]);
        assert!(int(&agent["forfeits"]) <= losses);
        assert!(int(&agent["knockable_hands"]) <= hands);
        assert!(int(&agent["discards_picked_up"]) <= int(&agent["discards"]));
        assert!(float(&agent["points_per_hand"]) >= 0.0);
        if let Some(turns) = agent["turns_to_knockable"].as_f64() {
            assert!(turns >= 1.0, "{agent}");
        }
        // Undercuts one agent wins are knocks the other suffers.
        let other = &report[if side == "a" { "b" } else { "a" }];
        assert_eq!(int(&agent["undercuts"]), int(&other["undercuts_suffered"]));
        assert!(int(&other["undercuts_suffered"]) <= int(&other["knocks_declared"]));
    }
    assert_eq!(int(&report["a"]["wins"]) + int(&report["b"]["wins"]) + abandoned, games);
    assert_eq!(hands_won + dead + ties, hands, "every hand is won, dead or tied");
    assert_eq!(int(&report["forfeits"]), forfeits);
    assert!(float(&report["turns_per_hand"]) >= 1.0);
}

#[test]
fn threads_do_not_change_the_results() {
    let args = ["sim", "--json", "--a", "random", "--b", "simple", "--games", "24", "--seed", "9", "--rules", "eaai"];
    let one = gin(&[&args[..], &["--threads", "1"]].concat(), "");
    assert_eq!(one.code, Some(0), "{one:?}");
    for threads in ["2", "5"] {
        let more = gin(&[&args[..], &["--threads", threads]].concat(), "");
        assert_eq!(more.stdout, one.stdout, "--threads {threads}");
    }
    // And the same command gives the same bytes twice.
    assert_eq!(gin(&[&args[..], &["--threads", "1"]].concat(), "").stdout, one.stdout);
}

#[test]
fn the_seed_chooses_the_games() {
    let args = ["--a", "random", "--b", "simple", "--games", "20", "--rules", "eaai"];
    let (_, zero) = sim_json(&[&args[..], &["--seed", "0"]].concat());
    let (_, one) = sim_json(&[&args[..], &["--seed", "1"]].concat());
    assert_eq!(one["seed"], 1);
    assert_ne!(unnamed(&zero["a"]), unnamed(&one["a"]));
    // The default seed is 0.
    let (_, default) = sim_json(&args);
    assert_eq!(default, zero);
}

#[test]
fn mirrored_pairs_swap_the_seats_over_the_same_deals() {
    // The same agent on both sides: each pair is one game played twice with the seats swapped,
    // so `a` and `b` see exactly the same games.
    for agent in ["random", "simple"] {
        let (_, report) = sim_json(&["--a", agent, "--b", agent, "--games", "16", "--seed", "3"]);
        assert_eq!(unnamed(&report["a"]), unnamed(&report["b"]), "{agent}");
    }
    // Swapping `--a` and `--b` plays the same games: the figures swap too.
    let common = ["--games", "20", "--seed", "11", "--rules", "eaai"];
    let (_, forward) = sim_json(&[&["--a", "random", "--b", "simple"], &common[..]].concat());
    let (_, backward) = sim_json(&[&["--a", "simple", "--b", "random"], &common[..]].concat());
    assert_eq!(forward["a"], backward["b"]);
    assert_eq!(forward["b"], backward["a"]);
    assert_eq!(forward["hands"], backward["hands"]);
}

#[test]
fn an_odd_number_of_games_is_rounded_up_to_whole_pairs() {
    let (run, report) = sim_json(&["--a", "random", "--b", "random", "--games", "3", "--rules", "eaai"]);
    assert_eq!((int(&report["games"]), int(&report["pairs"])), (4, 2));
    assert!(run.stderr.contains("note: --games 3 is odd: playing 4 games, 2 mirrored pairs"), "{}", run.stderr);
}

#[test]
fn the_table_shows_the_settings_and_both_agents() {
    let run = gin(&["sim", "--a", "simple", "--b", "random", "--games", "10", "--threads", "2", "--rules", "eaai"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "gin sim: 10 games (5 mirrored pairs), seed 0, eaai rules, 2 threads");
    assert!(lines[2].trim_start().starts_with("a: simple"), "{}", run.stdout);
    assert!(lines[2].ends_with("b: random"), "{}", run.stdout);
    let rows: Vec<&str> = lines[3..].iter().copied().take_while(|line| !line.is_empty()).collect();
    for label in ["games won", "95% interval", "points per hand", "by gin", "by undercut", "turns to knockable"] {
        assert!(rows.iter().any(|row| row.trim_start().starts_with(label)), "{label}: {}", run.stdout);
    }
    // Aligned: every row of the table is as wide as the header.
    for row in &rows {
        assert_eq!(row.chars().count(), lines[2].chars().count(), "{row:?}\n{}", run.stdout);
    }
    assert!(run.stdout.contains("\nhands "), "{}", run.stdout);
    assert!(run.stdout.contains("\ngames 10: "), "{}", run.stdout);
    // Timings go to standard error only.
    assert!(!run.stdout.contains("games/s"), "{}", run.stdout);
    assert!(run.stderr.starts_with("10 games in ") && run.stderr.contains("games/s on 2 threads"), "{}", run.stderr);
    // No progress bar outside a terminal.
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
}

#[test]
fn expert_parameters_come_from_a_file() {
    let params = temp_file("params.json", r#"{"knock_max_late": 7}"#);
    let path = params.to_str().unwrap();
    let (run, report) = sim_json(&["--a", "expert", "--b", "random", "--games", "2", "--param", path]);
    assert_eq!(report["a"]["name"], "expert");
    assert!(!run.stderr.contains("note:"), "{}", run.stderr);
    // Given where no expert plays, it is read but said to be unused.
    let (run, _) = sim_json(&["--a", "random", "--b", "random", "--games", "2", "--param", path]);
    assert!(run.stderr.contains("note: --param is for the expert, mc-fast and mc agents"), "{}", run.stderr);
    std::fs::remove_file(params).unwrap();
}

#[test]
fn search_settings_come_from_the_same_file() {
    let params = temp_file("mc-params.json", r#"{"danger_weight": 4, "mc": {"samples": 16}}"#);
    let path = params.to_str().unwrap();
    let (run, report) = sim_json(&["--a", "mc-fast", "--b", "simple", "--games", "2", "--param", path]);
    assert_eq!(report["a"]["name"], "mc-fast");
    assert!(!run.stderr.contains("note:"), "{}", run.stderr);
    std::fs::remove_file(params).unwrap();

    let bad = temp_file("bad-mc-params.json", r#"{"mc": {"samples": "many"}}"#);
    let run = gin(&["sim", "--a", "mc-fast", "--param", bad.to_str().unwrap()], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.contains("\"mc\": setting `samples` expects a whole number from 0 to 1000000, found \"many\""),
        "{}",
        run.stderr
    );
    std::fs::remove_file(bad).unwrap();
}

#[test]
fn bad_input_is_a_usage_error_with_a_clear_message() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["--a", "chess"],
            "error: --a chess: unknown agent `chess`: expected one of random, taker, greedy, simple, expert, holder, mc-fast, mc",
        ),
        (
            &["--a", "random", "--b", "simple:depth=3"],
            "error: --b simple:depth=3: agent `simple` has no settings (found `depth`)",
        ),
        (&["--a", "expert:nonsense=1"], "agent `expert`: "),
        (&["--a", "expert:oops"], "bad setting `oops` in the agent spec"),
        (&["--a", "random", "--games", "0"], "at least one game must be played"),
        (&["--a", "random", "--games", "many"], "expected a number of games"),
        // Counts that would overflow once doubled into mirrored pairs.
        (&["--a", "random", "--games", "18446744073709551615"], "at most 1000000000000 games in one run"),
        (&["--a", "random", "--games", "1000000000001"], "at most 1000000000000 games in one run"),
        (&["--a", "random", "--threads", "0"], "at least one thread is needed"),
        (&["--b", "random"], "--a <SPEC>"),
    ];
    for (args, message) in cases {
        let run = gin(&[&["sim"], args].concat(), "");
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
}

#[test]
fn a_bad_parameter_file_is_named() {
    let missing = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gin-cli-no-such-params.json");
    let missing = missing.to_str().unwrap();
    let run = gin(&["sim", "--a", "expert", "--param", missing], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.starts_with(&format!("error: cannot read the parameter file `{missing}`: ")), "{}", run.stderr);

    let invalid = temp_file("bad-params.json", r#"{"no_such_weight": 1}"#);
    let run = gin(&["sim", "--a", "expert", "--param", invalid.to_str().unwrap()], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    let expected = format!("error: invalid parameter file `{}`: ", invalid.display());
    assert!(run.stderr.starts_with(&expected) && run.stderr.contains("no_such_weight"), "{}", run.stderr);
    std::fs::remove_file(invalid).unwrap();

    let run = gin(&["sim", "--a", "expert", "--rules", "okla"], "");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("--rules `okla` is neither a preset"), "{}", run.stderr);
}

#[test]
fn help_teaches_pairs_figures_and_examples() {
    let help = gin(&["sim", "--help"], "");
    assert_eq!(help.code, Some(0), "{help:?}");
    for needle in [
        "Mirrored pairs",
        "swap seats",
        "Wilson score interval",
        "points/hand",
        "a turn is one of its draws",
        "--threads",
        "--param",
        "default: simple",
        "[default: 1000]",
        "Examples:",
        "gin sim --a",
    ] {
        assert!(help.stdout.contains(needle), "{needle}: {}", help.stdout);
    }
    let top = gin(&["--help"], "");
    assert!(top.stdout.contains("\n  sim  "), "{}", top.stdout);
}
