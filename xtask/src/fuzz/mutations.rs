//! Structure-aware mutations of valid inputs, for every parser `cargo xtask fuzz` tries, and
//! the checks every refusal must pass.
//!
//! Inputs come in every size: most are a real input with a few small changes, some are arbitrary
//! bytes, and one in `LONG_SHARE` has a run of bytes blown up to a length drawn evenly on a
//! log scale up to `LONG_MAX`, past every limit the parsers keep (1 MiB a protocol line, 64 KiB
//! a hand line).

use gin_cards::random::{self, GinRng};

/// One input in [`LONG_SHARE`] is blown up to a long one.
pub(crate) const LONG_SHARE: u64 = 50;

/// The longest input: twice the longest line the protocol allows.
pub(crate) const LONG_MAX: usize = 2 << 20;

/// The longest error message any input may cause, in characters: what an error quotes of its
/// input is cut short.
pub(crate) const MAX_ERROR_CHARS: usize = 1000;

/// `corpus[i]` mutated a few times, or now and then arbitrary bytes; now and then blown up to a
/// long input.
pub(crate) fn input(rng: &mut GinRng, corpus: &[String]) -> String {
    let mut text = if random::below(rng, 10) == 0 {
        let len = random::below(rng, 80) as usize;
        (0..len).map(|_| random::below(rng, 256) as u8).collect()
    } else {
        let mut text = corpus[random::index(rng, corpus.len())].clone().into_bytes();
        for _ in 0..=random::below(rng, 3) {
            mutate(rng, &mut text);
        }
        text
    };
    if random::below(rng, LONG_SHARE) == 0 {
        blow_up(rng, &mut text);
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// A length drawn evenly on a log scale from 1 to [`LONG_MAX`].
fn long_length(rng: &mut GinRng) -> usize {
    let bits = random::below(rng, u64::from(LONG_MAX.ilog2()) + 1);
    let low = 1u64 << bits;
    (low + random::below(rng, low)).min(LONG_MAX as u64) as usize
}

/// Repeats a run of `input` (a byte, a token, a line) in place until it is long: a huge token, a
/// huge string, a line without end, many lines.
fn blow_up(rng: &mut GinRng, input: &mut Vec<u8>) {
    let length = long_length(rng);
    if input.is_empty() {
        input.push(b'x');
    }
    let at = random::index(rng, input.len());
    let end = (at + 1 + random::index(rng, 16)).min(input.len());
    let run = match random::below(rng, 3) {
        0 => input[at..end].to_vec(),
        1 => vec![input[at]],
        // A line, whole, repeated: many lines.
        _ => {
            let start = input[..at].iter().rposition(|&byte| byte == b'\n').map_or(0, |n| n + 1);
            let stop = input[at..].iter().position(|&byte| byte == b'\n').map_or(input.len(), |n| at + n + 1);
            input[start..stop].to_vec()
        }
    };
    let copies = (length / run.len().max(1)).max(1);
    let long: Vec<u8> = run.iter().copied().cycle().take(run.len() * copies).collect();
    input.splice(at..at, long);
}

/// One change: a byte flipped, inserted or deleted, a run cut or repeated, a JSON value swapped
/// for another, a line dropped or repeated.
fn mutate(rng: &mut GinRng, input: &mut Vec<u8>) {
    const TOKENS: [&str; 14] = [
        "null",
        "true",
        "-1",
        "1e309",
        "18446744073709551616",
        "\"\"",
        "[]",
        "{}",
        "\"x\"",
        "0",
        "\"AS\"",
        "[\"AS\",\"2S\"]",
        "\u{1b}[31m",
        "♠",
    ];
    if input.is_empty() {
        input.push(b'{');
        return;
    }
    let at = random::index(rng, input.len());
    match random::below(rng, 7) {
        0 => input[at] ^= 1 << random::below(rng, 8),
        1 => input.insert(at, random::below(rng, 256) as u8),
        2 => {
            input.remove(at);
        }
        3 => {
            let end = (at + 1 + random::index(rng, 40)).min(input.len());
            input.drain(at..end);
        }
        4 => {
            let end = (at + 1 + random::index(rng, 40)).min(input.len());
            let run = input[at..end].to_vec();
            input.splice(at..at, run);
        }
        5 => {
            let end = input[at..].iter().position(|b| b",:}]\n ".contains(b)).map_or(input.len(), |n| at + n);
            input.splice(at..end, TOKENS[random::index(rng, TOKENS.len())].bytes());
        }
        _ => {
            let text = String::from_utf8_lossy(input).into_owned();
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let line = random::index(rng, lines.len());
                if random::below(rng, 2) == 0 {
                    lines.remove(line);
                } else {
                    lines.insert(line, lines[line]);
                }
                *input = lines.join("\n").into_bytes();
            }
        }
    }
}

/// An input as a failure shows it: whole when short, else its start and its length.
pub(crate) fn shown(input: &str) -> String {
    match input.char_indices().nth(2000) {
        Some((at, _)) => format!("{:?}... ({} bytes in all)", &input[..at], input.len()),
        None => format!("{input:?}"),
    }
}

/// Checks that an error message is short, whatever the input was: `Err` saying why not.
pub(crate) fn short_error(message: &str) -> Result<(), String> {
    let chars = message.chars().count();
    if chars > MAX_ERROR_CHARS {
        return Err(format!("an error of {chars} characters (at most {MAX_ERROR_CHARS}): {}", shown(message)));
    }
    Ok(())
}
