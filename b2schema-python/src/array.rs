//! An opened container (`b2schema.open`): its geometry, dtype, parameters and metadata, and
//! reads of boxes (with steps) decoded straight into a new NumPy array's buffer with the
//! interpreter detached.

use std::path::PathBuf;

use b2schema::Limits;
use b2schema::array::{ReadOptions, Selection};
use b2schema::frame::SpecialValue;
use b2schema::handle::Kind;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::{self, to_py};
use crate::values;

/// An NDArray or an SChunk in a frame, opened for reading. Shared by Python threads: reads take
/// `&self` and run at once.
#[pyclass(frozen, module = "b2schema._b2schema")]
pub struct Container {
    inner: b2schema::Container,
    /// What it was opened from (a path, a URL), for pickling.
    source: String,
}

pub fn limits(max_bytes: Option<u64>) -> Limits {
    match max_bytes {
        Some(n) => Limits::default().with_max_output(n),
        None => Limits::default(),
    }
}

/// Opens the frame file, `.b2nd`, `.b2frame` or sparse frame's directory at `path`.
#[pyfunction]
#[pyo3(signature = (path, max_bytes=None))]
pub fn open(py: Python<'_>, path: PathBuf, max_bytes: Option<u64>) -> PyResult<Container> {
    let source = path.display().to_string();
    let inner = py.detach(|| b2schema::open_with_limits(&path, limits(max_bytes))).map_err(to_py)?;
    Ok(Container { inner, source })
}

/// Opens the frame at an `http://` or `https://` URL, or an object-store URL (`s3://`, `gs://`,
/// `az://`, `abfs://`: [`crate::objects`]); only what each read needs is fetched.
#[pyfunction]
#[pyo3(signature = (url, max_bytes=None))]
pub fn open_url(py: Python<'_>, url: String, max_bytes: Option<u64>) -> PyResult<Container> {
    let lim = limits(max_bytes);
    let inner = py
        .detach(|| {
            if crate::objects::is_object_url(&url) {
                crate::objects::open(&url, lim)
            } else {
                b2schema::open_url_with_limits(&url, lim)
            }
        })
        .map_err(to_py)?;
    Ok(Container { inner, source: url })
}

/// The container in a contiguous frame's bytes (python-blosc2's `to_cframe()`).
#[pyfunction]
pub fn from_cframe(py: Python<'_>, cframe: numpy::PyReadonlyArray1<'_, u8>) -> PyResult<Container> {
    let bytes = crate::codec::contiguous(&cframe)?.to_vec();
    let inner = py.detach(|| b2schema::Container::from_bytes(bytes)).map_err(to_py)?;
    Ok(Container { inner, source: String::new() })
}

impl Container {
    pub fn new(inner: b2schema::Container, source: String) -> Container {
        Container { inner, source }
    }

    fn opts(&self, nthreads: Option<usize>) -> ReadOptions {
        let mut o = *self.inner.read_options();
        if let Some(n) = nthreads {
            o.nthreads = n.max(1);
        }
        o
    }
}

