//! The fit of the knock calibration: least-squares sums that add up game by game, their
//! weights, and the weights file that holds both.

use gin_ai::calibration::{FEATURE_NAMES, FEATURES, FORMAT};
use serde::{Deserialize, Serialize};

/// The ridge penalty, per decision, that keeps the fit stable where a feature barely varies.
const RIDGE: f64 = 1e-3;

/// The sums a least-squares fit needs, which add up game by game: training resumes by adding
/// more games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct KnockStats {
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
    /// Adds one decision: its features and the true gain of knocking over playing on.
    pub(crate) fn add(&mut self, x: &[f64; FEATURES], gain: f64) {
        for (row, &xi) in self.xtx.iter_mut().zip(x) {
            for (cell, &xj) in row.iter_mut().zip(x) {
                *cell += xi * xj;
            }
        }
        for (sum, &xi) in self.xty.iter_mut().zip(x) {
            *sum += xi * gain;
        }
        self.decisions += 1;
        self.label_sum += gain;
    }

    /// Adds the sums of `other`.
    pub(crate) fn merge(&mut self, other: &KnockStats) {
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
    pub(crate) fn weights(&self) -> Option<[f64; FEATURES]> {
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
/// resume where it stopped. `gin-ai` reads its format line, features and weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KnockFile {
    /// Always [`FORMAT`].
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

impl KnockFile {
    /// A file for these sums: the weights fitted from them; `None` before any decision.
    pub(crate) fn new(seed: u64, games: u64, stats: KnockStats) -> Option<KnockFile> {
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
    /// What does not fit: not JSON of the file's shape, another format line or feature list, a
    /// weight that is not a finite number.
    pub(crate) fn parse(text: &str) -> anyhow::Result<KnockFile> {
        let file: KnockFile =
            serde_json::from_str(text).map_err(|err| anyhow::anyhow!("not a knock calibration file: {err}"))?;
        anyhow::ensure!(file.format == FORMAT, "knock calibration file: format `{}`, expected `{FORMAT}`", file.format);
        anyhow::ensure!(
            file.features == FEATURE_NAMES,
            "knock calibration file: features {:?}, expected {:?}",
            file.features,
            FEATURE_NAMES
        );
        anyhow::ensure!(
            file.weights.iter().all(|w| w.is_finite()),
            "knock calibration file: a weight is not a finite number"
        );
        Ok(file)
    }

    /// The file as pretty JSON, ending in a newline.
    pub(crate) fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a knock file serializes");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weights shipped with the agents, which this training wrote.
    const SHIPPED: &str = include_str!("../../../crates/ai/data/knock-calibration.json");

    /// A feature vector of decision `i`: the bias, then values in [0, 1) that vary with `i`
    /// independently enough for the fit to tell the features apart.
    fn features(i: u32) -> [f64; FEATURES] {
        const PRIMES: [u32; FEATURES] = [1, 13, 7, 11, 31, 17, 2, 19, 23, 29, 37, 41, 43, 47, 53, 59, 61, 67];
        let mut x: [f64; FEATURES] =
            std::array::from_fn(|k| f64::from((i + 1) * (i + 3 * k as u32) % PRIMES[k]) / f64::from(PRIMES[k]));
        x[0] = 1.0;
        x
    }

    fn dot(w: &[f64; FEATURES], x: &[f64; FEATURES]) -> f64 {
        w.iter().zip(x).map(|(w, x)| w * x).sum()
    }

    #[test]
    fn least_squares_recovers_a_linear_rule() {
        // Labels made by known weights come back from the sums.
        let mut truth = [0.0; FEATURES];
        truth[0] = -0.02;
        truth[1] = 0.8;
        truth[2] = -0.05;
        let mut stats = KnockStats::default();
        for i in 0..400 {
            stats.add(&features(i), dot(&truth, &features(i)));
        }
        // The ridge is tiny: the fit predicts the labels closely.
        let weights = stats.weights().unwrap();
        for probe in [features(1000), features(1001)] {
            let (got, want) = (dot(&weights, &probe), dot(&truth, &probe));
            assert!((got - want).abs() < 0.01, "{got} against {want}");
        }
        // No data, no weights.
        assert_eq!(KnockStats::default().weights(), None);
    }

    #[test]
    fn sums_merge_as_if_added_at_once() {
        let (mut all, mut first, mut second) = (KnockStats::default(), KnockStats::default(), KnockStats::default());
        for i in 0..10u32 {
            let gain = f64::from(i) / 50.0;
            all.add(&features(i), gain);
            if i < 4 { first.add(&features(i), gain) } else { second.add(&features(i), gain) }
        }
        first.merge(&second);
        assert_eq!(first.decisions, all.decisions);
        for (a, b) in first.xtx.iter().flatten().zip(all.xtx.iter().flatten()) {
            assert!((a - b).abs() < 1e-12);
        }
        assert!((first.label_sum - all.label_sum).abs() < 1e-12);
    }

    #[test]
    fn the_shipped_file_parses_and_its_weights_are_those_of_its_sums() {
        let file = KnockFile::parse(SHIPPED).expect("the shipped weights parse");
        assert_eq!(file.weights, file.stats.weights().unwrap());
        // And it is written as this training writes it.
        assert_eq!(file.to_json(), SHIPPED);
    }

    #[test]
    fn weights_files_are_checked() {
        let file = KnockFile::new(3, 8, {
            let mut stats = KnockStats::default();
            for i in 0..40u32 {
                stats.add(&features(i), f64::from(i % 3) / 10.0);
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
        let extra = text.replacen('{', "{\n  \"note\": 1,", 1);
        assert!(KnockFile::parse(&extra).unwrap_err().to_string().contains("unknown field `note`"));
        // No decision, nothing to fit.
        assert_eq!(KnockFile::new(3, 8, KnockStats::default()), None);
    }
}
