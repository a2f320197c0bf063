//! The compression parameters of a frame, shared by its header and its chunks.

use crate::container::frame::SplitMode;

/// Compression parameters recorded in the header and the chunks. The default is python-blosc2's
/// for arrays: zstd, clevel 5, shuffle, auto split, one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CParams {
    /// The codec id (compcode): 0 blosclz, 1 lz4, 2 lz4hc, 4 zlib, 5 zstd, 32+ plugins.
    pub codec: u8,
    /// Codec meta.
    pub codec_meta: u8,
    /// Compression level (0 to 9).
    pub clevel: u8,
    /// Filter ids.
    pub filters: [u8; 6],
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
            codec: 5,
            codec_meta: 0,
            clevel: 5,
            filters: [0, 0, 0, 0, 0, 1],
            filters_meta: [0; 6],
            splitmode: SplitMode::Auto,
            use_dict: false,
            nthreads: 1,
        }
    }
}
