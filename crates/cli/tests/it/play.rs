//! `gin play` driven through its standard input, as a person at a pipe would play it: the driver
//! reads up to each prompt (`> `), decides from the screen, and answers.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running `gin play`.
struct Table {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Everything printed so far.
    transcript: String,
}

/// How a session ended.
#[derive(Debug)]
struct Ended {
    code: Option<i32>,
    transcript: String,
    stderr: String,
}

impl Table {
    fn open(args: &[&str]) -> Table {
        Table::open_with_env(args, &[])
    }

    fn open_with_env(args: &[&str], env: &[(&str, &Path)]) -> Table {
        let mut command = Command::new(env!("CARGO_BIN_EXE_gin"));
        command.arg("play").args(args).env_remove("NO_COLOR");
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gin binary runs");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        Table { child, stdin, stdout, transcript: String::new() }
    }

    /// What was printed up to the next prompt, or `None` when the program ended first.
    fn screen(&mut self) -> Option<String> {
        let mut screen = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let n = self.stdout.read(&mut buffer).expect("stdout reads");
            screen.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&screen).into_owned();
            if n == 0 || text.ends_with("\n> ") {
                self.transcript.push_str(&text);
                return (n != 0).then_some(text);
            }
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("gin reads its input");
    }

    /// Closes standard input and waits for the end.
    fn close(mut self) -> Ended {
        drop(self.stdin.take());
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).expect("stdout reads");
        self.transcript.push_str(&rest);
        let mut stderr = String::new();
        self.child.stderr.take().expect("stderr is piped").read_to_string(&mut stderr).expect("stderr reads");
        let code = self.child.wait().expect("gin ends").code();
        assert!(!stderr.contains("panicked"), "{stderr}");
        Ended { code, transcript: self.transcript, stderr }
    }
}

/// The question just before the prompt.
fn question(screen: &str) -> &str {
    screen.trim_end_matches("> ").trim_end().lines().last().unwrap_or("")
}

/// A plain strategy: pass the upcard, draw from the stock, knock when the screen offers a knock
/// (`k CARD` in backquotes), otherwise discard the last card shown (the highest unmelded card).
fn decide(screen: &str) -> String {
    let asked = question(screen);
    if asked.starts_with("Upcard") {
        "p".to_owned()
    } else if asked.starts_with("Draw:") {
        "s".to_owned()
    } else if asked.starts_with("Discard:") {
        if screen.contains("`big`") {
            return "big".to_owned();
        }
        if let Some(at) = screen.find("`k ") {
            let command = &screen[at + 1..];
            return command[..command.find('`').unwrap()].to_owned();
        }
        let size = asked.split("position 1-").nth(1).and_then(|rest| rest.split(';').next()).unwrap();
        size.to_owned()
    } else if asked.starts_with("Press Enter") || asked.contains("Press Enter") {
        String::new()
    } else {
        panic!("an unexpected question: {screen}")
    }
}

/// Plays with [`decide`] until the end, or until `limit` answers have been given.
fn play_on(table: &mut Table, limit: usize) -> usize {
    for answered in 0..limit {
        let Some(screen) = table.screen() else { return answered };
        table.send(&decide(&screen));
    }
    limit
}

/// A save file path unique to this test.
fn save_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-play-{}-{name}.gin", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the save exists")
}

/// The end of a line of a save of version 2: `,"digest":"<16 lowercase hex digits>"}`.
const DIGEST_END: usize = 29;

