//! What a player types at `gin play`: commands and cards, read exactly. Nothing here guesses: a
//! line that is not one command is refused with a message saying why.

use gin_cards::Card;

/// A card as typed: by name (`7h`, `7H`, `7♥`, `10h`) or by its position in the shown hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CardRef {
    /// A card by name.
    Card(Card),
    /// A position in the shown hand, from 1.
    Position(usize),
}

/// One line of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    /// An empty line.
    Nothing,
    /// `t`, `take`: take the first upcard.
    Take,
    /// `p`, `pass`: refuse the first upcard.
    Pass,
    /// `s`, `stock`: draw from the stock.
    Stock,
    /// `d`, `pile`: draw from the discard pile.
    Pile,
    /// A card alone, or `discard CARD`.
    Discard(CardRef),
    /// `k CARD`, `knock CARD`, `gin CARD`.
    Knock(CardRef),
    /// `k` or `knock` with no card.
    KnockWithoutCard,
    /// `big`, `big gin`.
    BigGin,
    /// `hint`.
    Hint,
    /// `help`, `?`.
    Help,
    /// `save`.
    Save,
    /// `quit`, `q`, `exit`.
    Quit,
}

/// Reads one line.
///
/// # Errors
/// A message for the player: what was not understood and what to type instead.
pub(super) fn parse(line: &str) -> Result<Command, String> {
    let text = line.trim().to_lowercase();
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let command = match words.as_slice() {
        [] => Command::Nothing,
        ["t" | "take"] => Command::Take,
        ["p" | "pass"] => Command::Pass,
        ["s" | "stock"] => Command::Stock,
        ["d" | "pile"] | ["discard", "pile"] => Command::Pile,
        ["hint"] => Command::Hint,
        ["help" | "?" | "h"] => Command::Help,
        ["save"] => Command::Save,
        ["quit" | "q" | "exit"] => Command::Quit,
        ["big"] | ["big", "gin"] | ["biggin"] => Command::BigGin,
        ["k" | "knock" | "gin"] => Command::KnockWithoutCard,
        ["k" | "knock" | "gin", card] => Command::Knock(card_ref(card)?),
        ["discard" | "x", card] => Command::Discard(card_ref(card)?),
        [card] => Command::Discard(card_ref(card).map_err(|err| format!("{err} Type help for the commands."))?),
        [first, ..] if matches!(*first, "k" | "knock" | "gin" | "discard") => {
            return Err(format!("`{}`: one card at a time, like `{first} 7h`.", shown(line.trim())));
        }
        _ if words.iter().all(|word| card_ref(word).is_ok()) => {
            return Err(format!(
                "`{}`: one card at a time: discard a card, or k and a card to knock.",
                shown(line.trim())
            ));
        }
        _ => return Err(format!("`{}` is not a command. Type help for the commands.", shown(line.trim()))),
    };
    Ok(command)
}

/// A card by name or by position.
fn card_ref(word: &str) -> Result<CardRef, String> {
    if word.chars().all(|c| c.is_ascii_digit()) {
        return match word.parse::<usize>() {
            Ok(0) => Err("positions count from 1.".to_owned()),
            Ok(position) => Ok(CardRef::Position(position)),
            Err(_) => Err(format!("`{}` is not a position in your hand.", shown(word))),
        };
    }
    word.parse::<Card>().map(CardRef::Card).map_err(|err| {
        // Two or three characters are a card mistyped; longer words, an unknown command.
        if word.chars().count() <= 3 {
            format!("`{}` is not a card: {}.", shown(word), crate::render::untrusted(&err.to_string(), 200))
        } else {
            format!("`{}` is not a command or a card.", shown(word))
        }
    })
}

/// What the player typed, as an error quotes it: control characters escaped (never sent to the
/// terminal raw) and at most a short prefix of a long line.
fn shown(text: &str) -> String {
    crate::render::untrusted(text, 40)
}

