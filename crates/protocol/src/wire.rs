//! The messages a host sends, as the wire carries them (the current version, [`crate::version::VERSION`]):
//! owned types that serialize to exactly the documented JSON and read it back leniently, every
//! field they do not know ignored at every depth. Each converts from the engine's own type
//! (`From`) and back (`TryFrom` where the engine checks what it is given).

use gin_cards::{Card, CardSet};
use gin_engine::{Action, Event, Knock, Phase, PlayerView};
use gin_rules::settings::Settings;
use gin_rules::{
    ByPlayer, GameResult, GameScore, HandOutcome, HandScore, KnockKind, Meld, Player, Ruleset, Showdown, Showing,
    ShowingError,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A message from a host to an agent program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMessage {
    /// A game begins.
    StartGame {
        /// The protocol's version the host speaks.
        version: u32,
        /// The agent's seat.
        seat: Player,
        /// The full ruleset.
        rules: WireRules,
        /// The seed the runner gave this agent, for its random source.
        seed: u64,
    },
    /// A hand begins (sent just before its `hand_started` event).
    StartHand {
        /// The hand's number, from 1.
        number: u32,
        /// The dealer.
        dealer: Player,
        /// The first upcard.
        upcard: Card,
        /// The most deadwood a player may knock with in this hand.
        knock_limit: u32,
        /// The agent's ten cards.
        hand: CardSet,
        /// The game's hand points so far.
        points: ByPlayer<u32>,
    },
    /// Something happened, as this agent may see it.
    Event {
        /// The event.
        event: WireEvent,
    },
    /// The agent must answer with one action.
    Decide {
        /// The decision's number (from 1, counting every `decide` sent to this program), which
        /// an answer echoes so that a line written out of turn is never taken for it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The legal actions.
        legal: Vec<WireAction>,
        /// What the agent may know, less the rules (sent in `start_game`).
        view: WireView,
    },
    /// The game ended.
    EndGame {
        /// Its result.
        result: GameResult,
    },
    /// The host is done: the program should exit.
    Quit,
}

impl HostMessage {
    /// `start_game` in the current version.
    pub fn start_game(seat: Player, rules: &Ruleset, seed: u64) -> HostMessage {
        HostMessage::StartGame { version: crate::version::VERSION, seat, rules: WireRules(rules.clone()), seed }
    }

    /// `decide` number `id`, with its legal actions and the view.
    pub fn decide(id: u64, legal: &[Action], view: &PlayerView<'_>) -> HostMessage {
        HostMessage::Decide {
            id: Some(id),
            legal: legal.iter().map(|&action| action.into()).collect(),
            view: view.into(),
        }
    }

    /// The message as one line of JSON, without its line break.
    pub fn to_line(&self) -> String {
        // These types always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A ruleset on the wire: written as a house-rules file holds it, every setting by name; read
/// leniently, a setting this side does not know ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireRules(pub Ruleset);

impl Serialize for WireRules {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for WireRules {
    /// Every setting the rules know, checked as a house-rules file is; a setting they do not
    /// know (a host's newer rule) is left out.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<WireRules, D::Error> {
        let mut value = serde_json::Value::deserialize(deserializer)?;
        if let serde_json::Value::Object(settings) = &mut value {
            settings.retain(|name, _| name == "preset" || Ruleset::setting(name).is_ok());
        }
        serde_json::from_value::<Ruleset>(value).map(WireRules).map_err(serde::de::Error::custom)
    }
}

/// An action in a `decide`'s `legal` list: read leniently, unlike an [`crate::Answer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum WireAction {
    TakeUpcard,
    PassUpcard,
    DrawStock,
    DrawPile,
    Discard { card: Card },
    Knock { discard: Card },
    BigGin,
    LayOff,
}

impl From<Action> for WireAction {
    fn from(action: Action) -> WireAction {
        match action {
            Action::TakeUpcard => WireAction::TakeUpcard,
            Action::PassUpcard => WireAction::PassUpcard,
            Action::DrawStock => WireAction::DrawStock,
            Action::DrawPile => WireAction::DrawPile,
            Action::Discard { card } => WireAction::Discard { card },
            Action::Knock { discard } => WireAction::Knock { discard },
            Action::BigGin => WireAction::BigGin,
            Action::LayOff => WireAction::LayOff,
        }
    }
}

impl From<WireAction> for Action {
    fn from(action: WireAction) -> Action {
        match action {
            WireAction::TakeUpcard => Action::TakeUpcard,
            WireAction::PassUpcard => Action::PassUpcard,
            WireAction::DrawStock => Action::DrawStock,
            WireAction::DrawPile => Action::DrawPile,
            WireAction::Discard { card } => Action::Discard { card },
            WireAction::Knock { discard } => Action::Knock { discard },
            WireAction::BigGin => Action::BigGin,
            WireAction::LayOff => Action::LayOff,
        }
    }
}

/// The cards one player lays down (the engine's [`Showing`]): its melds in playing order, the
/// cards laid off, the rest and their value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireShowing {
    /// The melds, each in playing order.
    pub melds: Vec<Meld>,
    /// The cards laid off on the knocker's melds.
    #[serde(default)]
    pub laid_off: CardSet,
    /// The cards neither melded nor laid off.
    pub unmelded: CardSet,
    /// Their value.
    pub deadwood: u32,
}

impl From<&Showing> for WireShowing {
    fn from(shown: &Showing) -> WireShowing {
        WireShowing {
            melds: shown.melds().to_vec(),
            laid_off: shown.laid_off(),
            unmelded: shown.unmelded(),
            deadwood: shown.deadwood(),
        }
    }
}

impl TryFrom<&WireShowing> for Showing {
    type Error = ShowingError;

    fn try_from(shown: &WireShowing) -> Result<Showing, ShowingError> {
        Showing::from_parts(&shown.melds, shown.laid_off, shown.unmelded, shown.deadwood)
    }
}

/// The knock being answered (the engine's [`Knock`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireKnock {
    /// The knocker.
    pub player: Player,
    /// Knock, gin or big gin.
    pub kind: KnockKind,
    /// What the knocker laid down.
    pub shown: WireShowing,
}

