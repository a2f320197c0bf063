//! A frame's data, streamed: an NDArray's items in C order or an SChunk's chunks in turn,
//! written as they are decompressed so that memory stays bounded whatever the data's size.

use std::io::Write;

use alloc::vec::Vec;

use super::file::FrameFile;
use super::index::{ChunkInfo, ChunkLocation, SpecialValue};
use crate::b2nd::{Geometry, NdMeta};
use crate::error::{Error, Result};
use crate::limits::{Limit, Limits, try_reserve};

impl FrameFile {
    /// The NDArray metalayer (`b2nd`, or the older `caterva`) of this frame, if any.
    pub fn ndarray_meta(&self) -> Result<Option<NdMeta>> {
        let v = self.view()?;
        match v.metalayer("b2nd").or_else(|| v.metalayer("caterva")) {
            None => Ok(None),
            Some(raw) => Ok(Some(crate::b2nd::read(raw).or_else(|_| crate::b2nd::read_compat(raw))?)),
        }
    }

    /// How many bytes [`FrameFile::write_data`] writes: an NDArray's `prod(shape) * typesize`,
    /// otherwise the header's `nbytes`.
    pub fn data_len(&self) -> Result<u64> {
        let v = self.view()?;
        match self.ndarray_meta()? {
            Some(meta) => meta.nitems().checked_mul(v.header.typesize as u64).ok_or_else(|| {
                Error::invalid("an array size that fits 64 bits", "prod(shape) * typesize", "an overflow", 87)
                    .in_field("metalayers")
            }),
            None => Ok(v.header.nbytes as u64),
        }
    }

    /// Writes the frame's data to `out`: an NDArray's items in C order (padding and block order
    /// undone), or an SChunk's chunks one after the other. Returns the bytes written, exactly
    /// [`FrameFile::data_len`]; anything else is an error before that many are written.
    ///
    /// Memory is bounded: one chunk at a time for an SChunk, one layer of chunks along the first
    /// dimension for an NDArray (each within [`Limits::max_decompressed`]); the total is
    /// checked against [`Limits::max_output`] before the first byte, every chunk's `nbytes`
    /// against the frame's geometry before it is read.
    pub fn write_data(&self, out: &mut dyn Write) -> Result<u64> {
        if self.ndarray_meta()?.is_some() { self.write_ndarray(out) } else { self.write_schunk(out) }
    }

    /// [`FrameFile::write_data`] for an SChunk: the chunks' data in order. Their `nbytes` must
    /// add up to the header's `nbytes` (checked from their headers before anything is written).
    pub fn write_schunk(&self, out: &mut dyn Write) -> Result<u64> {
        let total = self.data_len()?;
        self.limits().require("the frame's data (nbytes)", total, Limit::Output, 30)?;
        let mut sum = Some(0u64);
        self.for_each_chunk(|info| {
            sum = sum.and_then(|s| s.checked_add(info.nbytes));
            Ok(())
        })?;
        if sum != Some(total) {
            return Err(Error::invalid(
                "chunks adding up to the header's nbytes,",
                total,
                sum.map_or_else(|| "an overflow".into(), |s| alloc::format!("{s} bytes")),
                30,
            )
            .in_field("nbytes"));
        }
        let zeros = [0u8; 1 << 16];
        self.for_each_chunk(|info| {
            match info.location {
                // Zeros with no stored bytes: written from a small buffer, never allocated.
                ChunkLocation::Special(SpecialValue::Zeros | SpecialValue::Uninit) => {
                    let mut left = info.nbytes;
                    while left > 0 {
                        let n = left.min(zeros.len() as u64) as usize;
                        out.write_all(&zeros[..n])?;
                        left -= n as u64;
                    }
                }
                _ => out.write_all(&self.chunk_data(&info, usize::MAX)?)?,
            }
            Ok(())
        })?;
        Ok(total)
    }

