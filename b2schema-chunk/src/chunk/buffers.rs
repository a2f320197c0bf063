//! The compressor's buffers, allocated fallibly: a size that cannot be had is an error, not an
//! abort.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Expected, Found, num};
use crate::fields;

/// The error for a buffer of `n` bytes that cannot be allocated.
pub(crate) fn alloc_error(n: usize) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        fields::NBYTES,
        "nbytes",
        Expected::Text("an allocatable buffer size"),
        Found::Value(num(n)),
    )
}

/// `n` zero bytes.
pub(crate) fn try_zeroed(n: usize) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| alloc_error(n))?;
    v.resize(n, 0);
    Ok(v)
}

/// A copy of `s`.
pub(crate) fn try_copy(s: &[u8]) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(s.len()).map_err(|_| alloc_error(s.len()))?;
    v.extend_from_slice(s);
    Ok(v)
}