impl From<&Knock> for WireKnock {
    fn from(knock: &Knock) -> WireKnock {
        WireKnock { player: knock.player, kind: knock.kind, shown: (&knock.shown).into() }
    }
}

impl TryFrom<&WireKnock> for Knock {
    type Error = ShowingError;

    fn try_from(knock: &WireKnock) -> Result<Knock, ShowingError> {
        Ok(Knock { player: knock.player, kind: knock.kind, shown: (&knock.shown).try_into()? })
    }
}

/// A hand's score (the engine's [`HandScore`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireScore {
    /// How the hand ended.
    pub outcome: HandOutcome,
    /// Who scores, `None` for nobody.
    pub winner: Option<Player>,
    /// The points scored.
    pub points: u32,
    /// The deadwood part.
    pub base: u32,
    /// The undercut, gin or big gin bonus.
    pub bonus: u32,
    /// Whether a spade upcard doubled the hand.
    pub doubled: bool,
}

impl From<&HandScore> for WireScore {
    fn from(score: &HandScore) -> WireScore {
        WireScore {
            outcome: score.outcome,
            winner: score.winner,
            points: score.points,
            base: score.base,
            bonus: score.bonus,
            doubled: score.doubled,
        }
    }
}

impl From<&WireScore> for HandScore {
    fn from(score: &WireScore) -> HandScore {
        HandScore {
            outcome: score.outcome,
            winner: score.winner,
            points: score.points,
            base: score.base,
            bonus: score.bonus,
            doubled: score.doubled,
        }
    }
}

/// What both players showed at a hand's end (the engine's [`Showdown`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireShowdown {
    /// The knocker.
    pub knocker: Player,
    /// Knock, gin or big gin.
    pub kind: KnockKind,
    /// Both players' showings, `[seat one, seat two]`.
    pub shown: ByPlayer<WireShowing>,
}

