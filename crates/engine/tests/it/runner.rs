//! The match runner: whole games between agents, forfeits, matches.

use gin_engine::{
    Action, Agent, GameOutcome, LogHeader, PlayerView, RandomAgent, RunOptions, play_game, play_match, replay,
    write_log,
};
use gin_rules::{ByPlayer, Player, Ruleset};

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

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        if self.after == 0 {
            let foreign = view.hand.complement().first().expect("some card is not held");
            return Action::Discard { card: foreign };
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
    assert!(matches!(action, Action::Discard { .. }));
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

/// An agent written outside gin-ai, as a user's own crate would: it discards its highest card,
/// knocks when it may, and otherwise draws from the stock.
struct HighCardOut;

impl Agent for HighCardOut {
    fn name(&self) -> &str {
        "high-card-out"
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        if let Some(knock) = legal.iter().find(|a| matches!(a, Action::Knock { .. } | Action::BigGin { .. })) {
            return knock.clone();
        }
        let highest = legal
            .iter()
            .filter_map(|a| match a {
                Action::Discard { card } => Some(*card),
                _ => None,
            })
            .max_by_key(|card| (card.value(), card.rank()));
        if let Some(card) = highest {
            return Action::Discard { card };
        }
        for wanted in [Action::DrawStock, Action::PassUpcard, Action::LAY_OFF_BEST] {
            if legal.contains(&wanted) {
                return wanted;
            }
        }
        let _ = view;
        legal[0].clone()
    }
}

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
