//! One owned handle for a Blosc2 container, as `blosc2.open` gives one: [`open`](crate::open) a file (a
//! `.b2nd` NDArray, a `.b2frame` SChunk, a sparse frame's directory), a buffer
//! ([`Container::from_bytes`]) or a store's member ([`Container::from_frame`]), then ask it
//! everything: geometry, dtype, compression parameters with their names, an `.info`-like
//! summary, metadata decoded to [`Value`](crate::Value)s or to your own types, and slices as bytes, as typed
//! values or as `ndarray` arrays.
//!
//! ```
//! use b2schema::{Value, dtype::DType};
//! # use b2schema::writer::{Fill, NdArray};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-open-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("grid.b2nd");
//! # let items: Vec<u8> = (0..100 * 37).flat_map(|i| (i as f64).to_le_bytes()).collect();
//! # let mut frame = NdArray::new(&[100, 37], &[50, 37], &[10, 37], "<f8", 8, Fill::Data(&items)).to_frame()?;
//! # frame.vlmetalayers.push(("title".into(), vec![0xa4, b'g', b'r', b'i', b'd']));
//! # frame.write_file(&path)?;
//! let array = b2schema::open(&path)?; // grid.b2nd: a 100 x 37 float64 array
//! assert_eq!(array.shape(), [100, 37]);
//! assert_eq!(array.chunks(), [50, 37]);
//! assert_eq!(array.dtype(), Some(&DType::parse("<f8")?));
//! assert_eq!(array.cparams().codec_name(), "zstd");
//! assert_eq!(array.vlmeta()?, [("title".to_string(), Value::from("grid"))]);
//! assert_eq!(array.get::<String>("title")?.as_deref(), Some("grid"));
//!
//! let row: Vec<f64> = array.read_as("7")?; // row 7, as NumPy's arr[7]
//! assert_eq!(row[0], 7.0 * 37.0);
//! let column: Vec<f64> = array.read_as(":, 3")?;
//! assert_eq!(column.len(), 100);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Errors of opening and reading name the file and, when the file is not what it should be,
//! lead with what it is, as the command line's do: `x.txt: not a Blosc2 frame (no b2frame magic
//! at offset 2); expected ...` ([`Error::file`](crate::Error::file), and [`Error::kind`](crate::Error::kind) to match: `ErrorKind::NotAFrame`).

mod info;
mod meta;
mod read;

use std::path::Path;
use std::sync::Arc;

use alloc::string::String;
use alloc::vec::Vec;

pub use info::{CParams, Info};

use crate::container::array::{ArrayReader, ReadOptions};
use crate::container::dtype::DType;
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameFile;
use crate::container::limits::Limits;

/// What a [`Container`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An NDArray (a `b2nd` metalayer, or a legacy `caterva` one): shape, chunks, blocks, dtype.
    NdArray,
    /// An SChunk: chunks of bytes, seen as a 1-D array of `nbytes / typesize` items.
    SChunk,
}

/// An opened Blosc2 container: an NDArray or an SChunk in a frame, owned (it borrows nothing;
/// it can be kept in a struct or sent to threads).
#[derive(Debug)]
pub struct Container {
    file: Arc<FrameFile>,
    array: Option<ArrayReader<'static>>,
    dtype: Option<DType>,
    /// The SChunk's geometry as a 1-D array (the NDArray's comes from its reader).
    flat: [Vec<u64>; 3],
    opts: ReadOptions,
    /// The store member it is (its errors name the key beside the store's file).
    member: Option<String>,
}

