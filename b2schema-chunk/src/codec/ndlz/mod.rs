//! NDLZ (codec 32, c-blosc2's `ndlz` plugin): an LZ-like codec of 2-D blocks of 1-byte items
//! cut into cells of 4x4 (meta 4) or 8x8 (meta 8) items, each cell a literal, a repeat of an
//! earlier cell, a run of one byte, or rows matched against earlier rows of the stream.
//!
//! The stream starts with `ndim` (2) and the block's two sides (`int32` little-endian); its
//! cells follow in C order. [`decode`] is c-blosc2's decoder, [`encode`] its encoder (same
//! hashes, tables and choices: byte-identical streams).

mod decode;
mod encode;
mod xxh32;

use crate::registry::{CodecPlugin, PluginContext, PluginError};

/// c-blosc2's NDLZ plugin.
pub(crate) struct Ndlz;

impl CodecPlugin for Ndlz {
    fn name(&self) -> &str {
        "ndlz"
    }

    fn encode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError> {
        let bs = ctx
            .blockshape
            .ok_or(PluginError("the array's block shape (NDLZ needs the chunk of a b2nd array)"))?;
        let &[b0, b1] = bs else {
            return Err(PluginError(
                "a 2-D array for NDLZ (c-blosc2: \"This codec only works for ndim = 2\")",
            ));
        };
        if b0 < 0 || b1 < 0 || i64::from(b0) * i64::from(b1) != src.len() as i64 {
            return Err(PluginError("a block of exactly the array's block shape of 1-byte items for NDLZ"));
        }
        match ctx.meta {
            4 | 8 => Ok(encode::encode(src, dst, b0, b1, usize::from(ctx.meta))),
            _ => Err(PluginError("an NDLZ cell size (codec meta) of 4 or 8")),
        }
    }

    fn decode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError> {
        match ctx.meta {
            4 | 8 => decode::decode(src, dst, usize::from(ctx.meta))?,
            _ => return Err(PluginError("an NDLZ cell size (codec meta) of 4 or 8")),
        }
        Ok(dst.len())
    }
}
