//! Frames on a web server: [`FrameFile::open_url`] reads the metadata by ranged GETs (a prefix
//! of the file, which says its length and holds the header, then a suffix, which holds the
//! trailer and usually the offsets index; a file shorter than the prefix comes whole in the
//! first answer), then each chunk's table and blocks as a slice needs them. A sparse frame's
//! directory (a URL ending in `/`, one ending in `/chunks.b2frame`, or one the server redirects
//! to the same URL with a `/` added, as web servers do for a directory) is read the same way:
//! its index `chunks.b2frame`, then each chunk file `%08X.chunk` beside it when a read needs it
//! (its first [`HttpOptions::prefix`] bytes, then the blocks asked), every request and byte
//! counted against one budget.

use std::path::PathBuf;
use std::sync::Arc;

use super::file::{FrameFile, SPARSE_INDEX};
use super::siblings::Kept;
use crate::container::error::{Error, Result};
use crate::container::limits::Limits;
use crate::container::source::http::{Ends, HttpOptions, HttpSource, Opened, Session};
use crate::container::source::{Fetched, Memory, ReadAt, Siblings, Source};

impl FrameFile {
    /// Opens the frame at `url` (`http://host[:port]/path`: a contiguous frame, or a sparse
    /// frame's directory) within the default [`Limits`] and [`HttpOptions`].
    pub fn open_url(url: &str) -> Result<Self> {
        Self::open_url_with(url, Limits::default(), HttpOptions::default())
    }

    /// [`FrameFile::open_url`] within `limits` (among them [`Limits::max_fetched`] and
    /// [`Limits::max_requests`], which bound every read through it, a sparse frame's chunk files
    /// included), with `options`. Errors name the URL and the range asked.
    pub fn open_url_with(url: &str, limits: Limits, options: HttpOptions) -> Result<Self> {
        Self::open_url_unnamed(url, limits, options).map_err(|e| e.in_file(url))
    }

    fn open_url_unnamed(url: &str, limits: Limits, options: HttpOptions) -> Result<Self> {
        let session = Session::default();
        if let Some(dir) = sparse_dir(url) {
            return Self::open_sparse_url(dir, limits, options, session);
        }
        match HttpSource::open_in(url, limits, &options, &session, Ends::HeadAndTail)? {
            Opened::Directory(dir) => Self::open_sparse_url(&dir, limits, options, session),
            opened => Self::from_opened(opened, url, limits, None),
        }
    }

    /// The sparse frame whose directory is at `dir` (ending in `/`).
    fn open_sparse_url(dir: &str, limits: Limits, options: HttpOptions, session: Session) -> Result<Self> {
        let index = alloc::format!("{dir}{SPARSE_INDEX}");
        let opened = HttpSource::open_in(&index, limits, &options, &session, Ends::HeadAndTail)
            .map_err(|e| e.in_file(&index))?;
        let siblings = Arc::new(Kept::new(RemoteDir { dir: dir.into(), limits, options, session }));
        Self::from_opened(opened, dir, limits, Some(siblings))
    }

    fn from_opened(
        opened: Opened,
        name: &str,
        limits: Limits,
        siblings: Option<Arc<dyn Siblings>>,
    ) -> Result<Self> {
        let src = source_of(opened, "a frame file", name)?;
        FrameFile::from_source_at(src, 0, PathBuf::from(name), limits, siblings)
    }
}

/// The source of what opening `url` found, a file: a redirect to a directory is an error that
/// says `what` was expected.
pub(crate) fn source_of(opened: Opened, what: &'static str, url: &str) -> Result<Source> {
    match opened {
        Opened::Ranged(src) => Ok(Arc::<HttpSource>::from(src) as Source),
        Opened::Whole(bytes, session) => Ok(Arc::new(Downloaded { bytes: Memory::new(bytes), session })),
        Opened::Directory(dir) => Err(Error::invalid(what, "a file", "a directory", 0)
            .in_file(alloc::format!("{url} (redirected to {dir})"))),
    }
}

/// The directory of the sparse frame `url` names, ending in `/`: the URL itself when its path
/// ends in `/`, or the URL of a directory's `chunks.b2frame`; `None` for any other URL.
fn sparse_dir(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    if path.ends_with('/') {
        return Some(path);
    }
    path.strip_suffix(SPARSE_INDEX).filter(|dir| dir.ends_with('/'))
}

/// A sparse frame's directory on a web server: its chunk files, opened when a read needs one,
/// within the frame's budget (kept by [`Kept`]).
#[derive(Debug)]
struct RemoteDir {
    dir: alloc::string::String,
    limits: Limits,
    options: HttpOptions,
    session: Session,
}

impl Siblings for RemoteDir {
    fn open(&self, name: &str) -> Result<Source> {
        let url = alloc::format!("{}{name}", self.dir);
        let opened = HttpSource::open_in(&url, self.limits, &self.options, &self.session, Ends::Head)
            .map_err(|e| e.in_file(&url))?;
        source_of(opened, "a chunk file", &url)
    }
}

/// A whole file fetched in one answer (from a server that ignores `Range`, or a file shorter
/// than the first request), with the session its frame is fetched in.
#[derive(Debug)]
struct Downloaded {
    bytes: Memory,
    session: Session,
}

impl ReadAt for Downloaded {
    fn len(&self) -> u64 {
        self.bytes.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.bytes.read_at(offset, buf)
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(self.session.fetched())
    }
}

#[cfg(test)]
mod tests {
    use super::sparse_dir;

    #[test]
    fn sparse_directories() {
        assert_eq!(sparse_dir("http://h/a.b2nd/"), Some("http://h/a.b2nd/"));
        assert_eq!(sparse_dir("http://h/a.b2nd/chunks.b2frame"), Some("http://h/a.b2nd/"));
        assert_eq!(sparse_dir("http://h/a.b2nd/?x=1"), Some("http://h/a.b2nd/"));
        assert_eq!(sparse_dir("http://h/a.b2nd"), None);
        assert_eq!(sparse_dir("http://h/xchunks.b2frame"), None);
    }
}
