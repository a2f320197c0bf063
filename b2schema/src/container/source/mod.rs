//! Where a frame's bytes are read from: a local file, a buffer in memory or (feature `http`) a
//! web server answering ranged GETs, behind one trait, [`ReadAt`]: the length, and `len` bytes at
//! an offset, read by position so that threads share one source.
//!
//! ```
//! use b2schema::source::{Memory, ReadAt};
//! let bytes = Memory::new(b"b2frame".to_vec());
//! let mut buf = [0u8; 5];
//! bytes.read_at(2, &mut buf)?;
//! assert_eq!(&buf, b"frame");
//! assert!(bytes.read_at(4, &mut buf).is_err()); // past the end: an error, never a short read
//! # Ok::<(), b2schema::Error>(())
//! ```

pub mod ahead;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
mod window;

use std::fs::File;
use std::sync::Arc;

use crate::container::error::{Error, Result};

#[cfg_attr(not(feature = "derive"), allow(unused_imports))]
pub(crate) use window::Window;

/// Bytes that can be read by position, from any thread: the transport under every opener.
///
/// b2schema reads a frame through it (its metadata when opening, then each chunk's table and
/// blocks as a read needs them) and checks every byte it gets as it checks a file's, so an
/// implementation only has to give the bytes asked or an error. Implement it over your own
/// client (an object store's SDK, a cache, an archive) and open with
/// [`FrameFile::from_source`](crate::frame::FrameFile::from_source),
/// [`Store::from_source`](crate::store::Store::from_source) or
/// [`open_source`](crate::open_source). Built in: [`LocalFile`], [`Memory`] and, with the
/// feature `http`, [`http::HttpSource`].
///
/// Only [`ReadAt::len`] and [`ReadAt::read_at`] are required. A remote transport gains by the
/// others: [`ReadAt::read_ranges`] (join neighbouring ranges into one request),
/// [`ReadAt::min_read`] and [`ReadAt::ahead`] (fewer round trips), [`ReadAt::fetched`] (what was
/// fetched, for `--stats`-like reports).
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use b2schema::source::ReadAt;
/// # use b2schema::writer::{Fill, NdArray};
///
/// /// Reads through a closure (here: a slice of a buffer; yours would call your client),
/// /// counting the reads.
/// struct Counted<F> {
///     len: u64,
///     get: F,
///     reads: AtomicU64,
/// }
///
/// impl<F> std::fmt::Debug for Counted<F> {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "Counted({} bytes)", self.len)
///     }
/// }
///
/// impl<F: Fn(u64, &mut [u8]) -> b2schema::Result<()> + Send + Sync> ReadAt for Counted<F> {
///     fn len(&self) -> u64 {
///         self.len
///     }
///
///     fn read_at(&self, offset: u64, buf: &mut [u8]) -> b2schema::Result<()> {
///         self.reads.fetch_add(1, Ordering::Relaxed);
///         (self.get)(offset, buf)
///     }
/// }
///
/// # let items: Vec<u8> = (0..1000i32).flat_map(i32::to_le_bytes).collect();
/// # let bytes = NdArray::new(&[1000], &[100], &[10], "<i4", 4, Fill::Data(&items)).to_frame()?.to_vec()?;
/// let len = bytes.len() as u64;
/// let get = move |at: u64, buf: &mut [u8]| {
///     let part = bytes.get(at as usize..at as usize + buf.len());
///     let part = part.ok_or_else(|| b2schema::Error::invalid("a range inside", len, at, at as usize))?;
///     buf.copy_from_slice(part);
///     Ok(())
/// };
/// let source = Arc::new(Counted { len, get, reads: AtomicU64::new(0) });
/// let array = b2schema::open_source(source.clone(), "counted.b2nd", b2schema::Limits::default())?;
/// assert_eq!(array.shape(), [1000]);
/// let opened = source.reads.load(Ordering::Relaxed);
/// assert_eq!(array.read_as::<i32>("500:502")?, [500, 501]);
/// assert!(source.reads.load(Ordering::Relaxed) > opened); // the slice's chunk, read when asked
/// # Ok::<(), b2schema::Error>(())
/// ```
pub trait ReadAt: Send + Sync + core::fmt::Debug {
    /// The length in bytes.
    fn len(&self) -> u64;

    /// Whether there are no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `buf` with the bytes at `offset`: all of them, or an error naming the offset.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()>;

    /// Fills each buffer with the bytes at its offset. A remote source joins neighbouring ranges
    /// into one request; the others read them one by one.
    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        for (at, buf) in ranges.iter_mut() {
            self.read_at(*at, buf)?;
        }
        Ok(())
    }

    /// The fewest bytes worth one read: readers that learn a structure's length as they read it
    /// (a chunk's header, then its block table) ask for at least this many at once, where a
    /// round trip costs more than a few KiB. 0 (no minimum) for local sources.
    fn min_read(&self) -> u64 {
        0
    }

    /// The bytes worth fetching at once where a structure of unknown length starts (a ZIP
    /// member's local header and frame metadata): [`http::HttpOptions::prefix`] over HTTP, 0
    /// (read what is asked, no more) for local sources.
    fn ahead(&self) -> u64 {
        0
    }

    /// What was fetched over the network to this point (`None` for local sources).
    fn fetched(&self) -> Option<Fetched> {
        None
    }

    /// A hint: the reads to come go through `range` about in order (a whole array read chunk
    /// after chunk, on one thread or several). A remote source may fetch ahead of them in large
    /// pieces (the HTTP source and `b2schema-object-store` do, by [`ahead`]); the others ignore
    /// it. Nothing is read here.
    fn will_read(&self, range: core::ops::Range<u64>) {
        let _ = range;
    }
}

