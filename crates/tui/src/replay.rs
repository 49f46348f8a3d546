//! `gin replay`: a finished or saved game, hand by hand, from its event log.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use gin_engine::{Event, Game, LogHeader, ReplayError, read_log, replay};
use gin_rules::{ByPlayer, HandOutcome, KnockKind, Player, Ruleset, Showdown, Showing};

use crate::files;
use crate::invocation::{gin_command, shell_word};
use crate::play::savefile::{self, Damage, Damaged};
use crate::render::Look;

/// What to replay, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The game: a save file of `gin play`, or an engine event log.
    pub file: PathBuf,
    /// One line per hand: its dealer, result, deadwood counts, points and the running score.
    pub summary: bool,
    /// Cards as `TS` even on a terminal, where the default is `T♠`.
    pub ascii: bool,
}

/// Who sat where, for the text: from the play header of a save, when there is one.
struct Names {
    names: ByPlayer<String>,
    /// The human's seat in a game against the AI.
    human: Option<Player>,
    /// Why the AI forfeited the game, when the save records it.
    forfeit: Option<String>,
}

impl Names {
    fn new(one: &str, two: &str, human: Option<Player>) -> Names {
        Names { names: ByPlayer::new(one.to_owned(), two.to_owned()), human, forfeit: None }
    }

    fn of(&self, player: Player) -> &str {
        &self.names[player]
    }

    /// `player` and the verb agreeing with it: "you draw", "the AI draws".
    fn says(&self, player: Player, verb: &str) -> String {
        format!("{} {}", self.of(player), self.verb(player, verb))
    }

    /// `verb`, given as said of a third person ("draws", "lays off"), agreeing with `player`:
    /// "draw" and "lay off" for the person spoken to as "you".
    fn verb(&self, player: Player, verb: &str) -> String {
        if self.human != Some(player) {
            return verb.to_owned();
        }
        let (first, rest) = verb.split_once(' ').map_or((verb, ""), |(first, rest)| (first, rest));
        let plain = match first {
            "goes" => "go",
            "passes" => "pass",
            other => other.strip_suffix('s').unwrap_or(other),
        };
        let space = if rest.is_empty() { "" } else { " " };
        format!("{plain}{space}{rest}")
    }
}

/// Prints the game of `options.file` hand by hand (or a line a hand), after checking it.
///
/// # Errors
/// The file cannot be read, is not a gin game, or is damaged; standard output fails.
pub(crate) fn run(args: &ReplayOptions) -> Result<()> {
    let text = files::read_text(&args.file, "the game file", files::MAX_SAVE_FILE)?;
    let GameFile { names, header, game, mut events } = read_game(&text).map_err(|err| match err {
        Refused::Damaged(damage) => {
            anyhow::anyhow!("{} is damaged: {}; {}", args.file.display(), damage.why, damage.advice(&args.file))
        }
        Refused::Log(err) => anyhow::Error::from(err).context(format!("{} is damaged", args.file.display())),
        Refused::Other(err) => err.context(format!("{} is not a gin game", args.file.display())),
    })?;
    // A game in progress against the AI: its current hand shows only what the human may know.
    if let (None, Some(human)) = (game.result(), names.human) {
        let start = events.iter().rposition(|e| matches!(e, Event::HandStarted { .. })).unwrap_or(0);
        for event in &mut events[start..] {
            *event = event.seen_by(human);
        }
    }
    let look = Look::for_stdout(args.ascii);
    let text = if args.summary { summary(&names, &header, &events) } else { full(&names, &header, &events, look) };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).context("cannot write the replay")?;
    if let Some(why) = &names.forfeit {
        writeln!(out, "The game ended there: the AI forfeited it ({why}).").context("cannot write the replay")?;
    } else if game.result().is_none() {
        let file = shell_word(&args.file.display().to_string());
        writeln!(out, "(the game is not over: `{} play --resume {file}` continues it)", gin_command())
            .context("cannot write the replay")?;
    }
    Ok(())
}

