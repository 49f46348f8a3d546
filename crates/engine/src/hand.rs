//! `Hand`: one hand of Gin Rummy, from the deal to the score.

use gin_cards::{Card, CardSet, Deck, random};
use gin_rules::{Arrangement, ByPlayer, HandScore, KnockKind, Meld, MeldError, Player, Ruleset, StockEnd, score_hand};

use crate::{Action, Event};

/// A hand ends dead after this many draws whatever the rules say, so that no pair of agents can
/// play one hand forever (RULES.md rule 21); a hand with a dead-hand floor never gets near it.
pub const MAX_DRAWS: u32 = 500;

/// Where a hand is: who may do what next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The first upcard is offered to the non-dealer, then to the dealer (RULES.md rule 7).
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

/// The cards of a hand before play, for setting up a particular position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// Why a [`HandSetup`] is not a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A player does not hold ten cards.
    #[error("{player} holds {count} cards: a hand starts with 10")]
    HandSize {
        /// The player.
        player: Player,
        /// How many cards.
        count: usize,
    },
    /// The stock does not hold the 31 other cards.
    #[error("the stock holds {count} cards: it starts with the 31 cards not dealt")]
    StockSize {
        /// How many cards.
        count: usize,
    },
    /// A card appears twice.
    #[error("{card} is dealt twice")]
    Duplicate {
        /// The card.
        card: Card,
    },
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
    /// A named meld is not a meld.
    #[error("invalid meld: {0}")]
    InvalidMeld(#[from] MeldError),
    /// Named melds overlap or use cards not held.
    #[error("invalid arrangement: {0}")]
    InvalidArrangement(#[from] gin_rules::ArrangementError),
    /// Named layoffs that do not fit the knocker's melds.
    #[error("cannot lay off {cards} on the knocker's melds")]
    InvalidLayoff {
        /// The cards that do not fit.
        cards: CardSet,
    },
    /// Layoffs where the rules allow none.
    #[error("laying off is not allowed under these rules")]
    LayoffsOff,
    /// The same card both melded and laid off.
    #[error("{cards} cannot be both melded and laid off")]
    MeldedAndLaidOff {
        /// The cards named twice.
        cards: CardSet,
    },
}

/// The knock being answered: who knocked and what it showed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Knock {
    /// The knocker.
    pub player: Player,
    /// Knock, gin or big gin.
    pub kind: KnockKind,
    /// The melds shown.
    pub melds: Vec<Meld>,
    /// The knocker's deadwood.
    pub deadwood: u32,
}

/// One hand of Gin Rummy: the cards, whose turn it is and what they may do.
///
/// `legal_actions` lists the actions of the player to act; `play` checks an action and applies it,
/// returning the events it caused, or refuses it with a [`PlayError`] and changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hand {
    pub(crate) rules: Ruleset,
    pub(crate) dealer: Player,
    pub(crate) upcard: Card,
    pub(crate) knock_limit: u32,
    pub(crate) hands: ByPlayer<CardSet>,
    /// Top card last.
    pub(crate) stock: Vec<Card>,
    /// Top card last.
    pub(crate) pile: Vec<Card>,
    pub(crate) phase: Phase,
    pub(crate) to_act: Player,
    /// How many players have refused the first upcard.
    pub(crate) passes: u8,
    /// The card the player to act took from the discard pile this turn.
    pub(crate) taken: Option<Card>,
    /// The cards each player took from the discard pile and still holds.
    pub(crate) known: ByPlayer<CardSet>,
    pub(crate) draws: u32,
    /// Seeds the shuffles of a rebuilt stock.
    pub(crate) shuffle_seed: u64,
    pub(crate) rebuilds: u32,
    pub(crate) knock: Option<Knock>,
    pub(crate) score: Option<HandScore>,
}

