//! `gin analyze`: a hand's best arrangement, its deadwood, its best discards, and whether it can
//! knock or is gin.

use std::io::{self, BufRead, BufWriter, IsTerminal, Write};

use anyhow::Context;
use clap::Args;
use gin_cards::{Card, CardSet, Rank};
use gin_rules::{Arrangement, BestDiscards, KnockLimit, Meld, Ruleset, Solver};
use gin_tui::render::{Look, plural};
use serde::Serialize;

use crate::rules_arg::{RulesArg, RulesSource};
use crate::status::{Failure, Outcome};

/// The longest line `gin analyze` reads as a hand: 64 KiB (a hand is about 30 bytes).
const MAX_HAND_LINE: usize = 64 << 10;

/// The hand sizes `analyze` takes: 10 cards, or 11 just after drawing.
const HAND_SIZES: [usize; 2] = [10, 11];

/// The widest label of the text block, plus two spaces.
const LABEL_WIDTH: usize = "best discards  ".len();

/// `gin help analyze`: what the command answers and how.
pub(crate) const LONG_ABOUT: &str = "\
Show a hand's best melds, its deadwood, and whether it can knock or is gin.

Cards are a rank and a suit: ranks A 2 3 4 5 6 7 8 9 T J Q K (10 also means T), suits S H D C \
or ♠ ♥ ♦ ♣, in any case: `TS`, `ts`, `10s` and `T♠` are all the ten of spades. Separate cards \
with spaces or commas.

A hand has 10 cards, or 11 just after drawing. With 10 cards, `can knock` means the deadwood \
is within the knock limit, and `gin` that it is 0. With 11 cards, the melds, the unmelded cards \
and the deadwood are those of all 11 cards; the best discards are the cards whose discard leaves \
the least deadwood, and `can knock` and `gin` speak of the hand after such a discard (11 cards \
all melded, big gin, counts as gin too).

When the knock limit is the upcard's value (--rules oklahoma), give the upcard with --upcard. \
Without it, `can knock` is answered only where the upcard cannot change the answer (gin, or \
deadwood over 10); otherwise the text says which upcards allow a knock and the JSON has \
\"can_knock\": null. The upcard is ignored under a fixed knock limit.

