//! Arrays written from typed Rust values, as python-blosc2's
//! `blosc2.asarray(x, chunks=..., blocks=..., cparams=..., meta=..., vlmeta=...)` writes them.

use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use serde_core::Serialize;

use super::item::Item;
use super::shapes::{default_blocks, default_shapes};
use super::{CParams, Fill, NdArray};
use crate::container::dtype::DType;
use crate::container::error::{Error, Result, Segment};
use crate::format::config::Config;

/// An array to write: its items (typed, or bytes with their dtype), shapes in `u64` as
/// [`Container::shape`](crate::Container::shape) gives them back, python-blosc2's default chunk
/// and block shapes unless given, compression parameters, and metadata from any `Serialize`
/// value (stored as msgpack, as python-blosc2 stores `meta` and `vlmeta`).
///
/// ```
/// use b2schema::writer::Array;
/// # let dir = std::env::temp_dir().join(format!("b2schema-doc-array-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("temps.b2nd");
/// let temps: Vec<f32> = (0..12).map(|i| i as f32 / 2.0).collect();
/// Array::from_slice(&[3, 4], &temps)?
///     .chunks(&[2, 4])
///     .meta("units", &["celsius", "hPa"])?
///     .vlmeta("station", &"Lhasa")?
///     .write_file(&path)?;
///
/// let arr = b2schema::open(&path)?;
/// assert_eq!(arr.shape(), [3, 4]);
/// assert_eq!(arr.read_as::<f32>("1, :")?, [2.0, 2.5, 3.0, 3.5]);
/// assert_eq!(arr.metalayer::<Vec<String>>("units")?.unwrap(), ["celsius", "hPa"]);
/// assert_eq!(arr.get::<String>("station")?.as_deref(), Some("Lhasa"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Array {
    shape: Vec<u64>,
    dtype: String,
    typesize: usize,
    bytes: Vec<u8>,
    chunks: Option<Vec<u64>>,
    blocks: Option<Vec<u64>>,
    cparams: CParams,
    meta: Vec<(String, Vec<u8>)>,
    vlmeta: Vec<(String, Vec<u8>)>,
}

fn invalid(what: &'static str, expected: impl core::fmt::Display, found: impl core::fmt::Display) -> Error {
    Error::invalid(what, expected, found, 0)
}

/// `prod(shape) * itemsize`, checked.
fn nbytes(shape: &[u64], itemsize: usize) -> Option<u64> {
    shape.iter().try_fold(itemsize as u64, |a, &s| a.checked_mul(s))
}

impl Array {
    /// An array of `shape` holding `items` in C order (`prod(shape)` of them), its dtype from `T`.
    pub fn from_slice<T: Item>(shape: &[u64], items: &[T]) -> Result<Array> {
        let want = shape.iter().try_fold(1u64, |a, &s| a.checked_mul(s));
        if want != Some(items.len() as u64) {
            return Err(invalid(
                "prod(shape) items:",
                want.map_or_else(|| String::from("more than 2^64"), |n| alloc::format!("{n}")),
                items.len(),
            )
            .in_field("items"));
        }
        let mut bytes = Vec::new();
        crate::container::limits::try_reserve(
            &mut bytes,
            items.len().saturating_mul(T::SIZE),
            "an array",
            0,
        )?;
        T::put(items, &mut bytes);
        Ok(Array::with_bytes(shape, T::dtype(items)?, T::SIZE, bytes))
    }

    /// An array of `shape` whose items are `bytes` (C order, `prod(shape) * itemsize` of them) of
    /// NumPy dtype `dtype` (`"<f8"`, a structured dtype as python-blosc2 prints it,
    /// `"[('t', '<f4'), ('p', '<f4')]"`): records and dtypes no Rust type stands for.
    pub fn from_bytes(shape: &[u64], dtype: &str, bytes: Vec<u8>) -> Result<Array> {
        let parsed = DType::parse(dtype).map_err(|e| invalid("a NumPy dtype", "", e).in_field("dtype"))?;
        let itemsize = parsed.itemsize();
        if itemsize == 0 {
            return Err(invalid("items of at least one byte, not", "1", dtype).in_field("dtype"));
        }
        let want = nbytes(shape, itemsize);
        if want != Some(bytes.len() as u64) {
            return Err(invalid(
                "prod(shape) * itemsize bytes:",
                want.map_or_else(|| String::from("more than 2^64"), |n| alloc::format!("{n}")),
                bytes.len(),
            )
            .in_field("bytes"));
        }
        Ok(Array::with_bytes(shape, parsed.to_numpy_str(), itemsize, bytes))
    }

    /// An array from an `ndarray` array or view of any layout (its items in logical C order).
    #[cfg(feature = "ndarray")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ndarray")))]
    pub fn from_ndarray<T, S, D>(a: &ndarray::ArrayBase<S, D>) -> Result<Array>
    where
        T: Item + Clone,
        S: ndarray::Data<Elem = T>,
        D: ndarray::Dimension,
    {
        let shape: Vec<u64> = a.shape().iter().map(|&n| n as u64).collect();
        match a.as_slice() {
            Some(items) => Array::from_slice(&shape, items),
            None => Array::from_slice(&shape, &a.iter().cloned().collect::<Vec<T>>()),
        }
    }

