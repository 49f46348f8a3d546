//! `gin bot`: a built-in agent as an external agent, reading host messages on standard input and
//! answering decisions on standard output (docs/protocol.md).

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use gin_ai::registry::AgentParams;
use gin_ai::registry::{self, AgentSpec};
use gin_engine::Agent;
use gin_rules::Ruleset;

use crate::protocol::{AnswerLine, FromHost, VERSION};
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
    /// The agent: random, greedy, simple, expert, mc-fast or mc, with settings as
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

/// Answers the host until it quits or its messages end.
fn serve(args: &BotArgs, params: &AgentParams, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut agent: Option<Box<dyn Agent + Send>> = None;
    // What a decision's view leaves out: the game's rules.
    let mut rules = Ruleset::default();
    for (number, line) in input.lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        if line.trim().is_empty() {
            continue;
        }
        let message: FromHost =
            serde_json::from_str(&line).with_context(|| format!("line {}: not a host message", number + 1))?;
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
            FromHost::Decide { legal, view } => {
                let Some(agent) = &mut agent else { bail!("line {}: a decision before start_game", number + 1) };
                let view = view.as_view(&rules);
                let action = agent.choose(&view, &legal);
                // As the engine's runner asks, then the referee's choice where the agent has none:
                // a knock always shows its melds on the wire.
                let showing = if action.shows_cards() {
                    agent.show(&view, action).or_else(|| view.engine_showing(action))
                } else {
                    None
                };
                serde_json::to_writer(&mut *out, &AnswerLine::new(action, showing.as_ref()))
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
