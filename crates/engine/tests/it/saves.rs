//! The one persistence format, the JSON Lines event log: a game written out and replayed comes
//! back identical and plays on the same; a cut log replays to the game its lines hold or is
//! refused, and a corrupted or foreign log is refused with a clear error, never a panic.

use std::sync::OnceLock;

use gin_cards::random;
use gin_cards::{CardSet, Deck};
use gin_engine::{
    Event, Game, HandSetup, LOG_VERSION, LogHeader, Phase, PlayError, ReplayError, SetupError, read_log, replay,
    write_log,
};
use gin_rules::{Player, Ruleset, Showdown, Showing, StockEnd};

use crate::choose;

/// A game and its log; after each action, where its events start in the log and the game it left.
#[derive(Clone, Debug)]
struct Logged {
    header: LogHeader,
    opening: Game,
    game: Game,
    events: Vec<Event>,
    actions: Vec<(usize, Game)>,
}

impl Logged {
    fn new(rules: &Ruleset, seed: u64, setup: Option<HandSetup>) -> Logged {
        let (game, events) = match &setup {
            Some(setup) => Game::from_setup(rules, seed, setup).unwrap_or_else(|e| panic!("{e}")),
            None => Game::new(rules, seed),
        };
        let header = LogHeader::new(seed, rules, setup);
        Logged { header, opening: game.clone(), game, events, actions: Vec::new() }
    }

    /// A log that goes on from `game`, replayed from this one.
    fn going_on(&self, game: Game) -> Logged {
        Logged { game, ..self.clone() }
    }

    /// Plays up to `steps` actions chosen by [`choose`], stopping early when the game ends or
    /// `stop` holds.
    fn walk(&mut self, seed: u64, steps: usize, stop: impl Fn(&Game) -> bool) -> &mut Logged {
        let mut rng = random::seeded_rng(seed);
        for _ in 0..steps {
            let Some(player) = self.game.to_act() else { break };
            if stop(&self.game) {
                break;
            }
            let (action, showing) = choose(&self.game, &mut rng);
            let start = self.events.len();
            let events = self.game.play_with(player, action, showing.as_ref()).expect("a listed action plays");
            self.events.extend(events);
            self.actions.push((start, self.game.clone()));
        }
        self
    }

    fn text(&self) -> String {
        log_text(&self.header, &self.events)
    }

    /// The game that the log's first `lines` events leave: the game after every action one of
    /// them records.
    fn game_after(&self, lines: usize) -> &Game {
        self.actions.iter().rev().find(|(start, _)| *start < lines).map_or(&self.opening, |(_, game)| game)
    }
}

fn never(_: &Game) -> bool {
    false
}

fn log_text(header: &LogHeader, events: &[Event]) -> String {
    let mut out = Vec::new();
    write_log(&mut out, header, events).unwrap();
    String::from_utf8(out).unwrap()
}

/// Games stopped in every phase, under every preset and the reshuffle rule: after a few actions,
/// at a knock being answered, at the end of the game; a few from a hand set up. Played once.
fn games_in_progress() -> &'static [Logged] {
    static GAMES: OnceLock<Vec<Logged>> = OnceLock::new();
    GAMES.get_or_init(play_games_in_progress)
}

fn play_games_in_progress() -> Vec<Logged> {
    let mut rulesets: Vec<Ruleset> = Ruleset::PRESETS.iter().map(|name| Ruleset::preset(name).unwrap()).collect();
    rulesets.push(Ruleset { stock_end: StockEnd::Reshuffle, ..Ruleset::standard() });
    let mut games = Vec::new();
    for (i, rules) in rulesets.iter().enumerate() {
        let base = i as u64 * 100;
        for steps in [0, 1, 2, 3, 7, 30, 61, 200, 1000] {
            games.push(Logged::new(rules, base + steps as u64, None).walk(steps as u64, steps, never).clone());
        }
        let answering = |game: &Game| game.deal().phase() == Phase::LayOff;
        games.push(Logged::new(rules, base + 1, None).walk(base + 2, 5000, answering).clone());
        games.push(Logged::new(rules, base + 3, None).walk(base + 4, 20_000, never).clone());
        let dealer = if i % 2 == 0 { Player::One } else { Player::Two };
        let setup = HandSetup::deal(dealer, &Deck::shuffled(&mut random::seeded_rng(base + 5)));
        games.push(Logged::new(rules, base + 5, Some(setup)).walk(base + 6, 120, never).clone());
    }
    games
}

/// A long log from `games_in_progress`: the shortest whole game, with knocks and new deals.
fn whole_game(games: &[Logged]) -> &Logged {
    let finished = games.iter().filter(|logged| logged.game.result().is_some());
    let game = finished.min_by_key(|logged| logged.events.len()).expect("a finished game");
    assert!(game.events.iter().any(|event| matches!(event, Event::Knocked { .. })));
    game
}

