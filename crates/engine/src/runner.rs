//! The match runner: two agents, one seed, one game or many.

use gin_cards::random;
use gin_rules::{ByPlayer, GameResult, GameScore, Player, Ruleset};

use crate::{Action, Agent, Decision, Event, Game, PlayError};

/// A game that has not ended after this many hands is abandoned (two agents that never knock
/// would otherwise deal dead hands forever).
pub const MAX_HANDS: u32 = 1000;

/// What to keep of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Keep the full event log (memory grows with the game).
    pub keep_events: bool,
    /// Abandon a game after this many hands.
    pub max_hands: u32,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { keep_events: false, max_hands: MAX_HANDS }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum GameOutcome {
    /// Played to the target.
    Finished {
        /// Every part of the result.
        result: GameResult,
    },
    /// A player resigned, or chose an action (or cards to show) the referee refused, and loses
    /// the game.
    Forfeit {
        /// The player who forfeits.
        player: Player,
        /// What it chose, `None` when it resigned.
        action: Option<Action>,
        /// Why: the agent's reason to resign, or the referee's to refuse.
        reason: String,
    },
    /// Nobody reached the target within the hand limit.
    Abandoned {
        /// The score when it was abandoned.
        score: GameScore,
    },
}

impl GameOutcome {
    /// The winner: the result's winner, or the opponent of the player who forfeited.
    pub fn winner(&self) -> Option<Player> {
        match self {
            GameOutcome::Finished { result } => Some(result.winner),
            GameOutcome::Forfeit { player, .. } => Some(player.opponent()),
            GameOutcome::Abandoned { .. } => None,
        }
    }
}

/// One game played by the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's seed.
    pub seed: u64,
    /// How it ended.
    pub outcome: GameOutcome,
    /// The number of hands dealt.
    pub hands: u32,
    /// The full event log, if it was asked for.
    pub events: Vec<Event>,
}

/// The seed of `seat`'s random source in the game seeded `seed`.
pub fn agent_seed(seed: u64, seat: Player) -> u64 {
    random::derive_seed(random::derive_seed(seed, u64::MAX), seat.index() as u64)
}

/// The seed of game `index` (from 0) of a match seeded `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    random::derive_seed(random::derive_seed(seed, u64::MAX - 1), index)
}

/// Plays one game between `agents` (indexed by seat) from `seed`.
pub fn play_game(rules: &Ruleset, seed: u64, agents: ByPlayer<&mut dyn Agent>, options: RunOptions) -> GameRecord {
    play_game_observed(rules, seed, agents, options, &mut |_, _| {})
}

/// [`play_game`], showing every event (as the referee saw it) to `observer` as it happens, with
/// the game as the action that caused it left it: for statistics that should not keep the whole
/// log. A draw is always an action of its own (a dead hand ends after a discard), so the game
/// beside a draw's event holds the drawer's eleven cards.
pub fn play_game_observed(
    rules: &Ruleset,
    seed: u64,
    agents: ByPlayer<&mut dyn Agent>,
    options: RunOptions,
    observer: &mut dyn FnMut(&Event, &Game),
) -> GameRecord {
    let ByPlayer([one, two]) = agents;
    let mut agents = ByPlayer([one, two]);
    let (mut game, opening) = Game::new(rules, seed);
    for seat in Player::ALL {
        agents[seat].start_game(seat, rules, agent_seed(seed, seat));
    }
    let mut log = Vec::new();
    deliver(&mut agents, &opening, options.keep_events.then_some(&mut log), &mut |event| observer(event, &game));
    let mut events = Vec::new();
    let outcome = loop {
        let Some(player) = game.to_act() else {
            match game.result() {
                Some(result) => break GameOutcome::Finished { result: *result },
                None => break GameOutcome::Abandoned { score: *game.score() },
            }
        };
        if game.hand_number() > options.max_hands {
            break GameOutcome::Abandoned { score: *game.score() };
        }
        let legal = game.legal_actions();
        let view = game.view(player);
        let (action, showing) = match agents[player].choose(&view, &legal) {
            Decision::Play { action, showing } => (action, showing),
            Decision::Resign { reason } => break GameOutcome::Forfeit { player, action: None, reason },
        };
        events.clear();
        match game.play_into(player, action, showing.as_deref(), &mut events) {
            Ok(()) => deliver(&mut agents, &events, options.keep_events.then_some(&mut log), &mut |event| {
                observer(event, &game)
            }),
            Err(err) => break forfeit(player, action, &err),
        }
    };
    if let GameOutcome::Finished { result } = &outcome {
        for seat in Player::ALL {
            agents[seat].end_game(result);
        }
    }
    GameRecord { seed, outcome, hands: game.hand_number(), events: log }
}

fn forfeit(player: Player, action: Action, err: &PlayError) -> GameOutcome {
    GameOutcome::Forfeit { player, action: Some(action), reason: err.to_string() }
}

fn deliver(
    agents: &mut ByPlayer<&mut dyn Agent>,
    events: &[Event],
    log: Option<&mut Vec<Event>>,
    observer: &mut dyn FnMut(&Event),
) {
    for event in events {
        observer(event);
        for seat in Player::ALL {
            agents[seat].observe(&event.seen_by(seat));
        }
    }
    if let Some(log) = log {
        log.extend_from_slice(events);
    }
}

/// Plays `games` games between the same two agents in the same seats, game `i` from
/// [`game_seed`]`(seed, i)`, handing each record to `each` as it ends (nothing is kept here).
pub fn play_match(
    rules: &Ruleset,
    seed: u64,
    games: u64,
    mut agents: ByPlayer<&mut dyn Agent>,
    options: RunOptions,
    mut each: impl FnMut(GameRecord),
) {
    for index in 0..games {
        let ByPlayer([one, two]) = &mut agents;
        let record = play_game(rules, game_seed(seed, index), ByPlayer([&mut **one, &mut **two]), options);
        each(record);
    }
}
