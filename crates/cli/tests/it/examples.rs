//! Every example command the help and the documentation show is run, so that none names an
//! option, a setting or a file that does not exist.
//!
//! Examples come from the `Examples:` section of each command's `--help` and from the command
//! lines of the code blocks of README.md and docs/*.md (`cargo run --release --` standing for
//! `gin`); each is run as written, with its placeholders and files filled in (FILE, a save, a
//! rules file, a list of hands) and `gin sim` and `gin league` cut to 2 games, with `mc` at 64
//! futures a decision. The commands named in `backticks` in the same texts are checked too: each
//! `--option` they name must be one their command has, each agent spec (`expert:danger_weight=2`)
//! must be accepted, and those without placeholders are run like the examples.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The workspace: README.md and docs/ are read from there.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One piece of a command line, as a shell splits it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Word(String),
    /// `|`, `<`, `>` or `>>`.
    Operator(&'static str),
}

/// Splits `line` as a shell would: single and double quotes, `#` comments, pipes and redirections.
fn shell_split(line: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => pieces.extend(word.take().map(Piece::Word)),
            '#' if word.is_none() => break,
            '\'' => {
                let text = word.get_or_insert_with(String::new);
                text.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let text = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if chars.peek().is_some_and(|next| "\"\\$`".contains(*next)) => {
                            text.extend(chars.next());
                        }
                        c => text.push(c),
                    }
                }
            }
            '|' | '<' | '>' => {
                pieces.extend(word.take().map(Piece::Word));
                let operator = match c {
                    '|' => "|",
                    '<' => "<",
                    _ if chars.peek() == Some(&'>') => {
                        chars.next();
                        ">>"
                    }
                    _ => ">",
                };
                pieces.push(Piece::Operator(operator));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    pieces.extend(word.map(Piece::Word));
    pieces
}

/// Where standard input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Input {
    Nothing,
    /// `echo TEXT | gin ...`.
    Text(String),
    /// `gin ... < FILE`.
    File(String),
}

/// A `gin` command found in a text.
#[derive(Clone, Debug)]
struct Example {
    /// Where it was found, for the failure message.
    origin: String,
    /// The line as written.
    text: String,
    /// The arguments after `gin`.
    args: Vec<String>,
    input: Input,
}

/// The `gin` command of a command line (`$ ` prompt, `cargo run --release --` for `gin`, an
/// `echo` piped in, redirections), if it has one.
fn parse_command(origin: &str, line: &str) -> Option<Example> {
    let line = line.trim();
    let line = line.strip_prefix("$ ").unwrap_or(line);
    let pieces = shell_split(line);
    let segments: Vec<&[Piece]> = pieces.split(|piece| *piece == Piece::Operator("|")).collect();
    let words = |segment: &[Piece]| -> Vec<String> {
        segment
            .iter()
            .map_while(|piece| match piece {
                Piece::Word(word) => Some(word.clone()),
                Piece::Operator(_) => None,
            })
            .collect()
    };
    for (at, segment) in segments.iter().enumerate() {
        let all = words(segment);
        let args = match all.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["gin", ..] => all[1..].to_vec(),
            ["cargo", "run", "--release", "--", ..] => all[4..].to_vec(),
            ["cargo", "run", "--", ..] => all[3..].to_vec(),
            _ => continue,
        };
        let mut input = Input::Nothing;
        if at > 0 {
            let before = words(segments[at - 1]);
            if before.first().map(String::as_str) == Some("echo") {
                input = Input::Text(format!("{}\n", before[1..].join(" ")));
            }
        }
        let redirected = segment.iter().position(|piece| *piece == Piece::Operator("<"));
        if let Some(Piece::Word(file)) = redirected.and_then(|at| segment.get(at + 1)) {
            input = Input::File(file.clone());
        }
        return Some(Example { origin: origin.to_owned(), text: line.to_owned(), args, input });
    }
    None
}

/// Whether a word stands for something to fill in: FILE, NAME, `<command>`, `[--param FILE]`, `...`.
fn is_placeholder(word: &str) -> bool {
    let capitals = word.len() >= 3 && word.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    capitals || word.contains("...") || word.contains('…') || word.starts_with('<') || word.starts_with('[')
}

/// The texts of the `backticks` of `text` that are `gin` commands.
fn mentions(origin: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    for line in text.lines() {
        for (index, span) in line.split('`').enumerate() {
            if index % 2 == 1 && span.starts_with("gin ") {
                found.extend(parse_command(origin, span));
            }
        }
    }
    found
}

/// The examples of a `--help` text: the lines of its `Examples:` section, each without the
/// comment after it (`gin play --resume   (the newest unfinished game)`).
fn help_examples(origin: &str, help: &str) -> Vec<Example> {
    let Some(at) = help.find("\nExamples:\n") else { return Vec::new() };
    help[at + "\nExamples:\n".len()..]
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .filter(|line| line.trim_start().starts_with("gin "))
        .filter_map(|line| {
            let command = line.find("  (").map_or(line, |cut| &line[..cut]);
            parse_command(origin, command)
        })
        .collect()
}

