//! Stores on a web server: [`Store::open_url`] reads a `.b2z`'s end of central directory and
//! central directory by ranged GETs from the end of the file (a `.b2e`'s metadata as a frame's),
//! then each member as a window of the same file when it is opened, every request and byte
//! counted against one budget. A `.b2d` directory cannot be listed over HTTP and is refused;
//! its members' own URLs open as frames.

use std::path::PathBuf;

use super::Store;
use crate::container::error::{Error, Result};
use crate::container::frame::source_of;
use crate::container::limits::Limits;
use crate::container::source::http::{Ends, HttpOptions, HttpSource, Opened, Session};

impl Store {
    /// Opens the store at `url` (`http://host[:port]/path` of a `.b2z` or a `.b2e`) within the
    /// default [`Limits`] and [`HttpOptions`].
    pub fn open_url(url: &str) -> Result<Self> {
        Self::open_url_with(url, Limits::default(), HttpOptions::default())
    }

    /// [`Store::open_url`] within `limits` (among them [`Limits::max_fetched`] and
    /// [`Limits::max_requests`], which bound the opening and every read of its members in sum),
    /// with `options`. Errors name the URL and the range asked.
    pub fn open_url_with(url: &str, limits: Limits, options: HttpOptions) -> Result<Self> {
        let path = url.split(['?', '#']).next().unwrap_or(url);
        if path.ends_with('/') || path.ends_with(".b2d") {
            return Err(not_a_directory(url, url));
        }
        let opened = HttpSource::open_in(url, limits, &options, &Session::default(), Ends::HeadAndTail)
            .map_err(|e| e.in_file(url))?;
        if let Opened::Directory(dir) = &opened {
            return Err(not_a_directory(url, dir));
        }
        let src = source_of(opened, "a store file", url)?;
        Self::open_source(src, PathBuf::from(url), limits).map_err(|e| e.in_file(url))
    }
}

/// The error for a directory store (`.b2d`) asked by URL (`dir`: where it was found to be one).
fn not_a_directory(url: &str, dir: &str) -> Error {
    Error::unsupported(alloc::format!(
        "a directory store (.b2d) by URL ({dir}): it cannot be listed over HTTP; open a member's own \
         URL as a frame (URL/g/x.b2nd), or a .b2z or .b2e store"
    ))
    .in_file(url)
}
