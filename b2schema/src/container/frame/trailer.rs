//! The frame trailer: `fixarray(4)[version, vlmetalayers, uint32 trailer_len, fixext16 fingerprint]`.

use b2schema_derive::B2Layout;

use super::MetaLayers;

/// The trailer of a frame (`frame_update_trailer` in c-blosc2's `frame.c`). Its vlmetalayer
/// offsets are relative to the trailer's first byte; each value is a Blosc2 chunk.
#[derive(B2Layout, Debug, Clone, PartialEq)]
pub struct Trailer<'a> {
    /// Trailer format version (1).
    #[b2(fixint)]
    pub version: u8,
    /// The variable-length metalayers (index size counted from the `cd`, not the `93`).
    pub vlmetalayers: MetaLayers<'a, 6>,
    /// Length of the whole trailer (at `frame_len - 22`).
    #[b2(uint32, computed = self.vlmetalayers.encoded_len() + TRAILER_FIXED_LEN)]
    pub trailer_len: u32,
    /// Fingerprint: type 0 (none) and 16 zero bytes in every file written so far.
    #[b2(fixext16)]
    pub fingerprint: Fingerprint,
}

/// The trailer's fixext16 fingerprint.
#[derive(B2Layout, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[b2(packed)]
pub struct Fingerprint {
    /// 0: none (1 to 3 are reserved for XXH3 hashes, never written).
    pub kind: u8,
    /// The fingerprint bytes.
    pub value: [u8; 16],
}

/// Bytes of the trailer besides its vlmetalayers section: `94`, the version, `ce` + u32 and the
/// 18-byte fingerprint.
pub const TRAILER_FIXED_LEN: usize = 1 + 1 + 5 + 18;

/// Bytes after the trailer's `ce` marker: the uint32 trailer_len (4) and the fixext16
/// fingerprint (18). The `ce` itself is at `frame_len - 23`.
pub const TRAILER_LEN_FROM_END: usize = 22;
