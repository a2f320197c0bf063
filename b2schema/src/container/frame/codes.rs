//! Names of the numeric codes in a frame header: codecs, filters, split modes, frame types.

/// How blocks are split into streams: the chunk codec's [`Split`](crate::chunk::compress::Split).
pub use b2schema_chunk::compress::Split as SplitMode;
pub use b2schema_chunk::{Codec, Filter};

/// Whether a frame is one contiguous buffer or a sparse directory's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameType {
    /// `FRAME_CONTIGUOUS_TYPE` (0): a cframe file or buffer.
    Contiguous,
    /// `FRAME_DIRECTORY_TYPE` (1): the `chunks.b2frame` of a sparse frame.
    Sparse,
}

impl FrameType {
    /// `"contiguous"` or `"sparse"`.
    pub const fn name(self) -> &'static str {
        match self {
            FrameType::Contiguous => "contiguous",
            FrameType::Sparse => "sparse",
        }
    }
}
