//! What a hostile program, file or user cannot do to the host: follow a planted link with its log,
//! outlive it, block it, flood its memory or the terminal, panic it. The agent programs here are
//! shell scripts (`sh`, `setsid`, `mkfifo`: a POSIX system's own tools).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{gin_within, temp_file};

/// A scratch folder of this test process, unique to `name`, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    dir
}

/// An agent program: `sh SCRIPT`, the script written to a file named `name`.
fn agent(name: &str, script: &str) -> String {
    format!("cmd:sh {}", temp_file(name, script).display())
}

/// A number no other process on the machine has in its command line: `sleep MARKER` names a
/// process the test can look for.
fn marker(n: u32) -> String {
    format!("{}.{n:03}{}", 86_000 + n, std::process::id())
}

/// Whether a process whose command line holds `marker` is alive (a zombie counts as gone).
#[cfg(target_os = "linux")]
fn alive(marker: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else { return false };
    entries.flatten().any(|entry| {
        let dir = entry.path();
        let zombie = std::fs::read_to_string(dir.join("stat"))
            .ok()
            .and_then(|stat| stat.rsplit_once(')').map(|(_, rest)| rest.trim_start().starts_with('Z')))
            .unwrap_or(true);
        !zombie && std::fs::read(dir.join("cmdline")).is_ok_and(|line| String::from_utf8_lossy(&line).contains(marker))
    })
}

/// Waits up to `limit` for no process with `marker` to be left.
#[cfg(target_os = "linux")]
fn gone_within(marker: &str, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while alive(marker) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The agent log a note names: `... (its standard error is in PATH)`.
fn named_log(stderr: &str) -> PathBuf {
    let (_, rest) = stderr.split_once("its standard error is in ").unwrap_or_else(|| panic!("no log named: {stderr}"));
    PathBuf::from(rest.split(')').next().unwrap())
}

/// A program that writes to its standard error, then plays nothing: it exits at once.
const SAYS_HI: &str = "echo 'agent says hi' >&2\nexit 0\n";

#[cfg(unix)]
#[test]
fn the_agent_log_is_made_new_in_a_private_folder_never_through_a_planted_link() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = scratch("planted");
    let victim = tmp.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let program = agent("says-hi.sh", SAYS_HI);
    // The old name, guessable from gin's process id, planted as a link to the victim.
    let script = format!(
        "ln -s {victim} $TMPDIR/gin-agent-$$-0.log; exec {gin} sim --a '{program}' --b simple --games 2 --threads 1",
        victim = victim.display(),
        gin = env!("CARGO_BIN_EXE_gin"),
    );
    let output = Command::new("sh").arg("-c").arg(&script).env("TMPDIR", &tmp).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n", "{stderr}");
    let log = named_log(&stderr);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "agent says hi\n");
    let folder = log.parent().unwrap();
    assert_eq!(folder.parent().unwrap(), tmp);
    assert!(folder.file_name().unwrap().to_string_lossy().starts_with("gin-agent-logs-"), "{}", folder.display());
    assert_eq!(std::fs::metadata(folder).unwrap().permissions().mode() & 0o777, 0o700);
    assert_eq!(std::fs::metadata(&log).unwrap().permissions().mode() & 0o777, 0o600);
    std::fs::remove_dir_all(tmp).unwrap();
}

