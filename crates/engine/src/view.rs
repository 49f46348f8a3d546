//! `PlayerView`: exactly what one player may know.

use gin_cards::{Card, CardSet};
use gin_rules::{GameScore, Player, Ruleset};

use crate::{Event, Game, Phase};

/// What one player may know of a game: its own hand, the discard pile, the stock's size, the
/// cards known to be in the opponent's hand, the public events of the hand so far (with its own
/// draws), the scores, the phase, the rules and its seat. Nothing else.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView<'a> {
    /// The player's seat.
    pub seat: Player,
    /// The rules.
    pub rules: &'a Ruleset,
    /// The current hand's number, from 1.
    pub hand_number: u32,
    /// The dealer of the hand.
    pub dealer: Player,
    /// The most deadwood a player may knock with in this hand.
    pub knock_limit: u32,
    /// The phase.
    pub phase: Phase,
    /// The player to act, if any.
    pub to_act: Option<Player>,
    /// The player's own cards.
    pub hand: CardSet,
    /// The discard pile, bottom first (its last card is the top).
    pub discard_pile: &'a [Card],
    /// The number of cards in the stock.
    pub stock_size: usize,
    /// The cards the opponent took from the discard pile and has not discarded.
    pub opponent_known: CardSet,
    /// The number of cards the opponent holds.
    pub opponent_cards: usize,
    /// The card this player took from the discard pile this turn, which it may not discard.
    pub taken_card: Option<Card>,
    /// The current hand's events as this player saw them, from its deal. (Once a hand ends and
    /// the next is dealt, the old hand's last events reach agents through `Agent::observe` and
    /// are returned by `Game::play`.)
    pub events: &'a [Event],
    /// The game's score so far.
    pub score: &'a GameScore,
}

impl<'a> PlayerView<'a> {
    pub(crate) fn new(game: &'a Game, seat: Player, events: &'a [Event]) -> PlayerView<'a> {
        let hand = game.hand();
        PlayerView {
            seat,
            rules: game.rules(),
            hand_number: game.hand_number(),
            dealer: hand.dealer(),
            knock_limit: hand.knock_limit(),
            phase: hand.phase(),
            to_act: hand.to_act(),
            hand: hand.cards(seat),
            discard_pile: hand.pile(),
            stock_size: hand.stock_len(),
            opponent_known: hand.known(seat.opponent()),
            opponent_cards: hand.cards(seat.opponent()).len(),
            taken_card: if hand.to_act() == Some(seat) { hand.taken_card() } else { None },
            events,
            score: game.score(),
        }
    }

    /// The top of the discard pile.
    pub fn pile_top(&self) -> Option<Card> {
        self.discard_pile.last().copied()
    }

    /// Whether it is this player's turn.
    pub fn is_my_turn(&self) -> bool {
        self.to_act == Some(self.seat)
    }
}
