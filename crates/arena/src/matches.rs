//! [`Match`]: two agents play mirrored pairs of games on several threads, and the tally adds up
//! how each did.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use gin_ai::registry::AgentParams;
use gin_engine::{Agent, GameOutcome, RunOptions, game_seed, play_game_observed};
use gin_rules::{ByPlayer, Player, Ruleset};

use crate::choice::{AgentChoice, build_agent};
use crate::error::ArenaError;
use crate::host::Host;
use crate::stats::{GameObserver, Side, Tally};

/// How often [`Watch::games_done`] hears how far a match is.
const TICK: Duration = Duration::from_millis(100);

/// The most threads a match plays on.
pub const MAX_THREADS: usize = 256;

/// What a match tells whoever runs it while it plays: nothing by default. It is called from the
/// match's threads, so it must be `Sync`.
pub trait Watch: Sync {
    /// `done` games of the match have been played (called about ten times a second, and once at
    /// the end).
    fn games_done(&self, done: u64) {
        let _ = done;
    }

    /// A game ended in a forfeit.
    fn forfeit(&self, forfeit: &Forfeit) {
        let _ = forfeit;
    }
}

/// A [`Watch`] that hears nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwatched;

impl Watch for Unwatched {}

/// A game lost by a forfeit: which game, who, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The game's seed.
    pub seed: u64,
    /// Side A's seat in that game.
    pub a_seat: Player,
    /// The side that forfeited.
    pub side: Side,
    /// Why, as the runner recorded it (an agent program's reason names the program, what it
    /// sent and its log, escaped and cut short).
    pub reason: String,
}

/// What is played: two agents, `a` and `b`, in `pairs` mirrored pairs of games (pair `k` dealt
/// from [`game_seed`]`(seed, k)`, `a` in seat one and then in seat two), under `rules`. The same
/// plan gives the same tally whatever the number of threads.
#[derive(Clone, Copy, Debug)]
pub struct Match<'a> {
    /// The rules of every game.
    pub rules: &'a Ruleset,
    /// The match's seed.
    pub seed: u64,
    /// How many pairs of games.
    pub pairs: u64,
    /// The agents of `a` and `b`.
    pub specs: &'a [AgentChoice; 2],
    /// The settings of the expert and mc agents.
    pub params: &'a AgentParams,
    /// Where agent programs run: their time limits and logs.
    pub host: &'a Host,
    /// Forfeits of one side that stop the match (0: never).
    pub max_forfeits: u64,
}

/// The forfeits of each side so far, across the workers, and why the last one happened.
#[derive(Default)]
struct Forfeits {
    count: [AtomicU64; 2],
    last: Mutex<Option<String>>,
}

