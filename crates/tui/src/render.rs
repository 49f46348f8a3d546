//! How cards look on the terminal (suit symbols or ASCII letters, colour or none), how counts
//! are said, and how text from outside is shown there.

use std::io::{self, IsTerminal};

use gin_cards::Card;
pub(crate) use gin_cards::untrusted;
use gin_rules::Meld;

/// How cards look on the terminal: suit symbols or letters, red hearts and diamonds or no
/// colour. The line mode, the table's texts, `gin replay` and `gin analyze` all show cards so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// `7♥` rather than `7H`.
    pub symbols: bool,
    /// ANSI colours (red suits, bold headings).
    pub color: bool,
}

impl Look {
    /// Letters, no colour (`TS`): the project's notation, safe for pipes, files and tests.
    pub const PLAIN: Look = Look { symbols: false, color: false };

    /// Suit symbols, no colour (`T♠`).
    pub const SYMBOLS: Look = Look { symbols: true, color: false };

    /// Symbols when standard output is a terminal, unless `ascii` forces letters; no colour.
    pub fn for_stdout(ascii: bool) -> Look {
        if !ascii && io::stdout().is_terminal() { Look::SYMBOLS } else { Look::PLAIN }
    }

    /// A card: `7H`, `7♥`, in red where colour is on and the suit is red.
    pub fn card(self, card: Card) -> String {
        let text = if self.symbols { format!("{card:#}") } else { card.to_string() };
        if self.color && card.suit().is_red() { format!("\x1b[31m{text}\x1b[0m") } else { text }
    }

    /// Cards separated by spaces, or `none`.
    pub fn cards(self, cards: impl IntoIterator<Item = Card>) -> String {
        let texts: Vec<String> = cards.into_iter().map(|card| self.card(card)).collect();
        if texts.is_empty() { "none".to_owned() } else { texts.join(" ") }
    }

    /// Melds in brackets, `[AS 2S 3S] [7H 7D 7C]` (a run in play order, a high ace last), or
    /// `none`.
    pub fn melds(self, melds: &[Meld]) -> String {
        if melds.is_empty() {
            return "none".to_owned();
        }
        let texts: Vec<String> = melds.iter().map(|meld| format!("[{}]", self.cards(meld.cards_in_order()))).collect();
        texts.join(" ")
    }

    /// A heading, in bold where colour is on.
    pub fn bold(self, text: &str) -> String {
        if self.color { format!("\x1b[1m{text}\x1b[0m") } else { text.to_owned() }
    }
}

/// `1 card`, `2 cards`: a count and its noun, plural unless the count is one.
pub fn plural(count: u64, noun: &str) -> String {
    format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
}

/// The longest line of a message gin prints on standard error, in characters: what a message
/// quotes is cut far shorter where it is quoted; this is the last guard.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// A message for standard error (an error, a note) that may quote what a file or a program
/// sent: every control character but the line break escaped (`\u{1b}`), and each line at most
/// [`MAX_MESSAGE_CHARS`] characters.
pub fn message(text: &str) -> String {
    text.split('\n').map(|line| untrusted(line, MAX_MESSAGE_CHARS)).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_cards::CardSet;
    use gin_rules::Solver;

    fn set(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn messages_are_escaped_and_cut_line_by_line() {
        assert_eq!(message("bad `\u{1b}[2J`\nnext\u{7}"), "bad `\\u{1b}[2J`\nnext\\u{7}");
        let long = message(&format!("{}\nshort", "x".repeat(5000)));
        let lines: Vec<&str> = long.lines().collect();
        assert_eq!(lines[0].chars().count(), MAX_MESSAGE_CHARS + 1);
        assert_eq!(lines[1], "short");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(
            (plural(0, "card"), plural(1, "card"), plural(2, "point")),
            ("0 cards".into(), "1 card".into(), "2 points".into())
        );
    }

    #[test]
    fn cards_in_both_styles() {
        let hand = set("TS 7h");
        assert_eq!(Look::PLAIN.cards(hand), "TS 7H");
        assert_eq!(Look::SYMBOLS.cards(hand), "T♠ 7♥");
        assert_eq!(Look::PLAIN.cards(CardSet::EMPTY), "none");
        assert_eq!(Look::SYMBOLS.card("QD".parse().unwrap()), "Q♦");
    }

    #[test]
    fn melds_are_bracketed_and_runs_keep_a_high_ace_last() {
        let melds = [Meld::new(set("QS KS AS"), true).unwrap(), Meld::new(set("7S 7H 7D"), true).unwrap()];
        assert_eq!(Look::PLAIN.melds(&melds), "[QS KS AS] [7S 7H 7D]");
        assert_eq!(Look::SYMBOLS.melds(&melds), "[Q♠ K♠ A♠] [7♠ 7♥ 7♦]");
        assert_eq!(Look::PLAIN.melds(&[]), "none");
        let low = Solver::new(true).best_arrangement(set("AS 2S 3S"));
        assert_eq!(Look::PLAIN.melds(low.melds()), "[AS 2S 3S]");
    }
}
