//! Arrays changed in place as python-blosc2 changes them: `resize` (c-blosc2's `b2nd_resize`:
//! the `b2nd` shape patched, chunks outside the new shape dropped, new chunks special zero
//! chunks, the padding of kept edge chunks read as it is), `write_slice` (`arr[sel] = data`:
//! only the chunks touched decoded and re-encoded with the frame's cparams) and `append` along
//! the first axis (a resize and a write in one change). Each call is one crash-safe change of
//! the frame ([`FrameMut`]).

#![cfg(feature = "std")]

use std::fs::File;
use std::path::Path;

use alloc::vec::Vec;
use core::ops::Range;

use super::append::FrameIo;
use super::edit::{ChunkReader, Edit, FrameMut};
use super::item::Item;
use super::{Chunk, chunk};
use crate::container::b2nd::{B2nd, Geometry, NdMeta, odometer};
use crate::container::error::{Error, Result};

/// An array (a `.b2nd` file, or a sparse frame's directory) opened for changes: a
/// [`FrameMut`] that knows the `b2nd` metalayer.
///
/// ```
/// use b2schema::writer::{Array, ArrayMut};
/// # let dir = std::env::temp_dir().join(format!("b2schema-doc-arraymut-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("rows.b2nd");
/// Array::from_slice(&[2, 3], &[1i32, 2, 3, 4, 5, 6])?.chunks(&[2, 2]).write_file(&path)?;
/// let mut a = ArrayMut::open(&path)?;
/// a.append(&[7i32, 8, 9])?;            // one more row
/// a.write_slice(&[0..1, 1..3], &[0i32, 0])?;
/// a.resize(&[3, 4])?;                  // a new column of zeros
/// drop(a);
/// let arr = b2schema::open(&path)?;
/// assert_eq!(arr.read_as::<i32>(":")?, [1, 0, 0, 0, 4, 5, 6, 0, 7, 8, 9, 0]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ArrayMut<F: FrameIo = File> {
    frame: FrameMut<F>,
}

impl ArrayMut<File> {
    /// Opens the array at `path` for changes (locked while the handle lives, see
    /// [`FrameMut::open`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let mut a = ArrayMut { frame: FrameMut::open(path)? };
        a.meta()?;
        Ok(a)
    }
}

/// The array's `b2nd` metalayer, read from an edit.
fn meta_of(e: &Edit) -> Result<NdMeta> {
    let content =
        e.b2nd().ok_or_else(|| Error::invalid("an array's frame (a b2nd metalayer)", "b2nd", "none", 0))?;
    let m = crate::container::b2nd::read(content)?;
    m.check()?;
    Ok(m)
}

fn shape_u64(m: &NdMeta) -> Vec<u64> {
    m.shape.iter().map(|&s| s.max(0) as u64).collect()
}

fn too_big() -> Error {
    Error::invalid("sizes that fit in memory", "usize", "an overflow", 0)
}

impl<F: FrameIo> ArrayMut<F> {
    /// The array at the start of `io` (a `.b2nd` in memory or any [`FrameIo`]; no lock).
    pub fn from_io(io: F) -> Result<Self> {
        let mut a = ArrayMut { frame: FrameMut::from_io(io) };
        a.meta()?;
        Ok(a)
    }

    /// Whether each change is synced to disk step by step (`true`, the default) or only
    /// written in order, as python-blosc2 writes ([`FrameMut::set_synced`]): an acquisition loop
    /// that can redo its last slabs after a crash of the machine saves the syncs' time.
    pub fn set_synced(&mut self, synced: bool) {
        self.frame.set_synced(synced);
    }

    /// The threads that compress the chunks a change makes ([`FrameMut::set_threads`]; the
    /// machine's cores unless told).
    pub fn set_threads(&mut self, threads: usize) {
        self.frame.set_threads(threads);
    }

    /// The frame underneath.
    pub fn frame(&mut self) -> &mut FrameMut<F> {
        &mut self.frame
    }

