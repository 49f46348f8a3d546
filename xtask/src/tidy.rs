//! Checks on the workspace's manifests that no compiler makes.

use std::fs;
use std::path::Path;

use anyhow::Context;

/// Every crate of the workspace by its folder (`crates/<folder>`, and `xtask`), with the
/// workspace crates it may depend on (dev-dependencies included). A crate folder missing from
/// this table fails `tidy`: a new crate states its place before it lands. docs/architecture.md
/// states the same edges.
pub(crate) const CRATES: &[(&str, &[&str])] = &[
    ("cards", &[]),
    ("rules", &["cards"]),
    ("engine", &["cards", "rules"]),
    ("ai", &["cards", "rules", "engine"]),
    ("protocol", &["cards", "rules", "engine"]),
    ("arena", &["cards", "rules", "engine", "ai", "protocol"]),
    ("tui", &["cards", "rules", "engine", "ai", "protocol", "arena"]),
    ("cli", &["cards", "rules", "engine", "ai", "protocol", "arena", "tui"]),
    ("xtask", &["cards", "rules", "engine", "ai", "protocol", "tui"]),
];

/// The workspace crates `crate_dir` may depend on, `None` for a folder not in [`CRATES`].
fn allowed(crate_dir: &str) -> Option<&'static [&'static str]> {
    CRATES.iter().find(|(folder, _)| *folder == crate_dir).map(|(_, deps)| *deps)
}

/// Reads every `crates/*/Cargo.toml` and `xtask/Cargo.toml` under `root` and lists what breaks
/// the rules.
pub(crate) fn check_workspace(root: &Path) -> anyhow::Result<Vec<String>> {
    let crates = root.join("crates");
    let mut problems = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(&crates)
        .with_context(|| format!("cannot list {}", crates.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot list {}", crates.display()))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    let mut manifests: Vec<(String, std::path::PathBuf)> = entries
        .iter()
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), entry.path().join("Cargo.toml")))
        .collect();
    manifests.push(("xtask".to_owned(), root.join("xtask").join("Cargo.toml")));
    for (name, _) in CRATES {
        if !manifests.iter().any(|(folder, _)| folder == name) {
            problems.push(format!("the table of crates in xtask/src/tidy.rs names `{name}`, which has no Cargo.toml"));
        }
    }
    for (name, manifest) in manifests {
        let text = fs::read_to_string(&manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
        problems.extend(check_manifest(&name, &text));
    }
    Ok(problems)
}

/// The problems of one crate's manifest: a crate folder not in [`CRATES`], a dependency on a
/// workspace crate the table does not allow, a dependency that does not come from the
/// workspace, a crate that does not take the workspace lints.
pub(crate) fn check_manifest(crate_dir: &str, manifest: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(me) = allowed(crate_dir) else {
        return vec![format!(
            "{}: a crate that is not in the table of crates (xtask/src/tidy.rs `CRATES`): add it there with the \
             workspace crates it may depend on, and to docs/architecture.md",
            folder(crate_dir)
        )];
    };
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

/// Where a crate's folder is: `crates/<name>`, or `xtask`.
fn folder(crate_dir: &str) -> String {
    if crate_dir == "xtask" { "xtask".to_owned() } else { format!("crates/{crate_dir}") }
}

fn check_dependency(crate_dir: &str, me: &[&str], dep: &str, from_workspace: Option<bool>) -> Vec<String> {
    let mut problems = Vec::new();
    let dep = dep.trim_matches('"');
    let workspace_crate = dep.strip_prefix("gin-").filter(|name| allowed(name).is_some());
    if let Some(name) = workspace_crate
        && !me.contains(&name)
    {
        let may = if me.is_empty() {
            "no workspace crate".to_owned()
        } else {
            me.iter().map(|name| format!("gin-{name}")).collect::<Vec<_>>().join(", ")
        };
        problems.push(format!(
            "{} depends on {dep}: the table of crates (xtask/src/tidy.rs `CRATES`) lets it depend on {may}",
            folder(crate_dir)
        ));
    }
    if from_workspace == Some(false) {
        problems.push(format!(
            "{}: declare {dep} once in [workspace.dependencies] and write `{dep}.workspace = true`",
            folder(crate_dir)
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
    fn a_crate_folder_not_in_the_table_is_caught() {
        let problems =
            check_manifest("arena2", "[dependencies]\ngin-cards.workspace = true\n[lints]\nworkspace = true\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("crates/arena2: a crate that is not in the table of crates"), "{problems:?}");
        // And in a whole workspace: a new folder under crates/ with a manifest.
        let root = std::env::temp_dir().join(format!("gin-tidy-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for (name, _) in CRATES {
            let dir = if *name == "xtask" { root.join("xtask") } else { root.join("crates").join(name) };
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join("Cargo.toml"), "[lints]\nworkspace = true\n").unwrap();
        }
        assert_eq!(check_workspace(&root).unwrap(), Vec::<String>::new());
        fs::create_dir_all(root.join("crates/extra")).unwrap();
        fs::write(root.join("crates/extra/Cargo.toml"), "[lints]\nworkspace = true\n").unwrap();
        let problems = check_workspace(&root).unwrap();
        fs::remove_dir_all(&root).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("crates/extra: a crate that is not in the table"), "{problems:?}");
    }

    #[test]
    fn a_dependency_the_table_does_not_allow_is_caught() {
        // xtask may use every library but not the command line.
        let problems = check_manifest("xtask", "[dependencies]\ngin-cli.workspace = true\n[lints]\nworkspace = true\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("xtask depends on gin-cli"), "{problems:?}");
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
