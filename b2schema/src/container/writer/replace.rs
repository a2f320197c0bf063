//! Files written whole or not at all: a temporary file beside the destination, synced, renamed
//! onto it, then its directory synced so that the rename itself is durable. A failure at any step
//! removes the temporary file and leaves the destination as it was.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::container::error::{Error, Result};

/// Writes the file `path` through `write` (given a new temporary file beside it), whole or not at
/// all; an existing file at `path` is replaced only once everything was written and synced.
pub(crate) fn replace_file(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    replace_file_with(path, false, write).map(drop)
}

/// [`replace_file`], returning the new file, which was locked (advisory, exclusive) before it
/// was renamed onto `path`: a writer holding the lock of the file it replaces holds `path`'s
/// lock still, with no moment where another could take it.
pub(crate) fn replace_file_locked(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<File> {
    replace_file_with(path, true, write)
}

fn replace_file_with(path: &Path, lock: bool, write: impl FnOnce(&mut File) -> Result<()>) -> Result<File> {
    let tmp = temporary(path)?;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| Error::from(e).in_field("path"))?;
    let locked = if lock { self::lock(&f, &tmp) } else { Ok(()) };
    let written = locked.and_then(|()| write(&mut f)).and_then(|()| {
        (|| -> std::io::Result<()> {
            f.sync_all()?;
            std::fs::rename(&tmp, path)?;
            sync_parent(path)
        })()
        .map_err(|e| Error::from(e).in_field("path"))
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|()| f)
}

/// Syncs the directory that holds `path` (where a directory can be opened: not on Windows).
pub(crate) fn sync_parent(path: &Path) -> std::io::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if cfg!(unix) { File::open(parent)?.sync_all() } else { Ok(()) }
}

/// A name beside `path` for its temporary (`.NAME.PID.tmp`).
pub(crate) fn temporary(path: &Path) -> Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        Error::invalid("a path that names a file", "a file name", path.display(), 0).in_field("path")
    })?;
    let mut t = std::ffi::OsString::from(".");
    t.push(name);
    t.push(alloc::format!(".{}.tmp", std::process::id()));
    Ok(path.with_file_name(t))
}

/// Takes the advisory, exclusive lock of `f` (the file at `path`) without waiting: another
/// writer holding it is an error naming `path`.
pub(crate) fn lock(f: &File, path: &Path) -> Result<()> {
    f.try_lock().map_err(|e| {
        Error::invalid("a file no other writer has locked", path.display(), alloc::format!("locked ({e})"), 0)
            .in_field("path")
    })
}
