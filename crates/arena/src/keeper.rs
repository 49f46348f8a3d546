//! The keeper (Linux): what stands between the host and an agent program, so that nothing the
//! program starts outlives it. A binary runs it as its `agent-keeper -- PROGRAM ARGS...` command
//! (the `gin` binary's is hidden) and hands it to [`crate::Host::with_keeper`].
//!
//! The host starts the keeper instead of the program, with the program's three pipes. The keeper
//! becomes a *child subreaper* (`PR_SET_CHILD_SUBREAPER`): every process the program starts,
//! even one that leaves its process group and session (`setsid`), is re-parented to the keeper,
//! not to init, when its parent dies. The keeper starts the program in a process group of its
//! own with the pipes, lets go of its own copies of them, and waits for one of three things: the
//! program exits, the host asks it to end (`SIGTERM`, also `SIGINT` and `SIGHUP`), or the host
//! goes away (the keeper's parent changes). Then it kills the program's group, and every process
//! left under it, until none is left, and exits as the program did (its status, or its signal).
//!
//! A program that cannot be started is told on its standard output as one line,
//! `gin-agent-keeper: cannot start the program: ` and the reason, and the keeper exits with status 127.

use std::ffi::OsString;
use std::io::Write;
use std::process::{Command, ExitCode};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{self, SigSet, SigmaskHow, Signal};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid, waitpid};
use nix::unistd::{Pid, getpid, getppid};

use crate::host::KEEPER_FAILED;

/// How often the keeper looks whether the host is still there.
const WATCH: Duration = Duration::from_millis(100);

/// The longest the keeper goes on killing what is left once the program has ended.
const CLEAN_UP: Duration = Duration::from_secs(5);

/// The options of `gin agent-keeper`.
pub fn run(program: &[OsString]) -> ExitCode {
    let host = getppid();
    // Every signal the keeper waits for is blocked before any thread starts, so that all of
    // them arrive through `wait` (the program starts with an empty mask: the standard library
    // clears it in the child).
    let mut waited = SigSet::empty();
    for signal in [Signal::SIGCHLD, Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        waited.add(signal);
    }
    if waited.thread_block().is_err() || nix::sys::prctl::set_child_subreaper(true).is_err() {
        return fail("the keeper cannot watch over the program on this system");
    }
    if getppid() != host || host.as_raw() == 1 {
        // The host went away before the program started.
        return ExitCode::from(1);
    }
    let Some((name, rest)) = program.split_first() else { return fail("no program to keep") };
    let mut command = Command::new(name);
    command.args(rest);
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = match command.spawn() {
        Ok(child) => child,
        Err(err) => return fail(&err.to_string()),
    };
    let program = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    // Let go of the keeper's copies of the pipes: they close when the program and what it
    // started close theirs (or are killed).
    if let Ok(null) = std::fs::File::options().read(true).write(true).open("/dev/null") {
        let _ = nix::unistd::dup2_stdin(&null);
        let _ = nix::unistd::dup2_stdout(&null);
        let _ = nix::unistd::dup2_stderr(&null);
    }
    thread::spawn(move || {
        // The host gone (killed, even by SIGKILL): the keeper is re-parented; end everything.
        while getppid() == host {
            thread::sleep(WATCH);
        }
        let _ = signal::kill(getpid(), Signal::SIGTERM);
    });
    let status = wait_for(program, &waited);
    clean_up(program);
    exit_as(status)
}

/// Waits until the program has exited (killing its group first when the host asks), reaping
/// whatever else ends meanwhile; its status. The program itself is left unreaped, so that its
/// process id, and its group's, stay its own until [`clean_up`] has killed the group.
fn wait_for(program: Pid, waited: &SigSet) -> WaitStatus {
    loop {
        // Everything that has ended: the program, or what it started and left behind.
        loop {
            match waitid(Id::All, WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT) {
                Ok(status @ (WaitStatus::Exited(pid, _) | WaitStatus::Signaled(pid, _, _))) if pid == program => {
                    return status;
                }
                Ok(WaitStatus::Exited(pid, _) | WaitStatus::Signaled(pid, _, _)) => {
                    let _ = waitpid(pid, None);
                }
                Ok(_) | Err(_) => break,
            }
        }
        match waited.wait() {
            Ok(Signal::SIGCHLD) | Err(_) => {}
            Ok(_) => {
                // The host asks, or is gone: the program goes with its group.
                let _ = signal::killpg(program, Signal::SIGKILL);
                let _ = signal::kill(program, Signal::SIGKILL);
            }
        }
    }
}

/// Kills the program's group and every process left under the keeper, until none is left (or
/// [`CLEAN_UP`] has passed); the program, still unreaped, is reaped with the rest.
fn clean_up(program: Pid) {
    let _ = signal::killpg(program, Signal::SIGKILL);
    let deadline = Instant::now() + CLEAN_UP;
    loop {
        let children = children_of(getpid());
        if children.is_empty() || Instant::now() > deadline {
            return;
        }
        for child in &children {
            // Its group first (a group that bears its id is one it made), then itself: what it
            // started there goes at once, not a generation at a time.
            let _ = signal::killpg(*child, Signal::SIGKILL);
            let _ = signal::kill(*child, Signal::SIGKILL);
        }
        loop {
            match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) | Err(Errno::ECHILD) | Err(_) => break,
                Ok(_) => {}
            }
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// The processes whose parent is `parent`, from `/proc`.
fn children_of(parent: Pid) -> Vec<Pid> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            // `pid (name) state ppid ...`: the name may hold spaces and parentheses.
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                    .is_some_and(|ppid| ppid == parent.as_raw())
            })
        })
        .map(Pid::from_raw)
        .collect()
}

/// Exits as the program did: its exit status, or the signal that killed it.
fn exit_as(status: WaitStatus) -> ExitCode {
    match status {
        WaitStatus::Exited(_, code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        WaitStatus::Signaled(_, killed_by, _) => {
            let _ = signal::pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&SigSet::empty()), None);
            let _ = signal::raise(killed_by);
            // A signal the keeper ignores (SIGPIPE): the shell's convention.
            ExitCode::from(128u8.saturating_add(killed_by as u8))
        }
        _ => ExitCode::from(1),
    }
}

/// Tells the host that the program cannot be started, and exits with status 127.
fn fail(why: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{KEEPER_FAILED}{why}").and_then(|()| out.flush());
    ExitCode::from(127)
}
