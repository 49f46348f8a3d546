//! Where agent programs' standard error goes: a private folder of the run's own, made anew with
//! an unguessable name and mode 0700 in the temporary directory, holding one log per program
//! started, each created new with mode 0600 (never a file or link that was already there).
//!
//! Each log keeps the last [`LOG_KEEP`] bytes its program wrote (the file reaches at most twice
//! that while the program runs), and all the logs of a run together hold at most the cap given to
//! [`LogDir::new`] ([`RUN_CAP`] in the commands): when a write would pass it, the oldest logs of
//! programs that have ended are removed first; if that is not enough, the write is held back, and
//! the log gets the program's last bytes when it ends, if they fit then.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// How much of a program's standard error its log keeps: the last MiB.
pub(crate) const LOG_KEEP: usize = 1 << 20;

/// The most all the agent logs of one run may hold together: 64 MiB.
pub(crate) const RUN_CAP: u64 = 64 << 20;

/// The logs of one run (a `gin sim`, a `gin league`, a `gin play`), shared by every program it
/// starts. The folder is made when the first log is; it is removed at the end if no log is left
/// in it.
#[derive(Debug)]
pub(crate) struct LogDir {
    cap: u64,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    folder: Option<Folder>,
    /// The number of the next log.
    next: u64,
    /// The logs on disk, oldest first.
    logs: VecDeque<Entry>,
    /// Their sizes added up.
    total: u64,
    /// How many logs were removed to stay within the cap.
    evicted: u64,
}

#[derive(Debug)]
struct Entry {
    id: u64,
    name: String,
    size: u64,
    /// Whether its program has ended (only such logs are removed to make room).
    finished: bool,
}

/// The run's folder, open.
#[derive(Debug)]
struct Folder {
    path: PathBuf,
    /// The folder itself, which every file is created and removed relative to, so that nothing
    /// done to the path after it was made can send a log elsewhere.
    #[cfg(unix)]
    dir: std::os::fd::OwnedFd,
}

impl LogDir {
    /// The logs of a run that may hold `cap` bytes together.
    pub(crate) fn new(cap: u64) -> LogDir {
        LogDir { cap, state: Mutex::new(State::default()) }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new log, made new in the run's folder (made first if need be).
    ///
    /// # Errors
    /// The folder or the file cannot be made.
    pub(crate) fn create(self: &Arc<LogDir>) -> io::Result<Log> {
        let mut state = self.lock();
        if state.folder.is_none() {
            state.folder = Some(Folder::make()?);
        }
        let id = state.next;
        state.next += 1;
        let name = format!("agent-{id}.log");
        let folder = state.folder.as_ref().expect("made above");
        let file = folder.create(&name)?;
        let path = folder.path.join(&name);
        state.logs.push_back(Entry { id, name, size: 0, finished: false });
        drop(state);
        Ok(Log { id, path, file, dir: Arc::clone(self), tail: VecDeque::new(), written: 0, held_back: false })
    }

    /// How many logs were removed to keep the run's logs within the cap.
    pub(crate) fn evicted(&self) -> u64 {
        self.lock().evicted
    }

    /// The folder, once made.
    pub(crate) fn folder(&self) -> Option<PathBuf> {
        self.lock().folder.as_ref().map(|folder| folder.path.clone())
    }

    /// Makes room for `more` bytes in log `id` that holds `size` now, removing the oldest ended
    /// logs if need be; whether they fit.
    fn reserve(&self, id: u64, more: u64) -> bool {
        let mut state = self.lock();
        while state.total + more > self.cap {
            let Some(at) = state.logs.iter().position(|entry| entry.finished && entry.id != id) else {
                return false;
            };
            let entry = state.logs.remove(at).expect("found above");
            state.total -= entry.size;
            state.evicted += 1;
            if let Some(folder) = &state.folder {
                folder.remove(&entry.name);
            }
        }
        state.total += more;
        if let Some(entry) = state.logs.iter_mut().find(|entry| entry.id == id) {
            entry.size += more;
        }
        true
    }

    /// Log `id` now holds `size` bytes (it was cut back).
    fn set_size(&self, id: u64, size: u64) {
        let mut state = self.lock();
        let State { logs, total, .. } = &mut *state;
        if let Some(entry) = logs.iter_mut().find(|entry| entry.id == id) {
            *total = *total - entry.size + size;
            entry.size = size;
        }
    }

    /// Log `id`'s program has ended: the log may be removed to make room; an empty one is removed
    /// now.
    fn finish(&self, id: u64) {
        let mut state = self.lock();
        let Some(at) = state.logs.iter().position(|entry| entry.id == id) else { return };
        if state.logs[at].size == 0 {
            let entry = state.logs.remove(at).expect("found above");
            if let Some(folder) = &state.folder {
                folder.remove(&entry.name);
            }
        } else {
            state.logs[at].finished = true;
        }
    }

    /// Whether log `id` is still on disk.
    fn kept(&self, id: u64) -> bool {
        self.lock().logs.iter().any(|entry| entry.id == id)
    }
}

impl Drop for LogDir {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let (Some(folder), true) = (&state.folder, state.logs.is_empty()) {
            // Only an empty folder goes; one that still holds a log stays, for the user to read.
            let _ = std::fs::remove_dir(&folder.path);
        }
    }
}

