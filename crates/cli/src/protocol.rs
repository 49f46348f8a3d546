//! The external-agent protocol: the messages a host sends an agent program, one JSON object a
//! line (docs/protocol.md). The host writes [`ToAgent`]; a program written in Rust (`gin bot`)
//! reads [`FromHost`]. The agent answers each `decide` with one [`gin_engine::Action`] line.

use gin_cards::{Card, CardSet};
use gin_engine::{Action, Event, Phase, PlayerView};
use gin_rules::{ByPlayer, GameResult, GameScore, Player, Ruleset};
use serde::{Deserialize, Serialize};

/// The protocol's version, sent in `start_game`.
pub const VERSION: u32 = 1;

/// A message to an agent, borrowing what it sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToAgent<'a> {
    /// A game begins.
    StartGame {
        /// [`VERSION`].
        version: u32,
        /// The agent's seat.
        seat: Player,
        /// The full ruleset.
        rules: &'a Ruleset,
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
        event: &'a Event,
    },
    /// The agent must answer with one action.
    Decide {
        /// The legal actions.
        legal: &'a [Action],
        /// What the agent may know, less what it was already sent: the rules (in `start_game`)
        /// and the hand's events (each in its `event` message).
        view: DecideView<'a>,
    },
    /// The game ended.
    EndGame {
        /// Its result.
        result: &'a GameResult,
    },
    /// The host is done: the program should exit.
    Quit,
}

/// Reads a program's answer: one action, with no field the action does not have (serde's
/// `deny_unknown_fields` does not reach the actions without fields, such as `draw_stock`).
///
/// # Errors
/// What is wrong with the answer.
pub fn parse_answer(text: &str) -> Result<Action, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let object = value.as_object().ok_or("an action is a JSON object")?;
    let kind = object.get("type").and_then(serde_json::Value::as_str).unwrap_or_default();
    let fields: &[&str] = match kind {
        "discard" => &["card"],
        "knock" => &["discard", "melds"],
        "big_gin" => &["melds"],
        "lay_off" => &["melds", "laid_off"],
        _ => &[],
    };
    if let Some(extra) = object.keys().find(|key| *key != "type" && !fields.contains(&key.as_str())) {
        return Err(format!("unknown field `{extra}` in a `{kind}` action"));
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// A message from a host, as an agent program reads it.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromHost {
    /// A game begins.
    StartGame {
        /// The protocol's version.
        version: u32,
        /// The agent's seat.
        seat: Player,
        /// The full ruleset.
        rules: Ruleset,
        /// The seed for the agent's random source.
        seed: u64,
    },
    /// A hand begins (its fields are read from the `hand_started` event that follows).
    StartHand {},
    /// Something happened.
    Event {
        /// The event.
        event: Event,
    },
    /// Answer with one action.
    Decide {
        /// The legal actions.
        legal: Vec<Action>,
        /// What the agent may know.
        view: OwnedView,
    },
    /// The game ended.
    EndGame {
        /// Its result.
        result: GameResult,
    },
    /// Exit.
    Quit,
}

/// The view a `decide` carries: a [`PlayerView`] without its rules and events.
#[derive(Debug, Serialize)]
pub struct DecideView<'a> {
    seat: Player,
    hand_number: u32,
    dealer: Player,
    knock_limit: u32,
    phase: Phase,
    to_act: Option<Player>,
    hand: CardSet,
    discard_pile: &'a [Card],
    stock_size: usize,
    opponent_known: CardSet,
    opponent_cards: usize,
    taken_card: Option<Card>,
    score: &'a GameScore,
}

