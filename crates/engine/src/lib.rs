//! The Gin Rummy referee: [`Game`], a state machine that knows every rule of docs/rules.md, never
//! trusts a player, and tells each player exactly what that player may know ([`PlayerView`]).
//!
//! A [`Game`] is a sequence of [`Deal`]s, each a compact `Copy` hand state that a search may copy
//! to play futures out. The player to act asks for its legal actions ([`Action`], listed without
//! allocating) and plays one, with a [`gin_rules::Showing`] where the rules let it choose which
//! cards to lay down; a refused action leaves the game exactly as it was. Players are [`Agent`]s, and
//! [`play_game`] runs two of them from a seed. The same seed, rules and agents give the same
//! game, event for event, on every machine.
//!
//! ```
//! use gin_engine::{Action, Game, Phase};
//! use gin_rules::Ruleset;
//!
//! let (mut game, _opening) = Game::new(&Ruleset::standard(), 42);
//! let player = game.to_act().expect("someone is to act");
//! assert_eq!(game.deal().phase(), Phase::UpcardOffer);
//! assert!(game.legal_actions().contains(&Action::PassUpcard));
//! let events = game.play(player, Action::PassUpcard)?;
//! assert_eq!(events.len(), 1);
//! // The same player cannot act twice in a row.
//! assert!(game.play(player, Action::PassUpcard).is_err());
//! # Ok::<(), gin_engine::PlayError>(())
//! ```

mod action;
mod agent;
mod deal;
mod event;
mod game;
mod log;
mod runner;
mod view;

pub use action::{Action, LegalActions, MAX_LEGAL};
pub use agent::{Agent, Decision, RandomAgent};
pub use deal::{Deal, HandSetup, Knock, MAX_DRAWS, Phase, PlayError, SetupError};
pub use event::Event;
pub use game::Game;
pub use log::{LOG_VERSION, LogHeader, ReplayError, read_log, recorded_action, replay, replay_events, write_log};
pub use runner::{
    GameOutcome, GameRecord, MAX_HANDS, RunOptions, agent_seed, game_seed, play_game, play_game_observed, play_match,
};
pub use view::{PlayerView, ViewError};
