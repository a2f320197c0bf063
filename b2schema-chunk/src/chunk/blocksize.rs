//! c-blosc2's chunk layout decisions: the automatic blocksize (`blosc_stune_next_blocksize`)
//! and whether blocks are split into one stream per byte of the type (`split_block`).

use super::split::Split;
use crate::id::Codec;

/// L1 cache size c-blosc2 (and c-blosc 1.x) assumes (`L1`).
pub(super) const L1: usize = 32 * 1024;
/// Streams are split only for typesizes up to this (`MAX_STREAMS`).
const MAX_STREAMS: usize = 16;
/// Smallest buffer c-blosc2 compresses (`BLOSC_MIN_BUFFERSIZE`); also the fewest elements
/// per block for the automatic split.
pub const MIN_BUFFERSIZE: usize = 32;

/// Codecs meant for high compression ratios get blocks twice as large (`is_HCR`).
pub(super) fn is_hcr(codec: Codec) -> bool {
    matches!(codec, Codec::Lz4hc | Codec::Zlib | Codec::Zstd)
}

/// `split_block`: `true` when each block is stored as one stream per byte of the type.
/// Auto and forward-compat split for blosclz, lz4 and zstd up to clevel 5, when a shuffle is
/// in the pipeline, the typesize is at most 16 and a block holds at least 32 elements.
pub(crate) fn split_block(
    split: Split,
    codec: Codec,
    clevel: u8,
    has_shuffle: bool,
    typesize: usize,
    blocksize: usize,
) -> bool {
    match split {
        Split::Always => true,
        Split::Never => false,
        Split::Auto | Split::ForwardCompat => {
            let fast = matches!(codec, Codec::BloscLz | Codec::Lz4) || (codec == Codec::Zstd && clevel <= 5);
            fast && has_shuffle && typesize <= MAX_STREAMS && blocksize / typesize.max(1) >= MIN_BUFFERSIZE
        }
    }
}

/// The automatic blocksize of a buffer of at least [`L1`] bytes before the split rule, the same
/// in c-blosc2 and c-blosc 1.x: L1 (twice for HCR codecs) scaled by the clevel.
pub(super) fn l1_scaled(codec: Codec, clevel: u8) -> usize {
    let bs = if is_hcr(codec) { 2 * L1 } else { L1 };
    match clevel {
        0 => bs / 4,
        1 => bs / 2,
        2 => bs,
        3 => bs * 2,
        4 | 5 => bs * 4,
        6..=8 => bs * 8,
        _ => bs * 8 * if is_hcr(codec) { 2 } else { 1 },
    }
}

/// The blocksize c-blosc2 chooses for a chunk of `nbytes` (`user` non-zero: the caller's).
pub(crate) fn blocksize(
    nbytes: usize,
    typesize: usize,
    clevel: u8,
    codec: Codec,
    split: Split,
    has_shuffle: bool,
    user: usize,
) -> usize {
    if nbytes < typesize {
        return 1;
    }
    let splitmode = split_block(split, codec, clevel, has_shuffle, typesize, nbytes);
    let mut bs = nbytes;
    if user != 0 {
        bs = user;
    } else {
        if nbytes >= L1 {
            bs = l1_scaled(codec, clevel);
        }
        if clevel > 0 && splitmode {
            bs = match clevel {
                1..=3 => 32 * 1024,
                4..=6 => 64 * 1024,
                7 => 128 * 1024,
                8 => 256 * 1024,
                _ => 512 * 1024,
            };
            bs = (bs * typesize).clamp(32 * 1024, 4 * 1024 * 1024);
        }
    }
    if bs > nbytes {
        bs = nbytes;
    }
    if bs > typesize {
        bs = bs / typesize * typesize;
    }
    bs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_blosc2_defaults() {
        // zstd clevel 5 shuffle, 4-byte items, 4 MB chunk: HCR doubles L1 and clevel 5
        // multiplies by 4, and zstd <= 5 with shuffle splits: 64 KB * 4.
        assert_eq!(blocksize(4 << 20, 4, 5, Codec::Zstd, Split::Auto, true, 0), 256 * 1024);
        // No shuffle: no split, 32 KB * 2 * 4.
        assert_eq!(blocksize(4 << 20, 4, 5, Codec::Zstd, Split::Auto, false, 0), 256 * 1024);
        assert_eq!(blocksize(4 << 20, 8, 9, Codec::Zstd, Split::Auto, true, 0), 1024 * 1024);
        assert_eq!(blocksize(4 << 20, 8, 9, Codec::BloscLz, Split::Auto, true, 0), 4 << 20);
        assert_eq!(blocksize(100, 8, 5, Codec::Lz4, Split::Auto, true, 0), 96);
        assert_eq!(blocksize(3, 8, 5, Codec::Lz4, Split::Auto, true, 0), 1);
        assert_eq!(blocksize(1000, 4, 5, Codec::Lz4, Split::Auto, true, 202), 200);
    }
}
