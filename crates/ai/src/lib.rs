//! Agents for the gin engine, and a registry that builds them by name.
//!
//! [`registry::build`] turns a spec such as `simple` or `expert:danger_weight=2` into a boxed
//! [`gin_engine::Agent`]. The agents are one table, [`registry::AGENTS`], weakest first: `random`
//! (uniform over the legal actions), `taker`, `greedy` (the heuristic of the original Gin Rummy Java
//! project), `simple` (a port of the EAAI competition's `SimpleGinRummyPlayer`), `expert` (our own:
//! knock and gin distance, outs, danger, and a knock policy, with every weight in
//! [`ExpertParams`]), `holder` (a low holder), and the searches `mc-fast` and `mc` ([`McAgent`]).
//!
//! ```
//! use gin_ai::registry;
//! use gin_engine::{RunOptions, play_game};
//! use gin_rules::{ByPlayer, Ruleset};
//!
//! let mut a = registry::build(&"simple".parse()?, &Default::default())?;
//! let mut b = registry::build(&"greedy".parse()?, &Default::default())?;
//! let record = play_game(&Ruleset::eaai(), 7, ByPlayer([a.as_mut(), b.as_mut()]), RunOptions::default());
//! assert!(record.outcome.winner().is_some());
//! # Ok::<(), registry::SpecError>(())
//! ```

mod expert;
mod greedy;
mod hint;
mod holder;
mod mc;
pub mod registry;
mod simple;
mod taker;
#[cfg(test)]
mod testing;
mod tracker;

pub use expert::{ExpertAgent, ExpertParams};
pub use greedy::GreedyAgent;
pub use hint::{Advisor, Hint, Reason};
pub use holder::{HolderAgent, HolderParams};
pub use mc::{McAgent, McParams, calibration};
pub use simple::SimpleAgent;
pub use taker::TakerAgent;
pub use tracker::Tracker;

/// How each built-in agent decides, in two steps: the action, then the cards it lays down with
/// it. Inside the crate, a search or a test asks for the action alone ([`Picks::pick`]).
pub(crate) trait Picks {
    /// The action played from `view`, one of `legal`.
    fn pick(&mut self, view: &gin_engine::PlayerView<'_>, legal: &[gin_engine::Action]) -> gin_engine::Action;

    /// The cards laid down with `action`, a knock, big gin or a defense just picked (`None`: the
    /// referee's choice).
    fn shown(&mut self, view: &gin_engine::PlayerView<'_>, action: gin_engine::Action) -> Option<gin_rules::Showing> {
        let _ = (view, action);
        None
    }
}

/// [`gin_engine::Agent::choose`] for a built-in agent: its action, and the cards it shows with one
/// that lays cards down.
pub(crate) fn decide<A: Picks + ?Sized>(
    agent: &mut A,
    view: &gin_engine::PlayerView<'_>,
    legal: &[gin_engine::Action],
) -> gin_engine::Decision {
    let action = agent.pick(view, legal);
    let showing = if action.shows_cards() { agent.shown(view, action) } else { None };
    gin_engine::Decision::showing(action, showing)
}
