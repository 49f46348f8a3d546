//! `Game`: hands played to the target, with the dealer rule, scores and the final result.

use gin_cards::random;
use gin_rules::{GameResult, GameScore, NextDealer, Player, Ruleset, Showing};

use crate::deal::{self, Deal, HandSetup, PlayError, SetupError};
use crate::{Action, Event, LegalActions, PlayerView};

/// A game of Gin Rummy: a sequence of hands to the target score.
///
/// Each hand's deck comes from the game's seed and the hand's number, so the same seed and the
/// same actions give the same game on every machine. A game is built only by dealing it
/// ([`Game::new`], [`Game::from_setup`]) and changed only by legal actions; it is saved as its
/// event log, from which [`crate::replay`] rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Ruleset,
    seed: u64,
    number: u32,
    deal: Deal,
    score: GameScore,
    result: Option<GameResult>,
}

impl Game {
    /// A new game: the first dealer and every deck come from `seed`. Returns the game and its
    /// opening events (the game's start and the first deal).
    pub fn new(rules: &Ruleset, seed: u64) -> (Game, Vec<Event>) {
        let mut rng = random::seeded_rng(random::derive_seed(seed, 0));
        let dealer = if random::below(&mut rng, 2) == 0 { Player::One } else { Player::Two };
        let deal = deal::deal(rules, dealer, random::derive_seed(seed, 1));
        Game::start(rules, seed, deal)
    }

    /// A game whose first hand is `setup`; later hands come from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] if the setup is not a valid deal.
    pub fn from_setup(rules: &Ruleset, seed: u64, setup: &HandSetup) -> Result<(Game, Vec<Event>), SetupError> {
        let deal = Deal::new(rules, setup, random::derive_seed(random::derive_seed(seed, 1), 1))?;
        Ok(Game::start(rules, seed, deal))
    }

    fn start(rules: &Ruleset, seed: u64, deal: Deal) -> (Game, Vec<Event>) {
        let game = Game { rules: rules.clone(), seed, number: 1, deal, score: GameScore::default(), result: None };
        let started = Event::GameStarted { rules: rules.clone(), first_dealer: game.deal.dealer() };
        let dealt = game.deal.started_event(1);
        (game, vec![started, dealt])
    }

    /// The rules.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The seed every deck comes from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.number
    }

    /// The current hand (the last one, once the game is over).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The score so far.
    pub fn score(&self) -> &GameScore {
        &self.score
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The player to act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Player> {
        self.deal.to_act()
    }

    /// The actions the player to act may take (see [`Deal::legal_actions`]).
    pub fn legal_actions(&self) -> LegalActions {
        self.deal.legal_actions(&self.rules)
    }

    /// What `player` may know of the game now.
    pub fn view(&self, player: Player) -> PlayerView<'_> {
        PlayerView::new(self, player)
    }

    /// Checks `action` by `player` and applies it, showing what the referee shows for it (see
    /// [`Deal::engine_showing`]); returns the events it caused, including the end of the hand,
    /// the next deal and the end of the game where it leads there.
    ///
    /// # Errors
    /// [`PlayError`] saying why the action is refused; the game is then unchanged.
    pub fn play(&mut self, player: Player, action: Action) -> Result<Vec<Event>, PlayError> {
        self.play_with(player, action, None)
    }

    /// [`Game::play`] with the cards the player chooses to show for a knock, big gin or a
    /// defense (`None`: the referee's choice).
    ///
    /// # Errors
    /// As [`Game::play`], and for a showing that does not fit the hand or the rules.
    pub fn play_with(
        &mut self,
        player: Player,
        action: Action,
        showing: Option<&Showing>,
    ) -> Result<Vec<Event>, PlayError> {
        let mut events = Vec::new();
        self.play_into(player, action, showing, &mut events)?;
        Ok(events)
    }

    /// [`Game::play_with`] appending the events to a buffer, for loops that reuse one.
    ///
    /// # Errors
    /// As [`Game::play_with`]; the game and the buffer are then unchanged.
    pub fn play_into(
        &mut self,
        player: Player,
        action: Action,
        showing: Option<&Showing>,
        events: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        let start = events.len();
        self.deal.play(&self.rules, player, action, showing, events)?;
        self.after(events, start);
        Ok(())
    }

    /// Scores a finished hand, and deals the next one or ends the game.
    fn after(&mut self, events: &mut Vec<Event>, start: usize) {
        let mut next = None;
        for event in &mut events[start..] {
            if let Event::HandEnded { score, points, .. } = event {
                self.score.record(score);
                *points = self.score.points;
                if self.score.is_over(&self.rules) {
                    self.result = self.score.result(&self.rules);
                    next = self.result.map(|result| Event::GameEnded { result });
                } else {
                    let dealer = match (score.winner, self.rules.next_dealer) {
                        (None, _) => self.deal.dealer(),
                        (Some(_), NextDealer::Alternate) => self.deal.dealer().opponent(),
                        (Some(winner), NextDealer::Loser) => winner.opponent(),
                        (Some(winner), NextDealer::Winner) => winner,
                    };
                    self.number += 1;
                    let seed = random::derive_seed(self.seed, u64::from(self.number));
                    self.deal = deal::deal(&self.rules, dealer, seed);
                    next = Some(self.deal.started_event(self.number));
                }
            }
        }
        events.extend(next);
    }
}
