//! `Hint`: what an agent would do and why, as data that a front end renders.

use gin_cards::Card;
use gin_engine::{Action, PlayerView};

/// One reason behind a choice, with its figures. Scores ("costs") are the expert's: the deadwood
/// a hand can expect after its next draw, with a risk term for the discard; lower is better.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    /// Taking the face-up `card` against drawing from the stock: the cost of each.
    TakeOrDraw {
        /// The face-up card.
        card: Card,
        /// The best cost after taking it.
        take: f64,
        /// The mean best cost after a stock draw.
        stock: f64,
    },
    /// All 11 cards meld.
    BigGin,
    /// Discarding `discard` leaves gin.
    Gin {
        /// The card to discard.
        discard: Card,
    },
    /// A knock early in the hand, when knocks rarely meet an undercut.
    KnockEarly {
        /// The card to discard.
        discard: Card,
        /// The deadwood it leaves.
        deadwood: u32,
    },
    /// A knock was possible, but after the first turns the player holds for gin: the opponent's
    /// own knocks then often meet an undercut.
    HoldForGin {
        /// The knock's discard.
        discard: Card,
        /// The deadwood it would leave.
        deadwood: u32,
    },
    /// One of the best discards, with what it leaves.
    Discard {
        /// The card.
        card: Card,
        /// The deadwood left right away.
        deadwood: u32,
        /// The deadwood to expect after the next draw.
        outlook: f64,
        /// The same two draws ahead, where the expert looks that far (`outlook_depth` 2) and
        /// weighed this discard again.
        ahead: Option<f64>,
        /// The chance that the opponent can meld the card.
        danger: f64,
    },
    /// The defender's answer is left to the referee, which lays off the best way.
    RefereeLaysOff,
    /// The search weighed knocking with `discard` against playing on: the chance of winning the
    /// game either way, over its sampled futures.
    Search {
        /// The knock's discard.
        discard: Card,
        /// The chance of winning the game after knocking.
        knock: f64,
        /// The chance after playing on.
        play_on: f64,
        /// Whether the search chose to knock.
        knocks: bool,
        /// When the learned knock calibration decided: its estimate of what knocking gains over
        /// playing on, in the chance of winning the game (the search's estimates corrected for
        /// their bias); it knocks when this is above 0.
        learned: Option<f64>,
    },
    /// The search overruled the expert's discard: the chance of winning the game after each
    /// discard, over its sampled futures.
    SearchDiscard {
        /// The card the search discards.
        card: Card,
        /// The chance of winning the game after discarding it.
        value: f64,
        /// The expert's first choice.
        expert: Card,
        /// The chance after the expert's choice.
        expert_value: f64,
    },
}

/// What an agent would do in a position, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The action it would play.
    pub action: Action,
    /// Why, most important first.
    pub reasons: Vec<Reason>,
}

/// An agent that can explain its choice: the hint of `gin play` comes from the opponent's own
/// level.
pub trait Advisor: gin_engine::Agent {
    /// What this agent would choose from `view` among `legal`, and why. It may use the agent's
    /// random source, as a choice does.
    fn advise(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Hint;
}
