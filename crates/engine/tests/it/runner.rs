//! The match runner: whole games between agents, forfeits, matches.

use gin_engine::{
    Action, Agent, Decision, Event, GameOutcome, LogHeader, PlayerView, RandomAgent, RunOptions, play_game,
    play_game_observed, play_match, replay, write_log,
};
use gin_rules::{ByPlayer, Player, Ruleset, Showing};

#[test]
fn random_games_finish_and_replay() {
    for preset in Ruleset::PRESETS {
        let rules = Ruleset::preset(preset).unwrap();
        for seed in 0..2 {
            let (mut a, mut b) = (RandomAgent::default(), RandomAgent::default());
            let record = play_game(
                &rules,
                seed,
                ByPlayer([&mut a, &mut b]),
                RunOptions { keep_events: true, ..RunOptions::default() },
            );
            assert!(matches!(record.outcome, GameOutcome::Finished { .. }), "{preset} {seed}: {:?}", record.outcome);
            let mut text = Vec::new();
            write_log(&mut text, &LogHeader::new(seed, &rules, None), &record.events).unwrap();
            let game = replay(std::str::from_utf8(&text).unwrap()).unwrap();
            assert!(game.result().is_some());
            assert_eq!(game.hand_number(), record.hands);
        }
    }
}

/// Plays randomly, but after `after` choices discards a card it does not hold.
struct Cheater {
    inner: RandomAgent,
    after: usize,
}

impl Agent for Cheater {
    fn name(&self) -> &str {
        "cheater"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.inner.start_game(seat, rules, seed);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        if self.after == 0 {
            let foreign = view.hand.complement().first().expect("some card is not held");
            return Decision::play(Action::Discard { card: foreign });
        }
        self.after -= 1;
        self.inner.choose(view, legal)
    }
}

#[test]
fn an_illegal_action_forfeits_the_game() {
    let rules = Ruleset::standard();
    let mut cheater = Cheater { inner: RandomAgent::default(), after: 5 };
    let mut honest = RandomAgent::default();
    let record = play_game(&rules, 3, ByPlayer([&mut cheater, &mut honest]), RunOptions::default());
    let GameOutcome::Forfeit { player, action, reason } = &record.outcome else {
        panic!("expected a forfeit, got {:?}", record.outcome)
    };
    assert_eq!(*player, Player::One);
    assert!(matches!(action, Some(Action::Discard { .. })));
    assert!(reason.contains("not in player 1's hand") || reason.contains("cannot discard"), "{reason}");
    assert_eq!(record.outcome.winner(), Some(Player::Two));
}

#[test]
fn a_match_is_the_same_every_time_and_its_games_differ() {
    let rules = Ruleset::eaai();
    let run = || {
        let (mut a, mut b) = (RandomAgent::default(), RandomAgent::default());
        let mut records = Vec::new();
        play_match(&rules, 11, 3, ByPlayer([&mut a, &mut b]), RunOptions::default(), |r| records.push(r));
        records
    };
    let first = run();
    assert_eq!(first, run());
    assert_eq!(first.len(), 3);
    assert_ne!(first[0].seed, first[1].seed);
    assert!(first.iter().all(|r| r.events.is_empty()), "no log kept unless asked for");
    assert_ne!(first[0].outcome, first[1].outcome);
}

#[test]
fn a_game_over_the_hand_limit_is_abandoned() {
    let rules = Ruleset::standard();
    let (mut a, mut b) = (RandomAgent::default(), RandomAgent::default());
    let options = RunOptions { keep_events: false, max_hands: 2 };
    let record = play_game(&rules, 0, ByPlayer([&mut a, &mut b]), options);
    assert!(matches!(record.outcome, GameOutcome::Abandoned { .. }), "{:?}", record.outcome);
    assert_eq!(record.outcome.winner(), None);
}

/// The agent of `docs/agents.md`, written outside gin-ai as a user's own crate would: it
/// discards its highest card, knocks when it may, and otherwise draws from the stock.
#[path = "../../examples/high_card_out.rs"]
#[allow(dead_code, reason = "the example's `main` is not called here")]
mod high_card_out;
use high_card_out::HighCardOut;