#[pymethods]
impl Container {
    /// What it was opened from (a path or a URL; empty for bytes).
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// `"ndarray"` or `"schunk"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner.kind() {
            Kind::NdArray => "ndarray",
            Kind::SChunk => "schunk",
        }
    }

    #[getter]
    fn shape(&self) -> Vec<u64> {
        self.inner.shape().to_vec()
    }

    #[getter]
    fn chunks(&self) -> Vec<u64> {
        self.inner.chunks().to_vec()
    }

    #[getter]
    fn blocks(&self) -> Vec<u64> {
        self.inner.blocks().to_vec()
    }

    #[getter]
    fn typesize(&self) -> usize {
        self.inner.typesize()
    }

    /// The dtype as NumPy writes it (`"<f8"`, a structured dtype's list), `None` for an SChunk.
    #[getter]
    fn dtype_str(&self) -> Option<String> {
        self.inner.dtype().map(|d| d.to_numpy_str())
    }

    /// The compression parameters with python-blosc2's names.
    fn cparams<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.inner.cparams();
        let d = PyDict::new(py);
        d.set_item("codec", c.codec_name())?;
        d.set_item("codec_id", c.codec.id())?;
        d.set_item("codec_meta", c.codec_meta)?;
        d.set_item("clevel", c.clevel)?;
        // python-blosc2 gives the six slots; the library the non-empty ones, in order.
        let mut filters = vec![0u8; 6];
        let mut metas = vec![0u8; 6];
        let n = c.filters.len().min(6);
        for (i, (f, m)) in c.filters.iter().take(n).enumerate() {
            filters[6 - n + i] = f.id();
            metas[6 - n + i] = *m;
        }
        d.set_item("filters", filters)?;
        d.set_item("filters_meta", metas)?;
        d.set_item("filter_names", c.filter_names())?;
        d.set_item("typesize", c.typesize)?;
        d.set_item("blocksize", c.blocksize)?;
        d.set_item("chunksize", c.chunksize)?;
        d.set_item("splitmode", format!("{:?}", c.splitmode))?;
        d.set_item("use_dict", c.use_dict)?;
        d.set_item("nthreads", c.nthreads)?;
        Ok(d)
    }

    /// The `.info` summary as text (python-blosc2's `info` lines).
    fn info_text(&self) -> PyResult<String> {
        Ok(self.inner.info().map_err(to_py)?.to_string())
    }

    /// (nbytes, cbytes, nchunks) from the header.
    fn sizes(&self) -> PyResult<(u64, u64, u64)> {
        let i = self.inner.info().map_err(to_py)?;
        Ok((i.nbytes, i.cbytes, i.nchunks))
    }

    /// The metalayers, decoded (`b2nd` included, as python-blosc2's `schunk.meta`).
    fn meta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        values::named_to_dict(py, &self.inner.meta().map_err(to_py)?)
    }

    /// The vlmetalayers, decoded (python-blosc2's `vlmeta[:]`).
    fn vlmeta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        values::named_to_dict(py, &self.inner.vlmeta().map_err(to_py)?)
    }

    /// Reads the box `ranges` (one `(start, stop, step)` per dimension, `0 <= start <= stop <=
    /// shape`, `step >= 1`) in C order into a new 1-D `uint8` NumPy array of exactly its bytes.
    /// The decoding runs with the interpreter detached, on `nthreads` threads (the container's
    /// default: the cores).
    #[pyo3(signature = (ranges, nthreads=None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        ranges: Vec<(u64, u64, u64)>,
        nthreads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let shape = self.inner.shape();
        if ranges.len() != shape.len() {
            return Err(errors::selection(format!("{} ranges for {} dimensions", ranges.len(), shape.len())));
        }
        let mut text = Vec::with_capacity(ranges.len());
        let mut items: u64 = 1;
        for (d, ((start, stop, step), &n)) in ranges.iter().zip(shape).enumerate() {
            if start > stop || *stop > n || *step == 0 {
                return Err(errors::selection(format!(
                    "dimension {d}: {start}:{stop}:{step} is not inside 0..{n} with a positive step"
                )));
            }
            text.push(format!("{start}:{stop}:{step}"));
            items = items.saturating_mul((stop - start).div_ceil(*step));
        }
        let sel = Selection::parse(&text.join(","), shape).map_err(errors::selection)?;
        let ts = self.inner.typesize() as u64;
        let nbytes = items.saturating_mul(ts);
        let opts = self.opts(nthreads);
        if nbytes > opts.max_bytes {
            return Err(to_py(b2schema::Error::new(b2schema::ErrorKind::BudgetExceeded {
                what: "the selection's items, bytes",
                needed: nbytes,
                limit: b2schema::Limit::Output,
                max: opts.max_bytes,
            })));
        }
        let len = usize::try_from(nbytes).map_err(|_| errors::selection("a selection larger than memory"))?;
        let out = PyArray1::<u8>::zeros(py, [len], false);
        {
            let mut guard = out.readwrite();
            let buf = guard.as_slice_mut().map_err(|e| errors::argument(e.to_string()))?;
            let inner = &self.inner;
            let result = py.detach(|| match inner.array() {
                Some(a) => a.read_into(&sel, buf, &opts).map(|_| ()).map_err(|e| name(inner, e)),
                None => inner.read(&sel).and_then(|bytes| {
                    if bytes.len() == buf.len() {
                        buf.copy_from_slice(&bytes);
                        Ok(())
                    } else {
                        Err(b2schema::Error::invalid("an SChunk read of", buf.len(), bytes.len(), 0))
                    }
                }),
            });
            result.map_err(to_py)?;
        }
        Ok(out)
    }

    /// The number of chunks.
    fn nchunks(&self) -> PyResult<u64> {
        Ok(self.inner.info().map_err(to_py)?.nchunks)
    }

    /// Chunk `i` decompressed, as `bytes` (python-blosc2's `schunk.decompress_chunk(i)`).
    fn decompress_chunk<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyBytes>> {
        let f = self.inner.frame();
        let data = py
            .detach(|| {
                let info = nth_chunk(f, i)?;
                f.chunk_data(&info, usize::MAX)
            })
            .map_err(|e| to_py(name(&self.inner, e)))?;
        Ok(PyBytes::new(py, &data))
    }

    /// Chunk `i` as stored (compressed), as `bytes` (python-blosc2's `schunk.get_chunk(i)`).
    fn get_chunk<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyBytes>> {
        let f = self.inner.frame();
        let data = py
            .detach(|| {
                let info = nth_chunk(f, i)?;
                match info.special {
                    Some(kind @ (SpecialValue::Zeros | SpecialValue::Nan | SpecialValue::Uninit)) => {
                        Ok(special_chunk(kind, self.inner.typesize(), info.nbytes))
                    }
                    _ => f.read_chunk(info.location),
                }
            })
            .map_err(|e| to_py(name(&self.inner, e)))?;
        Ok(PyBytes::new(py, &data))
    }
}