impl Folder {
    /// Makes the run's folder: `gin-agent-logs-PID-RANDOM` in the temporary directory, new (an
    /// existing name is never reused), private to this user.
    fn make() -> io::Result<Folder> {
        let temp = std::env::temp_dir();
        let mut last = None;
        for attempt in 0..16u64 {
            let path = temp.join(format!("gin-agent-logs-{}-{:016x}", std::process::id(), unguessable(attempt)));
            match make_private_dir(&path) {
                Ok(folder) => return Ok(folder),
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = Some(err),
                Err(err) => {
                    return Err(io::Error::new(
                        err.kind(),
                        format!("cannot make the folder `{}`: {err}", path.display()),
                    ));
                }
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free folder name")))
    }

    #[cfg(unix)]
    fn create(&self, name: &str) -> io::Result<File> {
        use nix::fcntl::{OFlag, openat};
        use nix::sys::stat::Mode;
        let flags = OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        let fd = openat(&self.dir, name, flags, Mode::S_IRUSR | Mode::S_IWUSR).map_err(io::Error::from)?;
        Ok(File::from(fd))
    }

    #[cfg(not(unix))]
    fn create(&self, name: &str) -> io::Result<File> {
        File::options().write(true).create_new(true).open(self.path.join(name))
    }

    #[cfg(unix)]
    fn remove(&self, name: &str) {
        let _ = nix::unistd::unlinkat(&self.dir, name, nix::unistd::UnlinkatFlags::NoRemoveDir);
    }

    #[cfg(not(unix))]
    fn remove(&self, name: &str) {
        let _ = std::fs::remove_file(self.path.join(name));
    }
}

/// Makes `path` as a new folder only this user can enter, and opens it (without following a
/// link), checking that what was opened is that folder.
#[cfg(unix)]
fn make_private_dir(path: &Path) -> io::Result<Folder> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
    std::fs::DirBuilder::new().mode(0o700).create(path)?;
    let flags = nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_NOFOLLOW;
    let dir = File::options().read(true).custom_flags(flags.bits()).open(path)?;
    let meta = dir.metadata()?;
    if !meta.is_dir() || meta.uid() != nix::unistd::geteuid().as_raw() || meta.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!("`{}` is not a private folder of this user", path.display())));
    }
    Ok(Folder { path: path.to_path_buf(), dir: dir.into() })
}

#[cfg(not(unix))]
fn make_private_dir(path: &Path) -> io::Result<Folder> {
    std::fs::create_dir(path)?;
    Ok(Folder { path: path.to_path_buf() })
}

/// 64 bits that another user cannot guess: from the keys the standard library draws from the
/// operating system's random source for its hash maps.
fn unguessable(salt: u64) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one((salt, std::process::id()))
}

/// One program's log, held by the thread that copies its standard error.
#[derive(Debug)]
pub(crate) struct Log {
    id: u64,
    path: PathBuf,
    file: File,
    dir: Arc<LogDir>,
    /// The last [`LOG_KEEP`] bytes, in order, to cut the file back to.
    tail: VecDeque<u8>,
    /// The bytes in the file.
    written: u64,
    /// Whether some bytes were held back to stay within the run's cap.
    held_back: bool,
}

impl Log {
    /// Where the log is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// A handle that says whether the log is still there, once the copier has it.
    pub(crate) fn handle(&self) -> LogHandle {
        LogHandle { id: self.id, dir: Arc::clone(&self.dir) }
    }

    /// Keeps `chunk`, the next bytes the program wrote: in the file while the run's cap allows,
    /// and among the last bytes, to cut the file back to them when it reaches twice
    /// [`LOG_KEEP`].
    pub(crate) fn write(&mut self, chunk: &[u8]) {
        self.tail.extend(chunk);
        if self.tail.len() > LOG_KEEP {
            self.tail.drain(..self.tail.len() - LOG_KEEP);
        }
        if self.written + chunk.len() as u64 > 2 * LOG_KEEP as u64 {
            self.cut_back();
        } else if self.dir.reserve(self.id, chunk.len() as u64) {
            // A failed write (a full disk) only loses some of the log.
            let _ = self.file.write_all(chunk);
            self.written += chunk.len() as u64;
        } else {
            self.held_back = true;
        }
    }

