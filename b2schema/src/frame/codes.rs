//! Names of the numeric codes in a frame header: codecs, filters, split modes, frame types.

pub use crate::chunk::{codec_name, filter_name};

/// How blocks are split into streams (`other_flags` holds `splitmode - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitMode {
    /// `BLOSC_ALWAYS_SPLIT` (1); also what files older than c-blosc2 2.5 read back as.
    Always,
    /// `BLOSC_NEVER_SPLIT` (2).
    Never,
    /// `BLOSC_AUTO_SPLIT` (3).
    Auto,
    /// `BLOSC_FORWARD_COMPAT_SPLIT` (4).
    ForwardCompat,
}

impl SplitMode {
    /// From the `other_flags` byte (bits 0-1).
    pub const fn from_other_flags(other: u8) -> SplitMode {
        match other & 0x03 {
            0 => SplitMode::Always,
            1 => SplitMode::Never,
            2 => SplitMode::Auto,
            _ => SplitMode::ForwardCompat,
        }
    }

    /// The c-blosc2 value (1 to 4).
    pub const fn value(self) -> u8 {
        match self {
            SplitMode::Always => 1,
            SplitMode::Never => 2,
            SplitMode::Auto => 3,
            SplitMode::ForwardCompat => 4,
        }
    }

    /// `"always"`, `"never"`, `"auto"` or `"forward_compat"`.
    pub const fn name(self) -> &'static str {
        match self {
            SplitMode::Always => "always",
            SplitMode::Never => "never",
            SplitMode::Auto => "auto",
            SplitMode::ForwardCompat => "forward_compat",
        }
    }
}

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
