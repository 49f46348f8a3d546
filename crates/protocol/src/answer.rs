//! [`Answer`]: a program's answer to a `decide`, read strictly.

use gin_cards::{Card, CardSet};
use gin_engine::{Action, PlayerView};
use gin_rules::settings::{NAME_CHARS, PARSER_CHARS};
use gin_rules::{Meld, Showing};
use serde::{Deserialize, Serialize};

/// A program's answer to a `decide`: one action with exactly its own fields, the `id` of the
/// decision it answers, and, with a knock, big gin or a defense, the cards it names to show.
///
/// Read strictly: a field the action does not have is refused (`{"type":"draw_stock","card":"7H"}`).
/// A field given as `null` is not given.
///
/// ```
/// use gin_protocol::Answer;
///
/// let answer = Answer::parse(r#"{"type":"discard","card":"7H","id":3}"#)?;
/// assert_eq!(answer.id(), Some(3));
/// assert_eq!(answer.action().to_string(), "discard 7H");
/// assert!(Answer::parse(r#"{"type":"draw_stock","card":"7H"}"#).is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Answer {
    /// Take the first upcard.
    TakeUpcard {
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Refuse the first upcard.
    PassUpcard {
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Draw from the stock.
    DrawStock {
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Draw the top of the discard pile.
    DrawPile {
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Discard a card.
    Discard {
        /// The card.
        card: Card,
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Knock (or go gin), discarding a card.
    Knock {
        /// The card discarded face up on the pile.
        discard: Card,
        /// The melds shown from the hand less the discard; `None`: the referee's choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Go big gin.
    BigGin {
        /// The melds of all eleven cards; `None`: the referee's choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Answer a knock: meld and lay off.
    LayOff {
        /// The defender's own melds; `None`: the referee's choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<Vec<Card>>>,
        /// The cards laid off on the knocker's melds; `None`: the referee's choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        laid_off: Option<CardSet>,
        /// The decision answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

impl Answer {
    /// `action` answering decision `id` (when the host numbered it), showing `shown` (ignored
    /// for an action that shows no cards): how a program writes its answer.
    pub fn new(id: Option<u64>, action: Action, shown: Option<&Showing>) -> Answer {
        let shown = shown.filter(|_| action.shows_cards());
        let melds = shown.map(|shown| shown.melds().iter().map(|meld| meld.cards_in_order().collect()).collect());
        match action {
            Action::TakeUpcard => Answer::TakeUpcard { id },
            Action::PassUpcard => Answer::PassUpcard { id },
            Action::DrawStock => Answer::DrawStock { id },
            Action::DrawPile => Answer::DrawPile { id },
            Action::Discard { card } => Answer::Discard { card, id },
            Action::Knock { discard } => Answer::Knock { discard, melds, id },
            Action::BigGin => Answer::BigGin { melds, id },
            Action::LayOff => Answer::LayOff { melds, laid_off: shown.map(Showing::laid_off), id },
        }
    }

    /// Reads one answer line.
    ///
    /// # Errors
    /// What is wrong with it, briefly: whatever it quotes of the line is cut short.
    pub fn parse(text: &str) -> Result<Answer, String> {
        // The parser's messages may quote the answer: every one is cut short.
        let cut = |message: String| gin_cards::excerpt(&message, PARSER_CHARS);
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| cut(e.to_string()))?;
        let serde_json::Value::Object(object) = &value else { return Err("an action is a JSON object".to_owned()) };
        if let Some(id) = object.get("id").filter(|id| !id.is_null() && id.as_u64().is_none()) {
            return Err(format!(
                "`id` is {}: expected a decision's number",
                gin_cards::excerpt(&id.to_string(), NAME_CHARS)
            ));
        }
        let kind = object.get("type").and_then(serde_json::Value::as_str).unwrap_or_default();
        serde_json::from_value(value.clone()).map_err(|e| {
            let message = e.to_string();
            match message.strip_prefix("unknown field ") {
                // Which action it is, where serde says only what it expected.
                Some(rest) => cut(format!(
                    "unknown field {} in a `{}` action",
                    rest.split(',').next().unwrap_or(rest),
                    gin_cards::excerpt(kind, NAME_CHARS)
                )),
                None => cut(message),
            }
        })
    }

    /// The answer as one line of JSON, without its line break.
    pub fn to_line(&self) -> String {
        // These types always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The `id` of the decision it answers, when it names one.
    pub fn id(&self) -> Option<u64> {
        match *self {
            Answer::TakeUpcard { id }
            | Answer::PassUpcard { id }
            | Answer::DrawStock { id }
            | Answer::DrawPile { id }
            | Answer::Discard { id, .. }
            | Answer::Knock { id, .. }
            | Answer::BigGin { id, .. }
            | Answer::LayOff { id, .. } => id,
        }
    }

    /// The action.
    pub fn action(&self) -> Action {
        match *self {
            Answer::TakeUpcard { .. } => Action::TakeUpcard,
            Answer::PassUpcard { .. } => Action::PassUpcard,
            Answer::DrawStock { .. } => Action::DrawStock,
            Answer::DrawPile { .. } => Action::DrawPile,
            Answer::Discard { card, .. } => Action::Discard { card },
            Answer::Knock { discard, .. } => Action::Knock { discard },
            Answer::BigGin { .. } => Action::BigGin,
            Answer::LayOff { .. } => Action::LayOff,
        }
    }

    /// The melds named, `None` when none are named.
    fn melds(&self) -> Option<&[Vec<Card>]> {
        match self {
            Answer::Knock { melds, .. } | Answer::BigGin { melds, .. } | Answer::LayOff { melds, .. } => {
                melds.as_deref()
            }
            _ => None,
        }
    }

    /// The cards this answer shows from `view`'s hand, `None` when it names none (the referee
    /// then shows for the program). A knock's melds show the hand less the discard; a defense
    /// that names only its melds lays off the rest the best way and melds what is left
    /// ([`gin_rules::Solver::defend_keeping`]), one that names only its layoffs melds the rest
    /// the best way. Whether the showing fits the position (the knock limit, layoffs that reach
    /// the knocker's melds) is the referee's to say.
    ///
    /// # Errors
    /// A named meld that is not a meld under the rules or names a card twice, cards not in the
    /// hand, a card named in two places, or more than three melds.
    pub fn showing(&self, view: &PlayerView<'_>) -> Result<Option<Showing>, String> {
        let melds = match self.melds() {
            Some(named) => Some(
                named
                    .iter()
                    .map(|cards| {
                        let set: CardSet = cards.iter().copied().collect();
                        if set.len() != cards.len() {
                            let twice = cards.iter().find(|&&card| cards.iter().filter(|&&c| c == card).count() > 1);
                            return Err(format!(
                                "duplicate card {} in a meld",
                                twice.map(ToString::to_string).unwrap_or_default()
                            ));
                        }
                        Meld::new(set, view.rules.ace_high).map_err(|e| e.to_string())
                    })
                    .collect::<Result<Vec<Meld>, String>>()?,
            ),
            None => None,
        };
        let solver = view.rules.solver();
        let shown = match (self, melds) {
            (Answer::Knock { discard, .. }, Some(melds)) => {
                Showing::new(view.hand.without(*discard), &melds, CardSet::EMPTY)
            }
            (Answer::BigGin { .. }, Some(melds)) => Showing::new(view.hand, &melds, CardSet::EMPTY),
            (Answer::LayOff { laid_off: Some(laid_off), .. }, Some(melds)) => {
                Showing::new(view.hand, &melds, *laid_off)
            }
            (Answer::LayOff { laid_off: None, .. }, Some(melds)) => {
                let targets =
                    view.knock.as_ref().map_or(&[][..], |knock| view.rules.layoff_melds(knock.kind, &knock.shown));
                solver.defend_keeping(targets, view.hand, &melds)
            }
            (Answer::LayOff { laid_off: Some(laid_off), .. }, None) => {
                let rest = solver.best_arrangement(view.hand - *laid_off);
                Showing::new(view.hand, rest.melds(), *laid_off)
            }
            _ => return Ok(None),
        };
        shown.map(Some).map_err(|e| e.to_string())
    }
}
