//! LZ4 and LZ4HC (codecs 1 and 2, one format): a safe block decoder with wide copies (a
//! dictionary is the history before the output), and liblz4 1.10.0's `LZ4_compress_fast` and
//! `LZ4_compress_HC` encoders, byte-identical to c-blosc2's chunks.

mod decode;
mod encode;
pub(crate) mod hc;

pub(crate) use decode::decompress;
pub(crate) use encode::{acceleration, compress, compress_with_dict};
