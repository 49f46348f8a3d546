//! The knock calibration: a linear model, learned by self-play, that turns the search's two
//! estimates at a knock decision (knock now, or play on) into the decision.
//!
//! The futures' estimates are biased, and not by a constant: against the low holder they put a
//! knock 0.06 of a game too high at every deadwood, and playing on 0.08 too high with 1 or 2
//! deadwood but only 0.02 with 8 to 10 (docs/research/agents-log.md). A fixed `knock_margin`
//! corrects the mean of that bias only. The calibration learns the gain of knocking over playing
//! on, in the chance of winning the game, as a linear function of the two estimates and of what
//! the table shows (the knock's deadwood, the stock, the opponent's turns, what the opponent
//! model believes of its knock threshold, the score); the agent knocks where the gain is
//! positive.
//!
//! Its training data are *counterfactuals*: at every knock decision `mc-fast` searches in a
//! game against a league member, the hand is played out both ways with the real agents and the
//! real cards (knocking; or discarding the expert's card and playing on), and the difference in
//! the chance of winning the game is the label ([`collect`]). The model is fitted by least
//! squares from sums that add up game by game ([`KnockStats`]), so training can stop and resume,
//! and the same seed and number of games give the same weights on any machine and thread count.
//! `cargo xtask train-knock` runs it and writes `crates/ai/data/knock-calibration.json`, which
//! the agents read; without it (or with `calibrated=false`) they fall back to `knock_margin`.

use serde::{Deserialize, Serialize};

use gin_engine::{Action, Agent, Decision, Event, Game, agent_seed, game_seed};
use gin_rules::{ByPlayer, Player, Ruleset, Showing};

use crate::{ExpertAgent, ExpertParams, HolderAgent, McAgent, McParams, Picks, SimpleAgent};

/// The number of features of a knock decision.
pub const FEATURES: usize = 18;

/// The names of the features, in order, as the weights file lists them.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "bias",
    "gain",
    "deadwood",
    "stock",
    "opponent_turns",
    "threshold_below",
    "expert_knocks",
    "gain*deadwood",
    "gain*stock",
    "deadwood*stock",
    "knock",
    "deadwood^2",
    "stock^2",
    "lead",
    "highest",
    "gain*highest",
    "knock*play_on",
    "play_on",
];

/// The format line of a weights file.
const FORMAT: &str = "gin knock calibration 1";

/// The ridge penalty, per decision, that keeps the fit stable where a feature barely varies.
const RIDGE: f64 = 1e-3;

/// The weights shipped with the agents.
const SHIPPED: &str = include_str!("../../data/knock-calibration.json");

/// The league members the training plays against, in turn.
pub const OPPONENTS: [&str; 4] = ["simple", "expert", "holder", "mc-fast"];

/// What the agent knows at a knock decision: the search's estimates and what the table shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct KnockCase {
    /// The search's chance of winning the game if it knocks now (before any margin).
    pub knock: f64,
    /// The search's chance of winning the game if it discards the expert's card and plays on.
    pub play_on: f64,
    /// The deadwood the knock leaves.
    pub deadwood: u32,
    /// Cards left in the stock.
    pub stock: usize,
    /// The opponent's discards this hand.
    pub opponent_turns: usize,
    /// The weight the opponent model gives to knock thresholds below `deadwood`: to an opponent
    /// who would not have knocked with this hand.
    pub threshold_below: f64,
    /// Whether the expert's own choice was the knock.
    pub expert_knocks: bool,
    /// The game's points: this player's and the opponent's.
    pub mine: u32,
    pub theirs: u32,
}