    /// The inner file or buffer (a contiguous frame).
    pub fn into_inner(self) -> Option<F> {
        self.frame.into_inner()
    }

    fn meta(&mut self) -> Result<NdMeta> {
        let mut out = None;
        // A read-only look: an edit that changes nothing is not committed.
        self.frame.peek(|e| {
            out = Some(meta_of(e)?);
            Ok(())
        })?;
        out.ok_or_else(|| Error::invalid("a b2nd metalayer", "b2nd", "none", 0))
    }

    /// The current shape.
    pub fn shape(&mut self) -> Result<Vec<u64>> {
        Ok(shape_u64(&self.meta()?))
    }

    /// Resizes the array to `shape` (same number of dimensions; any dimension grows or
    /// shrinks), as `arr.resize(shape)` does.
    pub fn resize(&mut self, shape: &[u64]) -> Result<()> {
        self.frame.edit(|e, _| resize(e, shape))
    }

    /// Writes `items` (C order, the selection's shape) at `sel`, one `start..end` per dimension,
    /// as `arr[sel] = items` does.
    pub fn write_slice<T: Item>(&mut self, sel: &[Range<u64>], items: &[T]) -> Result<()> {
        let bytes = item_bytes(items)?;
        self.write_bytes(sel, &bytes)
    }

    /// [`ArrayMut::write_slice`] of raw items (the array's dtype, C order).
    pub fn write_bytes(&mut self, sel: &[Range<u64>], bytes: &[u8]) -> Result<()> {
        self.frame.edit(|e, r| write(e, r, sel, bytes))
    }

    /// Appends `items` (whole rows: a multiple of the items of one index along the first axis)
    /// along the first axis, as `arr.resize(...)` then `arr[n:] = items`, in one change.
    pub fn append<T: Item>(&mut self, items: &[T]) -> Result<()> {
        let bytes = item_bytes(items)?;
        self.append_bytes(&bytes)
    }

    /// [`ArrayMut::append`] of raw items.
    pub fn append_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.append_all([bytes])
    }

    /// Appends each of `slabs` (raw items, whole rows each) in turn along the first axis, all in
    /// one change: one crash-safe switch (two syncs) for the lot, where a loop of
    /// [`ArrayMut::append_bytes`] makes one per slab. The new chunks are kept in memory until
    /// the switch: batch an unbounded stream (the command line commits every 64 MiB).
    pub fn append_all<'a>(&mut self, slabs: impl IntoIterator<Item = &'a [u8]>) -> Result<()> {
        self.frame.edit(|e, r| {
            for bytes in slabs {
                append_rows(e, r, bytes)?;
            }
            Ok(())
        })
    }
}

/// `bytes` (whole rows) appended along the first axis within the edit `e`: a resize, then a
/// write of the new rows.
fn append_rows<F: FrameIo>(e: &mut Edit, r: &mut ChunkReader<'_, F>, bytes: &[u8]) -> Result<()> {
    let m = meta_of(e)?;
    let mut shape = shape_u64(&m);
    let Some(&rows) = shape.first() else {
        return Err(Error::invalid("an array of at least one dimension", 1, 0, 0));
    };
    let row_bytes =
        shape[1..].iter().try_fold(e.typesize() as u64, |a, &s| a.checked_mul(s)).ok_or_else(too_big)?;
    if row_bytes == 0 || !(bytes.len() as u64).is_multiple_of(row_bytes) {
        return Err(Error::invalid("whole rows: a multiple of this many bytes,", row_bytes, bytes.len(), 0)
            .in_field("items"));
    }
    let add = bytes.len() as u64 / row_bytes;
    shape[0] = rows.checked_add(add).ok_or_else(too_big)?;
    resize(e, &shape)?;
    let mut sel: Vec<Range<u64>> = shape.iter().map(|&s| 0..s).collect();
    sel[0] = rows..shape[0];
    write(e, r, &sel, bytes)
}

/// Bytes of a padded chunk of `geometry`.
fn chunk_nbytes(geometry: &Geometry, ts: usize) -> Result<usize> {
    geometry.chunk_items().and_then(|n| n.checked_mul(ts)).ok_or_else(too_big)
}

