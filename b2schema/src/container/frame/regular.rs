//! Files opened only when they are regular files: a FIFO, a socket or a device is refused by
//! what the opened handle is.

use std::fs::File;
use std::path::Path;

use crate::container::error::{Error, Result};

/// Opens `path` for reading only if it is a regular file (after following symbolic links): a
/// FIFO, a socket or a device could block or never end, and is refused by what the opened handle
/// is (`fstat`), never by a look at the path before it. Returns the file and its length. The
/// file is noted in [`opened`](super::opened) when a program asked for that record.
pub fn open_regular(path: &Path) -> Result<(File, u64)> {
    open_regular_with(path, false)
}

/// [`open_regular`], for reading and writing (an update in place of a frame file).
pub(crate) fn open_regular_rw(path: &Path) -> Result<(File, u64)> {
    open_regular_with(path, true)
}

fn open_regular_with(path: &Path, write: bool) -> Result<(File, u64)> {
    // Opened first, then checked: a check of the path before the open could be answered by
    // another file than the one opened (a symlink flipped in between). Non-blocking, so that a
    // FIFO without a writer, or a device, opens at once and is refused by what the handle is.
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path).map_err(Error::from)?;
    let meta = f.metadata()?;
    super::confine::check(path, &meta)?;
    if !meta.is_file() {
        return Err(
            Error::invalid("a regular file", path.display(), kind_of(&meta.file_type()), 0).in_field("path")
        );
    }
    super::opened::note(&meta, path);
    Ok((f, meta.len()))
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() { "a directory" } else { "not a regular file" }
}
