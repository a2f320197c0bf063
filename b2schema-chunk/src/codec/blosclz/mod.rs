//! BloscLZ (codec 0): c-blosc2's own LZ77 codec, both directions in this crate; the encoder is
//! byte-identical to c-blosc2's.

mod decode;
mod encode;

pub(crate) use decode::decompress;
pub(crate) use encode::{compress, compress_1x};
