//! A frame read from stdin (the path `-`): a pipe cannot be read by position, so its bytes are
//! copied, at most `--max-decompressed-total` of them (the budget of one frame's description),
//! into a new private temporary file (mode 0600, created only if new, in the temporary
//! directory), which is opened as a frame and removed at once: the open handle keeps its bytes
//! for the chunks read later, and nothing stays on disk after the command, even on an error.
//! Input longer than the budget is refused before it is opened, not cut.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use b2schema::frame::FrameFile;
use b2schema::{Limit, Limits};

/// `true` for the argument `-`: stdin (or stdout, for an output).
pub fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// `true` for an input that is this process's stdin: `-`, or the names scripts give it
/// (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`), read as `-` is (a pipe cannot be read by
/// position, and opening it anew as a file would refuse it).
pub fn is_stdin(path: &Path) -> bool {
    is_std(path) || ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].iter().any(|s| path.as_os_str() == *s)
}

/// The frame on stdin, located (`validated: false`, for `verify` and `dump`) or opened and
/// validated, within `limits`, starting at `offset` in the bytes read.
pub fn open(offset: u64, limits: Limits, validated: bool) -> b2schema::Result<FrameFile> {
    let spooled = Spooled::new()?;
    let max = limits.max_decompressed_total();
    let copied = {
        let mut f = &spooled.file;
        io::copy(&mut io::stdin().lock().take(max.saturating_add(1)), &mut f)?
    };
    (&spooled.file).flush()?;
    Limits::check("a frame read from stdin", copied, Limit::DecompressedTotal, max, 0)
        .map_err(|e| e.in_field("stdin"))?;
    if validated || offset != 0 {
        FrameFile::open_at_with_limits(&spooled.path, offset, limits)
    } else {
        FrameFile::locate_with_limits(&spooled.path, limits)
    }
    // `spooled` is removed here; the frame's handle keeps the bytes.
}

/// A temporary file of this process, removed when dropped.
struct Spooled {
    path: PathBuf,
    file: File,
}

impl Spooled {
    fn new() -> io::Result<Self> {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        loop {
            let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!(".b2schema-stdin.{}.{n}", std::process::id()));
            match options.open(&path) {
                Ok(file) => return Ok(Spooled { path, file }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 64 => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