#[test]
fn an_agent_from_another_crate_plays_through_the_runner() {
    for preset in Ruleset::PRESETS {
        let rules = Ruleset::preset(preset).unwrap();
        let mut mine = HighCardOut;
        let mut baseline = RandomAgent::default();
        let record = play_game(&rules, 21, ByPlayer([&mut mine, &mut baseline]), RunOptions::default());
        assert_eq!(record.outcome.winner(), Some(Player::One), "{preset}: {:?}", record.outcome);
    }
}

/// Plays randomly and keeps every event it observes.
struct Recorder {
    inner: RandomAgent,
    seen: Vec<Event>,
}

impl Agent for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.inner.start_game(seat, rules, seed);
    }

    fn observe(&mut self, event: &Event) {
        self.seen.push(event.clone());
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        self.inner.choose(view, legal)
    }
}

#[test]
fn each_agent_observes_each_event_once() {
    for preset in Ruleset::PRESETS {
        let rules = Ruleset::preset(preset).unwrap();
        let mut agents = ByPlayer::from_fn(|_| Recorder { inner: RandomAgent::default(), seen: Vec::new() });
        let mut observed = Vec::new();
        let mut draws = 0;
        let [one, two] = &mut agents.0;
        let record = play_game_observed(
            &rules,
            8,
            ByPlayer([one, two]),
            RunOptions { keep_events: true, ..RunOptions::default() },
            &mut |event, game| {
                // Beside a draw, the game holds the drawer's eleven cards, the card drawn among them.
                if let Event::TookUpcard { player, card }
                | Event::DrewPile { player, card }
                | Event::DrewStock { player, card: Some(card) } = *event
                {
                    let hand = game.deal().cards(player);
                    assert!(hand.len() == 11 && hand.contains(card), "{event:?}: {hand}");
                    draws += 1;
                }
                observed.push(event.clone());
            },
        );
        assert!(draws > 10, "{preset}: {draws} draws");
        assert!(matches!(record.outcome, GameOutcome::Finished { .. }), "{preset}: {:?}", record.outcome);
        // The observer sees the game's log as the referee saw it, each agent as its seat may.
        assert_eq!(observed, record.events, "{preset}");
        let count = |events: &[Event], kind: fn(&Event) -> bool| events.iter().filter(|event| kind(event)).count();
        for seat in Player::ALL {
            let seen = &agents[seat].seen;
            let expected: Vec<Event> = record.events.iter().map(|event| event.seen_by(seat)).collect();
            assert_eq!(seen, &expected, "{preset}: {seat} observes each event once, in order");
            assert_eq!(count(seen, |e| matches!(e, Event::GameStarted { .. })), 1);
            assert_eq!(count(seen, |e| matches!(e, Event::GameEnded { .. })), 1);
            assert_eq!(count(seen, |e| matches!(e, Event::HandStarted { .. })), record.hands as usize);
            assert_eq!(count(seen, |e| matches!(e, Event::HandEnded { .. })), record.hands as usize);
            for event in seen {
                match event {
                    Event::DrewStock { player, card } => assert_eq!(card.is_some(), *player == seat, "{event:?}"),
                    Event::HandStarted { hands, .. } => {
                        assert!(hands[seat].is_some() && hands[seat.opponent()].is_none())
                    }
                    _ => {}
                }
            }
        }
        // And the log replays to the game the runner played.
        let mut text = Vec::new();
        write_log(&mut text, &LogHeader::new(8, &rules, None), &record.events).unwrap();
        let game = replay(std::str::from_utf8(&text).unwrap()).unwrap_or_else(|e| panic!("{preset}: {e}"));
        assert_eq!(game.hand_number(), record.hands);
    }
}

/// [`HighCardOut`], showing its own cards: the safest arrangement of its knocks (every card weighs
/// the same), and its best defense; it remembers what it showed.
struct Shower {
    showings: Vec<Showing>,
    asked: usize,
    /// Shows the whole hand with a knock, the discard included: a showing the referee refuses.
    cheat: bool,
}

impl Agent for Shower {
    fn name(&self) -> &str {
        "shower"
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        let action = high_card_out::pick(legal);
        if action.shows_cards() { Decision::showing(action, self.show(view, action)) } else { Decision::play(action) }
    }
}

