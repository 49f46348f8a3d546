//! `Event`: what happened, as the referee saw it or as one player may see it.

use gin_cards::{Card, CardSet};
use gin_rules::{ByPlayer, GameResult, HandScore, KnockKind, Player, Ruleset, Showdown, Showing};

/// Something that happened in a game.
///
/// The engine produces events with everything filled in (the full log, for saving and replays);
/// [`Event::seen_by`] blanks what one player may not know: the other player's dealt cards and
/// the cards it drew from the stock. The defender's answer to a knock is told by the
/// [`Event::HandEnded`] it leads to, whose showdown holds both players' cards as shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A game began.
    GameStarted {
        /// The rules of the game.
        rules: Ruleset,
        /// The dealer of the first hand.
        first_dealer: Player,
    },
    /// A hand was dealt and its first upcard turned.
    HandStarted {
        /// The hand's number in the game, from 1.
        number: u32,
        /// The dealer.
        dealer: Player,
        /// The first upcard.
        upcard: Card,
        /// The most deadwood a player may knock with in this hand.
        knock_limit: u32,
        /// Each player's ten cards (`None` where hidden).
        hands: ByPlayer<Option<CardSet>>,
    },
    /// A player took the first upcard.
    TookUpcard {
        /// Who.
        player: Player,
        /// The upcard.
        card: Card,
    },
    /// A player refused the first upcard.
    PassedUpcard {
        /// Who.
        player: Player,
    },
    /// A player drew the top card of the stock.
    DrewStock {
        /// Who.
        player: Player,
        /// The card (`None` where hidden).
        card: Option<Card>,
    },
    /// A player drew the top card of the discard pile.
    DrewPile {
        /// Who.
        player: Player,
        /// The card.
        card: Card,
    },
    /// A player discarded without knocking.
    Discarded {
        /// Who.
        player: Player,
        /// The card.
        card: Card,
    },
    /// The stock reached its floor and was rebuilt from the discard pile (`reshuffle` rule).
    StockRebuilt {
        /// The number of cards in the new stock.
        size: usize,
    },
    /// A player knocked, went gin or big gin, and showed its hand.
    Knocked {
        /// Who.
        player: Player,
        /// Knock, gin or big gin.
        kind: KnockKind,
        /// The card discarded face up (`None` for big gin).
        discard: Option<Card>,
        /// The melds shown, the unmelded cards and their value.
        shown: Showing,
    },
    /// A hand ended: scored, or dead.
    HandEnded {
        /// The hand's result, its points and where they come from.
        score: HandScore,
        /// The game's hand points after it.
        points: ByPlayer<u32>,
        /// What both players showed, when someone knocked (`None` for a dead hand).
        showdown: Option<Showdown>,
    },
    /// The game ended.
    GameEnded {
        /// Every part of the result.
        result: GameResult,
    },
}

impl Event {
    /// The event as `viewer` may see it.
    pub fn seen_by(&self, viewer: Player) -> Event {
        match self {
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                let mut hands = *hands;
                hands[viewer.opponent()] = None;
                Event::HandStarted {
                    number: *number,
                    dealer: *dealer,
                    upcard: *upcard,
                    knock_limit: *knock_limit,
                    hands,
                }
            }
            Event::DrewStock { player, .. } if *player != viewer => Event::DrewStock { player: *player, card: None },
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_hide_the_opponents_cards() {
        let drew = Event::DrewStock { player: Player::One, card: Some("7H".parse().unwrap()) };
        assert_eq!(drew.seen_by(Player::One), drew);
        assert_eq!(drew.seen_by(Player::Two), Event::DrewStock { player: Player::One, card: None });
        let dealt = Event::HandStarted {
            number: 1,
            dealer: Player::Two,
            upcard: "KS".parse().unwrap(),
            knock_limit: 10,
            hands: ByPlayer::new(Some("AS".parse().unwrap()), Some("2S".parse().unwrap())),
        };
        let Event::HandStarted { hands, .. } = dealt.seen_by(Player::Two) else { unreachable!() };
        assert_eq!(hands, ByPlayer::new(None, Some("2S".parse().unwrap())));
    }

    #[test]
    fn events_serialize_with_a_tag() {
        let event = Event::Discarded { player: Player::Two, card: "TC".parse().unwrap() };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(json, r#"{"event":"discarded","player":"two","card":"TC"}"#);
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), event);
    }
}
