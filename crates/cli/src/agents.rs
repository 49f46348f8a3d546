//! The command line's side of agents: the options every command that starts agent programs takes
//! (`--agent-timeout`, `--agent-startup`), `--param` files, and the hidden `agent-keeper` command
//! through which this binary keeps each program it starts (see [`gin_arena::keeper`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use gin_ai::registry::{self, AgentParams};
use gin_arena::{DEFAULT_STARTUP, DEFAULT_TIMEOUT, Host, Limits, parse_timeout};
use gin_tui::files;

/// `--agent-timeout` and `--agent-startup`, shared by the commands that start agent programs.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct LimitArgs {
    /// The most time an agent program (cmd:...) may take over one decision, from 0.001 to 3600
    /// seconds.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_TIMEOUT, value_parser = parse_timeout)]
    agent_timeout: Duration,
    /// The time an agent program may take to start, on top of its first decision's, from 0.001
    /// to 3600 seconds.
    #[arg(long, value_name = "SECONDS", default_value = DEFAULT_STARTUP, value_parser = parse_timeout)]
    agent_startup: Duration,
}

impl LimitArgs {
    /// The limits these options give.
    pub(crate) fn limits(&self) -> Limits {
        Limits { decision: self.agent_timeout, startup: self.agent_startup }
    }

    /// A host for the programs of one run, with these limits, keeping its programs through this
    /// binary where there is a keeper.
    pub(crate) fn host(&self) -> Host {
        host(self.limits())
    }
}

/// A host with `limits` whose programs this binary keeps (on Linux).
pub(crate) fn host(limits: Limits) -> Host {
    Host::new(limits).with_keeper(keeper_binary())
}

/// The keeper: this binary, on Linux.
#[cfg(target_os = "linux")]
fn keeper_binary() -> Option<PathBuf> {
    // The running binary itself, even if its file was replaced since it started (without
    // `/proc`, no keeper: the program's process group is ended, as elsewhere).
    let this = PathBuf::from("/proc/self/exe");
    this.exists().then_some(this)
}

#[cfg(not(target_os = "linux"))]
fn keeper_binary() -> Option<PathBuf> {
    None
}

/// `gin agent-keeper -- PROGRAM ARGS...`: what this binary runs as a program's keeper.
#[cfg(target_os = "linux")]
#[derive(Debug, clap::Args)]
pub(crate) struct KeeperArgs {
    /// The program and its arguments.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "PROGRAM")]
    pub(crate) program: Vec<std::ffi::OsString>,
}

/// What the help texts write for the built-in agents (`{agents}`: every name, as a list with
/// "or"), the default league (`{league}`) and the presets of the rules (`{presets}`), filled in
/// from the code's own tables by [`with_agents`].
const PLACEHOLDERS: [&str; 3] = ["{agents}", "{league}", "{presets}"];

/// `command` with every help text's placeholders written out from the registry's table of agents
/// ([`gin_ai::registry::AGENTS`]) and the rules' presets ([`gin_rules::Ruleset::PRESETS`]), in
/// every subcommand: each is named in one place.
pub(crate) fn with_agents(command: clap::Command) -> clap::Command {
    let values = [
        registry::names_listed("or"),
        registry::default_league().collect::<Vec<_>>().join(" "),
        gin_rules::Ruleset::PRESETS.join(", "),
    ];
    let fill = |text: String| {
        PLACEHOLDERS.iter().zip(&values).fold(text, |text, (placeholder, value)| text.replace(placeholder, value))
    };
    let has = |text: Option<&clap::builder::StyledStr>| {
        text.is_some_and(|text| PLACEHOLDERS.iter().any(|placeholder| text.to_string().contains(placeholder)))
    };
    let mut command = command;
    if has(command.get_long_about()) {
        let about = fill(command.get_long_about().map(ToString::to_string).unwrap_or_default());
        command = command.long_about(about);
    }
    let args: Vec<clap::Id> = command
        .get_arguments()
        .filter(|arg| has(arg.get_help()) || has(arg.get_long_help()))
        .map(|arg| arg.get_id().clone())
        .collect();
    for id in args {
        command = command.mut_arg(id, |arg| {
            let help = arg.get_help().map(|text| fill(text.to_string()));
            let long = arg.get_long_help().map(|text| fill(text.to_string()));
            let arg = match help {
                Some(help) => arg.help(help),
                None => arg,
            };
            match long {
                Some(long) => arg.long_help(long),
                None => arg,
            }
        });
    }
    let subcommands: Vec<String> = command.get_subcommands().map(|sub| sub.get_name().to_owned()).collect();
    for name in subcommands {
        command = command.mut_subcommand(name, with_agents);
    }
    command
}

/// The agents a parameter file configures, as a sentence names them (`expert, mc-fast and mc`).
pub(crate) fn param_takers() -> String {
    let names: Vec<&str> = registry::AGENTS.iter().filter(|agent| agent.takes_params).map(|agent| agent.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last} agents", rest.join(", ")),
        _ => format!("{} agent", names.join("")),
    }
}

/// Reads `--param`.
pub(crate) fn load_params(path: &Path) -> Result<AgentParams> {
    let text = files::read_text(path, "the parameter file", files::MAX_SETTINGS_FILE)?;
    AgentParams::from_json(&text)
        .map_err(|message| anyhow::anyhow!("invalid parameter file `{}`: {message}", path.display()))
}