/// Requests made and bytes received by a remote source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fetched {
    /// Requests sent (retries included).
    pub requests: u64,
    /// Bytes of response bodies received.
    pub bytes: u64,
}

/// A local file, read by position (`pread` on Unix; elsewhere a seek on a handle of its own
/// under a lock).
#[derive(Debug)]
pub struct LocalFile {
    #[cfg(unix)]
    file: File,
    #[cfg(not(unix))]
    file: std::sync::Mutex<File>,
    len: u64,
}

impl LocalFile {
    /// `file`, `len` bytes long (as its metadata said when it was opened).
    pub fn new(file: File, len: u64) -> Self {
        #[cfg(unix)]
        return LocalFile { file, len };
        #[cfg(not(unix))]
        return LocalFile { file: std::sync::Mutex::new(file), len };
    }
}

impl ReadAt for LocalFile {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        #[cfg(unix)]
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
            .map_err(|e| Error::from(e).with_offset(offset as usize))?;
        #[cfg(not(unix))]
        {
            let mut f = self.file.lock().map_err(|_| Error::invalid("a file lock", "free", "poisoned", 0))?;
            use std::io::{Read, Seek, SeekFrom};
            let at = |e: std::io::Error| Error::from(e).with_offset(offset as usize);
            f.seek(SeekFrom::Start(offset)).map_err(at)?;
            f.read_exact(buf).map_err(at)?;
        }
        Ok(())
    }
}

/// Bytes in memory (a whole frame, an embedded store member).
#[derive(Debug, Clone)]
pub struct Memory(Arc<[u8]>);

impl Memory {
    /// The bytes.
    pub fn new(bytes: impl Into<Arc<[u8]>>) -> Self {
        Memory(bytes.into())
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl ReadAt for Memory {
    fn len(&self) -> u64 {
        self.0.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let b = &self.0;
        let start = usize::try_from(offset).ok().filter(|&s| s <= b.len());
        let part = start.and_then(|s| b.get(s..s.checked_add(buf.len())?)).ok_or_else(|| {
            Error::invalid(
                "bytes inside the frame's buffer of",
                b.len(),
                offset.saturating_add(buf.len() as u64),
                offset as usize,
            )
        })?;
        buf.copy_from_slice(part);
        Ok(())
    }
}

/// A source shared between a frame and its readers (and the threads that read it): what
/// `FrameFile::from_source`, `Store::from_source` and `b2schema::open_source` take.
pub type Source = Arc<dyn ReadAt>;

/// The files beside a sparse frame's index (in its local directory, on a web server, under an
/// object store's prefix): its chunk files, opened by name
/// ([`FrameFile::from_sparse_source`](crate::frame::FrameFile::from_sparse_source)).
pub trait Siblings: Send + Sync + core::fmt::Debug {
    /// The file `name` (`%08X.chunk`) beside the index.
    fn open(&self, name: &str) -> Result<Source>;
}

/// Reads `buf.len()` bytes at `at` of `f`, adding them to `counter`.
#[cfg_attr(not(feature = "derive"), allow(dead_code))]
pub(crate) fn pread(f: &Source, at: u64, buf: &mut [u8], counter: &mut u64) -> Result<()> {
    f.read_at(at, buf)?;
    *counter += buf.len() as u64;
    Ok(())
}

/// A source read as a `Read + Seek` (how a frame's metadata is read).
#[derive(Debug)]
#[cfg_attr(not(feature = "derive"), allow(dead_code))]
pub(crate) struct Cursor<'a> {
    src: &'a dyn ReadAt,
    pos: u64,
}

impl<'a> Cursor<'a> {
    #[cfg_attr(not(feature = "derive"), allow(dead_code))]
    pub(crate) fn new(src: &'a dyn ReadAt) -> Self {
        Cursor { src, pos: 0 }
    }
}

impl std::io::Read for Cursor<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.src.len().saturating_sub(self.pos);
        let n = (buf.len() as u64).min(left) as usize;
        self.src.read_at(self.pos, &mut buf[..n]).map_err(std::io::Error::other)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Cursor<'_> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let bad = || std::io::Error::new(std::io::ErrorKind::InvalidInput, "a seek outside the source");
        self.pos = match to {
            std::io::SeekFrom::Start(n) => n,
            std::io::SeekFrom::End(d) => self.src.len().checked_add_signed(d).ok_or_else(bad)?,
            std::io::SeekFrom::Current(d) => self.pos.checked_add_signed(d).ok_or_else(bad)?,
        };
        Ok(self.pos)
    }
}
