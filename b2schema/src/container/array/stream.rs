//! A frame's data, streamed: an NDArray's items in C order (here, because an NDArray is read
//! through the [`ArrayReader`](super::ArrayReader), above the frame readers) or an SChunk's
//! chunks in turn (`frame/data.rs`), written as they are decompressed so that memory stays
//! bounded whatever the data's size.

use std::io::Write;

use crate::container::b2nd::Geometry;
use crate::container::error::{Error, Result};
use crate::container::frame::FrameFile;
use crate::container::limits::{Limit, Limits};

impl FrameFile {
    /// Writes the frame's data to `out`: an NDArray's items in C order (padding and block order
    /// undone), or an SChunk's chunks one after the other. Returns the bytes written, exactly
    /// [`FrameFile::data_len`]; anything else is an error before that many are written.
    ///
    /// Memory is bounded: one chunk at a time for an SChunk; for an NDArray one piece of the
    /// output ([`PIECE_BYTES`]) and one block per thread (within [`Limits::max_decompressed`]),
    /// as [`super::ArrayReader::read_to`] reads it; the total is
    /// checked against [`Limits::max_output`] before the first byte, every chunk's `nbytes`
    /// against the frame's geometry before it is read.
    pub fn write_data(&self, out: &mut dyn Write) -> Result<u64> {
        if self.ndarray_meta()?.is_some() { self.write_ndarray(out) } else { self.write_schunk(out) }
    }

    /// [`FrameFile::write_data`] for an NDArray, decoded on the available cores.
    pub fn write_ndarray(&self, out: &mut dyn Write) -> Result<u64> {
        self.write_ndarray_with(out, &super::ReadOptions::default())
    }

    /// [`FrameFile::write_ndarray`] decoded on `opts.nthreads` threads (the output is the same
    /// whatever the count).
    pub fn write_ndarray_with(&self, out: &mut dyn Write, opts: &super::ReadOptions) -> Result<u64> {
        let v = self.view()?;
        let meta = self.ndarray_meta()?.ok_or_else(|| {
            Error::invalid("an NDArray (a b2nd or caterva metalayer)", "b2nd", "an SChunk", 87)
        })?;
        let ts = v.header.typesize as u64;
        let total = self.data_len()?;
        self.limits().require("the array's data (prod(shape) * typesize)", total, Limit::Output, 87)?;
        let geometry = Geometry::new(&meta.shape, &meta.chunkshape, &meta.blockshape);
        let nchunks = meta.nchunks();
        Limits::check("the chunk grid (chunks)", nchunks, Limit::Chunks, self.limits().max_chunks(), 87)?;
        // Every chunk holds the padded chunk shape, one per cell of the grid: all checked from
        // their headers before any is read (a local frame).
        let chunk_bytes = geometry.chunk_items().and_then(|n| (n as u64).checked_mul(ts));
        let mut count = 0u64;
        // Over a remote source a chunk's header costs a request (or a read-ahead of the whole
        // frame before the read that needs it): the chunks are counted from the index, and the
        // reader checks each one's size from its header as it reads it (the same error, after
        // the items of the chunks before it).
        let remote = self.min_read() > 0;
        if remote {
            count = v.chunk_locations_with_limit(self.limits().max_chunks())?.len() as u64;
        } else {
            self.for_each_chunk(|info| {
                count += 1;
                if Some(info.nbytes) != chunk_bytes {
                    return Err(Error::invalid(
                        "a chunk of the padded chunk shape, bytes:",
                        chunk_bytes.map_or_else(|| "more than 2^64".into(), |b| alloc::format!("{b}")),
                        info.nbytes,
                        4,
                    )
                    .in_segment(crate::format::error::Segment::Index(info.index))
                    .in_field("chunks"));
                }
                Ok(())
            })?;
        }
        if count != nchunks {
            return Err(Error::invalid("one chunk per cell of the chunk grid:", nchunks, count, 87)
                .in_field("chunk_index"));
        }
        if total == 0 {
            return Ok(0);
        }
        // Every chunk checked: the items stream out in pieces, each decoded on `opts.nthreads`
        // threads from only the blocks it needs.
        let reader = super::ArrayReader::new(self)?;
        let opts = super::ReadOptions { max_bytes: total, ..*opts };
        let mut written = 0u64;
        reader.read_to(&super::Selection::all(reader.shape()), &opts, PIECE_BYTES, |piece| {
            out.write_all(piece)?;
            written += piece.len() as u64;
            Ok(())
        })?;
        if written != total {
            return Err(Error::invalid("the array's bytes, written:", total, written, 87));
        }
        Ok(written)
    }
}

/// The most bytes of an NDArray's items [`FrameFile::write_ndarray`] holds at once (a piece is
/// never smaller than one band of the first dimension's block rows).
pub const PIECE_BYTES: usize = 16 << 20;