impl From<&Showdown> for WireShowdown {
    fn from(showdown: &Showdown) -> WireShowdown {
        WireShowdown {
            knocker: showdown.knocker,
            kind: showdown.kind,
            shown: ByPlayer::new((&showdown.shown[Player::One]).into(), (&showdown.shown[Player::Two]).into()),
        }
    }
}

impl TryFrom<&WireShowdown> for Showdown {
    type Error = ShowingError;

    fn try_from(showdown: &WireShowdown) -> Result<Showdown, ShowingError> {
        Ok(Showdown {
            knocker: showdown.knocker,
            kind: showdown.kind,
            shown: ByPlayer::new(
                (&showdown.shown[Player::One]).try_into()?,
                (&showdown.shown[Player::Two]).try_into()?,
            ),
        })
    }
}

/// An event as the wire carries it (the engine's [`Event`], tagged by `event`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum WireEvent {
    /// A game began.
    GameStarted { rules: WireRules, first_dealer: Player },
    /// A hand was dealt (`hands`: the agent's own cards, `None` for the opponent's).
    HandStarted { number: u32, dealer: Player, upcard: Card, knock_limit: u32, hands: ByPlayer<Option<CardSet>> },
    /// A player took the first upcard.
    TookUpcard { player: Player, card: Card },
    /// A player refused the first upcard.
    PassedUpcard { player: Player },
    /// A player drew from the stock (`card`: `None` where hidden).
    DrewStock { player: Player, card: Option<Card> },
    /// A player drew the top of the discard pile.
    DrewPile { player: Player, card: Card },
    /// A player discarded without knocking.
    Discarded { player: Player, card: Card },
    /// The stock was rebuilt from the pile.
    StockRebuilt { size: usize },
    /// A player knocked, went gin or big gin, and showed its hand.
    Knocked { player: Player, kind: KnockKind, discard: Option<Card>, shown: WireShowing },
    /// A hand ended.
    HandEnded { score: WireScore, points: ByPlayer<u32>, showdown: Option<WireShowdown> },
    /// The game ended.
    GameEnded { result: GameResult },
}

impl From<&Event> for WireEvent {
    fn from(event: &Event) -> WireEvent {
        match *event {
            Event::GameStarted { ref rules, first_dealer } => {
                WireEvent::GameStarted { rules: WireRules(rules.clone()), first_dealer }
            }
            Event::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                WireEvent::HandStarted { number, dealer, upcard, knock_limit, hands }
            }
            Event::TookUpcard { player, card } => WireEvent::TookUpcard { player, card },
            Event::PassedUpcard { player } => WireEvent::PassedUpcard { player },
            Event::DrewStock { player, card } => WireEvent::DrewStock { player, card },
            Event::DrewPile { player, card } => WireEvent::DrewPile { player, card },
            Event::Discarded { player, card } => WireEvent::Discarded { player, card },
            Event::StockRebuilt { size } => WireEvent::StockRebuilt { size },
            Event::Knocked { player, kind, discard, ref shown } => {
                WireEvent::Knocked { player, kind, discard, shown: shown.into() }
            }
            Event::HandEnded { ref score, points, ref showdown } => WireEvent::HandEnded {
                score: score.into(),
                points,
                showdown: showdown.as_ref().map(WireShowdown::from),
            },
            Event::GameEnded { result } => WireEvent::GameEnded { result },
        }
    }
}

impl TryFrom<&WireEvent> for Event {
    type Error = ShowingError;