impl Shower {
    fn show(&mut self, view: &PlayerView<'_>, action: Action) -> Option<Showing> {
        self.asked += 1;
        let solver = view.rules.solver();
        let shown = match action {
            Action::Knock { discard } => {
                let kept = if self.cheat { view.hand } else { view.hand.without(discard) };
                Showing::of_arrangement(&solver.safest_arrangement(kept, |_| 1.0))
            }
            Action::BigGin => Showing::of_arrangement(&solver.safest_arrangement(view.hand, |_| 1.0)),
            Action::LayOff => {
                let knock = view.knock?;
                solver.defend_keeping(view.rules.layoff_melds(knock.kind, &knock.shown), view.hand, &[]).ok()
            }
            _ => panic!("asked to show cards for {action}"),
        }?;
        self.showings.push(shown);
        Some(shown)
    }
}

#[test]
fn an_agent_may_show_its_own_cards() {
    for preset in Ruleset::PRESETS {
        let rules = Ruleset::preset(preset).unwrap();
        let mut shower = Shower { showings: Vec::new(), asked: 0, cheat: false };
        let mut baseline = RandomAgent::default();
        let options = RunOptions { keep_events: true, ..RunOptions::default() };
        let record = play_game(&rules, 21, ByPlayer([&mut shower, &mut baseline]), options);
        assert_eq!(record.outcome.winner(), Some(Player::One), "{preset}: {:?}", record.outcome);
        // It was asked once for each knock and defense, and the events show what it chose.
        let shown: Vec<Showing> = record
            .events
            .iter()
            .filter_map(|event| match event {
                Event::Knocked { player: Player::One, shown, .. } => Some(*shown),
                Event::HandEnded { showdown: Some(showdown), .. }
                    if showdown.defender() == Player::One && showdown.kind == gin_rules::KnockKind::Knock =>
                {
                    Some(showdown.shown[Player::One])
                }
                _ => None,
            })
            .collect();
        assert!(!shown.is_empty(), "{preset}: it never showed its cards");
        assert_eq!(shown, shower.showings, "{preset}");
        assert_eq!(shower.asked, shower.showings.len());
    }
}

#[test]
fn a_showing_the_referee_refuses_forfeits_the_game() {
    let rules = Ruleset::standard();
    let mut cheat = Shower { showings: Vec::new(), asked: 0, cheat: true };
    let mut baseline = RandomAgent::default();
    let record = play_game(&rules, 21, ByPlayer([&mut cheat, &mut baseline]), RunOptions::default());
    let GameOutcome::Forfeit { player, action, reason } = &record.outcome else {
        panic!("expected a forfeit, got {:?}", record.outcome)
    };
    assert_eq!((*player, cheat.asked), (Player::One, 1));
    assert!(matches!(action, Some(Action::Knock { .. })), "{action:?}");
    assert!(reason.starts_with("the cards shown are"), "{reason}");
    assert_eq!(record.outcome.winner(), Some(Player::Two));
}

/// Plays randomly, and resigns at its `after`-th decision.
struct Resigner {
    inner: RandomAgent,
    after: usize,
}

impl Agent for Resigner {
    fn name(&self) -> &str {
        "resigner"
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        if self.after == 0 {
            return Decision::resign("it has had enough");
        }
        self.after -= 1;
        self.inner.choose(view, legal)
    }
}

#[test]
fn a_resignation_is_recorded_as_the_forfeit() {
    let rules = Ruleset::standard();
    let mut honest = RandomAgent::default();
    let mut resigner = Resigner { inner: RandomAgent::default(), after: 7 };
    let record = play_game(&rules, 3, ByPlayer([&mut honest, &mut resigner]), RunOptions::default());
    assert_eq!(
        record.outcome,
        GameOutcome::Forfeit { player: Player::Two, action: None, reason: "it has had enough".to_owned() }
    );
    assert_eq!(record.outcome.winner(), Some(Player::One));
    assert_eq!(Decision::resign("x").action(), None);
    assert_eq!(Decision::from(Action::DrawStock), Decision::play(Action::DrawStock));
}
