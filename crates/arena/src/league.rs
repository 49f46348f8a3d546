//! A league: every agent plays every other in a [`Match`], and [`ratings`] puts them on one
//! scale.

use gin_ai::registry::AgentParams;
use gin_rules::Ruleset;
use serde::Serialize;

use crate::choice::AgentChoice;
use crate::error::ArenaError;
use crate::host::Host;
use crate::matches::{Forfeit, Match, Watch};
use crate::stats::{Side, Tally, wilson_95};

/// One pairing's figures, `a` being the agent listed first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The first agent's spec.
    pub a: String,
    /// The second agent's spec.
    pub b: String,
    /// The games played.
    pub games: u64,
    /// The games `a` won (the opponent's forfeits included).
    pub a_wins: u64,
    /// The games `b` won.
    pub b_wins: u64,
    /// `a`'s share of the games.
    pub a_win_rate: f64,
    /// Its 95% interval (Wilson).
    pub a_ci95: [f64; 2],
    /// The hands played.
    pub hands: u64,
    /// `a`'s hand points per hand, `None` without hands.
    pub a_points_per_hand: Option<f64>,
    /// `b`'s.
    pub b_points_per_hand: Option<f64>,
    /// Games abandoned at the hand limit.
    pub abandoned: u64,
    /// Games forfeited, by either.
    pub forfeits: u64,
}

/// One agent's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The agent's spec.
    pub agent: String,
    /// On the Elo scale, the ratings' mean at 0.
    pub rating: f64,
    /// Its 95% interval.
    pub ci95: [f64; 2],
    /// The games it played.
    pub games: u64,
    /// The games it won.
    pub wins: u64,
}

/// Everything the league reports (`--json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct League {
    /// The seed of every pairing.
    pub seed: u64,
    /// Games a pairing.
    pub games_per_pairing: u64,
    /// The agents' specs, as listed.
    pub agents: Vec<String>,
    /// Every pairing, in the order played.
    pub pairings: Vec<Pairing>,
    /// The ratings, best first.
    pub ratings: Vec<Rating>,
}

/// What a league plays: every agent against every other (the first listed as `a`), each
/// pairing `pairs` mirrored pairs of games from the same seed, so every pairing plays the same
/// deals.
#[derive(Clone, Copy, Debug)]
pub struct LeaguePlan<'a> {
    /// The agents, two or more, each named once.
    pub agents: &'a [AgentChoice],
    /// The rules of every game.
    pub rules: &'a Ruleset,
    /// The seed of every pairing.
    pub seed: u64,
    /// Mirrored pairs of games a pairing.
    pub pairs: u64,
    /// The settings of the expert and mc agents.
    pub params: &'a AgentParams,
    /// Where agent programs run.
    pub host: &'a Host,
    /// Forfeits of one agent in one pairing that stop the league (0: never).
    pub max_forfeits: u64,
}

/// What a league tells whoever runs it: a match's [`Watch`] over the whole league (its games
/// counted from the league's start), and each pairing as it ends.
pub trait LeagueWatch: Watch {
    /// Pairing `done` of `total` ended (counted from 1).
    fn pairing_done(&self, done: usize, total: usize, pairing: &Pairing) {
        let _ = (done, total, pairing);
    }
}

impl LeagueWatch for crate::matches::Unwatched {}

/// A league's watch as one pairing's: games counted from the league's start.
struct Offset<'w> {
    watch: &'w dyn LeagueWatch,
    before: u64,
}

impl Watch for Offset<'_> {
    fn games_done(&self, done: u64) {
        self.watch.games_done(self.before + done);
    }

    fn forfeit(&self, forfeit: &Forfeit) {
        self.watch.forfeit(forfeit);
    }
}

