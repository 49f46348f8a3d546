//! An agent program as a process: started (on Linux through `gin agent-keeper`, so that
//! everything it starts ends with it), its three pipes served by threads of their own that never
//! block for longer than a moment, and ended within a bounded time whatever it does.
//!
//! The threads: one writes the host's messages to the program's standard input, one reads its
//! standard output line by line, one copies its standard error into its log. Each waits on its
//! pipe at most [`POLL`] at a time and stops when told to, so that a program that leaves a
//! process holding a pipe open (one that left the process group, say) can never keep the host
//! waiting: once the program is ended, the host closes its side of the pipes.

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};

use super::logs::Log;
use gin_protocol::MAX_LINE;

/// The longest a pipe thread waits before it looks whether it should stop.
const POLL: Duration = Duration::from_millis(50);

/// How long the keeper has to end the program and everything it started, and exit, once told to.
const END_GRACE: Duration = Duration::from_secs(2);

/// How long the end of a program's standard error is waited for once it has exited.
const STDERR_GRACE: Duration = Duration::from_millis(300);

/// The line `gin agent-keeper` writes on the program's standard output, and nothing else, when
/// the program cannot be started, followed by the reason.
pub(crate) const KEEPER_FAILED: &str = "gin-agent-keeper: cannot start the program: ";

/// A line from the program, or why there are no more.
#[derive(Debug)]
pub(super) enum Line {
    Text(String),
    TooLong,
    Closed,
}

/// How far the copy of a program's standard error has got.
#[derive(Debug, Default)]
pub(super) struct StderrState {
    /// Bytes the program wrote there.
    pub bytes: AtomicU64,
    /// Whether it has closed (the log is then complete).
    pub closed: AtomicBool,
}

/// A started agent program.
#[derive(Debug)]
pub(super) struct Process {
    /// The program, or the keeper that stands for it.
    child: Child,
    /// The program's process group (its own process id), when known.
    group: Option<u32>,
    /// Whether `child` is the keeper.
    kept: bool,
    /// Batches of bytes for the writer thread; `None` once closed.
    to_program: Option<Sender<Vec<u8>>>,
    /// The program's lines, from the reader thread.
    lines: Receiver<Line>,
    /// Tells the pipe threads to stop.
    stop: Arc<AtomicBool>,
    /// The thread that copies standard error into the log.
    copier: Option<thread::JoinHandle<()>>,
    stderr: Arc<StderrState>,
    /// Whether the program has been ended.
    ended: bool,
}

impl Process {
    /// Starts `words[0]` with the rest as its arguments, its standard error into `log`; through
    /// `keeper` (the `gin` binary) when given.
    ///
    /// # Errors
    /// The program (or the keeper) cannot be started.
    pub(super) fn start(words: &[String], keeper: Option<&Path>, log: Log) -> Result<Process> {
        let (program, args) = words.split_first().ok_or_else(|| anyhow!("no program given"))?;
        let mut command = match keeper {
            Some(gin) => {
                // The keeper reports a program it cannot start only once the game asks it for
                // something: one that is not there is refused here, at once.
                find_program(program)?;
                let mut command = Command::new(gin);
                command.arg("agent-keeper").arg("--").arg(program).args(args);
                command
            }
            None => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
        };
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        // A group of its own: what it starts in its group is ended with it, and a Ctrl-C at the
        // terminal goes to gin alone, which ends it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|err| anyhow!("{err}"))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let stop = Arc::new(AtomicBool::new(false));
        let stderr = Arc::new(StderrState::default());
        let copier = {
            let (stop, state) = (Arc::clone(&stop), Arc::clone(&stderr));
            thread::spawn(move || copy_stderr(stderr_pipe, log, &stop, &state))
        };
        let (to_program, batches) = mpsc::channel();
        {
            let stop = Arc::clone(&stop);
            thread::spawn(move || write_batches(stdin, &batches, &stop));
        }
        let (line_sender, lines) = mpsc::channel();
        {
            let stop = Arc::clone(&stop);
            thread::spawn(move || read_lines(stdout, &line_sender, &stop));
        }
        // The program leads its own group; under a keeper, the keeper ends the program's group.
        let group = keeper.is_none().then(|| child.id());
        Ok(Process {
            child,
            group,
            kept: keeper.is_some(),
            to_program: Some(to_program),
            lines,
            stop,
            copier: Some(copier),
            stderr,
            ended: false,
        })
    }

    /// Hands bytes to the writer thread.
    pub(super) fn send(&self, batch: Vec<u8>) {
        if let Some(sender) = &self.to_program {
            // A closed writer means the program's input is closed; the reader will tell.
            let _ = sender.send(batch);
        }
    }

    /// Closes the program's standard input once everything sent is written.
    pub(super) fn close_input(&mut self) {
        self.to_program = None;
    }

