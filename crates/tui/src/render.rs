//! How cards look on the terminal (suit symbols or ASCII letters), and how text from outside is
//! shown there.

use std::fmt;
use std::io::{self, IsTerminal};

pub(crate) use gin_cards::untrusted;
use gin_cards::{Card, CardSet};
use gin_rules::Meld;

/// Whether cards are printed with suit symbols (`T♠`) or in ASCII (`TS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `TS`: the project's notation, safe for pipes and files.
    Ascii,
    /// `T♠`: for people at a terminal.
    Symbols,
}

impl Style {
    /// Symbols when standard output is a terminal, unless `ascii` forces ASCII.
    pub fn for_stdout(ascii: bool) -> Style {
        if !ascii && io::stdout().is_terminal() { Style::Symbols } else { Style::Ascii }
    }

    /// A card in this style.
    pub fn card(self, card: Card) -> impl fmt::Display {
        Styled(self, card)
    }

    /// Cards separated by spaces, or `none`.
    pub fn cards(self, cards: CardSet) -> impl fmt::Display {
        Styled(self, cards)
    }

    /// Melds in brackets, `[AS 2S 3S] [7H 7D 7C]`, or `none`.
    pub fn melds(self, melds: &[Meld]) -> impl fmt::Display + '_ {
        Styled(self, melds)
    }
}

/// A value displayed in a [`Style`].
struct Styled<T>(Style, T);

impl fmt::Display for Styled<Card> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Style::Ascii => write!(f, "{}", self.1),
            Style::Symbols => write!(f, "{:#}", self.1),
        }
    }
}

impl fmt::Display for Styled<CardSet> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1.is_empty() {
            return f.write_str("none");
        }
        match self.0 {
            Style::Ascii => write!(f, "{}", self.1),
            Style::Symbols => write!(f, "{:#}", self.1),
        }
    }
}

impl fmt::Display for Styled<&[Meld]> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1.is_empty() {
            return f.write_str("none");
        }
        for (i, meld) in self.1.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str("[")?;
            for (j, card) in meld.cards_in_order().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", Styled(self.0, card))?;
            }
            f.write_str("]")?;
        }
        Ok(())
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
        assert_eq!(Style::Ascii.cards(hand).to_string(), "TS 7H");
        assert_eq!(Style::Symbols.cards(hand).to_string(), "T♠ 7♥");
        assert_eq!(Style::Ascii.cards(CardSet::EMPTY).to_string(), "none");
        assert_eq!(Style::Symbols.card("QD".parse().unwrap()).to_string(), "Q♦");
    }

    #[test]
    fn melds_are_bracketed_and_runs_keep_a_high_ace_last() {
        let melds = [Meld::new(set("QS KS AS"), true).unwrap(), Meld::new(set("7S 7H 7D"), true).unwrap()];
        assert_eq!(Style::Ascii.melds(&melds).to_string(), "[QS KS AS] [7S 7H 7D]");
        assert_eq!(Style::Symbols.melds(&melds).to_string(), "[Q♠ K♠ A♠] [7♠ 7♥ 7♦]");
        assert_eq!(Style::Ascii.melds(&[]).to_string(), "none");
        let low = Solver::new(true).best_arrangement(set("AS 2S 3S"));
        assert_eq!(Style::Ascii.melds(low.melds()).to_string(), "[AS 2S 3S]");
    }
}
