//! The files this process opened for reading, recorded when asked: a program that writes files
//! (the command line's `cat -o`, `pack`, `unpack`) checks each output against them, so that it
//! never writes over a file it reads, whatever name either was given.
//!
//! Off by default (nothing is kept). Once [`record`] is called, every local file the library
//! opens through [`open_regular`](super::open_regular) (a frame file, a sparse frame's index and
//! chunk files, a `.b2z` or `.b2e` store, each member and CTable column file of a `.b2d`, its
//! `embed.b2e`) is noted by what was opened: its device and inode, read from the open handle
//! (`fstat`), not from the path, so a symbolic link, a hard link, `..` or another spelling of
//! the same file is the same entry. [`opened`] answers whether a file (by its metadata) is one
//! of them. The record is shared by every thread, and holds one entry per distinct file (the
//! path as first opened is kept for the first [`MAX_NAMED`] files, enough for a message).
//!
//! On systems other than unix a file has no device and inode in `std`: the record is keyed by
//! the canonical path of what was opened ([`std::fs::canonicalize`]), which sees through
//! symbolic links and `..`, but not through hard links.
//!
//! ```
//! use b2schema::frame::opened;
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-opened-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # let path = dir.join("a.bin");
//! # std::fs::write(&path, b"data").unwrap();
//! opened::record();
//! let (_file, _len) = b2schema::frame::open_regular(&path)?;
//! let meta = std::fs::metadata(&path)?;
//! assert_eq!(opened::opened(&meta, &path).as_deref(), Some(path.as_path()));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), b2schema::Error>(())
//! ```

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many files keep the path they were opened by (the others are known by identity alone).
pub const MAX_NAMED: usize = 4096;

/// What identifies a file: device and inode (unix), or the canonical path (elsewhere).
#[cfg(unix)]
type Id = (u64, u64);
#[cfg(not(unix))]
type Id = PathBuf;

static ON: AtomicBool = AtomicBool::new(false);
static RECORD: Mutex<Option<HashMap<Id, Option<PathBuf>>>> = Mutex::new(None);

fn with_record<T>(f: impl FnOnce(&mut HashMap<Id, Option<PathBuf>>) -> T) -> T {
    // A thread that panicked while holding the lock left a map that is still whole.
    let mut guard = RECORD.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

#[cfg(unix)]
fn id(meta: &Metadata, _path: &Path) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn id(_meta: &Metadata, path: &Path) -> Option<Id> {
    std::fs::canonicalize(path).ok()
}

/// Starts recording the files opened for reading from now on, in every thread (for the rest
/// of the process).
pub fn record() {
    with_record(|_| ());
    ON.store(true, Ordering::SeqCst);
}

/// `true` once [`record`] was called.
pub fn is_recording() -> bool {
    ON.load(Ordering::SeqCst)
}

/// Notes the file opened at `path`, whose open handle's metadata is `meta` (when recording).
pub(crate) fn note(meta: &Metadata, path: &Path) {
    if !is_recording() {
        return;
    }
    let Some(id) = id(meta, path) else { return };
    with_record(|r| {
        let named = r.len() < MAX_NAMED;
        r.entry(id).or_insert_with(|| named.then(|| path.to_path_buf()));
    });
}

/// The path by which the file of `meta` (found at `path`) was opened for reading since
/// [`record`] was called, if it was: the path as first opened, or `"(a file read)"` past the
/// first [`MAX_NAMED`] files. `None` when it was not opened (or nothing is recorded).
pub fn opened(meta: &Metadata, path: &Path) -> Option<PathBuf> {
    let id = id(meta, path)?;
    with_record(|r| r.get(&id).map(|p| p.clone().unwrap_or_else(|| PathBuf::from("(a file read)"))))
}

/// How many distinct files were recorded.
pub fn count() -> usize {
    with_record(|r| r.len())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// One file opened by four names (itself, a symbolic link, a hard link, `sub/..`) on four
    /// threads at once is one entry, found again by each name's metadata; a file never opened is
    /// not found.
    #[test]
    fn a_file_is_one_entry_whatever_name_or_thread_opened_it() {
        let d = std::env::temp_dir().join(format!("b2schema-opened-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        let file = d.join("a.bin");
        std::fs::write(&file, b"frame").unwrap();
        std::fs::write(d.join("other.bin"), b"other").unwrap();
        std::os::unix::fs::symlink(&file, d.join("link.bin")).unwrap();
        std::fs::hard_link(&file, d.join("hard.bin")).unwrap();
        record();
        let names = ["a.bin", "link.bin", "hard.bin", "sub/../a.bin"].map(|n| d.join(n));
        std::thread::scope(|s| {
            for name in &names {
                s.spawn(|| super::super::open_regular(name).unwrap());
            }
        });
        // One entry: every name gives back the same path, the one first opened.
        let found: Vec<PathBuf> =
            names.iter().map(|n| opened(&std::fs::metadata(n).unwrap(), n).unwrap()).collect();
        assert!(names.contains(&found[0]), "{}", found[0].display());
        assert!(found.iter().all(|f| *f == found[0]), "{found:?}");
        let other = d.join("other.bin");
        assert_eq!(opened(&std::fs::metadata(&other).unwrap(), &other), None);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
