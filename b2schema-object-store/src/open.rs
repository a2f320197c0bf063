//! The two openers every caller of an object-store URL needs (the command line, the Python
//! package): a frame (a contiguous frame's object, or a sparse frame's prefix) and a store in one
//! object (`.b2z`, `.b2e`), each error naming the URL.

use b2schema::frame::FrameFile;
use b2schema::store::Store;
use b2schema::{Error, Limits, Result};

use crate::options::ObjectOptions;
use crate::source::ObjectSource;
use crate::sparse::{open_sparse, sparse_prefix};

/// The frame at `url`: a contiguous frame's object, or the prefix of a sparse frame's (a URL
/// ending in `/` or `/chunks.b2frame`).
pub fn open_frame(url: &str, limits: Limits, options: &ObjectOptions) -> Result<FrameFile> {
    if sparse_prefix(url).is_some() {
        return open_sparse(url, limits, options);
    }
    FrameFile::from_source(ObjectSource::open_url(url, limits, options)?, url, limits)
        .map_err(|e| e.in_file(url))
}

/// The store in the one object at `url` (`.b2z` or `.b2e`); a directory store (`.b2d`, a URL
/// ending in `/`) is refused, saying to read its members by their own URLs.
pub fn open_store(url: &str, limits: Limits, options: &ObjectOptions) -> Result<Store> {
    let key = url.split(['?', '#']).next().unwrap_or(url);
    if key.ends_with('/') || key.ends_with(".b2d") {
        return Err(Error::invalid(
            "a store in one object (.b2z or .b2e), not",
            "a file",
            "a directory store (.b2d): read its members by their own URLs",
            0,
        )
        .in_file(url));
    }
    Store::from_source(ObjectSource::open_url(url, limits, options)?, url, limits).map_err(|e| e.in_file(url))
}
