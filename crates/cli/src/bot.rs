//! `gin bot`: a built-in agent as an external agent, reading host messages on standard input and
//! answering decisions on standard output (docs/protocol.md).

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use gin_ai::registry::AgentParams;
use gin_ai::registry::{self, AgentSpec};
use gin_cards::{Card, CardSet};
use gin_engine::{Action, Agent, Deal, PlayerView};
use gin_rules::Ruleset;

use gin_rules::settings::PARSER_CHARS;

use crate::files;
use crate::protocol::{AnswerLine, FromHost, MAX_LINE, VERSION};
use crate::sim::load_params;
use crate::{Failure, Outcome};

/// `gin help bot`.
pub(crate) const LONG_ABOUT: &str = "\
Run a built-in agent as an external agent: it reads the host's messages (JSON Lines, \
docs/protocol.md) on standard input and answers each decision with one action line on \
standard output. A knock, big gin or a defense always names the cards it shows (`melds`, and \
`laid_off` for a defense): the agent's own choice, or the engine's where the agent leaves it to \
the engine. A new agent is built for every game, seeded with the game's `seed`, so \
`gin sim --a 'cmd:gin bot --agent simple'` plays exactly as `gin sim --a simple`.

Exit status: 0 after `quit` or the end of input, 1 for a message it cannot read, 2 for a bad \
option.";

/// The examples after `gin bot --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin sim --a 'cmd:gin bot --agent simple' --b simple --games 100
  gin play --ai 'cmd:gin bot --agent expert:danger_weight=2'";

/// The options of `gin bot`.
#[derive(Debug, Args)]
pub(crate) struct BotArgs {
    /// The agent: random, taker, greedy, simple, expert, holder, mc-fast or mc, with settings as
    /// expert:key=value,... (`gin settings` lists them)
    #[arg(long, value_name = "SPEC")]
    agent: AgentSpec,
    /// A JSON file of agent parameters (see `gin help sim`).
    #[arg(long, value_name = "FILE")]
    param: Option<PathBuf>,
}

/// Runs `gin bot`.
pub(crate) fn run(args: &BotArgs) -> Result<Outcome, Failure> {
    let params = match &args.param {
        Some(path) => load_params(path).map_err(Failure::usage)?,
        None => AgentParams::default(),
    };
    registry::build(&args.agent, &params).context("--agent").map_err(Failure::usage)?;
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    serve(args, &params, stdin.lock(), &mut out)?;
    Ok(Outcome::Success)
}

/// Checks that a decision a host sent is one a game could ask: the view adds up to a deal the
/// referee accepts (with the cards its player cannot see filled in), it is the player's turn, and
/// the legal actions are that deal's.
fn check_decision(view: &PlayerView<'_>, legal: &[Action]) -> Result<(), String> {
    if !view.is_my_turn() {
        return Err("the view says it is not the agent's turn".to_owned());
    }
    let pile: CardSet = view.discard_pile.iter().copied().collect();
    // A knock being answered shows the knocker's whole hand.
    let shown = view.knock.filter(|knock| knock.player != view.seat).map_or(CardSet::EMPTY, |knock| knock.shown.hand());
    let public = view.opponent_known | shown;
    let unseen = CardSet::FULL - view.hand - pile - public;
    let missing = view
        .opponent_cards
        .checked_sub(public.len())
        .ok_or_else(|| "the opponent holds fewer cards than are known to be in its hand".to_owned())?;
    let mut rest = unseen.iter();
    let opponent = public | rest.by_ref().take(missing).collect::<CardSet>();
    let stock: Vec<Card> = rest.collect();
    let deal = Deal::from_view(view, opponent, &stock, 0).map_err(|err| format!("the view does not add up: {err}"))?;
    let listed = deal.legal_actions(view.rules);
    if legal.len() != listed.len() || legal.iter().any(|action| !listed.contains(action)) {
        return Err("the legal actions are not those of the view".to_owned());
    }
    Ok(())
}