/// `text` from the file as it may be shown: see [`crate::render::untrusted`].
fn terminal_safe(text: &str) -> String {
    crate::render::untrusted(text, 200)
}

/// Why a file is not replayed.
#[derive(Debug)]
enum Refused {
    /// A save that is damaged: its digests, its line count or its replay say from which line.
    Damaged(Damage),
    /// An engine log that does not replay.
    Log(ReplayError),
    /// Not a gin game.
    Other(anyhow::Error),
}

/// A game file read and replayed.
struct GameFile {
    /// Who sat where.
    names: Names,
    /// The log's header: the seed and the rules.
    header: LogHeader,
    /// The game where the file leaves it.
    game: Game,
    /// Every event of the file.
    events: Vec<Event>,
}

impl From<anyhow::Error> for Refused {
    fn from(err: anyhow::Error) -> Refused {
        match err.downcast_ref::<Damaged>() {
            Some(Damaged(damage)) => Refused::Damaged(damage.clone()),
            None => Refused::Other(err),
        }
    }
}

/// A game file read and replayed: an engine log, or a `gin play` save, which has a header line
/// first and from version 2 a digest at the end of every line, read by the save's own reader
/// (which refuses all that `gin play --resume` refuses, naming the line in the whole file).
fn read_game(text: &str) -> Result<GameFile, Refused> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().next().unwrap_or("");
    let value: serde_json::Value = serde_json::from_str(first).context("line 1 is not JSON")?;
    let default = Names::new("player 1", "player 2", None);
    match value.get("format").and_then(serde_json::Value::as_str) {
        Some("gin-log") => {
            let game = replay(text).map_err(Refused::Log)?;
            let (header, events) = read_log(text).map_err(Refused::Log)?;
            let events = events.into_iter().map(|(_, event)| event).collect();
            Ok(GameFile { names: default, header, game, events })
        }
        Some("gin-play") => {
            let (saved, header, game, events) = savefile::replayed(text)?;
            // What the file says is shown, never sent to the terminal raw.
            let ai = saved.ai.as_deref().map(terminal_safe);
            let ai = ai.as_deref();
            let names = match (ai, saved.human) {
                (Some(ai), Some(human)) => {
                    let ai = format!("the AI ({ai})");
                    match human {
                        Player::One => Names::new("you", &ai, Some(human)),
                        Player::Two => Names::new(&ai, "you", Some(human)),
                    }
                }
                _ => default,
            };
            let mut names = names;
            names.forfeit = saved.forfeit.as_deref().map(terminal_safe);
            Ok(GameFile { names, header, game, events })
        }
        _ => {
            Err(anyhow::anyhow!("line 1 names no gin format: expected \"format\": \"gin-play\" or \"gin-log\"").into())
        }
    }
}

fn kind_name(outcome: HandOutcome) -> &'static str {
    match outcome {
        HandOutcome::Knock => "KNOCK",
        HandOutcome::Gin => "GIN",
        HandOutcome::BigGin => "BIG GIN",
        HandOutcome::Undercut => "UNDERCUT",
        HandOutcome::Tie => "TIE",
        HandOutcome::Dead => "dead hand",
    }
}