impl Match<'_> {
    /// Plays every pair on `threads` threads (at least one) that take the next pair from a shared
    /// counter, and adds up their tallies (integer sums: the order they finish in does not
    /// matter), telling `watch` how far it is.
    ///
    /// # Errors
    /// An agent that cannot be built or started; a side that forfeited `max_forfeits` games;
    /// a panic in an agent or the engine.
    pub fn play(&self, threads: usize, watch: &dyn Watch) -> Result<Tally, ArenaError> {
        let threads = threads.clamp(1, MAX_THREADS);
        let next_pair = AtomicU64::new(0);
        let games_done = AtomicU64::new(0);
        let forfeits = Forfeits::default();
        let total = thread::scope(|scope| {
            // Each worker holds a sender; the channel closes when the last one ends, even by a panic.
            let (finished, all_finished) = mpsc::channel::<()>();
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let finished = finished.clone();
                    let (next_pair, games_done, forfeits) = (&next_pair, &games_done, &forfeits);
                    scope.spawn(move || {
                        let _finished = finished;
                        let result = self.work(next_pair, games_done, forfeits, watch);
                        if result.is_err() {
                            // Leave no pair for the others.
                            next_pair.fetch_max(self.pairs, Ordering::Relaxed);
                        }
                        result
                    })
                })
                .collect();
            drop(finished);
            while let Err(RecvTimeoutError::Timeout) = all_finished.recv_timeout(TICK) {
                watch.games_done(games_done.load(Ordering::Relaxed));
            }
            watch.games_done(games_done.load(Ordering::Relaxed));
            let mut total = Tally::default();
            for worker in workers {
                let tally = worker.join().map_err(|_| ArenaError::Panicked)??;
                total.add(&tally);
            }
            Ok::<Tally, ArenaError>(total)
        })?;
        for (side, count) in Side::ALL.iter().zip(&forfeits.count) {
            let count = count.load(Ordering::Relaxed);
            if self.max_forfeits > 0 && count >= self.max_forfeits {
                let last = forfeits.last.lock().map(|last| last.clone()).unwrap_or_default().unwrap_or_default();
                return Err(ArenaError::Forfeits {
                    side: *side,
                    agent: self.specs[side.index()].to_string(),
                    count,
                    played: total.games,
                    games: self.pairs * 2,
                    last,
                });
            }
        }
        Ok(total)
    }

    /// One worker: plays pairs until none is left, with new built-in agents for every game, so
    /// that no agent carries anything from one game to the next (and results cannot depend on
    /// which thread played what). An agent program is started once per worker and side and plays
    /// game after game (each begins with `start_game` and its seed); after a forfeit it is
    /// replaced by a fresh one.
    fn work(
        &self,
        next_pair: &AtomicU64,
        games_done: &AtomicU64,
        forfeits: &Forfeits,
        watch: &dyn Watch,
    ) -> Result<Tally, ArenaError> {
        let mut tally = Tally::default();
        let mut programs: [Option<Box<dyn Agent + Send>>; 2] = [None, None];
        loop {
            let pair = next_pair.fetch_add(1, Ordering::Relaxed);
            if pair >= self.pairs {
                return Ok(tally);
            }
            let seed = game_seed(self.seed, pair);
            // `a` in seat one, then in seat two: the same deals with the seats swapped.
            for a_seat in Player::ALL {
                let sides = Side::A.seated(a_seat);
                let mut build = |seat: Player| {
                    let side = sides[seat].index();
                    match programs[side].take() {
                        Some(program) => Ok(program),
                        None => build_agent(&self.specs[side], self.params, self.host),
                    }
                };
                let (mut one, mut two) = (build(Player::One)?, build(Player::Two)?);
                let agents: ByPlayer<&mut dyn Agent> = ByPlayer::new(one.as_mut(), two.as_mut());
                let mut observer = GameObserver::new(&mut tally, self.rules, sides);
                let options = RunOptions { keep_events: false, ..RunOptions::default() };
                let record = play_game_observed(self.rules, seed, agents, options, &mut |event, game| {
                    observer.observe(event, |player| game.deal().cards(player));
                });
                observer.finish(&record.outcome);
                let forfeited = match &record.outcome {
                    GameOutcome::Forfeit { player, reason, .. } => {
                        let side = sides[*player];
                        watch.forfeit(&Forfeit { seed, a_seat, side, reason: reason.clone() });
                        let count = forfeits.count[side.index()].fetch_add(1, Ordering::Relaxed) + 1;
                        if let Ok(mut last) = forfeits.last.lock() {
                            *last = Some(reason.clone());
                        }
                        if self.max_forfeits > 0 && count >= self.max_forfeits {
                            // Leave no pair for anyone: the match stops.
                            next_pair.fetch_max(self.pairs, Ordering::Relaxed);
                            games_done.fetch_add(1, Ordering::Relaxed);
                            return Ok(tally);
                        }
                        Some(*player)
                    }
                    _ => None,
                };
                // Keep a program that played its game through for the next one.
                for (seat, agent) in [(Player::One, one), (Player::Two, two)] {
                    let side = sides[seat].index();
                    if self.specs[side].is_program() && forfeited != Some(seat) {
                        programs[side] = Some(agent);
                    }
                }
                games_done.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;

    #[test]
    fn a_match_is_the_same_on_any_number_of_threads() {
        let rules = Ruleset::eaai();
        let specs = ["random".parse().unwrap(), "random".parse().unwrap()];
        let params = AgentParams::default();
        let host = Host::new(Limits::default());
        let game =
            Match { rules: &rules, seed: 3, pairs: 5, specs: &specs, params: &params, host: &host, max_forfeits: 0 };
        let one = game.play(1, &Unwatched).unwrap();
        assert_eq!(one.games, 10);
        assert_eq!(game.play(3, &Unwatched).unwrap(), one);
        // The same agent on both sides: mirrored games are the same games, seats swapped.
        assert_eq!(one.agent(Side::A), one.agent(Side::B));
    }

    /// Counts what it hears.
    #[derive(Default)]
    struct Counter {
        done: AtomicU64,
        forfeits: Mutex<Vec<Forfeit>>,
    }

    impl Watch for Counter {
        fn games_done(&self, done: u64) {
            self.done.fetch_max(done, Ordering::Relaxed);
        }

        fn forfeit(&self, forfeit: &Forfeit) {
            self.forfeits.lock().unwrap().push(forfeit.clone());
        }
    }

    #[test]
    fn the_watch_hears_every_game_and_a_program_that_cannot_start_is_an_error() {
        let rules = Ruleset::eaai();
        let specs = ["simple".parse().unwrap(), "random".parse().unwrap()];
        let params = AgentParams::default();
        let host = Host::new(Limits::default());
        let plan =
            Match { rules: &rules, seed: 1, pairs: 3, specs: &specs, params: &params, host: &host, max_forfeits: 0 };
        let counter = Counter::default();
        let tally = plan.play(2, &counter).unwrap();
        assert_eq!((tally.games, counter.done.load(Ordering::Relaxed)), (6, 6));
        assert!(counter.forfeits.lock().unwrap().is_empty());
        let missing = ["simple".parse().unwrap(), "cmd:/nonexistent/agent".parse().unwrap()];
        let plan = Match { specs: &missing, ..plan };
        let err = plan.play(1, &counter).unwrap_err().to_string();
        assert!(
            err.starts_with("cmd:/nonexistent/agent: cannot start the agent program `/nonexistent/agent`"),
            "{err}"
        );
    }
}
