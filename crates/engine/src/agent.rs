//! `Agent`: the interface every player program implements.

use gin_cards::random;
use gin_rules::{GameResult, Player, Ruleset, Showing};

use crate::{Action, Event, PlayerView};

/// A player: it chooses actions from what it may see.
///
/// The runner calls `start_game`, then `observe` for every event (as this player may see it,
/// its own actions included; each event once) and `choose` whenever it is this player's turn
/// (then `show` if the action lays cards down), then `end_game`.
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

    /// Chooses one of `legal` (never empty) from `view`. Returning another action forfeits the
    /// game if the engine refuses it.
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action;

    /// The cards to lay down with `action`, a knock, big gin or a defense this agent just chose
    /// from `view`: its melds (and, defending, its layoffs). `None`, the default, leaves the
    /// choice to the referee ([`PlayerView::engine_showing`]). A showing the referee refuses
    /// forfeits the game.
    fn show(&mut self, view: &PlayerView<'_>, action: Action) -> Option<Showing> {
        let _ = (view, action);
        None
    }

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

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        let mut rng = random::seeded_rng(view.decision_seed(self.seed));
        legal[random::index(&mut rng, legal.len())]
    }
}
