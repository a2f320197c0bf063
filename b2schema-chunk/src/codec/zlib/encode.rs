//! The zlib encoder: this crate's own deflate ([`super::deflate`], safe Rust), the bytes of
//! zlib-rs 0.6.8's `compress2` (zlib-ng's algorithms, as c-blosc2 bundles) at every clevel 1-9,
//! with and without `std`.

/// zlib's `compress2` at level `clevel` (as c-blosc2 passes it), straight into `output`: the
/// bytes written, 0 when the stream does not fit. clevel 0 never reaches it (a chunk at clevel 0
/// is stored as it is); it is taken as 1, above 9 as 9.
pub(crate) fn deflate(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    super::deflate::compress(clevel, input, output)
}
