//! A test helper: a real game in which a test watches every decision of one agent.

use gin_engine::{Action, Agent, Decision, GameRecord, PlayerView, RunOptions, play_game};
use gin_rules::{ByPlayer, GameResult, Player, Ruleset};

use crate::picks::Picks;

/// Plays the game from `seed` under `rules`, `ours` in seat one and `other` in seat two, for at
/// most `max_hands` hands. At each of our decisions `decide` chooses for `ours`, given the agent,
/// the view and the legal actions: there a test asks for a hint, compares the agent with another,
/// or checks what the agent claims. Everything else (events, showings, seeds) goes as in any
/// match, and the agent can be inspected afterwards.
pub(crate) fn play_watched<A: Agent + Picks>(
    rules: &Ruleset,
    seed: u64,
    ours: &mut A,
    other: &mut dyn Agent,
    max_hands: u32,
    decide: impl FnMut(&mut A, &PlayerView<'_>, &[Action]) -> Action,
) -> GameRecord {
    let mut watched = Watched { agent: ours, decide };
    let options = RunOptions { max_hands, ..RunOptions::default() };
    play_game(rules, seed, ByPlayer([&mut watched as &mut dyn Agent, other]), options)
}

/// An agent whose choices go through a test's closure.
struct Watched<'a, A, F> {
    agent: &'a mut A,
    decide: F,
}

impl<A, F> Agent for Watched<'_, A, F>
where
    A: Agent + Picks,
    F: FnMut(&mut A, &PlayerView<'_>, &[Action]) -> Action,
{
    fn name(&self) -> &str {
        self.agent.name()
    }

    fn start_game(&mut self, seat: Player, rules: &Ruleset, seed: u64) {
        self.agent.start_game(seat, rules, seed);
    }

    fn observe(&mut self, event: &gin_engine::Event) {
        self.agent.observe(event);
    }

    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        let action = (self.decide)(self.agent, view, legal);
        let showing = if action.shows_cards() { self.agent.shown(view, action) } else { None };
        Decision::showing(action, showing)
    }

    fn end_game(&mut self, result: &GameResult) {
        self.agent.end_game(result);
    }
}
