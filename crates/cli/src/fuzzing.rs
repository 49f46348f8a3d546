//! Test support: structure-aware mutations of valid inputs, for the `fuzz_parsers_*` tests of the
//! command line's own parsers (protocol messages in both directions, saves), and for
//! `cargo xtask fuzz`, which includes this file for the engine's and rules' parsers. They try
//! `GIN_FUZZ_INPUTS` inputs each (a few hundred by default; `cargo xtask fuzz` asks for more)
//! from the seed `GIN_FUZZ_SEED`, and fail on the first panic.

use std::panic::{self, AssertUnwindSafe};

use gin_cards::random::{self, GinRng};

/// How many inputs each fuzz test tries.
pub(crate) fn inputs() -> u64 {
    std::env::var("GIN_FUZZ_INPUTS").ok().and_then(|text| text.parse().ok()).unwrap_or(300)
}

/// The random source of a fuzz test named `name`.
pub(crate) fn rng(name: &str) -> GinRng {
    let seed = std::env::var("GIN_FUZZ_SEED").ok().and_then(|text| text.parse().ok()).unwrap_or(1);
    let salt = name.bytes().fold(0u64, |hash, byte| hash.wrapping_mul(31).wrapping_add(u64::from(byte)));
    random::seeded_rng(random::derive_seed(seed, salt))
}

/// `corpus[i]` mutated a few times, or now and then arbitrary bytes.
pub(crate) fn input(rng: &mut GinRng, corpus: &[String]) -> String {
    if random::below(rng, 10) == 0 {
        let len = random::below(rng, 80) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| random::below(rng, 256) as u8).collect();
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let mut text = corpus[random::index(rng, corpus.len())].clone().into_bytes();
    for _ in 0..=random::below(rng, 3) {
        mutate(rng, &mut text);
    }
    String::from_utf8_lossy(&text).into_owned()
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

/// Runs `parse` on `input`, failing the test with the input if it panics.
pub(crate) fn no_panic(what: &str, input: &str, parse: impl FnOnce(&str)) {
    if panic::catch_unwind(AssertUnwindSafe(|| parse(input))).is_err() {
        panic!("the {what} parser panicked on {input:?}");
    }
}
