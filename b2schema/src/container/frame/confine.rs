//! A process's reads confined to directories (`b2schema serve`'s roots): once
//! [`confine_reads_to`] has named them, every file the library opens ([`open_regular`]: a
//! frame, a store file, a `.b2d` member or CTable column, an `embed.b2e`, a sparse frame's
//! chunk files) is checked by what was opened, not by the name asked for: the canonical path
//! of the name must lie under a root, and the file there must be the file opened (same device
//! and inode), so that a symbolic link leaving the roots, or one swapped between the open and
//! the check, is refused with an [`ErrorKind::Confined`] (whose text holds [`OUTSIDE`]).
//!
//! [`open_regular`]: super::open_regular

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use alloc::vec::Vec;

pub use crate::container::error::OUTSIDE;
use crate::container::error::{Error, ErrorKind, Result};

static ROOTS: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Confines every later read of this process to files under `roots` (each canonicalized).
/// Once for a process: `false` (and nothing changed) when reads were confined already or a
/// root does not canonicalize.
pub fn confine_reads_to(roots: &[PathBuf]) -> bool {
    let Ok(canonical) = roots.iter().map(|r| r.canonicalize()).collect::<std::io::Result<Vec<_>>>() else {
        return false;
    };
    ROOTS.set(canonical).is_ok()
}

/// Whether the file `opened`, opened by the name `path`, may be read (always when reads are
/// not confined).
pub(crate) fn check(path: &Path, opened: &Metadata) -> Result<()> {
    let Some(roots) = ROOTS.get() else { return Ok(()) };
    let refused = || Error::new(ErrorKind::Confined { path: path.display().to_string() });
    let canonical = path.canonicalize().map_err(|_| refused())?;
    if !roots.iter().any(|r| canonical.starts_with(r)) {
        return Err(refused());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let there = std::fs::metadata(&canonical).map_err(|_| refused())?;
        if (there.dev(), there.ino()) != (opened.dev(), opened.ino()) {
            return Err(refused());
        }
    }
    #[cfg(not(unix))]
    let _ = opened;
    Ok(())
}
