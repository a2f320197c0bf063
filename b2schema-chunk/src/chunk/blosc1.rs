//! c-blosc 1.x's chunk layout decisions (1.21.x, the library numcodecs' `Blosc` bundles): the
//! automatic blocksize (`compute_blocksize`), whether blocks are split into one stream per byte
//! of the type (`split_block`), the smallest buffer compressed and the flags of the 16-byte
//! header (`write_compression_header`). They differ from c-blosc2's (`blocksize`):
//!
//! * buffers under **128** bytes (not 32) are stored raw, and a split block needs at least
//!   128 items;
//! * the split modes name other codecs: auto splits blosclz (and snappy) only, forward-compat
//!   (c-blosc 1.x's default) every codec but zstd; neither looks at the shuffle;
//! * a split block is enlarged to `min(blocksize, 256 KiB) * typesize`, within 64 KiB..1 MiB;
//! * a forced blocksize is at least 128 bytes;
//! * the header records the shuffle, dont-split and codec-format bits even on a memcpy chunk.

use super::blocksize::{L1, l1_scaled};
use super::split::Split;
use crate::id::Codec;

use super::header::{COMPFORMAT_SHIFT, FLAG_BITSHUFFLE, FLAG_DONT_SPLIT, FLAG_SHUFFLE};

/// c-blosc 1.x's format version byte (`BLOSC_VERSION_FORMAT`).
pub const VERSION_FORMAT: u8 = 2;
/// Smallest buffer c-blosc 1.x compresses, and the fewest items of a split block
/// (`MIN_BUFFERSIZE` of `blosc.c`).
pub const MIN_BUFFERSIZE: usize = 128;
/// Streams are split only for typesizes up to this (`MAX_SPLITS`).
const MAX_SPLITS: usize = 16;
/// Largest forced blocksize (`BLOSC_MAX_BLOCKSIZE`).
const MAX_BLOCKSIZE: usize = (i32::MAX as usize - 255 * 4) / 3;

/// The shuffle of a Blosc1 chunk: c-blosc 1.x applies at most one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shuffle {
    None,
    Byte,
    Bit,
}

/// `true` when c-blosc 1.x's reader splits a (whole) block of `blocksize` bytes whose header
/// does not say "dont split": at most 16 bytes a type and 128 items a block.
fn readable_split(typesize: usize, blocksize: usize) -> bool {
    typesize <= MAX_SPLITS && blocksize / typesize.max(1) >= MIN_BUFFERSIZE
}

/// c-blosc 1.x's `split_block`, as its blocksize rule asks it (before the block is enlarged).
fn split_rule(split: Split, codec: Codec, typesize: usize, blocksize: usize) -> bool {
    match split {
        Split::Always => true,
        Split::Never => false,
        Split::Auto => codec == Codec::BloscLz && readable_split(typesize, blocksize),
        Split::ForwardCompat => codec != Codec::Zstd && readable_split(typesize, blocksize),
    }
}

/// `true` when each block is stored as one stream per byte of the type: c-blosc 1.x's
/// `split_block`, except that [`Split::Always`] splits only where c-blosc 1.x's reader also
/// splits (at most 16 bytes a type and 128 items a block): c-blosc 1.x itself writes chunks it
/// cannot read there.
pub(crate) fn split_block(split: Split, codec: Codec, typesize: usize, blocksize: usize) -> bool {
    split_rule(split, codec, typesize, blocksize) && readable_split(typesize, blocksize)
}

/// c-blosc 1.x's `compute_blocksize` for a chunk of `nbytes` (`forced` non-zero: the caller's).
pub(crate) fn blocksize(
    nbytes: usize,
    typesize: usize,
    clevel: u8,
    codec: Codec,
    split: Split,
    forced: usize,
) -> usize {
    if nbytes < typesize {
        return 1;
    }
    let mut bs = nbytes;
    if forced != 0 {
        bs = forced.clamp(MIN_BUFFERSIZE, MAX_BLOCKSIZE);
    } else if nbytes >= L1 {
        bs = l1_scaled(codec, clevel);
    }
    if clevel > 0 && split_rule(split, codec, typesize, bs) {
        bs = (bs.min(1 << 18) * typesize).clamp(1 << 16, 1 << 20);
    }
    bs = bs.min(nbytes);
    if bs > typesize {
        bs = bs / typesize * typesize;
    }
    bs
}

