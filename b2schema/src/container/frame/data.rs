//! A frame's data as the frame layer knows it: its NDArray metalayer, its data's length, and an
//! SChunk's chunks streamed in turn (an NDArray's items are streamed by the array reader, a
//! layer above: `array/stream.rs`).

use std::io::Write;

use crate::container::b2nd::NdMeta;
use crate::container::error::{Error, Result};
use crate::container::frame::{ChunkLocation, FrameFile, SpecialValue};
use crate::container::limits::Limit;

impl FrameFile {
    /// The NDArray metalayer (`b2nd`, or the older `caterva`) of this frame, if any.
    pub fn ndarray_meta(&self) -> Result<Option<NdMeta>> {
        let v = self.view()?;
        v.metalayer("b2nd")
            .or_else(|| v.metalayer("caterva"))
            .map(crate::container::b2nd::read_any)
            .transpose()
            .map_err(Into::into)
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
}
