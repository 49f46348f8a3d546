//! `gin bot`: a built-in agent as an external agent, reading host messages on standard input and
//! answering decisions on standard output (docs/protocol.md).

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use gin_ai::registry::AgentParams;
use gin_ai::registry::{self, AgentSpec};

use crate::agents::load_params;
use crate::status::{Failure, Outcome};

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
    /// The agent: {agents}, with settings as
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
    let mut new_agent = || registry::build(&args.agent, params).map_err(|err| err.to_string());
    gin_protocol::serve(input, out, &mut new_agent).map_err(anyhow::Error::new)
}