#[test]
fn a_logged_game_replays_identical_and_plays_on_the_same() {
    let mut phases = Vec::new();
    let mut seen = [0; 5];
    let games = games_in_progress();
    for logged in games {
        let text = logged.text();
        let replayed = replay(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replayed, logged.game);
        let (header, events) = read_log(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header, logged.header);
        assert_eq!(events.iter().map(|(_, event)| event.clone()).collect::<Vec<_>>(), logged.events);
        assert!(events.iter().enumerate().all(|(i, (line, _))| *line == i + 2), "events are numbered from line 2");
        phases.push(logged.game.deal().phase());
        for event in &logged.events {
            match event {
                Event::Knocked { .. } => seen[0] += 1,
                Event::HandEnded { showdown: Some(showdown), .. }
                    if !showdown.shown[showdown.defender()].laid_off().is_empty() =>
                {
                    seen[1] += 1
                }
                Event::StockRebuilt { .. } => seen[2] += 1,
                Event::HandEnded { showdown: None, .. } => seen[3] += 1,
                Event::GameEnded { .. } => seen[4] += 1,
                _ => {}
            }
        }
        // The replayed game plays on as the game itself does, and its longer log replays too.
        let (mut a, mut b) = (logged.clone(), logged.going_on(replayed));
        a.walk(9, 50, never);
        b.walk(9, 50, never);
        assert_eq!((&a.game, &a.events), (&b.game, &b.events));
        assert_eq!(replay(&a.text()).unwrap_or_else(|e| panic!("{e}")), a.game);
    }
    for phase in [Phase::UpcardOffer, Phase::Draw, Phase::Discard, Phase::LayOff, Phase::Over] {
        assert!(phases.contains(&phase), "no log stops in phase {phase:?}: {phases:?}");
    }
    // The logs hold knocks, layoffs, rebuilt stocks, dead hands and finished games.
    assert!(seen.iter().all(|&count| count > 0), "knocks, layoffs, rebuilds, dead hands, game ends: {seen:?}");
}

#[test]
fn a_cut_log_replays_to_the_game_its_lines_hold_or_is_refused() {
    let games = games_in_progress();
    let logged = whole_game(games);
    let text = logged.text();
    let line_ends: Vec<usize> = text.match_indices('\n').map(|(at, _)| at).collect();
    assert_eq!(line_ends.len(), logged.events.len() + 1);
    // Cut after any line: the game after the actions the lines record.
    let sampled: Vec<usize> = (0..=logged.events.len()).collect();
    for &lines in &sampled {
        // With its last newline or without.
        let end = line_ends[lines] + lines % 2;
        let game = replay(&text[..end]).unwrap_or_else(|e| panic!("{lines} events: {e}"));
        assert_eq!(&game, logged.game_after(lines), "{lines} events");
    }
    // Cut anywhere else: refused, naming the line cut short.
    let step = (text.len() / 300).max(1);
    let near_ends = sampled.iter().flat_map(|&lines| [line_ends[lines].saturating_sub(1), line_ends[lines] + 2]);
    for cut in (0..text.len()).step_by(step).chain(near_ends).filter(|&cut| cut < text.len()) {
        let prefix = &text[..cut];
        let whole_lines = prefix.ends_with('\n') || text.as_bytes()[cut] == b'\n';
        let line = prefix.matches('\n').count() + 1;
        match replay(prefix) {
            Ok(game) if whole_lines && cut > 0 => {
                let events = prefix.trim_end_matches('\n').matches('\n').count();
                assert_eq!(&game, logged.game_after(events), "cut at {cut}");
            }
            Err(ReplayError::Empty) => assert_eq!(cut, 0),
            Err(err @ ReplayError::Parse { .. }) if !whole_lines => {
                let ReplayError::Parse { line: at, .. } = err else { unreachable!() };
                assert_eq!(at, line, "cut at {cut}: {err}");
                assert!(err.to_string().starts_with(&format!("line {line}: ")), "{err}");
            }
            other => panic!("cut at {cut} ({whole_lines}): {other:?}"),
        }
    }
}