With no hand, or `-`, hands are read from standard input, one per line; blank lines and lines \
starting with `#` are skipped. A line that is not a hand is reported with its line number \
and the rest are still answered: in text, on standard error as `error: line N: ...`; in JSON, \
in place of its answer on standard output as {\"line\": N, \"error\": \"...\"}, so that the \
answers stay in the order of the hands.

JSON (--json): one object per hand per line, with the fields `hand`, `deadwood`, `melds`, \
`unmelded`, `can_knock`, `gin`, and for 11 cards `deadwood_after_discard` and \
`best_discards`. Cards are strings such as \"TS\", melds arrays of them.

Exit status: 0 when every hand was answered, 1 when some hand could not be read, 2 for a bad \
option (an unknown preset or unreadable rules file, a bad --upcard).";

/// The examples after `gin analyze --help`.
pub(crate) const AFTER_HELP: &str = "\
Examples:
  gin analyze \"AS 2S 3S 7H 7D 7C JC QC KC 3H\"
  gin analyze as 2s 3s 7h 7d 7c jc qc kc 3h 4s      (11 cards: which discard is best)
  gin analyze --rules oklahoma --upcard 7H \"AS 2S 3S 7H 7D 7C JC QC KC 3H\"
  gin analyze --rules house.json --json - < hands.txt";

/// The arguments of `gin analyze`.
#[derive(Debug, Args)]
pub(crate) struct AnalyzeArgs {
    /// The hand: 10 cards, or 11 after drawing, in one argument or one per card; `-` or nothing
    /// reads one hand per line from standard input.
    #[arg(value_name = "HAND")]
    hand: Vec<String>,

    #[command(flatten)]
    rules: RulesArg,

    /// The hand's first upcard, which sets the knock limit under oklahoma rules (an ace means
    /// gin only); ignored under a fixed knock limit.
    #[arg(long, value_name = "CARD")]
    upcard: Option<Card>,

    /// Print one JSON object per hand per line, for programs.
    #[arg(long)]
    json: bool,

    /// Print cards as `TS` even on a terminal, where the default is `T♠`.
    #[arg(long)]
    ascii: bool,
}

/// Runs `gin analyze`.
pub(crate) fn run(args: &AnalyzeArgs) -> Result<Outcome, Failure> {
    let (ruleset, source) = args.rules.load().map_err(Failure::usage)?;
    let analyzer = Analyzer::new(&ruleset, source, args.upcard, args.json, args.ascii);
    let mut out = BufWriter::new(io::stdout().lock());
    let outcome = match args.hand.as_slice() {
        [] => analyzer.lines(io::stdin().lock(), &mut out)?,
        [dash] if dash == "-" => analyzer.lines(io::stdin().lock(), &mut out)?,
        words => analyzer.argument(&words.join(" "), &mut out)?,
    };
    out.flush().context("cannot write to standard output")?;
    Ok(outcome)
}

/// The knock limit the hands are judged by.
#[derive(Clone, Copy, Debug)]
enum Limit {
    /// Known: fixed by the rules, or read from the upcard given.
    Known {
        limit: u32,
        /// The upcard it was read from, if any.
        upcard: Option<Card>,
    },
    /// The limit is the upcard's value and no upcard was given.
    Upcard,
}

/// What `analyze` needs to answer hands: the rules, the limit and how to print.
struct Analyzer {
    rules: Ruleset,
    solver: Solver,
    limit: Limit,
    source: RulesSource,
    json: bool,
    style: Look,
}

/// The answer for one hand.
struct Analysis {
    hand: CardSet,
    /// The best arrangement of all the cards held.
    arrangement: Arrangement,
    /// For 11 cards, the best discards.
    discards: Option<BestDiscards>,
}

/// One line of `--json` output for a hand; the fields are the documented format.
#[derive(Serialize)]
struct Report<'a> {
    hand: CardSet,
    deadwood: u32,
    melds: &'a [Meld],
    unmelded: CardSet,
    can_knock: Option<bool>,
    gin: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadwood_after_discard: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_discards: Option<CardSet>,
}

/// One line of `--json` output for an input line that is not a hand.
#[derive(Serialize)]
struct LineError<'a> {
    line: u64,
    error: &'a str,
}

impl Analysis {
    /// The deadwood that decides knocking and gin: of the 10 cards, or of the 11 after the best
    /// discard.
    fn knock_deadwood(&self) -> u32 {
        self.discards.map_or(self.arrangement.deadwood(), |best| best.deadwood)
    }

    fn is_gin(&self) -> bool {
        self.knock_deadwood() == 0
    }
}

impl Analyzer {
    fn new(ruleset: &Ruleset, source: RulesSource, upcard: Option<Card>, json: bool, ascii: bool) -> Analyzer {
        let limit = match (ruleset.knock_limit, upcard) {
            (KnockLimit::Fixed(limit), _) => Limit::Known { limit, upcard: None },
            (KnockLimit::Upcard, Some(upcard)) => {
                Limit::Known { limit: ruleset.knock_limit_for(upcard), upcard: Some(upcard) }
            }
            (KnockLimit::Upcard, None) => Limit::Upcard,
        };
        Analyzer {
            rules: ruleset.clone(),
            solver: ruleset.solver(),
            limit,
            source,
            json,
            style: Look::for_stdout(ascii),
        }
    }

    fn analyze(&self, hand: CardSet) -> Analysis {
        Analysis {
            hand,
            arrangement: self.solver.best_arrangement(hand),
            discards: (hand.len() == 11).then(|| self.solver.best_discards(hand)),
        }
    }

    /// Whether the hand can knock; `None` when that depends on an upcard not given.
    fn can_knock(&self, analysis: &Analysis) -> Option<bool> {
        let deadwood = analysis.knock_deadwood();
        match self.limit {
            Limit::Known { limit, .. } => Some(deadwood <= limit),
            // An ace, the lowest upcard, allows it: any upcard does.
            Limit::Upcard => match Ruleset::lowest_upcard_for(deadwood) {
                Some(Rank::Ace) => Some(true),
                Some(_) => None,
                None => Some(false),
            },
        }
    }