impl<'a> DecideView<'a> {
    /// The parts of `view` a `decide` sends.
    pub fn of(view: &PlayerView<'a>) -> DecideView<'a> {
        DecideView {
            seat: view.seat,
            hand_number: view.hand_number,
            dealer: view.dealer,
            knock_limit: view.knock_limit,
            phase: view.phase,
            to_act: view.to_act,
            hand: view.hand,
            discard_pile: view.discard_pile,
            stock_size: view.stock_size,
            opponent_known: view.opponent_known,
            opponent_cards: view.opponent_cards,
            taken_card: view.taken_card,
            score: view.score,
        }
    }
}

/// The view of a `decide` read from JSON, owning its parts (the rules and the hand's events come
/// from earlier messages).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct OwnedView {
    /// The player's seat.
    pub seat: Player,
    /// The current hand's number.
    pub hand_number: u32,
    /// The dealer.
    pub dealer: Player,
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
    /// The game's score.
    pub score: GameScore,
}

impl OwnedView {
    /// The view borrowed, as agents take it, with the game's rules and the hand's events so far.
    pub fn as_view<'a>(&'a self, rules: &'a Ruleset, events: &'a [Event]) -> PlayerView<'a> {
        PlayerView {
            seat: self.seat,
            rules,
            hand_number: self.hand_number,
            dealer: self.dealer,
            knock_limit: self.knock_limit,
            phase: self.phase,
            to_act: self.to_act,
            hand: self.hand,
            discard_pile: &self.discard_pile,
            stock_size: self.stock_size,
            opponent_known: self.opponent_known,
            opponent_cards: self.opponent_cards,
            taken_card: self.taken_card,
            events,
            score: &self.score,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::Game;

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(parse_answer(r#"{"type":"draw_stock"}"#), Ok(Action::DrawStock));
        assert_eq!(
            parse_answer(r#"{"type":"discard","card":"7H"}"#),
            Ok(Action::Discard { card: "7H".parse().unwrap() })
        );
        assert_eq!(
            parse_answer(r#"{"type":"draw_stock","card":"7H"}"#),
            Err("unknown field `card` in a `draw_stock` action".to_owned())
        );
        assert!(parse_answer(r#"{"type":"discard","card":"7H","why":"fun"}"#).unwrap_err().contains("`why`"));
        assert!(parse_answer(r#"{"type":"shuffle"}"#).is_err());
        assert!(parse_answer("[1,2]").is_err());
        assert!(parse_answer("draw").is_err());
    }

    #[test]
    fn what_the_host_writes_the_bot_reads_back() {
        let rules = Ruleset::eaai();
        let (game, opening) = Game::new(&rules, 5);
        let seat = game.to_act().unwrap();
        let start = ToAgent::StartGame { version: VERSION, seat, rules: &rules, seed: 9 };
        let line = serde_json::to_string(&start).unwrap();
        assert!(line.starts_with(r#"{"type":"start_game","version":1,"seat":"#), "{line}");
        let FromHost::StartGame { version, rules: read, seed, .. } = serde_json::from_str(&line).unwrap() else {
            panic!("{line}")
        };
        assert_eq!((version, &read, seed), (VERSION, &rules, 9));

        let event = opening[0].seen_by(seat);
        let line = serde_json::to_string(&ToAgent::Event { event: &event }).unwrap();
        let FromHost::Event { event: read } = serde_json::from_str(&line).unwrap() else { panic!("{line}") };
        assert_eq!(read, event);

        let legal = game.legal_actions();
        let view = game.view(seat);
        let line = serde_json::to_string(&ToAgent::Decide { legal: &legal, view: DecideView::of(&view) }).unwrap();
        assert!(!line.contains("\"events\"") && !line.contains("\"rules\""), "{line}");
        let FromHost::Decide { legal: read, view: owned } = serde_json::from_str(&line).unwrap() else {
            panic!("{line}")
        };
        assert_eq!(read, legal);
        assert_eq!(owned.as_view(&rules, view.events), view);

        let line = serde_json::to_string(&ToAgent::Quit).unwrap();
        assert_eq!(line, r#"{"type":"quit"}"#);
        assert!(matches!(serde_json::from_str(&line).unwrap(), FromHost::Quit));
    }
}