    fn try_from(event: &WireEvent) -> Result<Event, ShowingError> {
        Ok(match *event {
            WireEvent::GameStarted { ref rules, first_dealer } => {
                Event::GameStarted { rules: rules.0.clone(), first_dealer }
            }
            WireEvent::HandStarted { number, dealer, upcard, knock_limit, hands } => {
                Event::HandStarted { number, dealer, upcard, knock_limit, hands }
            }
            WireEvent::TookUpcard { player, card } => Event::TookUpcard { player, card },
            WireEvent::PassedUpcard { player } => Event::PassedUpcard { player },
            WireEvent::DrewStock { player, card } => Event::DrewStock { player, card },
            WireEvent::DrewPile { player, card } => Event::DrewPile { player, card },
            WireEvent::Discarded { player, card } => Event::Discarded { player, card },
            WireEvent::StockRebuilt { size } => Event::StockRebuilt { size },
            WireEvent::Knocked { player, kind, discard, ref shown } => {
                Event::Knocked { player, kind, discard, shown: shown.try_into()? }
            }
            WireEvent::HandEnded { ref score, points, ref showdown } => Event::HandEnded {
                score: score.into(),
                points,
                showdown: showdown.as_ref().map(Showdown::try_from).transpose()?,
            },
            WireEvent::GameEnded { result } => Event::GameEnded { result },
        })
    }
}

/// What a `decide` says the agent may know: the engine's [`PlayerView`] without its rules
/// (sent in `start_game`), owning its parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireView {
    /// The player's seat.
    pub seat: Player,
    /// The current hand's number.
    pub hand_number: u32,
    /// The dealer.
    pub dealer: Player,
    /// The hand's first upcard.
    pub upcard: Card,
    /// The knock limit.
    pub knock_limit: u32,
    /// The phase.
    pub phase: Phase,
    /// The player to act.
    pub to_act: Option<Player>,
    /// The player's cards.
    pub hand: CardSet,
    /// The discard pile, bottom first.
    pub discard_pile: Vec<Card>,
    /// The stock's size.
    pub stock_size: usize,
    /// The opponent's known cards.
    pub opponent_known: CardSet,
    /// The number of cards the opponent holds.
    pub opponent_cards: usize,
    /// The card taken from the pile this turn.
    pub taken_card: Option<Card>,
    /// How many players refused the first upcard.
    pub upcard_passes: u8,
    /// The number of draws so far in the hand.
    pub draws: u32,
    /// The knock being answered.
    pub knock: Option<WireKnock>,
    /// The game's score.
    pub score: GameScore,
}

impl From<&PlayerView<'_>> for WireView {
    fn from(view: &PlayerView<'_>) -> WireView {
        WireView {
            seat: view.seat,
            hand_number: view.hand_number,
            dealer: view.dealer,
            upcard: view.upcard,
            knock_limit: view.knock_limit,
            phase: view.phase,
            to_act: view.to_act,
            hand: view.hand,
            discard_pile: view.discard_pile.to_vec(),
            stock_size: view.stock_size,
            opponent_known: view.opponent_known,
            opponent_cards: view.opponent_cards,
            taken_card: view.taken_card,
            upcard_passes: view.upcard_passes,
            draws: view.draws,
            knock: view.knock.as_ref().map(WireKnock::from),
            score: *view.score,
        }
    }
}

impl WireView {
    /// The view as agents take it, under the game's `rules`.
    ///
    /// # Errors
    /// A knock whose showing is not one.
    pub fn as_view<'a>(&'a self, rules: &'a Ruleset) -> Result<PlayerView<'a>, ShowingError> {
        Ok(PlayerView {
            seat: self.seat,
            rules,
            hand_number: self.hand_number,
            dealer: self.dealer,
            upcard: self.upcard,
            knock_limit: self.knock_limit,
            phase: self.phase,
            to_act: self.to_act,
            hand: self.hand,
            discard_pile: &self.discard_pile,
            stock_size: self.stock_size,
            opponent_known: self.opponent_known,
            opponent_cards: self.opponent_cards,
            taken_card: self.taken_card,
            upcard_passes: self.upcard_passes,
            draws: self.draws,
            knock: self.knock.as_ref().map(Knock::try_from).transpose()?,
            score: &self.score,
        })
    }
}