impl KnockCase {
    /// The feature vector, in the order of [`FEATURE_NAMES`].
    pub(crate) fn features(&self) -> [f64; FEATURES] {
        let gain = self.knock - self.play_on;
        let deadwood = f64::from(self.deadwood) / 10.0;
        let stock = self.stock as f64 / 30.0;
        let lead = (f64::from(self.mine) - f64::from(self.theirs)) / 100.0;
        let highest = f64::from(self.mine.max(self.theirs)) / 100.0;
        [
            1.0,
            gain,
            deadwood,
            stock,
            self.opponent_turns as f64 / 10.0,
            self.threshold_below,
            f64::from(u8::from(self.expert_knocks)),
            gain * deadwood,
            gain * stock,
            deadwood * stock,
            self.knock,
            deadwood * deadwood,
            stock * stock,
            lead,
            highest,
            gain * highest,
            self.knock * self.play_on,
            self.play_on,
        ]
    }
}

/// The learned weights: the gain of knocking over playing on is their dot product with the
/// features.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct KnockCalibration {
    weights: [f64; FEATURES],
}

impl KnockCalibration {
    /// The weights shipped in `crates/ai/data/knock-calibration.json`; `None` if that file holds
    /// no usable weights (the agents then knock by their margin).
    pub(crate) fn shipped() -> Option<KnockCalibration> {
        KnockCalibration::from_text(SHIPPED)
    }

    /// The weights of a weights file's text; `None` if it is not a usable file.
    fn from_text(text: &str) -> Option<KnockCalibration> {
        KnockFile::parse(text).ok().map(|file| KnockCalibration { weights: file.weights })
    }

    /// The expected gain in the chance of winning the game from knocking rather than playing on.
    pub(crate) fn gain(&self, case: &KnockCase) -> f64 {
        self.weights.iter().zip(case.features()).map(|(w, x)| w * x).sum()
    }
}

/// The sums a least-squares fit needs, which add up game by game: training resumes by adding
/// more games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KnockStats {
    /// Knock decisions seen.
    pub decisions: u64,
    /// The sum of the outer products of the feature vectors (row by row).
    pub xtx: Vec<Vec<f64>>,
    /// The sum of the feature vectors times the label.
    pub xty: Vec<f64>,
    /// The sum of the labels: over `decisions`, the mean gain of always knocking.
    pub label_sum: f64,
}

impl Default for KnockStats {
    fn default() -> KnockStats {
        KnockStats { decisions: 0, xtx: vec![vec![0.0; FEATURES]; FEATURES], xty: vec![0.0; FEATURES], label_sum: 0.0 }
    }
}

impl KnockStats {
    /// Adds one decision: its case and the true gain of knocking over playing on.
    fn add(&mut self, case: &KnockCase, gain: f64) {
        let x = case.features();
        for (row, &xi) in self.xtx.iter_mut().zip(&x) {
            for (cell, &xj) in row.iter_mut().zip(&x) {
                *cell += xi * xj;
            }
        }
        for (sum, &xi) in self.xty.iter_mut().zip(&x) {
            *sum += xi * gain;
        }
        self.decisions += 1;
        self.label_sum += gain;
    }

    /// Adds the sums of `other`.
    pub fn merge(&mut self, other: &KnockStats) {
        for (row, other) in self.xtx.iter_mut().zip(&other.xtx) {
            for (cell, x) in row.iter_mut().zip(other) {
                *cell += x;
            }
        }
        for (sum, x) in self.xty.iter_mut().zip(&other.xty) {
            *sum += x;
        }
        self.decisions += other.decisions;
        self.label_sum += other.label_sum;
    }

    /// The least-squares weights, with a small ridge penalty; `None` before any decision.
    pub fn weights(&self) -> Option<[f64; FEATURES]> {
        if self.decisions == 0 || self.xtx.len() != FEATURES || self.xty.len() != FEATURES {
            return None;
        }
        let mut a = [[0.0; FEATURES + 1]; FEATURES];
        for (i, row) in a.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().take(FEATURES).enumerate() {
                *cell = *self.xtx[i].get(j)?;
            }
            row[i] += RIDGE * self.decisions as f64;
            row[FEATURES] = self.xty[i];
        }
        solve(&mut a)
    }
}