impl Container {
    /// The container in a frame already opened (a store's member, a frame at an offset).
    pub fn from_frame(file: FrameFile) -> Result<Container> {
        let file = Arc::new(file);
        let view = file.view()?;
        let typesize = u64::try_from(view.header.typesize).unwrap_or(0);
        let is_array = view.metalayer("b2nd").is_some() || view.metalayer("caterva").is_some();
        let flat = if is_array {
            Default::default()
        } else {
            let per = |n: i32| u64::try_from(n).unwrap_or(0).checked_div(typesize).unwrap_or(0);
            let items = u64::try_from(view.header.nbytes).unwrap_or(0).checked_div(typesize).unwrap_or(0);
            [
                alloc::vec![items],
                alloc::vec![per(view.header.chunksize)],
                alloc::vec![per(view.header.blocksize)],
            ]
        };
        drop(view);
        let array = if is_array { Some(ArrayReader::from_shared(Arc::clone(&file))?) } else { None };
        let dtype = match &array {
            Some(a) => match a.meta().parsed_dtype() {
                Some(Ok(d)) => Some(d),
                Some(Err(e)) => {
                    return Err(Error::invalid("a NumPy dtype", "a dtype string", e, 87).in_field("dtype"));
                }
                None => None,
            },
            None => None,
        };
        let opts = ReadOptions { max_bytes: file.limits().max_output(), ..ReadOptions::default() };
        Ok(Container { file, array, dtype, flat, opts, member: None })
    }

    /// The container in the contiguous frame `bytes` (a cframe, as `blosc2.to_cframe()` gives),
    /// within the default [`Limits`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Container> {
        let file = FrameFile::from_bytes(bytes, "<memory>", Limits::default())?;
        Container::from_frame(file)
    }

    /// An NDArray or an SChunk.
    pub fn kind(&self) -> Kind {
        if self.array.is_some() { Kind::NdArray } else { Kind::SChunk }
    }

    /// Where it was opened from (`<memory>` for a buffer, a key for a store's embedded member).
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The shape: an NDArray's, or an SChunk's `[nbytes / typesize]`.
    pub fn shape(&self) -> &[u64] {
        self.array.as_ref().map_or(&self.flat[0], |a| a.shape())
    }

    /// The chunk shape, in the same integer type as [`shape`](Self::shape) (an SChunk's:
    /// `[chunksize / typesize]`).
    pub fn chunks(&self) -> &[u64] {
        self.array.as_ref().map_or(&self.flat[1], |a| a.chunks())
    }

    /// The block shape (an SChunk's: `[blocksize / typesize]`, or `[0]` for automatic blocks).
    pub fn blocks(&self) -> &[u64] {
        self.array.as_ref().map_or(&self.flat[2], |a| a.blocks())
    }

    /// The number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape().len()
    }

    /// Bytes per item.
    pub fn typesize(&self) -> usize {
        self.file.view().map_or(0, |v| usize::try_from(v.header.typesize).unwrap_or(0))
    }

    /// The NumPy dtype (an NDArray's; `None` for an SChunk or a legacy `caterva` array).
    pub fn dtype(&self) -> Option<&DType> {
        self.dtype.as_ref()
    }

    /// The frame, for everything else ([`FrameFile::view`], chunks, patches).
    pub fn frame(&self) -> &FrameFile {
        &self.file
    }

    /// The reader of an NDArray (`None` for an SChunk).
    pub fn array(&self) -> Option<&ArrayReader<'static>> {
        self.array.as_ref()
    }

    /// How reads run: threads (the available cores by default, as python-blosc2) and the largest
    /// result (the [`Limits::max_output`] it was opened with).
    pub fn read_options(&self) -> &ReadOptions {
        &self.opts
    }

    /// Sets how reads run.
    pub fn set_read_options(&mut self, opts: ReadOptions) {
        self.opts = opts;
    }

    /// `e` naming this container's file.
    fn named(&self, e: Error) -> Error {
        let e = match &self.member {
            Some(key) if !matches!(e.path().next(), Some(Segment::Key(k)) if k == key) => {
                e.in_segment(Segment::Key(key.clone()))
            }
            _ => e,
        };
        e.in_file(self.file.path().display())
    }

    /// The same container, as the member `key` of a store: its errors name the key.
    pub(crate) fn in_member(mut self, key: &str) -> Container {
        self.member = Some(String::from(key));
        self
    }
}
