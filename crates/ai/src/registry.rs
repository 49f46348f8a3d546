//! Agents by name: `random`, `taker`, `greedy`, `simple`, `expert`, `holder`, `mc-fast`, `mc`,
//! with settings (`expert:danger_weight=2`, `holder:knock_margin=2`, `mc:samples=500`): one table
//! of them, [`AGENTS`], with a one-line description of each ([`describe`]).

use std::fmt;
use std::str::FromStr;

use gin_cards::excerpt;
use gin_engine::{Agent, RandomAgent};
use gin_rules::settings::{NAME_CHARS, PARSER_CHARS, SettingError, Settings};
use serde_json::Value;

use crate::{
    Advisor, ExpertAgent, ExpertParams, GreedyAgent, HolderAgent, HolderParams, McAgent, McParams, SimpleAgent,
    TakerAgent,
};

/// A built-in agent, as the registry knows it: one row of [`AGENTS`], from which the command
/// line's help, the check of `--param`, the settings listing and the default league all come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltIn {
    /// Its name, as specs write it.
    pub name: &'static str,
    /// Its style, in one line.
    pub description: &'static str,
    /// Whether a parameter file (`--param`) configures it: the expert and the searches built on
    /// the expert.
    pub takes_params: bool,
    /// Whether the default league seats it: one agent of each style.
    pub in_default_league: bool,
}

/// Every built-in agent, weakest first.
pub const AGENTS: [BuiltIn; 8] = [
    BuiltIn {
        name: "random",
        description: "a uniformly random legal action",
        takes_params: false,
        in_default_league: false,
    },
    BuiltIn {
        name: "taker",
        description: "a pile taker: takes the face-up card whenever it melds or would be kept, knocks at once",
        takes_params: false,
        in_default_league: true,
    },
    BuiltIn {
        name: "greedy",
        description: "the original Java project's heuristic: discards by deadwood, bridges and danger, knocks at once",
        takes_params: false,
        in_default_league: false,
    },
    BuiltIn {
        name: "simple",
        description: "the EAAI sample player: takes the face-up card only for a meld, knocks at once",
        takes_params: false,
        in_default_league: true,
    },
    BuiltIn {
        name: "expert",
        description: "a gin hunter: outs and danger, knocks only in the first turns and otherwise plays for gin",
        takes_params: true,
        in_default_league: true,
    },
    BuiltIn {
        name: "holder",
        description: "a low holder: keeps its deadwood low and waits for gin, knocks only when an undercut looks unlikely",
        takes_params: false,
        in_default_league: true,
    },
    BuiltIn {
        name: "mc-fast",
        description: "the expert with its knocks checked by a Monte Carlo search (200 futures) and a learned correction",
        takes_params: true,
        in_default_league: true,
    },
    BuiltIn {
        name: "mc",
        description: "as mc-fast, with 2,000 futures, its discards weighed two draws ahead and the best few searched",
        takes_params: true,
        in_default_league: false,
    },
];

/// The names of the built-in agents, weakest first (the names of [`AGENTS`]).
pub const NAMES: [&str; AGENTS.len()] = {
    let mut names = [""; AGENTS.len()];
    let mut i = 0;
    while i < AGENTS.len() {
        names[i] = AGENTS[i].name;
        i += 1;
    }
    names
};

/// The built-in agent `name`, if there is one.
pub fn builtin(name: &str) -> Option<&'static BuiltIn> {
    AGENTS.iter().find(|agent| agent.name == name)
}

/// The one-line description of the built-in agent `name`, if there is one.
pub fn describe(name: &str) -> Option<&'static str> {
    builtin(name).map(|agent| agent.description)
}

/// The agents' names as a sentence lists them: `random, taker, ..., mc-fast or mc` (with `or`).
pub fn names_listed(conjunction: &str) -> String {
    match NAMES.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {conjunction} {last}", rest.join(", ")),
        _ => NAMES.join(", "),
    }
}