    fn with_bytes(shape: &[u64], dtype: String, typesize: usize, bytes: Vec<u8>) -> Array {
        Array {
            shape: shape.to_vec(),
            dtype,
            typesize,
            bytes,
            chunks: None,
            blocks: None,
            cparams: CParams::default(),
            meta: Vec::new(),
            vlmeta: Vec::new(),
        }
    }

    /// The chunk shape (python-blosc2's default when not set; its default blocks inside it).
    pub fn chunks(mut self, chunks: &[u64]) -> Array {
        self.chunks = Some(chunks.to_vec());
        self
    }

    /// The block shape (python-blosc2's default when not set).
    pub fn blocks(mut self, blocks: &[u64]) -> Array {
        self.blocks = Some(blocks.to_vec());
        self
    }

    /// The compression parameters (python-blosc2's default, zstd clevel 5 + shuffle, when not set).
    pub fn cparams(mut self, cparams: CParams) -> Array {
        self.cparams = cparams;
        self
    }

    /// Adds metalayer `name` holding `value` as msgpack (python-blosc2's `meta={name: value}`;
    /// at most 15 besides `b2nd`, fixed in size once written).
    pub fn meta<V: Serialize + ?Sized>(mut self, name: &str, value: &V) -> Result<Array> {
        let bytes = msgpack(value).map_err(|e| e.in_segment(Segment::Key(name.into())).in_field("meta"))?;
        self.meta.push((String::from(name), bytes));
        Ok(self)
    }

    /// Adds vlmetalayer `name` holding `value` as msgpack (python-blosc2's `vlmeta[name] = value`).
    pub fn vlmeta<V: Serialize + ?Sized>(mut self, name: &str, value: &V) -> Result<Array> {
        let bytes = msgpack(value).map_err(|e| e.in_segment(Segment::Key(name.into())).in_field("vlmeta"))?;
        self.vlmeta.push((String::from(name), bytes));
        Ok(self)
    }

    /// The shape.
    pub fn shape(&self) -> &[u64] {
        &self.shape
    }

    /// The NumPy dtype string.
    pub fn dtype(&self) -> &str {
        &self.dtype
    }

    /// The chunk and block shapes the array is written with.
    pub fn chunks_and_blocks(&self) -> (Vec<u64>, Vec<u64>) {
        let item = self.typesize as u64;
        match (&self.chunks, &self.blocks) {
            (Some(c), Some(b)) => (c.clone(), b.clone()),
            (Some(c), None) => (c.clone(), default_blocks(c, item)),
            (None, Some(b)) => {
                let (c, _) = default_shapes(&self.shape, item);
                (c.iter().zip(b).map(|(&c, &b)| c.max(b)).collect(), b.clone())
            }
            (None, None) => default_shapes(&self.shape, item),
        }
    }

    /// The same array in the writer's lower-level form (c-blosc2's `i64` shape and `i32` chunk and
    /// block shapes, the items as bytes), checked.
    pub fn to_ndarray(&self) -> Result<NdArray<'_>> {
        let (chunks, blocks) = self.chunks_and_blocks();
        let shape = self
            .shape
            .iter()
            .map(|&s| i64::try_from(s).map_err(|_| invalid("a dimension of at most 2^63 - 1", i64::MAX, s)))
            .collect::<Result<Vec<i64>>>()
            .map_err(|e| e.in_field("shape"))?;
        let small = |v: &[u64], field: &'static str| {
            v.iter()
                .map(|&s| i32::try_from(s).map_err(|_| invalid("a size of at most 2^31 - 1", i32::MAX, s)))
                .collect::<Result<Vec<i32>>>()
                .map_err(|e| e.in_field(field))
        };
        let mut a = NdArray::new(
            &shape,
            &small(&chunks, "chunks")?,
            &small(&blocks, "blocks")?,
            &self.dtype,
            self.typesize,
            Fill::Data(&self.bytes),
        );
        a.cparams = self.cparams;
        a.metalayers = self.meta.clone();
        a.vlmetalayers = self.vlmeta.clone();
        Ok(a)
    }

    /// The contiguous frame's bytes (a `.b2nd` in memory, python-blosc2's `cframe`).
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        let mut out = std::io::Cursor::new(Vec::new());
        self.to_ndarray()?.write_to(&mut out, |_, _| {})?;
        Ok(out.into_inner())
    }

    /// Writes the array to the file `path` (a `.b2nd`), whole or not at all: the frame is streamed
    /// into a temporary file beside `path`, synced, then renamed onto it.
    pub fn write_file(&self, path: impl AsRef<Path>) -> Result<()> {
        let a = self.to_ndarray()?;
        super::replace::replace_file(path.as_ref(), |f| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
            a.write_to(&mut out, |_, _| {})?;
            std::io::Write::flush(&mut out).map_err(Error::from)
        })
    }
}

/// `value` as python-blosc2's msgpack (the smallest encodings).
fn msgpack<V: Serialize + ?Sized>(value: &V) -> Result<Vec<u8>> {
    Ok(crate::format::ser::to_vec_with(value, Config::minimal())?)
}
