//! `Deal`: one hand of Gin Rummy, from the deal to the score, in a compact `Copy` state.

use gin_cards::{Card, CardSet, Deck, random};
use gin_rules::{
    ByPlayer, HandScore, KnockKind, Meld, MeldError, Player, Ruleset, Showdown, Showing, StockEnd, score_hand,
};

use crate::{Action, Event, LegalActions, PlayerView};

/// A hand ends dead after this many draws whatever the rules say, so that no pair of agents can
/// play one hand forever (docs/rules.md, rule 21); a hand with a dead-hand floor never gets near it.
pub const MAX_DRAWS: u32 = 500;

/// Where a hand is: who may do what next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The first upcard is offered to the non-dealer, then to the dealer (rule 7).
    UpcardOffer,
    /// The player to act draws from the stock or the discard pile.
    Draw,
    /// The player to act holds 11 cards: discard, knock, or go big gin.
    Discard,
    /// The defender answers a knock: own melds and layoffs.
    LayOff,
    /// The hand is over: scored or dead.
    Over,
}

/// The cards of a hand before play, for setting up a particular position: plain data, checked
/// by [`Deal::new`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandSetup {
    /// The dealer.
    pub dealer: Player,
    /// Each player's ten cards.
    pub hands: ByPlayer<CardSet>,
    /// The first upcard.
    pub upcard: Card,
    /// The stock, top card first: the other 31 cards.
    pub stock: Vec<Card>,
}

impl HandSetup {
    /// Deals from a deck as a dealer would: one card at a time to each player, the non-dealer
    /// first, then the upcard; the rest is the stock.
    pub fn deal(dealer: Player, deck: &Deck) -> HandSetup {
        let mut cards = deck.iter();
        let mut hands = ByPlayer::new(CardSet::EMPTY, CardSet::EMPTY);
        for _ in 0..10 {
            for player in [dealer.opponent(), dealer] {
                hands[player].extend(cards.next());
            }
        }
        let upcard = cards.next().unwrap_or(Card::new(gin_cards::Rank::Ace, gin_cards::Suit::Spades));
        HandSetup { dealer, hands, upcard, stock: cards.collect() }
    }
}

/// Why cards are not a hand that can be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A player holds the wrong number of cards.
    #[error("{player} holds {count} cards: expected {expected}")]
    HandSize {
        /// The player.
        player: Player,
        /// How many cards.
        count: usize,
        /// How many the position calls for.
        expected: usize,
    },
    /// The stock does not hold the cards it should.
    #[error("the stock holds {count} cards: expected {expected}")]
    StockSize {
        /// How many cards.
        count: usize,
        /// How many the position calls for.
        expected: usize,
    },
    /// A card appears twice.
    #[error("{card} is dealt twice")]
    Duplicate {
        /// The card.
        card: Card,
    },
    /// Cards that are nowhere.
    #[error("{cards} are missing: every one of the 52 cards must be somewhere")]
    Missing {
        /// The cards.
        cards: CardSet,
    },
    /// A position the rules cannot reach.
    #[error("impossible position: {0}")]
    Impossible(&'static str),
}

