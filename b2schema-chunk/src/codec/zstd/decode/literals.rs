//! The literals section of a compressed block (RFC 8878 §3.1.1.3.1): raw, RLE, Huffman-coded
//! with a new table or the previous one ("treeless"), in one stream or four. Checks and limits as
//! libzstd's `ZSTD_decodeLiteralsBlock`.

use super::super::dispatch::Build;
use super::huffman::{DecodeLiterals, HuffTable};
use alloc::vec::Vec;

/// Makes the literal buffer hold `size` (at most a block, checked before) plus the padding.
fn grow(buf: &mut Vec<u8>, size: usize) {
    if buf.len() < size + PAD {
        buf.resize(size + PAD, 0);
    }
}

/// Bytes kept past the literals in the literal buffer, so that short literal runs are copied
/// in fixed 16-byte moves.
pub(crate) const PAD: usize = 32;

/// Where the block's literals are.
#[derive(Clone, Copy)]
pub(crate) enum Literals {
    /// `input[start..start + len]` (raw literals, read in place).
    Input { start: usize, len: usize },
    /// The first `len` bytes of the literal buffer.
    Buffer { len: usize },
}

/// Parses the literals section at the start of `block` (whose first byte is at `input` offset
/// `base`): the literals and the bytes the section takes. `huf`/`huf_ok` are the frame's
/// Huffman table (replaced by a new one), `buf` the literal buffer, `build` the build of the
/// Huffman loop that runs.
pub(crate) fn read(
    block: &[u8],
    base: usize,
    block_max: usize,
    huf: &mut HuffTable,
    huf_ok: &mut bool,
    buf: &mut Vec<u8>,
    build: Build,
) -> Result<(Literals, usize), &'static str> {
    if block.len() < 2 {
        return Err("a compressed block of at least 2 bytes (literals section)");
    }
    let b0 = block[0];
    let kind = b0 & 3;
    let format = (b0 >> 2) & 3;
    match kind {
        0 | 1 => {
            let (lh, size) = match format {
                0 | 2 => (1, usize::from(b0 >> 3)),
                1 => (2, usize::from(u16::from_le_bytes([b0, block[1]]) >> 4)),
                _ => {
                    let b = block.get(..3).ok_or("a literals section header within the block")?;
                    (3, (usize::from(b[0]) | usize::from(b[1]) << 8 | usize::from(b[2]) << 16) >> 4)
                }
            };
            if size > block_max {
                return Err("at most the block maximum size of literals");
            }
            if kind == 0 {
                if lh + size > block.len() {
                    return Err("raw literals within the block");
                }
                Ok((Literals::Input { start: base + lh, len: size }, lh + size))
            } else {
                let &v = block.get(lh).ok_or("the byte of RLE literals within the block")?;
                grow(buf, size);
                grow(buf, size);
                let dst = buf.get_mut(..size).ok_or("at most the block maximum size of literals")?;
                dst.fill(v);
                Ok((Literals::Buffer { len: size }, lh + 1))
            }
        }
        _ => {
            if kind == 3 && !*huf_ok {
                return Err("a Huffman table from an earlier block or the dictionary (treeless literals)");
            }
            if block.len() < 5 {
                return Err("a compressed literals header within the block");
            }
            let lhc = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
            let (lh, size, csize, four) = match format {
                0 | 1 => (3, (lhc >> 4) & 0x3FF, (lhc >> 14) & 0x3FF, format == 1),
                2 => (4, (lhc >> 4) & 0x3FFF, lhc >> 18, true),
                _ => (5, (lhc >> 4) & 0x3FFFF, (lhc >> 22) + (u32::from(block[4]) << 10), true),
            };
            let (size, csize) = (size as usize, csize as usize);
            if size > block_max {
                return Err("at most the block maximum size of literals");
            }
            if four && size < 6 {
                return Err("at least 6 literals in four Huffman streams");
            }
            let src = block.get(lh..lh + csize).ok_or("Huffman-coded literals within the block")?;
            let mut streams = src;
            if kind == 2 {
                *huf_ok = false;
                let n = huf.read(src)?;
                *huf_ok = true;
                streams = &src[n..];
            }
            grow(buf, size);
            let dst = buf.get_mut(..size).ok_or("at most the block maximum size of literals")?;
            build.run(DecodeLiterals { table: huf, src: streams, out: dst, four })?;
            Ok((Literals::Buffer { len: size }, lh + csize))
        }
    }
}
