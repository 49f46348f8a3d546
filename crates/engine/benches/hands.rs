//! Full hands per second between two uniformly random agents, one thread:
//! `cargo bench -p gin-engine --bench hands`.
//!
//! Each iteration plays one whole hand through the agent interface (views, legal actions,
//! choices, checked plays, every event delivered to both agents), starting a new game when one
//! ends. Criterion's throughput line gives hands per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gin_engine::{Agent, Decision, Event, Game, RandomAgent, agent_seed};
use gin_rules::{ByPlayer, Player, Ruleset};

/// Two random agents at a table, playing hand after hand.
struct Table {
    rules: Ruleset,
    seed: u64,
    game: Game,
    agents: ByPlayer<RandomAgent>,
    events: Vec<Event>,
}

impl Table {
    fn new(rules: Ruleset) -> Table {
        let (game, _) = Game::new(&rules, 0);
        let mut table = Table { rules, seed: 0, game, agents: ByPlayer::default(), events: Vec::new() };
        table.new_game();
        table
    }

    fn new_game(&mut self) {
        self.seed += 1;
        let (game, opening) = Game::new(&self.rules, self.seed);
        self.game = game;
        for seat in Player::ALL {
            self.agents[seat].start_game(seat, &self.rules, agent_seed(self.seed, seat));
        }
        self.deliver(&opening);
    }

    fn deliver(&mut self, events: &[Event]) {
        deliver(&mut self.agents, events);
    }

    /// Plays until a hand ends; returns the number of actions played.
    fn play_hand(&mut self) -> usize {
        let mut actions = 0;
        loop {
            let Some(player) = self.game.to_act() else {
                self.new_game();
                continue;
            };
            let legal = self.game.legal_actions();
            let view = self.game.view(player);
            let Decision::Play { action, showing } = self.agents[player].choose(&view, &legal) else {
                unreachable!("a random agent never resigns")
            };
            self.events.clear();
            self.game
                .play_into(player, action, showing.as_deref(), &mut self.events)
                .expect("a random agent plays legal actions");
            actions += 1;
            deliver(&mut self.agents, &self.events);
            if self.events.iter().any(|event| matches!(event, Event::HandEnded { .. })) {
                return actions;
            }
        }
    }
}

fn deliver(agents: &mut ByPlayer<RandomAgent>, events: &[Event]) {
    for event in events {
        for seat in Player::ALL {
            agents[seat].observe(&event.seen_by(seat));
        }
    }
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_hand");
    group.throughput(Throughput::Elements(1));
    for preset in ["standard", "oklahoma"] {
        let mut table = Table::new(Ruleset::preset(preset).expect("a preset"));
        group.bench_function(preset, |b| b.iter(|| black_box(table.play_hand())));
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
