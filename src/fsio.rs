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
use std::sync::atomic::{AtomicBool, Ordering};

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

/// Why `path` must not be written, in words; `None` when it may: it names nothing yet, or a
/// regular file (directly or through a symbolic link). A device (`/dev/null`, `/dev/full`,
/// `/dev/stdout`), a named pipe, a socket or a directory is refused before anything is written:
/// the atomic rename would otherwise replace the node itself with a regular file, which run as
/// root destroys a system device.
pub fn write_target_problem(path: &Path) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Some("it is a loop of symbolic links".into());
        }
        // Nothing there (or a link to nothing): a new file is made; a folder that does not
        // exist is found by the write itself.
        Err(_) => return None,
    };
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    Some(
        if kind.is_dir() {
            "it is a directory, not a file"
        } else if kind.is_fifo() {
            "it is a named pipe (FIFO), not a regular file; yaku writes only regular files"
        } else if kind.is_char_device() || kind.is_block_device() {
            "it is a device, not a regular file; yaku writes only regular files"
        } else if kind.is_socket() {
            "it is a socket, not a regular file; yaku writes only regular files"
        } else {
            "it is not a regular file; yaku writes only regular files"
        }
        .into(),
    )
}

/// Why the command line must not write `path`, a file the user named for a command's output
/// (`-o`, `--out`, `--record`, `--save`, ...), in words; `None` when it may. Every writer of the
/// command line asks this one check: `path` must be a regular file or a new name (see
/// [`write_target_problem`]) and none of `inputs`, the files the command reads (its rule files,
/// strategies, programs, database), under any spelling or link; so `yaku sim mine.toml --out
/// mine.toml` cannot replace the rule file with the run's hands.
pub fn output_problem(path: &Path, inputs: &[PathBuf]) -> Option<String> {
    if let Some(input) = inputs.iter().find(|i| same_file(path, i)) {
        return Some(format!(
            "it is `{}`, one of this command's inputs, so it is left alone (choose another file)",
            crate::diag::escape_control(&input.display().to_string())
        ));
    }
    write_target_problem(path)
}

/// Replaces the file at `path` with `bytes` atomically: they are written to a temporary file in
/// the same folder, flushed to the disk, and renamed over `path`. A failure at any point
/// (a full disk, a file-size limit) leaves the previous file (or none) and removes the temporary
/// one. A `path` that is not a regular file is refused (see [`write_target_problem`]).
///
/// The temporary file comes from the `tempfile` crate, because a home-made name is not safe:
/// it is created with `O_CREAT | O_EXCL` under a random name, so a symbolic link planted where
/// the file is to be made is never followed (the old `.NAME.PID.tmp` was predictable and opened
/// through such a link, which let anyone who could write the folder aim a save at any file the
/// user could write). It is made in the target's own folder so the final rename stays on one
/// file system and is atomic. Its mode is 0o666 less the umask, as a file made by `File::create`
/// would be, or the replaced file's mode when there was one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let _writing = writes();
    write_atomic_unlocked(path, bytes)
}

/// [`write_atomic`] for a program about to exit (the last save of a signal handler): it waits
/// for a write in progress on another thread to finish, writes, and then ends every other write
/// as [`end_writes`] does, so no thread starts a temporary file that the exit would leave
/// behind, and no later write replaces this one. Once another thread has ended the writes, it
/// waits for the process to exit (that thread is ending it) and writes nothing.
pub fn write_atomic_before_exit(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let writing = writes();
    let result = write_atomic_unlocked(path, bytes);
    end_writes_held(writing);
    result
}

/// Ends the writing of a process about to exit, whatever ends it (the end of a command, a
/// signal): waits for a write in progress on another thread to finish, removes the temporary
/// file of every output still being written piece by piece ([`AtomicFile`]), and holds every
/// later write back for good (a thread that tries waits until the process exits). So an exit
/// never cuts a write short, and leaves no temporary file. Called again, it does nothing.
pub fn end_writes() {
    if WRITES_ENDED.load(Ordering::SeqCst) {
        return;
    }
    end_writes_held(writes());
}