impl LeaguePlan<'_> {
    /// The pairings, in the order they are played: `(i, j)` with `i < j`, the first agent first.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    }

    /// Plays every pairing on `threads` threads, telling `watch` how far it is.
    ///
    /// # Errors
    /// Fewer than two agents, or one named twice; what stops a [`Match`], with the pairing it
    /// stopped.
    pub fn play(&self, threads: usize, watch: &dyn LeagueWatch) -> Result<League, ArenaError> {
        let names: Vec<String> = self.agents.iter().map(ToString::to_string).collect();
        if names.len() < 2 {
            return Err(ArenaError::League(format!("a league needs two agents or more, found {}", names.len())));
        }
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(ArenaError::League(format!(
                    "`{name}` is named twice: every agent plays every other once (give a copy other settings to \
                     compare it with itself)"
                )));
            }
        }
        let pairings = self.pairings();
        let mut played = Vec::with_capacity(pairings.len());
        for (done, &(i, j)) in pairings.iter().enumerate() {
            let specs = [self.agents[i].clone(), self.agents[j].clone()];
            let plan = Match {
                rules: self.rules,
                seed: self.seed,
                pairs: self.pairs,
                specs: &specs,
                params: self.params,
                host: self.host,
                max_forfeits: self.max_forfeits,
            };
            let offset = Offset { watch, before: done as u64 * self.pairs * 2 };
            let tally = plan.play(threads, &offset).map_err(|err| ArenaError::Pairing {
                a: names[i].clone(),
                b: names[j].clone(),
                error: Box::new(err),
            })?;
            let result = pairing(&tally, &names[i], &names[j]);
            watch.pairing_done(done + 1, pairings.len(), &result);
            played.push(result);
        }
        Ok(League {
            seed: self.seed,
            games_per_pairing: self.pairs * 2,
            ratings: ratings(&names, &played),
            agents: names,
            pairings: played,
        })
    }
}

/// A pairing's figures from its match's tally (`a` was the match's side A).
fn pairing(tally: &Tally, a: &str, b: &str) -> Pairing {
    let (side_a, side_b) = (tally.agent(Side::A), tally.agent(Side::B));
    let per_hand = |points: u64| (tally.hands > 0).then(|| points as f64 / tally.hands as f64);
    Pairing {
        a: a.to_owned(),
        b: b.to_owned(),
        games: tally.games,
        a_wins: side_a.wins,
        b_wins: side_b.wins,
        a_win_rate: if tally.games == 0 { 0.0 } else { side_a.wins as f64 / tally.games as f64 },
        a_ci95: wilson_95(side_a.wins, tally.games),
        hands: tally.hands,
        a_points_per_hand: per_hand(side_a.points),
        b_points_per_hand: per_hand(side_b.points),
        abandoned: tally.abandoned,
        forfeits: side_a.forfeits + side_b.forfeits,
    }
}

