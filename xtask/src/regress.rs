//! `cargo xtask regress`: fixed-seed matches whose hand-by-hand logs must not drift.
//!
//! The matches are listed in `fixtures/regress/matches.txt`; each one's log is compared with
//! `fixtures/regress/<name>.log`. A log has one line per hand (number, dealer, result, knocker,
//! both deadwood counts, cards laid off, points, running score) and a last line with the game's
//! result (winner, boxes, game bonus, shutout, totals). Nothing in it varies between machines.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::{Context, bail};
use gin_ai::registry::{self, AgentParams};
use gin_engine::{Event, GameOutcome, RunOptions, play_game_observed};
use gin_rules::{ByPlayer, Player, Ruleset};

/// One fixed match: two agents, a preset, a seed and a number of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    /// The match's name, also its log's file name.
    pub name: String,
    /// The preset's name.
    pub preset: String,
    /// The agent specs in seats one and two.
    pub agents: [String; 2],
    /// The seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// How many games.
    pub games: u64,
}

/// Reads the match list: one match per line, `name preset agent-one agent-two seed games`;
/// blank lines and lines starting with `#` are skipped.
pub(crate) fn parse_matches(text: &str) -> anyhow::Result<Vec<Match>> {
    let mut matches: Vec<Match> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, preset, one, two, seed, games] = fields[..] else {
            bail!("line {}: expected `name preset agent-one agent-two seed games`, found `{line}`", number + 1);
        };
        if Ruleset::preset(preset).is_none() {
            bail!("line {}: unknown preset `{preset}`: expected one of {}", number + 1, Ruleset::PRESETS.join(", "));
        }
        if matches.iter().any(|m| m.name == name) {
            bail!("line {}: a second match named `{name}`", number + 1);
        }
        let seed = seed.parse().with_context(|| format!("line {}: seed `{seed}` is not a number", number + 1))?;
        let games = games.parse().with_context(|| format!("line {}: games `{games}` is not a number", number + 1))?;
        matches.push(Match {
            name: name.to_owned(),
            preset: preset.to_owned(),
            agents: [one.to_owned(), two.to_owned()],
            seed,
            games,
        });
    }
    Ok(matches)
}

/// Plays a match under `rules` (its preset, possibly altered) and returns its log.
pub(crate) fn play(game: &Match, rules: &Ruleset) -> anyhow::Result<String> {
    let params = AgentParams::default();
    let mut log = String::new();
    for index in 0..game.games {
        let seed = game.seed + index;
        let mut one = registry::build(&game.agents[0].parse()?, &params)?;
        let mut two = registry::build(&game.agents[1].parse()?, &params)?;
        let _ = writeln!(log, "game {} seed {seed}: {} (one) v {} (two)", index + 1, game.agents[0], game.agents[1]);
        let mut lines = HandLines::default();
        let options = RunOptions { keep_events: false, max_hands: 300 };
        let record =
            play_game_observed(rules, seed, ByPlayer([one.as_mut(), two.as_mut()]), options, &mut |event, _| {
                lines.observe(event)
            });
        log.push_str(&lines.text);
        match record.outcome {
            GameOutcome::Finished { .. } => {}
            GameOutcome::Forfeit { player, reason, .. } => {
                let _ = writeln!(log, "forfeit by {}: {reason}", seat(player));
            }
            GameOutcome::Abandoned { score } => {
                let _ = writeln!(
                    log,
                    "abandoned after {} hands at {}-{}",
                    record.hands,
                    score.points[Player::One],
                    score.points[Player::Two]
                );
            }
        }
    }
    Ok(log)
}

fn seat(player: Player) -> &'static str {
    match player {
        Player::One => "one",
        Player::Two => "two",
    }
}

/// Builds the log's lines from the referee's events: each hand's line from its deal and the
/// showdown its end carries.
#[derive(Default)]
struct HandLines {
    text: String,
    number: u32,
    dealer: Option<Player>,
}

impl HandLines {
    fn observe(&mut self, event: &Event) {
        match event {
            Event::HandStarted { number, dealer, .. } => {
                self.number = *number;
                self.dealer = Some(*dealer);
            }
            Event::HandEnded { score, points, showdown } => {
                let kind = score.outcome.as_str();
                let _ = write!(self.text, "hand {} dealer {} {kind}", self.number, self.dealer.map_or("-", seat));
                if let Some(showdown) = showdown {
                    let laid_off = showdown.shown[showdown.defender()].laid_off();
                    let _ = write!(
                        self.text,
                        " knocker {} deadwood {}/{} laid_off {}",
                        seat(showdown.knocker),
                        showdown.knocker_deadwood(),
                        showdown.defender_deadwood(),
                        if laid_off.is_empty() { "-".to_owned() } else { laid_off.to_string().replace(' ', ",") }
                    );
                }
                let to = score.winner.map_or("nobody", seat);
                let _ = writeln!(
                    self.text,
                    " points {} to {to} score {}-{}",
                    score.points,
                    points[Player::One],
                    points[Player::Two]
                );
            }
            Event::GameEnded { result } => {
                let _ = writeln!(
                    self.text,
                    "winner {} boxes {}-{} game_bonus {} shutout {} totals {}-{} margin {}",
                    seat(result.winner),
                    result.boxes[Player::One],
                    result.boxes[Player::Two],
                    result.game_bonus,
                    if result.shutout { "yes" } else { "no" },
                    result.totals[Player::One],
                    result.totals[Player::Two],
                    result.margin
                );
            }
            _ => {}
        }
    }
}

