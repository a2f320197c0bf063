//! Bounds-checked little-endian readers (no panics, no indexing), and the copy of a codec's
//! output into a limit.

/// Reads the little-endian `i32` at `off`, or `None` when it does not fit.
pub(crate) fn i32_le(buf: &[u8], off: usize) -> Option<i32> {
    let end = off.checked_add(4)?;
    let bytes: [u8; 4] = buf.get(off..end)?.try_into().ok()?;
    Some(i32::from_le_bytes(bytes))
}

/// Reads the byte at `off`, or `0` when it does not exist.
pub(crate) fn byte_or_zero(buf: &[u8], off: usize) -> u8 {
    buf.get(off).copied().unwrap_or(0)
}

/// Copies `N` bytes starting at `off` (zero-filled when out of range).
pub(crate) fn array_or_zero<const N: usize>(buf: &[u8], off: usize) -> [u8; N] {
    let mut out = [0u8; N];
    if let Some(src) = off.checked_add(N).and_then(|end| buf.get(off..end)) {
        out.copy_from_slice(src);
    }
    out
}

/// Copies `v` into `output` when it fits: its length, or 0 ("does not fit", as an encoder says).
#[cfg(feature = "zstd")]
pub(crate) fn copy_if_fits(v: &[u8], output: &mut [u8]) -> usize {
    match output.get_mut(..v.len()) {
        Some(dst) => {
            dst.copy_from_slice(v);
            v.len()
        }
        None => 0,
    }
}
