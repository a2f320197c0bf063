//! The zlib encoder: `zlib-rs` (its input is the caller's own data, never untrusted bytes).

/// zlib's `compress2` at level `clevel` (as c-blosc2 passes it), straight into `output`: the
/// bytes written, 0 when the stream does not fit. `zlib-rs` with `std` (its run-time SIMD choice; sizes equal to
/// c-blosc2's, faster at clevels 5-9), `miniz_oxide` without it.
pub(crate) fn deflate(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    #[cfg(feature = "std")]
    {
        let config = zlib_rs::DeflateConfig::new(i32::from(clevel.min(9)));
        let (out, code) = zlib_rs::compress_slice(output, input, config);
        if code == zlib_rs::ReturnCode::Ok { out.len() } else { 0 }
    }
    #[cfg(not(feature = "std"))]
    {
        crate::bytes::copy_if_fits(&miniz_oxide::deflate::compress_to_vec_zlib(input, clevel.min(9)), output)
    }
}
