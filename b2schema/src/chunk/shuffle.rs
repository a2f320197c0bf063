//! Byte unshuffle (c-blosc2 `unshuffle_generic`).
//!
//! A shuffled block of `n = len / typesize` elements stores byte `j` of every
//! element contiguously: `src[j * n + i]` is byte `j` of element `i`.  The
//! `len % typesize` trailing bytes are stored unchanged.

/// Undoes the byte shuffle of `src` into `dst` (same length).
pub(crate) fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    if typesize <= 1 {
        dst.copy_from_slice(src);
        return;
    }
    let n = len / typesize;
    let body = n * typesize;
    match typesize {
        2 => unshuffle_fixed::<2>(n, src, dst),
        4 => unshuffle_fixed::<4>(n, src, dst),
        8 => unshuffle_fixed::<8>(n, src, dst),
        16 => unshuffle_fixed::<16>(n, src, dst),
        _ => {
            for (j, plane) in src[..body].chunks_exact(n.max(1)).enumerate().take(typesize) {
                for (i, &b) in plane.iter().enumerate() {
                    if let Some(d) = dst.get_mut(i * typesize + j) {
                        *d = b;
                    }
                }
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// Unshuffle for a compile-time element size (lets the compiler vectorise).
fn unshuffle_fixed<const T: usize>(n: usize, src: &[u8], dst: &mut [u8]) {
    if n == 0 {
        return;
    }
    let planes: [&[u8]; T] = core::array::from_fn(|j| src.get(j * n..(j + 1) * n).unwrap_or(&[]));
    if planes.iter().any(|p| p.len() != n) {
        return;
    }
    for (i, out) in dst[..n * T].chunks_exact_mut(T).enumerate() {
        for (j, o) in out.iter_mut().enumerate() {
            *o = planes[j][i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::unshuffle;

    fn shuffle(typesize: usize, src: &[u8]) -> alloc::vec::Vec<u8> {
        let n = src.len() / typesize;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                out[j * n + i] = src[i * typesize + j];
            }
        }
        out
    }

    #[test]
    fn roundtrip_various_sizes() {
        for ts in [1usize, 2, 3, 4, 7, 8, 16, 17, 300] {
            for len in [0usize, 1, 5, 64, 1000, 4099] {
                let data: alloc::vec::Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                let s = shuffle(ts, &data);
                let mut back = alloc::vec![0u8; len];
                unshuffle(ts, &s, &mut back);
                assert_eq!(back, data, "ts {ts} len {len}");
            }
        }
    }
}
