//! The paths of the subcommands that read many frames (`inspect`, `verify`, `ls`, `du`): what
//! each argument stands for, decided in one place.
//!
//! - `-`: the frame on stdin (see [`crate::stdin`]).
//! - a regular file (symbolic links followed), or a sparse frame (a directory holding
//!   `chunks.b2frame`): itself.
//! - any other directory: the regular files and sparse frames directly inside it, sorted by name;
//!   with `recursive`, also those of every subdirectory, depth first, sorted by name at each level
//!   (symbolic links to directories are not entered, so a link cannot make a loop; at most
//!   [`MAX_DEPTH`] levels). A directory that yields nothing is said on stderr, with the number of
//!   subdirectories left unentered without `-r`.
//!
//! FIFOs, sockets and devices inside a directory are never listed (opening one could block).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use b2schema::frame::SPARSE_INDEX;

use crate::text;

/// The deepest directory entered under an argument with `-r`.
pub const MAX_DEPTH: usize = 64;

/// What one argument gave.
#[derive(Debug)]
pub enum Found {
    /// A frame candidate: a file, a sparse frame, or `-` (stdin).
    Frame(PathBuf),
    /// A directory that could not be listed, and why.
    Unlisted(PathBuf, io::Error),
}

/// `true` when `path`, a candidate found in a scanned directory (not `named` on the command
/// line), is a regular file that is not Blosc2 (neither a frame, which holds `b2frame\0` at byte
/// 2, nor a ZIP, which may be a `.b2z` store): it is skipped with a warning on stderr, and the
/// exit code stays as it was. A file named on the command line is never skipped (reading it
/// fails, exit code 2).
pub fn skipped(path: &Path, named: bool) -> bool {
    if named || is_stdin(path) || path.is_dir() {
        return false;
    }
    let Ok((mut f, _)) = b2schema::frame::open_regular(path) else { return false };
    let mut head = [0u8; 10];
    let mut got = 0;
    while got < head.len() {
        match io::Read::read(&mut f, &mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    if head[..got].starts_with(b"PK") || head[..got].get(2..10) == Some(b"b2frame\0".as_slice()) {
        return false;
    }
    // A closed stderr is no reason to stop (eprintln! would panic).
    let _ = writeln!(io::stderr(), "b2schema: warning: {}: not a Blosc2 file, skipped", text::path(path));
    true
}

pub use crate::stdin::{is_std, is_stdin};

/// A directory without the index file of a sparse frame (`chunks.b2frame`): it stands for the
/// frames inside it. A sparse frame whose index is broken stays one frame, which fails.
pub fn is_plain_dir(path: &Path) -> bool {
    !is_stdin(path) && path.is_dir() && !path.join(SPARSE_INDEX).exists()
}

/// How far a walk goes under one argument.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// The deepest subdirectory entered (0: only what is directly inside).
    pub max_depth: usize,
    /// The most candidates found under one argument (the walk stops there).
    pub max_entries: usize,
}

/// Every frame candidate of `args`, in order (see the module's documentation); a warning on
/// stderr for each directory that yields none.
pub fn expand(args: &[PathBuf], recursive: bool) -> Vec<Found> {
    let depth = if recursive { MAX_DEPTH } else { 0 };
    expand_within(args, Bounds { max_depth: depth, max_entries: usize::MAX })
}

/// [`expand`], except that an argument that is a python-blosc2 store directory (named `*.b2d`,
/// and a store by [`crate::kind::is_store`]) stands for itself, a store, rather than for the
/// files inside it. Any other folder is scanned, even one that holds an `embed.b2e`.
pub fn expand_stores(args: &[PathBuf], recursive: bool, limits: b2schema::Limits) -> Vec<Found> {
    let mut out = Vec::new();
    for arg in args {
        if arg.extension().is_some_and(|e| e == "b2d") && arg.is_dir() && crate::kind::is_store(arg, limits) {
            out.push(Found::Frame(arg.clone()));
        } else {
            out.extend(expand(std::slice::from_ref(arg), recursive));
        }
    }
    out
}

/// [`expand`] within `bounds` (`serve` lists at most a few levels and entries per root).
pub fn expand_within(args: &[PathBuf], bounds: Bounds) -> Vec<Found> {
    let mut out = Vec::new();
    for arg in args {
        if !is_plain_dir(arg) {
            out.push(Found::Frame(arg.clone()));
            continue;
        }
        let before = out.len();
        let mut skipped = 0;
        let bounds = Bounds { max_entries: before.saturating_add(bounds.max_entries), ..bounds };
        walk(arg, bounds, 0, &mut out, &mut skipped);
        if out.len() == before {
            warn_empty(arg, bounds.max_depth > 0, skipped);
        }
    }
    out
}

fn warn_empty(dir: &Path, recursive: bool, skipped: usize) {
    let why = if !recursive && skipped > 0 {
        format!("no frame directly inside; {skipped} subdirectories not entered (use -r)")
    } else {
        "no frame found".to_string()
    };
    // A closed stderr is no reason to stop (eprintln! would panic).
    let _ = writeln!(io::stderr(), "b2schema: warning: {}: {why}", text::path(dir));
}

/// The candidates under `dir` into `out` (until it holds `bounds.max_entries`); `skipped` counts
/// subdirectories not entered.
fn walk(dir: &Path, bounds: Bounds, depth: usize, out: &mut Vec<Found>, skipped: &mut usize) {
    let entries = match list(dir) {
        Ok(entries) => entries,
        Err(e) => {
            out.push(Found::Unlisted(dir.to_path_buf(), e));
            return;
        }
    };
    for entry in entries {
        if out.len() >= bounds.max_entries {
            return;
        }
        match entry {
            Entry::Frame(p) => out.push(Found::Frame(p)),
            Entry::Dir(p) if depth < bounds.max_depth => walk(&p, bounds, depth + 1, out, skipped),
            Entry::Dir(_) => *skipped += 1,
        }
    }
}

enum Entry {
    Frame(PathBuf),
    Dir(PathBuf),
}

/// The entries directly inside `dir` that are regular files or sparse frames (symbolic links
/// followed), and its real subdirectories (not links), sorted by name.
fn list(dir: &Path) -> io::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        let target = if kind.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(m) => m.file_type(),
                Err(_) => continue, // dangling: not a regular file
            }
        } else {
            kind
        };
        let sparse = target.is_dir() && path.join(SPARSE_INDEX).exists();
        // Only regular files: a FIFO, a socket or a device is never opened (it could block).
        if target.is_file() || sparse {
            entries.push((entry.file_name(), Entry::Frame(path)));
        } else if kind.is_dir() {
            entries.push((entry.file_name(), Entry::Dir(path)));
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries.into_iter().map(|(_, e)| e).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(found: &[Found]) -> Vec<String> {
        found
            .iter()
            .map(|f| match f {
                Found::Frame(p) => p.display().to_string(),
                Found::Unlisted(p, _) => format!("unlisted {}", p.display()),
            })
            .collect()
    }

    #[test]
    fn directories_are_entered_only_with_recursive() {
        let d = std::env::temp_dir().join(format!("b2schema-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        std::fs::create_dir_all(d.join("sparse")).unwrap();
        std::fs::write(d.join("sparse").join(SPARSE_INDEX), b"").unwrap();
        std::fs::write(d.join("a/b/x.b2nd"), b"").unwrap();
        std::fs::write(d.join("a/y.b2nd"), b"").unwrap();
        std::fs::write(d.join("z.b2nd"), b"").unwrap();
        let s = |p: &str| d.join(p).display().to_string();
        let top = frames(&expand(std::slice::from_ref(&d), false));
        assert_eq!(top, [s("sparse"), s("z.b2nd")]);
        let all = frames(&expand(std::slice::from_ref(&d), true));
        assert_eq!(all, [s("a/b/x.b2nd"), s("a/y.b2nd"), s("sparse"), s("z.b2nd")]);
        let only_sub = frames(&expand(&[d.join("a")], false));
        assert_eq!(only_sub, [s("a/y.b2nd")]);
        assert_eq!(
            frames(&expand(&[d.join("a/b/x.b2nd"), PathBuf::from("-")], false)),
            [s("a/b/x.b2nd"), "-".into()]
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