/// The agents of the default league, weakest first.
pub fn default_league() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().filter(|agent| agent.in_default_league).map(|agent| agent.name)
}

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
    /// A setting that an agent without settings was given.
    #[error("agent `{agent}` has no settings (found `{setting}`)")]
    NoSettings {
        /// The agent.
        agent: String,
        /// The setting given.
        setting: String,
    },
    /// A setting the agent does not have, or a value it does not take.
    #[error("agent `{agent}`: {error}")]
    Setting {
        /// The agent.
        agent: String,
        /// What is wrong.
        error: SettingError,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        // Blanks around the name go, as around the settings: what is displayed reads back.
        let name = name.trim();
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let settings = rest
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|setting| match setting.split_once('=') {
                Some((key, value)) if !key.trim().is_empty() => Ok((key.trim().to_owned(), value.trim().to_owned())),
                _ => Err(SpecError::BadSetting(excerpt(setting, NAME_CHARS))),
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
/// over their own levels; the expert parameters to `expert` and to the expert inside them (each
/// over its own defaults: [`ExpertParams::default`], [`ExpertParams::searching`] inside `mc-fast`,
/// [`ExpertParams::deep`] inside `mc`).
/// The low holder's parameters (`holder`) come from its defaults and its spec only.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentParams {
    /// The expert's parameters.
    pub expert: ExpertParams,
    /// The parameters of the expert inside `mc-fast`.
    pub fast_expert: ExpertParams,
    /// The parameters of the expert inside `mc`.
    pub mc_expert: ExpertParams,
    /// The low holder's parameters (a parameter file does not set them).
    pub holder: HolderParams,
    /// The search's settings at the `mc-fast` level.
    pub mc_fast: McParams,
    /// The search's settings at the `mc` level.
    pub mc: McParams,
}

impl Default for AgentParams {
    fn default() -> AgentParams {
        AgentParams {
            expert: ExpertParams::default(),
            fast_expert: ExpertParams::searching(),
            mc_expert: ExpertParams::deep(),
            holder: HolderParams::default(),
            mc_fast: McParams::fast(),
            mc: McParams::strong(),
        }
    }
}

/// Why a parameter file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// Not JSON; carries the parser's message.
    #[error("not valid json: {0}")]
    Json(String),
    /// JSON, but not an object.
    #[error("expected a JSON object of parameters, such as {{\"danger_weight\": 3}}")]
    NotAnObject,
    /// `"mc"` is not an object.
    #[error("\"mc\" must be an object of settings, such as {{\"samples\": 500}}")]
    McNotAnObject,
    /// An expert parameter refused.
    #[error("{0}")]
    Expert(SettingError),
    /// A search setting refused.
    #[error("\"mc\": {0}")]
    Mc(SettingError),
}

impl AgentParams {
    /// Reads a parameter file's text.
    ///
    /// # Errors
    /// [`ParamsError`]: text that is not a JSON object, an unknown parameter or setting, or a
    /// value of the wrong type or out of its range (the message names it and its range).
    pub fn from_json(text: &str) -> Result<AgentParams, ParamsError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ParamsError::Json(excerpt(&e.to_string(), PARSER_CHARS)))?;
        let Value::Object(mut fields) = value else { return Err(ParamsError::NotAnObject) };
        let mut params = AgentParams::default();
        match fields.remove("mc") {
            None => {}
            Some(Value::Object(settings)) => {
                params.mc_fast.set_all(&settings).map_err(ParamsError::Mc)?;
                params.mc.set_all(&settings).map_err(ParamsError::Mc)?;
            }
            Some(_) => return Err(ParamsError::McNotAnObject),
        }
        params.expert.set_all(&fields).map_err(ParamsError::Expert)?;
        params.fast_expert.set_all(&fields).map_err(ParamsError::Expert)?;
        params.mc_expert.set_all(&fields).map_err(ParamsError::Expert)?;
        Ok(params)
    }
}

/// Builds the agent a spec names, from `params` (the defaults, or a parameter file) with the
/// spec's settings on top.
///
/// # Errors
/// [`SpecError`] for an unknown agent or a setting it does not take.
pub fn build(spec: &AgentSpec, params: &AgentParams) -> Result<Box<dyn Agent + Send>, SpecError> {
    let no_settings = || match spec.settings.first() {
        Some((key, _)) => {
            Err(SpecError::NoSettings { agent: excerpt(&spec.name, NAME_CHARS), setting: excerpt(key, NAME_CHARS) })
        }
        None => Ok(()),
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
        "taker" => {
            no_settings()?;
            Box::new(TakerAgent::new())
        }
        "holder" => Box::new(holder(spec, params)?),
        "expert" => Box::new(expert(spec, params)?),
        "mc" | "mc-fast" => Box::new(search(spec, params)?),
        other => return Err(SpecError::UnknownAgent(excerpt(other, NAME_CHARS))),
    })
}

/// The agent whose hints stand for the level a spec names: `expert`, `mc-fast` and `mc` explain
/// their own choices; the other levels, which keep no reasons, are advised by the expert.
///
/// # Errors
/// [`SpecError`] for an unknown agent or a setting it does not take.
pub fn build_advisor(spec: &AgentSpec, params: &AgentParams) -> Result<Box<dyn Advisor + Send>, SpecError> {
    // The spec is checked whatever advises on it.
    build(spec, params)?;
    Ok(match spec.name.as_str() {
        "mc" | "mc-fast" => Box::new(search(spec, params)?),
        "expert" => Box::new(expert(spec, params)?),
        _ => Box::new(ExpertAgent::new(params.expert.clone())),
    })
}

