//! The compression parameters of a frame, shared by its header and its chunks.

use crate::container::frame::SplitMode;
use b2schema_chunk::{Codec, Filter};

/// Compression parameters recorded in the header and the chunks. The default is python-blosc2's
/// for arrays: zstd, clevel 5, shuffle, auto split, one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CParams {
    /// The codec.
    pub codec: Codec,
    /// Codec meta.
    pub codec_meta: u8,
    /// Compression level (0 to 9).
    pub clevel: u8,
    /// The six filter slots.
    pub filters: [Filter; 6],
    /// Filter metas.
    pub filters_meta: [u8; 6],
    /// Split mode.
    pub splitmode: SplitMode,
    /// Dictionary flag.
    pub use_dict: bool,
    /// Thread counts written in the header (never read back by c-blosc2).
    pub nthreads: i16,
}

impl Default for CParams {
    fn default() -> Self {
        CParams {
            codec: Codec::Zstd,
            codec_meta: 0,
            clevel: 5,
            filters: b2schema_chunk::Params::SHUFFLE_LAST,
            filters_meta: [0; 6],
            splitmode: SplitMode::Auto,
            use_dict: false,
            nthreads: 1,
        }
    }
}
