//! Just enough of the contiguous-frame format (facts doc sections 1, 2.1 and
//! 2.2) to find every chunk of a `.b2frame` / `.b2nd` file.

use b2schema::chunk::{ChunkHeader, decompress};

/// One chunk of a frame.
pub enum FrameChunk {
    /// A stored chunk: its bytes.
    Stored(Vec<u8>),
    /// A special value encoded in the offsets index: the 32-byte chunk
    /// c-blosc2's `frame_special_chunk` builds for it.
    Special { kind: u8, chunk: Vec<u8> },
}

fn be_u32(b: &[u8], off: usize) -> Result<u32, String> {
    b.get(off..off + 4)
        .map(|s| u32::from_be_bytes(s.try_into().unwrap()))
        .ok_or_else(|| format!("short frame at {off}"))
}

fn be_i64(b: &[u8], off: usize) -> Result<i64, String> {
    b.get(off..off + 8)
        .map(|s| i64::from_be_bytes(s.try_into().unwrap()))
        .ok_or_else(|| format!("short frame at {off}"))
}

/// The 32-byte special chunk c-blosc2 synthesises for an offsets entry.
pub fn special_chunk(kind: u8, nbytes: i32, typesize: i32, blocksize: i32) -> Vec<u8> {
    let mut c = vec![0u8; 32];
    c[0] = 5;
    c[1] = 1;
    c[2] = 0x05;
    c[3] = typesize as u8;
    c[4..8].copy_from_slice(&nbytes.to_le_bytes());
    let bs = if blocksize > 0 && blocksize <= nbytes { blocksize } else { nbytes };
    c[8..12].copy_from_slice(&bs.to_le_bytes());
    c[12..16].copy_from_slice(&32i32.to_le_bytes());
    c[31] = kind << 4;
    c
}

/// Locates every chunk of a contiguous frame.
pub fn chunks(frame: &[u8]) -> Result<Vec<FrameChunk>, String> {
    let header_len = be_u32(frame, 11)? as usize;
    let frame_len = be_i64(frame, 16)? as usize;
    if frame_len != frame.len() {
        return Err(format!("frame_len {frame_len} != file length {}", frame.len()));
    }
    if frame.get(26) != Some(&0) {
        return Err("not a contiguous frame".into());
    }
    let nbytes = be_i64(frame, 30)?;
    let cbytes = be_i64(frame, 39)? as usize;
    let typesize = be_u32(frame, 48)? as i32;
    let blocksize = be_u32(frame, 53)? as i32;
    let chunksize = be_u32(frame, 58)? as i32;
    if nbytes == 0 {
        return Ok(Vec::new());
    }
    let trailer_len = be_u32(frame, frame_len - 22)? as usize;
    let off_start = header_len + cbytes;
    let off_end = frame_len - trailer_len;
    let offsets_chunk = frame.get(off_start..off_end).ok_or("offsets chunk out of range")?;
    let raw = decompress(offsets_chunk).map_err(|e| format!("offsets chunk: {e}"))?;
    let offsets: Vec<i64> = raw.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect();
    let n = offsets.len();
    let mut out = Vec::with_capacity(n);
    for (i, &o) in offsets.iter().enumerate() {
        if o < 0 {
            let bits = ((o as u64) >> 56) as u8 & 0x7f;
            let kind = if bits & 1 != 0 {
                1
            } else if bits & 4 != 0 {
                4
            } else if bits & 2 != 0 {
                2
            } else {
                return Err(format!("chunk {i}: bad special offset {o:#x}"));
            };
            if chunksize <= 0 {
                return Err("special offset in a variable-chunk frame".into());
            }
            let last = nbytes % chunksize as i64;
            let size = if i + 1 == n && last != 0 { last as i32 } else { chunksize };
            out.push(FrameChunk::Special { kind, chunk: special_chunk(kind, size, typesize, blocksize) });
        } else {
            let start = header_len + o as usize;
            let h = ChunkHeader::peek(frame.get(start..).unwrap_or(&[]))
                .map_err(|e| format!("chunk {i} at {start}: {e}"))?;
            let end = start + h.compressed_len();
            let bytes = frame.get(start..end).ok_or_else(|| format!("chunk {i} out of range"))?;
            out.push(FrameChunk::Stored(bytes.to_vec()));
        }
    }
    Ok(out)
}