/// The expert a spec named `expert` describes.
fn expert(spec: &AgentSpec, params: &AgentParams) -> Result<ExpertAgent, SpecError> {
    let mut expert = params.expert.clone();
    for (key, value) in &spec.settings {
        expert.set_text(key, value).map_err(|error| SpecError::Setting { agent: spec.name.clone(), error })?;
    }
    Ok(ExpertAgent::new(expert))
}

/// The low holder a spec named `holder` describes.
fn holder(spec: &AgentSpec, params: &AgentParams) -> Result<HolderAgent, SpecError> {
    let mut holder = params.holder.clone();
    for (key, value) in &spec.settings {
        holder.set_text(key, value).map_err(|error| SpecError::Setting { agent: spec.name.clone(), error })?;
    }
    Ok(HolderAgent::new(holder))
}

/// The searcher a spec named `mc` or `mc-fast` describes: its settings are the search's
/// ([`McParams`]) and the expert's inside it ([`ExpertParams`]), as in `mc:samples=500,danger_weight=3`.
fn search(spec: &AgentSpec, params: &AgentParams) -> Result<McAgent, SpecError> {
    let (name, mut search, mut expert) = if spec.name == "mc" {
        ("mc", params.mc.clone(), params.mc_expert.clone())
    } else {
        ("mc-fast", params.mc_fast.clone(), params.fast_expert.clone())
    };
    for (key, value) in &spec.settings {
        let known = |table: &[&str]| table.contains(&key.as_str());
        let result = if known(&setting_names::<McParams>()) {
            search.set_text(key, value)
        } else if known(&setting_names::<ExpertParams>()) {
            expert.set_text(key, value)
        } else {
            let valid = [setting_names::<McParams>(), setting_names::<ExpertParams>()].concat().join(", ");
            Err(SettingError::Unknown { name: excerpt(key, NAME_CHARS), valid })
        };
        result.map_err(|error| SpecError::Setting { agent: spec.name.clone(), error })?;
    }
    Ok(McAgent::new(name, search, expert))
}

