//! The external-agent protocol: the messages a host sends an agent program, one JSON object a
//! line (docs/protocol.md). The host writes [`ToAgent`]; a program written in Rust (`gin bot`)
//! reads [`FromHost`]. The agent answers each `decide` with one action line ([`AnswerLine`]),
//! which may name the cards it shows with a knock, big gin or a defense; the host reads it with
//! [`parse_answer`] and [`Answer::showing`].

use gin_cards::{Card, CardSet};
use gin_engine::{Action, Event, Knock, Phase, PlayerView};
use gin_rules::settings::{NAME_CHARS, PARSER_CHARS};
use gin_rules::{ByPlayer, GameResult, GameScore, Meld, Player, Ruleset, Showing};
use serde::{Deserialize, Serialize};

/// The protocol's version, sent in `start_game`.
pub(crate) const VERSION: u32 = 1;

/// The longest line either side may send, its line break included: 1 MiB.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// A message to an agent, borrowing what it sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ToAgent<'a> {
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
        /// The decision's number (from 1, counting every `decide` sent to this program), which
        /// an answer may echo so that a line written out of turn is never taken for it.
        id: u64,
        /// The legal actions.
        legal: &'a [Action],
        /// What the agent may know, less the rules (sent in `start_game`).
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

/// A program's answer to a `decide`, as read: the action, and the cards it names to show with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The `id` of the decision answered, when the answer names it.
    pub id: Option<u64>,
    /// The action.
    pub action: Action,
    /// The melds named (a knock, big gin or a defense), `None` when not named.
    pub melds: Option<Vec<CardSet>>,
    /// The cards named as laid off (a defense), `None` when not named.
    pub laid_off: Option<CardSet>,
}

/// Reads a program's answer: one action, with no field the action does not have (serde's
/// `deny_unknown_fields` does not reach the actions without fields, such as `draw_stock`), and
/// the `melds` (knock, big gin, lay_off) and `laid_off` (lay_off) it may name. A field given as
/// `null` is not named.
///
/// # Errors
/// What is wrong with the answer.
pub(crate) fn parse_answer(text: &str) -> Result<Answer, String> {
    // The parser's messages may quote the answer: every one is cut short.
    let cut = |message: String| gin_cards::excerpt(&message, PARSER_CHARS);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| cut(e.to_string()))?;
    let serde_json::Value::Object(mut object) = value else { return Err("an action is a JSON object".to_owned()) };
    let kind = object.get("type").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
    let fields: &[&str] = match kind.as_str() {
        "discard" => &["card"],
        "knock" => &["discard", "melds"],
        "big_gin" => &["melds"],
        "lay_off" => &["melds", "laid_off"],
        _ => &[],
    };
    let id = match object.remove("id") {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => Some(value.as_u64().ok_or_else(|| {
            format!("`id` is {}: expected a decision's number", gin_cards::excerpt(&value.to_string(), NAME_CHARS))
        })?),
    };
    if let Some(extra) = object.keys().find(|key| *key != "type" && !fields.contains(&key.as_str())) {
        return Err(format!(
            "unknown field `{}` in a `{}` action",
            gin_cards::excerpt(extra, NAME_CHARS),
            gin_cards::excerpt(&kind, NAME_CHARS)
        ));
    }
    let named = |object: &mut serde_json::Map<String, serde_json::Value>, field: &str| {
        object.remove(field).filter(|value| !value.is_null())
    };
    let melds = named(&mut object, "melds")
        .map(serde_json::from_value::<Vec<CardSet>>)
        .transpose()
        .map_err(|e| cut(format!("`melds`: {e}: expected a list of melds, each a list of cards")))?;
    let laid_off = named(&mut object, "laid_off")
        .map(serde_json::from_value::<CardSet>)
        .transpose()
        .map_err(|e| cut(format!("`laid_off`: {e}")))?;
    let action = serde_json::from_value(serde_json::Value::Object(object)).map_err(|e| cut(e.to_string()))?;
    Ok(Answer { id, action, melds, laid_off })
}

