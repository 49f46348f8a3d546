//! `cargo xtask`: the project's chores.
//!
//! - `cargo xtask tidy`: checks that crate dependencies point one way
//!   (cards <- rules <- engine <- ai <- cli), that every dependency comes from
//!   `[workspace.dependencies]`, and that every crate takes the workspace lints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod tidy;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  tidy    check the layering of the crates and the rules for their manifests";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("tidy") => run_tidy(),
        Some("-h" | "--help") | None => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(anyhow::anyhow!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn run_tidy() -> anyhow::Result<()> {
    let problems = tidy::check_workspace(&workspace_root())?;
    if problems.is_empty() {
        println!("tidy: the crates are layered cards <- rules <- engine <- ai <- cli and their manifests are tidy");
        return Ok(());
    }
    for problem in &problems {
        eprintln!("- {problem}");
    }
    anyhow::bail!("tidy found {} problem(s)", problems.len())
}
