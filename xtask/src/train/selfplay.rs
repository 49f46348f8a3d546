//! The training data of the knock calibration: *counterfactuals*. At every knock decision
//! `mc-fast` searches in a game against a league member, the hand is played out both ways with
//! the real agents and the real cards (knocking; or discarding the expert's card and playing
//! on), and the difference in the chance of winning the game is the label.

use gin_ai::{ExpertAgent, ExpertParams, HolderAgent, McAgent, McParams, SimpleAgent};
use gin_engine::{Action, Agent, Decision, Event, Game, agent_seed, game_seed};
use gin_rules::{ByPlayer, Player, Ruleset, Showing};

use super::fit::KnockStats;

/// The league members the training plays against, in turn.
pub(crate) const OPPONENTS: [&str; 4] = ["simple", "expert", "holder", "mc-fast"];

/// The sums of games `games` of a training seeded `seed`, each a game of `mc-fast` (without
/// calibration, so that the data do not depend on the weights shipped): games `2k` and `2k + 1`
/// against `OPPONENTS[k % 4]`, `mc-fast` first in seat one and then in seat two; on `threads`
/// threads. The same seed and games give the same sums whatever the thread count.
pub(crate) fn collect(seed: u64, games: std::ops::Range<u64>, threads: usize) -> KnockStats {
    let indices: Vec<u64> = games.collect();
    let threads = threads.clamp(1, indices.len().max(1));
    let per = indices.len().div_ceil(threads).max(1);
    let mut parts = vec![Vec::new(); indices.len().div_ceil(per)];
    std::thread::scope(|scope| {
        for (slot, ids) in parts.iter_mut().zip(indices.chunks(per)) {
            scope.spawn(move || {
                *slot = ids.iter().map(|&index| collect_game(seed, index)).collect::<Vec<_>>();
            });
        }
    });
    // Summed in the games' order, so the sums do not depend on the split.
    let mut total = KnockStats::default();
    for stats in parts.iter().flatten() {
        total.merge(stats);
    }
    total
}

/// The sums of one game of the training.
fn collect_game(seed: u64, index: u64) -> KnockStats {
    let searcher = || {
        let params = McParams { calibrated: false, ..McParams::fast() };
        McAgent::new("mc-fast", params, ExpertParams::searching())
    };
    let me = if index.is_multiple_of(2) { Player::One } else { Player::Two };
    let seed = game_seed(seed, index);
    match OPPONENTS[(index / 2 % 4) as usize] {
        "simple" => counterfactuals(searcher(), SimpleAgent::default(), me, seed),
        "expert" => counterfactuals(searcher(), ExpertAgent::default(), me, seed),
        "holder" => counterfactuals(searcher(), HolderAgent::default(), me, seed),
        _ => counterfactuals(searcher(), searcher(), me, seed),
    }
}

/// Both agents by seat, `mc` in `me`.
fn seats<'a>(me: Player, mc: &'a mut McAgent, other: &'a mut dyn Agent) -> ByPlayer<&'a mut dyn Agent> {
    match me {
        Player::One => ByPlayer([mc as &mut dyn Agent, other]),
        Player::Two => ByPlayer([other, mc as &mut dyn Agent]),
    }
}

/// Shows `events` to both agents; the hand's points for `me` if one of them ended it.
fn deliver(agents: &mut ByPlayer<&mut dyn Agent>, events: &[Event], me: Player) -> Option<i32> {
    let mut points = None;
    for event in events {
        for seat in Player::ALL {
            agents[seat].observe(&event.seen_by(seat));
        }
        if let Event::HandEnded { score, .. } = event {
            points = Some(match score.winner {
                Some(winner) if winner == me => score.points as i32,
                Some(_) => -(score.points as i32),
                None => 0,
            });
        }
    }
    points
}

/// Plays `first` (an action and the cards it shows) for the player to act, then the rest of the
/// hand by the agents; the hand's points for `me` (0 if the game cannot go on).
fn finish_hand(
    game: &mut Game,
    agents: &mut ByPlayer<&mut dyn Agent>,
    first: (Action, Option<Showing>),
    me: Player,
) -> i32 {
    let mut first = Some(first);
    while let Some(player) = game.to_act() {
        let view = game.view(player);
        let (action, showing) = match first.take() {
            Some(first) => first,
            None => match agents[player].choose(&view, &game.legal_actions()) {
                Decision::Play { action, showing } => (action, showing.map(|showing| *showing)),
                Decision::Resign { .. } => return 0,
            },
        };
        let Ok(events) = game.play_with(player, action, showing.as_ref()) else { return 0 };
        if let Some(points) = deliver(agents, &events, me) {
            return points;
        }
    }
    0
}

/// One game of `mc` (in seat `me`) against `other`, with each of `mc`'s knock decisions played
/// out both ways.
fn counterfactuals<O: Agent + Clone>(mut mc: McAgent, mut other: O, me: Player, seed: u64) -> KnockStats {
    let rules = Ruleset::eaai();
    let mut stats = KnockStats::default();
    let (mut game, opening) = Game::new(&rules, seed);
    mc.start_game(me, &rules, agent_seed(seed, me));
    other.start_game(me.opponent(), &rules, agent_seed(seed, me.opponent()));
    deliver(&mut seats(me, &mut mc, &mut other), &opening, me);
    while let Some(player) = game.to_act() {
        let view = game.view(player);
        let legal = game.legal_actions();
        let decision = if player == me { mc.choose(&view, &legal) } else { other.choose(&view, &legal) };
        if player == me
            && let Some(knock) = mc.last_knock()
        {
            let (mine, theirs) = (view.score.points[me], view.score.points[me.opponent()]);
            let mut value = [0.0; 2];
            let knocking = (Action::knock(knock.knock), mc.knock_showing(&view, knock.knock));
            let playing_on = (Action::Discard { card: knock.play_on }, None);
            for (slot, first) in value.iter_mut().zip([knocking, playing_on]) {
                let (mut game, mut mc, mut other) = (game.clone(), mc.clone(), other.clone());
                let points = finish_hand(&mut game, &mut seats(me, &mut mc, &mut other), first, me);
                *slot = mc.win_chance(mine, theirs, points);
            }
            stats.add(&knock.features, value[0] - value[1]);
        }
        let Decision::Play { action, showing } = decision else { break };
        let Ok(events) = game.play_with(player, action, showing.as_deref()) else { break };
        deliver(&mut seats(me, &mut mc, &mut other), &events, me);
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_does_not_depend_on_the_thread_count() {
        let one = collect(5, 0..4, 1);
        let two = collect(5, 0..4, 2);
        assert!(one.decisions > 0);
        assert_eq!(one, two);
        // Resuming: games 0..2 then 2..4 add up to 0..4.
        let mut resumed = collect(5, 0..2, 1);
        resumed.merge(&collect(5, 2..4, 2));
        assert_eq!(resumed.decisions, one.decisions);
        for (a, b) in resumed.xty.iter().zip(&one.xty) {
            assert!((a - b).abs() < 1e-9);
        }
    }
}