/// The Elo scale: 400 points are a factor of 10 in the odds.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Bradley–Terry ratings of `names` from the pairings' wins (half a win added to each side of
/// each pairing), fitted by the minorization–maximization iteration, on the Elo scale with mean 0,
/// with 95% intervals from the Fisher information; best first.
pub fn ratings(names: &[String], pairings: &[Pairing]) -> Vec<Rating> {
    let n = names.len();
    let index = |name: &str| names.iter().position(|known| known == name).expect("a pairing of the league's agents");
    // wins[i][j]: games i won against j (with the prior's half win); played[i][j] = played[j][i].
    let mut wins = vec![vec![0.0; n]; n];
    let mut played = vec![vec![0.0; n]; n];
    let (mut games, mut won) = (vec![0; n], vec![0; n]);
    for pairing in pairings {
        let (a, b) = (index(&pairing.a), index(&pairing.b));
        wins[a][b] += pairing.a_wins as f64 + 0.5;
        wins[b][a] += pairing.b_wins as f64 + 0.5;
        let decided = (pairing.a_wins + pairing.b_wins) as f64 + 1.0;
        played[a][b] += decided;
        played[b][a] += decided;
        games[a] += pairing.games;
        games[b] += pairing.games;
        won[a] += pairing.a_wins;
        won[b] += pairing.b_wins;
    }
    // Strengths (gamma = e^rating); the iteration converges for any connected league.
    let mut gamma = vec![1.0; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let total_wins: f64 = wins[i].iter().sum();
            let denominator: f64 = (0..n).filter(|&j| j != i).map(|j| played[i][j] / (gamma[i] + gamma[j])).sum();
            next[i] = if denominator > 0.0 { total_wins / denominator } else { gamma[i] };
        }
        // Geometric mean 1: ratings with mean 0.
        let log_mean = next.iter().map(|g: &f64| g.ln()).sum::<f64>() / n as f64;
        next.iter_mut().for_each(|g| *g /= log_mean.exp());
        let change = next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let strength: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    // The Fisher information (a graph Laplacian: each row sums to 0) and its pseudo-inverse, the
    // covariance of ratings centred on their mean: (L + J/n)^-1 - J/n.
    let mut matrix = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let p = 1.0 / (1.0 + (strength[j] - strength[i]).exp());
                let information = played[i][j] * p * (1.0 - p);
                matrix[i][j] -= information;
                matrix[i][i] += information;
            }
        }
    }
    for row in &mut matrix {
        row.iter_mut().for_each(|cell| *cell += 1.0 / n as f64);
    }
    let inverse = invert(matrix);
    let mut ratings: Vec<Rating> = (0..n)
        .map(|i| {
            let variance = inverse.as_ref().map_or(f64::NAN, |inverse| inverse[i][i] - 1.0 / n as f64);
            let half = 1.959_963_984_540_054 * variance.max(0.0).sqrt() * ELO;
            let rating = strength[i] * ELO;
            Rating {
                agent: names[i].clone(),
                rating,
                ci95: [rating - half, rating + half],
                games: games[i],
                wins: won[i],
            }
        })
        .collect();
    ratings.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.agent.cmp(&b.agent)));
    ratings
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting; `None` when
/// it is singular.
fn invert(mut matrix: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut inverse: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for column in 0..n {
        let pivot = (column..n).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-12 {
            return None;
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = matrix[column][column];
        for k in 0..n {
            matrix[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in 0..n {
            if row != column {
                let factor = matrix[row][column];
                for k in 0..n {
                    matrix[row][k] -= factor * matrix[column][k];
                    inverse[row][k] -= factor * inverse[column][k];
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(a: &str, b: &str, a_wins: u64, b_wins: u64) -> Pairing {
        let games = a_wins + b_wins;
        Pairing {
            a: a.to_owned(),
            b: b.to_owned(),
            games,
            a_wins,
            b_wins,
            a_win_rate: a_wins as f64 / games as f64,
            a_ci95: wilson_95(a_wins, games),
            hands: games * 4,
            a_points_per_hand: None,
            b_points_per_hand: None,
            abandoned: 0,
            forfeits: 0,
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn ratings_follow_the_win_rates_and_centre_on_zero() {
        // b beats a 3 games in 4 and c beats b 3 in 4, and c beats a 9 in 10: about +190 each step.
        let played = [pairing("a", "b", 1000, 3000), pairing("b", "c", 1000, 3000), pairing("a", "c", 400, 3600)];
        let ratings = ratings(&names(&["a", "b", "c"]), &played);
        let order: Vec<&str> = ratings.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(order, ["c", "b", "a"]);
        let sum: f64 = ratings.iter().map(|r| r.rating).sum();
        assert!(sum.abs() < 1e-6, "{sum}");
        // The fitted gap between neighbours is the Elo gap of 75% (190.8), give or take what the
        // third pairing pulls.
        let gap = ratings[0].rating - ratings[1].rating;
        assert!((170.0..215.0).contains(&gap), "{gap}");
        for rating in &ratings {
            let half = (rating.ci95[1] - rating.ci95[0]) / 2.0;
            assert!(half > 5.0 && half < 40.0, "{rating:?}");
            assert_eq!(rating.games, 8000);
        }
    }

    #[test]
    fn even_agents_rate_even_and_a_clean_sweep_stays_finite() {
        let even = ratings(&names(&["x", "y"]), &[pairing("x", "y", 500, 500)]);
        assert!(even.iter().all(|r| r.rating.abs() < 1e-6), "{even:?}");
        // Twice the games, a narrower interval.
        let wide = even[0].ci95[1] - even[0].ci95[0];
        let more = ratings(&names(&["x", "y"]), &[pairing("x", "y", 1000, 1000)]);
        assert!(more[0].ci95[1] - more[0].ci95[0] < wide * 0.75, "{more:?}");
        let sweep = ratings(&names(&["x", "y"]), &[pairing("x", "y", 100, 0)]);
        assert!(sweep[0].rating.is_finite() && sweep[0].rating > 300.0, "{sweep:?}");
    }

    #[test]
    fn the_inverse_of_a_matrix_and_of_none() {
        let inverse = invert(vec![vec![2.0, 1.0], vec![1.0, 3.0]]).unwrap();
        let expected = [[0.6, -0.2], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inverse[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
