//! Frames of arrays and of plain chunked bytes.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::cparams::CParams;
use super::{Chunk, Frame, chunk};
use crate::container::b2nd::{B2nd, Geometry, MAX_DIM, odometer};
use crate::container::error::{Error, Result};
use crate::container::frame::SpecialValue;

/// What an array holds.
#[derive(Clone, Copy, Debug)]
pub enum Fill<'a> {
    /// The items in C order (`prod(shape) * typesize` bytes).
    Data(&'a [u8]),
    /// All zeros: special chunks with no stored bytes (`blosc2.zeros`).
    Zeros,
    /// All NaN (typesize 4 or 8): special chunks (`blosc2.nans`).
    Nan,
    /// Uninitialized: special chunks, read as zeros (`blosc2.uninit`).
    Uninit,
    /// One item (`typesize` bytes) everywhere: repeat-value chunks (`blosc2.full`).
    Value(&'a [u8]),
}

/// An N-dimensional array to write as a frame with a `b2nd` metalayer.
#[derive(Clone, Debug)]
pub struct NdArray<'a> {
    /// Array shape.
    pub shape: Vec<i64>,
    /// Chunk shape.
    pub chunkshape: Vec<i32>,
    /// Block shape.
    pub blockshape: Vec<i32>,
    /// NumPy dtype string (`dtype.str`, or `str(dtype)` for structured dtypes).
    pub dtype: String,
    /// Bytes per item.
    pub typesize: usize,
    /// The contents.
    pub fill: Fill<'a>,
    /// Compression parameters recorded in the header and chunks.
    pub cparams: CParams,
    /// User metalayers after `b2nd` (at most 15; python-blosc2 writes msgpack).
    pub metalayers: Vec<(String, Vec<u8>)>,
    /// Vlmetalayers (python-blosc2 writes msgpack).
    pub vlmetalayers: Vec<(String, Vec<u8>)>,
}

impl<'a> NdArray<'a> {
    /// An array with the default parameters and no user metalayers.
    pub fn new(
        shape: &[i64],
        chunkshape: &[i32],
        blockshape: &[i32],
        dtype: &str,
        typesize: usize,
        fill: Fill<'a>,
    ) -> Self {
        NdArray {
            shape: shape.to_vec(),
            chunkshape: chunkshape.to_vec(),
            blockshape: blockshape.to_vec(),
            dtype: dtype.into(),
            typesize,
            fill,
            cparams: CParams::default(),
            metalayers: Vec::new(),
            vlmetalayers: Vec::new(),
        }
    }

