//! `ExpertAgent` (being written) and its parameter table.

use gin_engine::{Action, Agent, PlayerView, RandomAgent};

/// Every weight of the expert agent. A JSON file may override any of them by name.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpertParams {
    /// Weight of the deadwood left after a discard.
    pub deadwood: f64,
}

impl Default for ExpertParams {
    fn default() -> ExpertParams {
        ExpertParams { deadwood: 1.0 }
    }
}

impl ExpertParams {
    /// Reads parameters from JSON; names not given keep their defaults.
    ///
    /// # Errors
    /// The JSON error, naming an unknown parameter or a value of the wrong type.
    pub fn from_json(text: &str) -> Result<ExpertParams, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Sets one parameter by name from its text.
    ///
    /// # Errors
    /// A message naming the unknown parameter or the bad value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut table = serde_json::to_value(&*self).map_err(|e| e.to_string())?;
        let slot = table.get_mut(name).ok_or_else(|| format!("has no setting `{name}`"))?;
        *slot = serde_json::from_str(value).map_err(|_| format!("setting `{name}` takes a number, not `{value}`"))?;
        *self = serde_json::from_value(table).map_err(|e| format!("setting `{name}`: {e}"))?;
        Ok(())
    }
}

/// Placeholder while the expert is written.
#[derive(Clone, Debug, Default)]
pub struct ExpertAgent {
    params: ExpertParams,
    inner: RandomAgent,
}

impl ExpertAgent {
    /// An expert with these parameters.
    pub fn new(params: ExpertParams) -> ExpertAgent {
        ExpertAgent { params, inner: RandomAgent::default() }
    }

    /// Its parameters.
    pub fn params(&self) -> &ExpertParams {
        &self.params
    }
}

impl Agent for ExpertAgent {
    fn name(&self) -> &str {
        "expert"
    }
    fn choose(&mut self, view: &PlayerView<'_>, legal: &[Action]) -> Action {
        self.inner.choose(view, legal)
    }
}