/// The command lines of the fenced code blocks of a Markdown file: in a block that shows a
/// session (some lines start with a `$ ` prompt), the prompted lines; in others, every line.
fn code_block_examples(origin: &str, markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    let mut inside = false;
    for (number, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            if inside {
                let session = block.iter().any(|(_, line)| line.trim_start().starts_with("$ "));
                for (number, line) in block.drain(..) {
                    if !session || line.trim_start().starts_with("$ ") {
                        found.extend(parse_command(&format!("{origin}:{}", number + 1), line));
                    }
                }
            }
            inside = !inside;
        } else if inside {
            block.push((number, line));
        }
    }
    found
}

/// What one run of `gin` did.
#[derive(Debug)]
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `gin` in its own folder, with its own state folder and itself first on the PATH (for
/// `cmd:gin bot ...`).
struct Sandbox {
    dir: PathBuf,
    /// A game saved by `gin play --save`, not finished: what FILE and `*.gin` stand for.
    save: PathBuf,
    /// The long options of each command (`""` for gin itself), read from its `--help`.
    options: BTreeMap<String, Vec<String>>,
    /// How many `--save FILE` examples were run: each gets a file of its own.
    saves: AtomicUsize,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("examples-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home")).unwrap();
        std::fs::write(dir.join("house.json"), r#"{"preset": "pagat", "knock_limit": 7}"#).unwrap();
        std::fs::write(dir.join("tuned.json"), r#"{"danger_weight": 3, "mc": {"samples": 100}}"#).unwrap();
        std::fs::write(dir.join("hands.txt"), "AS 2S 3S 7H 7D 7C JC QC KC 3H\nAS 2S 4S 2H 4H AD 2D 3D 4D AC 2C\n")
            .unwrap();
        let mut sandbox =
            Sandbox { save: dir.join("save.gin"), dir, options: BTreeMap::new(), saves: AtomicUsize::new(0) };
        // A save to name as FILE, and an unfinished game in the state folder for `--resume`.
        let save = sandbox.save.display().to_string();
        for args in [&["play", "--seed", "5", "--ai", "random", "--save", &save][..], &["play", "--seed", "6"]] {
            let run = sandbox.run(args, &Input::Text("quit\n".to_owned()));
            assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        }
        let top = sandbox.run(&["--help"], &Input::Nothing).stdout;
        sandbox.options.insert(String::new(), long_options(&top));
        for command in commands(&top) {
            let help = sandbox.run(&[&command, "--help"], &Input::Nothing).stdout;
            sandbox.options.insert(command, long_options(&help));
        }
        sandbox
    }

    fn run(&self, args: &[&str], input: &Input) -> Outcome {
        let exe = PathBuf::from(env!("CARGO_BIN_EXE_gin"));
        let mut path = vec![exe.parent().unwrap().to_owned()];
        path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        let mut child = Command::new(&exe)
            .args(args)
            .current_dir(&self.dir)
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("HOME", self.dir.join("home"))
            .env("XDG_STATE_HOME", self.dir.join("state"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gin binary runs");
        let bytes = match input {
            Input::Nothing => Vec::new(),
            Input::Text(text) => text.clone().into_bytes(),
            Input::File(file) => std::fs::read(self.dir.join(file)).unwrap_or_default(),
        };
        let mut stdin = child.stdin.take().unwrap();
        // A command that reads nothing may be gone already.
        let _ = stdin.write_all(&bytes);
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        Outcome {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// What is wrong with `example`, if anything: an option its command does not have, or, when
    /// it can be run (`run`, and every placeholder can be filled in), a failure.
    fn check(&self, example: &Example, run: bool) -> Option<String> {
        let wrong = |why: String| Some(format!("{}: `{}`: {why}", example.origin, example.text));
        let command = example.args.iter().find(|arg| !arg.starts_with('-')).cloned().unwrap_or_default();
        if command == "help" {
            return None;
        }
        let Some(options) = self.options.get(&command) else {
            return wrong(format!("gin has no command `{command}`"));
        };
        // `--a/--b`, `[--param`, `--rules=FILE`.
        let named = example.args.iter().flat_map(|arg| arg.split('/')).map(|arg| arg.trim_start_matches('['));
        for option in named.filter(|arg| arg.starts_with("--") && arg.len() > 2) {
            let option = option.split(['=', ']']).next().unwrap_or(option);
            if !options.iter().any(|known| known == option) {
                return wrong(format!("gin {command} has no option {option}"));
            }
        }
        // Commands inside an agent spec: `cmd:gin bot --agent simple`.
        for inner in example.args.iter().filter_map(|arg| arg.strip_prefix("cmd:")) {
            if let Some(problem) = parse_command(&example.origin, inner).and_then(|inner| self.check(&inner, false)) {
                return Some(problem);
            }
        }
        if !run {
            return None;
        }
        // An example with a placeholder that cannot be filled in is checked for its options only.
        let args = self.filled_in(&example.args)?;
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let outcome = self.run(&args, &example.input);
        if outcome.code != Some(0) {
            return wrong(format!("exit status {:?}, run as {args:?}: {}", outcome.code, outcome.stderr.trim_end()));
        }
        None
    }

    /// `args` with their placeholders and files filled in and `gin sim` and `gin league` cut to 2
    /// games with a cheap `mc`, or `None` when some placeholder cannot be filled in.
    fn filled_in(&self, args: &[String]) -> Option<Vec<String>> {
        let mut filled: Vec<String> = Vec::new();
        for arg in args {
            let after = filled.last().map(String::as_str);
            let value = match (after, arg.as_str()) {
                (Some("--rules"), "FILE") => "house.json".to_owned(),
                (Some("--param"), "FILE") => "tuned.json".to_owned(),
                (Some("--save"), _) => {
                    let number = self.saves.fetch_add(1, Ordering::Relaxed);
                    self.dir.join(format!("saved-{number}.gin")).display().to_string()
                }
                (Some("--games"), _) => "2".to_owned(),
                (_, "FILE") => self.save.display().to_string(),
                (_, arg) if arg.ends_with(".gin") => self.save.display().to_string(),
                (_, arg) if is_placeholder(arg) => return None,
                // docs/examples/random_agent.py and fixtures/..., named from the source tree.
                (_, arg) => arg
                    .split(' ')
                    .map(|word| match ["docs/", "fixtures/"].iter().find(|folder| word.starts_with(**folder)) {
                        Some(_) => workspace().join(word).display().to_string(),
                        None => word.to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            filled.push(value);
        }
        let plays_matches = matches!(filled.first().map(String::as_str), Some("sim" | "league"));
        if plays_matches {
            if !filled.iter().any(|arg| arg == "--games") {
                filled.extend(["--games".to_owned(), "2".to_owned()]);
            }
            filled = filled.iter().map(|arg| cheap_search(arg)).collect();
        }
        Some(filled)
    }

    /// Checks that an agent spec named in a text (`expert:danger_weight=2`) is accepted.
    fn check_spec(&self, origin: &str, spec: &str) -> Option<String> {
        let spec = cheap_search(spec);
        let outcome =
            self.run(&["sim", "--a", &spec, "--b", "random", "--games", "2", "--threads", "1"], &Input::Nothing);
        (outcome.code != Some(0)).then(|| format!("{origin}: agent spec `{spec}`: {}", outcome.stderr.trim_end()))
    }

    /// Runs the examples and checks the mentions and agent specs of `text`.
    fn check_text(&self, origin: &str, text: &str, examples: &[Example]) -> Vec<String> {
        let mut problems: Vec<String> = examples.iter().filter_map(|example| self.check(example, true)).collect();
        for mention in mentions(origin, text) {
            // `gin sim`, `gin play --ai`, `gin sim --a/--b`: a command's or an option's name in a
            // sentence, not an example of its use.
            let naming = mention.args.len() < 2
                || mention.args.last().is_some_and(|arg| arg.starts_with("--"))
                || mention.args.iter().any(|arg| is_placeholder(arg) || arg.starts_with("--") && arg.contains('/'));
            problems.extend(self.check(&mention, !naming));
        }
        for spec in agent_specs(text) {
            problems.extend(self.check_spec(origin, &spec));
        }
        problems
    }
}

/// The futures of the `mc` level cut to 64 per decision, unless the spec sets them: in a debug
/// build its 2,000 futures at every discard make a 2-game match take seconds.
fn cheap_search(arg: &str) -> String {
    let sets_futures = |settings: &str| {
        settings.split(',').any(|setting| setting.starts_with("samples=") || setting.starts_with("ms="))
    };
    match arg.split_once(':') {
        None if arg == "mc" => "mc:samples=64".to_owned(),
        Some(("mc", settings)) if !sets_futures(settings) => format!("{arg},samples=64"),
        _ => arg.to_owned(),
    }
}

/// The long options listed in a `--help` text: `--ai`, `--resume`, `--help`.
fn long_options(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-'))
        .flat_map(|line| line.split([' ', ',']))
        .filter(|word| word.starts_with("--"))
        .map(str::to_owned)
        .collect()
}

/// The commands listed by `gin --help`, but `help`.
fn commands(help: &str) -> Vec<String> {
    let at = help.find("\nCommands:\n").expect("gin --help lists its commands");
    help[at + "\nCommands:\n".len()..]
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The agent specs with settings anywhere in `text`: `expert:danger_weight=2`,
/// `mc:samples=500,threads=2` (not `expert:NAME=VALUE` or `expert:key=value,...`).
fn agent_specs(text: &str) -> Vec<String> {
    const AGENTS: [&str; 8] = ["random", "greedy", "simple", "taker", "holder", "expert", "mc-fast", "mc"];
    let mut specs = Vec::new();
    for word in text.split_whitespace().filter(|word| !word.contains("...")) {
        let word = word.trim_matches(|c: char| "`'\"(),.;".contains(c));
        let Some((name, settings)) = word.split_once(':') else { continue };
        let setting = |text: &str| {
            text.split_once('=').is_some_and(|(key, value)| {
                !key.is_empty()
                    && key != "key"
                    && key.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    && !value.is_empty()
                    && !is_placeholder(value)
            })
        };
        if AGENTS.contains(&name) && settings.split(',').all(setting) && !specs.iter().any(|spec| spec == word) {
            specs.push(word.to_owned());
        }
    }
    specs
}

#[test]
fn the_shell_splitter_reads_quotes_comments_pipes_and_redirections() {
    let words = |line: &str| shell_split(line);
    assert_eq!(
        words(r#"gin analyze "AS 2S" 'cmd:gin bot' # best"#),
        [
            Piece::Word("gin".into()),
            Piece::Word("analyze".into()),
            Piece::Word("AS 2S".into()),
            Piece::Word("cmd:gin bot".into())
        ]
    );
    let example = parse_command("x", r#"$ echo "AS 2S" | cargo run --release -- analyze --json"#).unwrap();
    assert_eq!(example.args, ["analyze", "--json"]);
    assert_eq!(example.input, Input::Text("AS 2S\n".into()));
    let example = parse_command("x", "gin analyze --json - < hands.txt").unwrap();
    assert_eq!(example.args, ["analyze", "--json", "-"]);
    assert_eq!(example.input, Input::File("hands.txt".into()));
    let example = parse_command("x", "gin completions powershell >> $PROFILE").unwrap();
    assert_eq!(example.args, ["completions", "powershell"]);
    assert_eq!(parse_command("x", "gin man | man -l -").unwrap().args, ["man"]);
    assert!(parse_command("x", "cargo test --workspace").is_none());
    assert_eq!(
        agent_specs(
            "as `expert:danger_weight=2` or (mc:samples=500,threads=2), not expert:NAME=VALUE or mc:key=value,..."
        ),
        ["expert:danger_weight=2", "mc:samples=500,threads=2"]
    );
    assert_eq!(
        ["mc", "mc:margin=0", "mc:threads=2,samples=500", "mc:ms=5", "mc-fast", "cmd:gin bot --agent mc"]
            .map(cheap_search),
        [
            "mc:samples=64",
            "mc:margin=0,samples=64",
            "mc:threads=2,samples=500",
            "mc:ms=5",
            "mc-fast",
            "cmd:gin bot --agent mc"
        ]
    );
    assert_eq!(
        help_examples("x", "Usage\n\nExamples:\n  gin play --resume     (the newest)\n  gin saves\n\nMore\n  gin sim")
            .iter()
            .map(|example| example.args.join(" "))
            .collect::<Vec<_>>(),
        ["play --resume", "saves"]
    );
}

#[test]
fn every_example_in_the_help_runs() {
    let sandbox = Sandbox::new("help");
    let mut problems = Vec::new();
    let mut count = 0;
    let commands: Vec<String> = sandbox.options.keys().cloned().collect();
    for command in commands {
        let mut args: Vec<&str> = Vec::new();
        if !command.is_empty() {
            args.push(&command);
        }
        args.push("--help");
        let origin = format!("gin {}", args.join(" "));
        let help = sandbox.run(&args, &Input::Nothing).stdout;
        let examples = help_examples(&origin, &help);
        assert!(!examples.is_empty() || command == "saves", "{origin} shows no examples:\n{help}");
        count += examples.len();
        problems.extend(sandbox.check_text(&origin, &help, &examples));
    }
    assert!(count >= 25, "only {count} examples found");
    assert!(problems.is_empty(), "{} examples fail:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_example_in_the_readme_and_the_docs_runs() {
    let sandbox = Sandbox::new("docs");
    let mut files = vec![workspace().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(workspace().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut problems = Vec::new();
    let mut count = 0;
    for file in files {
        let origin = file.strip_prefix(workspace()).unwrap_or(&file).display().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let examples = code_block_examples(&origin, &text);
        count += examples.len();
        problems.extend(sandbox.check_text(&origin, &text, &examples));
    }
    assert!(count >= 8, "only {count} examples found in code blocks");
    assert!(problems.is_empty(), "{} examples fail:\n{}", problems.len(), problems.join("\n"));
}