/// One line per hand.
fn summary(names: &Names, header: &LogHeader, events: &[Event]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "seed {}, target {}", header.seed, header.rules.target);
    let (mut number, mut dealer) = (0, Player::One);
    for event in events {
        match event {
            Event::HandStarted { number: n, dealer: d, .. } => (number, dealer) = (*n, *d),
            Event::HandEnded { score, points, showdown } => {
                let _ =
                    write!(out, "hand {number:>3}  dealer {:<14} {:<9}", names.of(dealer), kind_name(score.outcome));
                if let Some(showdown) = showdown {
                    let (k, d) = (showdown.knocker_deadwood(), showdown.defender_deadwood());
                    let _ = write!(out, " by {:<14} K={k:<2} D={d:<2}", names.of(showdown.knocker));
                } else {
                    let _ = write!(out, " {:<28}", "");
                }
                match score.winner {
                    Some(winner) => {
                        let _ = write!(out, " +{:<3} to {:<14}", score.points, names.of(winner));
                    }
                    None => {
                        let _ = write!(out, " {:<22}", "no score");
                    }
                }
                let _ = writeln!(out, " score {}-{}", points[Player::One], points[Player::Two]);
            }
            Event::GameEnded { result } => {
                let _ = writeln!(
                    out,
                    "game won by {}: {}-{} (boxes {}-{}, game bonus {}{}), margin {}",
                    names.of(result.winner),
                    result.totals[Player::One],
                    result.totals[Player::Two],
                    result.boxes[Player::One],
                    result.boxes[Player::Two],
                    result.game_bonus,
                    if result.shutout { ", shutout" } else { "" },
                    result.margin
                );
            }
            _ => {}
        }
    }
    out
}

/// Every hand in full: the deal, each move, the showdown and the score.
fn full(names: &Names, header: &LogHeader, events: &[Event], look: Look) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "seed {}, target {}", header.seed, header.rules.target);
    for event in events {
        let line = match event {
            Event::GameStarted { .. } => continue,
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                let _ = writeln!(
                    out,
                    "\nHand {number}: {}; upcard {}; knock limit {knock_limit}",
                    names.says(*dealer, "deals"),
                    look.card(*upcard)
                );
                for player in Player::ALL {
                    if let Some(cards) = hands[player] {
                        let _ = writeln!(out, "  {} {}", names.says(player, "holds"), look.cards(cards));
                    }
                }
                continue;
            }
            Event::TookUpcard { player, card } => {
                format!("{} the upcard {}", names.says(*player, "takes"), look.card(*card))
            }
            Event::PassedUpcard { player } => format!("{} the upcard", names.says(*player, "passes")),
            Event::DrewStock { player, card: Some(card) } => {
                format!("{} {} from the stock", names.says(*player, "draws"), look.card(*card))
            }
            Event::DrewStock { player, card: None } => format!("{} from the stock", names.says(*player, "draws")),
            Event::DrewPile { player, card } => {
                format!("{} {} from the pile", names.says(*player, "takes"), look.card(*card))
            }
            Event::Discarded { player, card } => format!("{} {}", names.says(*player, "discards"), look.card(*card)),
            Event::StockRebuilt { size } => format!("the stock is rebuilt from the pile: {size} cards"),
            Event::Knocked { player, kind, discard, shown } => {
                let what = match kind {
                    KnockKind::Knock => "knocks",
                    KnockKind::Gin => "goes gin",
                    KnockKind::BigGin => "goes big gin",
                };
                let discard = discard.map(|d| format!(", discarding {}", look.card(d))).unwrap_or_default();
                format!(
                    "{}{discard}: {}, {} (deadwood {})",
                    names.says(*player, what),
                    look.melds(shown.melds()),
                    unmelded(shown, look),
                    shown.deadwood()
                )
            }
            Event::HandEnded { score, points, showdown } => {
                // The defender's answer to the knock, from the showdown.
                if let Some(showdown) = showdown {
                    let _ = writeln!(out, "  {}", defense(names, showdown, &header.rules, look));
                }
                let result = match score.winner {
                    Some(winner) => {
                        format!("{}: {} {}", kind_name(score.outcome), names.says(winner, "scores"), score.points)
                    }
                    None => format!("{}: nobody scores", kind_name(score.outcome)),
                };
                format!(
                    "{result}. Score: {} {}, {} {}",
                    names.of(Player::One),
                    points[Player::One],
                    names.of(Player::Two),
                    points[Player::Two]
                )
            }
            Event::GameEnded { result } => {
                let mut text = format!("\nGame over: {}.\n", names.says(result.winner, "wins"));
                for player in Player::ALL {
                    let _ = writeln!(
                        text,
                        "  {:<14} hand points {:>4}, boxes {:>2} ({:>4} points){}, total {:>4}",
                        names.of(player),
                        result.hand_points[player],
                        result.boxes[player],
                        result.box_points[player],
                        if player == result.winner {
                            format!(
                                ", game bonus {}{}",
                                result.game_bonus,
                                if result.shutout { " (shutout)" } else { "" }
                            )
                        } else {
                            String::new()
                        },
                        result.totals[player]
                    );
                }
                let _ = write!(text, "  margin {}", result.margin);
                text
            }
        };
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// The defender's answer to a knock: "the AI (mc) shows [5H 6H 7H], lays off 8H, unmelded 2S
/// (deadwood 2)". Layoffs are told only where there could be some (a knock, with layoffs in the
/// `rules`): "lays nothing off" when there were none.
fn defense(names: &Names, showdown: &Showdown, rules: &Ruleset, look: Look) -> String {
    let defender = showdown.defender();
    let shown = &showdown.shown[defender];
    let melds = if shown.melds().is_empty() { "no melds".to_owned() } else { look.melds(shown.melds()) };
    let laid_off = if !shown.laid_off().is_empty() {
        format!(", {} {}", names.verb(defender, "lays off"), look.cards(shown.laid_off()))
    } else if rules.allows_layoffs(showdown.kind) {
        format!(", {}", names.verb(defender, "lays nothing off"))
    } else {
        String::new()
    };
    format!(
        "{} {melds}{laid_off}, {} (deadwood {})",
        names.says(defender, "shows"),
        unmelded(shown, look),
        shown.deadwood()
    )
}

