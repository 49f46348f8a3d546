//! `gin league`: a round robin of agents with ratings.

use serde_json::Value;

use super::gin;

#[test]
fn a_league_is_the_same_on_any_number_of_threads() {
    let league = |threads: &str| {
        let run = gin(
            &["league", "simple", "greedy", "random", "--games", "24", "--seed", "7", "--threads", threads, "--json"],
            "",
        );
        assert_eq!(run.code, Some(0), "{run:?}");
        run.stdout
    };
    let one = league("1");
    assert_eq!(one, league("2"));
    let figures: Value = serde_json::from_str(&one).unwrap();
    let pairings = figures["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    for pairing in pairings {
        assert_eq!(pairing["games"], 24);
        let wins = pairing["a_wins"].as_u64().unwrap() + pairing["b_wins"].as_u64().unwrap();
        assert!(wins <= 24, "{pairing}");
    }
    // random loses to both; the ratings say so, centred on 0.
    let ratings = figures["ratings"].as_array().unwrap();
    assert_eq!(ratings.last().unwrap()["agent"], "random", "{figures}");
    let sum: f64 = ratings.iter().map(|r| r["rating"].as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-6, "{sum}");
}

#[test]
fn the_league_table_rates_and_pairs_every_agent() {
    let run = gin(&["league", "simple", "random", "--games", "10", "--threads", "1"], "");
    assert_eq!(run.code, Some(0), "{run:?}");
    for part in [
        "gin league: 2 agents, 1 pairing of 10 games",
        "1. simple",
        "2. random",
        "simple vs random",
        "Win rate of the row",
    ] {
        assert!(run.stdout.contains(part), "{part}: {}", run.stdout);
    }
    // Standard error is a pipe here, not a terminal: a line per pairing instead of a bar.
    assert!(
        run.stderr.contains("gin league: pairing 1 of 1 done: simple against random, simple wins"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_league_needs_two_different_agents() {
    for (args, why) in [
        (&["league", "simple"][..], "needs two agents or more"),
        (&["league", "simple", "simple"][..], "`simple` is named twice"),
        (&["league", "simple", "wizard"][..], "unknown agent `wizard`"),
        (&["league", "simple", "random", "--games", "0"][..], "at least one game"),
    ] {
        let run = gin(args, "");
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
    }
}