/// A save's line without its digest member (what the engine wrote), or `None` when it has none.
fn without_digest(line: &str) -> Option<String> {
    let at = line.len().checked_sub(DIGEST_END)?;
    let (body, end) = (line.get(..at)?, line.get(at..)?);
    let digest = end.strip_prefix(",\"digest\":\"")?.strip_suffix("\"}")?;
    (digest.len() == 16 && digest.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        .then(|| format!("{body}}}"))
}

/// Lines (objects, without digests) sealed as the save format's version 2 says, worked out here
/// apart from gin's own code: d_0 = SHA-256(`gin-play save, version 2`), d_i = SHA-256(d_(i-1)
/// and line i), the first 8 bytes of d_i in hex as line i's last member.
fn seal(lines: &[String]) -> String {
    use sha2::{Digest, Sha256};
    let mut chain: Vec<u8> = Sha256::digest(b"gin-play save, version 2").to_vec();
    let mut text = String::new();
    for line in lines {
        chain = Sha256::new().chain_update(&chain).chain_update(line.as_bytes()).finalize().to_vec();
        let hex: String = chain[..8].iter().map(|b| format!("{b:02x}")).collect();
        text.push_str(&format!("{},\"digest\":\"{hex}\"}}\n", &line[..line.len() - 1]));
    }
    text
}

/// A save's lines without their digests, checked against the chain: panics at a line whose
/// digest is missing or wrong, or when line 1's `lines` is not the number of lines.
fn unsealed(save: &str) -> Vec<String> {
    let lines: Vec<String> =
        save.lines().map(|line| without_digest(line).unwrap_or_else(|| panic!("no digest: {line}"))).collect();
    assert_eq!(seal(&lines), save, "the digests are not the chain's");
    let header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(header["version"], 2, "{}", lines[0]);
    assert_eq!(header["lines"], lines.len(), "{}", lines[0]);
    lines
}

/// `save` (of version 2) edited line by line by `edit`, its digests and line count worked out
/// again: what someone who computes the digests could send.
fn resealed(save: &str, edit: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = save.lines().map(|line| edit(&without_digest(line).unwrap())).collect();
    let count = lines.len();
    lines[0] = with_line_count(&lines[0], count);
    seal(&lines)
}

/// A header line with its `"lines":N` member set to `count`.
fn with_line_count(header: &str, count: usize) -> String {
    let at = header.find("\"lines\":").unwrap() + "\"lines\":".len();
    let end = at + header[at..].find(',').unwrap();
    format!("{}{count}{}", &header[..at], &header[end..])
}

/// The same game as a save of version 1 (no digests, no line count) would hold it.
fn as_version_1(save: &str) -> String {
    let mut lines = unsealed(save);
    let header = &lines[0];
    let at = header.find(",\"lines\":").unwrap();
    let end = at + 1 + header[at + 1..].find(',').unwrap();
    lines[0] = format!("{}{}", &header[..at], &header[end..]).replacen("\"version\":2", "\"version\":1", 1);
    lines.iter().map(|line| format!("{line}\n")).collect()
}

#[test]
fn a_whole_game_against_the_ai_to_its_end() {
    let save = save_path("whole");
    let mut table = Table::open(&["--ai", "random", "--seed", "7", "--save", save.to_str().unwrap()]);
    let answered = play_on(&mut table, 5000);
    assert!(answered < 5000, "the game never ended");
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    let out = &ended.transcript;
    assert!(out.starts_with("You against the AI (random), playing to 100 points.\nSeed 7 ("), "{out}");
    assert!(out.contains(&format!("Saving after every move to {}\n", save.display())), "{out}");
    assert!(out.contains("The AI draws from the stock and discards "), "{out}");
    assert!(out.contains("── Hand 1 is over ──"), "{out}");
    for needle in ["══ Game over", "hand points", "hands won (boxes)", "game bonus", "total", " by "] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    assert!(out.is_ascii() || !out.contains('\u{1b}'), "no colour on a pipe");
    assert!(!out.contains('\u{1b}'), "no colour on a pipe");
    let saved = text(&save);
    // Every line carries its digest; with the digests off, lines 2 on are an engine log.
    let lines = unsealed(&saved);
    assert_eq!(
        lines[0],
        format!(r#"{{"format":"gin-play","version":2,"lines":{},"ai":"random","human":"one"}}"#, lines.len())
    );
    assert!(lines[1].starts_with(r#"{"format":"gin-log","version":2,"seed":7,"rules":{"#), "{}", lines[1]);
    assert!(lines.last().unwrap().starts_with(r#"{"event":"game_ended""#), "{}", lines.last().unwrap());
    // Lines 2 on are an engine log that replays to the end.
    let log = lines[1..].join("\n");
    let game = gin_engine_replay(&log);
    assert!(game, "the engine replays the save");
    std::fs::remove_file(save).unwrap();
}

/// Whether the engine's own replay accepts the log (through `gin`'s dependencies' public API).
fn gin_engine_replay(log: &str) -> bool {
    gin_engine::replay(log).is_ok_and(|game| game.result().is_some())
}

/// A seed whose first question to the person is the upcard offer.
fn seed_with_an_upcard_offer() -> (u64, Table, String) {
    for seed in 1..50 {
        let save = save_path(&format!("offer-{seed}"));
        let mut table = Table::open(&["--ai", "random", "--seed", &seed.to_string(), "--save", save.to_str().unwrap()]);
        let screen = table.screen().unwrap();
        if question(&screen).starts_with("Upcard") {
            return (seed, table, screen);
        }
        let _ = table.close();
    }
    panic!("no seed offers the upcard to the person first");
}

#[test]
fn every_input_error_is_explained_and_asked_again() {
    let (_, mut table, screen) = seed_with_an_upcard_offer();
    let upcard = question(&screen).split(' ').nth(1).unwrap().trim_end_matches(':').to_owned();
    let expect = |table: &mut Table, input: &str, message: &str, asked: &str| {
        table.send(input);
        let screen = table.screen().unwrap();
        assert!(screen.contains(message), "{input}: expected {message:?} in {screen}");
        assert!(question(&screen).starts_with(asked), "{input}: {screen}");
        screen
    };
    expect(&mut table, "xyzzy", "`xyzzy` is not a command or a card.", "Upcard");
    expect(&mut table, "s", "The first upcard is on offer: t to take it, p to pass.", "Upcard");
    expect(&mut table, "7h", "The first upcard is on offer", "Upcard");
    expect(&mut table, "help", "k 7h, k 3", "Upcard");
    let screen = expect(&mut table, "t", "You take the upcard", "Discard:");
    // The card just taken may not be discarded, by name or as the knock discard.
    expect(&mut table, &upcard.to_lowercase(), &format!("You just took {upcard} from the discard pile"), "Discard:");
    expect(&mut table, &format!("k {upcard}"), &format!("You just took {upcard}"), "Discard:");
    expect(&mut table, "k", "Knock discarding which card?", "Discard:");
    expect(&mut table, "12", "There is no card at position 12: your hand shows positions 1-11.", "Discard:");
    expect(&mut table, "0", "positions count from 1", "Discard:");
    expect(&mut table, "7x", "`7x` is not a card: unknown suit `x`", "Discard:");
    expect(&mut table, "7h 8h", "one card at a time", "Discard:");
    expect(&mut table, "s", "You have drawn: now discard a card", "Discard:");
    let hand_line = screen.lines().find(|line| line.starts_with("Your hand")).unwrap();
    let absent = ["AS", "2C", "KD", "5H", "9S", "TC", "JH", "4D", "8C", "QS", "3H", "6D"]
        .into_iter()
        .find(|card| !hand_line.contains(card))
        .unwrap();
    expect(&mut table, absent, &format!("{absent} is not in your hand."), "Discard:");
    if screen.contains("needs") {
        expect(&mut table, "k 1", "You cannot knock: that leaves deadwood", "Discard:");
    }
    // Every refusal left the game as it was: a good move is still taken.
    table.send("11");
    let screen = table.screen().unwrap();
    assert!(screen.contains("You discard "), "{screen}");
    table.send("quit");
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert!(ended.transcript.contains("Stopped. The game is saved in "), "{}", ended.transcript);
}

/// Plays seed 11 against the random AI in two sittings, stopping after `first` answers with
/// `stop` (`quit`, or `None` to close the input), and returns the final save.
fn in_two_sittings(first: usize, stop: Option<&str>) -> String {
    let save = save_path(&format!("sittings-{first}-{}", stop.unwrap_or("eof")));
    let path = save.to_str().unwrap();
    let mut table = Table::open(&["--ai", "random", "--seed", "11", "--save", path]);
    assert_eq!(play_on(&mut table, first), first);
    if let Some(stop) = stop {
        table.screen().unwrap();
        table.send(stop);
    }
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    // The test runs a build in the target folder, not a `gin` on the PATH: the suggestion says
    // how to run this one.
    let continue_with = ended.transcript.lines().find(|line| line.starts_with("Continue with: ")).unwrap_or_default();
    assert!(
        continue_with.starts_with("Continue with: cargo run ")
            && continue_with.ends_with(&format!(" -- play --resume {path}")),
        "{}",
        ended.transcript
    );
    let mut table = Table::open(&["--resume", path]);
    play_on(&mut table, 5000);
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert!(ended.transcript.starts_with("Resuming: You against the AI (random), hand "), "{}", ended.transcript);
    let saved = text(&save);
    std::fs::remove_file(save).unwrap();
    saved
}

#[test]
fn save_and_resume_continue_the_same_game() {
    let save = save_path("uninterrupted");
    let mut table = Table::open(&["--ai", "random", "--seed", "11", "--save", save.to_str().unwrap()]);
    play_on(&mut table, 5000);
    assert_eq!(table.close().code, Some(0));
    let whole = text(&save);
    assert!(whole.lines().last().unwrap().contains("game_ended"));
    for (first, stop) in [(1, Some("quit")), (23, Some("quit")), (40, None), (61, Some("q"))] {
        assert_eq!(in_two_sittings(first, stop), whole, "stopped after {first} answers with {stop:?}");
    }
    std::fs::remove_file(save).unwrap();
}

#[test]
fn damaged_or_foreign_saves_are_refused_clearly() {
    let save = save_path("damaged-source");
    let mut table = Table::open(&["--ai", "random", "--seed", "3", "--save", save.to_str().unwrap()]);
    play_on(&mut table, 30);
    table.screen();
    table.send("quit");
    table.close();
    let good = text(&save);
    let lines: Vec<&str> = good.lines().collect();
    let cut = &good[..good.len() - lines.last().unwrap().len() / 2 - 1];
    let tampered = good.replacen(
        r#""event":"discarded","player":"one","card":""#,
        r#""event":"discarded","player":"one","card":"X"#,
        1,
    );
    let changed =
        good.lines().position(|line| line.contains(r#""event":"discarded","player":"one","card":""#)).unwrap() + 1;
    let moved = good.replacen(r#""event":"drew_stock","player":"one""#, r#""event":"drew_stock","player":"two""#, 1);
    let drew = good.lines().position(|line| line.contains(r#""event":"drew_stock","player":"one""#)).unwrap() + 1;
    // The same damage to the same game saved by version 1 of the format: found by the replay.
    let old = as_version_1(&good);
    let old_cut = &old[..old.len() - lines.last().unwrap().len() / 2 - 1];
    let old_tampered = old.replacen(
        r#""event":"discarded","player":"one","card":""#,
        r#""event":"discarded","player":"one","card":"X"#,
        1,
    );
    let old_moved = old.replacen(r#""event":"drew_stock","player":"one""#, r#""event":"drew_stock","player":"two""#, 1);
    let no_digest = format!("line {} has no digest", lines.len());
    let was_changed = format!("line {changed} was changed: its digest does not match the lines before it");
    let moved_changed = format!("line {drew} was changed: its digest does not match the lines before it");
    let old_cut_line = format!("the save is damaged: line {}: ", lines.len());
    let cases: [(&str, &[u8], &str); 12] = [
        ("empty", b"", "the save file is empty"),
        ("garbage", b"\x00\xffgarbage", "is not a gin save file: it is not text"),
        ("words", b"hello world\n", "not a `gin play` save file"),
        ("foreign", br#"{"format":"gin-save","version":1,"game":{}}"#, "not a `gin play` save file"),
        (
            "version",
            br#"{"format":"gin-play","version":3,"ai":null,"human":null}"#,
            "save format version 3 is not supported: this gin reads versions 1 and 2",
        ),
        (
            "no-digest",
            br#"{"format":"gin-play","version":2,"lines":1,"ai":null,"human":null}"#,
            "the save is damaged: line 1 has no digest",
        ),
        (
            "header-only",
            b"{\"format\":\"gin-play\",\"version\":1,\"ai\":null,\"human\":null}\n",
            "the game's header (line 2) is missing",
        ),
        ("cut", cut.as_bytes(), &no_digest),
        ("tampered", tampered.as_bytes(), &was_changed),
        ("moved", moved.as_bytes(), &moved_changed),
        ("old-cut", old_cut.as_bytes(), &old_cut_line),
        ("old-tampered", old_tampered.as_bytes(), "the save is damaged: line "),
    ];
    for (name, contents, message) in
        cases.iter().chain([("old-moved", old_moved.as_bytes(), "the save is damaged: line ")].iter())
    {
        let path = save_path(&format!("damaged-{name}"));
        std::fs::write(&path, contents).unwrap();
        let ended = Table::open(&["--resume", path.to_str().unwrap()]).close();
        assert_eq!(ended.code, Some(1), "{name}: {ended:?}");
        assert!(
            ended.stderr.starts_with(&format!("error: cannot resume from `{}`: ", path.display()))
                || name == &"garbage",
            "{name}: {}",
            ended.stderr
        );
        assert!(ended.stderr.contains(message), "{name}: expected {message:?} in {}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{name}: {}", ended.stderr);
        // A damaged save says how to play on from before the damage; a refused one is unchanged.
        if ["cut", "tampered", "moved", "old-cut", "old-tampered", "old-moved"].contains(name) {
            assert!(
                ended.stderr.contains(&format!("play --resume {} --recover`", path.display())),
                "{name}: {}",
                ended.stderr
            );
        }
        assert_eq!(std::fs::read(&path).unwrap(), *contents, "{name}");
        std::fs::remove_file(path).unwrap();
    }
    let missing = save_path("missing");
    let ended = Table::open(&["--resume", missing.to_str().unwrap()]).close();
    assert_eq!(ended.code, Some(1), "{ended:?}");
    assert!(
        ended.stderr.starts_with(&format!("error: cannot read the save file `{}`: ", missing.display())),
        "{}",
        ended.stderr
    );
    // A save resumes by its record: an AI other than the one that played it goes on from it.
    let other = save_path("other-ai");
    std::fs::write(&other, resealed(&good, |line| line.replacen(r#""ai":"random""#, r#""ai":"simple""#, 1))).unwrap();
    let ended = Table::open(&["--resume", other.to_str().unwrap()]).close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert!(ended.transcript.starts_with("Resuming: You against the AI (simple), hand 2"), "{}", ended.transcript);
    for path in [save, other] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn a_save_never_starts_a_program_and_resume_may_change_the_ai() {
    let save = save_path("program");
    let marker = save_path("program-ran");
    let _ = std::fs::remove_file(&marker);
    let started = Table::open(&["--ai", "simple", "--seed", "8", "--save", save.to_str().unwrap()]).close();
    assert_eq!(started.code, Some(0), "{started:?}");
    // The save now names a program, as a save sent by someone else might.
    let program = format!("cmd:touch {}", marker.display());
    let text = resealed(&std::fs::read_to_string(&save).unwrap(), |line| {
        line.replacen(r#""ai":"simple""#, &format!(r#""ai":"{program}""#), 1)
    });
    std::fs::write(&save, text).unwrap();
    let resumed = Table::open(&["--resume", save.to_str().unwrap()]).close();
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    assert!(!marker.exists(), "the program named by the save was started");
    assert!(
        resumed.transcript.contains("a save never starts a program: playing on against mc"),
        "{}",
        resumed.transcript
    );
    assert!(resumed.transcript.contains(&format!("--ai '{program}'")), "{}", resumed.transcript);
    // The save goes on against the stand-in, and names it from now on.
    let header = unsealed(&std::fs::read_to_string(&save).unwrap()).swap_remove(0);
    assert!(header.ends_with(r#","ai":"mc","human":"one"}"#), "{header}");
    // --ai chooses who plays on.
    let chosen = Table::open(&["--resume", save.to_str().unwrap(), "--ai", "expert"]).close();
    assert_eq!(chosen.code, Some(0), "{chosen:?}");
    assert!(chosen.transcript.contains("Playing on against expert."), "{}", chosen.transcript);
    let header = unsealed(&std::fs::read_to_string(&save).unwrap()).swap_remove(0);
    assert!(header.ends_with(r#","ai":"expert","human":"one"}"#), "{header}");
    std::fs::remove_file(save).unwrap();
}

#[test]
fn every_game_has_its_own_file_and_resume_alone_takes_the_latest_unfinished() {
    let state = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-play-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    let env = [("XDG_STATE_HOME", state.as_path())];
    let games = state.join("gin").join("games");
    let saves = || -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&games).unwrap().map(|entry| entry.unwrap().path()).collect();
        files.sort();
        files
    };
    let ended = Table::open_with_env(&["--ai", "random", "--seed", "5"], &env).close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    let first = saves();
    assert_eq!(first.len(), 1, "{first:?}");
    let name = first[0].file_name().unwrap().to_str().unwrap().to_owned();
    assert!(name.ends_with("-seed-5.gin") && name.starts_with("20"), "{name}");
    assert!(
        ended.transcript.contains(&format!("Saving after every move to {}\n", first[0].display())),
        "{}",
        ended.transcript
    );
    assert!(ended.transcript.contains("\nEnd of input. The game is saved in "), "{}", ended.transcript);
    // A second game, even with the same seed, gets a file of its own: nothing is replaced.
    let ended = Table::open_with_env(&["--ai", "random", "--seed", "5"], &env).close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    let both = saves();
    assert_eq!(both.len(), 2, "{both:?}");
    assert!(both.contains(&first[0]));
    let newest = both.iter().find(|path| **path != first[0]).unwrap().clone();
    // `gin saves` lists both; `--resume` alone continues the newest unfinished one.
    let listed = super::gin_with_env(&["saves"], &env);
    assert_eq!(listed.code, Some(0), "{listed:?}");
    assert_eq!(listed.stdout.lines().count(), 2, "{}", listed.stdout);
    assert!(listed.stdout.lines().all(|line| line.contains("vs random") && line.contains("hand 1, unfinished")));
    let resumed = Table::open_with_env(&["--resume"], &env).close();
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    assert!(
        resumed.transcript.contains(&format!("Saving after every move to {}", newest.display())),
        "{}",
        resumed.transcript
    );
    // With nothing unfinished, it says so.
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-play-empty-{}", std::process::id()));
    let none = Table::open_with_env(&["--resume"], &[("XDG_STATE_HOME", empty.as_path())]).close();
    assert_eq!(none.code, Some(1), "{none:?}");
    assert!(none.stderr.contains("no unfinished game to resume"), "{}", none.stderr);
    std::fs::remove_dir_all(state).unwrap();
}

#[test]
fn two_sessions_never_play_one_save_and_stale_temporaries_go() {
    let save = save_path("locked");
    let stale = save.with_file_name(format!(".{}.99999.tmp", save.file_name().unwrap().to_str().unwrap()));
    let mut first = Table::open(&["--ai", "simple", "--seed", "6", "--save", save.to_str().unwrap()]);
    first.screen().expect("the first session asks for a move");
    std::fs::write(&stale, "half a save").unwrap();
    let second = Table::open(&["--resume", save.to_str().unwrap()]).close();
    assert_eq!(second.code, Some(1), "{second:?}");
    assert!(second.stderr.contains("another `gin play` is playing the game saved in"), "{}", second.stderr);
    assert!(stale.exists(), "only the lock's holder cleans");
    assert_eq!(first.close().code, Some(0));
    let third = Table::open(&["--resume", save.to_str().unwrap()]).close();
    assert_eq!(third.code, Some(0), "{third:?}");
    assert!(!stale.exists(), "a stale temporary file of this save is removed");
    std::fs::remove_file(save).unwrap();
}

#[test]
fn a_save_that_fails_is_reported_at_once_and_at_quit() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-play-failing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let save = dir.join("game.gin");
    let mut table = Table::open(&["--ai", "simple", "--seed", "7", "--save", save.to_str().unwrap()]);
    let mut screen = table.screen().expect("a first question");
    // The folder of the save becomes a plain file: every later write fails.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, "in the way").unwrap();
    for _ in 0..6 {
        table.send(&decide(&screen));
        match table.screen() {
            Some(next) => screen = next,
            None => break,
        }
        if table.transcript.contains("warning: ") {
            break;
        }
    }
    let said = table.transcript.clone();
    table.send("quit");
    let ended = table.close();
    assert!(said.contains("this move is not saved"), "{said}");
    assert!(ended.transcript.contains("The game could NOT be saved: "), "{}", ended.transcript);
    assert!(!ended.transcript.contains("The game is saved in"), "{}", ended.transcript);
    std::fs::remove_file(&dir).unwrap();
}

#[test]
fn hotseat_asks_each_player_to_take_the_screen() {
    let save = save_path("hotseat");
    let mut table = Table::open(&["--hotseat", "--seed", "2", "--save", save.to_str().unwrap()]);
    play_on(&mut table, 12);
    table.send("quit");
    let ended = table.close();
    let out = &ended.transcript;
    assert!(out.starts_with("Two players at one terminal, playing to 100 points."), "{out}");
    assert!(out.contains("Player 1's turn. Press Enter when only Player 1 can see the screen."), "{out}");
    assert!(out.contains("Player 2's turn. Press Enter when only Player 2 can see the screen."), "{out}");
    assert!(out.contains("Player 1 draws from the stock and discards "), "{out}");
    assert!(unsealed(&text(&save))[0].ends_with(r#","ai":null,"human":null}"#));
    // The resumed hotseat game asks for the screen again.
    let mut table = Table::open(&["--resume", save.to_str().unwrap()]);
    let screen = table.screen().unwrap();
    assert!(screen.contains("'s turn. Press Enter when only"), "{screen}");
    table.close();
    std::fs::remove_file(save).unwrap();
}

#[test]
fn a_hint_comes_from_the_opponents_level() {
    // Against `mc-fast` the hint is mc-fast's; against `random`, which keeps no reasons, the expert's.
    for (ai, advisor) in [("mc-fast", "mc-fast"), ("random", "expert")] {
        let save = save_path(&format!("hint-{ai}"));
        let mut table = Table::open(&["--ai", ai, "--seed", "4", "--save", save.to_str().unwrap()]);
        table.screen().unwrap();
        table.send("hint");
        let screen = table.screen().unwrap();
        assert!(screen.contains(&format!("Hint: {advisor} would ")), "{screen}");
        assert!(screen.contains("\n  - "), "a hint gives its reasons: {screen}");
        table.close();
        std::fs::remove_file(save).unwrap();
    }
}

#[test]
fn a_finished_game_resumes_to_its_result_and_bad_options_are_usage_errors() {
    let save = save_path("finished");
    let mut table = Table::open(&["--ai", "random", "--seed", "9", "--target", "10", "--save", save.to_str().unwrap()]);
    play_on(&mut table, 5000);
    assert_eq!(table.close().code, Some(0));
    assert!(text(&save).contains(r#""target":10"#));
    let ended = Table::open(&["--resume", save.to_str().unwrap()]).close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert!(ended.transcript.contains("══ Game over"), "{}", ended.transcript);
    std::fs::remove_file(save).unwrap();

    let ended = Table::open(&["--ai", "chess"]).close();
    assert_eq!(ended.code, Some(2), "{ended:?}");
    assert!(ended.stderr.contains("unknown agent `chess`"), "{}", ended.stderr);
    let ended = Table::open(&["--resume", "x.gin", "--seed", "3"]).close();
    assert_eq!(ended.code, Some(2), "{ended:?}");
}

#[test]
fn a_target_has_one_range_on_the_command_line_and_in_a_save() {
    let refused = Table::open(&["--target", "20000"]).close();
    assert_eq!(refused.code, Some(2), "{refused:?}");
    assert!(refused.stderr.contains("setting `target` must be from 1 to 10000, found 20000"), "{}", refused.stderr);
    // The greatest target the command line takes, a save keeps and resume reads.
    let save = save_path("target");
    let started = Table::open(&["--ai", "simple", "--target", "10000", "--save", save.to_str().unwrap()]).close();
    assert_eq!(started.code, Some(0), "{started:?}");
    let resumed = Table::open(&["--resume", save.to_str().unwrap()]).close();
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    assert!(resumed.transcript.contains("game to 10000"), "{}", resumed.transcript);
    std::fs::remove_file(save).unwrap();
}

#[test]
fn save_never_replaces_a_file_that_is_not_this_game_unless_forced() {
    let other = save_path("not-a-game.txt");
    std::fs::write(&other, "my notes\n").unwrap();
    let refused = Table::open(&["--ai", "simple", "--save", other.to_str().unwrap()]).close();
    assert_eq!(refused.code, Some(2), "{refused:?}");
    assert!(refused.stderr.contains("the file exists and is not this game's save"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes\n");
    // An unfinished game is not replaced by a new one either; resuming it into itself is fine.
    let game = save_path("unfinished");
    assert_eq!(Table::open(&["--ai", "simple", "--seed", "4", "--save", game.to_str().unwrap()]).close().code, Some(0));
    let before = std::fs::read_to_string(&game).unwrap();
    let refused = Table::open(&["--ai", "simple", "--seed", "5", "--save", game.to_str().unwrap()]).close();
    assert_eq!(refused.code, Some(2), "{refused:?}");
    assert_eq!(std::fs::read_to_string(&game).unwrap(), before);
    let resumed = Table::open(&["--resume", game.to_str().unwrap(), "--save", game.to_str().unwrap()]).close();
    assert_eq!(resumed.code, Some(0), "{resumed:?}");
    // Resuming into another existing file is refused too; --force replaces it.
    let refused = Table::open(&["--resume", game.to_str().unwrap(), "--save", other.to_str().unwrap()]).close();
    assert_eq!(refused.code, Some(2), "{refused:?}");
    let forced = Table::open(&["--ai", "simple", "--save", other.to_str().unwrap(), "--force"]).close();
    assert_eq!(forced.code, Some(0), "{forced:?}");
    assert!(std::fs::read_to_string(&other).unwrap().starts_with(r#"{"format":"gin-play""#));
    for path in [other, game] {
        std::fs::remove_file(path).unwrap();
    }
}

/// Runs `gin play ARGS` in a pseudo-terminal (through Python's `pty`, which the external-agent
/// tests need too), typing each of `keys` once the program has prompted, and returns all it
/// wrote to the terminal.
fn in_a_terminal(args: &[&str], keys: &[&str]) -> String {
    // A line typed (ending in Enter) waits for the next prompt: rustyline turns bracketed paste
    // on (`ESC[?2004h`) whenever it starts reading a line. Other keys wait a moment. After the
    // last key, everything up to the end.
    let driver = "import os, pty, select, sys, time\n\
                  keys = [bytes.fromhex(k) for k in sys.argv[1].split(',')]\n\
                  pid, fd = pty.fork()\n\
                  if pid == 0:\n    \
                      os.execv(sys.argv[2], sys.argv[2:])\n\
                  out = b''\n\
                  def read(start, seconds, marker):\n    \
                      global out\n    \
                      end = time.time() + seconds\n    \
                      while time.time() < end and not (marker and marker in out[start:]):\n        \
                          if select.select([fd], [], [], 0.05)[0]:\n            \
                              try:\n                \
                                  data = os.read(fd, 65536)\n            \
                              except OSError:\n                \
                                  return\n            \
                              if not data:\n                \
                                  return\n            \
                              out += data\n\
                  read(0, 20, b'\\x1b[?2004h')\n\
                  for key in keys:\n    \
                      start = len(out)\n    \
                      os.write(fd, key)\n    \
                      if key.endswith(b'\\r'):\n        \
                          read(start, 20, b'\\x1b[?2004h')\n    \
                      else:\n        \
                          read(start, 0.3, None)\n\
                  read(len(out), 20, None)\n\
                  os.waitpid(pid, 0)\n\
                  sys.stdout.buffer.write(out)\n";
    let script = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-pty-{}.py", std::process::id()));
    std::fs::write(&script, driver).unwrap();
    let hex: Vec<String> = keys.iter().map(|key| key.bytes().map(|b| format!("{b:02x}")).collect()).collect();
    let output = Command::new("python3")
        .arg(&script)
        .arg(hex.join(","))
        .arg(env!("CARGO_BIN_EXE_gin"))
        .arg("play")
        .args(args)
        .env("NO_COLOR", "1")
        // A terminal that knows escape sequences, whatever the environment the tests run in.
        .env("TERM", "xterm-256color")
        .output()
        .expect("python3 runs: the terminal tests drive gin through its pty module");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn at_a_terminal_lines_have_history_and_a_hot_seat_leaves_no_scrollback() {
    let save = save_path("terminal");
    // The Up arrow brings `hint` back: a second hint, not an unknown command.
    let typed = in_a_terminal(
        &["--plain", "--ai", "simple", "--seed", "3", "--save", save.to_str().unwrap()],
        &["hint\r", "\u{1b}[A", "\r", "quit\r"],
    );
    assert_eq!(typed.matches("Hint: ").count(), 2, "{typed}");
    // NO_COLOR takes the colour away, not the suit symbols: two choices.
    assert!(typed.contains('♠') && !typed.contains("\u{1b}[31m"), "{typed}");
    assert!(!typed.contains("is not a command"), "{typed}");
    assert!(typed.contains("The game is saved in"), "{typed}");
    // Between the turns of a hot seat, the screen and the scrollback are cleared.
    let hotseat = in_a_terminal(
        &["--plain", "--hotseat", "--seed", "3", "--save", save.to_str().unwrap(), "--force"],
        &["\r", "p\r", "\r", "quit\r"],
    );
    let cleared = hotseat.find("\u{1b}[2J\u{1b}[3J").unwrap_or_else(|| panic!("no clearing: {hotseat:?}"));
    assert!(hotseat[cleared..].contains("Player 2's turn"), "{hotseat:?}");
    std::fs::remove_file(save).unwrap();
}

/// What a session at the full-screen table showed.
#[derive(Debug)]
struct Screens {
    /// The screen after the start and after each key.
    screens: Vec<String>,
    /// The main screen at the end (what stays in the terminal).
    main: String,
    status: i64,
}

/// Runs `gin play ARGS` at a `size` ("80x24") pseudo-terminal, pressing `keys` (each a key's
/// bytes, or `resize:COLSxROWS`) one at a time, each once the table is quiet; the screens it
/// showed, read by tests/it/terminal.py's small terminal emulator.
fn at_the_table(size: &str, args: &[&str], keys: &[&str]) -> Screens {
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/terminal.py");
    let keys: Vec<String> = keys
        .iter()
        .map(|key| {
            if key.starts_with("resize:") {
                (*key).to_owned()
            } else {
                key.bytes().map(|b| format!("{b:02x}")).collect()
            }
        })
        .collect();
    let output = Command::new("python3")
        .arg(driver)
        .arg(size)
        .arg(keys.join(","))
        .arg(env!("CARGO_BIN_EXE_gin"))
        .arg("play")
        .args(args)
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        // New games (another game after the score sheet) are saved here.
        .env("XDG_STATE_HOME", table_state())
        .output()
        .expect("python3 runs: the table's tests drive gin through its pty module");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&output.stderr)));
    Screens {
        screens: json["screens"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect(),
        main: json["main"].as_str().unwrap().to_owned(),
        status: json["status"].as_i64().unwrap(),
    }
}

/// The state folder of the table's tests.
fn table_state() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-table-state-{}", std::process::id()))
}

#[test]
fn at_the_table_a_whole_game_is_played_with_keys() {
    let save = save_path("table-game");
    // Pass the upcard, draw from the stock, discard what was drawn (Enter: the card drawn is the
    // one selected), again and again; Enter also goes on from the end of the hand, and n at the
    // score sheet starts another game, quit at the end. Keys that do not fit the moment are
    // refused with a note, or do nothing, and change nothing.
    let mut keys: Vec<&str> = std::iter::repeat_n(["p", "s", "\r", "n"], 10).flatten().collect();
    keys.push("q");
    let run = at_the_table(
        "80x24",
        &["--ai", "simple", "--seed", "5", "--target", "1", "--save", save.to_str().unwrap()],
        &keys,
    );
    assert_eq!(run.status, 0, "{run:?}");
    let first = &run.screens[0];
    for part in ["Your hand", "The AI ▒▒▒▒▒▒▒▒▒▒ 10 cards", "╭ Table", "Last moves", "stock 31", "game to 1"]
    {
        assert!(first.contains(part), "{part} is not on the first screen:\n{first}");
    }
    assert!(run.screens.iter().any(|s| s.contains("You draw") && s.contains("from the stock and discard")), "{run:?}");
    let end = run.screens.iter().find(|s| s.contains("Hand 1 is over")).unwrap_or_else(|| panic!("{run:?}"));
    assert!(end.contains("KNOCK: The AI scores 46 points (deadwood 49 − 3)."), "{end}");
    let sheet = run.screens.iter().find(|s| s.contains("Score sheet")).unwrap_or_else(|| panic!("{run:?}"));
    assert!(sheet.contains("n: another game"), "{sheet}");
    assert!(text(&save).contains(r#""event":"game_ended""#));
    // Another game: a new deal from the clock, in a new file of the state folder, which the
    // last q leaves saved.
    let sheet_at = run.screens.iter().position(|s| s.contains("Score sheet")).unwrap();
    let next = run.screens[sheet_at..].iter().find(|s| s.contains("Your hand")).unwrap_or_else(|| panic!("{run:?}"));
    assert!(next.contains("Seed ") && next.contains("(drawn from the"), "{next}");
    assert!(run.main.contains("Stopped. The game is saved in"), "{}", run.main);
    let games = table_state().join("gin/games");
    // (The path may wrap at the terminal's edge.)
    assert!(run.main.replace('\n', "").contains(games.to_str().unwrap()), "{}", run.main);
    assert!(!run.main.contains("Your hand"), "the table does not stay in the terminal: {}", run.main);
    std::fs::remove_file(save).unwrap();
}

#[test]
fn at_the_table_a_resize_redraws_and_quit_and_resume_lose_nothing() {
    let save = save_path("table-resume");
    let args = ["--ai", "simple", "--seed", "3", "--save", save.to_str().unwrap()];
    let run = at_the_table("80x24", &args, &["p", "s", "resize:50x18", "\r", "q"]);
    assert_eq!(run.status, 0, "{run:?}");
    // Wide, then folded: the cards in two characters, stock and pile on one line.
    assert!(run.screens[2].contains("╭ Table") && run.screens[2].contains("┃Q♠┃"), "{}", run.screens[2]);
    let narrow = &run.screens[3];
    assert!(narrow.lines().all(|line| line.chars().count() <= 50), "{narrow}");
    assert!(narrow.contains("Stock 30 · Pile K♥ (1)") && narrow.contains("Q♠ Q♥ Q♦"), "{narrow}");
    let before_quit = run.screens[4].clone();
    assert!(before_quit.contains("You draw Q♠ from the stock and discard Q♠."), "{before_quit}");
    assert!(run.main.contains("Stopped. The game is saved in"), "{}", run.main);
    let saved = text(&save);
    // Resumed: the same table, the moves so far in the log, the same cards in hand.
    let resumed = at_the_table("50x18", &["--resume", save.to_str().unwrap()], &["q"]);
    assert_eq!(resumed.status, 0, "{resumed:?}");
    let first = &resumed.screens[0];
    assert!(first.contains("Resuming: You against the AI (simple)"), "{first}");
    let hand = |screen: &str| screen.lines().skip_while(|l| !l.starts_with("Your hand")).nth(2).map(str::to_owned);
    assert_eq!(hand(first), hand(&before_quit), "{first}\n{before_quit}");
    assert!(first.contains("You draw Q♠ from the stock and discard Q♠."), "{first}");
    assert_eq!(text(&save), saved, "resuming and quitting changes nothing");
    std::fs::remove_file(save).unwrap();
}

#[test]
fn at_the_table_the_mouse_draws_selects_and_discards() {
    let save = save_path("table-mouse");
    // At 80x24 (seed 3): the stock's back is at column 5, row 8, and after the draw the second
    // card, Q♥, at column 7, row 19 (SGR mouse reports count from 1). A press and a release each.
    let click = |column: u32, row: u32| format!("\u{1b}[<0;{column};{row}M\u{1b}[<0;{column};{row}m");
    let (stock, second_card) = (click(5, 8), click(7, 19));
    let keys = ["p", stock.as_str(), second_card.as_str(), second_card.as_str(), "q"];
    let run = at_the_table("80x24", &["--ai", "simple", "--seed", "3", "--save", save.to_str().unwrap()], &keys);
    assert_eq!(run.status, 0, "{run:?}");
    assert!(run.screens[2].contains("You draw Q♠ from the stock."), "{}", run.screens[2]);
    // The first click selects Q♥ (the drawn Q♠ was selected), the second discards it.
    assert!(run.screens[3].contains("┃Q♥┃"), "{}", run.screens[3]);
    assert!(run.screens[4].contains("You draw Q♠ from the stock and discard Q♥."), "{}", run.screens[4]);
    std::fs::remove_file(save).unwrap();
}

/// A fresh folder for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gin-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays seed `seed` against the random AI for `answers` answers, saving to `save`, and quits.
fn play_and_quit(seed: &str, save: &Path, answers: usize) {
    let mut table = Table::open(&["--ai", "random", "--seed", seed, "--save", save.to_str().unwrap()]);
    assert_eq!(play_on(&mut table, answers), answers, "the game ended first");
    table.screen().expect("a question");
    table.send("quit");
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
}

#[test]
fn a_cut_save_is_refused_with_its_line_then_recovered_and_saved_whole_again() {
    let state = scratch_dir("cut-state");
    let env = [("XDG_STATE_HOME", state.as_path())];
    let games = state.join("gin").join("games");
    std::fs::create_dir_all(&games).unwrap();
    let save = games.join("cut.gin");
    let path = save.to_str().unwrap();
    play_and_quit("3", &save, 30);
    let whole = text(&save);
    let total = whole.lines().count();
    assert!(total > 60, "{total} lines");
    // Cut at the end of line 40: every line left is whole, and its digest right.
    let cut: String = whole.lines().take(40).map(|line| format!("{line}\n")).collect();
    std::fs::write(&save, &cut).unwrap();
    let copy = games.join("cut.gin.damaged");
    let refused = Table::open_with_env(&["--resume", path], &env).close();
    assert_eq!(refused.code, Some(1), "{refused:?}");
    let why = format!("it ends after line 40, but its header says {total} lines: the save was cut short");
    assert!(refused.stderr.contains(&format!("the save is damaged: {why}; ")), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains(&format!("play --resume {path} --recover` plays on from the last whole move before line 41")),
        "{}",
        refused.stderr
    );
    assert_eq!(text(&save), cut, "a refused save is left as it was");
    assert!(!copy.exists());
    // `gin replay` refuses it the same way, and `gin saves` lists it as damaged.
    let replayed = super::gin(&["replay", path], "");
    assert_eq!(replayed.code, Some(1), "{replayed:?}");
    assert!(replayed.stderr.contains(&format!("{path} is damaged: {why}; ")), "{}", replayed.stderr);
    assert!(replayed.stderr.contains("--recover` plays on"), "{}", replayed.stderr);
    let listed = super::gin_with_env(&["saves"], &env);
    assert!(listed.stdout.contains("damaged from line 41"), "{}", listed.stdout);
    // --recover plays on from the last whole move before line 41, keeping the damaged file.
    let recovered = Table::open_with_env(&["--resume", path, "--recover"], &env).close();
    assert_eq!(recovered.code, Some(0), "{recovered:?}");
    let said = &recovered.transcript;
    assert!(
        said.contains(&format!(
            "warning: the save is damaged from line 41 ({why}). Resuming from the last whole move before it, in hand "
        )),
        "{said}"
    );
    assert!(said.contains(&format!("the damaged file is kept as {}.", copy.display())), "{said}");
    assert_eq!(text(&copy), cut);
    // Saved whole again, as version 2: the game as it was up to the cut, and the AI's moves
    // after it as it played them the first time.
    let again = unsealed(&text(&save));
    let before = unsealed(&whole);
    assert!(again.len() > 30, "{} lines", again.len());
    assert_eq!(again[1..], before[1..again.len()]);
    // Resumable again, and --recover on a whole save just resumes it.
    for args in [&["--resume", path][..], &["--resume", path, "--recover"]] {
        let resumed = Table::open_with_env(args, &env).close();
        assert_eq!(resumed.code, Some(0), "{resumed:?}");
        assert!(!resumed.transcript.contains("warning"), "{}", resumed.transcript);
    }
    assert!(!games.join("cut.gin.damaged-2").exists());
    // Recovered again, the first copy stays and a second one is kept.
    let again_cut: String = text(&save).lines().take(30).map(|line| format!("{line}\n")).collect();
    std::fs::write(&save, &again_cut).unwrap();
    let recovered = Table::open_with_env(&["--resume", path, "--recover"], &env).close();
    assert_eq!(recovered.code, Some(0), "{recovered:?}");
    assert_eq!((text(&copy), text(&games.join("cut.gin.damaged-2"))), (cut, again_cut));
    std::fs::remove_dir_all(state).unwrap();
}

#[test]
fn an_edit_that_keeps_the_game_legal_is_refused_at_its_line() {
    let save = save_path("edited");
    let path = save.to_str().unwrap();
    play_and_quit("3", &save, 40);
    let good = text(&save);
    let lines = unsealed(&good);
    // Two of the AI's discards swapped, where the game stays legal: the engine replays it.
    let card = |line: &str| line[line.find(r#""card":""#).unwrap() + 8..][..2].to_owned();
    let swap = |line: &str, from: &str, to: &str| {
        line.replacen(&format!(r#""card":"{from}""#), &format!(r#""card":"{to}""#), 1)
    };
    let discards: Vec<usize> = (0..lines.len())
        .filter(|&at| lines[at].starts_with(r#"{"event":"discarded","player":"two","card":""#))
        .collect();
    let (first, edited) = discards
        .windows(2)
        .find_map(|pair| {
            let (a, b) = (card(&lines[pair[0]]), card(&lines[pair[1]]));
            let mut edited = lines.clone();
            edited[pair[0]] = swap(&lines[pair[0]], &a, &b);
            edited[pair[1]] = swap(&lines[pair[1]], &b, &a);
            gin_engine::replay(&edited[1..].join("\n")).is_ok().then_some((pair[0], edited))
        })
        .expect("two discards of the AI that may be swapped");
    // In the save, each edited line keeps the digest it had.
    let with_digests: String = good
        .lines()
        .zip(&edited)
        .map(|(line, object)| format!("{}{}\n", &object[..object.len() - 1], &line[line.len() - DIGEST_END..]))
        .collect();
    assert_ne!(with_digests, good);
    std::fs::write(&save, &with_digests).unwrap();
    let refused = Table::open(&["--resume", path]).close();
    assert_eq!(refused.code, Some(1), "{refused:?}");
    let line = first + 1;
    assert!(
        refused.stderr.contains(&format!("line {line} was changed: its digest does not match the lines before it; ")),
        "{}",
        refused.stderr
    );
    assert_eq!(text(&save), with_digests);
    // Saved by version 1 of the format, the same edit is taken for the game.
    let mut old = lines.clone();
    old[0] = r#"{"format":"gin-play","version":1,"ai":"random","human":"one"}"#.to_owned();
    old[1..].clone_from_slice(&edited[1..]);
    std::fs::write(&save, old.join("\n") + "\n").unwrap();
    let taken = Table::open(&["--resume", path]).close();
    assert_eq!(taken.code, Some(0), "{taken:?}");
    assert!(taken.transcript.contains("This save predates digests"), "{}", taken.transcript);
    // The seats swapped on line 1: refused, even with --recover, and left as it is.
    let seats = good.replacen(r#""human":"one""#, r#""human":"two""#, 1);
    std::fs::write(&save, &seats).unwrap();
    let refused = Table::open(&["--resume", path, "--recover"]).close();
    assert_eq!(refused.code, Some(1), "{refused:?}");
    assert!(
        refused.stderr.contains(
            "the save is damaged: line 1 was changed: its digest does not match the lines before it; line 1 says who \
             sits where, so a save damaged there cannot be recovered"
        ),
        "{}",
        refused.stderr
    );
    assert_eq!(text(&save), seats);
    assert!(!PathBuf::from(format!("{path}.damaged")).exists());
    std::fs::remove_file(save).unwrap();
}

#[cfg(unix)]
#[test]
fn a_save_keeps_its_mode_and_one_its_owner_may_not_write_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let save = save_path("mode");
    let path = save.to_str().unwrap();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o7777;
    let chmod = |path: &Path, mode: u32| std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    play_and_quit("5", &save, 4);
    chmod(&save, 0o600);
    let before = text(&save);
    let mut table = Table::open(&["--resume", path]);
    play_on(&mut table, 6);
    table.screen();
    table.send("quit");
    assert_eq!(table.close().code, Some(0));
    assert!(text(&save).len() > before.len(), "the moves are saved");
    assert_eq!(mode(&save), 0o600, "the save stays private");
    // Without its owner's write bit, a save is refused (whoever gin runs as), and left alone.
    chmod(&save, 0o444);
    let before = text(&save);
    for args in [&["--resume", path][..], &["--ai", "random", "--save", path, "--force"]] {
        let refused = Table::open(args).close();
        assert_eq!(refused.code, Some(1), "{args:?}: {refused:?}");
        assert!(
            refused.stderr.contains(&format!(
                "the save file `{path}` is read-only (mode 0444), and gin never replaces a save its owner may not write"
            )),
            "{args:?}: {}",
            refused.stderr
        );
        assert_eq!(text(&save), before, "{args:?}");
        assert_eq!(mode(&save), 0o444, "{args:?}");
    }
    chmod(&save, 0o644);
    std::fs::remove_file(save).unwrap();
}

#[cfg(unix)]
#[test]
fn a_save_through_a_link_is_written_where_the_link_leads() {
    let dir = scratch_dir("links");
    let real = dir.join("real.gin");
    let link = dir.join("link.gin");
    // A dangling link: its target is where the save goes.
    std::os::unix::fs::symlink("real.gin", &link).unwrap();
    let through = format!("Saving through the link {} to {}.", link.display(), real.display());
    let mut table = Table::open(&["--ai", "random", "--seed", "5", "--save", link.to_str().unwrap()]);
    play_on(&mut table, 3);
    table.screen();
    table.send("quit");
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert_eq!(ended.transcript.matches(&through).count(), 1, "{}", ended.transcript);
    let is_link = |path: &Path| std::fs::symlink_metadata(path).unwrap().file_type().is_symlink();
    assert!(is_link(&link));
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.gin"));
    let first = text(&real);
    unsealed(&first);
    // Resumed through the link: the target is written, the link stays a link.
    let mut table = Table::open(&["--resume", link.to_str().unwrap()]);
    play_on(&mut table, 4);
    table.screen();
    table.send("quit");
    let ended = table.close();
    assert_eq!(ended.code, Some(0), "{ended:?}");
    assert_eq!(ended.transcript.matches(&through).count(), 1, "{}", ended.transcript);
    assert!(is_link(&link));
    assert!(text(&real).len() > first.len() && text(&real).starts_with(&first[..first.find('\n').unwrap() - 60]));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "nothing left beside the save and its link");
    // Through two links to one save, one session at a time.
    let other = dir.join("other.gin");
    std::os::unix::fs::symlink(&real, &other).unwrap();
    let mut held = Table::open(&["--resume", link.to_str().unwrap()]);
    held.screen().expect("the first session asks for a move");
    let second = Table::open(&["--resume", other.to_str().unwrap()]).close();
    assert_eq!(second.code, Some(1), "{second:?}");
    assert!(second.stderr.contains("another `gin play` is playing the game saved in"), "{}", second.stderr);
    assert_eq!(held.close().code, Some(0));
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_save_goes_only_to_a_regular_file_even_with_force() {
    let dir = scratch_dir("not-files");
    let fifo = dir.join("fifo.gin");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let null = dir.join("null.gin");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let cases = [
        (&fifo, "it is a FIFO (named pipe)".to_owned()),
        (&null, "it is a link to `/dev/null`, a character device".to_owned()),
        (&dir, "it is a directory".to_owned()),
    ];
    for (path, what) in &cases {
        for force in [false, true] {
            let mut args = vec!["--ai", "random", "--save", path.to_str().unwrap()];
            args.extend(force.then_some("--force"));
            let refused = Table::open(&args).close();
            assert_eq!(refused.code, Some(2), "{args:?}: {refused:?}");
            let message = format!("--save `{}`: {what}, and gin saves only to regular files", path.display());
            assert!(refused.stderr.contains(&message), "{args:?}: {}", refused.stderr);
        }
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(std::fs::read_link(&null).unwrap(), Path::new("/dev/null"));
    std::fs::remove_dir_all(dir).unwrap();
}