/// [`end_writes`] with the writes' lock taken.
fn end_writes_held(writing: std::sync::MutexGuard<'static, ()>) {
    for temp in pieces().drain(..) {
        let _ = std::fs::remove_file(temp);
    }
    WRITES_ENDED.store(true, Ordering::SeqCst);
    std::mem::forget(writing);
}

/// Set once [`end_writes`] holds the writes back for good.
static WRITES_ENDED: AtomicBool = AtomicBool::new(false);

/// Every write of the process, one at a time (see [`end_writes`]).
fn writes() -> std::sync::MutexGuard<'static, ()> {
    static WRITES: std::sync::Mutex<()> = std::sync::Mutex::new(());
    WRITES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The temporary files of the [`AtomicFile`]s being written, which [`end_writes`] removes.
fn pieces() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static PIECES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    PIECES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An [`AtomicFile`]'s temporary file in [`pieces`] for as long as it lives.
struct Listed(PathBuf);

impl Drop for Listed {
    fn drop(&mut self) {
        pieces().retain(|p| *p != self.0);
    }
}

fn write_atomic_unlocked(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(why) = write_target_problem(path) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    // Dropping `temp` on any error below removes the temporary file.
    // Through the `File`, so an error reads as the OS gives it, without the random name.
    temp.as_file_mut().write_all(bytes)?;
    if let Ok(old) = std::fs::metadata(path) {
        temp.as_file().set_permissions(old.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A file written piece by piece and put in place whole, as [`write_atomic`] puts one: the
/// pieces go to a temporary file in the same folder, and [`AtomicFile::finish`] flushes it to
/// the disk and renames it over the path. Dropped unfinished (an error, an interrupted run), it
/// removes the temporary file and leaves the previous file (or none). For outputs written as a
/// run goes, in constant memory (`sim --out`).
pub struct AtomicFile {
    path: PathBuf,
    temp: io::BufWriter<tempfile::NamedTempFile>,
    /// Listed for [`end_writes`] until put in place or dropped.
    _listed: Listed,
}

impl AtomicFile {
    /// Starts the file that will replace `path`; a `path` that is not a regular file, or is
    /// one of the command's `inputs`, is refused (see [`output_problem`]).
    pub fn create(path: &Path, inputs: &[PathBuf]) -> io::Result<AtomicFile> {
        use std::os::unix::fs::PermissionsExt;
        if let Some(why) = output_problem(path, inputs) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the directory `{}` does not exist", dir.display()),
            ));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Made and listed under the writes' lock, so `end_writes` finds it.
        let _writing = writes();
        // The error without the temporary file's random name.
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(|e| io::Error::new(e.kind(), e.kind().to_string()))?;
        let listed = Listed(temp.path().to_path_buf());
        pieces().push(listed.0.clone());
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp: io::BufWriter::new(temp),
            _listed: listed,
        })
    }

    /// Writes one line (`line` and a newline).
    pub fn line(&mut self, line: &str) -> io::Result<()> {
        self.temp.write_all(line.as_bytes())?;
        self.temp.write_all(b"\n")
    }

    /// Puts the file in place.
    pub fn finish(self) -> io::Result<()> {
        let _writing = writes();
        let temp = self.temp.into_inner().map_err(|e| e.into_error())?;
        if let Ok(old) = std::fs::metadata(&self.path) {
            temp.as_file().set_permissions(old.permissions())?;
        }
        temp.as_file().sync_all()?;
        temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// The same file: `a` and `b` name one file (the same device and inode), whatever the spelling
/// or links. False when either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The `format` every game record and save names first: the mark of a file that
/// [`check_replaceable_by_record`] lets a new record replace.
pub const RECORD_FORMAT: &str = "yaku-record";

/// Checks that `path` may be replaced by a game record or save: it passes [`output_problem`]
/// (`inputs` are the files the command reads), and it does not exist, is an empty regular
/// file, or already holds a yaku record. Anything else (a device, the ruleset being played, a
/// document given by mistake) is refused rather than overwritten; `Err` says why, in words.
pub fn check_replaceable_by_record(path: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    if let Some(why) = output_problem(path, inputs) {
        return Err(why);
    }
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(()); // nothing there, or nothing readable: the write itself will tell
    };
    if meta.len() == 0 {
        return Ok(());
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
        assert_eq!(check_replaceable_by_record(&record, &[]), Ok(()));
        assert_eq!(check_replaceable_by_record(&empty, &[]), Ok(()));
        assert_eq!(
            check_replaceable_by_record(&dir.join("new.json"), &[]),
            Ok(())
        );
        let why = check_replaceable_by_record(&rules, &[]).unwrap_err();
        assert!(why.contains("not a yaku game record"), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_output_is_none_of_the_inputs() {
        let dir = temp_dir("inputs");
        let rules = dir.join("mine.toml");
        std::fs::write(&rules, "[ruleset]\n").unwrap();
        let link = dir.join("hands.jsonl");
        std::os::unix::fs::symlink("mine.toml", &link).unwrap();
        let inputs = [rules.clone()];
        let why = output_problem(&link, &inputs).unwrap();
        assert!(why.contains("one of this command's inputs"), "{why}");
        assert!(why.contains("mine.toml"), "{why}");
        assert_eq!(output_problem(&dir.join("new.jsonl"), &inputs), None);
        assert_eq!(output_problem(&link, &[]), None);
        assert!(output_problem(&dir, &[]).unwrap().contains("directory"));
        let err = AtomicFile::create(&rules, &inputs).err().unwrap();
        assert!(err.to_string().contains("inputs"), "{err}");
        let why = check_replaceable_by_record(&dir.join("./mine.toml"), &inputs).unwrap_err();
        assert!(why.contains("inputs"), "{why}");
        assert_eq!(std::fs::read(&rules).unwrap(), b"[ruleset]\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_keeps_the_previous_file() {
        let dir = temp_dir("atomic");
        let path = dir.join("save.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        // A write that cannot finish (the folder is read-only, so no temporary file can be
        // made): the previous save is intact and nothing is left over.
        use std::os::unix::fs::PermissionsExt;
        let ro = std::fs::Permissions::from_mode(0o555);
        std::fs::set_permissions(&dir, ro).unwrap();
        let refused = write_atomic(&path, b"third");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        // Root writes anyway; the rest of the test still holds.
        if refused.is_err() {
            assert_eq!(std::fs::read(&path).unwrap(), b"second");
        }
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_regular_files_are_written() {
        let dir = temp_dir("regular");
        let fifo = dir.join("pipe.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a plain libc call on a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = write_atomic(&fifo, b"x").unwrap_err();
        assert!(err.to_string().contains("named pipe"), "{err}");
        assert!(
            check_replaceable_by_record(&fifo, &[])
                .unwrap_err()
                .contains("named pipe")
        );
        let link = dir.join("null.json");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let why = write_target_problem(&link).unwrap();
        assert!(why.contains("device"), "{why}");
        assert!(write_atomic(&link, b"x").is_err());
        assert!(link.is_symlink(), "the link is left alone");
        let err = write_atomic(&dir, b"x").unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        assert_eq!(write_target_problem(&dir.join("new.json")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_planted_link_is_not_followed_and_modes_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("planted");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        // The old predictable name, planted as a link to another file.
        let path = dir.join("save.json");
        let planted = dir.join(format!(".save.json.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_atomic(&path, b"saved").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&path).unwrap(), b"saved");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"again").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert!(same_file(&path, &dir.join(".").join("save.json")));
        assert!(!same_file(&path, &victim));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
