//! `cargo xtask fuzz`: random games under random rules, with legal and illegal moves, checked
//! after every step; and arbitrary and mutated input thrown at the parsers of the cards, the
//! rules, the engine, the agents' registry, the protocol (a program's answers, and whole games
//! of a host's messages served to built-in agents) and the saves of `gin play` (through
//! [`gin_tui::saves`]).

use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use gin_ai::registry::{self, AgentParams, AgentSpec};
use gin_cards::random::{self, GinRng};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Event, Game, LogHeader, Phase, RandomAgent, agent_seed, read_log, replay, write_log};
use gin_protocol::{Answer, HostMessage};
use gin_rules::settings::{Kind, Settings};
use gin_rules::{ByPlayer, Meld, Player, Preset, Ruleset, Showing};
use gin_tui::saves::{self, Save};
use serde_json::Value;

mod mutations;

/// What one run does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Game actions to play (legal and illegal together), at least.
    pub actions: u64,
    /// Parser inputs to try, at least.
    pub inputs: u64,
    /// The seed of everything random.
    pub seed: u64,
}

/// What a run did.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub games: u64,
    /// Games left unfinished after [`MAX_STEPS`] steps.
    pub abandoned: u64,
    pub legal: u64,
    pub illegal: u64,
    pub showings: u64,
    pub inputs: u64,
    /// The saves among the inputs.
    pub saves: u64,
    /// The longest input, in bytes.
    pub longest: usize,
    pub seconds_games: f64,
    pub seconds_inputs: f64,
}

/// Plays and parses until the plan is met; the first failure stops the run with what it was.
///
/// # Errors
/// The first broken invariant or panic, with the seed and step that show it.
pub(crate) fn run(plan: Plan) -> Result<Tally> {
    let mut tally = Tally::default();
    let started = Instant::now();
    let mut game_seed = plan.seed;
    while tally.legal + tally.illegal + tally.showings < plan.actions {
        let seed = game_seed;
        game_seed = random::derive_seed(game_seed, 1);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| fuzz_game(seed, &mut tally)));
        match outcome {
            Ok(Ok(())) => tally.games += 1,
            Ok(Err(err)) => return Err(err.context(format!("game seed {seed}"))),
            Err(_) => bail!("game seed {seed}: the engine panicked"),
        }
    }
    tally.seconds_games = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut rng = random::seeded_rng(random::derive_seed(plan.seed, 2));
    let corpus = Corpus::new(&mut rng);
    while tally.inputs < plan.inputs {
        let (kind, input) = corpus.input(&mut rng);
        let shown = || mutations::shown(&String::from_utf8_lossy(&input));
        match panic::catch_unwind(AssertUnwindSafe(|| parse(&corpus, kind, &input))) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => bail!("the {kind:?} parser failed a check: {why}, on {}", shown()),
            Err(_) => bail!("the {kind:?} parser panicked on {}", shown()),
        }
        tally.inputs += 1;
        tally.saves += u64::from(kind == Parser::Save);
        tally.longest = tally.longest.max(input.len());
    }
    tally.seconds_inputs = started.elapsed().as_secs_f64();
    Ok(tally)
}

/// A random rule set: a random preset with every setting, at random, either kept or given a
/// random value in its range (targets kept small, so that games end).
fn random_rules(rng: &mut GinRng) -> Ruleset {
    let preset = Preset::ALL[random::index(rng, Preset::ALL.len())];
    let mut rules = preset.rules();
    for setting in Ruleset::table() {
        if random::below(rng, 2) == 0 {
            continue;
        }
        let value = match setting.kind {
            Kind::Bool => Value::Bool(random::below(rng, 2) == 1),
            Kind::Int { min, max } => Value::from(min + random::below(rng, (max - min).min(300) + 1)),
            Kind::IntOrNull { min, max, .. } if random::below(rng, 4) == 0 => {
                let _ = (min, max);
                Value::Null
            }
            Kind::IntOrNull { min, max, .. } | Kind::IntOrWord { min, max, .. } if random::below(rng, 4) > 0 => {
                Value::from(min + random::below(rng, (max - min).min(300) + 1))
            }
            Kind::IntOrWord { word, .. } => Value::from(word),
            Kind::IntOrNull { .. } => Value::Null,
            Kind::Float { min, max } => Value::from(min + (max - min) * random::below(rng, 1001) as f64 / 1000.0),
            Kind::Choice(choices) => Value::from(choices[random::index(rng, choices.len())]),
        };
        let before = rules.clone();
        if rules.set(setting.name, &value).is_err() || rules.validate().is_err() {
            rules = before;
        }
    }
    // Long games teach nothing more: a target of at most 150.
    rules.target = rules.target.min(150);
    rules
}