    fn check(&self) -> Result<()> {
        let n = self.shape.len();
        let fail = |what: &'static str, expected: &dyn core::fmt::Display, found: &dyn core::fmt::Display| {
            Err(Error::invalid(what, alloc::format!("{expected}"), alloc::format!("{found}"), 0))
        };
        if n > MAX_DIM {
            return fail("at most this many dimensions:", &MAX_DIM, &n);
        }
        if self.chunkshape.len() != n || self.blockshape.len() != n {
            return fail(
                "a chunk and a block shape of ndim values:",
                &n,
                &alloc::format!("{} and {}", self.chunkshape.len(), self.blockshape.len()),
            );
        }
        for i in 0..n {
            let (s, c, b) = (self.shape[i], self.chunkshape[i], self.blockshape[i]);
            if s < 0 || c < 0 || b < 0 {
                return fail("non-negative sizes in dimension", &i, &"a negative size");
            }
            if s > 0 && (c == 0 || b == 0) {
                return fail("non-zero chunk and block sizes in dimension", &i, &"zero");
            }
            if b > c {
                return fail(
                    "a block no larger than its chunk in dimension",
                    &i,
                    &alloc::format!("block {b} > chunk {c}"),
                );
            }
        }
        if self.typesize == 0 {
            return fail("a typesize of at least", &1, &0);
        }
        let nitems = self.shape.iter().try_fold(1u64, |a, &s| a.checked_mul(s as u64));
        match self.fill {
            Fill::Data(d) => {
                let want = nitems.and_then(|n| n.checked_mul(self.typesize as u64));
                if want != Some(d.len() as u64) {
                    return fail(
                        "data of prod(shape) * typesize bytes:",
                        &want.unwrap_or(u64::MAX),
                        &d.len(),
                    );
                }
            }
            Fill::Value(v) if v.len() != self.typesize => {
                return fail("a fill value of typesize bytes:", &self.typesize, &v.len());
            }
            Fill::Nan if !matches!(self.typesize, 4 | 8) => {
                return fail("NaN fill for floats of 4 or 8 bytes, not", &"4 or 8", &self.typesize);
            }
            _ => {}
        }
        if self.metalayers.len() > MAX_DIM - 1 {
            return fail(
                "at most this many user metalayers (b2nd takes one of 16):",
                &(MAX_DIM - 1),
                &self.metalayers.len(),
            );
        }
        Ok(())
    }

    /// The frame: `b2nd` first, then the user metalayers; chunks padded to the extended chunk
    /// shape, blocks in C order inside each chunk, as c-blosc2 lays them out.
    pub fn to_frame(&self) -> Result<Frame> {
        self.to_frame_with_progress(|_, _| {})
    }

    /// [`to_frame`](Self::to_frame), calling `progress(done, total)` after each chunk with the
    /// uncompressed bytes of the chunks made so far and of all of them (the padded chunk size
    /// times the number of chunks): what a progress bar needs for a long run.
    ///
    /// ```
    /// # use b2schema::writer::{Fill, NdArray};
    /// let data = vec![7u8; 100];
    /// let a = NdArray::new(&[100], &[30], &[10], "|u1", 1, Fill::Data(&data));
    /// let mut seen = Vec::new();
    /// a.to_frame_with_progress(|done, total| seen.push((done, total))).unwrap();
    /// assert_eq!(seen, [(30, 120), (60, 120), (90, 120), (120, 120)]);
    /// ```
    pub fn to_frame_with_progress(&self, mut progress: impl FnMut(u64, u64)) -> Result<Frame> {
        let (mut frame, lay) = self.layout()?;
        let mut coords = vec![0usize; lay.grid.len()];
        let total = (lay.chunk_nbytes as u64).saturating_mul(lay.nchunks as u64);
        // With data and several threads, chunks are compressed side by side in groups of
        // `nthreads` (each chunk's blocks then on one thread): the chunks do not depend on the
        // thread count, and they are kept in grid order.
        let group = match self.fill {
            Fill::Data(_) if cfg!(feature = "std") => {
                usize::try_from(self.cparams.nthreads).unwrap_or(1).max(1)
            }
            _ => 1,
        };
        let mut done = 0usize;
        while done < lay.nchunks {
            let n = group.min(lay.nchunks - done);
            let mut places = Vec::new();
            crate::container::limits::try_reserve(&mut places, n, "a group of chunks", 0)?;
            for _ in 0..n {
                places.push(coords.clone());
                let _ = odometer(&mut coords, &lay.grid);
            }
            for c in self.make_chunks(&places, &lay)? {
                frame.chunks.push(c);
                done += 1;
                progress((lay.chunk_nbytes as u64).saturating_mul(done as u64), total);
            }
        }
        Ok(frame)
    }

    /// The array checked, its frame without chunks (header parameters, `b2nd` and the user
    /// metalayers, vlmetalayers) and the layout of its chunks.
    pub(super) fn layout(&self) -> Result<(Frame, Layout)> {
        self.check()?;
        let ts = self.typesize;
        let meta = B2nd {
            version: 0,
            ndim: self.shape.len() as u8,
            shape: self.shape.clone(),
            chunkshape: self.chunkshape.clone(),
            blockshape: self.blockshape.clone(),
            dtype_format: 0,
            dtype: &self.dtype,
        };
        let ext: Vec<usize> = self
            .chunkshape
            .iter()
            .zip(&self.blockshape)
            .map(|(&c, &b)| if b == 0 { 0 } else { (c as usize).div_ceil(b as usize) * b as usize })
            .collect();
        let chunk_nbytes = ext
            .iter()
            .try_fold(ts, |a, &e| a.checked_mul(e))
            .ok_or_else(|| Error::invalid("a chunk size that fits", "usize", "overflow", 0))?;
        let blocksize = self.blockshape.iter().fold(ts, |a, &b| a.saturating_mul(b as usize));
        let grid: Vec<usize> = self
            .shape
            .iter()
            .zip(&self.chunkshape)
            .map(|(&s, &c)| if s == 0 { 0 } else { (s as usize).div_ceil(c as usize) })
            .collect();
        let nchunks = grid
            .iter()
            .try_fold(1usize, |a, &g| a.checked_mul(g))
            .ok_or_else(|| Error::no_memory("the chunk count", u64::MAX, 0))?;

        let mut frame = Frame::new(ts as i32);
        frame.cparams = self.cparams;
        frame.blocksize = i32::try_from(blocksize)
            .map_err(|_| Error::invalid("a block of at most 2 GiB", "", blocksize, 0))?;
        frame.chunksize = i32::try_from(chunk_nbytes)
            .map_err(|_| Error::invalid("a chunk of at most 2 GiB", "", chunk_nbytes, 0))?;
        frame.metalayers.push(("b2nd".into(), crate::schema::codec::encode_to_vec(&meta)?));
        frame.metalayers.extend(self.metalayers.iter().cloned());
        frame.vlmetalayers = self.vlmetalayers.clone();
        let geometry = Geometry::new(&self.shape, &self.chunkshape, &self.blockshape);
        Ok((frame, Layout { chunk_nbytes, blocksize, grid, nchunks, geometry }))
    }

    /// The chunks at grid places `places`, in that order: several at once on scoped threads
    /// when there are several (one thread each, compressing its blocks alone).
    fn make_chunks(&self, places: &[Vec<usize>], lay: &Layout) -> Result<Vec<Chunk>> {
        #[cfg(feature = "std")]
        if places.len() > 1 {
            let one = CParams { nthreads: 1, ..self.cparams };
            return std::thread::scope(|s| {
                let handles: Vec<_> =
                    places.iter().map(|at| s.spawn(move || self.make_chunk(at, lay, &one))).collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(Error::invalid("a chunk compressed on its thread", "", "a panic", 0))
                        })
                    })
                    .collect()
            });
        }
        places.iter().map(|at| self.make_chunk(at, lay, &self.cparams)).collect()
    }

    /// The chunk at grid place `at`.
    pub(super) fn make_chunk(&self, at: &[usize], lay: &Layout, cparams: &CParams) -> Result<Chunk> {
        let nbytes = lay.chunk_nbytes as u64;
        Ok(match self.fill {
            Fill::Data(data) => self.data_chunk(data, 0, at, lay, cparams, Vec::new(), None)?,
            Fill::Zeros => Chunk::Special { kind: SpecialValue::Zeros, nbytes },
            Fill::Nan => Chunk::Special { kind: SpecialValue::Nan, nbytes },
            Fill::Uninit => Chunk::Special { kind: SpecialValue::Uninit, nbytes },
            Fill::Value(v) => Chunk::Stored(chunk::repeat_value(v, lay.chunk_nbytes, lay.blocksize)?),
        })
    }

    /// The chunk at grid place `at` of items `data`, which are the array's items from item
    /// `first` on in C order (the whole array, or the slab of chunk rows the chunk lies in). A
    /// chunk whose items are one contiguous run of `data` in its own order (no padding, blocks
    /// that are whole rows) is compressed from `data` itself, without a copy. The chunk's bytes
    /// are written into `out` (its capacity reused: a buffer of a chunk written before), and
    /// `watch` is told of them as its blocks are appended.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn data_chunk(
        &self,
        data: &[u8],
        first: usize,
        at: &[usize],
        lay: &Layout,
        cparams: &CParams,
        mut out: Vec<u8>,
        watch: Option<&dyn b2schema_chunk::compress::Watch>,
    ) -> Result<Chunk> {
        let ts = self.typesize;
        let bytes;
        let src = match contiguous(&lay.geometry, at)? {
            Some((start, len)) => {
                let from = start.checked_sub(first).and_then(|i| i.checked_mul(ts));
                from.and_then(|f| data.get(f..f.checked_add(len.checked_mul(ts)?)?)).ok_or_else(|| {
                    Error::invalid("the items of a chunk inside the data", data.len(), start, 0)
                })?
            }
            None => {
                bytes = self.chunk_data(data, first, at, &lay.geometry)?;
                &bytes[..]
            }
        };
        // The array's shapes reach the n-dimensional codecs and filters (ZFP, ndcell, ndmean),
        // as c-blosc2's read them from the `b2nd` metalayer.
        let registry = b2schema_chunk::Registry::new().with_array_shapes(&self.chunkshape, &self.blockshape);
        chunk::compressed_into(src, ts, lay.blocksize, cparams, &registry, &mut out, watch)?;
        Self::made(out, watch.is_some())
    }

    /// The chunk compressed into `out`; `watched`: written out as it was made, its bytes after
    /// its block table partly taken ([`Chunk::from_streamed`]).
    fn made(out: Vec<u8>, watched: bool) -> Result<Chunk> {
        #[cfg(feature = "std")]
        if watched {
            return Chunk::from_streamed(out);
        }
        let _ = watched;
        Chunk::from_compressed(out)
    }

    /// [`data_chunk`](Self::data_chunk) of a chunk whose items are one run of the array's, in
    /// order ([`contiguous`]), arriving while it is compressed (std).
    #[cfg(feature = "std")]
    pub(super) fn arriving_chunk(
        &self,
        src: &b2schema_chunk::compress::Arriving,
        lay: &Layout,
        cparams: &CParams,
        mut out: Vec<u8>,
        watch: Option<&dyn b2schema_chunk::compress::Watch>,
    ) -> Result<Chunk> {
        let registry = b2schema_chunk::Registry::new().with_array_shapes(&self.chunkshape, &self.blockshape);
        chunk::compressed_arriving(src, self.typesize, lay.blocksize, cparams, &registry, &mut out, watch)?;
        Self::made(out, watch.is_some())
    }

    /// The bytes of the chunk at grid `coords` (of `data`, the array's items from item `first`
    /// on): blocks in C order, items in C order inside each block, zeros where the extended
    /// chunk passes the chunk or the array.
    fn chunk_data(
        &self,
        data: &[u8],
        first: usize,
        coords: &[usize],
        geometry: &Geometry,
    ) -> Result<Vec<u8>> {
        let ts = self.typesize;
        let n = geometry
            .chunk_items()
            .and_then(|n| n.checked_mul(ts))
            .ok_or_else(|| Error::invalid("a chunk of at most 2 GiB", "", "an overflowing chunk shape", 0))?;
        let mut out = crate::container::limits::try_zeros(n, "a chunk being written", 0)?;
        geometry.each_run(coords, |r| {
            let from = r.array_at.checked_sub(first).map(|i| i * ts);
            let src = from.and_then(|f| data.get(f..f + r.len * ts)).ok_or_else(|| {
                Error::invalid("the items of a chunk inside the data", data.len(), r.array_at, 0)
            })?;
            out[r.chunk_at * ts..(r.chunk_at + r.len) * ts].copy_from_slice(src);
            Ok(())
        })?;
        Ok(out)
    }
}

