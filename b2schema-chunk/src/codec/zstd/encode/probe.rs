//! The probe for random-looking streams: libzstd's own Huffman test on a sample.

/// Bytes sampled by [`looks_random`]: four runs of this many spread over the stream.
const SAMPLE: usize = 1024;

/// Streams shorter than this are never probed.
pub(crate) const PROBED_LEN: usize = 16 * SAMPLE;

/// Whether the byte histogram of a sample of `input` is flat enough that Huffman coding would
/// not pay: no byte value more frequent than `len / 128 + 4` (libzstd's own test in
/// `HUF_compress_internal`). Streams under [`PROBED_LEN`] are never probed.
pub(crate) fn looks_random(input: &[u8]) -> bool {
    if input.len() < PROBED_LEN {
        return false;
    }
    let step = (input.len() - SAMPLE) / 3;
    let mut counts = [0u16; 256];
    for k in 0..4 {
        for &b in &input[k * step..k * step + SAMPLE] {
            counts[usize::from(b)] += 1;
        }
    }
    let largest = counts.iter().copied().max().unwrap_or(0);
    usize::from(largest) <= 4 * SAMPLE / 128 + 4
}