/// Every action there is: what an illegal move is drawn from.
fn any_action(rng: &mut GinRng) -> Action {
    let card = Card::from_index(random::below(rng, 52) as u8).expect("an index below 52");
    match random::below(rng, 8) {
        0 => Action::TakeUpcard,
        1 => Action::PassUpcard,
        2 => Action::DrawStock,
        3 => Action::DrawPile,
        4 => Action::Discard { card },
        5 => Action::Knock { discard: card },
        6 => Action::BigGin,
        _ => Action::LayOff,
    }
}

/// A random showing of some of `cards`: melds where random subsets happen to be melds, random
/// layoffs; valid or not.
fn any_showing(rng: &mut GinRng, cards: CardSet, ace_high: bool) -> Option<Showing> {
    let mut melds = Vec::new();
    let mut left = cards;
    for _ in 0..random::below(rng, 4) {
        let subset: CardSet = left.iter().filter(|_| random::below(rng, 3) == 0).collect();
        if let Ok(meld) = Meld::new(subset, ace_high) {
            melds.push(meld);
            left -= subset;
        }
    }
    let laid_off: CardSet = left.iter().filter(|_| random::below(rng, 4) == 0).collect();
    // Sometimes a hand that is not the player's: one card more or less.
    let hand = match random::below(rng, 6) {
        0 => cards.with(Card::from_index(random::below(rng, 52) as u8).expect("an index below 52")),
        1 => cards.iter().skip(1).collect(),
        _ => cards,
    };
    Showing::new(hand, &melds, laid_off).ok()
}

/// The most steps one game is played for.
const MAX_STEPS: u64 = 20_000;

/// One random game under random rules, checking every step.
fn fuzz_game(seed: u64, tally: &mut Tally) -> Result<()> {
    let mut rng = random::seeded_rng(seed);
    let rules = random_rules(&mut rng);
    let (mut game, mut events) = Game::new(&rules, seed);
    check_step(&game, &events)?;
    let mut step = 0u64;
    while let Some(player) = game.to_act() {
        step += 1;
        if step > MAX_STEPS {
            // Rules can make games that hardly end (gin only, with random play: dead hand after
            // dead hand), as the match runner knows: such a game is left here, and checked as
            // far as it went.
            tally.abandoned += 1;
            break;
        }
        let legal = game.legal_actions();
        // Now and then an illegal move, or a legal one with a showing of the fuzzer's: a refusal
        // must change nothing.
        match random::below(&mut rng, 4) {
            0 => {
                let action = any_action(&mut rng);
                let wrong_player = random::below(&mut rng, 8) == 0;
                let who = if wrong_player { player.opponent() } else { player };
                let before = game.clone();
                let legal_here = !wrong_player && legal.contains(&action);
                match game.play(who, action) {
                    Ok(_) if !legal_here => bail!("step {step}: {action} by {who} was not listed, yet accepted"),
                    Ok(produced) => events.extend(produced),
                    Err(_) if legal_here => bail!("step {step}: {action} was listed, yet refused"),
                    Err(_) if game != before => bail!("step {step}: the refused {action} changed the game"),
                    Err(_) => {}
                }
                tally.illegal += 1;
            }
            1 if legal.iter().any(|action| action.shows_cards()) => {
                let shows: Vec<Action> = legal.iter().copied().filter(|action| action.shows_cards()).collect();
                let action = shows[random::index(&mut rng, shows.len())];
                let cards = game.deal().cards(player);
                let cards = match action {
                    Action::Knock { discard } => cards.without(discard),
                    _ => cards,
                };
                let showing = any_showing(&mut rng, cards, rules.ace_high);
                let before = game.clone();
                match game.play_with(player, action, showing.as_ref()) {
                    Ok(produced) => events.extend(produced),
                    Err(_) if game != before => bail!("step {step}: the refused showing changed the game"),
                    Err(_) => {}
                }
                tally.showings += 1;
            }
            _ => {
                // Knocks half the time they are allowed, so that hands end and showdowns come.
                let knocks: Vec<Action> = legal.iter().copied().filter(|action| action.shows_cards()).collect();
                // Mostly a discard that leaves the least deadwood, so that hands reach knocks.
                let best = rules.solver().best_discards(game.deal().cards(player)).discards;
                let good: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|action| matches!(action, Action::Discard { card } if best.contains(*card)))
                    .collect();
                let action = if !knocks.is_empty() && random::below(&mut rng, 2) == 0 {
                    knocks[random::index(&mut rng, knocks.len())]
                } else if !good.is_empty() && random::below(&mut rng, 4) > 0 {
                    good[random::index(&mut rng, good.len())]
                } else {
                    legal[random::index(&mut rng, legal.len())]
                };
                let produced =
                    game.play(player, action).map_err(|err| anyhow!("step {step}: listed {action} refused: {err}"))?;
                events.extend(produced);
                tally.legal += 1;
            }
        }
        check_step(&game, &events)?;
    }
    check_end(&game, &events, seed)
}