/// Why the referee refused an action. The hand is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The hand or the game is over.
    #[error("the hand is over: nobody may act")]
    Over,
    /// Not this player's turn.
    #[error("it is {expected}'s turn, not {player}'s")]
    WrongPlayer {
        /// Who tried.
        player: Player,
        /// Whose turn it is.
        expected: Player,
    },
    /// The action does not belong to this phase.
    #[error("cannot {action} now: {expected}")]
    WrongPhase {
        /// The action refused.
        action: Action,
        /// What the phase calls for.
        expected: &'static str,
    },
    /// A card the player does not hold.
    #[error("{card} is not in {player}'s hand")]
    NotInHand {
        /// The player.
        player: Player,
        /// The card.
        card: Card,
    },
    /// Discarding (or knocking with) the card just taken from the discard pile.
    #[error("{card} was just taken from the discard pile: it may not be discarded this turn")]
    TakenCard {
        /// The card.
        card: Card,
    },
    /// After both players refused the first upcard, the non-dealer draws from the stock.
    #[error("both players refused the upcard: the first draw is from the stock")]
    UpcardRefused,
    /// Drawing from an empty discard pile.
    #[error("the discard pile is empty")]
    EmptyPile,
    /// Knocking with more deadwood than the limit.
    #[error("cannot knock with {deadwood} deadwood: the limit in this hand is {limit}")]
    OverKnockLimit {
        /// The deadwood the knock would leave.
        deadwood: u32,
        /// The hand's knock limit.
        limit: u32,
    },
    /// Big gin where the rules do not play it.
    #[error("big gin is not played under these rules: discard and knock for gin")]
    BigGinOff,
    /// Big gin with cards left unmelded.
    #[error("not big gin: {deadwood} deadwood would be left unmelded")]
    NotBigGin {
        /// The deadwood of the arrangement.
        deadwood: u32,
    },
    /// A shown meld is not a meld under these rules.
    #[error("invalid meld: {0}")]
    InvalidMeld(#[from] MeldError),
    /// A showing of other cards than the hand (less the discard, for a knock).
    #[error("the cards shown are {found}, not the hand {expected}")]
    WrongCardsShown {
        /// The cards that must be shown.
        expected: CardSet,
        /// The cards shown.
        found: CardSet,
    },
    /// Cards laid off by the knocker, who never lays off.
    #[error("the knocker lays nothing off (it shows {cards} as laid off)")]
    KnockerLaysOff {
        /// The cards.
        cards: CardSet,
    },
    /// A showing with an action that shows nothing.
    #[error("{action} shows no cards")]
    NothingToShow {
        /// The action.
        action: Action,
    },
    /// Layoffs that do not fit the knocker's melds.
    #[error("cannot lay off {cards} on the knocker's melds")]
    InvalidLayoff {
        /// The cards that do not fit.
        cards: CardSet,
    },
    /// Layoffs where the rules allow none (a deal played under another ruleset than the one it
    /// was dealt under).
    #[error("laying off is not allowed under these rules")]
    LayoffsOff,
}

/// The knock being answered: who knocked, how, and what it showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knock {
    /// The knocker.
    pub player: Player,
    /// Knock, gin or big gin.
    pub kind: KnockKind,
    /// The knocker's melds and deadwood.
    pub shown: Showing,
}

/// A pile of cards with its top last: a fixed array, so that a deal copies without allocating.
/// Two piles are equal when they hold the same cards in the same order (the slots past the top
/// are left over from cards taken, and do not count).
#[derive(Clone, Copy)]
struct Pile {
    cards: [Card; 52],
    len: u8,
}

impl Pile {
    const EMPTY: Pile = Pile { cards: [Card::new(gin_cards::Rank::Ace, gin_cards::Suit::Spades); 52], len: 0 };

    /// A pile of `cards`, bottom first (at most 52, each once: the caller checks).
    fn of(cards: impl IntoIterator<Item = Card>) -> Pile {
        let mut pile = Pile::EMPTY;
        for card in cards {
            pile.push(card);
        }
        pile
    }

    /// A pile of the cards of a slice given top first (at most 52: the caller checks).
    fn top_first(cards: &[Card]) -> Pile {
        let mut pile = Pile::EMPTY;
        let len = cards.len().min(52);
        for (slot, &card) in pile.cards[..len].iter_mut().zip(cards.iter().rev()) {
            *slot = card;
        }
        pile.len = len as u8;
        pile
    }

    /// A pile of the cards of a slice given bottom first (at most 52: the caller checks).
    fn bottom_first(cards: &[Card]) -> Pile {
        let mut pile = Pile::EMPTY;
        let len = cards.len().min(52);
        pile.cards[..len].copy_from_slice(&cards[..len]);
        pile.len = len as u8;
        pile
    }

    fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    fn len(&self) -> usize {
        usize::from(self.len)
    }

