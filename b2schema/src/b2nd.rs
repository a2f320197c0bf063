//! The `b2nd` metalayer of Blosc2 NDArrays (c-blosc2's `b2nd_serialize_meta`).

use alloc::vec::Vec;

use crate::B2Layout;

/// The current 7-element `b2nd` metalayer: `97 00 <ndim> 9N [d3 ...] 9N [d2 ...] 9N [d2 ...]
/// <dtype_format> db <len> <dtype>`. Its length is `12 + 19 * ndim + len(dtype)`.
///
/// The three shape arrays are c-blosc2 counted arrays: their marker is `0x90 + ndim` computed in
/// a byte, so 16 dimensions write `a0`.
#[derive(B2Layout, Debug, Clone, PartialEq, Eq)]
pub struct B2nd<'a> {
    /// Metalayer format version (0).
    #[b2(fixint)]
    pub version: u8,
    /// Number of dimensions (0 to 16).
    #[b2(fixint, computed = self.shape.len())]
    pub ndim: u8,
    /// Array shape.
    #[b2(counted)]
    pub shape: Vec<i64>,
    /// Chunk shape.
    #[b2(counted)]
    pub chunkshape: Vec<i32>,
    /// Block shape.
    #[b2(counted)]
    pub blockshape: Vec<i32>,
    /// 0: the dtype is a NumPy dtype string.
    #[b2(fixint)]
    pub dtype_format: u8,
    /// The dtype (`"<f8"`, `"|u1"`, `"[('a', '<i4')]"`).
    #[b2(str32)]
    pub dtype: &'a str,
}
