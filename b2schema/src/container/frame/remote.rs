//! Frames on a web server: [`FrameFile::open_url`] reads the metadata by ranged GETs (a prefix
//! of the file, which says its length and holds the header, then a suffix, which holds the
//! trailer and usually the offsets index; a file shorter than the prefix comes whole in the
//! first answer), then each chunk's table and blocks as a slice needs them.

use std::path::PathBuf;
use std::sync::Arc;

use super::file::FrameFile;
use crate::container::limits::Limits;
use crate::container::storage::http::{HttpOptions, HttpSource, Opened};
use crate::container::storage::{Cursor, Fetched, Memory, ReadAt, Source};
use crate::format::error::Result;

impl FrameFile {
    /// Opens the contiguous frame at `url` (`http://host[:port]/path`) within the default
    /// [`Limits`] and [`HttpOptions`].
    pub fn open_url(url: &str) -> Result<Self> {
        Self::open_url_with(url, Limits::default(), HttpOptions::default())
    }

    /// [`FrameFile::open_url`] within `limits` (among them [`Limits::max_fetched`] and
    /// [`Limits::max_requests`], which bound every read through it), with `options`. Errors name
    /// the URL and the range asked.
    pub fn open_url_with(url: &str, limits: Limits, options: HttpOptions) -> Result<Self> {
        let named =
            |e: crate::format::error::Error| if e.file().is_some() { e } else { e.in_file(url, None) };
        Self::open_url_unnamed(url, limits, options).map_err(named)
    }

    fn open_url_unnamed(url: &str, limits: Limits, options: HttpOptions) -> Result<Self> {
        let name = PathBuf::from(url);
        match HttpSource::open(url, limits, options)? {
            Opened::Ranged(src) => {
                let src: Arc<HttpSource> = Arc::from(src);
                let mut reader = Cursor::new(&*src);
                FrameFile::from_source(Arc::clone(&src) as Source, &mut reader, name, limits)
            }
            Opened::Whole(bytes, fetched) => {
                let src = Arc::new(Downloaded { bytes: Memory::new(bytes), fetched });
                let mut reader = std::io::Cursor::new(src.bytes.bytes());
                FrameFile::from_source(Arc::clone(&src) as Source, &mut reader, name, limits)
            }
        }
    }
}

/// A whole file fetched in one answer (from a server that ignores `Range`), with what fetching
/// it cost.
#[derive(Debug)]
struct Downloaded {
    bytes: Memory,
    fetched: Fetched,
}

impl ReadAt for Downloaded {
    fn len(&self) -> u64 {
        self.bytes.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.bytes.read_at(offset, buf)
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(self.fetched)
    }
}
