//! python-blosc2's `ObjectArray` (metalayer `vlarray`; a `list` column stored with
//! `storage="vl"`): an SChunk whose every chunk is one ordinary Blosc2 chunk holding one
//! msgpack value.

use alloc::vec::Vec;

use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameFile;
use crate::container::limits::{Limit, Limits, try_reserve};
use crate::format::value::Cursor;

/// The metalayer that tags an ObjectArray.
pub const METALAYER: &str = "vlarray";

/// Every item of the ObjectArray in `frame`, each as its msgpack bytes, in order; at most
/// [`Limits::max_decompressed_total`] bytes are decompressed in all (an item's vector counted).
pub(super) fn raw_items(frame: &FrameFile) -> Result<Vec<Vec<u8>>> {
    let limits = frame.limits();
    let total = limits.max_decompressed_total();
    let chunks = frame.chunks()?;
    let mut out = Vec::new();
    let mut spent = 0u64;
    for info in &chunks {
        let at = |e: Error| e.in_segment(Segment::Index(info.index)).in_field("chunks");
        spent = spent.saturating_add(info.nbytes).saturating_add(core::mem::size_of::<Vec<u8>>() as u64);
        Limits::check("the items of an ObjectArray (in memory)", spent, Limit::DecompressedTotal, total, 0)
            .map_err(at)?;
        let max = usize::try_from(limits.max_decompressed()).unwrap_or(usize::MAX);
        let bytes = frame.chunk_data(info, max).map_err(at)?;
        let mut c = Cursor::new(&bytes);
        c.value().map_err(|e| at(e.into()))?;
        if !c.is_done() {
            return Err(at(Error::invalid(
                "a chunk that is one msgpack value and nothing after it: a value of",
                c.offset(),
                bytes.len(),
                c.offset(),
            )));
        }
        if out.is_empty() {
            try_reserve(&mut out, chunks.len(), "the items of an ObjectArray", 0)?;
        }
        out.push(bytes);
    }
    Ok(out)
}
