//! Opening the frame a subcommand reads, with first words that tell the story: "not a Blosc2
//! frame", "a sparse frame: give the directory", "truncated: ..." come before the field-level
//! detail, and offsets in errors are absolute in the file (with the frame's start stated).

use std::path::Path;

use b2schema::Limits;
use b2schema::frame::FrameFile;

use crate::Failure;

/// What is wrong with the file at `path` (frame at `offset`) before any field is decoded, in a
/// few words ([`b2schema::frame::first_words`], the library's lead of the same errors); `None`
/// when the frame looks like one, and for stdin (read once, by the open itself).
pub fn first_words(path: &Path, offset: u64) -> Option<String> {
    if crate::stdin::is_stdin(path) || is_url(path) {
        return None;
    }
    b2schema::frame::first_words(path, offset).map(|kind| b2schema::Error::new(kind).to_string())
}

/// Whether `path` is a URL (`http://`, `https://`, or an object store's: `s3://`, `gs://`,
/// `az://`, `abfs://`, ...): a frame read by ranged GETs.
pub fn is_url(path: &Path) -> bool {
    path.to_str().is_some_and(|p| b2schema::source::http::is_url(p) || crate::objects::is_object_url(p))
}

/// The frame at the URL `path` (only at offset 0).
pub fn open_url(path: &Path, offset: u64, limits: Limits) -> b2schema::Result<FrameFile> {
    open_url_for(path, offset, limits, false)
}

/// The frame at the URL `path`, to be read whole (`whole`: an object's read-ahead starts with
/// the open, `b2schema_object_store::ObjectOptions::whole`) or in parts.
fn open_url_for(path: &Path, offset: u64, limits: Limits, whole: bool) -> b2schema::Result<FrameFile> {
    if offset != 0 {
        return Err(b2schema::Error::invalid("a frame at offset 0 of a URL, not at", 0, offset, 0));
    }
    let url = path.to_str().unwrap_or_default();
    if crate::objects::is_object_url(url) {
        return crate::objects::open_frame(url, limits, whole);
    }
    FrameFile::open_url_with(url, limits, crate::net::http_options())
}

/// How a subcommand opens its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Header, index and trailer located and validated.
    Validated,
    /// Only located (for the tools that report on broken frames: `verify`, `dump`).
    Located,
}

/// Opens the frame at `path` (a sparse frame's directory, or a file with the frame at
/// `offset`), or says why not: the first words, then the field-level detail with absolute
/// offsets.
pub fn open(path: &Path, offset: u64, limits: Limits, mode: Mode) -> Result<FrameFile, Failure> {
    open_for(path, offset, limits, mode, false)
}

/// [`open`] of a frame the command reads whole (`cat` without `--slice`): an object's bytes
/// stream from the open on (2 requests in all, not 3 one after the other).
pub fn open_whole(path: &Path, offset: u64, limits: Limits) -> Result<FrameFile, Failure> {
    open_for(path, offset, limits, Mode::Validated, true)
}

fn open_for(path: &Path, offset: u64, limits: Limits, mode: Mode, whole: bool) -> Result<FrameFile, Failure> {
    let opened = if is_url(path) {
        open_url_for(path, offset, limits, whole)
    } else if crate::stdin::is_stdin(path) {
        crate::stdin::open(offset, limits, mode == Mode::Validated)
    } else if path.is_dir() {
        match mode {
            Mode::Validated => FrameFile::open_with_limits(path, limits),
            Mode::Located => FrameFile::locate_with_limits(path, limits),
        }
    } else if offset == 0 && mode == Mode::Located {
        FrameFile::locate_with_limits(path, limits)
    } else {
        FrameFile::open_at_with_limits(path, offset, limits)
    };
    match (opened, first_words(path, offset)) {
        (Err(e), _) => Err(failure(path, offset, e)),
        // Located without complaint, but not what the command reads (a sparse frame's index).
        (Ok(_), Some(words)) => Err(Failure::at(path, words)),
        (Ok(f), None) => Ok(f),
    }
}

/// The frame at `path` opened and validated: a sparse frame's directory, `-` (the frame on
/// stdin), or a file with the frame at `offset`.
pub fn validated(path: &Path, offset: u64, limits: Limits) -> b2schema::Result<FrameFile> {
    if is_url(path) {
        open_url(path, offset, limits)
    } else if crate::stdin::is_stdin(path) {
        crate::stdin::open(offset, limits, true)
    } else if path.is_dir() {
        FrameFile::open_with_limits(path, limits)
    } else {
        FrameFile::open_at_with_limits(path, offset, limits)
    }
}

/// The error `e` of the frame at `offset` in `path`: first words, then the detail, its offset
/// made absolute.
pub fn failure(path: &Path, offset: u64, e: b2schema::Error) -> Failure {
    Failure::at(path, explain(path, offset, e))
}

/// [`failure`] without the path.
pub fn explain(path: &Path, offset: u64, e: b2schema::Error) -> String {
    // The library names the file it opened; the command says the path itself, once.
    let e = if e.file() == Some(path.display().to_string().as_str()) { e.without_file() } else { e };
    let detail = absolute(offset, e);
    // An HTTP error names the URL and the range itself; the URL is said once.
    let url = path.display().to_string();
    let detail = match detail.strip_prefix(&url) {
        Some(rest) if is_url(path) => match rest.strip_prefix(" (Range: ") {
            Some(range) => format!("Range: {range}"),
            None => rest.strip_prefix(": ").unwrap_or(rest).to_string(),
        },
        _ => detail,
    };
    match first_words(path, offset) {
        // A directory without an index: the detail (no such file) adds nothing.
        Some(words) if path.is_dir() => words,
        Some(words) => format!("{words}; {detail}"),
        None => detail,
    }
}

/// `e` with its offset made absolute in the file, saying where the frame starts when not 0.
pub fn absolute(offset: u64, e: b2schema::Error) -> String {
    // An offset past any file's end was refused before an offset could be read there.
    let Some(base) = usize::try_from(offset).ok().filter(|&o| o != 0 && offset <= 1 << 48) else {
        return crate::budget::said(&e);
    };
    in_file(offset, e.shift_offset(base))
}

/// An error whose offsets are already in the file (a [`FrameFile`] reads chunks at their place
/// in the file), saying where the frame starts when not 0.
pub fn in_file(offset: u64, e: b2schema::Error) -> String {
    let text = crate::budget::said(&e);
    match offset {
        0 => text,
        _ => format!("{text} (offsets in the file; the frame starts at {offset})"),
    }
}
