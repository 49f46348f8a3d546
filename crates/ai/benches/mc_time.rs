//! How long `mc-fast` and `mc` take per decision: `cargo bench -p gin-ai --bench mc_time`.
//!
//! Each level plays 20 games against `simple` under the eaai rules, and every decision it makes
//! is timed. The limits are on the median over all decisions (10 ms for `mc-fast`, 100 ms
//! for `mc`, on one thread); the discards (where `mc`'s expert looks two draws ahead and its
//! search weighs the best few) and the knock decisions (a discard where a knock is legal, searched
//! by both levels) are shown apart, the knock decisions with the 90th percentile and the longest,
//! and once more with two threads.

use std::time::{Duration, Instant};

use gin_ai::registry::{self, AgentParams};
use gin_engine::{Action, Agent, Decision, Game, Phase, agent_seed};
use gin_rules::{Player, Ruleset};

/// The decision times of one agent over a few games: all of them, the discards, and the
/// knock decisions.
fn time(spec: &str, games: u64) -> (Vec<Duration>, Vec<Duration>, Vec<Duration>) {
    let rules = Ruleset::eaai();
    let params = AgentParams::default();
    let (mut all, mut discards, mut knocks) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 0..games {
        let mut agent = registry::build(&spec.parse().expect("a valid spec"), &params).expect("a built-in agent");
        let mut simple = registry::build(&"simple".parse().expect("a valid spec"), &params).expect("simple");
        let (mut game, opening) = Game::new(&rules, seed);
        agent.start_game(Player::One, &rules, agent_seed(seed, Player::One));
        simple.start_game(Player::Two, &rules, agent_seed(seed, Player::Two));
        let deliver = |agent: &mut Box<dyn Agent + Send>, simple: &mut Box<dyn Agent + Send>, events: &[_]| {
            for event in events {
                agent.observe(&gin_engine::Event::seen_by(event, Player::One));
                simple.observe(&gin_engine::Event::seen_by(event, Player::Two));
            }
        };
        deliver(&mut agent, &mut simple, &opening);
        while let Some(player) = game.to_act() {
            if game.hand_number() > 40 {
                break;
            }
            let legal = game.legal_actions();
            let decision = if player == Player::One {
                let discarding = game.deal().phase() == Phase::Discard;
                let knockable = discarding && legal.iter().any(|action| matches!(action, Action::Knock { .. }));
                let started = Instant::now();
                let action = agent.choose(&game.view(player), &legal);
                let took = started.elapsed();
                all.push(took);
                if discarding {
                    discards.push(took);
                }
                if knockable {
                    knocks.push(took);
                }
                action
            } else {
                simple.choose(&game.view(player), &legal)
            };
            let Decision::Play { action, showing } = decision else { unreachable!("built-in agents never resign") };
            let events = game.play_with(player, action, showing.as_deref()).expect("agents play legal actions");
            deliver(&mut agent, &mut simple, &events);
        }
    }
    (all, discards, knocks)
}

/// The value at this fraction of the sorted times.
fn quantile(times: &mut [Duration], q: f64) -> Duration {
    times.sort_unstable();
    if times.is_empty() {
        return Duration::ZERO;
    }
    times[((times.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{:<24} {:>9} {:>11} | {:>9} {:>11} | {:>9} {:>11} {:>9} {:>9}",
        "agent", "decisions", "median ms", "discards", "median ms", "knocks", "median ms", "p90 ms", "max ms"
    );
    // `mc` looks one draw ahead again once `simple` has shown it knocks at once; with
    // `one_draw_share=1` it looks two draws ahead at every discard. `search_discards=false` shows
    // what its discard search costs.
    let specs = [
        "expert",
        "mc-fast",
        "mc-fast:threads=2",
        "mc",
        "mc:threads=2",
        "mc:one_draw_share=1",
        "mc:search_discards=false",
    ];
    for spec in specs {
        let (mut all, mut discards, mut knocks) = time(spec, 20);
        println!(
            "{spec:<24} {:>9} {:>11.3} | {:>9} {:>11.3} | {:>9} {:>11.3} {:>9.3} {:>9.3}",
            all.len(),
            ms(quantile(&mut all, 0.5)),
            discards.len(),
            ms(quantile(&mut discards, 0.5)),
            knocks.len(),
            ms(quantile(&mut knocks, 0.5)),
            ms(quantile(&mut knocks, 0.9)),
            ms(quantile(&mut knocks, 1.0)),
        );
    }
}
