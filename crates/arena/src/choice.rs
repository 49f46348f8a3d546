//! [`AgentChoice`]: an agent named by its spec, built in (`expert:knock_bias=2`) or a program
//! (`cmd:PROGRAM ARGS...`), and [`build_agent`], which makes it.

use std::fmt;
use std::str::FromStr;

use gin_ai::registry::{self, AgentParams, AgentSpec, SpecError};
use gin_engine::Agent;
use gin_protocol::v1;

use crate::error::ArenaError;
use crate::host::{ExternalAgent, Host};

/// The prefix of an agent spec that names a program, which speaks the protocol's current version.
pub const PROGRAM_PREFIX: &str = "cmd:";

/// The prefix of an agent spec that names a program written to the protocol's first version.
pub const V1_PROGRAM_PREFIX: &str = "cmd-v1:";

/// An agent by spec: built in (`simple`, `expert:knock_bias=2`) or a program (`cmd:python3 a.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentChoice {
    /// A built-in agent.
    Builtin(AgentSpec),
    /// A program and its arguments, split on whitespace.
    Program(Program),
}

/// An agent program: its command line, and the version of the protocol it speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program and its arguments.
    pub words: Vec<String>,
    /// [`gin_protocol::VERSION`], or 1 for a program started as `cmd-v1:`.
    pub version: u32,
}

/// Why an agent spec names no agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChoiceError {
    /// A built-in agent's spec that is not right.
    Spec(SpecError),
    /// `cmd:` with no program after it.
    NoProgram,
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceError::Spec(err) => err.fmt(f),
            ChoiceError::NoProgram => write!(f, "no program given: write {PROGRAM_PREFIX}PROGRAM ARGS..."),
        }
    }
}

impl std::error::Error for ChoiceError {}

/// Whether `text` names a program (`cmd:...` or `cmd-v1:...`), as [`AgentChoice::from_str`] reads it.
pub fn names_program(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with(PROGRAM_PREFIX) || text.starts_with(V1_PROGRAM_PREFIX)
}

impl FromStr for AgentChoice {
    type Err = ChoiceError;

    fn from_str(text: &str) -> Result<AgentChoice, ChoiceError> {
        let text = text.trim_start();
        let program = match (text.strip_prefix(PROGRAM_PREFIX), text.strip_prefix(V1_PROGRAM_PREFIX)) {
            (Some(command), _) => Some((command, gin_protocol::VERSION)),
            (None, Some(command)) => Some((command, v1::VERSION)),
            (None, None) => None,
        };
        match program {
            Some((command, version)) => {
                let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
                if words.is_empty() {
                    return Err(ChoiceError::NoProgram);
                }
                Ok(AgentChoice::Program(Program { words, version }))
            }
            None => text.parse().map(AgentChoice::Builtin).map_err(ChoiceError::Spec),
        }
    }
}

impl fmt::Display for AgentChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentChoice::Builtin(spec) => spec.fmt(f),
            AgentChoice::Program(Program { words, version }) => {
                let prefix = if *version == v1::VERSION { V1_PROGRAM_PREFIX } else { PROGRAM_PREFIX };
                write!(f, "{prefix}{}", words.join(" "))
            }
        }
    }
}

impl AgentChoice {
    /// Whether this is a built-in agent that a parameter file configures
    /// ([`gin_ai::registry::BuiltIn::takes_params`]).
    pub fn takes_params(&self) -> bool {
        matches!(self, AgentChoice::Builtin(spec) if registry::builtin(&spec.name).is_some_and(|agent| agent.takes_params))
    }

    /// Whether this is a program played over the protocol.
    pub fn is_program(&self) -> bool {
        matches!(self, AgentChoice::Program(_))
    }

    /// Checks the spec without starting anything.
    ///
    /// # Errors
    /// An unknown built-in agent or a bad setting.
    pub fn check(&self, params: &AgentParams) -> Result<(), SpecError> {
        if let AgentChoice::Builtin(spec) = self {
            registry::build(spec, params)?;
        }
        Ok(())
    }
}

/// Builds the agent a choice names: a built-in agent, or a started program with its time
/// limits (which resigns, saying why, when it misbehaves).
///
/// # Errors
/// An unknown built-in agent or a bad setting; a program that cannot be started.
pub fn build_agent(
    choice: &AgentChoice,
    params: &AgentParams,
    host: &Host,
) -> Result<Box<dyn Agent + Send>, ArenaError> {
    let failed = |message: String| ArenaError::Agent { agent: choice.to_string(), message };
    match choice {
        AgentChoice::Builtin(spec) => registry::build(spec, params).map_err(|err| failed(err.to_string())),
        AgentChoice::Program(program) => match ExternalAgent::start(program, host) {
            Ok(agent) => Ok(Box::new(agent)),
            Err(err) => Err(failed(format!("{err:#}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_builtin_agent_or_a_program() {
        let program: AgentChoice = "cmd:python3  agent.py --fast".parse().unwrap();
        let words = vec!["python3".to_owned(), "agent.py".to_owned(), "--fast".to_owned()];
        assert_eq!(program, AgentChoice::Program(Program { words: words.clone(), version: gin_protocol::VERSION }));
        assert_eq!(program.to_string(), "cmd:python3 agent.py --fast");
        let old: AgentChoice = " cmd-v1:python3 agent.py --fast".parse().unwrap();
        assert_eq!(old, AgentChoice::Program(Program { words, version: 1 }));
        assert_eq!(old.to_string(), "cmd-v1:python3 agent.py --fast");
        assert!(names_program(" cmd-v1:x") && names_program("cmd:x") && !names_program("cmdv1:x"));
        assert!("cmd-v1:".parse::<AgentChoice>().unwrap_err().to_string().contains("no program given"));
        let builtin: AgentChoice = "expert:knock_bias=2".parse().unwrap();
        assert!(builtin.takes_params() && !"holder".parse::<AgentChoice>().unwrap().takes_params());
        assert_eq!(builtin.to_string(), "expert:knock_bias=2");
        assert!("cmd:  ".parse::<AgentChoice>().unwrap_err().to_string().contains("no program given"));
    }
}
