//! `PlayerView`: exactly what one player may know.

use gin_cards::{Card, CardSet, random};
use gin_rules::{GameScore, Player, Ruleset, Showing};

use crate::{Action, Deal, Game, Knock, Phase, PlayError, SetupError};

/// Why a view read from outside is not one a game could show ([`PlayerView::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The view's player is not the one to act.
    #[error("the view says it is not the agent's turn")]
    NotMyTurn,
    /// The opponent holds fewer cards than the view says are known to be in its hand.
    #[error("the opponent holds fewer cards than are known to be in its hand")]
    OpponentCards,
    /// The cards do not add up to a deal.
    #[error("the view does not add up: {0}")]
    Deal(SetupError),
    /// The legal actions given are not those of the position.
    #[error("the legal actions are not those of the view")]
    Legal,
}

/// What one player may know of a game at this moment: its own hand, the discard pile, the
/// stock's size, the cards known to be in the opponent's hand, the knock being answered, the
/// scores, the phase, the rules and its seat. Nothing else.
///
/// What happened to get here reaches an agent once, as events ([`crate::Agent::observe`]); the
/// view is the position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView<'a> {
    /// The player's seat.
    pub seat: Player,
    /// The rules.
    #[serde(skip)]
    pub rules: &'a Ruleset,
    /// The current hand's number, from 1.
    pub hand_number: u32,
    /// The dealer of the hand.
    pub dealer: Player,
    /// The hand's first upcard.
    pub upcard: Card,
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
    /// The card the player to act took from the discard pile this turn, which it may not discard
    /// under most rules (everyone saw it taken).
    pub taken_card: Option<Card>,
    /// How many players refused the first upcard (2: both did, and the first draw is from the
    /// stock).
    pub upcard_passes: u8,
    /// The number of draws so far in the hand.
    pub draws: u32,
    /// The knock being answered (in the lay-off phase) or that ended the hand.
    pub knock: Option<Knock>,
    /// The game's score so far.
    pub score: &'a GameScore,
}

impl<'a> PlayerView<'a> {
    pub(crate) fn new(game: &'a Game, seat: Player) -> PlayerView<'a> {
        let deal = game.deal();
        PlayerView {
            seat,
            rules: game.rules(),
            hand_number: game.hand_number(),
            dealer: deal.dealer(),
            upcard: deal.upcard(),
            knock_limit: deal.knock_limit(),
            phase: deal.phase(),
            to_act: deal.to_act(),
            hand: deal.cards(seat),
            discard_pile: deal.pile(),
            stock_size: deal.stock_len(),
            opponent_known: deal.known(seat.opponent()),
            opponent_cards: deal.cards(seat.opponent()).len(),
            taken_card: deal.taken_card(),
            upcard_passes: deal.upcard_passes(),
            draws: deal.draws(),
            knock: deal.knock().copied(),
            score: game.score(),
        }
    }

    /// The top of the discard pile.
    pub fn pile_top(&self) -> Option<Card> {
        self.discard_pile.last().copied()
    }

    /// A seed for this decision alone: `seed` (the agent's own, from
    /// [`crate::Agent::start_game`]) mixed with where the game stands (the hand, the draws so
    /// far, the phase and the upcard's refusals), which no two decisions of a game share.
    ///
    /// An agent that draws this decision's random choices from it chooses the same here whatever
    /// it chose before: a game rebuilt from its record (a resumed save) goes on exactly as it
    /// would have, with any agent.
    pub fn decision_seed(&self, seed: u64) -> u64 {
        let phase: u64 = match self.phase {
            Phase::UpcardOffer => 0,
            Phase::Draw => 1,
            Phase::Discard => 2,
            Phase::LayOff => 3,
            Phase::Over => 4,
        };
        let position =
            u64::from(self.hand_number) << 32 | u64::from(self.draws) << 8 | phase << 4 | u64::from(self.upcard_passes);
        random::derive_seed(seed, position)
    }

    /// Whether it is this player's turn.
    pub fn is_my_turn(&self) -> bool {
        self.to_act == Some(self.seat)
    }

    /// Checks that this view, with `legal` its legal actions, is one a game could show: it is the
    /// player's turn, the view adds up to a deal the referee accepts (the cards the player cannot
    /// see filled in: the opponent's hidden cards and the stock), and `legal` is exactly that
    /// deal's list of legal actions (in any order). A view read from outside (a message of the
    /// external-agent protocol) is checked so before an agent trusts it.
    ///
    /// # Errors
    /// [`ViewError`] says which of these fails.
    pub fn check(&self, legal: &[Action]) -> Result<(), ViewError> {
        if !self.is_my_turn() {
            return Err(ViewError::NotMyTurn);
        }
        let deal = self.filled_in()?;
        let listed = deal.legal_actions(self.rules);
        if legal.len() != listed.len() || legal.iter().any(|action| !listed.contains(action)) {
            return Err(ViewError::Legal);
        }
        Ok(())
    }

    /// Why the referee would refuse `action` with `showing` (`None`: the referee's choice) from
    /// this player now, `None` when it would take them (or when the view does not add up to a
    /// position, see [`PlayerView::check`]). What is refused never depends on the cards the player
    /// cannot see, so a host can tell an agent's mistake before it reaches the game.
    pub fn refusal(&self, action: Action, showing: Option<&Showing>) -> Option<PlayError> {
        let deal = self.filled_in().ok()?;
        deal.check(self.rules, self.seat, action, showing).err()
    }

    /// The view as a deal, the cards the player cannot see filled in (the first cards not
    /// accounted for, in order).
    fn filled_in(&self) -> Result<Deal, ViewError> {
        let pile: CardSet = self.discard_pile.iter().copied().collect();
        // A knock being answered shows the knocker's whole hand.
        let shown =
            self.knock.filter(|knock| knock.player != self.seat).map_or(CardSet::EMPTY, |knock| knock.shown.hand());
        let public = self.opponent_known | shown;
        let unseen = CardSet::FULL - self.hand - pile - public;
        let missing = self.opponent_cards.checked_sub(public.len()).ok_or(ViewError::OpponentCards)?;
        let mut rest = unseen.iter();
        let opponent = public | rest.by_ref().take(missing).collect::<CardSet>();
        let stock: Vec<Card> = rest.collect();
        Deal::from_view(self, opponent, &stock, 0).map_err(ViewError::Deal)
    }

    /// What the referee shows for this player when it plays `action` (a knock, big gin or a
    /// defense) without choosing: see [`crate::Deal::engine_showing`]. `None` for another action, or one
    /// that is not legal now.
    pub fn engine_showing(&self, action: Action) -> Option<Showing> {
        if !self.is_my_turn() {
            return None;
        }
        crate::deal::referee_showing(self.rules, self.phase, self.hand, self.knock.as_ref(), action)
    }
}
