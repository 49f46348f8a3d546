//! `gin settings`: every setting of the rules and of the agents, with what it takes, its default
//! and its meaning, printed from the settings' own tables (`gin_rules::settings`), the same
//! tables that parse and check them.

use std::fmt::Write as _;
use std::io::{self, Write as _};

use anyhow::Context;
use clap::{Args, ValueEnum};
use gin_ai::ExpertParams;
use gin_ai::registry::AgentParams;
use gin_rules::settings::{Settings, help};
use serde_json::Value;

use crate::rules_arg::RulesArg;
use crate::status::{Failure, Outcome};

/// `gin help settings`.
pub(crate) const LONG_ABOUT: &str = "\
List the settings of the rules and of the built-in agents: each one's name, what it takes (its \
type and range), its default and its meaning. Every reader of settings (rules files, agent specs, \
parameter files, saves) takes exactly these, and refuses anything else with a message that names \
the setting, what it takes and the value found.

Where each table is used:
  rules     a house-rules file for --rules: a JSON object of these settings, on top of a \
preset named by \"preset\" (standard when left out), as {\"preset\": \"pagat\", \"knock_limit\": 7}. \
The defaults shown are those of --rules (standard unless given).
  expert    the expert's parameters, in an agent spec (expert:danger_weight=2,knock_max_late=3) \
or at the top level of a --param file. The expert inside mc-fast and mc takes the same \
parameters, over defaults of its own (listed with mc-fast and mc), in their specs \
(mc:danger_weight=3) or at the top level of a --param file (which sets both experts).
  holder    the low holder's parameters, in an agent spec only (holder:knock_margin=2).
  mc-fast   the search's settings at the mc-fast level, in a spec (mc-fast:samples=400) or in \
the \"mc\" object of a --param file (which sets both levels).
  mc        the same settings at the mc level (mc:threads=2).";

/// The examples after `gin settings --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin settings
  gin settings rules --rules oklahoma
  gin settings expert
  gin settings holder
  gin sim --a expert:danger_weight=2 --b mc-fast:samples=400";

/// Which table of settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Table {
    /// The rule set's settings (a house-rules file).
    Rules,
    /// The expert's parameters.
    Expert,
    /// The low holder's parameters.
    Holder,
    /// The search's settings at the mc-fast level.
    McFast,
    /// The search's settings at the mc level.
    Mc,
}

/// The options of `gin settings`.
#[derive(Debug, Args)]
pub(crate) struct SettingsArgs {
    /// The table to list; all of them when left out.
    #[arg(value_enum, value_name = "TABLE")]
    table: Option<Table>,
    #[command(flatten)]
    rules: RulesArg,
}

/// The line under a search level's settings on the expert inside it: which of its defaults
/// differ from the `expert` agent's.
fn inner_expert(params: &AgentParams, inner: &ExpertParams) -> String {
    let (Value::Object(own), Value::Object(inner)) = (params.expert.to_json_value(), inner.to_json_value()) else {
        return String::new();
    };
    let differ: Vec<String> = ExpertParams::table()
        .iter()
        .filter(|setting| own.get(setting.name) != inner.get(setting.name))
        .filter_map(|setting| inner.get(setting.name).map(|value| format!("{}={value}", setting.name)))
        .collect();
    format!(
        "  + the expert parameters (gin settings expert), for the expert inside the search, whose defaults differ in: {}\n",
        differ.join(", ")
    )
}

/// Runs `gin settings`.
pub(crate) fn run(args: &SettingsArgs) -> Result<Outcome, Failure> {
    let (rules, source) = args.rules.load().map_err(Failure::usage)?;
    let params = AgentParams::default();
    let tables = match args.table {
        Some(table) => vec![table],
        None => vec![Table::Rules, Table::Expert, Table::Holder, Table::McFast, Table::Mc],
    };
    let mut text = String::new();
    for (index, table) in tables.into_iter().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        let (heading, body) = match table {
            Table::Rules => (format!("rules (defaults of the {source}; --rules FILE):"), help(&rules)),
            Table::Expert => {
                ("expert (expert:NAME=VALUE, or the top level of --param FILE):".to_owned(), help(&params.expert))
            }
            Table::Holder => ("holder (holder:NAME=VALUE):".to_owned(), help(&params.holder)),
            Table::McFast => (
                "mc-fast (mc-fast:NAME=VALUE, or \"mc\" in --param FILE):".to_owned(),
                help(&params.mc_fast) + &inner_expert(&params, &params.fast_expert),
            ),
            Table::Mc => (
                "mc (mc:NAME=VALUE, or \"mc\" in --param FILE):".to_owned(),
                help(&params.mc) + &inner_expert(&params, &params.mc_expert),
            ),
        };
        let _ = writeln!(text, "{heading}");
        text.push_str(&body);
    }
    io::stdout().lock().write_all(text.as_bytes()).context("cannot write to standard output")?;
    Ok(Outcome::Success)
}