/// The cards a showing leaves unmelded: "unmelded 3H 9C", or "nothing unmelded".
fn unmelded(shown: &Showing, look: Look) -> String {
    if shown.unmelded().is_empty() {
        "nothing unmelded".to_owned()
    } else {
        format!("unmelded {}", look.cards(shown.unmelded()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_cards::CardSet;
    use gin_engine::{RandomAgent, RunOptions, play_game, write_log};
    use gin_rules::Ruleset;

    fn log(seed: u64) -> String {
        let rules = Ruleset::standard();
        let (mut a, mut b) = (RandomAgent::default(), RandomAgent::default());
        let options = RunOptions { keep_events: true, max_hands: 3 };
        let record = play_game(&rules, seed, ByPlayer([&mut a, &mut b]), options);
        let mut out = Vec::new();
        write_log(&mut out, &LogHeader::new(seed, &rules, None), &record.events).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_play_save_names_the_seats() {
        let save = format!("{{\"format\":\"gin-play\",\"version\":1,\"ai\":\"expert\",\"human\":\"two\"}}\n{}", log(1));
        let GameFile { names, events, .. } = read_game(&save).unwrap();
        assert_eq!(names.of(Player::Two), "you");
        assert_eq!(names.of(Player::One), "the AI (expert)");
        assert_eq!(names.says(Player::Two, "draws"), "you draw");
        assert_eq!(names.says(Player::Two, "passes"), "you pass");
        assert_eq!(names.says(Player::Two, "goes big gin"), "you go big gin");
        assert_eq!(names.says(Player::One, "draws"), "the AI (expert) draws");
        assert_eq!(events.len(), log(1).lines().count() - 1);
        let GameFile { names, .. } = read_game(&log(1)).unwrap();
        assert_eq!(names.of(Player::One), "player 1");
    }

    #[test]
    fn foreign_files_are_refused() {
        assert!(read_game("{\"format\":\"chess\"}\n").is_err());
        assert!(read_game("not json").is_err());
        let Some(Refused::Other(err)) = read_game("{\"format\":\"gin-play\",\"version\":9}\n").err() else {
            panic!("a version 9 save is taken")
        };
        assert!(err.to_string().contains("version"), "{err}");
    }

    /// A save of `gin play --ai expert` (version 1), and the same save written as version 2.
    const V1: &str = include_str!("../tests/fixtures/expert-mid-game.gin");
    const V2: &str = include_str!("../tests/fixtures/expert-mid-game-v2.gin");

    #[test]
    fn a_saves_digests_are_checked_and_taken_off() {
        let old = read_game(V1).unwrap();
        let new = read_game(V2).unwrap();
        assert_eq!(new.names.of(Player::One), "you");
        assert_eq!((&new.header, &new.game, &new.events), (&old.header, &old.game, &old.events));
        // A discard changed on line 40 (a legal game or not, the digest tells).
        let line = V2.lines().nth(39).unwrap();
        assert!(line.contains("\"card\":\""), "{line}");
        let at = line.find("\"card\":\"").unwrap() + 8;
        let other = if &line[at..at + 1] == "A" { "2" } else { "A" };
        let changed = V2.replacen(line, &format!("{}{other}{}", &line[..at], &line[at + 1..]), 1);
        let Some(Refused::Damaged(damage)) = read_game(&changed).err() else { panic!("the changed save is taken") };
        assert_eq!(damage.line, 40);
        assert_eq!(damage.why, "line 40 was changed: its digest does not match the lines before it");
        // In a save of version 1, a line the replay refuses is named in the whole file.
        let first = V1.lines().nth(2).unwrap();
        let Some(Refused::Damaged(damage)) = read_game(&V1.replacen(first, "{}", 1)).err() else {
            panic!("the damaged save is taken")
        };
        assert_eq!(damage.line, 3);
        assert!(damage.why.starts_with("line 3: "), "{damage:?}");
    }

    #[test]
    fn every_hand_ends_in_the_summary_and_the_full_text() {
        let text = log(4);
        let (header, events) = read_log(&text).unwrap();
        let events: Vec<Event> = events.into_iter().map(|(_, e)| e).collect();
        let names = Names::new("player 1", "player 2", None);
        let ended = events.iter().filter(|e| matches!(e, Event::HandEnded { .. })).count();
        let summary = summary(&names, &header, &events);
        assert_eq!(summary.lines().filter(|l| l.starts_with("hand ")).count(), ended);
        let started = events.iter().filter(|e| matches!(e, Event::HandStarted { .. })).count();
        let full = full(&names, &header, &events, Look::PLAIN);
        assert_eq!(full.lines().filter(|l| l.starts_with("Hand ")).count(), started);
        assert!(full.contains("holds"), "{full}");
    }

    #[test]
    fn the_end_of_each_hand_is_read_from_its_showdown() {
        let rules = Ruleset::standard();
        let (mut a, mut b) = (gin_ai::SimpleAgent::default(), gin_ai::SimpleAgent::default());
        let record = play_game(&rules, 8, ByPlayer([&mut a, &mut b]), RunOptions { keep_events: true, max_hands: 20 });
        let header = LogHeader::new(8, &rules, None);
        let names = Names::new("player 1", "player 2", None);
        let showdowns: Vec<_> = record
            .events
            .iter()
            .filter_map(|event| match event {
                Event::HandEnded { showdown: Some(showdown), .. } => Some(*showdown),
                _ => None,
            })
            .collect();
        assert!(showdowns.len() > 2, "{} knocks", showdowns.len());
        let summary = summary(&names, &header, &record.events);
        let knocked: Vec<&str> = summary.lines().filter(|line| line.contains(" K=")).collect();
        assert_eq!(knocked.len(), showdowns.len(), "{summary}");
        for (line, showdown) in knocked.iter().zip(&showdowns) {
            let (k, d) = (showdown.knocker_deadwood(), showdown.defender_deadwood());
            assert!(line.contains(&format!("by {:<14} K={k:<2} D={d:<2}", names.of(showdown.knocker))), "{line}");
        }
        let full = full(&names, &header, &record.events, Look::PLAIN);
        let answers: Vec<&str> = full.lines().filter(|line| line.contains(" shows ")).collect();
        assert_eq!(answers.len(), showdowns.len(), "{full}");
        for (line, showdown) in answers.iter().zip(&showdowns) {
            let shown = &showdown.shown[showdown.defender()];
            assert!(line.starts_with(&format!("  {} shows ", names.of(showdown.defender()))), "{line}");
            assert!(line.ends_with(&format!("(deadwood {})", shown.deadwood())), "{line}");
        }
    }

    #[test]
    fn the_verbs_agree_with_you_and_empty_showings_read_as_words() {
        let rules = Ruleset::standard();
        let (mut a, mut b) = (gin_ai::SimpleAgent::default(), gin_ai::SimpleAgent::default());
        let record = play_game(&rules, 8, ByPlayer([&mut a, &mut b]), RunOptions { keep_events: true, max_hands: 20 });
        let header = LogHeader::new(8, &rules, None);
        let names = Names::new("you", "the AI (simple)", Some(Player::One));
        let full = full(&names, &header, &record.events, Look::PLAIN);
        for slip in ["you deals", "you shows", "you lays", "you knocks", "you goes", "lays off none", "lay off none"] {
            assert!(!full.contains(slip), "`{slip}` in:\n{full}");
        }
        for said in ["you deal;", "the AI (simple) deals;", "you show ", "the AI (simple) shows "] {
            assert!(full.contains(said), "no `{said}` in:\n{full}");
        }
        assert!(!full.contains("unmelded none"), "{full}");
    }

    #[test]
    fn a_defense_says_when_nothing_was_laid_off_and_only_where_something_could_be() {
        let names = Names::new("you", "the AI (mc)", Some(Player::One));
        let set = |text: &str| text.parse::<gin_cards::CardSet>().unwrap();
        let meld = |text: &str| gin_rules::Meld::new(set(text), false).unwrap();
        let melds = [meld("AS 2S 3S"), meld("7H 7D 7C"), meld("JC QC KC")];
        let knocker = Showing::new(set("AS 2S 3S 7H 7D 7C JC QC KC 3H"), &melds, CardSet::EMPTY).unwrap();
        let defender = Showing::new(set("5H 6H 7S 9D TD 2C 4C 6C 8C TC"), &[], CardSet::EMPTY).unwrap();
        let mut showdown =
            Showdown { knocker: Player::Two, kind: KnockKind::Knock, shown: ByPlayer::new(defender, knocker) };
        assert_eq!(
            defense(&names, &showdown, &Ruleset::standard(), Look::PLAIN),
            "you show no melds, lay nothing off, unmelded 7S 5H 6H 9D TD 2C 4C 6C 8C TC (deadwood 67)"
        );
        assert_eq!(
            defense(&names, &showdown, &Ruleset { layoffs: false, ..Ruleset::standard() }, Look::PLAIN),
            "you show no melds, unmelded 7S 5H 6H 9D TD 2C 4C 6C 8C TC (deadwood 67)"
        );
        showdown.kind = KnockKind::Gin;
        assert!(!defense(&names, &showdown, &Ruleset::standard(), Look::PLAIN).contains("lay"));
        let laying_off = Showing::new(set("4S 5H 6H 7S 9D TD 2C 4C 6C 8C"), &[], set("4S")).unwrap();
        showdown = Showdown { knocker: Player::One, kind: KnockKind::Knock, shown: ByPlayer::new(knocker, laying_off) };
        assert_eq!(
            defense(&names, &showdown, &Ruleset::standard(), Look::PLAIN),
            "the AI (mc) shows no melds, lays off 4S, unmelded 7S 5H 6H 9D TD 2C 4C 6C 8C (deadwood 57)"
        );
    }

    #[test]
    fn names_from_the_file_are_escaped_and_a_forfeit_is_read() {
        let header = r#"{"format":"gin-play","version":1,"ai":"ev\u001b[31mil","human":"one","forfeit":"it crashed"}"#;
        let save = format!("{header}\n{}", log(1));
        let GameFile { names, .. } = read_game(&save).unwrap();
        assert_eq!(names.of(Player::Two), "the AI (ev\\u{1b}[31mil)");
        assert_eq!(names.forfeit.as_deref(), Some("it crashed"));
    }
}
