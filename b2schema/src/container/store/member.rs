//! What a store is made of: its form, its members and where each one's bytes are.

use std::path::PathBuf;

use alloc::string::String;

use super::embed::Embedded;

/// Which kind of store a path holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A ZIP of stored frames (`.b2z`).
    Zip,
    /// A directory of frames (`.b2d`).
    Directory,
    /// One EmbedStore frame (`.b2e`).
    Embed,
}

impl Form {
    /// `"zip"`, `"directory"` or `"embed"`.
    pub const fn name(self) -> &'static str {
        match self {
            Form::Zip => "zip",
            Form::Directory => "directory",
            Form::Embed => "embed",
        }
    }
}

/// Where a member's bytes are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A stored ZIP member: its frame at `offset` of the `.b2z`, `len` bytes.
    Zip {
        /// Its name in the ZIP.
        name: String,
        /// Where its local header starts.
        local_offset: u64,
        /// Its stored length.
        len: u64,
        /// Where the next member starts (its bytes end by then).
        limit: u64,
    },
    /// A ZIP member compressed with `method` (8: deflate) or encrypted: not a frame where it
    /// lies, so it is listed but not opened.
    Compressed {
        /// Its name in the ZIP.
        name: String,
        /// The ZIP method.
        method: u16,
        /// Whether it is encrypted (general-purpose flag bit 0).
        encrypted: bool,
    },
    /// A file of a `.b2d` directory.
    File(PathBuf),
    /// A member of the embed store.
    Embedded(Embedded),
}

/// A member of a store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its key (`/g/x`).
    pub key: String,
    /// Where it is.
    pub place: Place,
}
