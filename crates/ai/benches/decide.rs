//! How long the expert takes to decide: `cargo bench -p gin-ai --bench decide`.
//!
//! Positions come from games of `expert` against `simple` under the eaai rules: every position
//! where the expert was to draw (or take the upcard), and every one where it was to discard.
//! Each iteration decides the next position of its kind.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gin_ai::{ExpertAgent, SimpleAgent};
use gin_engine::{Agent, Decision, Game, LegalActions, Phase, agent_seed};
use gin_rules::{Player, Ruleset};

/// A game at one of the expert's decisions, with the expert as it was then.
struct Position {
    game: Game,
    expert: ExpertAgent,
    legal: LegalActions,
}

/// The expert's draw and discard positions over a few games (the expert sits in seat One).
fn positions() -> (Vec<Position>, Vec<Position>) {
    let rules = Ruleset::eaai();
    let (mut draws, mut discards) = (Vec::new(), Vec::new());
    for seed in 0..20 {
        let (mut game, opening) = Game::new(&rules, seed);
        let mut expert = ExpertAgent::default();
        let mut simple = SimpleAgent::default();
        expert.start_game(Player::One, &rules, agent_seed(seed, Player::One));
        simple.start_game(Player::Two, &rules, agent_seed(seed, Player::Two));
        for event in &opening {
            expert.observe(&event.seen_by(Player::One));
            simple.observe(&event.seen_by(Player::Two));
        }
        while let Some(player) = game.to_act() {
            let legal = game.legal_actions();
            let action = if player == Player::One {
                let snapshot = Position { game: game.clone(), expert: expert.clone(), legal };
                match game.deal().phase() {
                    Phase::UpcardOffer | Phase::Draw => draws.push(snapshot),
                    Phase::Discard => discards.push(snapshot),
                    _ => {}
                }
                expert.choose(&game.view(player), &legal)
            } else {
                simple.choose(&game.view(player), &legal)
            };
            // The referee shows the cards, as this benchmark always let it.
            let Decision::Play { action, .. } = action else { unreachable!("built-in agents never resign") };
            let events = game.play(player, action).expect("agents play legal actions");
            for event in &events {
                expert.observe(&event.seen_by(Player::One));
                simple.observe(&event.seen_by(Player::Two));
            }
        }
    }
    (draws, discards)
}

fn decide(c: &mut Criterion) {
    let (mut draws, mut discards) = positions();
    let mut group = c.benchmark_group("expert");
    for (id, positions) in [("draw", &mut draws), ("discard", &mut discards)] {
        let mut i = 0;
        group.bench_function(id, |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                let Position { game, expert, legal } = &mut positions[i];
                let seat = Player::One;
                black_box(expert.choose(&game.view(seat), legal))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, decide);
criterion_main!(benches);
