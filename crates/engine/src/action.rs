//! `Action`: what a player may say to the referee.

use std::fmt;

use gin_cards::{Card, CardSet};

/// One move by one player.
///
/// Where a knocker or a defender may name an arrangement, `None` leaves it to the engine, which
/// picks a best one. Named melds are plain card groups; the engine checks them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Take the first upcard (then discard).
    TakeUpcard,
    /// Refuse the first upcard.
    PassUpcard,
    /// Draw the top card of the stock.
    DrawStock,
    /// Draw the top card of the discard pile.
    DrawPile,
    /// Discard a card and end the turn.
    Discard {
        /// The card discarded.
        card: Card,
    },
    /// Discard a card and knock (gin when nothing is left unmelded).
    Knock {
        /// The card discarded face up.
        discard: Card,
        /// The melds to show; `None` shows a best arrangement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<CardSet>>,
    },
    /// Go down with all 11 cards melded, without discarding (where big gin is played).
    BigGin {
        /// The melds to show; `None` shows a best arrangement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<CardSet>>,
    },
    /// The defender's answer to a knock: its own melds and the cards it lays off. A part left
    /// `None` is chosen by the engine, as well as it can given the part that is named.
    LayOff {
        /// The defender's own melds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        melds: Option<Vec<CardSet>>,
        /// The cards laid off on the knocker's melds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        laid_off: Option<CardSet>,
    },
}

impl Action {
    /// The defender's answer that leaves everything to the engine.
    pub const LAY_OFF_BEST: Action = Action::LayOff { melds: None, laid_off: None };

    /// A knock with `discard`, showing a best arrangement.
    pub const fn knock(discard: Card) -> Action {
        Action::Knock { discard, melds: None }
    }
}

impl fmt::Display for Action {
    /// A short description: `discard 7H`, `knock with 7H`, `draw from the stock`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::TakeUpcard => f.write_str("take the upcard"),
            Action::PassUpcard => f.write_str("pass the upcard"),
            Action::DrawStock => f.write_str("draw from the stock"),
            Action::DrawPile => f.write_str("draw from the discard pile"),
            Action::Discard { card } => write!(f, "discard {card}"),
            Action::Knock { discard, .. } => write!(f, "knock with {discard}"),
            Action::BigGin { .. } => f.write_str("big gin"),
            Action::LayOff { .. } => f.write_str("lay off"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_serialize_as_tagged_objects() {
        let discard = Action::Discard { card: "7H".parse().unwrap() };
        assert_eq!(serde_json::to_string(&discard).unwrap(), r#"{"type":"discard","card":"7H"}"#);
        let knock = Action::knock("3H".parse().unwrap());
        assert_eq!(serde_json::to_string(&knock).unwrap(), r#"{"type":"knock","discard":"3H"}"#);
        let named: Action =
            serde_json::from_str(r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S"]]}"#).unwrap();
        assert_eq!(
            named,
            Action::Knock { discard: "3H".parse().unwrap(), melds: Some(vec!["AS 2S 3S".parse().unwrap()]) }
        );
        assert_eq!(serde_json::from_str::<Action>(r#"{"type":"lay_off"}"#).unwrap(), Action::LAY_OFF_BEST);
        assert!(serde_json::from_str::<Action>(r#"{"type":"discard","card":"ZZ"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"type":"shuffle"}"#).is_err());
    }
}
