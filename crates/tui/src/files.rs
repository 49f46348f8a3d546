//! Reading what a user names: files only if they are regular files and no larger than a stated
//! size, opened so that a FIFO or a device can never block or flood gin. The game's saves are
//! read so, and the command line's rules and parameter files.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

use anyhow::{Result, anyhow};

/// The largest rules file (`--rules FILE`) and parameter file (`--param FILE`): 1 MiB, far more
/// than any real one (a full ruleset is about 400 bytes).
pub const MAX_SETTINGS_FILE: u64 = 1 << 20;

/// The largest save or game log gin reads: 64 MiB (a whole game to 100 points is about 60 KB).
pub(crate) const MAX_SAVE_FILE: u64 = 64 << 20;

use gin_arena::size;

/// The bytes of the file at `path`, which `what` names in messages ("the rules file"), if it is
/// a regular file of at most `limit` bytes.
///
/// The file is opened without waiting (a FIFO with no writer is refused at once, not waited on)
/// and its type is checked on the open file, so a link to a device or a FIFO is refused too.
///
/// # Errors
/// The file cannot be opened or read, is not a regular file (a directory, a FIFO, a device, a
/// socket: the message says which), or is larger than `limit`.
pub fn read_bytes(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>> {
    let shown = path.display();
    let file = open(path).map_err(|err| anyhow!("cannot read {what} `{shown}`: {err}"))?;
    let meta = file.metadata().map_err(|err| anyhow!("cannot read {what} `{shown}`: {err}"))?;
    if !meta.is_file() {
        return Err(anyhow!("cannot read {what} `{shown}`: it is {}, not a regular file", kind(&meta)));
    }
    let too_large =
        || anyhow!("cannot read {what} `{shown}`: it is larger than {}, the most {what} may hold", size(limit));
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    // The file may grow while it is read: never more than the limit and one byte.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|err| anyhow!("cannot read {what} `{shown}`: {err}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_bytes`] as UTF-8 text.
///
/// # Errors
/// As [`read_bytes`], and a file that is not UTF-8 text.
pub fn read_text(path: &Path, what: &str, limit: u64) -> Result<String> {
    let bytes = read_bytes(path, what, limit)?;
    String::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "cannot read {what} `{}`: it is not UTF-8 text (byte {})",
            path.display(),
            err.utf8_error().valid_up_to()
        )
    })
}

/// Opens `path` for reading without blocking on a FIFO.
#[cfg(unix)]
fn open(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    File::options().read(true).custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits()).open(path)
}

/// Opens `path` for reading.
#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What kind of file `meta` describes, for a message: `a directory`, `a FIFO (named pipe)`.
pub(crate) fn kind(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/tmp")
            .join(format!("gin-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(size(1 << 20), "1 MiB");
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(200), "200 bytes");
    }

    #[test]
    fn only_regular_files_up_to_the_limit_are_read() {
        let dir = scratch("limit");
        let file = dir.join("rules.json");
        std::fs::write(&file, "x".repeat(100)).unwrap();
        assert_eq!(read_text(&file, "the rules file", 100).unwrap().len(), 100);
        let err = read_text(&file, "the rules file", 99).unwrap_err().to_string();
        assert!(err.ends_with("it is larger than 99 bytes, the most the rules file may hold"), "{err}");
        let err = read_text(&dir, "the rules file", 100).unwrap_err().to_string();
        assert!(err.ends_with("it is a directory, not a regular file"), "{err}");
        let err = read_text(&dir.join("none"), "the rules file", 100).unwrap_err().to_string();
        assert!(err.starts_with("cannot read the rules file `"), "{err}");
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        let err = read_text(&file, "the rules file", 100).unwrap_err().to_string();
        assert!(err.ends_with("it is not UTF-8 text (byte 0)"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_links_to_them_are_refused_at_once() {
        let dir = scratch("devices");
        let err = read_text(Path::new("/dev/zero"), "the save", 1 << 20).unwrap_err().to_string();
        assert!(err.ends_with("it is a character device, not a regular file"), "{err}");
        let link = dir.join("zero.gin");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_text(&link, "the save", 1 << 20).unwrap_err().to_string();
        assert!(err.ends_with("it is a character device, not a regular file"), "{err}");
        // A FIFO with no writer: refused at once (a plain open would wait for a writer for ever).
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let err = read_text(&fifo, "the rules file", 1 << 20).unwrap_err().to_string();
        assert!(err.ends_with("it is a FIFO (named pipe), not a regular file"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
