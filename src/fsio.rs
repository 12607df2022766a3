//! Files read with a size bound and written atomically: a read from a pipe, `/dev/zero` or a
//! huge file stops at its limit instead of taking all memory, and a save interrupted by a kill
//! or a full disk leaves the previous complete file, never a truncated one.
//!
//! ```
//! use yaku::fsio::{read_text_limited, write_atomic};
//! let path = std::env::temp_dir().join(format!("yaku-fsio-doc-{}.txt", std::process::id()));
//! write_atomic(&path, b"saved").unwrap();
//! assert_eq!(read_text_limited(&path, 1024).unwrap(), "saved");
//! assert!(read_text_limited(&path, 2).is_err()); // longer than the limit
//! # std::fs::remove_file(&path).unwrap();
//! ```

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest game record read: a 1,000-hand game is about 1.5 MB.
pub const MAX_RECORD_SIZE: u64 = 16 * 1024 * 1024;

/// The largest rule file, deck or strategy read.
pub const MAX_RULE_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// Reads at most `limit` bytes from `reader`; more is an error of kind `FileTooLarge`, found
/// after reading `limit + 1` bytes, never the whole input.
pub fn read_limited_from(reader: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// The file at `path`, at most `limit` bytes of it (see [`read_limited_from`]).
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_limited_from(File::open(path)?, limit)
}

/// The file at `path` as UTF-8 text of at most `limit` bytes.
pub fn read_text_limited(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_limited(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// The first `n` bytes of the file at `path` (fewer when it is shorter): enough to tell what
/// kind of file it is without reading it whole.
pub fn read_prefix(path: &Path, n: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)?.take(n).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Why the file at `path`, named by another file (a rule file's `extends`, `deck` or `script`,
/// a record's ruleset), is not one to read as a `.EXT` file, in words; `None` when it is. Only
/// metadata is looked at, never the contents, so a named pipe is not opened (that could wait for
/// ever) and a file such as `/etc/shadow` or `/proc/self/environ` is refused by its name before
/// any of it is read. The extension is that of the file a symbolic link leads to, so
/// `rules.toml -> /etc/passwd` is refused too.
pub fn named_file_problem(path: &Path, ext: &str) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Some("is a loop of symbolic links that never reaches a file".into());
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound && path.symlink_metadata().is_ok() => {
            return Some("is a symbolic link to a file that does not exist".into());
        }
        Err(e) => return Some(format!("cannot be read: {e}")),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Some("is a directory, not a file".into());
    }
    if kind.is_fifo() {
        return Some("is a named pipe (FIFO), not a file (it was not opened)".into());
    }
    if kind.is_char_device() || kind.is_block_device() {
        return Some("is a device, not a file".into());
    }
    if kind.is_socket() {
        return Some("is a socket, not a file".into());
    }
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if target.extension().and_then(|e| e.to_str()) != Some(ext) {
        return Some(if target.as_path() == path || !path.is_symlink() {
            format!("is not a `.{ext}` file")
        } else {
            format!(
                "leads to `{}`, which is not a `.{ext}` file",
                crate::diag::escape_control(&target.display().to_string())
            )
        });
    }
    None
}

/// Why `bytes`, read from a file named by another file, are not text to parse, in words; `None`
/// when they are. A NUL byte or bytes that are not UTF-8 mean a binary file or a file of another
/// kind, which is refused without quoting any of it.
pub fn text_problem(bytes: &[u8]) -> Option<String> {
    if bytes.contains(&0) {
        return Some("holds NUL bytes, so it is not a text file".into());
    }
    std::str::from_utf8(bytes).err().map(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("is not UTF-8 text (line {line} holds a byte that is not UTF-8)")
    })
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("too large (more than {limit} bytes)"),
    )
}

