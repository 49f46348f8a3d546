//! The command line's side of agents: the options every command that starts agent programs takes
//! (`--agent-timeout`, `--agent-startup`), `--param` files, and the hidden `agent-keeper` command
//! through which this binary keeps each program it starts (see [`gin_arena::keeper`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use gin_ai::registry::AgentParams;
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

/// Reads `--param`.
pub(crate) fn load_params(path: &Path) -> Result<AgentParams> {
    let text = files::read_text(path, "the parameter file", files::MAX_SETTINGS_FILE)?;
    AgentParams::from_json(&text)
        .map_err(|message| anyhow::anyhow!("invalid parameter file `{}`: {message}", path.display()))
}