    /// Answers the hand given on the command line.
    fn argument(&self, text: &str, out: &mut impl Write) -> Result<Outcome, Failure> {
        let hand = CardSet::parse_hand(text, &HAND_SIZES).context("invalid hand")?;
        self.write(out, &self.analyze(hand), None).context("cannot write to standard output")?;
        Ok(Outcome::Success)
    }

    /// Answers one hand per line of `input`.
    fn lines(&self, mut input: impl BufRead, out: &mut impl Write) -> Result<Outcome, Failure> {
        if io::stdin().is_terminal() {
            eprintln!("reading hands from standard input, one per line; end with Ctrl-D");
        }
        let mut buffer = Vec::with_capacity(128);
        let mut line = 0;
        let mut answered: u64 = 0;
        let mut bad: u64 = 0;
        loop {
            let read = gin_protocol::line::read_line(&mut input, &mut buffer, MAX_HAND_LINE)
                .context("cannot read standard input")?;
            line += 1;
            let result = match (read, std::str::from_utf8(&buffer)) {
                (gin_protocol::line::Line::End, _) => break,
                (gin_protocol::line::Line::TooLong, _) => {
                    gin_protocol::line::skip_line(&mut input).context("cannot read standard input")?;
                    Err(format!("longer than {}: not a hand", gin_arena::size(MAX_HAND_LINE as u64)))
                }
                (gin_protocol::line::Line::Read, Ok(text)) => {
                    let text = text.trim_start_matches('\u{feff}').trim();
                    if text.is_empty() || text.starts_with('#') {
                        continue;
                    }
                    CardSet::parse_hand(text, &HAND_SIZES).map_err(|err| err.to_string())
                }
                (gin_protocol::line::Line::Read, Err(_)) => Err("not valid UTF-8 text".to_owned()),
            };
            match result {
                Ok(hand) => {
                    if answered > 0 && !self.json {
                        writeln!(out).context("cannot write to standard output")?;
                    }
                    answered += 1;
                    self.write(out, &self.analyze(hand), Some(line)).context("cannot write to standard output")?;
                }
                Err(message) => {
                    bad += 1;
                    self.write_error(out, line, &message).context("cannot write to standard output")?;
                }
            }
        }
        if bad == 0 {
            return Ok(Outcome::Success);
        }
        out.flush().context("cannot write to standard output")?;
        eprintln!(
            "error: {} could not be read as {} ({} answered)",
            plural(bad, "line"),
            if bad == 1 { "a hand" } else { "hands" },
            plural(answered, "hand"),
        );
        Ok(Outcome::BadInput)
    }

    /// Reports a line that is not a hand: in place of its answer in JSON, on stderr in text.
    fn write_error(&self, out: &mut impl Write, line: u64, message: &str) -> io::Result<()> {
        if self.json {
            serde_json::to_writer(&mut *out, &LineError { line, error: message })?;
            return out.write_all(b"\n");
        }
        // Keep the error next to the answers before it on a terminal.
        out.flush()?;
        eprintln!("error: line {line}: {}", gin_tui::render::message(message));
        Ok(())
    }

    fn write(&self, out: &mut impl Write, analysis: &Analysis, line: Option<u64>) -> io::Result<()> {
        if self.json { self.write_json(out, analysis) } else { self.write_text(out, analysis, line) }
    }

    fn write_json(&self, out: &mut impl Write, analysis: &Analysis) -> io::Result<()> {
        let report = Report {
            hand: analysis.hand,
            deadwood: analysis.arrangement.deadwood(),
            melds: analysis.arrangement.melds(),
            unmelded: analysis.arrangement.unmelded(),
            can_knock: self.can_knock(analysis),
            gin: analysis.is_gin(),
            deadwood_after_discard: analysis.discards.map(|best| best.deadwood),
            best_discards: analysis.discards.map(|best| best.discards),
        };
        serde_json::to_writer(&mut *out, &report)?;
        out.write_all(b"\n")
    }

