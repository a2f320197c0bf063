//! Opening a path, a source or a URL as one [`Container`]: the crate's front door
//! ([`open`](crate::open)), above the stores so that a store's path gets an error saying it is a
//! store and how to read it ([`ErrorKind::AStore`](crate::ErrorKind::AStore)).

use std::path::Path;

use alloc::string::{String, ToString};

use crate::container::error::{Error, ErrorKind, Result};
use crate::container::frame::{self, FrameFile};
use crate::container::handle::Container;
use crate::container::limits::Limits;
use crate::container::store::{self, Form, Store};

/// Opens the container at `path` (a frame file or a sparse frame's directory) within the
/// default [`Limits`]: see [`Container`]. With a budget, threads, an offset or plugins:
/// [`OpenOptions::open`](crate::OpenOptions::open).
pub fn open(path: impl AsRef<Path>) -> Result<Container> {
    open_with_limits(path, Limits::default())
}

/// [`open`] within `limits`.
#[doc(hidden)]
pub fn open_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Container> {
    let path = path.as_ref();
    let named = |e: Error| name_file(e, path);
    let file = match FrameFile::open_with_limits(path, limits) {
        Ok(file) => file,
        Err(e) => return Err(named(a_store_instead(e, path, limits))),
    };
    Container::from_frame(file).map_err(named)
}

/// Opens the container (a contiguous frame) whose bytes `source` reads, through your own
/// transport (any [`ReadAt`](crate::source::ReadAt): an object store's client, a cache),
/// within `limits`: see [`FrameFile::from_source`]. `name` stands for its path in messages.
pub fn open_source(
    source: crate::container::source::Source,
    name: impl Into<std::path::PathBuf>,
    limits: Limits,
) -> Result<Container> {
    let name = name.into();
    let named = |e: Error| e.in_file(name.display());
    let file = FrameFile::from_source(source, name.clone(), limits).map_err(named)?;
    Container::from_frame(file).map_err(named)
}

/// `e`, or, when `path` is not a frame but opens as a python-blosc2 store, an error that says so
/// and how to read it (`Store::open`, then `store.get(key)`), naming a few of its keys.
fn a_store_instead(e: Error, path: &Path, limits: Limits) -> Error {
    // A directory is a store when python-blosc2 made it one (its `embed.b2e`, or the `.b2d` name),
    // not because frames are in it.
    let b2d = path.extension().is_some_and(|x| x == "b2d") || path.join(store::EMBED_NAME).is_file();
    if path.is_dir() && !b2d {
        return e;
    }
    let Ok(store) = Store::open_with_limits(path, limits) else { return e };
    let form = match store.form() {
        Form::Zip => "a .b2z store (a ZIP of frames)",
        Form::Directory => "a .b2d store (a directory of frames)",
        Form::Embed => "a .b2e store (an EmbedStore)",
    };
    let members = store.keys().count();
    let keys = store.keys().take(3).map(String::from).collect();
    Error::new(ErrorKind::AStore { form, members, keys }).in_file(path.display())
}

/// Opens the container at `url` (`http://host[:port]/path`, a contiguous frame) within the
/// default [`Limits`]: the metadata is read by ranged GETs when opening, and each read fetches
/// only the chunk tables and blocks it needs (feature `http`; see
/// [`FrameFile::open_url_with`](crate::frame::FrameFile::open_url_with)). A separate function
/// rather than [`open`] taking URLs, so that a local path is never read as a URL.
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub fn open_url(url: &str) -> Result<Container> {
    open_url_with_limits(url, Limits::default())
}

/// [`open_url`] within `limits` ([`Limits::max_fetched`] and [`Limits::max_requests`] bound
/// everything fetched through it).
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
#[doc(hidden)]
pub fn open_url_with_limits(url: &str, limits: Limits) -> Result<Container> {
    let named = |e: Error| e.in_file(url);
    let opts = crate::container::source::http::HttpOptions::default();
    let file = FrameFile::open_url_with(url, limits, opts).map_err(named)?;
    Container::from_frame(file).map_err(named)
}

/// `e` about the file at `path`: the path, and, when the file is not a readable frame, the kind
/// its first bytes say ("not a Blosc2 frame", "truncated: ...") over the field-level error.
fn name_file(e: Error, path: &Path) -> Error {
    let name = path.display().to_string();
    // An error about another file (a URL redirected), or one that already says what the file is.
    if e.file().is_some_and(|f| f != name)
        || e.cause().is_some()
        || matches!(e.kind(), ErrorKind::AStore { .. })
    {
        return e;
    }
    let e = e.in_file(&name);
    match frame::first_words(path, 0) {
        Some(kind) => Error::over(kind, e),
        None => e,
    }
}