#[test]
fn a_corrupted_log_is_refused_or_still_a_playable_game() {
    let games = games_in_progress();
    let unfinished = games.iter().filter(|logged| logged.game.result().is_none());
    let in_progress = unfinished.max_by_key(|logged| logged.events.len()).expect("a game in progress");
    let mut rng = random::seeded_rng(77);
    for logged in [whole_game(games), in_progress] {
        let text = logged.text();
        let header = text.find('\n').expect("a header line");
        // Anywhere in the log, and in the header alone (its rules and seed).
        for (within, tries) in [(text.len(), 300), (header, 100)] {
            let (mut refused, mut tried) = (0, 0);
            for _ in 0..tries {
                let mut bytes = text.clone().into_bytes();
                let at = random::index(&mut rng, within);
                bytes[at] = b"0123456789,:{}[]\"aASHDCT2"[random::index(&mut rng, 25)];
                let Ok(corrupted) = String::from_utf8(bytes) else { continue };
                if corrupted == text {
                    continue;
                }
                tried += 1;
                match replay(&corrupted) {
                    Err(err) => {
                        refused += 1;
                        let message = err.to_string();
                        assert!(message.starts_with("line ") || matches!(err, ReplayError::Empty), "{message}");
                    }
                    // A change that still describes a possible game (another target, say)
                    // replays; the game must then hold its 52 cards and play on without a panic.
                    Ok(game) => {
                        assert_eq!(game.deal().all_cards(), (CardSet::FULL, 52));
                        logged.going_on(game).walk(1, 300, never);
                    }
                }
            }
            assert!(refused * 10 > tried * 9, "only {refused} of {tried} corruptions were refused");
        }
    }
    // The rules changed alike in the header and the game's first event, where nothing played yet
    // depends on them: a possible game, which replays and plays on.
    let text = in_progress.text();
    let target = format!("\"target\":{}", in_progress.game.rules().target);
    assert_eq!(text.matches(&target).count(), 2, "the header's rules and the game's");
    let game = replay(&text.replace(&target, "\"target\":9999")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (game.rules().target, game.deal(), game.score()),
        (9999, in_progress.game.deal(), in_progress.game.score())
    );
    in_progress.going_on(game).walk(1, 300, never);
}