fn format_opt(v: Option<usize>) -> alloc::string::String {
    v.map_or_else(|| "none".into(), |v| alloc::format!("{v}"))
}

fn item_bytes<T: Item>(items: &[T]) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    crate::container::limits::try_reserve(&mut bytes, items.len().saturating_mul(T::SIZE), "the items", 0)?;
    T::put(items, &mut bytes);
    Ok(bytes)
}

/// The chunks of a resize to `shape`: those inside both grids kept, the others dropped or new
/// (zeros), in C order over the new grid.
fn resize(e: &mut Edit, shape: &[u64]) -> Result<()> {
    let m = meta_of(e)?;
    if shape.len() != m.shape.len() {
        return Err(Error::invalid(
            "a shape of as many dimensions as the array's,",
            m.shape.len(),
            shape.len(),
            0,
        )
        .in_field("shape"));
    }
    let new_shape: Vec<i64> = shape
        .iter()
        .map(|&s| {
            i64::try_from(s).map_err(|_| Error::invalid("a dimension of at most 2^63 - 1", i64::MAX, s, 0))
        })
        .collect::<Result<_>>()?;
    let geometry = Geometry::new(&m.shape, &m.chunkshape, &m.blockshape);
    let want = chunk_nbytes(&geometry, e.typesize())?;
    if e.chunksize() != Some(want) {
        return Err(Error::invalid(
            "a chunksize of the b2nd chunk and block shapes' size,",
            want,
            format_opt(e.chunksize()),
            58,
        )
        .in_field("chunksize"));
    }
    let old = geometry.grid();
    let new = Geometry::new(&new_shape, &m.chunkshape, &m.blockshape).grid();
    let count = |g: &[usize]| g.iter().try_fold(1usize, |a, &n| a.checked_mul(n)).ok_or_else(too_big);
    let n_new = count(&new)?;
    if old != new {
        if n_new as u64 > crate::container::limits::DEFAULT_MAX_LOCATIONS {
            return Err(Error::invalid(
                "at most this many chunks:",
                crate::container::limits::DEFAULT_MAX_LOCATIONS,
                n_new,
                0,
            )
            .in_field("shape"));
        }
        if count(&old)? != e.nchunks() {
            return Err(Error::invalid(
                "as many chunks as the b2nd shape says,",
                count(&old)?,
                e.nchunks(),
                0,
            )
            .in_field("chunks"));
        }
        let mut from = Vec::with_capacity(n_new);
        let mut at = alloc::vec![0usize; new.len()];
        if n_new > 0 {
            loop {
                let inside = at.iter().zip(&old).all(|(&a, &o)| a < o);
                from.push(inside.then(|| at.iter().zip(&old).fold(0usize, |acc, (&a, &o)| acc * o + a)));
                if !odometer(&mut at, &new) {
                    break;
                }
            }
        }
        e.rearrange(&from)?;
    }
    let dtype = m.dtype.as_deref().unwrap_or("");
    let meta = B2nd {
        version: m.version,
        ndim: m.shape.len() as u8,
        shape: new_shape,
        chunkshape: m.chunkshape.clone(),
        blockshape: m.blockshape.clone(),
        dtype_format: m.dtype_format.unwrap_or(0),
        dtype,
    };
    e.set_b2nd(crate::schema::codec::encode_to_vec(&meta)?)
}

