//! A vlmetalayer's value, decompressed: the one reader of vlmetalayers for everything above the
//! frame (`Container::vlmeta`, BatchArrays, embed stores).

use alloc::vec::Vec;

use super::file::FrameFile;
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::Limit;

impl FrameFile {
    /// The decompressed bytes of vlmetalayer `name` (its msgpack, as python-blosc2 writes it), or
    /// `None` when the frame has none: decoded with the frame's registry, within
    /// [`Limits::max_decompressed`](crate::Limits::max_decompressed) (checked from the chunk's
    /// header before anything is allocated); errors name `vlmetalayers["name"]`.
    pub fn vlmeta_data(&self, name: &str) -> Result<Option<Vec<u8>>> {
        let view = self.view()?;
        let Some(content) = view.vlmetalayer(name) else { return Ok(None) };
        let at = |e: Error| e.in_segment(Segment::Key(name.into())).in_field("vlmetalayers");
        let ch = b2schema_chunk::ChunkHeader::parse(content).map_err(|e| at(Error::chunk(e, 0)))?;
        let n = ch.uncompressed_len() as u64;
        self.limits().require("a vlmetalayer value", n, Limit::Decompressed, 0).map_err(at)?;
        b2schema_chunk::Decoder::new(self.registry())
            .max_nbytes(n as usize)
            .decompress(content)
            .map(Some)
            .map_err(|e| at(Error::chunk(e, 0)))
    }
}