/// How an array's chunks are laid out (from [`NdArray::layout`]).
pub(super) struct Layout {
    /// Bytes of a padded chunk.
    pub chunk_nbytes: usize,
    /// Bytes of a block.
    pub blocksize: usize,
    /// Chunks per dimension.
    pub grid: Vec<usize>,
    /// Chunks in all.
    pub nchunks: usize,
    /// Where each chunk's items are in the array.
    pub geometry: Geometry,
}

/// `Some((first item, items))` when the chunk at `at` is one run of the array's items in its
/// own order, covering the whole padded chunk (no padding to add, nothing to reorder).
pub(super) fn contiguous(geometry: &Geometry, at: &[usize]) -> Result<Option<(usize, usize)>> {
    let Some(items) = geometry.chunk_items() else { return Ok(None) };
    let mut run: Option<(usize, usize)> = None;
    let mut whole = true;
    geometry.each_run(at, |r| {
        match run {
            None if r.chunk_at == 0 => run = Some((r.array_at, r.len)),
            Some((a, n)) if whole && r.chunk_at == n && r.array_at == a + n => run = Some((a, n + r.len)),
            _ => whole = false,
        }
        Ok(())
    })?;
    Ok(run.filter(|&(_, n)| whole && n == items))
}

/// A frame of plain bytes cut into chunks of `chunksize` bytes (the last one may be shorter), as
/// a python-blosc2 `SChunk`: chunks compressed with `cparams` (zero chunks as special index
/// entries), header chunksize `chunksize` (-1 when there is no
/// data, as python leaves it).
pub fn schunk(data: &[u8], typesize: usize, chunksize: usize, cparams: CParams) -> Result<Frame> {
    schunk_with(data, typesize, chunksize, cparams, b2schema_chunk::Registry::builtin())
}

/// [`schunk`] with `registry`'s plugin codecs and filters besides the built-in ones (a user
/// codec or filter id in `cparams` is compressed with its registered plugin).
pub fn schunk_with(
    data: &[u8],
    typesize: usize,
    chunksize: usize,
    cparams: CParams,
    registry: &b2schema_chunk::Registry,
) -> Result<Frame> {
    if chunksize == 0 || typesize == 0 || !chunksize.is_multiple_of(typesize) {
        return Err(Error::invalid(
            "a chunksize that is a positive multiple of the typesize",
            typesize,
            chunksize,
            0,
        ));
    }
    let mut frame = Frame::new(typesize as i32);
    frame.cparams = cparams;
    if !data.is_empty() {
        frame.chunksize = i32::try_from(chunksize)
            .map_err(|_| Error::invalid("a chunk of at most 2 GiB", "", chunksize, 0))?;
    }
    for piece in data.chunks(chunksize) {
        frame
            .chunks
            .push(Chunk::from_compressed(chunk::compressed_with(piece, typesize, 0, &cparams, registry)?)?);
    }
    Ok(frame)
}
