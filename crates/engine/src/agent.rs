//! `Agent`: the interface every player program implements.

use gin_cards::random;
use gin_rules::{GameResult, Player, Ruleset, Showing};

use crate::{Action, Event, PlayerView};

/// What an agent decides at its turn: an action to play, with the cards it lays down, or to give
/// up the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play `action`. With a knock, big gin or a defense, `showing` is the cards to lay down: the
    /// melds (and, defending, the layoffs); `None` leaves them to the referee
    /// ([`PlayerView::engine_showing`]). An action or a showing the referee refuses forfeits the
    /// game.
    Play {
        /// The action, one of the legal ones.
        action: Action,
        /// The cards laid down with it, `None` for the referee's choice (or an action that lays
        /// none down). Boxed: a decision that names no cards stays small.
        showing: Option<Box<Showing>>,
    },
    /// Give up the game, which the runner records as this player's forfeit with `reason` (an
    /// agent program that crashed, say, or answered nothing the game accepts).
    Resign {
        /// Why, as the forfeit's reason.
        reason: String,
    },
}

impl Decision {
    /// Plays `action`, laying down what the referee chooses.
    #[inline]
    pub fn play(action: Action) -> Decision {
        Decision::Play { action, showing: None }
    }

    /// Plays `action`, laying down `showing` (`None`: the referee's choice).
    #[inline]
    pub fn showing(action: Action, showing: Option<Showing>) -> Decision {
        Decision::Play { action, showing: showing.map(Box::new) }
    }

    /// Gives up the game for `reason`.
    pub fn resign(reason: impl Into<String>) -> Decision {
        Decision::Resign { reason: reason.into() }
    }

    /// The action played, `None` for a resignation.
    pub fn action(&self) -> Option<Action> {
        match self {
            Decision::Play { action, .. } => Some(*action),
            Decision::Resign { .. } => None,
        }
    }
}

impl From<Action> for Decision {
    fn from(action: Action) -> Decision {
        Decision::play(action)
    }
}

/// A player: it chooses actions from what it may see.
///
/// The runner calls `start_game`, then `observe` for every event (as this player may see it,
/// its own actions included; each event once) and `choose` whenever it is this player's turn,
/// then `end_game`.
/// An agent's randomness comes from the seed the runner gives it in `start_game`, so a match is
/// the same every time it is played from the same seed. An agent should draw each decision's
/// random choices from [`PlayerView::decision_seed`] rather than from one stream over the game:
/// then its choices depend only on what it observed, and a game rebuilt from its record (a
/// resumed save) goes on as it would have. The trait is object safe: agents live in
/// `Box<dyn Agent>`.
pub trait Agent {
    /// A short name for reports, such as `random`.
    fn name(&self) -> &str;

    /// A game begins: this agent's seat, the rules, and a seed for its random source.
    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        let _ = (seat, rules, seed);
    }

    /// Something happened, as this player may see it.
    fn observe(&mut self, event: &Event) {
        let _ = event;
    }

    /// Decides from `view`: one of `legal` (never empty), with the cards it lays down, or to
    /// resign. An action or a showing the engine refuses forfeits the game.
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision;

    /// The game ended.
    fn end_game(&mut self, result: &GameResult) {
        let _ = result;
    }
}

/// Chooses uniformly among the legal actions: the baseline, and the engine's test driver.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    /// The game's seed for this agent; each decision draws from [`PlayerView::decision_seed`].
    seed: u64,
}

impl RandomAgent {
    /// A random agent seeded with `seed` (the runner reseeds it at each game).
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { seed }
    }
}

impl Default for RandomAgent {
    fn default() -> RandomAgent {
        RandomAgent::new(0)
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn start_game(&mut self, _seat: Player, _rules: &Ruleset, seed: u64) {
        self.seed = seed;
    }

    #[inline]
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        let mut rng = random::seeded_rng(view.decision_seed(self.seed));
        Decision::play(legal[random::index(&mut rng, legal.len())])
    }
}
