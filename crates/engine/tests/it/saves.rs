//! Saving and loading games: an identical state back, and a clear error (never a panic) for a
//! truncated, corrupted or foreign file.

use gin_cards::random;
use gin_engine::{Game, LoadError, Phase};
use gin_rules::Ruleset;

/// Plays `steps` random legal actions (fewer if the game ends).
fn walk(game: &mut Game, seed: u64, steps: usize) {
    let mut rng = random::seeded_rng(seed);
    for _ in 0..steps {
        let Some(player) = game.to_act() else { return };
        let legal = game.legal_actions();
        let action = &legal[random::index(&mut rng, legal.len())];
        game.play(player, action).expect("a listed action plays");
    }
}

/// Games stopped in every phase, under every preset.
fn games_in_progress() -> Vec<Game> {
    let mut games = Vec::new();
    for (i, name) in Ruleset::PRESETS.iter().enumerate() {
        let rules = Ruleset::preset(name).unwrap();
        for steps in [0, 1, 2, 3, 7, 30, 61, 200, 1000] {
            let (mut game, _) = Game::new(&rules, i as u64 * 100 + steps as u64);
            walk(&mut game, steps as u64, steps);
            games.push(game);
        }
    }
    games
}

#[test]
fn a_saved_game_loads_back_identical_and_plays_on_the_same() {
    let mut phases = Vec::new();
    for game in games_in_progress() {
        let json = game.to_json();
        let loaded = Game::from_json(&json).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded, game);
        phases.push(game.hand().phase());
        let (mut a, mut b) = (game, loaded);
        walk(&mut a, 9, 50);
        walk(&mut b, 9, 50);
        assert_eq!(a, b);
    }
    for phase in [Phase::UpcardOffer, Phase::Draw, Phase::Discard] {
        assert!(phases.contains(&phase), "no save in phase {phase:?}: {phases:?}");
    }
}

#[test]
fn a_truncated_save_is_refused() {
    let json = games_in_progress()[5].to_json();
    let step = (json.len() / 300).max(1);
    for cut in (0..json.len()).step_by(step) {
        let Some(prefix) = json.get(..cut) else { continue };
        let err = Game::from_json(prefix).expect_err("a cut save must not load");
        assert!(matches!(err, LoadError::Json(_) | LoadError::Format), "cut at {cut}: {err}");
    }
}

#[test]
fn a_corrupted_save_is_refused_or_still_a_playable_game() {
    let json = games_in_progress()[14].to_json();
    let mut rng = random::seeded_rng(77);
    let mut refused = 0;
    for _ in 0..300 {
        let mut bytes = json.clone().into_bytes();
        let at = random::index(&mut rng, bytes.len());
        bytes[at] = b"0123456789,:{}[]\"aASHDCT2"[random::index(&mut rng, 25)];
        let Ok(text) = String::from_utf8(bytes) else { continue };
        match Game::from_json(&text) {
            Err(err) => {
                refused += 1;
                assert!(!err.to_string().is_empty());
            }
            // A change that still describes a possible game (a different score, say) loads; the
            // game must then play on without a panic.
            Ok(mut game) => walk(&mut game, 1, 300),
        }
    }
    assert!(refused > 100, "only {refused} of 300 corruptions were refused");
}

#[test]
fn foreign_files_and_other_versions_say_what_is_wrong() {
    let json = games_in_progress()[3].to_json();
    let newer = json.replacen("\"version\":1", "\"version\":2", 1);
    let err = Game::from_json(&newer).unwrap_err();
    assert!(matches!(err, LoadError::Version { found: 2 }), "{err}");
    assert_eq!(err.to_string(), "save format version 2 is not supported: this gin reads version 1");
    let other = json.replacen("gin-save", "chess-save", 1);
    assert!(matches!(Game::from_json(&other), Err(LoadError::Format)));
    assert!(matches!(Game::from_json("{}"), Err(LoadError::Format)));
    assert!(matches!(Game::from_json("not json"), Err(LoadError::Json(_))));
    assert!(matches!(Game::from_json(""), Err(LoadError::Json(_))));
}

#[test]
fn a_save_whose_cards_do_not_add_up_is_refused() {
    let game = &games_in_progress()[4];
    let json = game.to_json();
    // Replace one card of the stock by a card already in a hand.
    let stock_card = game.hand().stock().next().unwrap();
    let held = game.hand().cards(gin_rules::Player::One).first().unwrap();
    let needle = format!("\"{stock_card}\"");
    let at = json.find("\"stock\":").unwrap() + json[json.find("\"stock\":").unwrap()..].find(&needle).unwrap();
    let damaged = format!("{}\"{held}\"{}", &json[..at], &json[at + needle.len()..]);
    let err = Game::from_json(&damaged).unwrap_err();
    assert!(matches!(err, LoadError::Invalid(_)), "{err}");
    assert!(err.to_string().contains("52"), "{err}");
}
