//! Reading a line of bounded length: the protocol's lines (at most [`MAX_LINE`]) and any
//! other line-oriented input, so that no input makes the reader hold more than its limit.

use std::io::{self, BufRead};

/// The longest line either side may send, its line break included: 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, in the buffer, with its line break if it had one.
    Read,
    /// A line longer than the limit: its first `limit` bytes are in the buffer, and the rest is
    /// still to be read ([`skip_line`] drops it).
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of `input` into `buffer` (cleared first), keeping at most `limit` bytes of it,
/// line break included: the memory used never grows with the input.
///
/// # Errors
/// A read error.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>, limit: usize) -> io::Result<Line> {
    buffer.clear();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(if buffer.is_empty() { Line::End } else { Line::Read });
        }
        let (chunk, ends) = match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let room = limit - buffer.len();
        if chunk.len() > room {
            buffer.extend_from_slice(&chunk[..room]);
            input.consume(room);
            return Ok(Line::TooLong);
        }
        buffer.extend_from_slice(chunk);
        let used = chunk.len();
        input.consume(used);
        if ends {
            return Ok(Line::Read);
        }
    }
}

/// Reads and drops the rest of a line, up to and with its line break.
///
/// # Errors
/// A read error.
pub fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let used = available.len();
                input.consume(used);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_skipped_without_being_kept() {
        // A line without end: refused once the limit is passed, the rest never read.
        let mut endless = io::BufReader::new(io::repeat(b'z'));
        let mut buffer = Vec::new();
        assert_eq!(read_line(&mut endless, &mut buffer, 1000).unwrap(), Line::TooLong);
        assert_eq!(buffer.len(), 1000);
        let text = format!("short\n{}\nlast", "y".repeat(1000));
        let mut input = io::BufReader::with_capacity(16, text.as_bytes());
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::Read);
        assert_eq!(buffer, b"short\n");
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::TooLong);
        assert_eq!(buffer, b"yyyyyyyyyy");
        skip_line(&mut input).unwrap();
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::Read);
        assert_eq!(buffer, b"last");
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::End);
        // A line exactly at the limit, with its line break, is whole.
        let mut input = io::BufReader::new("0123456789\n".as_bytes());
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::TooLong);
        let mut input = io::BufReader::new("012345678\n".as_bytes());
        assert_eq!(read_line(&mut input, &mut buffer, 10).unwrap(), Line::Read);
    }
}
