//! Every chunk of a contiguous frame, as `SChunk.get_chunk(i)` returns it: found with the library
//! (`FrameView`), and for special index entries built by [`special_chunk`], a small independent
//! reference of the 32-byte chunk c-blosc2's `frame_special_chunk` synthesises (independent on
//! purpose: the tests compare its bytes with c-blosc2's, so it must not be the code under test).

use b2schema::chunk::ChunkHeader;
use b2schema::frame::{ChunkLocation, FrameView, SpecialValue};

/// One chunk of a frame.
pub enum FrameChunk {
    /// A stored chunk: its bytes.
    Stored(Vec<u8>),
    /// A special value encoded in the offsets index, with the 32-byte chunk c-blosc2 builds for it.
    Special {
        /// c-blosc2's special kind (1 zeros, 2 NaN, 4 uninit).
        kind: u8,
        /// The synthesised chunk.
        chunk: Vec<u8>,
    },
}

impl FrameChunk {
    /// The chunk's bytes, stored or synthesised.
    pub fn bytes(&self) -> &[u8] {
        match self {
            FrameChunk::Stored(b) => b,
            FrameChunk::Special { chunk, .. } => chunk,
        }
    }
}

/// The 32-byte special chunk c-blosc2 synthesises for an offsets entry of `kind` (1 zeros, 2 NaN,
/// 4 uninit): version 5, codec version 1, flags `0x05`, the typesize byte, `nbytes`, the frame's
/// blocksize when it fits in `nbytes` (else `nbytes`), `cbytes` 32, and the kind in bits 4-6 of
/// the last byte.
pub fn special_chunk(kind: u8, nbytes: i32, typesize: i32, blocksize: i32) -> Vec<u8> {
    let bs = if blocksize > 0 && blocksize <= nbytes { blocksize } else { nbytes };
    crate::chunk_header(0x05, typesize as u8, nbytes, bs, 32, kind << 4)
}

/// Every chunk of the contiguous frame `frame`, in order.
pub fn chunks(frame: &[u8]) -> Result<Vec<FrameChunk>, String> {
    let v = FrameView::from_slice(frame).map_err(|e| e.to_string())?;
    let h = &v.header;
    let locs = v.chunk_locations().map_err(|e| e.to_string())?;
    let n = locs.len();
    let mut out = Vec::with_capacity(n);
    for (i, loc) in locs.into_iter().enumerate() {
        match loc {
            ChunkLocation::Offset(o) => {
                let start = v.header_bytes.len() + usize::try_from(o).map_err(|e| e.to_string())?;
                let rest = frame.get(start..).ok_or_else(|| format!("chunk {i} starts past the end"))?;
                let ch = ChunkHeader::peek(rest).map_err(|e| format!("chunk {i} at {start}: {e}"))?;
                let bytes =
                    rest.get(..ch.compressed_len()).ok_or_else(|| format!("chunk {i} out of range"))?;
                out.push(FrameChunk::Stored(bytes.to_vec()));
            }
            ChunkLocation::Special(kind) => {
                let kind = match kind {
                    SpecialValue::Zeros => 1,
                    SpecialValue::Nan => 2,
                    SpecialValue::Uninit => 4,
                    SpecialValue::Value => return Err(format!("chunk {i}: a repeated value in the index")),
                };
                if h.chunksize <= 0 {
                    return Err("special offset in a variable-chunk frame".into());
                }
                let last = h.nbytes % i64::from(h.chunksize);
                let size = if i + 1 == n && last != 0 { last as i32 } else { h.chunksize };
                out.push(FrameChunk::Special {
                    kind,
                    chunk: special_chunk(kind, size, h.typesize, h.blocksize),
                });
            }
            ChunkLocation::File(id) => {
                return Err(format!("chunk {i}: in file {id:08X}.chunk of a sparse frame"));
            }
        }
    }
    Ok(out)
}