    /// The text block of a hand: one labelled line per fact.
    fn write_text(&self, out: &mut impl Write, analysis: &Analysis, line: Option<u64>) -> io::Result<()> {
        const W: usize = LABEL_WIDTH;
        let style = self.style;
        let arrangement = &analysis.arrangement;
        write!(out, "{:W$}{}", "hand", style.cards(analysis.hand))?;
        match (analysis.discards.is_some(), line) {
            (false, None) => writeln!(out)?,
            (false, Some(line)) => writeln!(out, "  (line {line})")?,
            (true, None) => writeln!(out, "  (11 cards)")?,
            (true, Some(line)) => writeln!(out, "  (11 cards, line {line})")?,
        }
        writeln!(out, "{:W$}{}", "melds", style.melds(arrangement.melds()))?;
        writeln!(out, "{:W$}{}", "unmelded", style.cards(arrangement.unmelded()))?;
        write!(out, "{:W$}{}", "deadwood", arrangement.deadwood())?;
        match analysis.discards {
            None => writeln!(out)?,
            Some(best) => {
                writeln!(out, " with all 11 cards")?;
                let (label, each) =
                    if best.discards.len() == 1 { ("best discard", "") } else { ("best discards", "each ") };
                writeln!(out, "{label:W$}{}, {each}leaving deadwood {}", style.cards(best.discards), best.deadwood)?;
            }
        }
        write!(out, "{:W$}", "can knock")?;
        self.write_knock(out, analysis)?;
        write!(out, "\n{:W$}", "gin")?;
        self.write_gin(out, analysis)?;
        writeln!(out)
    }

    fn write_knock(&self, out: &mut impl Write, analysis: &Analysis) -> io::Result<()> {
        let deadwood = analysis.knock_deadwood();
        let after = if analysis.discards.is_some() { " after the discard" } else { "" };
        match self.limit {
            Limit::Known { limit, upcard } => {
                let verdict = if deadwood <= limit { "yes" } else { "no" };
                write!(out, "{verdict}: deadwood {deadwood}{after}, limit {limit}")?;
                if let Some(upcard) = upcard {
                    write!(out, " from the upcard {}", self.style.card(upcard))?;
                }
                if limit == 0 {
                    write!(out, " (gin only)")?;
                }
                Ok(())
            }
            Limit::Upcard => match Ruleset::lowest_upcard_for(deadwood) {
                Some(Rank::Ace) => write!(out, "yes: gin{after}, whatever the upcard"),
                Some(lowest) => write!(
                    out,
                    "depends on the upcard: deadwood {deadwood}{after} needs {lowest} or higher ({}; give \
                     --upcard)",
                    self.source
                ),
                None => write!(out, "no: deadwood {deadwood}{after}, more than any upcard allows"),
            },
        }
    }

    fn write_gin(&self, out: &mut impl Write, analysis: &Analysis) -> io::Result<()> {
        let Some(best) = analysis.discards else {
            return out.write_all(if analysis.is_gin() { b"yes" } else { b"no" });
        };
        let discards = OneOf(self.style, best.discards);
        match self.rules.big_gin_bonus {
            Some(bonus) if self.rules.is_big_gin(analysis.hand) => {
                write!(out, "yes: big gin, all 11 cards melded (bonus {bonus})")
            }
            // All 11 cards meld, and big gin is off.
            _ if analysis.arrangement.deadwood() == 0 => {
                write!(out, "yes: all 11 cards meld; big gin is off, so discard {discards} and keep gin")
            }
            _ if best.deadwood == 0 => write!(out, "yes: discard {discards}"),
            _ => out.write_all(b"no"),
        }
    }
}

/// Cards as alternatives: `AS`, `AS or 4S`, `AS, 4S or 9H`.
struct OneOf(Look, CardSet);

impl std::fmt::Display for OneOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.1.len();
        for (i, card) in self.1.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == count { " or " } else { ", " })?;
            }
            write!(f, "{}", self.0.card(card))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_read_as_a_sentence() {
        let cards = |text: &str| OneOf(Look::PLAIN, text.parse().unwrap()).to_string();
        assert_eq!(cards("3D"), "3D");
        assert_eq!(cards("AS 4S"), "AS or 4S");
        assert_eq!(cards("AS 4S 9H QH"), "AS, 4S, 9H or QH");
    }
}