    fn top(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    fn push(&mut self, card: Card) {
        if let Some(slot) = self.cards.get_mut(usize::from(self.len)) {
            *slot = card;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<Card> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }
}

impl PartialEq for Pile {
    fn eq(&self, other: &Pile) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Pile {}

impl std::fmt::Debug for Pile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Where the events of a move go: a `Vec` keeps them, `()` drops them (for searches that play
/// many hands out and look only at the end).
pub(crate) trait EventSink {
    /// Whether the events are dropped unread: the end of a hand is then scored without working
    /// out the showdown that only its event carries.
    const SILENT: bool = false;

    fn emit(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    fn emit(&mut self, event: Event) {
        self.push(event);
    }
}

impl EventSink for () {
    const SILENT: bool = true;

    fn emit(&mut self, _event: Event) {}
}

/// One hand of Gin Rummy: the cards, whose turn it is and what they may do.
///
/// A `Deal` is plain bit sets and fixed arrays: it is `Copy`, and a search copies it to play a
/// future out. It holds no rules: each method that needs them takes the hand's [`Ruleset`] by
/// reference, which must be the ruleset it was dealt under ([`crate::Game`] keeps them together).
/// It is built only by [`Deal::new`] from a checked setup, or by [`Deal::from_view`], which
/// fills in what a player cannot see and checks that the whole adds up.
///
/// `legal_actions` lists the actions of the player to act; `play` checks an action and applies it,
/// returning the events it caused, or refuses it with a [`PlayError`] and changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    dealer: Player,
    upcard: Card,
    knock_limit: u32,
    hands: ByPlayer<CardSet>,
    /// Top card last.
    stock: Pile,
    /// Top card last.
    pile: Pile,
    phase: Phase,
    to_act: Player,
    /// How many players refused the first upcard.
    passes: u8,
    /// The card the player to act took from the discard pile this turn.
    taken: Option<Card>,
    /// The cards each player took from the discard pile and still holds.
    known: ByPlayer<CardSet>,
    draws: u32,
    /// Seeds the shuffles of a rebuilt stock.
    shuffle_seed: u64,
    rebuilds: u32,
    knock: Option<Knock>,
    score: Option<HandScore>,
}

impl Deal {
    /// A hand from a setup, under `rules`; `shuffle_seed` seeds any rebuilding of the stock.
    ///
    /// # Errors
    /// [`SetupError`] unless the hands hold ten cards each, the stock the 31 others, and no card
    /// appears twice.
    pub fn new(rules: &Ruleset, setup: &HandSetup, shuffle_seed: u64) -> Result<Deal, SetupError> {
        let mut seen = CardSet::EMPTY;
        for player in Player::ALL {
            let count = setup.hands[player].len();
            if count != 10 {
                return Err(SetupError::HandSize { player, count, expected: 10 });
            }
            if let Some(card) = (seen & setup.hands[player]).first() {
                return Err(SetupError::Duplicate { card });
            }
            seen |= setup.hands[player];
        }
        if setup.stock.len() != 31 {
            return Err(SetupError::StockSize { count: setup.stock.len(), expected: 31 });
        }
        for &card in std::iter::once(&setup.upcard).chain(&setup.stock) {
            if !seen.insert(card) {
                return Err(SetupError::Duplicate { card });
            }
        }
        Ok(Deal {
            dealer: setup.dealer,
            upcard: setup.upcard,
            knock_limit: rules.knock_limit_for(setup.upcard),
            hands: setup.hands,
            stock: Pile::of(setup.stock.iter().rev().copied()),
            pile: Pile::of([setup.upcard]),
            phase: Phase::UpcardOffer,
            to_act: setup.dealer.opponent(),
            passes: 0,
            taken: None,
            known: ByPlayer::default(),
            draws: 0,
            shuffle_seed,
            rebuilds: 0,
            knock: None,
            score: None,
        })
    }

    /// The hand `view` shows, with what its player cannot see filled in: the opponent's cards
    /// (`opponent`, which must include the cards the view says it is known to hold) and the stock
    /// in drawing order (`stock`, top card first). The player's own pickups are not carried over
    /// (they only shape what the opponent's views would show). `shuffle_seed` seeds any rebuilding
    /// of the stock, counted afresh from this deal (so a stock rebuilt in this deal is shuffled
    /// otherwise than in the real one). This is how a search deals a possible future.
    ///
    /// # Errors
    /// [`SetupError`] unless the cards add up to the 52, each once, in the sizes the view shows.
    pub fn from_view(
        view: &PlayerView<'_>,
        opponent: CardSet,
        stock: &[Card],
        shuffle_seed: u64,
    ) -> Result<Deal, SetupError> {
        let me = view.seat;
        let them = me.opponent();
        if opponent.len() != view.opponent_cards {
            return Err(SetupError::HandSize { player: them, count: opponent.len(), expected: view.opponent_cards });
        }
        if stock.len() != view.stock_size {
            return Err(SetupError::StockSize { count: stock.len(), expected: view.stock_size });
        }
        if !view.opponent_known.is_subset(opponent) {
            return Err(SetupError::Impossible("the opponent's hand lacks the cards it is known to hold"));
        }
        // Searches call this once a future: the cards add up when they are 52 and cover the deck
        // (then each is there once); only a refusal looks for the card that is not.
        let pile: CardSet = view.discard_pile.iter().copied().collect();
        let dealt: CardSet = stock.iter().copied().collect();
        let count = view.hand.len() + opponent.len() + view.discard_pile.len() + stock.len();
        if count != 52 || (view.hand | opponent | pile | dealt) != CardSet::FULL {
            let mut seen = CardSet::EMPTY;
            let all = view.hand.iter().chain(opponent).chain(view.discard_pile.iter().copied());
            for card in all.chain(stock.iter().copied()) {
                if !seen.insert(card) {
                    return Err(SetupError::Duplicate { card });
                }
            }
            return Err(SetupError::Missing { cards: CardSet::FULL - seen });
        }
        let mut hands = ByPlayer::default();
        hands[me] = view.hand;
        hands[them] = opponent;
        let mut known = ByPlayer::default();
        known[them] = view.opponent_known;
        let deal = Deal {
            dealer: view.dealer,
            upcard: view.upcard,
            knock_limit: view.knock_limit,
            hands,
            stock: Pile::top_first(stock),
            pile: Pile::bottom_first(view.discard_pile),
            phase: view.phase,
            to_act: view.to_act.unwrap_or(me),
            passes: view.upcard_passes,
            taken: view.taken_card,
            known,
            draws: view.draws,
            shuffle_seed,
            rebuilds: 0,
            knock: view.knock,
            score: None,
        };
        deal.check_position(view.rules)?;
        Ok(deal)
    }

    /// Checks that a position built from outside can be played on without a panic.
    fn check_position(&self, rules: &Ruleset) -> Result<(), SetupError> {
        let acting = self.hands[self.to_act].len();
        let other = self.hands[self.to_act.opponent()].len();
        let fits = match self.phase {
            Phase::UpcardOffer => acting == 10 && other == 10 && self.pile.len() == 1 && self.passes < 2,
            Phase::Draw => acting == 10 && other == 10 && self.stock.len() > rules.stock_floor as usize,
            Phase::Discard => acting == 11 && other == 10,
            Phase::LayOff => {
                acting == 10
                    && other <= 10
                    && self
                        .knock
                        .is_some_and(|knock| knock.player == self.to_act.opponent() && rules.allows_layoffs(knock.kind))
            }
            Phase::Over => false,
        };
        if !fits {
            return Err(SetupError::Impossible("the cards held do not fit the phase"));
        }
        if self.taken.is_some_and(|card| self.phase != Phase::Discard || !self.hands[self.to_act].contains(card)) {
            return Err(SetupError::Impossible("the card taken this turn is not in the hand of the player to act"));
        }
        if self.knock_limit > 10 {
            return Err(SetupError::Impossible("a knock limit above 10"));
        }
        if let Some(knock) = self.knock
            && knock.shown.hand() != self.hands[knock.player]
        {
            return Err(SetupError::Impossible("the knocker's showing is not its hand"));
        }
        Ok(())
    }

    /// The event that starts this hand, with both hands shown (call it before the first action).
    pub fn started_event(&self, number: u32) -> Event {
        Event::HandStarted {
            number,
            dealer: self.dealer,
            upcard: self.upcard,
            knock_limit: self.knock_limit,
            hands: self.hands.map(Some),
        }
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player to act, or `None` when the hand is over.
    pub fn to_act(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }

    /// The dealer.
    pub fn dealer(&self) -> Player {
        self.dealer
    }

    /// The first upcard.
    pub fn upcard(&self) -> Card {
        self.upcard
    }

    /// The most deadwood a player may knock with in this hand.
    pub fn knock_limit(&self) -> u32 {
        self.knock_limit
    }

    /// A player's cards.
    pub fn cards(&self, player: Player) -> CardSet {
        self.hands[player]
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        self.pile.as_slice()
    }

    /// The number of cards in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// The stock, top card first.
    pub fn stock(&self) -> impl Iterator<Item = Card> + '_ {
        self.stock.as_slice().iter().rev().copied()
    }

    /// The cards `player` took from the discard pile and still holds: what its opponent knows.
    pub fn known(&self, player: Player) -> CardSet {
        self.known[player]
    }

    /// The card the player to act took from the discard pile this turn, if any.
    pub fn taken_card(&self) -> Option<Card> {
        self.taken
    }

    /// How many players refused the first upcard (2: both did).
    pub fn upcard_passes(&self) -> u8 {
        self.passes
    }

    /// The knock being answered or that ended the hand.
    pub fn knock(&self) -> Option<&Knock> {
        self.knock.as_ref()
    }

    /// The result, once the hand is over.
    pub fn score(&self) -> Option<HandScore> {
        self.score
    }

    /// The number of draws so far.
    pub fn draws(&self) -> u32 {
        self.draws
    }

    /// Every card of the hand: both hands, the stock and the pile (all 52, each once).
    pub fn all_cards(&self) -> (CardSet, usize) {
        let mut set = self.hands[Player::One] | self.hands[Player::Two];
        let mut count = self.hands[Player::One].len() + self.hands[Player::Two].len();
        for &card in self.stock.as_slice().iter().chain(self.pile.as_slice()) {
            set.insert(card);
            count += 1;
        }
        (set, count)
    }

    /// Whether the player to act may draw the pile's top: in the draw phase, not on the first
    /// draw after both players refused the upcard (rule 7), and not from an empty pile.
    pub fn may_draw_pile(&self) -> bool {
        self.phase == Phase::Draw && self.pile_drawable()
    }

    fn pile_drawable(&self) -> bool {
        !(self.passes >= 2 && self.draws == 0) && self.pile.len() > 0
    }

    /// The actions the player to act may take. A knock, big gin or a defense may also be played
    /// with a [`Showing`] of the player's choice.
    pub fn legal_actions(&self, rules: &Ruleset) -> LegalActions {
        let mut actions = LegalActions::new();
        match self.phase {
            Phase::UpcardOffer => {
                actions.push(Action::TakeUpcard);
                actions.push(Action::PassUpcard);
            }
            Phase::Draw => {
                actions.push(Action::DrawStock);
                if self.pile_drawable() {
                    actions.push(Action::DrawPile);
                }
            }
            Phase::Discard => {
                let hand = self.hands[self.to_act];
                let knocks = rules.knock_discards(hand, self.taken, self.knock_limit);
                for card in rules.discardable(hand, self.taken) {
                    actions.push(Action::Discard { card });
                    if knocks.contains(card) {
                        actions.push(Action::Knock { discard: card });
                    }
                }
                if rules.is_big_gin(hand) {
                    actions.push(Action::BigGin);
                }
            }
            Phase::LayOff => actions.push(Action::LayOff),
            Phase::Over => {}
        }
        actions
    }

    /// What the referee shows for the player to act when it plays `action` without a showing of
    /// its own: for a knock or big gin a best arrangement (the solver's first), for a defense the
    /// least deadwood over its own melds and layoffs together (rule 16). `None` for an action
    /// that shows nothing, or that is not legal now.
    pub fn engine_showing(&self, rules: &Ruleset, action: Action) -> Option<Showing> {
        referee_showing(rules, self.phase, self.hands[self.to_act], self.knock.as_ref(), action)
    }

    /// Checks `action` by `player`, with the cards it chooses to show (`None`: the referee's
    /// choice, [`Deal::engine_showing`]), and applies it; appends the events it caused.
    ///
    /// # Errors
    /// [`PlayError`] saying why the action is refused; the hand and `events` are then unchanged.
    pub fn play(
        &mut self,
        rules: &Ruleset,
        player: Player,
        action: Action,
        showing: Option<&Showing>,
        events: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        let shown = self.check(rules, player, action, showing)?;
        self.apply(rules, player, action, shown, events);
        Ok(())
    }

    /// Applies an action known to be legal, with the referee's showing and no events: for
    /// searches that play many futures out. The hand ends as [`Deal::play`] would leave it, with
    /// the same score; the showdown, which only the hand-ended event carries, is not worked out.
    ///
    /// # Panics
    /// May panic, or leave the hand inconsistent, if the action is not legal.
    pub fn play_unchecked(&mut self, rules: &Ruleset, player: Player, action: Action) {
        if let (Phase::LayOff, Action::LayOff, Some(knock)) = (self.phase, action, self.knock) {
            let targets = rules.layoff_melds(knock.kind, &knock.shown);
            let deadwood = rules.solver().defense_deadwood(targets, self.hands[player]);
            self.score_only(rules, deadwood);
            return;
        }
        let shown = if action.shows_cards() {
            Some(self.engine_showing(rules, action).expect("play_unchecked: an illegal action"))
        } else {
            None
        };
        self.apply(rules, player, action, shown, &mut ());
    }

    /// Whether `action` is legal with `showing`, and the showing it will lay down.
    pub(crate) fn check(
        &self,
        rules: &Ruleset,
        player: Player,
        action: Action,
        showing: Option<&Showing>,
    ) -> Result<Option<Showing>, PlayError> {
        if self.phase == Phase::Over {
            return Err(PlayError::Over);
        }
        if player != self.to_act {
            return Err(PlayError::WrongPlayer { player, expected: self.to_act });
        }
        let wrong_phase = |expected| Err(PlayError::WrongPhase { action, expected });
        let hand = self.hands[player];
        match (self.phase, action) {
            (Phase::UpcardOffer, Action::TakeUpcard | Action::PassUpcard) => {}
            (Phase::UpcardOffer, _) => return wrong_phase("take or pass the first upcard"),
            (Phase::Draw, Action::DrawStock) => {}
            (Phase::Draw, Action::DrawPile) if self.passes >= 2 && self.draws == 0 => {
                return Err(PlayError::UpcardRefused);
            }
            (Phase::Draw, Action::DrawPile) if self.pile.len() == 0 => return Err(PlayError::EmptyPile),
            (Phase::Draw, Action::DrawPile) => {}
            (Phase::Draw, _) => return wrong_phase("draw from the stock or the discard pile"),
            (Phase::Discard, Action::Discard { card }) => self.check_discard(rules, player, card)?,
            (Phase::Discard, Action::Knock { discard }) => {
                self.check_discard(rules, player, discard)?;
                let shown = self.shown(rules, action, hand.without(discard), showing)?;
                if shown.deadwood() > self.knock_limit {
                    return Err(PlayError::OverKnockLimit { deadwood: shown.deadwood(), limit: self.knock_limit });
                }
                return Ok(Some(shown));
            }
            (Phase::Discard, Action::BigGin) => {
                if rules.big_gin_bonus.is_none() {
                    return Err(PlayError::BigGinOff);
                }
                let shown = self.shown(rules, action, hand, showing)?;
                if shown.deadwood() > 0 {
                    return Err(PlayError::NotBigGin { deadwood: shown.deadwood() });
                }
                return Ok(Some(shown));
            }
            (Phase::Discard, _) => return wrong_phase("discard, knock or go big gin"),
            (Phase::LayOff, Action::LayOff) => return self.check_defense(rules, hand, showing).map(Some),
            (Phase::LayOff, _) => return wrong_phase("answer the knock (lay off)"),
            (Phase::Over, _) => return Err(PlayError::Over),
        }
        match showing {
            Some(_) => Err(PlayError::NothingToShow { action }),
            None => Ok(None),
        }
    }

    fn check_discard(&self, rules: &Ruleset, player: Player, card: Card) -> Result<(), PlayError> {
        if !self.hands[player].contains(card) {
            return Err(PlayError::NotInHand { player, card });
        }
        if Some(card) == self.taken && !rules.may_discard_taken_card {
            return Err(PlayError::TakenCard { card });
        }
        Ok(())
    }

    /// The knocker's (or big gin's) showing of `cards`: the player's, checked, or the referee's.
    fn shown(
        &self,
        rules: &Ruleset,
        action: Action,
        cards: CardSet,
        showing: Option<&Showing>,
    ) -> Result<Showing, PlayError> {
        let Some(shown) = showing else {
            return Ok(self.engine_showing(rules, action).expect("the action was checked"));
        };
        check_melds(shown, cards, rules)?;
        if !shown.laid_off().is_empty() {
            return Err(PlayError::KnockerLaysOff { cards: shown.laid_off() });
        }
        Ok(*shown)
    }

    /// The defender's answer: its own showing, checked against the knock, or the referee's.
    fn check_defense(&self, rules: &Ruleset, hand: CardSet, showing: Option<&Showing>) -> Result<Showing, PlayError> {
        let Some(shown) = showing else {
            return self.engine_showing(rules, Action::LayOff).ok_or(PlayError::Over);
        };
        check_melds(shown, hand, rules)?;
        let laid = shown.laid_off();
        if laid.is_empty() {
            return Ok(*shown);
        }
        if !rules.layoffs {
            return Err(PlayError::LayoffsOff);
        }
        let knock = self.knock.as_ref().ok_or(PlayError::Over)?;
        let reach = rules.solver().layoff_reach(knock.shown.melds(), laid);
        if !laid.is_subset(reach) {
            return Err(PlayError::InvalidLayoff { cards: laid - reach });
        }
        Ok(*shown)
    }

    /// Applies a checked action; `shown` is the showing of a knock, big gin or defense.
    fn apply(
        &mut self,
        rules: &Ruleset,
        player: Player,
        action: Action,
        shown: Option<Showing>,
        events: &mut impl EventSink,
    ) {
        match action {
            Action::TakeUpcard => {
                let card = self.pile.pop().expect("the upcard is on the pile");
                self.take(player, card);
                events.emit(Event::TookUpcard { player, card });
                self.phase = Phase::Discard;
            }
            Action::PassUpcard => {
                events.emit(Event::PassedUpcard { player });
                self.passes += 1;
                self.to_act = player.opponent();
                if self.passes == 2 {
                    self.phase = Phase::Draw;
                }
            }
            Action::DrawStock => {
                let card = self.stock.pop().expect("the stock is above its floor");
                self.hands[player].insert(card);
                self.draws += 1;
                self.phase = Phase::Discard;
                events.emit(Event::DrewStock { player, card: Some(card) });
            }
            Action::DrawPile => {
                let card = self.pile.pop().expect("the pile is not empty");
                self.take(player, card);
                self.draws += 1;
                self.phase = Phase::Discard;
                events.emit(Event::DrewPile { player, card });
            }
            Action::Discard { card } => {
                self.discard(player, card);
                events.emit(Event::Discarded { player, card });
                self.end_turn(rules, player, events);
            }
            Action::Knock { discard } => {
                self.discard(player, discard);
                let shown = shown.expect("a knock is checked with its showing");
                let kind = if shown.deadwood() == 0 { KnockKind::Gin } else { KnockKind::Knock };
                self.knocked(rules, player, kind, Some(discard), shown, events);
            }
            Action::BigGin => {
                self.taken = None;
                let shown = shown.expect("big gin is checked with its showing");
                self.knocked(rules, player, KnockKind::BigGin, None, shown, events);
            }
            Action::LayOff => {
                let shown = shown.expect("a defense is checked with its showing");
                self.defended(rules, player, shown, events);
            }
        }
    }

    fn take(&mut self, player: Player, card: Card) {
        self.hands[player].insert(card);
        self.known[player].insert(card);
        self.taken = Some(card);
    }

    fn discard(&mut self, player: Player, card: Card) {
        self.hands[player].remove(card);
        self.known[player].remove(card);
        self.pile.push(card);
        self.taken = None;
    }

    /// After a discard without a knock: the stock's floor, the draw cap, or the next turn.
    fn end_turn(&mut self, rules: &Ruleset, player: Player, events: &mut impl EventSink) {
        let floor = rules.stock_floor as usize;
        if self.stock.len() <= floor && rules.stock_end == StockEnd::Reshuffle && self.draws < MAX_DRAWS {
            self.rebuild_stock(events);
        }
        if self.stock.len() <= floor || self.draws >= MAX_DRAWS {
            self.end(HandScore::dead(), None, events);
            return;
        }
        self.to_act = player.opponent();
        self.phase = Phase::Draw;
    }

    /// The `reshuffle` rule: the pile but its top card, with what is left of the stock, is
    /// shuffled into a new stock.
    fn rebuild_stock(&mut self, events: &mut impl EventSink) {
        let Some(top) = self.pile.pop() else { return };
        let mut cards: Vec<Card> = self.stock.as_slice().to_vec();
        cards.extend_from_slice(self.pile.as_slice());
        self.rebuilds += 1;
        let mut rng = random::seeded_rng(random::derive_seed(self.shuffle_seed, u64::from(self.rebuilds)));
        random::shuffle(&mut rng, &mut cards);
        self.stock = Pile::of(cards);
        self.pile = Pile::of([top]);
        events.emit(Event::StockRebuilt { size: self.stock.len() });
    }

    fn knocked<E: EventSink>(
        &mut self,
        rules: &Ruleset,
        player: Player,
        kind: KnockKind,
        discard: Option<Card>,
        shown: Showing,
        events: &mut E,
    ) {
        events.emit(Event::Knocked { player, kind, discard, shown });
        self.knock = Some(Knock { player, kind, shown });
        let defender = player.opponent();
        self.to_act = defender;
        if rules.allows_layoffs(kind) {
            self.phase = Phase::LayOff;
        } else if E::SILENT {
            self.score_only(rules, rules.solver().min_deadwood(self.hands[defender]));
        } else {
            // No layoffs against gin, or under a no-layoff house rule: the defender's best melds.
            let own = rules.solver().best_arrangement(self.hands[defender]);
            let own = Showing::of_arrangement(&own).expect("ten cards hold at most three melds");
            self.defended(rules, defender, own, events);
        }
    }

    fn defended(&mut self, rules: &Ruleset, defender: Player, own: Showing, events: &mut impl EventSink) {
        let knock = self.knock.expect("a knock is being answered");
        let mut shown = ByPlayer::new(own, own);
        shown[knock.player] = knock.shown;
        let showdown = Showdown { knocker: knock.player, kind: knock.kind, shown };
        debug_assert_eq!(showdown.defender(), defender);
        let score = showdown.score(rules, self.upcard);
        self.end(score, Some(showdown), events);
    }

    /// Ends the hand answering the knock with its score alone, the defender's side being its
    /// least `deadwood` (what its showing would count): for a silent sink.
    fn score_only(&mut self, rules: &Ruleset, deadwood: u32) {
        let knock = self.knock.expect("a knock is being answered");
        let score = score_hand(rules, knock.player, knock.kind, knock.shown.deadwood(), deadwood, self.upcard);
        self.to_act = knock.player.opponent();
        self.end(score, None, &mut ());
    }

    fn end(&mut self, score: HandScore, showdown: Option<Showdown>, events: &mut impl EventSink) {
        self.phase = Phase::Over;
        self.taken = None;
        self.score = Some(score);
        // The game adds the running points to this event.
        events.emit(Event::HandEnded { score, points: ByPlayer::default(), showdown });
    }
}

/// What the referee shows for a player holding `hand` who plays `action` in `phase` (answering
/// `knock` in the lay-off phase): see [`Deal::engine_showing`].
pub(crate) fn referee_showing(
    rules: &Ruleset,
    phase: Phase,
    hand: CardSet,
    knock: Option<&Knock>,
    action: Action,
) -> Option<Showing> {
    let solver = rules.solver();
    let shown = match (phase, action) {
        (Phase::Discard, Action::Knock { discard }) if hand.contains(discard) => {
            solver.best_arrangement(hand.without(discard))
        }
        (Phase::Discard, Action::BigGin) => solver.best_arrangement(hand),
        (Phase::LayOff, Action::LayOff) => {
            let knock = knock?;
            return solver.defend(rules.layoff_melds(knock.kind, &knock.shown), hand).showing();
        }
        _ => return None,
    };
    Showing::of_arrangement(&shown)
}

/// Checks that `shown` shows exactly `cards`, in melds that are melds under the ace rule.
fn check_melds(shown: &Showing, cards: CardSet, rules: &Ruleset) -> Result<(), PlayError> {
    if shown.hand() != cards {
        return Err(PlayError::WrongCardsShown { expected: cards, found: shown.hand() });
    }
    for meld in shown.melds() {
        Meld::new(meld.cards(), rules.ace_high)?;
    }
    Ok(())
}

/// A new hand from a seeded deck: the deck of hand `number` of the game seeded `seed`.
pub(crate) fn deal(rules: &Ruleset, dealer: Player, seed: u64) -> Deal {
    let deck = Deck::shuffled(&mut random::seeded_rng(seed));
    let setup = HandSetup::deal(dealer, &deck);
    Deal::new(rules, &setup, random::derive_seed(seed, 1)).expect("a full deck deals a valid hand")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_compact_and_copy() {
        fn copy<T: Copy>() {}
        copy::<Deal>();
        assert!(size_of::<Deal>() <= 320, "{}", size_of::<Deal>());
    }
}