#[test]
fn the_logs_of_a_run_are_capped_in_total_the_oldest_removed() {
    let tmp = scratch("log-cap");
    // Each start writes 1 MiB and exits: 70 forfeits, 70 MiB of logs asked for, 64 MiB kept.
    let program = agent("one-mib.sh", "head -c 1048576 /dev/zero >&2\nexit 1\n");
    let (run, _) = gin_within(
        &["sim", "--a", &program, "--b", "random", "--games", "70", "--threads", "1", "--max-forfeits", "0"],
        b"",
        &[("TMPDIR", &tmp)],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let folders: Vec<PathBuf> = std::fs::read_dir(&tmp).unwrap().flatten().map(|entry| entry.path()).collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    let sizes: Vec<u64> =
        std::fs::read_dir(&folders[0]).unwrap().flatten().map(|entry| entry.metadata().unwrap().len()).collect();
    let total: u64 = sizes.iter().sum();
    assert!(total <= 64 << 20, "{total} bytes in {} logs", sizes.len());
    assert!(sizes.len() >= 60 && sizes.len() < 70, "{} logs", sizes.len());
    assert!(
        run.stderr.contains("agent logs were removed (the oldest first) to keep this run's agent logs within 64 MiB")
    );
    std::fs::remove_dir_all(tmp).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_child_that_leaves_the_group_neither_blocks_nor_outlives_the_host() {
    let mark = marker(1);
    // It starts a child in a session of its own, which holds its output and error open, and exits.
    let program = agent("setsid-exit.sh", &format!("setsid sleep {mark} &\necho started >&2\nexit 3\n"));
    let (run, took) = gin_within(
        &["sim", "--a", &program, "--b", "simple", "--games", "2", "--threads", "1", "--max-forfeits", "0"],
        b"",
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(run.stderr.contains("exited with status 3 before answering"), "{}", run.stderr);
    assert!(gone_within(&mark, Duration::from_secs(3)), "{mark} outlived gin");
}

#[cfg(target_os = "linux")]
#[test]
fn what_a_good_program_leaves_running_goes_when_it_is_done_and_quitting_play_never_waits_for_it() {
    let gin = env!("CARGO_BIN_EXE_gin");
    let mark = marker(2);
    let program = agent("daemon-bot.sh", &format!("setsid sleep {mark} &\nexec {gin} bot --agent simple\n"));
    let (run, _) = gin_within(
        &["sim", "--a", &program, "--b", "simple", "--games", "2", "--threads", "1", "--json"],
        b"",
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("\"forfeits\":0"), "{run:?}");
    assert!(gone_within(&mark, Duration::from_secs(3)), "{mark} outlived the match");

    let state = scratch("daemon-play");
    let mark = marker(3);
    let program = agent("daemon-bot-play.sh", &format!("setsid sleep {mark} &\nexec {gin} bot --agent simple\n"));
    let save = state.join("game.gin");
    let (run, took) = gin_within(
        &["play", "--plain", "--ai", &program, "--seed", "4", "--save", save.to_str().unwrap()],
        b"quit\n",
        &[("XDG_STATE_HOME", &state)],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("Stopped. The game is saved"), "{run:?}");
    assert!(took < Duration::from_secs(8), "quitting took {took:?}");
    assert!(gone_within(&mark, Duration::from_secs(3)), "{mark} outlived gin play");
    std::fs::remove_dir_all(state).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_host_killed_outright_leaves_nothing_of_its_programs() {
    let mark = marker(4);
    let program = agent("hangs.sh", &format!("setsid sleep {mark} &\nsleep {mark}\n"));
    let mut gin = Command::new(env!("CARGO_BIN_EXE_gin"))
        .args(["sim", "--a", &program, "--b", "simple", "--games", "2", "--threads", "1", "--agent-timeout", "600"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !alive(&mark) {
        assert!(Instant::now() < deadline, "the program never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    gin.kill().unwrap();
    gin.wait().unwrap();
    assert!(gone_within(&mark, Duration::from_secs(5)), "{mark} outlived gin killed with SIGKILL");
}

#[test]
fn time_limits_and_thread_counts_out_of_range_are_usage_errors() {
    let bot = format!("cmd:{} bot --agent simple", env!("CARGO_BIN_EXE_gin"));
    let cases: [&[&str]; 5] = [
        &["sim", "--a", &bot, "--games", "2", "--agent-timeout", "1e19", "--agent-startup", "1e19"],
        &["sim", "--a", "random", "--agent-startup", "1e19"],
        &["league", "random", "simple", "--agent-timeout", "inf"],
        &["play", "--plain", "--ai", &bot, "--agent-timeout", "1e19"],
        &["sim", "--a", "random", "--agent-timeout", "0"],
    ];
    for args in cases {
        let (run, _) = gin_within(args, b"", &[], Duration::from_secs(20));
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(run.stderr.contains("a time limit must be from 0.001 to 3600 seconds"), "{args:?}: {}", run.stderr);
    }
    for command in [&["sim", "--a", "random"][..], &["league", "random", "simple"]] {
        let mut args = command.to_vec();
        args.extend(["--threads", "100000", "--games", "200000"]);
        let (run, took) = gin_within(&args, b"", &[], Duration::from_secs(20));
        assert_eq!(run.code, Some(2), "{run:?}");
        assert!(run.stderr.contains("at most 256 threads"), "{}", run.stderr);
        assert!(took < Duration::from_secs(5), "{took:?}");
    }
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_links_to_them_are_refused_at_once() {
    let dir = scratch("fifos");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let zero = dir.join("zero.gin");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let (fifo, zero) = (fifo.to_str().unwrap(), zero.to_str().unwrap());
    let state = dir.join("state");
    let cases: [(&[&str], &str); 8] = [
        (&["sim", "--a", "random", "--rules", fifo], "the rules file"),
        (&["sim", "--a", "random", "--param", fifo], "the parameter file"),
        (&["sim", "--a", "random", "--param", "/dev/zero"], "the parameter file"),
        (&["analyze", "--rules", "/dev/zero", "AS"], "the rules file"),
        (&["play", "--plain", "--resume", fifo], "the save file"),
        (&["play", "--plain", "--resume", zero], "the save file"),
        (&["replay", zero], "the game file"),
        (&["replay", fifo], "the game file"),
    ];
    for (args, what) in cases {
        let (run, took) = gin_within(args, b"", &[("XDG_STATE_HOME", &state)], Duration::from_secs(20));
        assert!(matches!(run.code, Some(1 | 2)), "{args:?}: {run:?}");
        // A save is checked as the place the game goes on being saved, before it is read.
        let refused = if what == "the save file" {
            "error: the save file `".to_owned()
        } else {
            format!("error: cannot read {what} `")
        };
        assert!(run.stderr.starts_with(&refused), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("not a regular file"), "{args:?}: {}", run.stderr);
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn files_over_their_limit_are_refused() {
    let dir = scratch("large");
    let rules = dir.join("rules.json");
    // A valid ruleset padded with blanks past 1 MiB.
    std::fs::write(&rules, format!("{}{{\"preset\": \"pagat\"}}", " ".repeat(1 << 20))).unwrap();
    let (run, _) =
        gin_within(&["analyze", "--rules", rules.to_str().unwrap(), "AS"], b"", &[], Duration::from_secs(20));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("it is larger than 1 MiB, the most the rules file may hold"), "{}", run.stderr);
    std::fs::remove_dir_all(dir).unwrap();
}

/// `gin ARGS` with its address space limited to 512 MiB (`ulimit -v`), `bytes` of one endless
/// line on its standard input: gin must finish without running out of memory.
#[cfg(unix)]
fn with_little_memory(args: &str, bytes: u64) -> std::process::Output {
    let script = format!(
        "head -c {bytes} /dev/zero | tr '\\0' 'a' | (ulimit -v 524288; exec {} {args})",
        env!("CARGO_BIN_EXE_gin")
    );
    Command::new("sh").arg("-c").arg(script).output().unwrap()
}

#[cfg(unix)]
#[test]
fn an_endless_line_never_grows_memory() {
    // 1 GiB without a line break, to a gin allowed half that.
    let output = with_little_memory("bot --agent simple", 1 << 30);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("line 1: longer than 1 MiB, the longest message the protocol allows"), "{stderr}");
    let output = with_little_memory("analyze --json", 1 << 30);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "{\"line\":1,\"error\":\"longer than 64 KiB: not a hand\"}\n",
        "{stderr}"
    );
}

#[test]
fn what_a_program_sends_reaches_the_terminal_escaped_and_cut() {
    // An answer full of terminal controls (clear the screen, set the title, a bell, a NUL), long.
    let junk = format!("\\033[2J\\033]0;owned\\007\\000{}", "x".repeat(5000));
    let program = agent("controls.sh", &format!("read line\nprintf '{junk}\\n'\nread line\n"));
    let (sim, _) = gin_within(
        &["sim", "--a", &program, "--b", "simple", "--games", "2", "--threads", "1"],
        b"",
        &[],
        Duration::from_secs(30),
    );
    let (league, _) = gin_within(
        &["league", &program, "simple", "--games", "2", "--threads", "1"],
        b"",
        &[],
        Duration::from_secs(30),
    );
    for run in [sim, league] {
        assert_eq!(run.code, Some(0), "{run:?}");
        let notes: Vec<&str> = run.stderr.lines().filter(|line| line.contains("forfeits:")).collect();
        assert_eq!(notes.len(), 2, "{}", run.stderr);
        for note in notes {
            assert!(!note.contains(['\u{1b}', '\u{7}', '\0']), "{note:?}");
            assert!(note.contains("`\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{0}xxx"), "{note}");
            assert!(note.len() < 1000, "{} bytes: {note}", note.len());
        }
    }
}

#[test]
fn errors_never_repeat_a_huge_input_whole() {
    let token = format!("X{}", "S".repeat(100_000));
    let (run, _) = gin_within(&["analyze", &token], b"", &[], Duration::from_secs(20));
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.len() < 500, "{} bytes", run.stderr.len());
    assert!(run.stderr.contains("unknown rank `X` in `XSSS"), "{}", run.stderr);
    let (run, _) =
        gin_within(&["analyze", "--json"], format!("AS 2S {token}\n").as_bytes(), &[], Duration::from_secs(20));
    assert!(run.stdout.len() < 500, "{} bytes", run.stdout.len());
    let spec = format!("expert:{}=1", "k".repeat(100_000));
    let (run, _) = gin_within(&["sim", "--a", &spec], b"", &[], Duration::from_secs(20));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.len() < 2000, "{} bytes", run.stderr.len());
    let rules = temp_file("long-preset.json", &format!("{{\"preset\": \"{}\"}}", "p".repeat(100_000)));
    let (run, _) =
        gin_within(&["analyze", "--rules", rules.to_str().unwrap(), "AS"], b"", &[], Duration::from_secs(20));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.len() < 2000, "{} bytes", run.stderr.len());
    // A save whose AI is named by 100,000 characters.
    let fixture = include_str!("../../../tui/tests/fixtures/expert-mid-game.gin");
    let (first, rest) = fixture.split_once('\n').unwrap();
    let header = first.replace("\"ai\":\"expert\"", &format!("\"ai\":\"{}\"", "e".repeat(100_000)));
    let save = temp_file("long-ai.gin", &format!("{header}\n{rest}"));
    let state = scratch("long-ai");
    let (run, _) = gin_within(
        &["play", "--plain", "--resume", save.to_str().unwrap()],
        b"quit\n",
        &[("XDG_STATE_HOME", &state)],
        Duration::from_secs(20),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.len() < 2000, "{} bytes: {}", run.stderr.len(), run.stderr);
    std::fs::remove_dir_all(state).unwrap();
}