impl Answer {
    /// The cards this answer shows from `view`'s hand, `None` when it names none (the referee
    /// then shows for the program). A knock's melds show the hand less the discard; a defense
    /// that names only its melds lays off the rest the best way and melds what is left
    /// ([`gin_rules::Solver::defend_keeping`]), one that names only its layoffs melds the rest
    /// the best way. Whether the showing fits the position (the knock limit, layoffs that reach
    /// the knocker's melds) is the referee's to say.
    ///
    /// # Errors
    /// A named meld that is not a meld under the rules, cards not in the hand, a card named
    /// twice, or more than three melds.
    pub(crate) fn showing(&self, view: &PlayerView<'_>) -> Result<Option<Showing>, String> {
        let melds = match &self.melds {
            Some(named) => Some(
                named
                    .iter()
                    .map(|&cards| Meld::new(cards, view.rules.ace_high))
                    .collect::<Result<Vec<Meld>, _>>()
                    .map_err(|e| e.to_string())?,
            ),
            None => None,
        };
        let solver = view.rules.solver();
        let shown = match (self.action, melds, self.laid_off) {
            (Action::Knock { discard }, Some(melds), _) => {
                Showing::new(view.hand.without(discard), &melds, CardSet::EMPTY)
            }
            (Action::BigGin, Some(melds), _) => Showing::new(view.hand, &melds, CardSet::EMPTY),
            (Action::LayOff, Some(melds), Some(laid_off)) => Showing::new(view.hand, &melds, laid_off),
            (Action::LayOff, Some(melds), None) => {
                let knock = view.knock.as_ref().filter(|_| view.rules.layoffs);
                let targets = knock.map_or(&[][..], |knock| knock.shown.melds());
                solver.defend_keeping(targets, view.hand, &melds)
            }
            (Action::LayOff, None, Some(laid_off)) => {
                let rest = solver.best_arrangement(view.hand - laid_off);
                Showing::new(view.hand, rest.melds(), laid_off)
            }
            _ => return Ok(None),
        };
        shown.map(Some).map_err(|e| e.to_string())
    }
}

/// An answer as a program writes it: the action, with the melds it shows (a knock, big gin or
/// a defense) and the cards it lays off (a defense).
#[derive(Debug, Serialize)]
pub(crate) struct AnswerLine<'a> {
    #[serde(flatten)]
    action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    melds: Option<&'a [Meld]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    laid_off: Option<CardSet>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u64>,
}

impl<'a> AnswerLine<'a> {
    /// `action`, answering decision `id` (when the host numbered it) and showing `shown`
    /// (ignored for an action that shows no cards).
    pub(crate) fn new(id: Option<u64>, action: Action, shown: Option<&'a Showing>) -> AnswerLine<'a> {
        let shown = shown.filter(|_| action.shows_cards());
        AnswerLine {
            id,
            action,
            melds: shown.map(Showing::melds),
            laid_off: shown.filter(|_| action == Action::LayOff).map(Showing::laid_off),
        }
    }
}

/// A message from a host, as an agent program reads it.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum FromHost {
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
        /// The decision's number, to echo (`None` from a host that does not number them).
        #[serde(default)]
        id: Option<u64>,
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

/// The view a `decide` carries: a [`PlayerView`] without its rules.
#[derive(Debug, Serialize)]
pub(crate) struct DecideView<'a> {
    seat: Player,
    hand_number: u32,
    dealer: Player,
    upcard: Card,
    knock_limit: u32,
    phase: Phase,
    to_act: Option<Player>,
    hand: CardSet,
    discard_pile: &'a [Card],
    stock_size: usize,
    opponent_known: CardSet,
    opponent_cards: usize,
    taken_card: Option<Card>,
    upcard_passes: u8,
    draws: u32,
    knock: Option<Knock>,
    score: &'a GameScore,
}

impl<'a> DecideView<'a> {
    /// The parts of `view` a `decide` sends.
    pub(crate) fn of(view: &PlayerView<'a>) -> DecideView<'a> {
        DecideView {
            seat: view.seat,
            hand_number: view.hand_number,
            dealer: view.dealer,
            upcard: view.upcard,
            knock_limit: view.knock_limit,
            phase: view.phase,
            to_act: view.to_act,
            hand: view.hand,
            discard_pile: view.discard_pile,
            stock_size: view.stock_size,
            opponent_known: view.opponent_known,
            opponent_cards: view.opponent_cards,
            taken_card: view.taken_card,
            upcard_passes: view.upcard_passes,
            draws: view.draws,
            knock: view.knock,
            score: view.score,
        }
    }
}

/// The view of a `decide` read from JSON, owning its parts (the rules come from `start_game`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub(crate) struct OwnedView {
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
    /// The knock being answered, or that ended the hand.
    pub knock: Option<Knock>,
    /// The game's score.
    pub score: GameScore,
}