/// Replaces the file at `path` with `bytes` atomically: they are written to a temporary file in
/// the same folder, flushed to the disk, and renamed over `path`. A failure at any point leaves
/// the previous file (or none) and removes the temporary one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = temp_path(path);
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    let renamed = written.and_then(|()| std::fs::rename(&temp, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed
}

/// The `format` every game record and save names first: the mark of a file that
/// [`check_replaceable_by_record`] lets a new record replace.
pub const RECORD_FORMAT: &str = "yaku-record";

/// Checks that `path` may be replaced by a game record or save: it does not exist, is empty,
/// or already holds a yaku record. Anything else (the ruleset being played, a document given
/// by mistake) is refused rather than overwritten; `Err` says why, in words.
pub fn check_replaceable_by_record(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(()); // nothing there, or nothing readable: the write itself will tell
    };
    if !meta.is_file() || meta.len() == 0 {
        return Ok(()); // a directory, a device: the write says what is wrong
    }
    // A JSON object naming the record format among its first keys (yaku writes it first; a
    // record rewritten by another tool may sort its keys).
    let head = read_prefix(path, 64 * 1024).unwrap_or_default();
    let head = String::from_utf8_lossy(&head);
    let compact: String = head.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.starts_with('{') && compact.contains(&format!("\"format\":\"{}\"", RECORD_FORMAT)) {
        return Ok(());
    }
    Err(
        "the file exists and is not a yaku game record, so it is left alone (choose another \
         file name, or remove it first)"
            .into(),
    )
}

/// `.NAME.PID.tmp` next to `path`: the same file system, so the rename is atomic.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("yaku-fsio-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_endless_input_stops_at_the_limit() {
        let err = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert!(err.to_string().contains("too large"), "{err}");
        let err = read_limited_from(io::repeat(b'x'), 10).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(read_limited_from(&b"0123456789"[..], 10).unwrap().len(), 10);
        assert_eq!(read_prefix(Path::new("/dev/zero"), 8).unwrap(), vec![0; 8]);
    }

    #[test]
    fn named_files_are_told_apart_by_metadata_and_first_bytes() {
        let dir = temp_dir("named");
        let rules = dir.join("rules.toml");
        std::fs::write(&rules, "[ruleset]\n").unwrap();
        assert_eq!(named_file_problem(&rules, "toml"), None);
        let why = named_file_problem(&rules, "rhai").unwrap();
        assert!(why.contains("not a `.rhai` file"), "{why}");
        let why = named_file_problem(Path::new("/etc/passwd"), "toml").unwrap();
        assert!(why.contains("not a `.toml` file"), "{why}");
        let why = named_file_problem(&dir, "toml").unwrap();
        assert!(why.contains("is a directory"), "{why}");
        let why = named_file_problem(Path::new("/dev/zero"), "toml").unwrap();
        assert!(why.contains("is a device"), "{why}");
        let link = dir.join("shadow.toml");
        std::os::unix::fs::symlink("/etc/shadow", &link).unwrap();
        let why = named_file_problem(&link, "toml").unwrap();
        assert!(why.contains("`/etc/shadow`"), "{why}");
        assert_eq!(text_problem(b"id = 1\n"), None);
        assert!(text_problem(b"a\0b").unwrap().contains("NUL"));
        assert!(text_problem(b"a\nb\xff").unwrap().contains("line 2"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_records_are_replaced() {
        let dir = temp_dir("replaceable");
        let record = dir.join("game.json");
        let rules = dir.join("mine.toml");
        let empty = dir.join("empty.json");
        std::fs::write(
            &record,
            "{\n  \"format\": \"yaku-record\",\n  \"version\": 1\n}",
        )
        .unwrap();
        std::fs::write(&rules, "[ruleset]\nid = \"mine\"\n").unwrap();
        std::fs::write(&empty, "").unwrap();
        assert_eq!(check_replaceable_by_record(&record), Ok(()));
        assert_eq!(check_replaceable_by_record(&empty), Ok(()));
        assert_eq!(check_replaceable_by_record(&dir.join("new.json")), Ok(()));
        let why = check_replaceable_by_record(&rules).unwrap_err();
        assert!(why.contains("not a yaku game record"), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_keeps_the_previous_file() {
        let dir = temp_dir("atomic");
        let path = dir.join("save.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        // A write that cannot finish: the target's name is taken by a directory for the temp
        // file, so creating it fails; the previous save must be intact and nothing left over.
        std::fs::create_dir_all(temp_path(&path)).unwrap();
        assert!(write_atomic(&path, b"third").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        std::fs::remove_dir(temp_path(&path)).unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