    /// A line that is already there, without waiting.
    pub(super) fn try_line(&self) -> Option<Line> {
        match self.lines.try_recv() {
            Ok(line) => Some(line),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Line::Closed),
        }
    }

    /// The program's next line, waiting at most `wait`: `None` when none came in time. A program
    /// that exits without closing its output (something it started holds it open) is `Closed`
    /// soon after it exits.
    pub(super) fn next_line(&mut self, wait: Duration) -> Option<Line> {
        let deadline = Instant::now() + wait;
        let mut exited_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(line) => return Some(line),
                Err(RecvTimeoutError::Disconnected) => return Some(Line::Closed),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if exited_at.is_some_and(|at| at.elapsed() >= POLL) {
                return Some(Line::Closed);
            }
            if exited_at.is_none() && matches!(self.child.try_wait(), Ok(Some(_))) {
                // Lines it wrote just before exiting may still be on their way: one more look.
                exited_at = Some(Instant::now());
                continue;
            }
            if left.is_zero() {
                return None;
            }
        }
    }

    /// How the program ended, if it did within a moment.
    pub(super) fn exit_status(&mut self, within: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + within;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Waits at most `grace` for the program to close its output and exit by itself (after
    /// `quit`), reading and dropping whatever it still writes.
    pub(super) fn await_exit(&mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        while let Some(Line::Text(_) | Line::TooLong) =
            self.next_line(deadline.saturating_duration_since(Instant::now()))
        {}
        let _ = self.exit_status(deadline.saturating_duration_since(Instant::now()));
    }

    /// Ends the program and everything it started (through the keeper on Linux: even what left
    /// its process group), then closes the host's side of the pipes. Bounded in time whatever the
    /// program does.
    pub(super) fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        self.to_program = None;
        // A child already reaped is never signalled: its process id may be another's by now.
        let running = matches!(self.child.try_wait(), Ok(None));
        if self.kept && running {
            // The keeper kills the program's group and every process left under it, then exits.
            signal(self.child.id(), false, Signal::Terminate);
            if self.exit_status(END_GRACE).is_none() {
                self.kill_all(true);
            }
        } else if !self.kept {
            // What the program left in its group goes too (a group outlives its leader only while
            // it has members, so its id is still the program's).
            self.kill_all(running);
        }
        let _ = self.child.wait();
        // Standard error closes once nothing holds it; then the log is complete. Past a moment,
        // the copy stops anyway.
        let deadline = Instant::now() + STDERR_GRACE;
        while !self.stderr.closed.load(Ordering::Acquire) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        self.stop.store(true, Ordering::Release);
        if let Some(copier) = self.copier.take() {
            // It stops within a poll interval of being told.
            let _ = copier.join();
        }
    }

    /// Kills the program's group, and the child itself (and its group) while it runs.
    fn kill_all(&mut self, running: bool) {
        if let Some(group) = self.group {
            signal(group, true, Signal::Kill);
        }
        if running {
            signal(self.child.id(), true, Signal::Kill);
            let _ = self.child.kill();
        }
    }

    /// What reached the log so far, and whether standard error has closed.
    pub(super) fn stderr(&self) -> Arc<StderrState> {
        Arc::clone(&self.stderr)
    }
}

