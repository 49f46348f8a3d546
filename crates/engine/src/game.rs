//! `Game`: hands played to the target, with the dealer rule, scores and the final result.

use gin_cards::random;
use gin_rules::{ByPlayer, GameResult, GameScore, NextDealer, Player, Ruleset};

use crate::hand::{self, Hand, HandSetup, PlayError, SetupError};
use crate::{Action, Event, PlayerView};

/// The version of the save format written by [`Game::to_json`].
pub const SAVE_VERSION: u32 = 1;
const SAVE_FORMAT: &str = "gin-save";

/// A game of Gin Rummy: a sequence of hands to the target score.
///
/// Each hand's deck comes from the game's seed and the hand's number, so the same seed and the
/// same actions give the same game on every machine. The whole state serializes
/// ([`Game::to_json`]) and loads back ([`Game::from_json`]) to an identical game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Game {
    rules: Ruleset,
    seed: u64,
    number: u32,
    hand: Hand,
    score: GameScore,
    /// The current hand's events as each player saw them.
    seen: ByPlayer<Vec<Event>>,
    result: Option<GameResult>,
}

/// Why a saved game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Not JSON, cut short, or not shaped like a save.
    #[error("not a readable save file: {0}")]
    Json(#[from] serde_json::Error),
    /// JSON, but not a gin save.
    #[error("not a gin save file: expected \"format\": \"{SAVE_FORMAT}\"")]
    Format,
    /// A save from another version of the format.
    #[error("save format version {found} is not supported: this gin reads version {SAVE_VERSION}")]
    Version {
        /// The version in the file.
        found: u64,
    },
    /// The game in the file is not a possible game.
    #[error("the saved game is damaged: {0}")]
    Invalid(String),
}

#[derive(serde::Serialize)]
struct SaveOut<'a> {
    format: &'static str,
    version: u32,
    game: &'a Game,
}

#[derive(serde::Deserialize)]
struct SaveIn {
    game: Game,
}

impl Game {
    /// A new game: the first dealer and every deck come from `seed`. Returns the game and its
    /// opening events (the game's start and the first deal).
    pub fn new(rules: &Ruleset, seed: u64) -> (Game, Vec<Event>) {
        let mut rng = random::seeded_rng(random::derive_seed(seed, 0));
        let dealer = if random::below(&mut rng, 2) == 0 { Player::One } else { Player::Two };
        let hand = hand::deal(rules, dealer, random::derive_seed(seed, 1));
        Game::start(rules, seed, hand)
    }

    /// A game whose first hand is `setup`; later hands come from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] if the setup is not a valid deal.
    pub fn from_setup(rules: &Ruleset, seed: u64, setup: &HandSetup) -> Result<(Game, Vec<Event>), SetupError> {
        let hand = Hand::new(rules, setup, random::derive_seed(random::derive_seed(seed, 1), 1))?;
        Ok(Game::start(rules, seed, hand))
    }

    fn start(rules: &Ruleset, seed: u64, hand: Hand) -> (Game, Vec<Event>) {
        let mut game = Game {
            rules: rules.clone(),
            seed,
            number: 1,
            hand,
            score: GameScore::default(),
            seen: ByPlayer::default(),
            result: None,
        };
        let started = Event::GameStarted { rules: rules.clone(), first_dealer: game.hand.dealer() };
        let dealt = game.hand.started_event(1);
        game.see(&dealt);
        (game, vec![started, dealt])
    }

