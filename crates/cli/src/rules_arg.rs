//! `--rules PRESET|FILE`: the ruleset of a command, a preset by name or a house-rules JSON file.

use std::fmt;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::Args;
use gin_rules::Ruleset;
use gin_tui::files;

/// The `--rules` option, shared by the commands that need a ruleset.
#[derive(Clone, Debug, Args)]
pub(crate) struct RulesArg {
    /// The rules: a preset ({presets}) or a house-rules JSON file such as
    /// {"preset": "pagat", "knock_limit": 7}. A preset name wins over a file of the same name
    /// (write ./standard to read such a file). `gin settings rules` lists every setting.
    #[arg(long = "rules", value_name = "PRESET|FILE", default_value = "standard")]
    spec: String,
}

/// Where a ruleset came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RulesSource {
    /// A preset, by its canonical name.
    Preset(&'static str),
    /// A house-rules file, by the path given.
    File(String),
}

impl fmt::Display for RulesSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesSource::Preset(name) => write!(f, "{name} rules"),
            RulesSource::File(path) => write!(f, "rules from {path}"),
        }
    }
}

impl RulesArg {
    /// Loads the ruleset: a preset if the value names one (any case), otherwise a JSON file.
    ///
    /// # Errors
    /// A file that cannot be read or is not a valid ruleset; the message names the path.
    pub(crate) fn load(&self) -> Result<(Ruleset, RulesSource)> {
        load(&self.spec)
    }
}

/// See [`RulesArg::load`].
fn load(spec: &str) -> Result<(Ruleset, RulesSource)> {
    if let Some(ruleset) = Ruleset::preset(spec) {
        let name = Ruleset::PRESETS.into_iter().find(|name| name.eq_ignore_ascii_case(spec.trim())).unwrap_or("custom");
        return Ok((ruleset, RulesSource::Preset(name)));
    }
    let path = Path::new(spec);
    if looks_like_a_name(spec) && fs::symlink_metadata(path).is_err() {
        bail!("--rules `{spec}` is neither a preset ({}) nor a readable file", Ruleset::PRESETS.join(", "));
    }
    let text = files::read_text(path, "the rules file", files::MAX_SETTINGS_FILE)?;
    let ruleset = Ruleset::from_json(&text).with_context(|| format!("invalid rules file `{}`", path.display()))?;
    Ok((ruleset, RulesSource::File(spec.to_owned())))
}

/// Whether the value looks like a mistyped preset rather than a path.
fn looks_like_a_name(spec: &str) -> bool {
    !spec.is_empty() && spec.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_rules::KnockLimit;

    #[test]
    fn presets_by_name_in_any_case() {
        let (rules, source) = load("Oklahoma").unwrap();
        assert_eq!(rules.knock_limit, KnockLimit::Upcard);
        assert_eq!(source, RulesSource::Preset("oklahoma"));
        assert_eq!(source.to_string(), "oklahoma rules");
    }

    #[test]
    fn unknown_names_and_missing_files_say_what_was_tried() {
        let err = format!("{:#}", load("okla").unwrap_err());
        assert!(err.starts_with("--rules `okla` is neither a preset (standard, pagat, eaai, oklahoma)"), "{err}");
        let err = format!("{:#}", load("no/such/rules.json").unwrap_err());
        assert!(err.starts_with("cannot read the rules file `no/such/rules.json`: "), "{err}");
    }
}
