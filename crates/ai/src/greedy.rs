//! `GreedyAgent` (placeholder while it is written).

use gin_engine::{Action, Agent, PlayerView, RandomAgent};

/// Placeholder.
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent {
    inner: RandomAgent,
}

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        "greedy"
    }
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.inner.choose(view, legal)
    }
}
