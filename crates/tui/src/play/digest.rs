//! The digest chained over the lines of a save (version 2 of the save format).
//!
//! Every line of the file is a JSON object that ends with one more member, its digest, as on
//! the last line of `tests/fixtures/expert-mid-game-v2.gin`:
//! `{"event":"discarded","player":"two","card":"7D","digest":"0885a99f15d656fd"}`. The digest
//! of line i is the first 8 bytes, in lowercase hex, of d_i = SHA-256(d_(i-1) ‖ the line without
//! its digest member and its line break), where d_0 = SHA-256(`gin-play save, version 2`): each
//! line's digest depends on every line before it, so a line changed, dropped, added or moved
//! shows at the first line that differs.
//!
//! A digest is not a signature: anyone can compute it. It catches a save cut short or edited by
//! hand, not a forger who computes the digests again.

use sha2::{Digest as _, Sha256};

/// The bytes d_0 is the SHA-256 of.
const START: &[u8] = b"gin-play save, version 2";

/// What the writer puts before a line's digest, in place of the object's last `}`.
const MEMBER: &str = ",\"digest\":\"";

/// The number of hex digits of a digest.
const DIGITS: usize = 16;

/// The chain of digests over a save's lines, one line after another.
#[derive(Clone, Debug)]
pub(super) struct Chain([u8; 32]);

impl Chain {
    /// The chain before line 1: d_0.
    pub(super) fn new() -> Chain {
        Chain(Sha256::digest(START).into())
    }

    /// Takes in the next line (an object's text, without its digest member and its line break)
    /// and returns the digest that line carries: 16 lowercase hex digits.
    pub(super) fn next(&mut self, line: &str) -> String {
        self.0 = Sha256::new().chain_update(self.0).chain_update(line.as_bytes()).finalize().into();
        self.0[..DIGITS / 2].iter().map(|byte| format!("{byte:02x}")).collect()
    }
}

/// `line` (an object's text, ending in `}`) with the member `"digest":"<digest>"` added last.
pub(super) fn seal(line: &str, digest: &str) -> String {
    let body = line.strip_suffix('}').unwrap_or(line);
    format!("{body}{MEMBER}{digest}\"}}")
}

/// A line split into the object it carries (without its digest member) and its digest; `None`
/// when it does not end with a digest member exactly as the writer puts it.
pub(super) fn unseal(line: &str) -> Option<(String, &str)> {
    let rest = line.strip_suffix("\"}")?;
    let at = rest.len().checked_sub(DIGITS).filter(|&at| rest.is_char_boundary(at))?;
    let (before, digest) = rest.split_at(at);
    if !digest.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let body = before.strip_suffix(MEMBER)?;
    Some((format!("{body}}}"), digest))
}

/// What is wrong with the first line whose digest does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fault {
    /// The line does not end with a digest member.
    Missing,
    /// The line's digest is not the one the lines up to it give.
    Changed,
}

/// A sealed text checked line by line, up to its first faulty line.
#[derive(Debug)]
pub(super) struct Unsealed {
    /// The lines before the first faulty one, each without its digest member.
    pub lines: Vec<String>,
    /// The first faulty line (counted from 1) and its fault.
    pub fault: Option<(usize, Fault)>,
}

/// Checks every line of `text` against the chain, stopping at the first that does not hold.
pub(super) fn check(text: &str) -> Unsealed {
    let mut chain = Chain::new();
    let mut lines = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let Some((object, digest)) = unseal(line) else {
            return Unsealed { lines, fault: Some((at + 1, Fault::Missing)) };
        };
        if chain.next(&object) != digest {
            return Unsealed { lines, fault: Some((at + 1, Fault::Changed)) };
        }
        lines.push(object);
    }
    Unsealed { lines, fault: None }
}

/// `lines` (objects' texts) sealed into a save's text, one line each, every line ending with a
/// line break.
pub(super) fn seal_all<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut chain = Chain::new();
    let mut text = String::new();
    for line in lines {
        let digest = chain.next(line);
        text.push_str(&seal(line, &digest));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_starts_from_its_name_and_follows_every_line() {
        // Worked out apart from this code, with Python's hashlib:
        // d = sha256(b"gin-play save, version 2"); d = sha256(d + line) for each line.
        assert_eq!(
            Chain::new().0.iter().map(|b| format!("{b:02x}")).collect::<String>(),
            "ae86778c83007ccc81bc01c4ea917f197874a2479882e8ca3dbd6423f183c663"
        );
        let text = seal_all(["{\"a\":1}", "{\"b\":2}"]);
        assert_eq!(text, "{\"a\":1,\"digest\":\"68f3574f50bdb29b\"}\n{\"b\":2,\"digest\":\"d202be3610de329e\"}\n");
        let checked = check(&text);
        assert_eq!(checked.fault, None);
        assert_eq!(checked.lines, ["{\"a\":1}", "{\"b\":2}"]);
        // The same second line after another first line has another digest.
        let other = seal_all(["{\"a\":2}", "{\"b\":2}"]);
        assert_ne!(text.lines().nth(1), other.lines().nth(1));
    }

    #[test]
    fn a_changed_moved_or_bare_line_is_found_where_it_is() {
        let text = seal_all(["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]);
        let lines: Vec<&str> = text.lines().collect();
        let changed = text.replace("\"b\":2", "\"b\":3");
        assert_eq!(check(&changed).fault, Some((2, Fault::Changed)));
        assert_eq!(check(&changed).lines.len(), 1);
        let swapped = [lines[0], lines[2], lines[1]].join("\n");
        assert_eq!(check(&swapped).fault, Some((2, Fault::Changed)));
        let bare = [lines[0], "{\"b\":2}", lines[2]].join("\n");
        assert_eq!(check(&bare).fault, Some((2, Fault::Missing)));
        let upper = text.replacen(&lines[1][lines[1].len() - 18..], &lines[1][lines[1].len() - 18..].to_uppercase(), 1);
        assert_eq!(check(&upper).fault, Some((2, Fault::Missing)));
        let cut = &text[..text.len() - 5];
        assert_eq!(check(cut).fault, Some((3, Fault::Missing)));
        assert_eq!(unseal("\"}"), None);
        assert_eq!(unseal("é\"digest\":\"0123456789abcdef\"}"), None);
    }
}
