//! Undo of the byte-delta filters (c-blosc2 plugin `bytedelta`, ids 34 and 35).
//!
//! The block is seen as `typesize` channels of `len / typesize` consecutive
//! bytes (the filter expects byte-shuffled input).  Each channel stores the
//! byte-wise differences of its bytes, starting from 0; undoing it is a
//! running (wrapping) sum per channel.  Bytes after the last whole channel
//! are not touched by c-blosc2 (their content is unspecified there); this
//! decoder passes them through.
//!
//! Filter 34 is the original, buggy version kept by c-blosc2 for old data:
//! on x86-64 and ARM64 (the SIMD builds every python-blosc2 wheel uses) the
//! running sum restarts at 0 after the largest multiple of 16 bytes of each
//! channel.  Filter 35 is the fixed version (one running sum per channel).

/// Undoes filter 35 (`fixed == true`) or 34 (`fixed == false`).
pub(crate) fn decode(typesize: usize, fixed: bool, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    dst.copy_from_slice(src);
    let typesize = typesize.max(1);
    let stream_len = len / typesize;
    if stream_len == 0 {
        return;
    }
    for channel in dst[..stream_len * typesize].chunks_exact_mut(stream_len) {
        let restart = if fixed { usize::MAX } else { stream_len / 16 * 16 };
        let mut acc = 0u8;
        for (i, b) in channel.iter_mut().enumerate() {
            if i == restart {
                acc = 0;
            }
            acc = acc.wrapping_add(*b);
            *b = acc;
        }
    }
}

/// Byte delta (filter 35): `typesize` channels of `len / typesize` bytes, each byte replaced
/// by its difference to the previous byte of its channel (the first to 0); trailing bytes
/// copied.
pub(crate) fn encode(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let typesize = typesize.max(1);
    let stream_len = len / typesize;
    let body = stream_len * typesize;
    if stream_len > 0 {
        for (d, s) in dst[..body].chunks_exact_mut(stream_len).zip(src[..body].chunks_exact(stream_len)) {
            let mut prev = 0u8;
            for (o, &v) in d.iter_mut().zip(s) {
                *o = v.wrapping_sub(prev);
                prev = v;
            }
        }
    }
    dst[body..len].copy_from_slice(&src[body..len]);
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn running_sum_per_channel() {
        let src = [1u8, 1, 1, 10, 10, 10, 99];
        let mut dst = [0u8; 7];
        decode(2, true, &src, &mut dst);
        assert_eq!(dst, [1, 2, 3, 10, 20, 30, 99]);
    }

    #[test]
    fn buggy_variant_restarts_after_simd_part() {
        let src = [1u8; 18];
        let mut dst = [0u8; 18];
        decode(1, false, &src, &mut dst);
        assert_eq!(dst[15], 16);
        assert_eq!(dst[16], 1);
        assert_eq!(dst[17], 2);
    }
}