    /// Rewrites the file as the last bytes kept, if they fit within the run's cap.
    fn cut_back(&mut self) {
        if self.file.set_len(0).and_then(|()| self.file.seek(SeekFrom::Start(0))).is_err() {
            return;
        }
        self.dir.set_size(self.id, 0);
        self.written = 0;
        self.held_back = false;
        if !self.dir.reserve(self.id, self.tail.len() as u64) {
            self.held_back = true;
            return;
        }
        let (front, back) = self.tail.as_slices();
        let _ = self.file.write_all(front).and_then(|()| self.file.write_all(back));
        self.written = self.tail.len() as u64;
    }

    /// The program's standard error has closed: the log keeps its last [`LOG_KEEP`] bytes, and
    /// an empty one is removed.
    pub(crate) fn finish(mut self) {
        if self.written > LOG_KEEP as u64 || self.held_back {
            self.cut_back();
        }
        self.dir.finish(self.id);
    }
}

/// Whether a log is still there (logs may be removed to keep a run within its cap).
#[derive(Clone, Debug)]
pub(crate) struct LogHandle {
    id: u64,
    dir: Arc<LogDir>,
}

impl LogHandle {
    /// Whether the log is still on disk.
    pub(crate) fn kept(&self) -> bool {
        self.dir.kept(self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| entries.flatten().map(|entry| entry.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn the_folder_is_private_and_new_and_logs_are_made_new() {
        use std::os::unix::fs::PermissionsExt;
        let logs = Arc::new(LogDir::new(RUN_CAP));
        let log = logs.create().unwrap();
        let folder = logs.folder().unwrap();
        assert!(
            folder
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("gin-agent-logs-{}-", std::process::id()))
        );
        assert_eq!(std::fs::metadata(&folder).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::metadata(log.path()).unwrap().permissions().mode() & 0o777, 0o600);
        // A second run never shares the folder.
        let other = Arc::new(LogDir::new(RUN_CAP));
        let other_log = other.create().unwrap();
        assert_ne!(other.folder(), logs.folder());
        // A file planted under the next log's name is never opened: the log is refused instead.
        let planted = folder.join("agent-1.log");
        std::os::unix::fs::symlink("/nonexistent/victim", &planted).unwrap();
        assert!(logs.create().is_err());
        std::fs::remove_file(&planted).unwrap();
        log.finish();
        other_log.finish();
        drop((logs, other));
        // Empty logs are removed, then their folders.
        assert!(!folder.exists());
    }

    #[test]
    fn a_log_keeps_its_program_last_bytes() {
        let logs = Arc::new(LogDir::new(RUN_CAP));
        let mut log = logs.create().unwrap();
        let path = log.path().to_path_buf();
        for round in 0..5u8 {
            log.write(&vec![b'a' + round; LOG_KEEP / 2 + 1]);
            let len = std::fs::metadata(&path).unwrap().len();
            assert!(len <= 2 * LOG_KEEP as u64, "{len}");
        }
        log.finish();
        let kept = std::fs::read(&path).unwrap();
        assert_eq!(kept.len(), LOG_KEEP);
        assert_eq!(*kept.last().unwrap(), b'e');
        let folder = logs.folder().unwrap();
        drop(logs);
        // A folder with a log left in it stays, for the user to read.
        assert!(path.exists());
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn the_logs_of_a_run_stay_within_its_cap_the_oldest_removed_first() {
        let cap = 10 * 1000;
        let logs = Arc::new(LogDir::new(cap));
        let mut paths = Vec::new();
        // 30 programs that each wrote 1,000 bytes and ended: three times the cap.
        for _ in 0..30 {
            let mut log = logs.create().unwrap();
            log.write(&[b'x'; 1000]);
            paths.push(log.path().to_path_buf());
            log.finish();
        }
        let folder = logs.folder().unwrap();
        let names = files_in(&folder);
        assert_eq!(names.len(), 10, "{names:?}");
        // The newest ten are kept.
        assert!(paths[20..].iter().all(|path| path.exists()) && !paths[19].exists());
        assert_eq!(logs.evicted(), 20);
        // A running program's writes wait when nothing ended can make room.
        let mut running: Vec<Log> = (0..3).map(|_| logs.create().unwrap()).collect();
        for log in &mut running {
            log.write(&[b'y'; 6000]);
        }
        let total: u64 = files_in(&folder).iter().map(|name| std::fs::metadata(folder.join(name)).unwrap().len()).sum();
        assert!(total <= cap, "{total}");
        for log in running {
            log.finish();
        }
        let total: u64 = files_in(&folder).iter().map(|name| std::fs::metadata(folder.join(name)).unwrap().len()).sum();
        assert!(total <= cap, "{total}");
        drop(logs);
        std::fs::remove_dir_all(folder).unwrap();
    }
}