impl Hand {
    /// A hand from a setup; `shuffle_seed` seeds any rebuilding of the stock.
    ///
    /// # Errors
    /// [`SetupError`] unless the hands hold ten cards each, the stock the 31 others, and no card
    /// appears twice.
    pub fn new(rules: &Ruleset, setup: &HandSetup, shuffle_seed: u64) -> Result<Hand, SetupError> {
        let mut seen = CardSet::EMPTY;
        for player in Player::ALL {
            let count = setup.hands[player].len();
            if count != 10 {
                return Err(SetupError::HandSize { player, count });
            }
            if let Some(card) = (seen & setup.hands[player]).first() {
                return Err(SetupError::Duplicate { card });
            }
            seen |= setup.hands[player];
        }
        if setup.stock.len() != 31 {
            return Err(SetupError::StockSize { count: setup.stock.len() });
        }
        for &card in std::iter::once(&setup.upcard).chain(&setup.stock) {
            if !seen.insert(card) {
                return Err(SetupError::Duplicate { card });
            }
        }
        Ok(Hand {
            rules: rules.clone(),
            dealer: setup.dealer,
            upcard: setup.upcard,
            knock_limit: rules.knock_limit_for(setup.upcard),
            hands: setup.hands,
            stock: setup.stock.iter().rev().copied().collect(),
            pile: vec![setup.upcard],
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
        &self.pile
    }

    /// The number of cards in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// The stock, top card first.
    pub fn stock(&self) -> impl Iterator<Item = Card> + '_ {
        self.stock.iter().rev().copied()
    }

    /// The cards `player` took from the discard pile and still holds: what its opponent knows.
    pub fn known(&self, player: Player) -> CardSet {
        self.known[player]
    }

    /// The card the player to act took from the discard pile this turn, if any.
    pub fn taken_card(&self) -> Option<Card> {
        self.taken
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

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Every card of the hand: both hands, the stock and the pile (all 52, each once).
    pub fn all_cards(&self) -> (CardSet, usize) {
        let mut set = self.hands[Player::One] | self.hands[Player::Two];
        let mut count = self.hands[Player::One].len() + self.hands[Player::Two].len();
        for &card in self.stock.iter().chain(&self.pile) {
            set.insert(card);
            count += 1;
        }
        (set, count)
    }

    /// The actions the player to act may take. Knocks are listed with `melds: None` and the
    /// defender's answer as [`Action::LAY_OFF_BEST`]; naming an arrangement is also legal where
    /// it is valid.
    pub fn legal_actions(&self) -> Vec<Action> {
        // 11 discards, as many knocks, and big gin: one allocation, never a regrowth.
        let mut actions = Vec::with_capacity(if self.phase == Phase::Discard { 23 } else { 2 });
        self.legal_actions_into(&mut actions);
        actions
    }

    /// [`Hand::legal_actions`] into a buffer (cleared first), for loops that reuse one.
    pub fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        match self.phase {
            Phase::UpcardOffer => actions.extend([Action::TakeUpcard, Action::PassUpcard]),
            Phase::Draw => {
                actions.push(Action::DrawStock);
                if self.passes < 2 && !self.pile.is_empty() {
                    actions.push(Action::DrawPile);
                }
            }
            Phase::Discard => {
                let hand = self.hands[self.to_act];
                let solver = self.rules.solver();
                // Discarding a card lowers the deadwood by at most its value (10), so most hands
                // are ruled out by one cheap solve before the full search of discards.
                let may_knock = solver.min_deadwood(hand) <= self.knock_limit + 10
                    && solver.best_discards(hand).deadwood <= self.knock_limit;
                let discardable = match self.taken {
                    Some(taken) if !self.rules.may_discard_taken_card => hand.without(taken),
                    _ => hand,
                };
                if may_knock {
                    for card in discardable {
                        actions.push(Action::Discard { card });
                        if solver.min_deadwood(hand.without(card)) <= self.knock_limit {
                            actions.push(Action::knock(card));
                        }
                    }
                } else {
                    actions.extend(discardable.iter().map(|card| Action::Discard { card }));
                }
                if self.rules.big_gin_bonus.is_some() && solver.is_all_melded(hand) {
                    actions.push(Action::BigGin { melds: None });
                }
            }
            Phase::LayOff => actions.push(Action::LAY_OFF_BEST),
            Phase::Over => {}
        }
    }

    /// Checks `action` by `player` and applies it; returns the events it caused.
    ///
    /// # Errors
    /// [`PlayError`] saying why the action is refused; the hand is then unchanged.
    pub fn play(&mut self, player: Player, action: &Action) -> Result<Vec<Event>, PlayError> {
        let mut events = Vec::new();
        self.play_into(player, action, &mut events)?;
        Ok(events)
    }

    /// [`Hand::play`] appending the events to a buffer, for loops that reuse one.
    ///
    /// # Errors
    /// As [`Hand::play`]; the hand and the buffer are then unchanged.
    pub fn play_into(&mut self, player: Player, action: &Action, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let plan = self.check(player, action)?;
        self.apply(player, action, plan, events);
        Ok(())
    }

    /// Applies an action known to be legal, appending its events to `events`: for agents' inner
    /// loops, which need no checks.
    ///
    /// # Panics
    /// May panic, or leave the hand inconsistent, if the action is not legal.
    pub fn play_unchecked(&mut self, player: Player, action: &Action, events: &mut Vec<Event>) {
        // Knocks and defenses are rare and need their arrangement worked out: check them.
        let plan = match action {
            Action::Knock { .. } | Action::BigGin { .. } | Action::LayOff { .. } => {
                self.check(player, action).expect("play_unchecked: an illegal action")
            }
            _ => Plan::Simple,
        };
        self.apply(player, action, plan, events);
    }

    /// Whether `action` is legal, and what the engine will show for a knock or a defense.
    fn check(&self, player: Player, action: &Action) -> Result<Plan, PlayError> {
        if self.phase == Phase::Over {
            return Err(PlayError::Over);
        }
        if player != self.to_act {
            return Err(PlayError::WrongPlayer { player, expected: self.to_act });
        }
        let wrong_phase = |expected| Err(PlayError::WrongPhase { action: action.clone(), expected });
        let hand = self.hands[player];
        match (self.phase, action) {
            (Phase::UpcardOffer, Action::TakeUpcard | Action::PassUpcard) => Ok(Plan::Simple),
            (Phase::UpcardOffer, _) => wrong_phase("take or pass the first upcard"),
            (Phase::Draw, Action::DrawStock) => Ok(Plan::Simple),
            (Phase::Draw, Action::DrawPile) if self.passes >= 2 => Err(PlayError::UpcardRefused),
            (Phase::Draw, Action::DrawPile) if self.pile.is_empty() => Err(PlayError::EmptyPile),
            (Phase::Draw, Action::DrawPile) => Ok(Plan::Simple),
            (Phase::Draw, _) => wrong_phase("draw from the stock or the discard pile"),
            (Phase::Discard, Action::Discard { card }) => {
                self.check_discard(player, *card)?;
                Ok(Plan::Simple)
            }
            (Phase::Discard, Action::Knock { discard, melds }) => {
                self.check_discard(player, *discard)?;
                let arrangement = self.arrangement(hand.without(*discard), melds.as_deref())?;
                if arrangement.deadwood() > self.knock_limit {
                    return Err(PlayError::OverKnockLimit {
                        deadwood: arrangement.deadwood(),
                        limit: self.knock_limit,
                    });
                }
                Ok(Plan::Show(arrangement))
            }
            (Phase::Discard, Action::BigGin { melds }) => {
                if self.rules.big_gin_bonus.is_none() {
                    return Err(PlayError::BigGinOff);
                }
                let arrangement = self.arrangement(hand, melds.as_deref())?;
                if arrangement.deadwood() > 0 {
                    return Err(PlayError::NotBigGin { deadwood: arrangement.deadwood() });
                }
                Ok(Plan::Show(arrangement))
            }
            (Phase::Discard, _) => wrong_phase("discard, knock or go big gin"),
            (Phase::LayOff, Action::LayOff { melds, laid_off }) => {
                self.check_defense(hand, melds.as_deref(), *laid_off)
            }
            (Phase::LayOff, _) => wrong_phase("answer the knock (lay off)"),
            (Phase::Over, _) => Err(PlayError::Over),
        }
    }

    fn check_discard(&self, player: Player, card: Card) -> Result<(), PlayError> {
        if !self.hands[player].contains(card) {
            return Err(PlayError::NotInHand { player, card });
        }
        if Some(card) == self.taken && !self.rules.may_discard_taken_card {
            return Err(PlayError::TakenCard { card });
        }
        Ok(())
    }

    /// The named melds of `cards` checked under the rules, or a best arrangement.
    fn arrangement(&self, cards: CardSet, named: Option<&[CardSet]>) -> Result<Arrangement, PlayError> {
        let Some(named) = named else { return Ok(self.rules.solver().best_arrangement(cards)) };
        let melds = checked_melds(named, self.rules.ace_high)?;
        Ok(Arrangement::new(cards, &melds)?)
    }

    /// The defender's answer: named parts checked, the rest chosen as well as possible.
    fn check_defense(
        &self,
        hand: CardSet,
        melds: Option<&[CardSet]>,
        laid_off: Option<CardSet>,
    ) -> Result<Plan, PlayError> {
        let solver = self.rules.solver();
        let knock = self.knock.as_ref().ok_or(PlayError::Over)?;
        let targets: &[Meld] = if self.rules.layoffs { &knock.melds } else { &[] };
        if let Some(laid) = laid_off {
            if !laid.is_empty() && !self.rules.layoffs {
                return Err(PlayError::LayoffsOff);
            }
            if let Some(card) = (laid - hand).first() {
                return Err(PlayError::NotInHand { player: self.to_act, card });
            }
            let reach = solver.layoff_reach(targets, laid);
            if !laid.is_subset(reach) {
                return Err(PlayError::InvalidLayoff { cards: laid - reach });
            }
        }
        let own = match melds {
            Some(named) => {
                let melds = checked_melds(named, self.rules.ace_high)?;
                let melded = Arrangement::new(hand, &melds)?.melded();
                if let Some(both) = laid_off.map(|laid| laid & melded).filter(|both| !both.is_empty()) {
                    return Err(PlayError::MeldedAndLaidOff { cards: both });
                }
                Some((melds, melded))
            }
            None => None,
        };
        let (arrangement, laid) = match (own, laid_off) {
            (Some((melds, _)), Some(laid)) => (Arrangement::new(hand - laid, &melds)?, laid),
            (Some((mut melds, melded)), None) => {
                // Lay off the best way from the cards the defender left unmelded.
                let defense = solver.defend(targets, hand - melded);
                melds.extend_from_slice(defense.arrangement.melds());
                (Arrangement::new(hand - defense.laid_off, &melds)?, defense.laid_off)
            }
            (None, Some(laid)) => (solver.best_arrangement(hand - laid), laid),
            (None, None) => {
                let defense = solver.defend(targets, hand);
                (defense.arrangement, defense.laid_off)
            }
        };
        Ok(Plan::Defend(arrangement, laid))
    }

    /// Applies a checked action.
    fn apply(&mut self, player: Player, action: &Action, plan: Plan, events: &mut Vec<Event>) {
        match action {
            Action::TakeUpcard => {
                let card = self.pile.pop().expect("the upcard is on the pile");
                self.take(player, card);
                events.push(Event::TookUpcard { player, card });
                self.phase = Phase::Discard;
            }
            Action::PassUpcard => {
                events.push(Event::PassedUpcard { player });
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
                events.push(Event::DrewStock { player, card: Some(card) });
            }
            Action::DrawPile => {
                let card = self.pile.pop().expect("the pile is not empty");
                self.take(player, card);
                self.draws += 1;
                self.phase = Phase::Discard;
                events.push(Event::DrewPile { player, card });
            }
            Action::Discard { card } => {
                self.discard(player, *card);
                events.push(Event::Discarded { player, card: *card });
                self.end_turn(player, events);
            }
            Action::Knock { discard, .. } => {
                self.discard(player, *discard);
                let Plan::Show(arrangement) = plan else { unreachable!("a knock is planned") };
                let kind = if arrangement.deadwood() == 0 { KnockKind::Gin } else { KnockKind::Knock };
                self.knocked(player, kind, Some(*discard), arrangement, events);
            }
            Action::BigGin { .. } => {
                let Plan::Show(arrangement) = plan else { unreachable!("big gin is planned") };
                self.taken = None;
                self.knocked(player, KnockKind::BigGin, None, arrangement, events);
            }
            Action::LayOff { .. } => {
                let Plan::Defend(arrangement, laid_off) = plan else { unreachable!("a defense is planned") };
                self.defended(player, arrangement, laid_off, events);
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
    fn end_turn(&mut self, player: Player, events: &mut Vec<Event>) {
        let floor = self.rules.stock_floor as usize;
        if self.stock.len() <= floor && self.rules.stock_end == StockEnd::Reshuffle && self.draws < MAX_DRAWS {
            self.rebuild_stock(events);
        }
        if self.stock.len() <= floor || self.draws >= MAX_DRAWS {
            self.end(HandScore::dead(), events);
            return;
        }
        self.to_act = player.opponent();
        self.phase = Phase::Draw;
        // Whoever draws next after a refused upcard has had its first turn.
        self.passes = self.passes.min(1);
    }

    /// The `reshuffle` rule: the pile but its top card, with what is left of the stock, is
    /// shuffled into a new stock.
    fn rebuild_stock(&mut self, events: &mut Vec<Event>) {
        let Some(top) = self.pile.pop() else { return };
        self.stock.append(&mut self.pile);
        self.pile.push(top);
        self.rebuilds += 1;
        let mut rng = random::seeded_rng(random::derive_seed(self.shuffle_seed, u64::from(self.rebuilds)));
        random::shuffle(&mut rng, &mut self.stock);
        events.push(Event::StockRebuilt { size: self.stock.len() });
    }

    fn knocked(
        &mut self,
        player: Player,
        kind: KnockKind,
        discard: Option<Card>,
        shown: Arrangement,
        events: &mut Vec<Event>,
    ) {
        events.push(Event::Knocked {
            player,
            kind,
            discard,
            melds: shown.melds().to_vec(),
            unmelded: shown.unmelded(),
            deadwood: shown.deadwood(),
        });
        self.knock = Some(Knock { player, kind, melds: shown.melds().to_vec(), deadwood: shown.deadwood() });
        let defender = player.opponent();
        self.to_act = defender;
        if kind == KnockKind::Knock && self.rules.layoffs {
            self.phase = Phase::LayOff;
        } else {
            // No layoffs against gin, or under a no-layoff house rule: the defender's best melds.
            let own = self.rules.solver().best_arrangement(self.hands[defender]);
            self.defended(defender, own, CardSet::EMPTY, events);
        }
    }

    fn defended(&mut self, defender: Player, own: Arrangement, laid_off: CardSet, events: &mut Vec<Event>) {
        events.push(Event::LaidOff {
            player: defender,
            melds: own.melds().to_vec(),
            laid_off,
            unmelded: own.unmelded(),
            deadwood: own.deadwood(),
        });
        let knock = self.knock.as_ref().expect("a knock is being answered");
        let score = score_hand(&self.rules, knock.player, knock.kind, knock.deadwood, own.deadwood(), self.upcard);
        self.end(score, events);
    }

    fn end(&mut self, score: HandScore, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        self.taken = None;
        self.score = Some(score);
        // The game adds the running points to this event.
        events.push(Event::HandEnded { score, points: ByPlayer::default() });
    }

    /// Checks a hand read from outside (a save file) so that playing on cannot panic.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let (set, count) = self.all_cards();
        if set != CardSet::FULL || count != 52 {
            return Err(format!("the hand holds {count} cards ({} distinct): expected each of the 52 once", set.len()));
        }
        let acting = self.hands[self.to_act].len();
        let other = self.hands[self.to_act.opponent()].len();
        let sizes_ok = match self.phase {
            Phase::UpcardOffer => acting == 10 && other == 10 && self.pile.len() == 1 && self.passes < 2,
            Phase::Draw => acting == 10 && other == 10 && self.stock.len() > self.rules.stock_floor as usize,
            Phase::Discard => acting == 11 && other == 10,
            Phase::LayOff => {
                acting == 10 && other <= 10 && self.knock.as_ref().is_some_and(|k| k.player == self.to_act.opponent())
            }
            Phase::Over => self.score.is_some(),
        };
        if !sizes_ok {
            return Err(format!("the hand is inconsistent with its phase {:?}", self.phase));
        }
        if let Some(card) = self.taken
            && (self.phase != Phase::Discard || !self.hands[self.to_act].contains(card))
        {
            return Err(format!("the card taken this turn, {card}, is not in the hand of the player to act"));
        }
        for player in Player::ALL {
            if !self.known[player].is_subset(self.hands[player]) {
                return Err(format!("{player}'s known cards are not all in its hand"));
            }
        }
        if let Some(knock) = &self.knock {
            let mut used = CardSet::EMPTY;
            for meld in &knock.melds {
                Meld::new(meld.cards(), self.rules.ace_high).map_err(|e| e.to_string())?;
                if !meld.cards().is_disjoint(used) {
                    return Err("the knocker's melds overlap".to_owned());
                }
                used |= meld.cards();
            }
        }
        if self.rules.validate().is_err() || self.knock_limit > 10 {
            return Err("the hand's rules are out of range".to_owned());
        }
        Ok(())
    }
}

/// The checked form of an action that shows cards.
enum Plan {
    /// Nothing to show.
    Simple,
    /// The knocker's (or big gin's) arrangement.
    Show(Arrangement),
    /// The defender's own arrangement of the cards it keeps, and the cards it lays off.
    Defend(Arrangement, CardSet),
}

/// Named card groups checked as melds under the ace rule.
fn checked_melds(named: &[CardSet], ace_high: bool) -> Result<Vec<Meld>, MeldError> {
    named.iter().map(|&cards| Meld::new(cards, ace_high)).collect()
}

/// A new hand from a seeded deck: the deck of hand `number` of the game seeded `seed`.
pub(crate) fn deal(rules: &Ruleset, dealer: Player, seed: u64) -> Hand {
    let deck = Deck::shuffled(&mut random::seeded_rng(seed));
    let setup = HandSetup::deal(dealer, &deck);
    Hand::new(rules, &setup, random::derive_seed(seed, 1)).expect("a full deck deals a valid hand")
}
