//! The zstd block size of one stream, chosen from its byte statistics.
//!
//! Each zstd block carries its own Huffman and FSE tables. libzstd 1.5.7's strongest levels cut
//! blocks where the statistics change (its block splitter); `rusty_zstd` 0.4.1 writes 128 KiB
//! blocks unless told a smaller cap. A byte-shuffled block of floats is made of byte planes
//! whose statistics drift along the array, where small blocks pay; text is the same all along,
//! where they cost their tables. The choice here estimates both: the order-0 entropy of the
//! stream cut into segments of each candidate size, plus a table's cost per segment.

/// zstd's largest block.
pub(crate) const LARGEST: usize = 128 * 1024;

/// Streams longer than this have their picked block size tried: c-blosc2's automatic clevel 9
/// blocks (1 MiB, unsplit, and the chunk's last, shorter one). Below, the estimate is often
/// wrong (the smooth field in 125 000-byte blocks: 8 KiB picked, 19 % larger) and the second
/// frame would double the time of `b2schema pack`'s 512 KiB blocks (its zstd 9 encode ratio 0.54
/// -> 0.99) for a size already within 5 % (1.034 -> 0.995).
pub(crate) const TRIED_ABOVE: usize = 512 * 1024;

/// The candidate block sizes, smallest first; the last is zstd's largest block.
const SIZES: [usize; 3] = [8 * 1024, 16 * 1024, LARGEST];

/// What a block's tables and headers are taken to cost, in bytes (a Huffman table of the
/// literals is 30 to 130 bytes, the sequences' FSE tables a few dozen).
const TABLE_BYTES: u64 = 100;

/// The block size (one of [`SIZES`]) whose estimated encoding of `input` is smallest: the sum
/// over its segments of their order-0 entropy plus [`TABLE_BYTES`]. Ties keep the larger block.
pub(crate) fn block_cap(input: &[u8]) -> usize {
    let mut cost = [0u64; SIZES.len()];
    let mut counts = [[0u32; 256]; SIZES.len()];
    let mut filled = [0usize; SIZES.len()];
    for (pos, &b) in input.iter().enumerate() {
        for k in 0..SIZES.len() {
            counts[k][usize::from(b)] += 1;
            filled[k] += 1;
            if filled[k] == SIZES[k] || pos + 1 == input.len() {
                cost[k] += entropy_bits(&counts[k], filled[k]) / 8 + TABLE_BYTES;
                counts[k] = [0; 256];
                filled[k] = 0;
            }
        }
    }
    let mut best = SIZES.len() - 1;
    for k in (0..SIZES.len()).rev() {
        if cost[k] < cost[best] {
            best = k;
        }
    }
    SIZES[best]
}

/// `n * H`, the bits of an order-0 code for `n` bytes with these `counts`:
/// `n log2 n - sum(c log2 c)`, in 1/16 bits rounded down (then in bits).
fn entropy_bits(counts: &[u32; 256], n: usize) -> u64 {
    let total = u64::from(log2_16(n as u64)) * n as u64;
    let parts: u64 =
        counts.iter().filter(|&&c| c > 1).map(|&c| u64::from(log2_16(u64::from(c))) * u64::from(c)).sum();
    total.saturating_sub(parts) / 16
}

/// `log2(x)` in 1/16 steps for `x >= 1`: the integer part from the leading bit, the fraction
/// from the next four bits (their log by a 16-entry table, rounded; the bits below are
/// dropped: error under 2/16).
fn log2_16(x: u64) -> u32 {
    const FRACTION: [u32; 16] = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15];
    let e = 63 - x.max(1).leading_zeros();
    let mantissa = if e >= 4 { (x >> (e - 4)) & 15 } else { (x << (4 - e)) & 15 };
    e * 16 + FRACTION[mantissa as usize]
}

#[cfg(test)]
mod tests {
    use super::{SIZES, block_cap, log2_16};
    use crate::test_data::noise;
    use alloc::vec::Vec;

    #[test]
    fn log2_in_sixteenths_is_within_two_steps() {
        for x in 1..200_000u64 {
            let exact = (x as f64).log2() * 16.0;
            let got = f64::from(log2_16(x));
            assert!((exact - got).abs() < 2.0, "x {x}: {got} against {exact}");
        }
        assert_eq!(log2_16(1 << 40), 640);
    }

    /// Noise and bytes drawn from one fixed distribution keep 128 KiB blocks; bytes whose
    /// distribution changes every 8 KiB get small blocks.
    #[test]
    fn small_blocks_only_where_the_statistics_drift() {
        let n = 512 * 1024;
        assert_eq!(block_cap(&noise(n, 1)), SIZES[2]);
        let stationary: Vec<u8> = noise(n, 2).iter().map(|b| b & 0x0f).collect();
        assert_eq!(block_cap(&stationary), SIZES[2]);
        // Each 8 KiB segment draws 16 values from its own range: 4 bits a byte within a
        // segment, 8 across 128 KiB.
        let drifting: Vec<u8> =
            noise(n, 3).iter().enumerate().map(|(i, b)| (b & 0x0f) | (((i / 8192) as u8) << 4)).collect();
        assert!(block_cap(&drifting) < SIZES[2]);
        assert_eq!(block_cap(&[]), SIZES[2]);
        assert_eq!(block_cap(&[7; 100]), SIZES[2]);
    }
}
