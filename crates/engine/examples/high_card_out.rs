//! An agent written outside `gin-ai`, measured with the runner `gin sim` uses:
//! `cargo run --release -p gin-engine --example high_card_out`.
//!
//! `docs/agents.md` ("Your own agent") walks through this file, and the engine's runner tests
//! play this very agent (`crates/engine/tests/it/runner.rs`).

use gin_engine::{Action, Agent, Decision, PlayerView, RandomAgent, RunOptions, play_match};
use gin_rules::{ByPlayer, Player, Ruleset};

/// Knocks (or goes gin) when it may; otherwise discards its highest card, draws from the stock,
/// refuses the upcard and lays off what it can.
pub(crate) struct HighCardOut;

impl Agent for HighCardOut {
    fn name(&self) -> &str {
        "high-card-out"
    }

    fn choose(&mut self, _view: &PlayerView<'_>, legal: &[Action]) -> Decision {
        // `Decision::play` leaves the cards a knock or a defense lays down to the referee (a
        // least-deadwood arrangement; a defense lays off all it can); `Decision::showing` names them.
        Decision::play(pick(legal))
    }
}

/// The action: actions are `Copy` and the legal list is a slice, so pick one and return it.
pub(crate) fn pick(legal: &[Action]) -> Action {
    if let Some(&knock) = legal.iter().find(|a| matches!(a, Action::Knock { .. } | Action::BigGin)) {
        return knock;
    }
    let highest = legal
        .iter()
        .filter_map(|a| match a {
            Action::Discard { card } => Some(*card),
            _ => None,
        })
        .max_by_key(|card| (card.value(), card.rank()));
    if let Some(card) = highest {
        return Action::Discard { card };
    }
    for wanted in [Action::DrawStock, Action::PassUpcard, Action::LayOff] {
        if legal.contains(&wanted) {
            return wanted;
        }
    }
    legal[0]
}

fn main() {
    let games = 1000;
    let (mut mine, mut theirs) = (HighCardOut, RandomAgent::default());
    let mut wins = 0;
    play_match(&Ruleset::eaai(), 1, games, ByPlayer([&mut mine, &mut theirs]), RunOptions::default(), |record| {
        wins += u32::from(record.outcome.winner() == Some(Player::One));
    });
    println!("high-card-out won {wins} of {games} games against random (eaai rules, seed 1)");
}
