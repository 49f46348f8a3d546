//! Agents by name: `random`, `greedy`, `simple`, `expert`, `mc-fast`, `mc`, with settings
//! (`expert:danger_weight=2`, `mc:samples=500`).

use std::fmt;
use std::str::FromStr;

use gin_engine::{Agent, RandomAgent};

use crate::{ExpertAgent, ExpertParams, GreedyAgent, McAgent, McParams, SimpleAgent};

/// The names of the built-in agents, weakest first.
pub const NAMES: [&str; 6] = ["random", "greedy", "simple", "expert", "mc-fast", "mc"];

/// An agent's name and its settings, written `name` or `name:key=value,key=value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name.
    pub name: String,
    /// Its settings, in the order given.
    pub settings: Vec<(String, String)>,
}

/// Why a spec names no agent that can be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An empty spec.
    #[error("empty agent name: expected one of {}", NAMES.join(", "))]
    Empty,
    /// No agent of that name.
    #[error("unknown agent `{0}`: expected one of {names}", names = NAMES.join(", "))]
    UnknownAgent(String),
    /// A setting that is not `key=value`.
    #[error("bad setting `{0}` in the agent spec: expected key=value")]
    BadSetting(String),
    /// A setting the agent does not have, or a value it does not take.
    #[error("agent `{agent}`: {message}")]
    Setting {
        /// The agent.
        agent: String,
        /// What is wrong.
        message: String,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let settings = rest
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|setting| match setting.split_once('=') {
                Some((key, value)) if !key.trim().is_empty() => Ok((key.trim().to_owned(), value.trim().to_owned())),
                _ => Err(SpecError::BadSetting(setting.to_owned())),
            })
            .collect::<Result<_, _>>()?;
        Ok(AgentSpec { name: name.to_ascii_lowercase(), settings })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (key, value)) in self.settings.iter().enumerate() {
            write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// The settings a parameter file (`--param FILE`) gives the built-in agents: a JSON object of
/// expert parameters, with the search's settings in an optional `"mc"` object, as in
/// `{"danger_weight": 3, "mc": {"samples": 500}}`. The `mc` settings apply to `mc` and `mc-fast`
/// over their own levels; the expert parameters to `expert` and to the expert inside them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentParams {
    /// The expert's parameters.
    pub expert: ExpertParams,
    /// The search's settings, sorted by name, with their values as JSON text.
    pub mc: Vec<(String, String)>,
}

impl AgentParams {
    /// Reads a parameter file's text.
    ///
    /// # Errors
    /// A message naming what is not JSON, an unknown parameter or setting, or a bad value.
    pub fn from_json(text: &str) -> Result<AgentParams, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let serde_json::Value::Object(mut fields) = value else {
            return Err("expected a JSON object of parameters, such as {\"danger_weight\": 3}".to_owned());
        };
        let mut params = AgentParams::default();
        match fields.remove("mc") {
            None => {}
            Some(serde_json::Value::Object(settings)) => {
                let mut check = McParams::fast();
                for (name, value) in settings {
                    let value = value.to_string();
                    check.set(&name, &value).map_err(|message| format!("\"mc\": {message}"))?;
                    params.mc.push((name, value));
                }
            }
            Some(_) => return Err("\"mc\" must be an object of settings, such as {\"samples\": 500}".to_owned()),
        }
        params.expert = serde_json::from_value(serde_json::Value::Object(fields)).map_err(|e| e.to_string())?;
        Ok(params)
    }
}

/// Builds the agent a spec names, from `params` (the defaults, or a parameter file) with the
/// spec's settings on top.
///
/// # Errors
/// [`SpecError`] for an unknown agent or a setting it does not take.
pub fn build(spec: &AgentSpec, params: &AgentParams) -> Result<Box<dyn Agent + Send>, SpecError> {
    let no_settings = || {
        if let Some((key, _)) = spec.settings.first() {
            return Err(SpecError::Setting { agent: spec.name.clone(), message: format!("has no setting `{key}`") });
        }
        Ok(())
    };
    Ok(match spec.name.as_str() {
        "random" => {
            no_settings()?;
            Box::new(RandomAgent::default())
        }
        "greedy" => {
            no_settings()?;
            Box::new(GreedyAgent::default())
        }
        "simple" => {
            no_settings()?;
            Box::new(SimpleAgent::default())
        }
        "expert" => {
            let mut params = params.expert.clone();
            for (key, value) in &spec.settings {
                params.set(key, value).map_err(|message| SpecError::Setting { agent: spec.name.clone(), message })?;
            }
            Box::new(ExpertAgent::new(params))
        }
        "mc" | "mc-fast" => {
            let (name, mut search) =
                if spec.name == "mc" { ("mc", McParams::strong()) } else { ("mc-fast", McParams::fast()) };
            for (key, value) in params.mc.iter().chain(&spec.settings) {
                search.set(key, value).map_err(|message| SpecError::Setting { agent: spec.name.clone(), message })?;
            }
            Box::new(McAgent::new(name, search, params.expert.clone()))
        }
        other => return Err(SpecError::UnknownAgent(other.to_owned())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_display() {
        let spec: AgentSpec = "Expert:knock_bias=2, outs_weight=0.5".parse().unwrap();
        assert_eq!(spec.name, "expert");
        assert_eq!(spec.settings, [("knock_bias".into(), "2".into()), ("outs_weight".into(), "0.5".into())]);
        assert_eq!(spec.to_string(), "expert:knock_bias=2,outs_weight=0.5");
        assert_eq!("simple".parse::<AgentSpec>().unwrap().to_string(), "simple");
        assert_eq!("".parse::<AgentSpec>(), Err(SpecError::Empty));
        assert_eq!("expert:oops".parse::<AgentSpec>(), Err(SpecError::BadSetting("oops".into())));
    }

    #[test]
    fn every_name_builds_and_others_are_refused() {
        for name in NAMES {
            let agent = build(&name.parse().unwrap(), &AgentParams::default()).unwrap();
            assert_eq!(agent.name(), name);
        }
        let err = build(&"chess".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(
            err.to_string(),
            "unknown agent `chess`: expected one of random, greedy, simple, expert, mc-fast, mc"
        );
        let err = build(&"simple:x=1".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `simple`: has no setting `x`");
        let err = build(&"mc-fast:samples=lots".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `mc-fast`: setting `samples` does not take `lots`");
    }

    #[test]
    fn parameter_files_hold_expert_parameters_and_search_settings() {
        let params =
            AgentParams::from_json(r#"{"danger_weight": 5, "mc": {"samples": 48, "knock_margin": 0.5}}"#).unwrap();
        assert_eq!(params.expert.danger_weight, 5.0);
        assert_eq!(params.mc, [("knock_margin".into(), "0.5".into()), ("samples".into(), "48".into())]);
        // The spec's settings apply over the file's.
        assert!(build(&"mc:samples=64".parse().unwrap(), &params).is_ok());
        for (text, message) in [
            ("[1]", "expected a JSON object"),
            (r#"{"mc": 3}"#, "\"mc\" must be an object"),
            (r#"{"mc": {"sample": 3}}"#, "has no setting `sample`"),
            (r#"{"mc": {"threads": 0}}"#, "at least 1"),
            (r#"{"danger": 1}"#, "unknown field `danger`"),
            ("{", "EOF"),
        ] {
            let err = AgentParams::from_json(text).unwrap_err();
            assert!(err.contains(message), "{text}: {err}");
        }
    }
}