/// The `i`-th chunk's description, or an error naming the count.
fn nth_chunk(f: &b2schema::frame::FrameFile, i: usize) -> b2schema::Result<b2schema::frame::ChunkInfo> {
    let mut found = None;
    let mut n = 0usize;
    f.for_each_chunk(|info| {
        if n == i {
            found = Some(info);
        }
        n += 1;
        Ok(())
    })?;
    found.ok_or_else(|| b2schema::Error::invalid("a chunk index below the chunk count", n, i, 0))
}

/// `e` naming the container's file.
fn name(c: &b2schema::Container, e: b2schema::Error) -> b2schema::Error {
    if e.file().is_some() { e } else { e.in_file(c.path().display()) }
}

/// The 32-byte chunk c-blosc2's `get_chunk` makes for a chunk its index marks special (zeros,
/// NaN, uninit): version 5, flags 0x05, the typesize, `nbytes` (and as the blocksize), `cbytes`
/// 32, the special kind in the last byte's high bits.
fn special_chunk(kind: SpecialValue, typesize: usize, nbytes: u64) -> Vec<u8> {
    let mut h = vec![0u8; 32];
    let n = u32::try_from(nbytes).unwrap_or(u32::MAX).to_le_bytes();
    h[..4].copy_from_slice(&[5, 1, 5, u8::try_from(typesize).unwrap_or(1)]);
    h[4..8].copy_from_slice(&n);
    h[8..12].copy_from_slice(&n);
    h[12..16].copy_from_slice(&32u32.to_le_bytes());
    h[31] = match kind {
        SpecialValue::Zeros => 1,
        SpecialValue::Nan => 2,
        _ => 4,
    } << 4;
    h
}
