//! The NDArray metalayer held against the frame header that carries it.

use alloc::vec::Vec;

use super::header::FrameHeader;
use crate::container::b2nd::NdMeta;

impl NdMeta {
    /// Differences between what the metalayer implies and what the frame header says (chunk
    /// size, block size, uncompressed size, chunk count), one sentence each; empty when they
    /// agree.
    pub fn inconsistencies(&self, header: &FrameHeader<'_>, nchunks: u64) -> Vec<alloc::string::String> {
        let mut out = Vec::new();
        let ts = header.typesize.max(0) as u64;
        let chunk = self.chunksize(ts);
        // An array with no chunks keeps the header's automatic chunksize (0 or -1).
        if self.nchunks() > 0 && header.chunksize as i64 != chunk as i64 {
            out.push(alloc::format!(
                "header chunksize {} but the chunk shape gives {chunk}",
                header.chunksize
            ));
        }
        if self.nchunks() != nchunks {
            out.push(alloc::format!(
                "the frame holds {nchunks} chunks but the shapes give {}",
                self.nchunks()
            ));
        }
        if header.nbytes as u64 != nchunks.saturating_mul(chunk) {
            out.push(alloc::format!("header nbytes {} but {nchunks} chunks of {chunk} bytes", header.nbytes));
        }
        match self.parsed_dtype() {
            Some(Ok(dt)) if dt.itemsize() as u64 != ts => out.push(alloc::format!(
                "dtype {} has an item size of {} but the header's typesize is {ts}",
                self.dtype.as_deref().unwrap_or(""),
                dt.itemsize()
            )),
            Some(Err(e)) if self.dtype_format == Some(0) || self.dtype_format.is_none() => {
                out.push(alloc::format!("dtype is not a NumPy dtype string: {e}"))
            }
            _ => {}
        }
        out
    }
}
