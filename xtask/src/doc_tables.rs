//! The settings tables of the docs, made from the settings' own tables (`gin_rules::settings`):
//! `cargo xtask tidy` checks that the docs hold them as made, `cargo xtask tidy --fix` writes them.
//!
//! A table sits in a Markdown file between `<!-- settings: NAME -->` and `<!-- /settings -->`.

use std::fs;
use std::path::Path;

use anyhow::Context;
use gin_ai::{ExpertParams, HolderParams, McParams};
use gin_rules::settings::markdown;
use gin_rules::{Preset, Ruleset};

/// One generated table: the file it lives in, its name, and its text.
pub(crate) struct DocTable {
    /// The file, from the workspace root.
    pub file: &'static str,
    /// The name in its markers.
    pub name: &'static str,
    /// The table as it must read.
    pub text: String,
}

/// Every generated table.
pub(crate) fn tables() -> Vec<DocTable> {
    let presets: Vec<(&str, Ruleset)> = Preset::ALL.iter().map(|preset| (preset.name(), preset.rules())).collect();
    let preset_columns: Vec<(&str, &Ruleset)> = presets.iter().map(|(name, rules)| (*name, rules)).collect();
    vec![
        DocTable { file: "docs/rules.md", name: "rules", text: markdown(&preset_columns) },
        DocTable {
            file: "docs/agents.md",
            name: "expert",
            text: markdown(&[
                ("`expert`", &ExpertParams::default()),
                ("inside `mc-fast`", &ExpertParams::searching()),
                ("inside `mc`", &ExpertParams::deep()),
            ]),
        },
        DocTable { file: "docs/agents.md", name: "holder", text: markdown(&[("default", &HolderParams::default())]) },
        DocTable {
            file: "docs/agents.md",
            name: "mc",
            text: markdown(&[("`mc-fast`", &McParams::fast()), ("`mc`", &McParams::strong())]),
        },
    ]
}

fn markers(name: &str) -> (String, &'static str) {
    (format!("<!-- settings: {name} -->\n"), "<!-- /settings -->")
}

/// The text between a table's markers in `doc`, and where it starts and ends; `None` without
/// markers.
fn find(doc: &str, name: &str) -> Option<(usize, usize)> {
    let (open, close) = markers(name);
    let start = doc.find(&open)? + open.len();
    let end = start + doc[start..].find(close)?;
    Some((start, end))
}

/// The tables that are missing from their files or differ from what the code gives; with `fix`,
/// rewrites the ones that differ (a missing block is only reported).
pub(crate) fn check(root: &Path, fix: bool) -> anyhow::Result<Vec<String>> {
    let mut problems = Vec::new();
    for table in tables() {
        let path = root.join(table.file);
        let doc = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        match find(&doc, table.name) {
            None => problems.push(format!(
                "{} has no settings table `{}`: add `{}` and `<!-- /settings -->` where it belongs",
                table.file,
                table.name,
                markers(table.name).0.trim_end()
            )),
            Some((start, end)) if doc[start..end] != table.text => {
                if fix {
                    let fixed = format!("{}{}{}", &doc[..start], table.text, &doc[end..]);
                    fs::write(&path, fixed).with_context(|| format!("cannot write {}", path.display()))?;
                } else {
                    problems.push(format!(
                        "the settings table `{}` in {} differs from the code's: run `cargo xtask tidy --fix`",
                        table.name, table.file
                    ));
                }
            }
            Some(_) => {}
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_hold_the_settings_tables_of_the_code() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let problems = check(&root, false).unwrap();
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn a_table_is_found_between_its_markers() {
        let doc = "intro\n<!-- settings: x -->\n| a |\n<!-- /settings -->\nrest";
        let (start, end) = find(doc, "x").unwrap();
        assert_eq!(&doc[start..end], "| a |\n");
        assert_eq!(find(doc, "y"), None);
        let rules = &tables()[0].text;
        assert!(
            rules.contains("| `target` | a whole number from 1 to 10000 | `100` | `100` | `100` | `150` |"),
            "{rules}"
        );
    }
}