/// After every step: every card once, views hide what they must.
fn check_step(game: &Game, events: &[Event]) -> Result<()> {
    let deal = game.deal();
    let (all, count) = deal.all_cards();
    if all != CardSet::FULL || count != 52 {
        bail!("cards not conserved: {count} cards, {} distinct", all.len());
    }
    for seat in Player::ALL {
        let view = game.view(seat);
        // The hand's first upcard is public, though it may be back in a hand unseen after the
        // stock was rebuilt: the rest of the view is checked.
        let mut json = serde_json::to_value(&view)?;
        if let Some(fields) = json.as_object_mut() {
            fields.remove("upcard");
        }
        let json = json.to_string();
        let opponent = seat.opponent();
        let mut hidden = deal.cards(opponent) - deal.known(opponent);
        if let Some(knock) = deal.knock().filter(|knock| knock.player == opponent) {
            hidden -= knock.shown.hand();
        }
        if deal.phase() == Phase::Over {
            continue;
        }
        if let Some(card) = hidden.iter().find(|card| json.contains(&format!("\"{card}\""))) {
            bail!("{seat}'s view shows {card}, a hidden card of the opponent's ({:?} phase)", deal.phase());
        }
        // What the last step told this seat: never the opponent's stock draw or dealt hand.
        for event in events.iter().rev().take(4) {
            match event.seen_by(seat) {
                Event::DrewStock { player, card: Some(card) } if player == opponent => {
                    bail!("{seat} is shown {card}, drawn from the stock by the opponent");
                }
                Event::HandStarted { hands, .. } if hands[opponent].is_some() => {
                    bail!("{seat} is shown the opponent's dealt hand");
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// At the end: the log replays to the same game, and the hands' points add up to the score.
fn check_end(game: &Game, events: &[Event], seed: u64) -> Result<()> {
    let mut text = Vec::new();
    write_log(&mut text, &LogHeader::new(seed, game.rules(), None), events)?;
    let replayed = replay(std::str::from_utf8(&text)?).map_err(|err| anyhow!("the log does not replay: {err}"))?;
    if replayed != *game {
        bail!("the log replays to another game");
    }
    let mut points = ByPlayer::new(0u32, 0u32);
    for event in events {
        if let Event::HandEnded { score, .. } = event
            && let Some(winner) = score.winner
        {
            points[winner] += score.points;
        }
    }
    if points != game.score().points {
        bail!("the hands' points {points:?} do not add up to the score {:?}", game.score().points);
    }
    Ok(())
}

/// The parsers of the cards, the rules, the engine and the agents' registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parser {
    Card,
    Cards,
    Rules,
    Setting,
    Log,
    Action,
    AgentSpec,
    AgentParams,
    /// A program's answer to a `decide`, checked against a position.
    Answer,
    /// A whole game of a host's messages, served to built-in agents.
    HostMessages,
    /// A save of `gin play`, read as it is and with its digests worked out again.
    Save,
}

impl Parser {
    const ALL: [Parser; 11] = [
        Parser::Card,
        Parser::Cards,
        Parser::Rules,
        Parser::Setting,
        Parser::Log,
        Parser::Action,
        Parser::AgentSpec,
        Parser::AgentParams,
        Parser::Answer,
        Parser::HostMessages,
        Parser::Save,
    ];
}

/// Valid inputs of each parser, to mutate.
struct Corpus {
    cards: Vec<String>,
    rules: Vec<String>,
    settings: Vec<String>,
    logs: Vec<String>,
    actions: Vec<String>,
    specs: Vec<String>,
    params: Vec<String>,
    answers: Vec<String>,
    /// Whole games of a host's messages to seat two, one message a line.
    transcripts: Vec<String>,
    /// Games at positions where someone is to act (knocks and defenses among them), to check
    /// answers against.
    positions: Vec<Game>,
    /// Saves of `gin play`, of format versions 1 and 2.
    saves: Vec<String>,
}

impl Corpus {
    fn new(rng: &mut GinRng) -> Corpus {
        let mut logs = Vec::new();
        let mut rules = Vec::new();
        for seed in 0..4 {
            let ruleset = random_rules(rng);
            rules.push(ruleset.to_json());
            let (mut game, mut events) = Game::new(&ruleset, seed);
            while let (Some(player), true) = (game.to_act(), events.len() < 300) {
                let legal = game.legal_actions();
                events.extend(game.play(player, legal[random::index(rng, legal.len())]).expect("a listed action"));
            }
            let mut text = Vec::new();
            write_log(&mut text, &LogHeader::new(seed, &ruleset, None), &events).expect("a log to memory");
            logs.push(String::from_utf8(text).expect("UTF-8"));
        }
        rules.push(r#"{"preset": "pagat", "knock_limit": 7}"#.to_owned());
        // `name=value`, as on a command line.
        let settings = Ruleset::table()
            .iter()
            .map(|setting| format!("{}={}", setting.name, (setting.get)(&Ruleset::standard())))
            .collect();
        let cards = ["AS", "ts", "10h", "T♠", "KD QD JD", "AS 2S 3S 7H 7D 7C JC QC KC 3H", "7♥, 8♥"]
            .map(str::to_owned)
            .to_vec();
        let actions = [
            r#"{"type":"draw_stock"}"#,
            r#"{"type":"discard","card":"AS"}"#,
            r#"{"type":"knock","discard":"7S"}"#,
            r#"{"type":"lay_off"}"#,
            r#"{"type":"take_upcard"}"#,
            r#"{"melds":[["7S","7H","7D"]],"laid_off":["5D"],"unmelded":["AS","2S"],"deadwood":3}"#,
        ]
        .map(str::to_owned)
        .to_vec();
        let specs = ["simple", "expert:knock_bias=2,danger_weight=0.5", "mc-fast:samples=8", "holder", "random"]
            .map(str::to_owned)
            .to_vec();
        let params = [r#"{"danger_weight": 3, "mc": {"samples": 500}}"#, r#"{"knock_max_late": 7}"#, "{}"]
            .map(str::to_owned)
            .to_vec();
        let answers = [
            r#"{"type":"discard","card":"AS","id":3}"#,
            r#"{"type":"draw_stock"}"#,
            r#"{"type":"knock","discard":"7S","melds":[["2S","2H","2D"],["5H","5D","5C"]]}"#,
            r#"{"type":"lay_off","melds":[["7D","8D","9D"]],"laid_off":["AS","2S"]}"#,
            r#"{"type":"big_gin","melds":[["AS","2S","3S"]]}"#,
        ]
        .map(str::to_owned)
        .to_vec();
        let mut positions = Vec::new();
        let (mut game, _) = Game::new(&Ruleset::standard(), 5);
        while let Some(player) = game.to_act() {
            let legal = game.legal_actions();
            let knock = legal.iter().copied().find(|action| matches!(action, Action::Knock { .. }));
            positions.push(game.clone());
            game.play(player, knock.unwrap_or(legal[legal.len() - 1])).expect("a listed action");
            if positions.len() > 60 {
                break;
            }
        }
        let transcripts = (1..4).map(transcript).collect();
        let saves = save_corpus();
        Corpus { cards, rules, settings, logs, actions, specs, params, answers, transcripts, positions, saves }
    }

    /// One input: arbitrary bytes, or a valid input mutated ([`mutations`]), of any size.
    fn input(&self, rng: &mut GinRng) -> (Parser, Vec<u8>) {
        let parser = Parser::ALL[random::index(rng, Parser::ALL.len())];
        let pool = match parser {
            Parser::Card | Parser::Cards => &self.cards,
            Parser::Rules => &self.rules,
            Parser::Setting => &self.settings,
            Parser::Log => &self.logs,
            Parser::Action => &self.actions,
            Parser::AgentSpec => &self.specs,
            Parser::AgentParams => &self.params,
            Parser::Answer => &self.answers,
            Parser::HostMessages => &self.transcripts,
            Parser::Save => &self.saves,
        };
        (parser, mutations::input(rng, pool).into_bytes())
    }
}

/// What a host sends seat two over a game between random agents, one message a line.
fn transcript(seed: u64) -> String {
    let rules = Ruleset::standard();
    let (mut game, opening) = Game::new(&rules, seed);
    let seat = Player::Two;
    let mut lines = vec![HostMessage::start_game(seat, &rules, agent_seed(seed, seat)).to_line()];
    let mut events: Vec<Event> = opening;
    let mut random = RandomAgent::new(seed);
    let mut told = 0;
    while let Some(player) = game.to_act() {
        for event in &events[told..] {
            lines.push(HostMessage::Event { event: (&event.seen_by(seat)).into() }.to_line());
        }
        told = events.len();
        let legal = game.legal_actions();
        let view = game.view(player);
        if player == seat {
            lines.push(HostMessage::decide(lines.len() as u64, &legal, &view).to_line());
        }
        let action = random.choose(&view, &legal).action().expect("random never resigns");
        events.extend(game.play(player, action).expect("a listed action"));
        if lines.len() > 150 {
            break;
        }
    }
    lines.push(HostMessage::Quit.to_line());
    lines.join("\n") + "\n"
}

/// A save of `gin play --ai expert` (format version 1), and the same save as version 2 writes it.
const SAVE_V1: &str = include_str!("../../crates/tui/tests/fixtures/expert-mid-game.gin");
const SAVE_V2: &str = include_str!("../../crates/tui/tests/fixtures/expert-mid-game-v2.gin");

/// Saves to mutate: the two fixtures, and saves the writer writes of a whole game (`simple` in
/// seat two against a seat that knocks whenever it may): part of it against the AI, up to a knock
/// at a hot seat, all of it, and a forfeited one.
fn save_corpus() -> Vec<String> {
    let rules = Ruleset::standard();
    let seed = 9;
    let log = LogHeader::new(seed, &rules, None);
    let (mut game, mut events) = Game::new(&rules, seed);
    let seat = Player::Two;
    let spec: AgentSpec = "simple".parse().expect("a built-in agent");
    let mut agent = registry::build(&spec, &AgentParams::default()).expect("a built-in agent");
    agent.start_game(seat, &rules, agent_seed(seed, seat));
    for event in &events {
        agent.observe(&event.seen_by(seat));
    }
    while let Some(player) = game.to_act() {
        let produced = if player == seat {
            let decision = agent.choose(&game.view(player), &game.legal_actions());
            let gin_engine::Decision::Play { action, showing } = decision else { panic!("simple resigned") };
            game.play_with(player, action, showing.as_deref())
        } else {
            let legal = game.legal_actions();
            let knock = legal.iter().copied().find(|action| matches!(action, Action::Knock { .. }));
            game.play(player, knock.unwrap_or(legal[0]))
        }
        .expect("a legal move");
        for event in &produced {
            agent.observe(&event.seen_by(seat));
        }
        events.extend(produced);
    }
    let knocked = events.iter().position(|event| matches!(event, Event::Knocked { .. })).expect("a knock");
    let versus = Some(("simple", Player::One));
    let write = |opponent, forfeit, events: &[Event]| saves::write(opponent, forfeit, &log, events).expect("a save");
    vec![
        SAVE_V1.to_owned(),
        SAVE_V2.to_owned(),
        write(versus, None, &events[..60]),
        write(None, None, &events[..=knocked]),
        write(versus, None, &events),
        write(versus, Some("it crashed"), &events[..30]),
    ]
}

/// What is checked of one save: a refusal is short, and a damaged save's names a line at most
/// one past its last; a save taken (whole, or recovered) written again reads back whole, to the
/// same game, events and seats.
fn check_save(text: &str) -> Result<(), String> {
    // `gin saves` reads it too.
    let _ = saves::summary(text);
    let taken = match Save::read(text, false) {
        Ok(save) => Some(save),
        Err(err) => {
            short(&err)?;
            if let Some(line) = err.damaged_from() {
                let lines = text.lines().count();
                if !(1..=lines + 1).contains(&line) {
                    return Err(format!("a save of {lines} lines refused as damaged from line {line}"));
                }
            }
            Save::read(text, true).ok()
        }
    };
    let Some(save) = taken else { return Ok(()) };
    let again = save.text().map_err(|err| err.to_string())?;
    let back = Save::read(&again, false)
        .map_err(|err| format!("a save taken, then written, is refused: {err}: {}", mutations::shown(&again)))?;
    if back.game() != save.game() || back.events() != save.events() {
        return Err(format!("a save taken, then written, reads back to another game: {}", mutations::shown(&again)));
    }
    if (back.ai(), back.human()) != (save.ai(), save.human()) || back.damaged_from().is_some() {
        return Err(format!("a save taken, then written, reads back otherwise: {}", mutations::shown(&again)));
    }
    Ok(())
}

/// A refusal's message must be short whatever the input: `Err` saying why not.
fn short<E: std::fmt::Display>(err: &E) -> Result<(), String> {
    mutations::short_error(&err.to_string())
}

/// Parses one input and checks the answer: a refusal says briefly what is wrong and leaves
/// whatever it was applied to unchanged; what is accepted reads back the same once written.
///
/// # Errors
/// The check that failed.
fn parse(corpus: &Corpus, parser: Parser, input: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(input);
    match parser {
        Parser::Card => match text.parse::<Card>() {
            Err(err) => short(&err),
            Ok(card) if card.to_string().parse() == Ok(card) && format!("{card:#}").parse() == Ok(card) => Ok(()),
            Ok(card) => Err(format!("{card} does not read back")),
        },
        Parser::Cards => match text.parse::<CardSet>() {
            Err(err) => short(&err),
            Ok(cards) if cards.to_string().parse() == Ok(cards) => Ok(()),
            Ok(cards) => Err(format!("{cards} does not read back")),
        },
        Parser::Rules => match Ruleset::from_json(&text) {
            Err(err) => short(&err),
            Ok(rules) => {
                if Ruleset::from_json(&rules.to_json()).as_ref() != Ok(&rules) {
                    return Err(format!("{} does not read back", rules.to_json()));
                }
                // A ruleset that reads plays.
                let (game, _) = Game::new(&rules, 1);
                let _ = game.legal_actions();
                Ok(())
            }
        },
        Parser::Setting => {
            let (name, value) = text.split_once('=').unwrap_or((&text, ""));
            let mut rules = Ruleset::eaai();
            let before = rules.clone();
            match rules.set_text(name, value) {
                Err(err) if rules != before => Err(format!("the refused `{name}` changed the rules: {err}")),
                Err(err) => short(&err),
                Ok(()) => {
                    rules.validate().map_err(|err| format!("`{name}={value}` was taken, yet: {err}"))?;
                    if Ruleset::from_json(&rules.to_json()).as_ref() != Ok(&rules) {
                        return Err(format!("`{name}={value}` gives rules that do not read back"));
                    }
                    Ok(())
                }
            }
        }
        Parser::Log => {
            match read_log(&text) {
                Err(err) => short(&err)?,
                Ok((header, events)) => {
                    let events: Vec<Event> = events.into_iter().map(|(_, event)| event).collect();
                    let mut written = Vec::new();
                    write_log(&mut written, &header, &events).map_err(|err| err.to_string())?;
                    let (again, again_events) = read_log(&String::from_utf8_lossy(&written))
                        .map_err(|err| format!("a log read, then written, does not read: {err}"))?;
                    let again_events: Vec<Event> = again_events.into_iter().map(|(_, event)| event).collect();
                    if again != header || again_events != events {
                        return Err("a log read, then written, reads differently".to_owned());
                    }
                }
            }
            match replay(&text) {
                Err(err) => short(&err),
                Ok(_) => Ok(()),
            }
        }
        // The JSON parser's own messages (not the project's: every place that shows one cuts it
        // short) are not checked for length.
        Parser::Action => {
            match serde_json::from_str::<Action>(&text) {
                Err(_) => {}
                Ok(action) => {
                    let written = serde_json::to_string(&action).map_err(|err| err.to_string())?;
                    if serde_json::from_str::<Action>(&written).ok() != Some(action) {
                        return Err(format!("{written} does not read back"));
                    }
                }
            }
            match serde_json::from_str::<Showing>(&text) {
                Err(_) => Ok(()),
                Ok(showing) => {
                    let written = serde_json::to_string(&showing).map_err(|err| err.to_string())?;
                    match serde_json::from_str::<Showing>(&written) {
                        Ok(again) if again == showing => Ok(()),
                        _ => Err(format!("{written} does not read back")),
                    }
                }
            }
        }
        Parser::AgentSpec => match text.parse::<AgentSpec>() {
            Err(err) => short(&err),
            Ok(spec) => {
                if spec.to_string().parse::<AgentSpec>().as_ref() != Ok(&spec) {
                    return Err(format!("`{spec}` does not read back"));
                }
                match registry::build(&spec, &AgentParams::default()) {
                    Err(err) => short(&err),
                    Ok(_) => Ok(()),
                }
            }
        },
        Parser::AgentParams => match AgentParams::from_json(&text) {
            Err(err) => short(&err),
            Ok(_) => Ok(()),
        },
        Parser::Answer => match Answer::parse(&text) {
            Err(err) => short(&err),
            Ok(answer) => {
                // What was read, written back, reads the same.
                let written = answer.to_line();
                let again = Answer::parse(&written)?;
                if again != answer {
                    return Err(format!("read as {answer:?}, written as {written}, read back as {again:?}"));
                }
                // Checked against a position (which one follows from the input).
                let game = &corpus.positions[input.len() % corpus.positions.len()];
                let Some(player) = game.to_act() else { return Ok(()) };
                match answer.showing(&game.view(player)) {
                    Err(err) => short(&err),
                    Ok(_) => Ok(()),
                }
            }
        },
        Parser::HostMessages => {
            // The search, slower, on one input in four.
            let agents: &[&str] = if input.len().is_multiple_of(4) {
                &["simple", "expert", "mc-fast:samples=8"]
            } else {
                &["simple", "expert"]
            };
            for agent in agents {
                let spec: AgentSpec = agent.parse().map_err(|err| format!("{err}"))?;
                let mut new_agent = || registry::build(&spec, &AgentParams::default()).map_err(|err| err.to_string());
                let mut answers = Vec::new();
                match gin_protocol::serve(text.as_bytes(), &mut answers, &mut new_agent) {
                    // A refusal names a line of the input, briefly.
                    Err(err) => {
                        let message = err.to_string();
                        short(&message)?;
                        let line: Option<usize> =
                            message.strip_prefix("line ").and_then(|rest| rest.split(':').next()?.parse().ok());
                        match line {
                            Some(line) if line >= 1 && line <= text.lines().count().max(1) => {}
                            _ => return Err(format!("a refusal that names no line of the input: {message}")),
                        }
                    }
                    // Every answer is one the host reads.
                    Ok(()) => {
                        for line in String::from_utf8_lossy(&answers).lines() {
                            Answer::parse(line).map_err(|err| format!("{agent} answered {line}: {err}"))?;
                        }
                    }
                }
            }
            Ok(())
        }
        // As it is (its digests then mostly fail), and with its digests worked out again, so
        // that the reader beneath them is reached too.
        Parser::Save => {
            check_save(&saves::reseal(&text))?;
            check_save(&text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_fuzz_finds_nothing() {
        let tally = run(Plan { actions: 10_000, inputs: 3_000, seed: 1 }).unwrap();
        assert!(tally.games >= 3 && tally.illegal > 1000 && tally.showings > 10, "{tally:?}");
        assert!(tally.inputs >= 3_000 && tally.saves > 100, "{tally:?}");
    }

    #[test]
    fn the_saves_to_mutate_are_taken_whole() {
        let corpus = save_corpus();
        for text in &corpus {
            match Save::read(text, false) {
                Ok(save) => assert!(save.damaged_from().is_none()),
                // The game the AI forfeited is over.
                Err(err) => assert!(text.contains("\"forfeit\"") && err.to_string().contains("forfeited"), "{err}"),
            }
            assert!(check_save(text).is_ok());
        }
    }

    #[test]
    fn the_checks_catch_a_broken_invariant() {
        // A log whose score line was tampered with does not replay.
        let rules = Ruleset::standard();
        let (mut game, mut events) = Game::new(&rules, 3);
        while let Some(player) = game.to_act() {
            let legal = game.legal_actions();
            events.extend(game.play(player, legal[0]).unwrap());
            if events.len() > 60 {
                break;
            }
        }
        assert!(check_end(&game, &events, 3).is_ok());
        let mut wrong = events.clone();
        wrong.pop();
        assert!(check_end(&game, &wrong, 3).is_err());
    }
}