/// Solves the linear system in `a` (augmented with its right-hand side) by Gaussian elimination
/// with partial pivoting; `None` when it is singular.
fn solve(a: &mut [[f64; FEATURES + 1]; FEATURES]) -> Option<[f64; FEATURES]> {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot[col];
                for (cell, p) in row.iter_mut().zip(&pivot).skip(col) {
                    *cell -= factor * p;
                }
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for (i, xi) in x.iter_mut().enumerate() {
        *xi = a[i][FEATURES] / a[i][i];
    }
    x.iter().all(|w| w.is_finite()).then_some(x)
}

/// The weights file: the weights, and the sums and plan they came from, so that training can
/// resume where it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnockFile {
    /// Always `gin knock calibration 1`.
    pub format: String,
    /// The training's seed.
    pub seed: u64,
    /// Games played so far (games `2k` and `2k + 1` are against `OPPONENTS[k % 4]`, from either
    /// seat).
    pub games: u64,
    /// The names of the features, in the order of the weights.
    pub features: Vec<String>,
    /// The fitted weights.
    pub weights: [f64; FEATURES],
    /// The sums they were fitted from.
    pub stats: KnockStats,
}

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error)]
pub enum KnockFileError {
    /// Not JSON of the expected shape.
    #[error("not a knock calibration file: {0}")]
    Json(#[from] serde_json::Error),
    /// A different format or feature list.
    #[error("knock calibration file: {0}")]
    Mismatch(String),
}

impl KnockFile {
    /// A file for these sums: the weights fitted from them.
    pub fn new(seed: u64, games: u64, stats: KnockStats) -> Option<KnockFile> {
        let weights = stats.weights()?;
        Some(KnockFile {
            format: FORMAT.to_owned(),
            seed,
            games,
            features: FEATURE_NAMES.iter().map(|&name| name.to_owned()).collect(),
            weights,
            stats,
        })
    }

    /// Reads a file, checking its format line and feature list.
    ///
    /// # Errors
    /// [`KnockFileError`] naming what does not fit.
    pub fn parse(text: &str) -> Result<KnockFile, KnockFileError> {
        let file: KnockFile = serde_json::from_str(text)?;
        if file.format != FORMAT {
            return Err(KnockFileError::Mismatch(format!("format `{}`, expected `{FORMAT}`", file.format)));
        }
        if file.features != FEATURE_NAMES {
            return Err(KnockFileError::Mismatch(format!(
                "features {:?}, expected {:?}",
                file.features, FEATURE_NAMES
            )));
        }
        if !file.weights.iter().all(|w| w.is_finite()) {
            return Err(KnockFileError::Mismatch("a weight is not a finite number".to_owned()));
        }
        Ok(file)
    }

    /// The file as pretty JSON, ending in a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a knock file serializes");
        text.push('\n');
        text
    }
}