/// How one match compared with its snapshot.
pub(crate) struct Comparison {
    /// The match's name.
    pub name: String,
    /// The log just played.
    pub log: String,
    /// A readable diff of the first differing lines, or `None` when the log matches.
    pub diff: Option<String>,
}

/// Plays every match whose name contains `filter` (all when empty), with `alter` applied to its
/// rules, and compares each log with its snapshot in `dir`.
pub(crate) fn check(dir: &Path, filter: &str, alter: &dyn Fn(&mut Ruleset)) -> anyhow::Result<Vec<Comparison>> {
    let list = dir.join("matches.txt");
    let text = fs::read_to_string(&list).with_context(|| format!("cannot read {}", list.display()))?;
    let matches = parse_matches(&text).with_context(|| format!("in {}", list.display()))?;
    let mut out = Vec::new();
    for game in matches.iter().filter(|m| m.name.contains(filter)) {
        let mut rules = Ruleset::preset(&game.preset).expect("checked when parsed");
        alter(&mut rules);
        let log = play(game, &rules).with_context(|| format!("match {}", game.name))?;
        let path = dir.join(format!("{}.log", game.name));
        let diff = match fs::read_to_string(&path) {
            Ok(expected) => diff(&expected, &log),
            Err(_) => Some(format!("no snapshot {} yet: run `cargo xtask regress --bless`", path.display())),
        };
        out.push(Comparison { name: game.name.clone(), log, diff });
    }
    Ok(out)
}

/// The first differing lines of two logs, with the line before for context; `None` if equal.
pub(crate) fn diff(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (old, new): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let first = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len().min(new.len()));
    let mut text = String::new();
    if first > 0 {
        let _ = writeln!(text, "    {}", old[first - 1]);
    }
    for line in old.iter().skip(first).take(3) {
        let _ = writeln!(text, "  - {line}");
    }
    for line in new.iter().skip(first).take(3) {
        let _ = writeln!(text, "  + {line}");
    }
    let _ = write!(text, "  (first difference at line {}; {} lines before, {} now)", first + 1, old.len(), new.len());
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/regress")
    }

    #[test]
    fn the_regression_logs_have_not_drifted() {
        let comparisons = check(&fixtures(), "", &|_| {}).unwrap();
        assert!(comparisons.len() >= 30, "only {} matches", comparisons.len());
        let drifted: Vec<String> =
            comparisons.iter().filter_map(|c| c.diff.as_ref().map(|d| format!("{}:\n{d}", c.name))).collect();
        assert!(drifted.is_empty(), "run `cargo xtask regress` to see the drift:\n{}", drifted.join("\n"));
    }

    #[test]
    fn the_logs_cover_every_result_every_preset_and_every_agent() {
        let text = fs::read_to_string(fixtures().join("matches.txt")).unwrap();
        let matches = parse_matches(&text).unwrap();
        for preset in Ruleset::PRESETS {
            assert!(matches.iter().any(|m| m.preset == preset), "no match under {preset}");
        }
        for agent in registry::NAMES {
            assert!(matches.iter().any(|m| m.agents.iter().any(|a| a == agent)), "no match for {agent}");
        }
        let mut all = String::new();
        for m in &matches {
            all.push_str(&fs::read_to_string(fixtures().join(format!("{}.log", m.name))).unwrap());
        }
        for kind in [" KNOCK ", " GIN ", " UNDERCUT ", " DEAD "] {
            assert!(all.contains(kind), "no{kind}hand in the logs");
        }
        let big_gin = matches
            .iter()
            .filter(|m| m.preset == "standard" || m.preset == "oklahoma")
            .any(|m| fs::read_to_string(fixtures().join(format!("{}.log", m.name))).unwrap().contains(" BIG_GIN "));
        assert!(big_gin, "no big gin under a preset that plays it");
    }

    #[test]
    fn a_changed_rule_is_caught() {
        // One undercut bonus point more: the check must see it.
        let more = check(&fixtures(), "standard", &|rules| rules.undercut_bonus += 1).unwrap();
        assert!(more.iter().any(|c| c.diff.is_some()), "an altered undercut bonus went unnoticed");
    }

    #[test]
    fn the_diff_shows_the_first_differing_lines() {
        let diff = diff("a\nb\nc\n", "a\nB\nc\n").unwrap();
        assert!(diff.contains("    a") && diff.contains("  - b") && diff.contains("  + B"), "{diff}");
        assert!(diff.contains("line 2"), "{diff}");
        assert_eq!(super::diff("same\n", "same\n"), None);
    }

    #[test]
    fn a_bad_match_list_is_refused_with_its_line() {
        let err = parse_matches("# ok\nx standard simple greedy 1\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let err = parse_matches("x chess simple greedy 1 1\n").unwrap_err().to_string();
        assert!(err.contains("unknown preset `chess`"), "{err}");
        assert_eq!(parse_matches("a standard simple greedy 3 2\n").unwrap()[0].games, 2);
    }
}
