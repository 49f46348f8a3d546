//! `SimpleAgent` (placeholder while the port is written).

use gin_engine::{Action, Agent, PlayerView, RandomAgent};

/// Placeholder.
#[derive(Clone, Debug, Default)]
pub struct SimpleAgent {
    inner: RandomAgent,
}

impl Agent for SimpleAgent {
    fn name(&self) -> &str {
        "simple"
    }
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.inner.choose(view, legal)
    }
}