/// The sums of games `games` of a training seeded `seed`, each a game of `mc-fast` (without
/// calibration, so that the data do not depend on the weights shipped): games `2k` and `2k + 1`
/// against `OPPONENTS[k % 4]`, `mc-fast` first in seat one and then in seat two; on `threads`
/// threads. The same seed and games give
/// the same sums whatever the thread count.
pub fn collect(seed: u64, games: std::ops::Range<u64>, threads: usize) -> KnockStats {
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
                Decision::Play { action, showing } => (action, showing),
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
            && let Some((case, knock, play_on)) = mc.last_knock_case()
        {
            let mut value = [0.0; 2];
            let knocking = (Action::knock(knock), mc.shown(&view, Action::knock(knock)));
            for (slot, first) in value.iter_mut().zip([knocking, (Action::Discard { card: play_on }, None)]) {
                let (mut game, mut mc, mut other) = (game.clone(), mc.clone(), other.clone());
                let points = finish_hand(&mut game, &mut seats(me, &mut mc, &mut other), first, me);
                *slot = mc.win_chance(case.mine, case.theirs, points);
            }
            stats.add(&case, value[0] - value[1]);
        }
        let Decision::Play { action, showing } = decision else { break };
        let Ok(events) = game.play_with(player, action, showing.as_ref()) else { break };
        deliver(&mut seats(me, &mut mc, &mut other), &events, me);
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(knock: f64, play_on: f64, deadwood: u32) -> KnockCase {
        KnockCase {
            knock,
            play_on,
            deadwood,
            stock: 20,
            opponent_turns: 4,
            threshold_below: 0.5,
            expert_knocks: false,
            mine: 30,
            theirs: 50,
        }
    }

    #[test]
    fn least_squares_recovers_a_linear_rule() {
        // Labels made by known weights come back from the sums.
        let mut truth = [0.0; FEATURES];
        truth[0] = -0.02;
        truth[1] = 0.8;
        truth[2] = -0.05;
        let mut stats = KnockStats::default();
        for i in 0..400u32 {
            let c = KnockCase {
                stock: (i % 31) as usize,
                mine: i % 97,
                ..case(f64::from(i % 13) / 13.0, f64::from(i % 7) / 7.0, i % 11)
            };
            let gain: f64 = truth.iter().zip(c.features()).map(|(w, x)| w * x).sum();
            stats.add(&c, gain);
        }
        // The ridge is tiny: the fit predicts the labels closely.
        let weights = stats.weights().unwrap();
        let fitted = KnockCalibration { weights };
        let probe = case(0.7, 0.4, 6);
        let want: f64 = truth.iter().zip(probe.features()).map(|(w, x)| w * x).sum();
        assert!((fitted.gain(&probe) - want).abs() < 0.01, "{} against {want}", fitted.gain(&probe));
        // No data, no weights.
        assert_eq!(KnockStats::default().weights(), None);
    }

    #[test]
    fn sums_merge_as_if_added_at_once() {
        let (mut all, mut first, mut second) = (KnockStats::default(), KnockStats::default(), KnockStats::default());
        for i in 0..10u32 {
            let c = case(0.5 + f64::from(i) / 100.0, 0.5, i);
            all.add(&c, f64::from(i) / 50.0);
            if i < 4 { first.add(&c, f64::from(i) / 50.0) } else { second.add(&c, f64::from(i) / 50.0) }
        }
        first.merge(&second);
        assert_eq!(first.decisions, all.decisions);
        for (a, b) in first.xtx.iter().flatten().zip(all.xtx.iter().flatten()) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn the_shipped_weights_parse_and_favour_the_better_estimate() {
        let file = KnockFile::parse(SHIPPED).expect("the shipped weights parse");
        assert_eq!(file.weights, file.stats.weights().unwrap(), "the weights are those of the sums");
        let calibration = KnockCalibration::shipped().unwrap();
        // A knock the search rates far above playing on is taken, one far below is not.
        assert!(calibration.gain(&case(0.80, 0.50, 5)) > 0.0);
        assert!(calibration.gain(&case(0.40, 0.60, 5)) < 0.0);
    }

    #[test]
    fn weights_files_are_checked() {
        let file = KnockFile::new(3, 8, {
            let mut stats = KnockStats::default();
            for i in 0..40u32 {
                stats.add(&case(f64::from(i % 5) / 5.0, 0.5, i % 11), f64::from(i % 3) / 10.0);
            }
            stats
        })
        .unwrap();
        let text = file.to_json();
        assert_eq!(KnockFile::parse(&text).unwrap(), file);
        let other = text.replace(FORMAT, "gin knock calibration 9");
        assert!(KnockFile::parse(&other).unwrap_err().to_string().contains("expected `gin knock calibration 1`"));
        let renamed = text.replace("\"opponent_turns\"", "\"turns\"");
        assert!(KnockFile::parse(&renamed).unwrap_err().to_string().contains("features"));
        assert!(KnockFile::parse("{").unwrap_err().to_string().starts_with("not a knock calibration file"));
        // An unusable file means no calibration (the agents knock by their margin), not a panic.
        assert_eq!(KnockCalibration::from_text("{}"), None);
        assert_eq!(KnockCalibration::from_text(&other), None);
        assert_eq!(KnockCalibration::from_text(&text), Some(KnockCalibration { weights: file.weights }));
    }

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
