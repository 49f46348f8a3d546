use gin_engine::{GameOutcome, LogHeader, RandomAgent, RunOptions, play_game, replay, write_log};
use gin_rules::{ByPlayer, Ruleset};

#[test]
fn random_games_finish_and_replay() {
    for preset in Ruleset::PRESETS {
        let rules = Ruleset::preset(preset).unwrap();
        for seed in 0..5 {
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
            println!("{preset} {seed}: {} hands, {} events", record.hands, record.events.len());
        }
    }
}
