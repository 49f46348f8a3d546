//! The knock calibration: a linear model, learned by self-play, that turns the search's two
//! estimates at a knock decision (knock now, or play on) into the decision.
//!
//! The futures' estimates are biased, and not by a constant: they overrate knocking and playing
//! on alike, and playing on by more with little deadwood than with much
//! (docs/research/code-notes.md). A fixed `knock_margin` corrects the mean of that bias only. The calibration gives the gain of
//! knocking over playing on, in the chance of winning the game, as a linear function of the two
//! estimates and of what the table shows (the knock's deadwood, the stock, the opponent's turns,
//! what the opponent model believes of its knock threshold, the score): the dot product of its
//! weights with the decision's [`FEATURES`] features. The agent knocks where the gain is
//! positive.
//!
//! The weights are shipped in `crates/ai/data/knock-calibration.json`, compiled into the crate.
//! This module reads them, and states the file's format line ([`FORMAT`]) and its features
//! ([`FEATURE_NAMES`]); the training (`cargo xtask train-knock`, docs/agents.md) plays the games,
//! fits the weights and writes the file, seeing each decision through
//! [`McAgent::last_knock`](crate::McAgent::last_knock). Without usable weights (or with
//! `calibrated=false`) the agents fall back to `knock_margin`.

use gin_cards::Card;
use serde::Deserialize;

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

/// The format line of a weights file: the value of its `format` member.
pub const FORMAT: &str = "gin knock calibration 1";

/// The weights shipped with the agents.
const SHIPPED: &str = include_str!("../../data/knock-calibration.json");

/// A knock decision the search weighed, as the training sees it: the two discards it chose
/// between and the decision's features.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnockDecision {
    /// The discard of the knock.
    pub knock: Card,
    /// The discard of playing on instead (the expert's best plain discard).
    pub play_on: Card,
    /// The decision's features, in the order of [`FEATURE_NAMES`]: the calibration's gain is
    /// their dot product with its weights.
    pub features: [f64; FEATURES],
}

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

/// What play needs of a weights file: its format line, feature list and weights (the sums the
/// training keeps beside them are not read).
#[derive(Deserialize)]
struct WeightsFile {
    format: String,
    features: Vec<String>,
    weights: [f64; FEATURES],
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

    /// The weights of a weights file's text; `None` unless it is JSON with the format line
    /// [`FORMAT`], the features [`FEATURE_NAMES`] and finite weights.
    fn from_text(text: &str) -> Option<KnockCalibration> {
        let file: WeightsFile = serde_json::from_str(text).ok()?;
        let usable =
            file.format == FORMAT && file.features == FEATURE_NAMES && file.weights.iter().all(|w| w.is_finite());
        usable.then_some(KnockCalibration { weights: file.weights })
    }

    /// The expected gain in the chance of winning the game from knocking rather than playing on.
    pub(crate) fn gain(&self, case: &KnockCase) -> f64 {
        self.weights.iter().zip(case.features()).map(|(w, x)| w * x).sum()
    }
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
    fn the_shipped_weights_are_read_and_favour_the_better_estimate() {
        let calibration = KnockCalibration::shipped().expect("the shipped weights are usable");
        let file: serde_json::Value = serde_json::from_str(SHIPPED).unwrap();
        let weights: Vec<f64> = serde_json::from_value(file["weights"].clone()).unwrap();
        assert_eq!(calibration.weights.to_vec(), weights);
        // A knock the search rates far above playing on is taken, one far below is not.
        assert!(calibration.gain(&case(0.80, 0.50, 5)) > 0.0);
        assert!(calibration.gain(&case(0.40, 0.60, 5)) < 0.0);
    }

    #[test]
    fn an_unusable_file_means_no_calibration() {
        // The agents then knock by their margin, without a panic.
        assert_eq!(KnockCalibration::from_text("{"), None);
        assert_eq!(KnockCalibration::from_text("{}"), None);
        let other = SHIPPED.replace(FORMAT, "gin knock calibration 9");
        assert_eq!(KnockCalibration::from_text(&other), None);
        let renamed = SHIPPED.replace("\"opponent_turns\"", "\"turns\"");
        assert_eq!(KnockCalibration::from_text(&renamed), None);
        let short = SHIPPED.replacen("\"weights\": [", "\"weights\": [1.0, ", 1);
        assert_eq!(KnockCalibration::from_text(&short), None, "19 weights");
        assert!(KnockCalibration::from_text(SHIPPED).is_some());
    }
}
