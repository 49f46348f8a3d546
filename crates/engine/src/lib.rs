//! The Gin Rummy referee: [`Game`], a state machine that knows every rule of RULES.md, never
//! trusts a player, and tells each player exactly what that player may know ([`PlayerView`]).
//!
//! A [`Game`] is a sequence of [`Hand`]s. The player to act asks for its legal actions and
//! plays one; a refused action leaves the game exactly as it was. Players are [`Agent`]s, and
//! [`play_game`] runs two of them from a seed. The same seed, rules and agents give the same
//! game, event for event, on every machine.
//!
//! ```
//! use gin_engine::{Action, Game, Phase};
//! use gin_rules::Ruleset;
//!
//! let (mut game, _opening) = Game::new(&Ruleset::standard(), 42);
//! let player = game.to_act().expect("someone is to act");
//! assert_eq!(game.hand().phase(), Phase::UpcardOffer);
//! assert!(game.legal_actions().contains(&Action::PassUpcard));
//! let events = game.play(player, &Action::PassUpcard)?;
//! assert_eq!(events.len(), 1);
//! // The same player cannot act twice in a row.
//! assert!(game.play(player, &Action::PassUpcard).is_err());
//! # Ok::<(), gin_engine::PlayError>(())
//! ```

mod action;
mod agent;
mod event;
mod game;
mod hand;
mod log;
mod runner;
mod view;

pub use action::Action;
pub use agent::{Agent, RandomAgent};
pub use event::Event;
pub use game::{Game, LoadError, SAVE_VERSION};
pub use hand::{Hand, HandSetup, Knock, MAX_DRAWS, Phase, PlayError, SetupError};
pub use log::{LOG_VERSION, LogHeader, ReplayError, read_log, recorded_action, replay, write_log};
pub use runner::{
    GameOutcome, GameRecord, MAX_HANDS, RunOptions, agent_seed, game_seed, play_game, play_game_observed, play_match,
};
pub use view::PlayerView;
