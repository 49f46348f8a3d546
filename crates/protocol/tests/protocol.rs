//! The protocol's types and serving loop: what a host writes reads back, answers are read
//! strictly and show what they name, every field a reader does not know is ignored, and the
//! first version reads as the current one.

use gin_cards::CardSet;
use gin_engine::{Action, Agent, Event, Game, HandSetup, RandomAgent, agent_seed};
use gin_protocol::{Answer, HostMessage, VERSION, WireEvent, serve, v1};
use gin_rules::{ByPlayer, Player, Ruleset};

fn cards(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn answer(text: &str) -> Answer {
    Answer::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"))
}

#[test]
fn answers_are_read_strictly() {
    assert_eq!(Answer::parse(r#"{"type":"draw_stock"}"#), Ok(Answer::DrawStock { id: None }));
    assert_eq!(
        Answer::parse(r#"{"type":"discard","card":"7H"}"#),
        Ok(Answer::Discard { card: "7H".parse().unwrap(), id: None })
    );
    let extra = Answer::parse(r#"{"type":"draw_stock","card":"7H"}"#).unwrap_err();
    assert_eq!(extra, "unknown field `card` in a `draw_stock` action");
    assert!(Answer::parse(r#"{"type":"discard","card":"7H","why":"fun"}"#).unwrap_err().contains("`why`"));
    assert!(Answer::parse(r#"{"type":"discard","card":"7H","melds":[]}"#).unwrap_err().contains("`melds`"));
    assert!(Answer::parse(r#"{"type":"knock","discard":"7H","laid_off":[]}"#).unwrap_err().contains("`laid_off`"));
    assert!(Answer::parse(r#"{"type":"knock","discard":"7H","melds":"AS 2S 3S"}"#).is_err());
    assert!(Answer::parse(r#"{"type":"lay_off","laid_off":["AS","AS"]}"#).unwrap_err().contains("duplicate card"));
    assert!(Answer::parse(r#"{"type":"shuffle"}"#).unwrap_err().contains("unknown variant `shuffle`"));
    assert!(Answer::parse(r#"{"card":"7H"}"#).unwrap_err().contains("missing field `type`"));
    // Any action may name the decision it answers, by number.
    assert_eq!(answer(r#"{"type":"draw_stock","id":12}"#).id(), Some(12));
    assert_eq!(answer(r#"{"type":"discard","card":"7H","id":null}"#).id(), None);
    assert!(Answer::parse(r#"{"type":"draw_stock","id":"12"}"#).unwrap_err().contains("`id`"));
    assert!(Answer::parse(r#"{"type":"draw_stock","id":-1}"#).unwrap_err().contains("`id`"));
    assert_eq!(Answer::parse("[1,2]").unwrap_err(), "an action is a JSON object");
    assert!(Answer::parse("draw").is_err());
    let knock = answer(r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S"]]}"#);
    assert_eq!(knock.action(), Action::knock("3H".parse().unwrap()));
    let defense = answer(r#"{"type":"lay_off","melds":null,"laid_off":["4S"]}"#);
    assert_eq!(defense, Answer::LayOff { melds: None, laid_off: Some(cards("4S")), id: None });
    // What is read, written, reads the same.
    for text in [
        r#"{"type":"take_upcard","id":1}"#,
        r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S"]],"id":4}"#,
        r#"{"type":"lay_off","melds":[["7D","8D","9D"]],"laid_off":["AS","2S"],"id":16}"#,
        r#"{"type":"big_gin"}"#,
    ] {
        assert_eq!(answer(text).to_line(), text);
    }
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
    let within = r#"{"type":"knock","discard":"3H","melds":[["AS","2S","3S","AS"]]}"#;
    assert!(refused(within).contains("duplicate card AS in a meld"), "{}", refused(within));
    let no_meld = r#"{"type":"knock","discard":"3H","melds":[["AS","2S","7H"]]}"#;
    assert!(refused(no_meld).contains("is not a meld"), "{}", refused(no_meld));
    let played = game.play_with(Player::One, named.action(), Some(&shown)).unwrap();
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
    let played = game.play_with(Player::Two, Action::LayOff, Some(&kept)).unwrap();
    let Event::HandEnded { showdown: Some(showdown), .. } = &played[0] else { panic!("{played:?}") };
    assert_eq!(showdown.shown[Player::Two], kept);
}

#[test]
fn an_answer_shows_its_cards_in_playing_order_and_reads_back() {
    let mut game = v10_game();
    let discard = "3H".parse().unwrap();
    let knock = Action::knock(discard);
    let shown = game.view(Player::One).engine_showing(knock).unwrap();
    let line = Answer::new(None, knock, Some(&shown)).to_line();
    assert_eq!(line, r#"{"type":"knock","discard":"3H","melds":[["7H","7D","7C"],["AS","2S","3S"],["JC","QC","KC"]]}"#);
    assert_eq!(answer(&line).showing(&game.view(Player::One)), Ok(Some(shown)));
    assert_eq!(Answer::new(Some(3), Action::DrawStock, None).to_line(), r#"{"type":"draw_stock","id":3}"#);
    // Cards shown with an action that shows none are not written.
    let discard_line = Answer::new(None, Action::Discard { card: discard }, Some(&shown)).to_line();
    assert_eq!(discard_line, r#"{"type":"discard","card":"3H"}"#);
    game.play(Player::One, knock).unwrap();
    let view = game.view(Player::Two);
    let defense = view.engine_showing(Action::LayOff).unwrap();
    let line = Answer::new(None, Action::LayOff, Some(&defense)).to_line();
    assert!(line.starts_with(r#"{"type":"lay_off","melds":[["#) && line.ends_with(r#"]],"laid_off":["4S"]}"#));
    assert_eq!(answer(&line).showing(&view), Ok(Some(defense)));
    // A run with the ace high is written as it is played, Q K A.
    let hand = cards("QS KS AS 7H 7D 7C");
    let melds = [gin_rules::Meld::new(cards("QS KS AS"), true).unwrap()];
    let high = gin_rules::Showing::new(hand, &melds, CardSet::EMPTY).unwrap();
    let line = Answer::new(None, Action::BigGin, Some(&high)).to_line();
    assert_eq!(line, r#"{"type":"big_gin","melds":[["QS","KS","AS"]]}"#);
}

/// Every message a host sends seat two over a game between random agents, as the host's own
/// types, and the game's seed.
fn host_messages(seed: u64) -> Vec<HostMessage> {
    let rules = Ruleset { stock_end: gin_rules::StockEnd::Reshuffle, ..Ruleset::standard() };
    let (mut game, opening) = Game::new(&rules, seed);
    let seat = Player::Two;
    let mut messages = vec![HostMessage::start_game(seat, &rules, agent_seed(seed, seat))];
    let mut events: Vec<Event> = opening;
    let mut random = RandomAgent::new(seed);
    let mut told = 0;
    let mut id = 0;
    let mut points = ByPlayer::default();
    loop {
        for event in &events[told..] {
            let event = event.seen_by(seat);
            if let Event::HandStarted { number, dealer, upcard, knock_limit, hands } = event {
                let hand = hands[seat].unwrap();
                messages.push(HostMessage::StartHand { number, dealer, upcard, knock_limit, hand, points });
            }
            if let Event::HandEnded { points: after, .. } = event {
                points = after;
            }
            messages.push(HostMessage::Event { event: (&event).into() });
        }
        told = events.len();
        let Some(player) = game.to_act() else { break };
        let legal = game.legal_actions();
        let view = game.view(player);
        if player == seat {
            id += 1;
            messages.push(HostMessage::decide(id, &legal, &view));
        }
        // Knock whenever it may, so that hands end.
        let knock = legal.iter().copied().find(|action| action.shows_cards());
        let action = knock.unwrap_or_else(|| random.choose(&view, &legal).action().expect("random never resigns"));
        events.extend(game.play(player, action).unwrap());
    }
    if let Some(result) = game.result() {
        messages.push(HostMessage::EndGame { result: *result });
    }
    messages.push(HostMessage::Quit);
    messages
}

#[test]
fn what_the_host_writes_reads_back_as_it_was_and_as_the_engine_wrote_it() {
    for seed in 1..4 {
        let messages = host_messages(seed);
        assert!(messages.iter().any(|m| matches!(m, HostMessage::Event { event: WireEvent::Knocked { .. } })));
        for message in &messages {
            let line = message.to_line();
            assert_eq!(&serde_json::from_str::<HostMessage>(&line).unwrap(), message, "{line}");
            match message {
                // An event is the engine's own JSON, and converts back to the engine's event.
                HostMessage::Event { event } => {
                    let engine = Event::try_from(event).unwrap();
                    let written = serde_json::to_string(&engine).unwrap();
                    assert!(line.contains(&written), "{line}\n{written}");
                }
                // A view is the engine's view less its rules.
                HostMessage::Decide { view, .. } => {
                    let rules = Ruleset { stock_end: gin_rules::StockEnd::Reshuffle, ..Ruleset::standard() };
                    let engine = view.as_view(&rules).unwrap();
                    assert_eq!(serde_json::to_value(view).unwrap(), serde_json::to_value(&engine).unwrap());
                }
                HostMessage::StartGame { version, .. } => assert_eq!(*version, VERSION),
                _ => {}
            }
        }
    }
}

/// Adds a field no reader knows to every object of `value`, at every depth.
fn with_unknown_fields(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(with_unknown_fields);
            fields.insert("added_later".to_owned(), serde_json::json!({"x": [1, null]}));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(with_unknown_fields),
        _ => {}
    }
}

/// The answers `serve` gives to `lines` with a random agent.
fn served(lines: &str) -> Result<String, String> {
    let mut output = Vec::new();
    let mut new_agent = || Ok(Box::new(RandomAgent::new(3)) as Box<dyn Agent + Send>);
    serve(lines.as_bytes(), &mut output, &mut new_agent).map_err(|err| err.to_string())?;
    Ok(String::from_utf8(output).unwrap())
}

fn lines_of(messages: &[HostMessage]) -> String {
    messages.iter().map(|message| message.to_line() + "\n").collect()
}

#[test]
fn fields_a_reader_does_not_know_are_ignored_at_every_depth() {
    let messages = host_messages(5);
    let plain = lines_of(&messages);
    let added: String = plain
        .lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            with_unknown_fields(&mut value);
            value.to_string() + "\n"
        })
        .collect();
    // The field is in nested objects too (events, views, showings, rules), not only at the top.
    assert!(added.matches("added_later").count() > 3 * plain.lines().count(), "{added}");
    let answers = served(&plain).unwrap();
    assert_eq!(answers.lines().count(), messages.iter().filter(|m| matches!(m, HostMessage::Decide { .. })).count());
    assert_eq!(served(&added).unwrap(), answers);
    // In the rules too: a setting this side does not know is left out.
    let newer = plain.replacen(r#""spade_doubles":false"#, r#""spade_doubles":false,"jokers":2"#, 1);
    assert!(newer.contains("jokers"));
    assert_eq!(served(&newer).unwrap(), answers);
}

#[test]
fn the_first_version_reads_as_the_current_one() {
    let mut defenses = 0;
    for seed in 1..6 {
        let messages = host_messages(seed);
        defenses += messages
            .iter()
            .filter(|m| matches!(m, HostMessage::Decide { view, .. } if view.knock.is_some() && view.draws > 0))
            .count();
        let mut upgrade = v1::Upgrade::default();
        let mut read = Vec::new();
        for message in &messages {
            for old in v1::downgrade(message) {
                let line = serde_json::to_string(&old).unwrap();
                let old: v1::HostMessage = serde_json::from_str(&line).unwrap();
                read.extend(upgrade.upgrade(old).unwrap_or_else(|err| panic!("{line}: {err}")));
            }
        }
        // What version 1 drops is worked out again: everything but the decisions' numbers and
        // the version `start_game` names.
        let expected: Vec<HostMessage> = messages
            .iter()
            .map(|message| match message.clone() {
                HostMessage::StartGame { seat, rules, seed, .. } => {
                    HostMessage::StartGame { version: v1::VERSION, seat, rules, seed }
                }
                HostMessage::Decide { legal, view, .. } => HostMessage::Decide { id: None, legal, view },
                other => other,
            })
            .collect();
        assert_eq!(read.len(), expected.len());
        for (got, want) in read.iter().zip(&expected) {
            assert_eq!(got, want);
        }
    }
    // Views with a knock to answer, passes and draws to count were among them.
    assert!(defenses > 3, "{defenses}");
}

#[test]
fn a_version_one_host_is_served_and_answered_as_the_current_one() {
    let messages = host_messages(7);
    let current = served(&lines_of(&messages)).unwrap();
    let old: String = messages
        .iter()
        .flat_map(v1::downgrade)
        .map(|message| serde_json::to_string(&message).unwrap() + "\n")
        .collect();
    assert!(old.starts_with(r#"{"type":"start_game","version":1,"#), "{old}");
    assert!(old.contains(r#""event":"laid_off""#) && !old.contains(r#""id":"#));
    let answers = served(&old).unwrap();
    // The same answers, without the numbers version 1 does not have.
    let unnumbered: String = current
        .lines()
        .map(|line| {
            let answer = Answer::parse(line).unwrap();
            Answer::new(None, answer.action(), None).to_line()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let plain: String = answers
        .lines()
        .map(|line| Answer::new(None, Answer::parse(line).unwrap().action(), None).to_line())
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(plain, unnumbered);
    assert!(!answers.contains(r#""id""#));
}

#[test]
fn a_host_that_breaks_the_protocol_is_refused_with_its_line() {
    let messages = host_messages(2);
    let text = lines_of(&messages);
    let start = text.lines().next().unwrap();
    let decide = text.lines().find(|line| line.contains(r#""type":"decide""#)).unwrap();
    let refusal = |lines: &str| served(lines).unwrap_err();
    let empty = decide.replacen(r#""legal":["#, r#""legal":[],"was":["#, 1);
    assert_eq!(
        refusal(&format!("{start}\n{empty}\n")),
        "line 2: a decision no game asks: the legal actions are not those of the view"
    );
    let stock = decide.replacen(r#""stock_size":"#, r#""stock_size":1"#, 1);
    assert!(
        refusal(&format!("{start}\n{stock}\n"))
            .starts_with("line 2: a decision no game asks: the view does not add up")
    );
    assert_eq!(refusal(&format!("\n{decide}\n")), "line 2: a decision before start_game");
    let future = start.replacen(r#""version":2"#, r#""version":3"#, 1);
    assert_eq!(
        refusal(&format!("{future}\n")),
        "line 1: protocol version 3 is not supported: this side speaks versions 1 to 2"
    );
    assert!(refusal("{\"type\":\"hello\"}\n").starts_with("line 1: not a host message: unknown variant `hello`"));
    assert_eq!(refusal("\u{ff}\n"), "line 1: not a host message: expected value at line 1 column 1");
    let long = format!("{start}\n{}\n", " ".repeat(gin_protocol::MAX_LINE));
    assert_eq!(refusal(&long), "line 2: longer than 1 MiB, the longest message the protocol allows");
}
