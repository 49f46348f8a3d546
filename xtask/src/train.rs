//! `cargo xtask train-knock`: trains the knock calibration of `mc` and `mc-fast` by self-play
//! and writes its weights file, which `gin_ai::calibration` reads: the games and their
//! counterfactuals ([`selfplay`]), the least-squares fit and the file ([`fit`]).
//!
//! Games are played in blocks; after each block the sums so far are fitted and the file is
//! written, so a run that stops loses at most one block, and `--resume` goes on from the games
//! the file records. The same seed and number of games give the same file on any machine and
//! thread count.

use std::path::{Path, PathBuf};

mod fit;
mod selfplay;

use fit::{KnockFile, KnockStats};

/// Games played between two writes of the file.
const BLOCK: u64 = 200;

/// What to train.
pub(crate) struct Plan {
    /// The total number of games the file should hold at the end.
    pub games: u64,
    /// The seed of the games (a file resumed must have been trained with it).
    pub seed: u64,
    /// Go on from the games in the file at `out` instead of starting again.
    pub resume: bool,
    /// The weights file to write (and, with `resume`, to read first).
    pub out: PathBuf,
    /// Threads that share the games (the file does not depend on it).
    pub threads: usize,
}

/// Runs the training; returns the file written.
pub(crate) fn run(plan: &Plan) -> anyhow::Result<KnockFile> {
    let (mut stats, mut done) = if plan.resume {
        let file = read(&plan.out)?;
        anyhow::ensure!(
            file.seed == plan.seed,
            "{} was trained with seed {}, not {}: pass --seed {} to resume it",
            plan.out.display(),
            file.seed,
            plan.seed,
            file.seed
        );
        (file.stats, file.games)
    } else {
        (KnockStats::default(), 0)
    };
    if done >= plan.games {
        eprintln!("train-knock: {} already holds {done} games (asked for {})", plan.out.display(), plan.games);
        return read(&plan.out);
    }
    let start = done;
    let started = std::time::Instant::now();
    let mut file = None;
    while done < plan.games {
        let end = (done + BLOCK).min(plan.games);
        stats.merge(&selfplay::collect(plan.seed, done..end, plan.threads));
        done = end;
        let rate = (done - start) as f64 / started.elapsed().as_secs_f64().max(1e-9);
        eprintln!(
            "train-knock: {done} of {} games, {} knock decisions, {rate:.1} games/s, about {:.0} s left",
            plan.games,
            stats.decisions,
            (plan.games - done) as f64 / rate
        );
        let Some(written) = KnockFile::new(plan.seed, done, stats.clone()) else {
            // No knock decision yet (a tiny run): nothing to fit.
            continue;
        };
        write(&plan.out, &written)?;
        file = Some(written);
    }
    file.ok_or_else(|| anyhow::anyhow!("no knock decision in {} games: nothing to fit", plan.games))
}

/// Reads and checks the weights file at `path`.
fn read(path: &Path) -> anyhow::Result<KnockFile> {
    let text = std::fs::read_to_string(path).map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?;
    KnockFile::parse(&text).map_err(|err| anyhow::anyhow!("{}: {err:#}", path.display()))
}

/// Writes through a temporary file, so an interrupted write leaves the old file whole.
fn write(path: &Path, file: &KnockFile) -> anyhow::Result<()> {
    let temporary = path.with_extension("json.partial");
    std::fs::write(&temporary, file.to_json())
        .map_err(|err| anyhow::anyhow!("cannot write {}: {err}", temporary.display()))?;
    std::fs::rename(&temporary, path).map_err(|err| anyhow::anyhow!("cannot write {}: {err}", path.display()))?;
    Ok(())
}
