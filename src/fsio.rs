//! Files read with a size bound and written atomically: a read from a pipe, `/dev/zero` or a
//! huge file stops at its limit instead of taking all memory, and a save interrupted by a kill
//! or a full disk leaves the previous complete file, never a truncated one.

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
    let head = read_prefix(path, 256).unwrap_or_default();
    let head = String::from_utf8_lossy(&head);
    let compact: String = head.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.starts_with(&format!("{{\"format\":\"{}\"", crate::core::record::FORMAT)) {
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
