//! [`OpenOptions`]: how to open, in one value (the read budget, where a frame starts in its file,
//! the codec registry, the threads that decode, the HTTP client's settings), and the openers of
//! every kind of container that take it, as `std::fs::OpenOptions` opens files.

use std::path::{Path, PathBuf};

use crate::container::error::Result;
use crate::container::frame::FrameFile;
use crate::container::handle::Container;
use crate::container::limits::Limits;
use crate::container::open;
use crate::container::source::Source;
use crate::container::store::Store;
use crate::container::table::CTable;

/// How to open a container, in one value; `OpenOptions::new()` is the defaults (what
/// `b2schema::open`, `FrameFile::open` and `Store::open` use).
///
/// ```
/// use b2schema::{Limits, OpenOptions};
/// # use b2schema::writer::Array;
/// # let dir = std::env::temp_dir().join(format!("b2schema-doc-options-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("x.b2nd");
/// # Array::from_slice(&[6], &[1i32, 2, 3, 4, 5, 6])?.write_file(&path)?;
/// let opts = OpenOptions::new().limits(Limits::default().with_max_decompressed(1 << 20)).threads(1);
/// let array = opts.open(&path)?; // an array or SChunk, decoded on one thread
/// assert_eq!(array.read_as::<i32>("2:4")?, [3, 4]);
/// let frame = opts.frame(&path)?; // the frame itself: header, metalayers, chunks
/// assert_eq!(frame.frame_len(), std::fs::metadata(&path)?.len());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), b2schema::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    limits: Limits,
    offset: u64,
    registry: Option<b2schema_chunk::Registry>,
    threads: Option<usize>,
    #[cfg(feature = "http")]
    http: crate::container::source::http::HttpOptions,
}

impl OpenOptions {
    /// The defaults: [`Limits::default`], a frame at the start of its file, the built-in codecs,
    /// as many decoding threads as cores.
    pub fn new() -> Self {
        OpenOptions::default()
    }

    /// The read budget: what an input may make the reader spend (memory, chunks, requests).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The frame starts at byte `offset` of its file (bytes after it are allowed, as
    /// `blosc2_schunk_open_offset` allows them). Contiguous frames only.
    pub fn offset(mut self, offset: u64) -> Self {
        self.offset = offset;
        self
    }

    /// The codecs and filters to decode with, beyond the built-in ones (plugins).
    pub fn registry(mut self, registry: b2schema_chunk::Registry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Threads that decode each read of a [`Container`] (at least 1; the result is the same
    /// whatever the count).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.max(1));
        self
    }

    /// The HTTP client's settings (timeouts, retries, proxy, CA file) for the `*_url` openers.
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http(mut self, http: crate::container::source::http::HttpOptions) -> Self {
        self.http = http;
        self
    }

    /// The read budget these options open with.
    pub fn get_limits(&self) -> &Limits {
        &self.limits
    }

    /// The frame at `path` (a contiguous frame file, or a sparse frame's directory), checked
    /// whole (header, trailer, offsets index) before it is returned.
    pub fn frame(&self, path: impl AsRef<Path>) -> Result<FrameFile> {
        let path = path.as_ref();
        let frame = if self.offset == 0 {
            FrameFile::open_with_limits(path, self.limits)?
        } else {
            FrameFile::open_at_with_limits(path, self.offset, self.limits)?
        };
        Ok(self.with_registry(frame))
    }

    /// The contiguous frame whose bytes `source` reads (your own transport: any
    /// [`ReadAt`](crate::source::ReadAt)); `name` stands for its path in messages.
    pub fn frame_source(&self, source: Source, name: impl Into<PathBuf>) -> Result<FrameFile> {
        Ok(self.with_registry(FrameFile::from_source(source, name, self.limits)?))
    }

    /// The contiguous frame at `url` (`http://` or, with the feature `https`, `https://`), read
    /// by ranged GETs: see [`FrameFile::open_url_with`].
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn frame_url(&self, url: &str) -> Result<FrameFile> {
        Ok(self.with_registry(FrameFile::open_url_with(url, self.limits, self.http.clone())?))
    }

    /// The container at `path` (an NDArray or an SChunk): see [`open`](crate::open). A store's
    /// path is an error of kind [`AStore`](crate::ErrorKind::AStore) naming a few of its keys.
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Container> {
        let path = path.as_ref();
        let c = if self.offset == 0 && self.registry.is_none() {
            open::open_with_limits(path, self.limits)?
        } else {
            Container::from_frame(self.frame(path)?).map_err(|e| e.in_file(path.display()))?
        };
        Ok(self.with_threads(c))
    }

    /// The container whose bytes `source` reads: see [`OpenOptions::frame_source`].
    pub fn open_source(&self, source: Source, name: impl Into<PathBuf>) -> Result<Container> {
        let name = name.into();
        let frame = self.frame_source(source, name.clone()).map_err(|e| e.in_file(name.display()))?;
        Ok(self.with_threads(Container::from_frame(frame).map_err(|e| e.in_file(name.display()))?))
    }

    /// The container at `url`: see [`OpenOptions::frame_url`].
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn open_url(&self, url: &str) -> Result<Container> {
        let frame = self.frame_url(url).map_err(|e| e.in_file(url))?;
        Ok(self.with_threads(Container::from_frame(frame).map_err(|e| e.in_file(url))?))
    }

    /// The python-blosc2 store at `path` (`.b2z`, `.b2d`, `.b2e`).
    pub fn store(&self, path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with_limits(path, self.limits)
    }

    /// The store whose bytes `source` reads (a `.b2z` or `.b2e`).
    pub fn store_source(&self, source: Source, name: impl Into<PathBuf>) -> Result<Store> {
        Store::from_source(source, name, self.limits)
    }

    /// The store at `url` (a `.b2z` or `.b2e`; a `.b2d` directory cannot be listed over HTTP).
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn store_url(&self, url: &str) -> Result<Store> {
        Store::open_url_with(url, self.limits, self.http.clone())
    }

    /// The CTable at `path` (a `.b2d` or `.b2z` store holding one).
    pub fn table(&self, path: impl AsRef<Path>) -> Result<CTable> {
        CTable::new(self.store(path)?)
    }

    fn with_registry(&self, frame: FrameFile) -> FrameFile {
        match &self.registry {
            Some(r) => frame.with_registry(r.clone()),
            None => frame,
        }
    }

    fn with_threads(&self, mut c: Container) -> Container {
        if let Some(n) = self.threads {
            let mut opts = *c.read_options();
            opts.nthreads = n;
            c.set_read_options(opts);
        }
        c
    }
}