impl OwnedView {
    /// The view borrowed, as agents take it, with the game's rules.
    pub(crate) fn as_view<'a>(&'a self, rules: &'a Ruleset) -> PlayerView<'a> {
        PlayerView {
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
            knock: self.knock,
            score: &self.score,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_engine::{Game, HandSetup};

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn answer(text: &str) -> Answer {
        parse_answer(text).unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn answers_are_read_strictly() {
        let plain = |action| Answer { id: None, action, melds: None, laid_off: None };
        assert_eq!(parse_answer(r#"{"type":"draw_stock"}"#), Ok(plain(Action::DrawStock)));
        assert_eq!(
            parse_answer(r#"{"type":"discard","card":"7H"}"#),
            Ok(plain(Action::Discard { card: "7H".parse().unwrap() }))
        );
        assert_eq!(
            parse_answer(r#"{"type":"draw_stock","card":"7H"}"#),
            Err("unknown field `card` in a `draw_stock` action".to_owned())
        );
        assert!(parse_answer(r#"{"type":"discard","card":"7H","why":"fun"}"#).unwrap_err().contains("`why`"));
        assert!(parse_answer(r#"{"type":"discard","card":"7H","melds":[]}"#).unwrap_err().contains("`melds`"));
        assert!(parse_answer(r#"{"type":"knock","discard":"7H","laid_off":[]}"#).unwrap_err().contains("`laid_off`"));
        assert!(parse_answer(r#"{"type":"knock","discard":"7H","melds":"AS 2S 3S"}"#).unwrap_err().contains("`melds`"));
        assert!(parse_answer(r#"{"type":"lay_off","laid_off":["AS","AS"]}"#).unwrap_err().contains("duplicate card"));
        assert!(parse_answer(r#"{"type":"shuffle"}"#).is_err());
        // Any action may name the decision it answers, by number.
        assert_eq!(answer(r#"{"type":"draw_stock","id":12}"#).id, Some(12));
        assert_eq!(answer(r#"{"type":"discard","card":"7H","id":null}"#).id, None);
        assert!(parse_answer(r#"{"type":"draw_stock","id":"12"}"#).unwrap_err().contains("`id`"));
        assert!(parse_answer(r#"{"type":"draw_stock","id":-1}"#).unwrap_err().contains("`id`"));
        assert!(parse_answer("[1,2]").is_err());
        assert!(parse_answer("draw").is_err());
        let knock = answer(r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S"]]}"#);
        assert_eq!(knock.action, Action::knock("3H".parse().unwrap()));
        assert_eq!(knock.melds, Some(vec![cards("AS 2S 3S")]));
        let defense = answer(r#"{"type":"lay_off","melds":null,"laid_off":["4S"]}"#);
        assert_eq!((defense.action, defense.melds, defense.laid_off), (Action::LayOff, None, Some(cards("4S"))));
    }

    /// docs/rules.md V10: player one takes the upcard 9H and may knock discarding 3H; player two, the
    /// defender, can lay off 4S.
    fn v10_game() -> Game {
        let hands = ByPlayer::new(cards("AS 2S 3S 7H 7D 7C JC QC KC 3H"), cards("9D 9S 9C TD TH TS 4D 5D 6D 4S"));
        let upcard = "9H".parse().unwrap();
        let dealt = hands[Player::One] | hands[Player::Two] | CardSet::from_card(upcard);
        let setup = HandSetup { dealer: Player::Two, hands, upcard, stock: (CardSet::FULL - dealt).iter().collect() };
        let (mut game, _) = Game::from_setup(&Ruleset::standard(), 1, &setup).unwrap();
        game.play(Player::One, Action::TakeUpcard).unwrap();
        game
    }

    #[test]
    fn a_knock_shows_the_melds_it_names_or_leaves_them_to_the_referee() {
        let mut game = v10_game();
        let view = game.view(Player::One);
        let melds = r#"[["AS","2S","3S"],["7H","7D","7C"],["JC","QC","KC"]]"#;
        let named = answer(&format!(r#"{{"type":"knock","discard":"3H","melds":{melds}}}"#));
        let shown = named.showing(&view).unwrap().expect("melds are named");
        assert_eq!((shown.unmelded(), shown.deadwood()), (cards("9H"), 9));
        assert_eq!(answer(r#"{"type":"knock","discard":"3H"}"#).showing(&view), Ok(None));
        let refused = |text: &str| answer(text).showing(&view).unwrap_err();
        let discarded = r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S","4S"]]}"#;
        assert!(refused(discarded).contains("4S shown but not in the hand"), "{}", refused(discarded));
        let taken_away = r#"{"type":"knock","discard":"3H","melds":[["AH","2H","3H"]]}"#;
        assert!(refused(taken_away).contains("not in the hand"), "{}", refused(taken_away));
        let twice = r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S"],["3S","2S","AS"]]}"#;
        assert!(refused(twice).contains("shown twice"), "{}", refused(twice));
        let no_meld = r#"{"type":"knock","discard":"3H","melds":[["AS","2S","7H"]]}"#;
        assert!(refused(no_meld).contains("is not a meld"), "{}", refused(no_meld));
        let played = game.play_with(Player::One, named.action, Some(&shown)).unwrap();
        assert!(matches!(played[0], Event::Knocked { shown: s, .. } if s == shown));
    }

    #[test]
    fn a_defense_completes_what_it_names() {
        let mut game = v10_game();
        game.play(Player::One, Action::knock("3H".parse().unwrap())).unwrap();
        let view = game.view(Player::Two);
        assert!(view.knock.is_some());
        let show = |text: &str| answer(text).showing(&view);
        assert_eq!(show(r#"{"type":"lay_off"}"#), Ok(None));
        // Only the layoffs: the rest melded the best way.
        let laid = show(r#"{"type":"lay_off","laid_off":["4S"]}"#).unwrap().unwrap();
        assert_eq!((laid.laid_off(), laid.melds().len(), laid.deadwood()), (cards("4S"), 3, 0));
        // Only own melds: the rest laid off and melded the best way.
        let kept = show(r#"{"type":"lay_off","melds":[["9D","9S","9C"]]}"#).unwrap().unwrap();
        assert_eq!((kept.laid_off(), kept.deadwood()), (cards("4S"), 0));
        assert_eq!(kept.melds()[0].cards(), cards("9D 9S 9C"));
        // Both: exactly what is named, the rest unmelded.
        let both = show(r#"{"type":"lay_off","melds":[["4D","5D","6D"]],"laid_off":["4S"]}"#).unwrap().unwrap();
        assert_eq!((both.unmelded(), both.deadwood()), (cards("9D 9S 9C TD TH TS"), 57));
        let err = show(r#"{"type":"lay_off","melds":[["4S","5D","6D"]],"laid_off":["4S"]}"#).unwrap_err();
        assert!(err.contains("is not a meld"), "{err}");
        let err = show(r#"{"type":"lay_off","melds":[["4D","5D","6D"]],"laid_off":["6D"]}"#).unwrap_err();
        assert!(err.contains("6D shown twice"), "{err}");
        let err = show(r#"{"type":"lay_off","laid_off":["4H"]}"#).unwrap_err();
        assert!(err.contains("4H shown but not in the hand"), "{err}");
        let err = show(r#"{"type":"lay_off","melds":[["AH","2H","3H"]]}"#).unwrap_err();
        assert!(err.contains("not in the hand"), "{err}");
        let played = game.play_with(Player::Two, Action::LayOff, Some(&kept)).unwrap();
        let Event::HandEnded { showdown: Some(showdown), .. } = &played[0] else { panic!("{played:?}") };
        assert_eq!(showdown.shown[Player::Two], kept);
    }

    #[test]
    fn an_answer_line_shows_its_cards_and_reads_back() {
        let mut game = v10_game();
        let discard = "3H".parse().unwrap();
        let knock = Action::knock(discard);
        let shown = game.view(Player::One).engine_showing(knock).unwrap();
        let line = serde_json::to_string(&AnswerLine::new(None, knock, Some(&shown))).unwrap();
        assert_eq!(
            line,
            r#"{"type":"knock","discard":"3H","melds":[["7H","7D","7C"],["AS","2S","3S"],["JC","QC","KC"]]}"#
        );
        assert_eq!(answer(&line).showing(&game.view(Player::One)), Ok(Some(shown)));
        assert_eq!(
            serde_json::to_string(&AnswerLine::new(None, Action::DrawStock, None)).unwrap(),
            r#"{"type":"draw_stock"}"#
        );
        assert_eq!(
            serde_json::to_string(&AnswerLine::new(None, Action::Discard { card: discard }, Some(&shown))).unwrap(),
            r#"{"type":"discard","card":"3H"}"#
        );
        game.play(Player::One, knock).unwrap();
        let view = game.view(Player::Two);
        let defense = view.engine_showing(Action::LayOff).unwrap();
        let line = serde_json::to_string(&AnswerLine::new(None, Action::LayOff, Some(&defense))).unwrap();
        assert!(line.starts_with(r#"{"type":"lay_off","melds":[["#) && line.ends_with(r#"]],"laid_off":["4S"]}"#));
        assert_eq!(answer(&line).showing(&view), Ok(Some(defense)));
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
        let line =
            serde_json::to_string(&ToAgent::Decide { id: 1, legal: &legal, view: DecideView::of(&view) }).unwrap();
        assert!(!line.contains("\"events\"") && !line.contains("\"rules\""), "{line}");
        let FromHost::Decide { id: Some(1), legal: read, view: owned } = serde_json::from_str(&line).unwrap() else {
            panic!("{line}")
        };
        assert_eq!(read, legal.as_slice());
        assert_eq!(owned.as_view(&rules), view);
        // The view's JSON is the engine's own, less the rules.
        assert_eq!(serde_json::to_value(DecideView::of(&view)).unwrap(), serde_json::to_value(&view).unwrap());

        // A knock being answered travels with the view.
        let mut knocked = v10_game();
        knocked.play(Player::One, Action::knock("3H".parse().unwrap())).unwrap();
        let view = knocked.view(Player::Two);
        let line = serde_json::to_string(&DecideView::of(&view)).unwrap();
        let owned: OwnedView = serde_json::from_str(&line).unwrap();
        assert_eq!(owned.as_view(knocked.rules()), view);
        assert!(owned.knock.is_some());

        let line = serde_json::to_string(&ToAgent::Quit).unwrap();
        assert_eq!(line, r#"{"type":"quit"}"#);
        assert!(matches!(serde_json::from_str(&line).unwrap(), FromHost::Quit));
    }

    #[test]
    fn fuzz_parsers_agent_answers() {
        let rules = Ruleset::standard();
        let (mut game, _) = gin_engine::Game::new(&rules, 5);
        // A few positions, a knock and a defense among them.
        let mut views = Vec::new();
        while let Some(player) = game.to_act() {
            let legal = game.legal_actions();
            let knock = legal.iter().copied().find(|action| matches!(action, Action::Knock { .. }));
            views.push(game.clone());
            game.play(player, knock.unwrap_or(legal[legal.len() - 1])).unwrap();
            if views.len() > 60 {
                break;
            }
        }
        let corpus: Vec<String> = [
            r#"{"type":"discard","card":"AS"}"#,
            r#"{"type":"draw_stock"}"#,
            r#"{"type":"knock","discard":"7S","melds":[["2S","2H","2D"],["5H","5D","5C"]]}"#,
            r#"{"type":"lay_off","melds":[["7D","8D","9D"]],"laid_off":["AS","2S"]}"#,
            r#"{"type":"big_gin","melds":[["AS","2S","3S"]]}"#,
        ]
        .map(str::to_owned)
        .to_vec();
        let mut rng = crate::fuzzing::rng("agent answers");
        let mut tried = crate::fuzzing::Tried::new("fuzz_parsers_agent_answers");
        for _ in 0..crate::fuzzing::inputs() {
            let text = crate::fuzzing::input(&mut rng, &corpus);
            tried.add(&text);
            let game = &views[gin_cards::random::index(&mut rng, views.len())];
            let Some(player) = game.to_act() else { continue };
            let view = game.view(player);
            crate::fuzzing::check("agent answer", &text, |text| match parse_answer(text) {
                Err(err) => crate::fuzzing::short_error(&err),
                Ok(answer) => {
                    // What was read, written back, reads the same.
                    let mut written = serde_json::to_value(answer.action).map_err(|err| err.to_string())?;
                    let fields = written.as_object_mut().ok_or("an action that is not an object")?;
                    if let Some(id) = answer.id {
                        fields.insert("id".to_owned(), serde_json::json!(id));
                    }
                    if let Some(melds) = &answer.melds {
                        fields.insert("melds".to_owned(), serde_json::json!(melds));
                    }
                    if let Some(laid_off) = answer.laid_off {
                        fields.insert("laid_off".to_owned(), serde_json::json!(laid_off));
                    }
                    let again = parse_answer(&written.to_string())?;
                    if again != answer {
                        return Err(format!("read as {answer:?}, written as {written}, read back as {again:?}"));
                    }
                    match answer.showing(&view) {
                        Err(err) => crate::fuzzing::short_error(&err.to_string()),
                        Ok(_) => Ok(()),
                    }
                }
            });
        }
        tried.finish();
    }
}