    /// The rules.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The seed every deck comes from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.number
    }

    /// The current hand (the last one, once the game is over).
    pub fn hand(&self) -> &Hand {
        &self.hand
    }

    /// The score so far.
    pub fn score(&self) -> &GameScore {
        &self.score
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The player to act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Player> {
        self.hand.to_act()
    }

    /// The actions the player to act may take (see [`Hand::legal_actions`]).
    pub fn legal_actions(&self) -> Vec<Action> {
        self.hand.legal_actions()
    }

    /// [`Game::legal_actions`] into a buffer (cleared first), for loops that reuse one.
    pub fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        self.hand.legal_actions_into(actions);
    }

    /// What `player` may know of the game now.
    pub fn view(&self, player: Player) -> PlayerView<'_> {
        PlayerView::new(self, player, &self.seen[player])
    }

    /// Checks `action` by `player` and applies it; returns the events it caused, including the
    /// end of the hand, the next deal and the end of the game where it leads there.
    ///
    /// # Errors
    /// [`PlayError`] saying why the action is refused; the game is then unchanged.
    pub fn play(&mut self, player: Player, action: &Action) -> Result<Vec<Event>, PlayError> {
        let mut events = Vec::new();
        self.play_into(player, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::play`] appending the events to a buffer, for loops that reuse one.
    ///
    /// # Errors
    /// As [`Game::play`]; the game and the buffer are then unchanged.
    pub fn play_into(&mut self, player: Player, action: &Action, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let start = events.len();
        self.hand.play_into(player, action, events)?;
        self.after(events, start);
        Ok(())
    }

    /// Scores a finished hand, deals the next one or ends the game, and shows every event to
    /// each player as that player may see it.
    fn after(&mut self, events: &mut Vec<Event>, start: usize) {
        let mut next = Vec::new();
        for event in &mut events[start..] {
            if let Event::HandEnded { score, points } = event {
                self.score.record(score);
                *points = self.score.points;
                if self.score.is_over(&self.rules) {
                    self.result = self.score.result(&self.rules);
                    if let Some(result) = self.result {
                        next.push(Event::GameEnded { result });
                    }
                } else {
                    let dealer = match (score.winner, self.rules.next_dealer) {
                        (None, _) => self.hand.dealer(),
                        (Some(_), NextDealer::Alternate) => self.hand.dealer().opponent(),
                        (Some(winner), NextDealer::Loser) => winner.opponent(),
                        (Some(winner), NextDealer::Winner) => winner,
                    };
                    self.number += 1;
                    let seed = random::derive_seed(self.seed, u64::from(self.number));
                    self.hand = hand::deal(&self.rules, dealer, seed);
                    next.push(self.hand.started_event(self.number));
                }
            }
        }
        for event in &events[start..] {
            self.see(event);
        }
        for event in next {
            if matches!(event, Event::HandStarted { .. }) {
                // A new hand: its views start afresh (keeping the buffers).
                self.seen[Player::One].clear();
                self.seen[Player::Two].clear();
            }
            self.see(&event);
            events.push(event);
        }
    }

    fn see(&mut self, event: &Event) {
        for player in Player::ALL {
            self.seen[player].push(event.seen_by(player));
        }
    }

    /// The whole state as JSON, with the save format and its version.
    pub fn to_json(&self) -> String {
        let save = SaveOut { format: SAVE_FORMAT, version: SAVE_VERSION, game: self };
        serde_json::to_string(&save).expect("a game always serializes")
    }

    /// Loads a game saved by [`Game::to_json`], checking that it is a possible game.
    ///
    /// # Errors
    /// [`LoadError`]: text that is not JSON or is cut short, another file format or version, or a
    /// game whose cards or state do not add up.
    pub fn from_json(text: &str) -> Result<Game, LoadError> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(SAVE_FORMAT) {
            return Err(LoadError::Format);
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(version) if version == u64::from(SAVE_VERSION) => {}
            Some(found) => return Err(LoadError::Version { found }),
            None => return Err(LoadError::Format),
        }
        let SaveIn { game } = serde_json::from_value(value)?;
        game.validate().map_err(LoadError::Invalid)?;
        Ok(game)
    }

    fn validate(&self) -> Result<(), String> {
        self.rules.validate().map_err(|e| e.to_string())?;
        if self.hand.rules != self.rules {
            return Err("the hand's rules differ from the game's".to_owned());
        }
        self.hand.validate()?;
        if self.number == 0 {
            return Err("hand number 0: hands count from 1".to_owned());
        }
        if self.result.is_some() != self.score.is_over(&self.rules) {
            return Err("the result does not match the score".to_owned());
        }
        if self.result.is_some() && self.hand.to_act().is_some() {
            return Err("the game is over but a player is to act".to_owned());
        }
        if self.result.is_none() && self.hand.to_act().is_none() {
            return Err("the hand is over but no next hand was dealt".to_owned());
        }
        Ok(())
    }
}
