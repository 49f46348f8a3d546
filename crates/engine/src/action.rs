//! `Action`: what a player may say to the referee, and `LegalActions`, the list of them.

use std::fmt;
use std::ops::Deref;

use gin_cards::Card;

/// One move by one player: small and `Copy`, compared and listed without allocating.
///
/// Where the rules let a player choose which cards to show (the knocker's melds, the defender's
/// melds and layoffs), the choice travels beside the action as a [`gin_rules::Showing`]; without
/// one, the referee shows for the player (see [`crate::Deal::engine_showing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    },
    /// Go down with all 11 cards melded, without discarding (where big gin is played).
    BigGin,
    /// The defender's answer to a knock: its own melds and the cards it lays off.
    LayOff,
}

impl Action {
    /// A knock discarding `discard`.
    pub const fn knock(discard: Card) -> Action {
        Action::Knock { discard }
    }

    /// Whether the action lays cards down, so that a [`gin_rules::Showing`] may go with it.
    pub const fn shows_cards(self) -> bool {
        matches!(self, Action::Knock { .. } | Action::BigGin | Action::LayOff)
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
            Action::Knock { discard } => write!(f, "knock with {discard}"),
            Action::BigGin => f.write_str("big gin"),
            Action::LayOff => f.write_str("lay off"),
        }
    }
}

/// The most actions a position offers: 11 discards, as many knocks, and big gin.
pub const MAX_LEGAL: usize = 23;

/// The legal actions of a position, in a fixed-capacity list: listing them never allocates.
/// Dereferences to `[Action]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LegalActions {
    actions: [Action; MAX_LEGAL],
    len: u8,
}

impl LegalActions {
    /// An empty list.
    pub const fn new() -> LegalActions {
        LegalActions { actions: [Action::DrawStock; MAX_LEGAL], len: 0 }
    }

    /// Adds an action; the referee never lists more than [`MAX_LEGAL`].
    pub(crate) fn push(&mut self, action: Action) {
        debug_assert!(usize::from(self.len) < MAX_LEGAL);
        if let Some(slot) = self.actions.get_mut(usize::from(self.len)) {
            *slot = action;
            self.len += 1;
        }
    }

    /// The actions as a slice.
    pub fn as_slice(&self) -> &[Action] {
        &self.actions[..usize::from(self.len)]
    }
}

impl Default for LegalActions {
    fn default() -> LegalActions {
        LegalActions::new()
    }
}

impl Deref for LegalActions {
    type Target = [Action];

    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl fmt::Debug for LegalActions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl serde::Serialize for LegalActions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_serialize_as_tagged_objects() {
        let discard = Action::Discard { card: "7H".parse().unwrap() };
        assert_eq!(serde_json::to_string(&discard).unwrap(), r#"{"type":"discard","card":"7H"}"#);
        let knock = Action::Knock { discard: "3H".parse().unwrap() };
        assert_eq!(serde_json::to_string(&knock).unwrap(), r#"{"type":"knock","discard":"3H"}"#);
        assert_eq!(serde_json::from_str::<Action>(r#"{"type":"knock","discard":"3H"}"#).unwrap(), knock);
        assert_eq!(serde_json::from_str::<Action>(r#"{"type":"lay_off"}"#).unwrap(), Action::LayOff);
        assert_eq!(serde_json::to_string(&Action::BigGin).unwrap(), r#"{"type":"big_gin"}"#);
        assert!(serde_json::from_str::<Action>(r#"{"type":"discard","card":"ZZ"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"type":"shuffle"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"type":"knock","discard":"3H","melds":[]}"#).is_err());
    }

    #[test]
    fn an_action_is_small_and_a_list_holds_the_most_a_position_offers() {
        assert!(size_of::<Action>() <= 2);
        let mut legal = LegalActions::new();
        assert!(legal.is_empty());
        for _ in 0..MAX_LEGAL {
            legal.push(Action::BigGin);
        }
        assert_eq!(legal.len(), MAX_LEGAL);
        assert_eq!(serde_json::to_string(&legal).unwrap().matches("big_gin").count(), MAX_LEGAL);
    }
}
