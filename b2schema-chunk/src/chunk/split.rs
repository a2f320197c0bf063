//! How blocks are cut into streams: [`Split`], c-blosc2's split modes.

/// How blocks are cut into streams (`BLOSC_*_SPLIT`, values 1 to 4); a frame header keeps it
/// in its `other_flags` byte as `splitmode - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// `BLOSC_ALWAYS_SPLIT` (1): one stream per byte of the type; also what frames older than
    /// c-blosc2 2.5 read back as.
    Always,
    /// `BLOSC_NEVER_SPLIT` (2): one stream per block.
    Never,
    /// `BLOSC_AUTO_SPLIT` (3): c-blosc2's rule.
    Auto,
    /// `BLOSC_FORWARD_COMPAT_SPLIT` (4): the same rule, c-blosc2's default.
    ForwardCompat,
}

impl Split {
    /// From c-blosc2's value (1 to 4); others are `None`.
    pub const fn from_value(v: u8) -> Option<Split> {
        Some(match v {
            1 => Split::Always,
            2 => Split::Never,
            3 => Split::Auto,
            4 => Split::ForwardCompat,
            _ => return None,
        })
    }

    /// From a frame header's `other_flags` byte (bits 0-1 hold `splitmode - 1`).
    pub const fn from_other_flags(other: u8) -> Split {
        match Split::from_value((other & 0x03) + 1) {
            Some(split) => split,
            None => Split::ForwardCompat,
        }
    }

    /// The c-blosc2 value (1 to 4).
    pub const fn value(self) -> u8 {
        match self {
            Split::Always => 1,
            Split::Never => 2,
            Split::Auto => 3,
            Split::ForwardCompat => 4,
        }
    }

    /// `"always"`, `"never"`, `"auto"` or `"forward_compat"`, as python-blosc2 names them.
    pub const fn name(self) -> &'static str {
        match self {
            Split::Always => "always",
            Split::Never => "never",
            Split::Auto => "auto",
            Split::ForwardCompat => "forward_compat",
        }
    }
}