/// `arr[sel] = bytes`: each chunk the selection touches decoded, changed, re-encoded.
fn write<F: FrameIo>(
    e: &mut Edit,
    r: &mut ChunkReader<'_, F>,
    sel: &[Range<u64>],
    bytes: &[u8],
) -> Result<()> {
    let m = meta_of(e)?;
    let shape = shape_u64(&m);
    let nd = shape.len();
    let ts = e.typesize();
    if nd == 0 {
        return Err(Error::invalid("an array of at least one dimension", 1, 0, 0));
    }
    if sel.len() != nd {
        return Err(
            Error::invalid("a selection of one range per dimension:", nd, sel.len(), 0).in_field("selection")
        );
    }
    for (d, (s, &n)) in sel.iter().zip(&shape).enumerate() {
        if s.start > s.end || s.end > n {
            return Err(Error::invalid(
                "a range inside the dimension,",
                alloc::format!("0..={n}"),
                alloc::format!("{}..{} in dimension {d}", s.start, s.end),
                0,
            )
            .in_field("selection"));
        }
    }
    let sel_shape: Vec<usize> =
        sel.iter().map(|s| usize::try_from(s.end - s.start).map_err(|_| too_big())).collect::<Result<_>>()?;
    let want = sel_shape.iter().try_fold(ts, |a, &s| a.checked_mul(s)).ok_or_else(too_big)?;
    if want != bytes.len() {
        return Err(Error::invalid("the selection's items:", want, bytes.len(), 0).in_field("items"));
    }
    if want == 0 {
        return Ok(());
    }
    let geometry = Geometry::new(&m.shape, &m.chunkshape, &m.blockshape);
    let chunk_len = chunk_nbytes(&geometry, ts)?;
    let grid = geometry.grid();
    let cs: Vec<u64> = m.chunkshape.iter().map(|&c| c.max(1) as u64).collect();
    // The chunks touched: per dimension, from the chunk of the first selected index to that of
    // the last.
    let lo: Vec<usize> = sel.iter().zip(&cs).map(|(s, &c)| (s.start / c) as usize).collect();
    let span: Vec<usize> =
        sel.iter().zip(&cs).zip(&lo).map(|((s, &c), &l)| ((s.end - 1) / c) as usize - l + 1).collect();
    let ashape: Vec<usize> = shape.iter().map(|&s| s as usize).collect();
    let registry = b2schema_chunk::Registry::new().with_array_shapes(&m.chunkshape, &m.blockshape);
    let cparams = e.cparams();
    let mut k = alloc::vec![0usize; nd];
    let mut coords = alloc::vec![0usize; nd];
    let mut idx = alloc::vec![0usize; nd];
    loop {
        for d in 0..nd {
            coords[d] = lo[d] + k[d];
        }
        let n = coords.iter().zip(&grid).fold(0usize, |acc, (&c, &g)| acc * g + c);
        let mut data = r.chunk_data(e, n)?;
        if data.len() != chunk_len {
            return Err(Error::invalid(
                "chunks of the b2nd chunk and block shapes' size,",
                chunk_len,
                data.len(),
                0,
            )
            .in_segment(crate::format::error::Segment::Index(n))
            .in_field("chunks"));
        }
        geometry.each_run(&coords, |run| {
            // The run's first item as an index of the array.
            let mut rest = run.array_at;
            for d in (0..nd).rev() {
                idx[d] = rest % ashape[d].max(1);
                rest /= ashape[d].max(1);
            }
            for d in 0..nd - 1 {
                if (idx[d] as u64) < sel[d].start || idx[d] as u64 >= sel[d].end {
                    return Ok(());
                }
            }
            let last = nd - 1;
            let (a, b) = (idx[last] as u64, idx[last] as u64 + run.len as u64);
            let (from, to) = (a.max(sel[last].start), b.min(sel[last].end));
            if from >= to {
                return Ok(());
            }
            let mut src = 0usize;
            for d in 0..nd {
                let i = if d == last { from } else { idx[d] as u64 } - sel[d].start;
                src = src * sel_shape[d] + i as usize;
            }
            let len = (to - from) as usize * ts;
            let dst = (run.chunk_at + (from - a) as usize) * ts;
            data[dst..dst + len].copy_from_slice(&bytes[src * ts..src * ts + len]);
            Ok(())
        })?;
        let c = chunk::compressed_with(&data, ts, e.blocksize(), &cparams, &registry)?;
        e.update_chunk(n, &Chunk::from_compressed(c)?)?;
        if !odometer(&mut k, &span) {
            return Ok(());
        }
    }
}