/// Answers the host until it quits or its messages end.
fn serve(args: &BotArgs, params: &AgentParams, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut agent: Option<Box<dyn Agent + Send>> = None;
    // What a decision's view leaves out: the game's rules.
    let mut rules = Ruleset::default();
    let mut input = input;
    let mut buffer = Vec::new();
    for number in 0.. {
        match files::read_line(&mut input, &mut buffer, MAX_LINE).context("cannot read standard input")? {
            files::Line::Read => {}
            files::Line::End => break,
            files::Line::TooLong => {
                bail!(
                    "line {}: longer than {}, the longest message the protocol allows",
                    number + 1,
                    files::size(MAX_LINE as u64)
                )
            }
        }
        let Ok(line) = std::str::from_utf8(&buffer) else {
            bail!("line {}: not UTF-8 text", number + 1);
        };
        if line.trim().is_empty() {
            continue;
        }
        // The parser's message may quote the line: cut short.
        let message: FromHost = serde_json::from_str(line).map_err(|err| {
            anyhow!("line {}: not a host message: {}", number + 1, gin_cards::excerpt(&err.to_string(), PARSER_CHARS))
        })?;
        match message {
            FromHost::StartGame { version, seat, rules: game_rules, seed } => {
                if version != VERSION {
                    bail!(
                        "line {}: protocol version {version} is not supported: this bot speaks {VERSION}",
                        number + 1
                    );
                }
                let mut fresh = registry::build(&args.agent, params)?;
                fresh.start_game(seat, &game_rules, seed);
                rules = game_rules;
                agent = Some(fresh);
            }
            FromHost::StartHand {} => {}
            FromHost::Event { event } => {
                if let Some(agent) = &mut agent {
                    agent.observe(&event);
                }
            }
            FromHost::Decide { id, legal, view } => {
                let Some(agent) = &mut agent else { bail!("line {}: a decision before start_game", number + 1) };
                let view = view.as_view(&rules);
                // An agent trusts its view: one that no game could show is refused here.
                check_decision(&view, &legal)
                    .map_err(|why| anyhow!("line {}: a decision no game asks: {why}", number + 1))?;
                let action = agent.choose(&view, &legal);
                // As the engine's runner asks, then the referee's choice where the agent has none:
                // a knock always shows its melds on the wire.
                let showing = if action.shows_cards() {
                    agent.show(&view, action).or_else(|| view.engine_showing(action))
                } else {
                    None
                };
                serde_json::to_writer(&mut *out, &AnswerLine::new(id, action, showing.as_ref()))
                    .context("cannot write to standard output")?;
                out.write_all(b"\n").and_then(|()| out.flush()).context("cannot write to standard output")?;
            }
            FromHost::EndGame { result } => {
                if let Some(agent) = &mut agent {
                    agent.end_game(&result);
                }
            }
            FromHost::Quit => break,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing;
    use crate::protocol::{DecideView, ToAgent};
    use gin_engine::{Event, Game, RandomAgent, agent_seed};
    use gin_rules::Player;

    /// What a host sends seat two over a game between random agents, one message a line.
    fn transcript(seed: u64) -> String {
        let rules = Ruleset::standard();
        let (mut game, opening) = Game::new(&rules, seed);
        let seat = Player::Two;
        let mut lines = vec![
            serde_json::to_string(&ToAgent::StartGame {
                version: VERSION,
                seat,
                rules: &rules,
                seed: agent_seed(seed, seat),
            })
            .unwrap(),
        ];
        let mut events: Vec<Event> = opening;
        let mut random = RandomAgent::new(seed);
        let mut told = 0;
        while let Some(player) = game.to_act() {
            for event in &events[told..] {
                lines.push(serde_json::to_string(&ToAgent::Event { event: &event.seen_by(seat) }).unwrap());
            }
            told = events.len();
            let legal = game.legal_actions();
            let view = game.view(player);
            if player == seat {
                let id = lines.len() as u64;
                lines.push(
                    serde_json::to_string(&ToAgent::Decide { id, legal: &legal, view: DecideView::of(&view) }).unwrap(),
                );
            }
            let action = random.choose(&view, &legal);
            events.extend(game.play(player, action).unwrap());
            if lines.len() > 150 {
                break;
            }
        }
        lines.push(r#"{"type":"quit"}"#.to_owned());
        lines.join("\n") + "\n"
    }

    fn serve_text(agent: &str, text: &str) -> Result<String> {
        let args = BotArgs { agent: agent.parse().unwrap(), param: None };
        let mut out = Vec::new();
        serve(&args, &AgentParams::default(), text.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_whole_transcript_is_answered_and_an_impossible_decision_refused() {
        let text = transcript(3);
        let answers = serve_text("simple", &text).unwrap();
        let ids: Vec<u64> = text
            .lines()
            .filter(|line| line.contains(r#""type":"decide""#))
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["id"].as_u64().unwrap())
            .collect();
        // One answer a decision, each echoing the decision's number.
        let echoed: Vec<u64> = answers
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["id"].as_u64().unwrap())
            .collect();
        assert_eq!(echoed, ids);
        // A decision whose legal actions are not the view's, or whose view does not add up.
        let decide = text.lines().find(|line| line.contains(r#""type":"decide""#)).unwrap();
        let start = text.lines().next().unwrap();
        let empty = decide.replacen(r#""legal":["#, r#""legal":[],"was":["#, 1);
        let err = serve_text("simple", &format!("{start}\n{empty}\n")).unwrap_err().to_string();
        assert!(err.contains("a decision no game asks: the legal actions are not those of the view"), "{err}");
        let stock = decide.replacen(r#""stock_size":"#, r#""stock_size":1"#, 1);
        let err = serve_text("simple", &format!("{start}\n{stock}\n")).unwrap_err().to_string();
        assert!(err.contains("the view does not add up"), "{err}");
    }

    #[test]
    fn fuzz_parsers_host_messages() {
        let corpus: Vec<String> = (1..4).map(transcript).collect();
        let mut rng = fuzzing::rng("host messages");
        // Each input is a whole game's messages, played by two or three agents: a third as many.
        let mut tried = fuzzing::Tried::new("fuzz_parsers_host_messages (whole games of messages)");
        for round in 0..fuzzing::inputs().div_ceil(3) {
            let text = fuzzing::input(&mut rng, &corpus);
            tried.add(&text);
            // The search, slower, on every fourth input.
            let agents: &[&str] =
                if round % 4 == 0 { &["simple", "expert", "mc-fast:samples=8"] } else { &["simple", "expert"] };
            for &agent in agents {
                fuzzing::check("host message", &text, |text| match serve_text(agent, text) {
                    // A refusal names a line of the input, briefly.
                    Err(err) => {
                        let message = format!("{err:#}");
                        fuzzing::short_error(&message)?;
                        let line: Option<usize> =
                            message.strip_prefix("line ").and_then(|rest| rest.split(':').next()?.parse().ok());
                        match line {
                            Some(line) if line >= 1 && line <= text.lines().count().max(1) => Ok(()),
                            _ => Err(format!("a refusal that names no line of the input: {message}")),
                        }
                    }
                    // Every answer is one the host reads.
                    Ok(answers) => answers.lines().try_for_each(|line| {
                        crate::protocol::parse_answer(line).map(drop).map_err(|err| format!("answer {line}: {err}"))
                    }),
                });
            }
        }
        tried.finish();
    }
}