#[test]
fn foreign_logs_and_other_versions_say_what_is_wrong() {
    let games = games_in_progress();
    let text = games[30].text();
    assert_eq!(LOG_VERSION, 2);
    let header = format!("\"format\":\"gin-log\",\"version\":{LOG_VERSION},");
    assert!(text.starts_with(&format!("{{{header}")), "{}", &text[..60]);
    for version in [1, 3, 20] {
        let other = text.replacen(&header, &format!("\"format\":\"gin-log\",\"version\":{version},"), 1);
        let err = replay(&other).unwrap_err();
        assert!(matches!(&err, ReplayError::Version { format, version: v } if format == "gin-log" && *v == version));
        assert_eq!(
            err.to_string(),
            format!("line 1: not a gin log of version 2 (found format \"gin-log\", version {version})")
        );
    }
    let other = text.replacen("gin-log", "chess-log", 1);
    let err = replay(&other).unwrap_err();
    assert!(matches!(&err, ReplayError::Version { format, version: 2 } if format == "chess-log"), "{err}");
    assert_eq!(err.to_string(), "line 1: not a gin log of version 2 (found format \"chess-log\", version 2)");
    // Not a log at all.
    let bad_header = |text: &str| match replay(text) {
        Err(ReplayError::Parse { line: 1, message }) => message,
        other => panic!("{text:?}: {other:?}"),
    };
    assert!(bad_header("{}").starts_with("bad header: missing field"));
    assert!(bad_header("not json").starts_with("bad header"));
    assert!(bad_header(r#"{"format":"gin-save","version":1,"game":{}}"#).starts_with("bad header"));
    assert!(matches!(replay(""), Err(ReplayError::Empty)));
    assert!(matches!(replay("\n  \n"), Err(ReplayError::Empty)));
    assert_eq!(replay("").unwrap_err().to_string(), "the log is empty: expected a header line");
    // A line that is not an event.
    let first = text.lines().next().unwrap();
    let err = replay(&format!("{first}\n{{\"event\":\"shuffled\"}}\n")).unwrap_err();
    assert!(matches!(err, ReplayError::Parse { line: 2, .. }), "{err}");
    // Another opening than the header deals, and an event where a player's action was expected.
    let (started, dealt) = (text.lines().nth(1).unwrap(), text.lines().nth(2).unwrap());
    let err = replay(&format!("{first}\n{started}\n{started}\n")).unwrap_err();
    assert!(matches!(err, ReplayError::Mismatch { line: 3, .. }), "{err}");
    let err = replay(&format!("{first}\n{started}\n{dealt}\n{dealt}\n")).unwrap_err();
    assert!(matches!(err, ReplayError::Unexpected { line: 4, .. }), "{err}");
    assert!(err.to_string().starts_with("line 4: unexpected"), "{err}");
    let ended = r#"{"event":"game_ended","result":null}"#;
    assert!(matches!(replay(&format!("{text}{ended}\n")), Err(ReplayError::Parse { .. })));
}

#[test]
fn an_event_whose_cards_do_not_add_up_is_refused() {
    let games = games_in_progress();
    let logged = whole_game(games);
    let replayed = |events: &[Event]| replay(&log_text(&logged.header, events));
    // A stock draw of a card the other player holds.
    let at = logged.events.iter().position(|event| matches!(event, Event::DrewStock { .. })).unwrap();
    let Event::DrewStock { player, card: Some(drawn) } = logged.events[at] else { unreachable!() };
    let before = logged.game_after(at);
    let theirs = before.deal().cards(player.opponent()).first().unwrap();
    let mut altered = logged.events.clone();
    altered[at] = Event::DrewStock { player, card: Some(theirs) };
    match replayed(&altered) {
        Err(ReplayError::Mismatch { line, logged, replayed }) => {
            assert_eq!(line, at + 2);
            assert!(logged.contains(&format!("\"{theirs}\"")) && replayed.contains(&format!("\"{drawn}\"")));
        }
        other => panic!("{other:?}"),
    }
    // A deal with a card of each hand swapped.
    let mut altered = logged.events.clone();
    let Event::HandStarted { hands, .. } = &mut altered[1] else { panic!("{:?}", altered[1]) };
    let (one, two) = (hands[Player::One].unwrap(), hands[Player::Two].unwrap());
    let (a, b) = (one.first().unwrap(), two.first().unwrap());
    hands[Player::One] = Some(one.without(a).with(b));
    hands[Player::Two] = Some(two.without(b).with(a));
    assert!(matches!(replayed(&altered), Err(ReplayError::Mismatch { line: 3, .. })));
    // A knock showing a card the knocker does not hold.
    let (at, knocker, shown) = logged
        .events
        .iter()
        .enumerate()
        .find_map(|(at, event)| match event {
            Event::Knocked { player, discard: Some(_), shown, .. } if !shown.unmelded().is_empty() => {
                Some((at, *player, *shown))
            }
            _ => None,
        })
        .expect("a knock with deadwood");
    let other = logged.game_after(at).deal().cards(knocker.opponent()).first().unwrap();
    let swapped = swap_unmelded(&shown, other);
    let mut altered = logged.events.clone();
    let Event::Knocked { shown: changed, .. } = &mut altered[at] else { unreachable!() };
    *changed = swapped;
    match replayed(&altered) {
        Err(ReplayError::Illegal { line, error: PlayError::WrongCardsShown { expected, found } }) => {
            assert_eq!((line, expected, found), (at + 2, shown.hand(), swapped.hand()));
        }
        other => panic!("{other:?}"),
    }
    // A defense showing a card the defender does not hold.
    let (at, showdown) = logged
        .events
        .iter()
        .enumerate()
        .find_map(|(at, event)| match event {
            Event::HandEnded { showdown: Some(showdown), .. }
                if logged.game_after(at).deal().phase() == Phase::LayOff
                    && !showdown.shown[showdown.defender()].unmelded().is_empty() =>
            {
                Some((at, *showdown))
            }
            _ => None,
        })
        .expect("an answered knock");
    let defender = showdown.defender();
    let held = logged.game_after(at).deal().cards(defender);
    assert_eq!(showdown.shown[defender].hand(), held);
    let stock_card = logged.game_after(at).deal().stock().next().unwrap();
    let mut shown = showdown.shown;
    shown[defender] = swap_unmelded(&shown[defender], stock_card);
    let mut altered = logged.events.clone();
    let Event::HandEnded { showdown: Some(changed), .. } = &mut altered[at] else { unreachable!() };
    *changed = Showdown { shown, ..showdown };
    match replayed(&altered) {
        Err(ReplayError::Illegal { line, error: PlayError::WrongCardsShown { expected, found } }) => {
            assert_eq!((line, expected, found), (at + 2, held, shown[defender].hand()));
        }
        other => panic!("{other:?}"),
    }
    // A first hand set up with a card twice.
    let setup = HandSetup::deal(Player::Two, &Deck::shuffled(&mut random::seeded_rng(1)));
    let mut twice = setup.clone();
    let held = twice.hands[Player::One].first().unwrap();
    twice.stock[0] = held;
    let header = LogHeader::new(3, &Ruleset::standard(), Some(twice));
    let err = replay(&log_text(&header, &[])).unwrap_err();
    assert!(matches!(err, ReplayError::Setup(SetupError::Duplicate { card }) if card == held), "{err}");
    assert_eq!(err.to_string(), format!("line 1: the first hand's setup is invalid: {held} is dealt twice"));
    let header = LogHeader::new(3, &Ruleset::standard(), Some(setup));
    assert!(replay(&log_text(&header, &[])).is_ok());
}

/// `shown` with its first unmelded card replaced by `card`.
fn swap_unmelded(shown: &Showing, card: gin_cards::Card) -> Showing {
    let out = shown.unmelded().first().expect("an unmelded card");
    Showing::new(shown.hand().without(out).with(card), shown.melds(), shown.laid_off()).unwrap()
}