/// The names of a settings table, in order.
fn setting_names<T: Settings>() -> Vec<&'static str> {
    T::table().iter().map(|setting| setting.name).collect()
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
        // Found by `cargo xtask fuzz`: a blank before the colon kept, so the spec read back
        // otherwise once displayed.
        let spaced: AgentSpec = "Expert\t: danger_weight = 2 ,".parse().unwrap();
        assert_eq!(spaced.to_string(), "expert:danger_weight=2");
        assert_eq!(spaced.to_string().parse::<AgentSpec>(), Ok(spaced));
        assert_eq!(" :x=1".parse::<AgentSpec>(), Err(SpecError::Empty));
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
            "unknown agent `chess`: expected one of random, taker, greedy, simple, expert, holder, mc-fast, mc"
        );
        let err = build(&"taker:x=1".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `taker` has no settings (found `x`)");
        let err = build(&"holder:knock_margin=500".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `holder`: setting `knock_margin` must be from -100 to 100, found 500");
        let err = build(&"holder:margin=1".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert!(err.to_string().starts_with("agent `holder`: unknown setting `margin`"), "{err}");
        assert!(build(&"holder:knock_margin=2,early_draws=4".parse().unwrap(), &AgentParams::default()).is_ok());
        let err = build(&"simple:x=1".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `simple` has no settings (found `x`)");
        let err = build(&"mc-fast:samples=lots".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(
            err.to_string(),
            r#"agent `mc-fast`: setting `samples` expects a whole number from 0 to 1000000, found "lots""#
        );
        let err = build(&"expert:danger_weight=500".parse().unwrap(), &AgentParams::default()).err().unwrap();
        assert_eq!(err.to_string(), "agent `expert`: setting `danger_weight` must be from -100 to 100, found 500");
    }

    #[test]
    fn a_search_spec_sets_the_search_and_the_expert_inside_it() {
        let params = AgentParams::default();
        assert_eq!(params.fast_expert, ExpertParams::searching());
        assert_eq!(params.mc_expert, ExpertParams::deep());
        assert_ne!(params.fast_expert, params.expert);
        assert_ne!(params.mc_expert, params.fast_expert);
        let spec = "mc-fast:samples=64,gin_outs_weight=4,danger_weight=3".parse().unwrap();
        let tuned = search(&spec, &params).unwrap();
        assert_eq!(tuned.params().samples, 64);
        assert_eq!(tuned.expert_params(), &ExpertParams::default());
        assert_eq!(search(&"mc".parse().unwrap(), &params).unwrap().expert_params(), &ExpertParams::deep());
        let shallow = search(&"mc:outlook_depth=1".parse().unwrap(), &params).unwrap();
        assert_eq!(shallow.expert_params(), &ExpertParams::searching());
        let err = build(&"mc:dangerweight=1".parse().unwrap(), &params).err().unwrap().to_string();
        assert!(err.starts_with("agent `mc`: unknown setting `dangerweight`; valid settings: samples,"), "{err}");
        assert!(
            err.contains("evidence, calibrated, one_draw_share, deadwood_weight,")
                && err.ends_with("high_from, outlook_depth"),
            "{err}"
        );
        let err = build(&"mc:danger_weight=500".parse().unwrap(), &params).err().unwrap().to_string();
        assert_eq!(err, "agent `mc`: setting `danger_weight` must be from -100 to 100, found 500");
        // A parameter file sets every expert, each over its own defaults.
        let file = AgentParams::from_json(r#"{"danger_weight": 5}"#).unwrap();
        assert_eq!(
            (file.expert.danger_weight, file.fast_expert.danger_weight, file.mc_expert.danger_weight),
            (5.0, 5.0, 5.0)
        );
        assert_eq!((file.expert.gin_outs_weight, file.fast_expert.gin_outs_weight), (4.0, 30.0));
        assert_eq!((file.fast_expert.outlook_depth, file.mc_expert.outlook_depth), (1, 2));
    }

    #[test]
    fn every_agent_has_one_line_of_description() {
        for agent in &AGENTS {
            assert_eq!(describe(agent.name), Some(agent.description));
            let line = agent.description;
            assert!(!line.is_empty() && !line.contains('\n') && line.len() <= 110, "{}: {line}", agent.name);
        }
        assert_eq!(describe("chess"), None);
        assert_eq!(NAMES.len(), AGENTS.len());
        assert_eq!(names_listed("or"), "random, taker, greedy, simple, expert, holder, mc-fast or mc");
        assert_eq!(default_league().collect::<Vec<_>>(), ["taker", "simple", "expert", "holder", "mc-fast"]);
    }

    #[test]
    fn the_agents_a_parameter_file_configures_are_those_built_on_the_expert() {
        // A parameter file holds the expert's settings: exactly the agents that take one accept
        // an expert setting in their spec.
        for agent in &AGENTS {
            let spec: AgentSpec = format!("{}:outlook_depth=1", agent.name).parse().unwrap();
            let accepted = build(&spec, &AgentParams::default()).is_ok();
            assert_eq!(agent.takes_params, accepted, "{}", agent.name);
        }
    }

    #[test]
    fn advisors_are_the_level_itself_or_the_expert() {
        let params = AgentParams::default();
        for (spec, advisor) in [
            ("mc", "mc"),
            ("mc-fast:samples=64", "mc-fast"),
            ("expert", "expert"),
            ("simple", "expert"),
            ("holder", "expert"),
            ("taker", "expert"),
        ] {
            assert_eq!(build_advisor(&spec.parse().unwrap(), &params).unwrap().name(), advisor, "{spec}");
        }
        assert!(build_advisor(&"mc:samples=x".parse().unwrap(), &params).is_err());
    }

    #[test]
    fn parameter_files_hold_expert_parameters_and_search_settings() {
        let params =
            AgentParams::from_json(r#"{"danger_weight": 5, "mc": {"samples": 48, "knock_margin": 0.5}}"#).unwrap();
        assert_eq!(params.expert.danger_weight, 5.0);
        assert_eq!((params.mc.samples, params.mc.knock_margin), (48, 0.5));
        assert_eq!((params.mc_fast.samples, params.mc_fast.knock_margin), (48, 0.5));
        assert_eq!(params.mc.threads, McParams::strong().threads);
        // The spec's settings apply over the file's.
        assert!(build(&"mc:samples=64".parse().unwrap(), &params).is_ok());
        for (text, message) in [
            ("[1]", "expected a JSON object"),
            (r#"{"mc": 3}"#, "\"mc\" must be an object"),
            (r#"{"mc": {"sample": 3}}"#, "\"mc\": unknown setting `sample`; valid settings: samples,"),
            (r#"{"mc": {"threads": 0}}"#, "\"mc\": setting `threads` must be from 1 to 256, found 0"),
            (r#"{"danger": 1}"#, "unknown setting `danger`; valid settings: deadwood_weight,"),
            ("{", "not valid json: EOF"),
        ] {
            let err = AgentParams::from_json(text).unwrap_err().to_string();
            assert!(err.starts_with(message), "{text}: {err}");
        }
    }
}