/// The flag byte c-blosc 1.x writes before compressing (`write_compression_header`): the
/// shuffle bit, dont-split (bit 4) and the codec's format (bits 5-7), also on memcpy chunks.
pub(crate) fn flags(shuffle: Shuffle, dont_split: bool, codec: Codec) -> u8 {
    let shuffle = match shuffle {
        Shuffle::None => 0,
        Shuffle::Byte => FLAG_SHUFFLE,
        Shuffle::Bit => FLAG_BITSHUFFLE,
    };
    shuffle | if dont_split { FLAG_DONT_SPLIT } else { 0 } | codec.compformat() << COMPFORMAT_SHIFT
}

/// `true` when c-blosc 1.x leaves a block of `bsize` bytes unfiltered under bitshuffle: its
/// item count is not a multiple of 8 (c-blosc2 shuffles the multiple of 8 and copies the rest).
pub(crate) fn bitshuffle_copies(typesize: usize, bsize: usize) -> bool {
    !(bsize / typesize.max(1)).is_multiple_of(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numcodecs_defaults() {
        // lz4 clevel 5, 4-byte items, 4 MB: 32 KiB * 4 = 128 KiB, split (forward compat):
        // min(128 KiB, 256 KiB) * 4 = 512 KiB.
        assert_eq!(blocksize(4 << 20, 4, 5, Codec::Lz4, Split::ForwardCompat, 0), 512 * 1024);
        // zstd is never split in forward-compat mode: 64 KiB * 4.
        assert_eq!(blocksize(4 << 20, 4, 5, Codec::Zstd, Split::ForwardCompat, 0), 256 * 1024);
        // clevel 9 HCR: 32 KiB * 2 * 16 = 1 MiB.
        assert_eq!(blocksize(4 << 20, 8, 9, Codec::Zlib, Split::Never, 0), 1 << 20);
        // Small buffers: whole, cut to a multiple of the typesize.
        assert_eq!(blocksize(1000, 8, 5, Codec::Zstd, Split::ForwardCompat, 0), 1000);
        assert_eq!(blocksize(1001, 8, 5, Codec::Zstd, Split::ForwardCompat, 0), 1000);
        assert_eq!(blocksize(3, 8, 5, Codec::Lz4, Split::ForwardCompat, 0), 1);
        // A forced blocksize is at least 128.
        assert_eq!(blocksize(1000, 4, 5, Codec::Zstd, Split::Never, 20), 128);
        // Split and enlarged to at least 64 KiB, but never beyond the buffer.
        assert_eq!(blocksize(40_000, 2, 5, Codec::BloscLz, Split::Auto, 0), 40_000);
        assert_eq!(blocksize(100_000, 2, 1, Codec::BloscLz, Split::Auto, 0), 65_536);
    }

    #[test]
    fn split_rules() {
        assert!(split_block(Split::ForwardCompat, Codec::Lz4, 4, 512));
        assert!(!split_block(Split::ForwardCompat, Codec::Zstd, 4, 512));
        assert!(!split_block(Split::ForwardCompat, Codec::Lz4, 4, 511));
        assert!(!split_block(Split::Auto, Codec::Lz4, 4, 4096));
        assert!(split_block(Split::Auto, Codec::BloscLz, 16, 4096));
        assert!(!split_block(Split::Always, Codec::BloscLz, 17, 1 << 20));
        assert!(!split_block(Split::Never, Codec::BloscLz, 4, 1 << 20));
        assert!(!split_block(Split::Always, Codec::Zstd, 4, 511));
        // Always enlarges a forced block as c-blosc 1.x does (200 * 4, at least 64 KiB).
        assert_eq!(blocksize(100_000, 4, 5, Codec::Zstd, Split::Always, 200), 65_536);
    }
}
