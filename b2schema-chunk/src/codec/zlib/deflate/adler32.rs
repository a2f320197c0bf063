//! Adler-32 (RFC 1950), the zlib trailer's checksum.

/// Largest n with 255 n (n + 1) / 2 + (n + 1) (BASE - 1) below 2^32: sums stay in `u32`.
const NMAX: usize = 5552;
const BASE: u32 = 65521;
/// Bytes summed a step in lanes: each lane sums one byte position of every step.
const LANES: usize = 32;

/// Adler-32 of `data` from the initial value 1.
///
/// Within each `NMAX` chunk, lane `j` sums the bytes at `j` of every 32-byte step (`la`) and,
/// after each step, its running sum (`lb`), plain additions that the compiler makes vector
/// ones. A chunk of `k` steps then adds `sum(la)` to a and `32 k a + 32 sum(lb) - sum(j la[j])`
/// to b (the byte at `32 i + j` is counted `32 (k - i) - j` times in b). At most 173 steps a
/// chunk: `lb` stays below 2^23.
pub(super) fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(NMAX) {
        let mut steps = chunk.chunks_exact(LANES);
        let (mut la, mut lb) = ([0u32; LANES], [0u32; LANES]);
        let mut k = 0u64;
        for step in &mut steps {
            for j in 0..LANES {
                la[j] += u32::from(step[j]);
                lb[j] += la[j];
            }
            k += 1;
        }
        let sum_a: u64 = la.iter().map(|&x| u64::from(x)).sum();
        let sum_b: u64 = lb.iter().map(|&x| u64::from(x)).sum();
        let weighted: u64 = la.iter().enumerate().map(|(j, &x)| j as u64 * u64::from(x)).sum();
        let a64 = u64::from(a);
        let b64 = u64::from(b) + LANES as u64 * k * a64 + LANES as u64 * sum_b - weighted;
        a = ((a64 + sum_a) % u64::from(BASE)) as u32;
        b = (b64 % u64::from(BASE)) as u32;
        for &x in steps.remainder() {
            a += u32::from(x);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adler-32 byte by byte, as RFC 1950 defines it.
    fn reference(data: &[u8]) -> u32 {
        let (mut a, mut b) = (1u32, 0u32);
        for &x in data {
            a = (a + u32::from(x)) % BASE;
            b = (b + a) % BASE;
        }
        (b << 16) | a
    }

    #[test]
    fn lanes_match_the_definition() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut bytes = alloc::vec::Vec::new();
        for _ in 0..3 * NMAX + 77 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bytes.push(x as u8);
        }
        // All 0xff: the largest sums.
        let ones = alloc::vec![0xffu8; 3 * NMAX + 45];
        for data in [&bytes[..], &ones[..]] {
            for len in [0, 1, 31, 32, 33, 64, 1000, NMAX - 1, NMAX, NMAX + 1, 2 * NMAX + 31, data.len()] {
                assert_eq!(adler32(&data[..len]), reference(&data[..len]), "{len} bytes");
            }
        }
    }
}
