//! What a member is, from its frame's metadata alone: its kind (by python-blosc2's metalayers),
//! shape and dtype (an NDArray's `b2nd`), codec and sizes (the frame header).

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::b2nd;
use crate::container::error::Result;
use crate::container::frame::{Codec, FrameFile, FrameHeader};

/// A member's kind, as python-blosc2 opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An NDArray (a `b2nd` or `caterva` metalayer).
    NdArray,
    /// A BatchArray or ListArray (`batcharray` / `listarray` metalayer).
    BatchArray,
    /// An ObjectArray (`vlarray` metalayer).
    ObjectArray,
    /// A nested store (`b2embed`, `b2dict` or `b2tree` metalayer).
    Store,
    /// A plain SChunk.
    SChunk,
}

impl Kind {
    /// `"ndarray"`, `"batcharray"`, `"objectarray"`, `"store"` or `"schunk"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::NdArray => "ndarray",
            Kind::BatchArray => "batcharray",
            Kind::ObjectArray => "objectarray",
            Kind::Store => "store",
            Kind::SChunk => "schunk",
        }
    }
}

/// A member's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// Its kind.
    pub kind: Kind,
    /// An NDArray's shape.
    pub shape: Option<Vec<i64>>,
    /// An NDArray's dtype string (`<f8`).
    pub dtype: Option<String>,
    /// The codec of its frame header.
    pub codec: Codec,
    /// Bytes per item.
    pub typesize: i32,
    /// Uncompressed bytes of its chunks.
    pub nbytes: i64,
    /// Its frame's length.
    pub frame_len: u64,
}

/// Describes the frame `f`.
pub fn describe(f: &FrameFile) -> Result<Description> {
    of_header(&f.view()?.header)
}

/// Describes the frame whose header (its first `header_len` bytes) is `bytes`: nothing past the
/// header is read or checked (an embedded member is listed without gathering its chunks).
pub fn of_header_bytes(bytes: &[u8]) -> Result<Description> {
    let (h, _) = crate::schema::codec::decode_take_from_slice::<FrameHeader<'_>>(bytes)
        .map_err(|e| e.or_field("header"))?;
    of_header(&h)
}

/// Describes the frame of header `h`.
fn of_header(h: &FrameHeader<'_>) -> Result<Description> {
    let layer = |n: &str| h.metalayers.get(n);
    let has = |n: &str| layer(n).is_some();
    let (kind, shape, dtype) = if let Some(raw) = layer("b2nd").or_else(|| layer("caterva")) {
        let meta = b2nd::read_any(raw)?;
        (Kind::NdArray, Some(meta.shape), meta.dtype)
    } else if has("batcharray") || has("listarray") {
        (Kind::BatchArray, None, None)
    } else if has("vlarray") {
        (Kind::ObjectArray, None, None)
    } else if has("b2embed") || has("b2dict") || has("b2tree") {
        (Kind::Store, None, None)
    } else {
        (Kind::SChunk, None, None)
    };
    Ok(Description {
        kind,
        shape,
        dtype,
        codec: h.codec(),
        typesize: h.typesize,
        nbytes: h.nbytes,
        frame_len: h.frame_len.max(0) as u64,
    })
}
