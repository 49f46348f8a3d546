//! Checks on the workspace's manifests that no compiler makes.

use std::fs;
use std::path::Path;

use anyhow::Context;

/// The library layers, lowest first: a crate may depend only on crates to its left.
pub(crate) const LAYERS: [&str; 5] = ["cards", "rules", "engine", "ai", "cli"];

/// Reads every `crates/*/Cargo.toml` under `root` and lists what breaks the rules.
pub(crate) fn check_workspace(root: &Path) -> anyhow::Result<Vec<String>> {
    let crates = root.join("crates");
    let mut problems = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(&crates)
        .with_context(|| format!("cannot list {}", crates.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot list {}", crates.display()))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let manifest = entry.path().join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let text = fs::read_to_string(&manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
        problems.extend(check_manifest(&name, &text));
    }
    Ok(problems)
}

/// The problems of one crate's manifest: a dependency on a layer to its right, a dependency
/// that does not come from the workspace, a crate that does not take the workspace lints.
pub(crate) fn check_manifest(crate_dir: &str, manifest: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let me = LAYERS.iter().position(|&layer| layer == crate_dir);
    let mut section = String::new();
    let mut lints_from_workspace = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').trim().to_owned();
            // `[dependencies.gin-cli]` names a dependency in its header.
            if let Some((table, dep)) = section.rsplit_once('.')
                && is_dependency_table(table)
            {
                problems.extend(check_dependency(crate_dir, me, dep, None));
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if section == "lints" && key == "workspace" && value.trim() == "true" {
            lints_from_workspace = true;
        }
        if is_dependency_table(&section) {
            let (dep, rest) = match key.split_once('.') {
                Some((dep, rest)) => (dep.trim(), Some(rest.trim())),
                None => (key, None),
            };
            let from_workspace = rest == Some("workspace") || value.contains("workspace = true");
            problems.extend(check_dependency(crate_dir, me, dep, Some(from_workspace)));
        }
    }
    if !lints_from_workspace {
        problems.push(format!("crates/{crate_dir}: add `[lints] workspace = true` to take the workspace lints"));
    }
    problems
}

/// Whether a table header holds dependencies (`dependencies`, `dev-dependencies`, target-specific ones).
fn is_dependency_table(section: &str) -> bool {
    section.ends_with("dependencies") && !section.starts_with("workspace")
}

fn check_dependency(crate_dir: &str, me: Option<usize>, dep: &str, from_workspace: Option<bool>) -> Vec<String> {
    let mut problems = Vec::new();
    let dep = dep.trim_matches('"');
    let layer = dep.strip_prefix("gin-").unwrap_or(dep);
    if let (Some(me), Some(other)) = (me, LAYERS.iter().position(|&l| l == layer))
        && other >= me
        && layer != crate_dir
    {
        problems
            .push(format!("crates/{crate_dir} depends on {dep}: dependencies point one way, {}", LAYERS.join(" <- ")));
    }
    if from_workspace == Some(false) {
        problems.push(format!(
            "crates/{crate_dir}: declare {dep} once in [workspace.dependencies] and write `{dep}.workspace = true`"
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_is_tidy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let problems = check_workspace(root).unwrap();
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn an_upward_dependency_is_caught() {
        let manifest = "[package]\nname = \"gin-rules\"\n\n[dependencies]\ngin-cards.workspace = true\ngin-engine.workspace = true\n\n[lints]\nworkspace = true\n";
        let problems = check_manifest("rules", manifest);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("crates/rules depends on gin-engine"), "{problems:?}");
    }

    #[test]
    fn every_form_of_dependency_is_read() {
        let manifest = "[dev-dependencies]\ngin-cli = { workspace = true }\n[dependencies.gin-ai]\nworkspace = true\n[lints]\nworkspace = true\n";
        let problems = check_manifest("cards", manifest);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn local_versions_and_missing_lints_are_caught() {
        let problems = check_manifest("cli", "[dependencies]\nclap = \"4\"\ngin-cards.workspace = true\n");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("declare clap once"), "{problems:?}");
        assert!(problems[1].contains("[lints] workspace = true"), "{problems:?}");
    }
}