/// The help text for the commands.
pub(super) const HELP: &str = "\
Commands (type one, then Enter):
  t, take       take the first upcard
  p, pass       refuse it
  s, stock      draw from the stock
  d, pile       take the top of the discard pile
  7h, 10h, 3    discard that card, or the one at position 3
  k 7h, k 3     knock (or go gin), discarding that card
  big           big gin: lay down all 11 cards
  hint          what the computer would do, and why
  save          where the game is saved (after every move)
  quit          stop; the game stays saved for --resume
Cards: ranks A 2-9 T (or 10) J Q K, suits S H D C or
♠ ♥ ♦ ♣, in any case.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_fits_a_narrow_terminal() {
        for line in HELP.lines() {
            assert!(line.chars().count() <= 60, "{line}");
        }
    }

    fn card(text: &str) -> CardRef {
        CardRef::Card(text.parse().unwrap())
    }

    #[test]
    fn cards_in_any_spelling_or_by_position() {
        for spelled in ["7h", "7H", "7♥", " 7h  ", "discard 7h", "x 7♥"] {
            assert_eq!(parse(spelled), Ok(Command::Discard(card("7H"))), "{spelled}");
        }
        assert_eq!(parse("10s"), Ok(Command::Discard(card("TS"))));
        assert_eq!(parse("3"), Ok(Command::Discard(CardRef::Position(3))));
        assert_eq!(parse("10"), Ok(Command::Discard(CardRef::Position(10))));
        assert_eq!(parse("K 7h"), Ok(Command::Knock(card("7H"))));
        assert_eq!(parse("knock 11"), Ok(Command::Knock(CardRef::Position(11))));
    }

    #[test]
    fn commands_and_their_words() {
        assert_eq!(parse("s"), Ok(Command::Stock));
        assert_eq!(parse("STOCK"), Ok(Command::Stock));
        assert_eq!(parse("d"), Ok(Command::Pile));
        assert_eq!(parse("pile"), Ok(Command::Pile));
        assert_eq!(parse("t"), Ok(Command::Take));
        assert_eq!(parse("pass"), Ok(Command::Pass));
        assert_eq!(parse("k"), Ok(Command::KnockWithoutCard));
        assert_eq!(parse("big gin"), Ok(Command::BigGin));
        assert_eq!(parse(""), Ok(Command::Nothing));
        assert_eq!(parse("quit"), Ok(Command::Quit));
    }

    #[test]
    fn errors_quote_a_short_prefix_with_control_characters_escaped() {
        // The Up arrow, an escape sequence that would recolour the terminal, a huge token.
        let up = parse("\u{1b}[A").unwrap_err();
        assert!(up.starts_with("`\\u{1b}[a` is not"), "{up}");
        let colour = parse("\u{1b}[31mred").unwrap_err();
        assert!(!colour.contains('\u{1b}'), "{colour}");
        let card = parse("7\u{7}").unwrap_err();
        assert!(!card.chars().any(char::is_control), "{card}");
        let huge = parse(&"z".repeat(1_000_000)).unwrap_err();
        assert!(huge.len() < 200, "{} bytes", huge.len());
        assert!(huge.starts_with(&format!("`{}…`", "z".repeat(40))), "{}", &huge[..60]);
        let words = parse(&"7h ".repeat(1000)).unwrap_err();
        assert!(words.len() < 200, "{} bytes", words.len());
    }

    #[test]
    fn nothing_is_guessed() {
        assert!(parse("0").unwrap_err().contains("from 1"));
        assert!(parse("7x").unwrap_err().starts_with("`7x` is not a card: unknown suit `x`"));
        assert!(parse("draw").unwrap_err().starts_with("`draw` is not a command or a card."));
        assert!(parse("7h 8h").unwrap_err().contains("one card at a time"));
        assert!(parse("k 7h 8h").unwrap_err().contains("one card at a time"));
        assert!(parse("draw please").unwrap_err().contains("is not a command"));
        assert!(parse("99999999999999999999999").is_err());
    }
}