    /// [`FrameFile::write_data`] for an NDArray.
    pub fn write_ndarray(&self, out: &mut dyn Write) -> Result<u64> {
        let v = self.view()?;
        let meta = self.ndarray_meta()?.ok_or_else(|| {
            Error::invalid("an NDArray (a b2nd or caterva metalayer)", "b2nd", "an SChunk", 87)
        })?;
        let ts = v.header.typesize as u64;
        let total = self.data_len()?;
        self.limits().require("the array's data (prod(shape) * typesize)", total, Limit::Output, 87)?;
        let geometry = Geometry::new(&meta.shape, &meta.chunkshape, &meta.blockshape);
        let grid = geometry.grid();
        let nchunks = meta.nchunks();
        Limits::check("the chunk grid (chunks)", nchunks, Limit::Chunks, self.limits().max_chunks(), 87)?;
        // Every chunk holds the padded chunk shape, one per cell of the grid: all checked from
        // their headers before any is read.
        let chunk_bytes = geometry.chunk_items().and_then(|n| (n as u64).checked_mul(ts));
        let mut count = 0u64;
        self.for_each_chunk(|info| {
            count += 1;
            if Some(info.nbytes) != chunk_bytes {
                return Err(Error::invalid(
                    "a chunk of the padded chunk shape, bytes:",
                    chunk_bytes.map_or_else(|| "more than 2^64".into(), |b| alloc::format!("{b}")),
                    info.nbytes,
                    4,
                )
                .in_segment(crate::Segment::Index(info.index))
                .in_field("chunks"));
            }
            Ok(())
        })?;
        if count != nchunks {
            return Err(Error::invalid("one chunk per cell of the chunk grid:", nchunks, count, 87)
                .in_field("chunk_index"));
        }
        if total == 0 {
            return Ok(0);
        }
        // A layer of chunks along the first dimension covers whole rows of the array: one
        // contiguous range of the output, written once all its chunks are in.
        let per_layer =
            grid.iter().skip(1).try_fold(1u64, |a, &g| a.checked_mul(g as u64)).unwrap_or(u64::MAX).max(1);
        let row_items =
            meta.shape.iter().skip(1).try_fold(1u64, |a, &s| a.checked_mul(s as u64)).unwrap_or(u64::MAX);
        let (rows, chunk_rows) = match (meta.shape.first(), meta.chunkshape.first()) {
            (Some(&s), Some(&c)) => (s as u64, c as u64),
            _ => (1, 1), // a scalar: one chunk of one item
        };
        let mut written = 0u64;
        let mut layer: Option<(u64, usize, Vec<u8>)> = None; // (layer number, first item, bytes)
        // The buffer of the last layer written, reused (zeroed again) for the next one.
        let mut spare: Vec<u8> = Vec::new();
        let mut flush = |layer: &mut Option<(u64, usize, Vec<u8>)>,
                         out: &mut dyn Write,
                         spare: &mut Vec<u8>|
         -> Result<()> {
            if let Some((_, _, buf)) = layer.take() {
                out.write_all(&buf)?;
                written += buf.len() as u64;
                *spare = buf;
            }
            Ok(())
        };
        self.for_each_chunk(|info| {
            let n = info.index as u64 / per_layer;
            if layer.as_ref().is_none_or(|(l, _, _)| *l != n) {
                flush(&mut layer, out, &mut spare)?;
                let first = n.saturating_mul(chunk_rows);
                let layer_rows = chunk_rows.min(rows.saturating_sub(first));
                let bytes =
                    layer_rows.checked_mul(row_items).and_then(|b| b.checked_mul(ts)).unwrap_or(u64::MAX);
                self.limits().require(
                    "a layer of chunks along the first dimension",
                    bytes,
                    Limit::Decompressed,
                    87,
                )?;
                let mut buf = core::mem::take(&mut spare);
                buf.clear();
                try_reserve(&mut buf, bytes as usize, "a layer of chunks", 87)?;
                buf.resize(bytes as usize, 0);
                layer = Some((n, first.saturating_mul(row_items) as usize, buf));
            }
            match layer.as_mut() {
                Some((_, base, buf)) => self.layer_chunk(&geometry, &grid, &info, ts as usize, *base, buf),
                None => Ok(()), // a layer was just started
            }
        })?;
        flush(&mut layer, out, &mut spare)?;
        if written != total {
            return Err(Error::invalid("the array's bytes, written:", total, written, 87));
        }
        Ok(written)
    }

    /// Copies the real items of chunk `info` into `buf`, the layer whose first item is item
    /// `base` of the array.
    fn layer_chunk(
        &self,
        geometry: &Geometry,
        grid: &[usize],
        info: &ChunkInfo,
        ts: usize,
        base: usize,
        buf: &mut [u8],
    ) -> Result<()> {
        // Zeros with no stored bytes: the layer is zeros already.
        if matches!(info.location, ChunkLocation::Special(SpecialValue::Zeros | SpecialValue::Uninit)) {
            return Ok(());
        }
        let data = self.chunk_data(info, usize::MAX)?;
        let coords = grid_coords(info.index, grid)?;
        let bad = || {
            Error::invalid("a chunk of the extended chunk shape, bytes:", "its runs inside it", data.len(), 0)
                .in_segment(crate::Segment::Index(info.index))
                .in_field("chunks")
        };
        geometry.each_run(&coords, |r| {
            let src =
                r.chunk_at.checked_mul(ts).and_then(|a| Some(a..a.checked_add(r.len.checked_mul(ts)?)?));
            let dst = r
                .array_at
                .checked_sub(base)
                .and_then(|a| a.checked_mul(ts))
                .and_then(|a| Some(a..a.checked_add(r.len.checked_mul(ts)?)?));
            let (Some(src), Some(dst)) = (src, dst) else { return Err(bad()) };
            let (Some(s), Some(d)) = (data.get(src), buf.get_mut(dst)) else { return Err(bad()) };
            d.copy_from_slice(s);
            Ok(())
        })
    }
}

/// The grid coordinates of chunk number `index` (C order over `grid`).
fn grid_coords(index: usize, grid: &[usize]) -> Result<Vec<usize>> {
    let mut coords = Vec::new();
    try_reserve(&mut coords, grid.len(), "chunk coordinates", 0)?;
    coords.resize(grid.len(), 0);
    let mut rest = index;
    for (c, &g) in coords.iter_mut().zip(grid).rev() {
        if g == 0 {
            return Err(Error::invalid("a chunk inside the grid", "no empty dimension", index, 0));
        }
        *c = rest % g;
        rest /= g;
    }
    Ok(coords)
}