/// Checks that `name` names a program the system can start, as it will look for it: a path (with
/// a `/`) as it is, else the first file of that name in a folder of `PATH` that may be run.
///
/// # Errors
/// There is no such file, or it may not be run.
pub(super) fn find_program(name: &str) -> Result<std::path::PathBuf> {
    let runnable = |path: &Path| {
        let Ok(meta) = std::fs::metadata(path) else { return false };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            meta.is_file() && meta.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        meta.is_file()
    };
    if name.contains('/') {
        let path = Path::new(name);
        return match std::fs::metadata(path) {
            Err(err) => Err(anyhow!("{err}")),
            Ok(_) if runnable(path) => Ok(path.to_path_buf()),
            Ok(_) => Err(anyhow!("`{name}` is not a file that may be run (is its execute permission set?)")),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| runnable(candidate))
        .ok_or_else(|| anyhow!("no program `{name}` on the PATH"))
}

impl Drop for Process {
    fn drop(&mut self) {
        self.end();
    }
}

/// The signals the host sends.
#[derive(Clone, Copy)]
enum Signal {
    Terminate,
    Kill,
}

/// Sends `signal` to process `id`, or to the process group `id`.
#[cfg(unix)]
fn signal(id: u32, group: bool, signal: Signal) {
    use nix::sys::signal::{Signal as Sig, kill, killpg};
    let Ok(id) = i32::try_from(id) else { return };
    let pid = nix::unistd::Pid::from_raw(id);
    let sig = match signal {
        Signal::Terminate => Sig::SIGTERM,
        Signal::Kill => Sig::SIGKILL,
    };
    let _ = if group { killpg(pid, sig) } else { kill(pid, sig) };
}

#[cfg(not(unix))]
fn signal(_id: u32, _group: bool, _signal: Signal) {}

/// Waits until `fd` is ready for `flags`, at most [`POLL`]: whether it is (or has hung up).
#[cfg(unix)]
fn ready(fd: &impl std::os::fd::AsFd, write: bool) -> bool {
    use nix::poll::{PollFd, PollFlags, poll};
    let flags = if write { PollFlags::POLLOUT } else { PollFlags::POLLIN };
    let mut fds = [PollFd::new(fd.as_fd(), flags)];
    let millis = u16::try_from(POLL.as_millis()).unwrap_or(u16::MAX);
    match poll(&mut fds, millis) {
        Ok(0) => false,
        Ok(_) => true,
        // Interrupted: look again (and at the stop flag) soon.
        Err(nix::errno::Errno::EINTR) => false,
        // Anything else: let the read or write find the error.
        Err(_) => true,
    }
}

/// On systems without `poll`, every pipe counts as ready (the threads then block on it).
#[cfg(not(unix))]
fn ready<T>(_fd: &T, _write: bool) -> bool {
    true
}

/// Reads what a pipe has, waiting at most [`POLL`]: `None` when nothing came, `Some(0)` at its
/// end.
fn read_some(pipe: &mut (impl Read + PollableFd), buffer: &mut [u8]) -> Option<usize> {
    if !pipe.ready_to_read() {
        return None;
    }
    match pipe.read(buffer) {
        Ok(n) => Some(n),
        Err(err) if matches!(err.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock) => None,
        Err(_) => Some(0),
    }
}

/// A pipe whose readiness can be waited on.
trait PollableFd {
    fn ready_to_read(&self) -> bool;
}

#[cfg(unix)]
impl<T: std::os::fd::AsFd> PollableFd for T {
    fn ready_to_read(&self) -> bool {
        ready(self, false)
    }
}

#[cfg(not(unix))]
impl<T> PollableFd for T {
    fn ready_to_read(&self) -> bool {
        true
    }
}

/// The reader thread: sends each line of the program's output, then `Closed`; a line longer
/// than the protocol allows is `TooLong`, and the last thing sent.
fn read_lines(mut stdout: ChildStdout, lines: &Sender<Line>, stop: &AtomicBool) {
    let mut buffer = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    while !stop.load(Ordering::Acquire) {
        let Some(n) = read_some(&mut stdout, &mut buffer) else { continue };
        if n == 0 {
            let _ = lines.send(Line::Closed);
            return;
        }
        for piece in buffer[..n].split_inclusive(|&byte| byte == b'\n') {
            line.extend_from_slice(piece);
            let ended = line.last() == Some(&b'\n');
            if (ended && line.len() > MAX_LINE) || (!ended && line.len() >= MAX_LINE) {
                let _ = lines.send(Line::TooLong);
                return;
            }
            if ended {
                let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_owned();
                line.clear();
                if lines.send(Line::Text(text)).is_err() {
                    return;
                }
            }
        }
    }
}

/// The writer thread: writes each batch, until the agent closes the channel, the program's
/// input is closed, or it is told to stop (a program that does not read never blocks it for
/// longer than a poll interval).
fn write_batches(mut stdin: ChildStdin, batches: &Receiver<Vec<u8>>, stop: &AtomicBool) {
    #[cfg(unix)]
    {
        use nix::fcntl::{FcntlArg, OFlag, fcntl};
        if fcntl(&stdin, FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).is_err() {
            return;
        }
    }
    loop {
        let batch = match batches.recv_timeout(POLL) {
            Ok(batch) => batch,
            Err(RecvTimeoutError::Timeout) if !stop.load(Ordering::Acquire) => continue,
            Err(_) => return,
        };
        let mut written = 0;
        while written < batch.len() {
            if stop.load(Ordering::Acquire) {
                return;
            }
            match stdin.write(&batch[written..]) {
                Ok(0) => return,
                Ok(n) => written += n,
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                    #[cfg(unix)]
                    ready(&stdin, true);
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    }
}

/// The copier thread: copies the program's standard error into its log until it closes or the
/// thread is told to stop.
fn copy_stderr(mut stderr: ChildStderr, mut log: Log, stop: &AtomicBool, state: &StderrState) {
    let mut buffer = [0u8; 8192];
    while !stop.load(Ordering::Acquire) {
        let Some(n) = read_some(&mut stderr, &mut buffer) else { continue };
        if n == 0 {
            break;
        }
        log.write(&buffer[..n]);
        state.bytes.fetch_add(n as u64, Ordering::Release);
    }
    log.finish();
    state.closed.store(true, Ordering::Release);
}
