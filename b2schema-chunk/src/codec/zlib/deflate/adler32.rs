//! Adler-32 (RFC 1950), the zlib trailer's checksum.

/// Largest n with 255 n (n + 1) / 2 + (n + 1) (BASE - 1) below 2^32: sums stay in `u32`.
const NMAX: usize = 5552;
const BASE: u32 = 65521;

/// Adler-32 of `data` from the initial value 1.
pub(super) fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(NMAX) {
        // Four interleaved sums per 4 bytes: b gains 4a + 4x0 + 3x1 + 2x2 + x3.
        let mut quads = chunk.chunks_exact(4);
        for q in &mut quads {
            let (x0, x1, x2, x3) = (u32::from(q[0]), u32::from(q[1]), u32::from(q[2]), u32::from(q[3]));
            b += 4 * a + 4 * x0 + 3 * x1 + 2 * x2 + x3;
            a += x0 + x1 + x2 + x3;
        }
        for &x in quads.remainder() {
            a += u32::from(x);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    (b << 16) | a
}
