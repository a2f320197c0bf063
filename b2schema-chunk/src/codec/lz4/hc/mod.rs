//! LZ4HC as liblz4 1.10.0's `lz4hc.c` does it, for the levels c-blosc2 uses (1 to 9).
//!
//! c-blosc2 calls `LZ4_compress_HC(src, dst, neblock, maxout, clevel)` per stream (no
//! dictionary), with `maxout` below `LZ4_compressBound`, so liblz4 runs in limited-output mode
//! and gives up (0) when a sequence might not fit. The level picks the strategy (`k_clTable`):
//!
//! * **levels 1 and 2, `lz4mid`** ([`mid`](mid::mid)): two tables of 2^14 positions, one hashing 8 bytes
//!   (`LZ4MID_hash7` of the low 7), one hashing 4; the long one is tried first, a short match
//!   checks the next position's long candidate; misses skip faster the longer the literal run
//!   (`1 + run / 512`); a few positions inside each match are hashed in;
//! * **levels 3 to 9, hash chains** ([`hash_chain`](chain::hash_chain)): a 2^15-entry head table and 64 Ki 16-bit
//!   chain links, `1 << (level - 1)` candidates per search (`nbSearches`), and the overlapping
//!   match logic of `LZ4HC_compress_hashChain` (ML1, ML2, ML3 with the `OPTIMAL_ML` squeeze);
//!   at level 9 (256 attempts) the repeated-pattern analysis of `LZ4HC_InsertAndGetWiderMatch`.
//!
//! With `use_dict`, c-blosc2 loads the chunk's dictionary into an HC stream for each stream
//! (`LZ4_loadDictHC`) and compresses with `LZ4_compress_HC_continue`: [`compress_with_dict`]
//! runs the same two strategies with the dictionary as an external one before the block.
//!
//! Positions are kept as liblz4's indexes (`position + 64 KiB` in a fresh state), so that an
//! empty table slot (0) is always out of reach and the 16-bit chain table aliases exactly as
//! liblz4's does. The tables are kept from stream to stream ([`tables`]): each stream's indexes
//! start above the last one's, so it runs as on a fresh state without zeroing 256 KiB first.
//! Levels 10-12 (the optimal parser) are not implemented: c-blosc2's clevel stops at 9.

mod chain;
mod mid;
mod sequence;
mod tables;

use alloc::vec::Vec;

use super::encode::Out;
use tables::PREFIX;

/// The last level of the `lz4mid` strategy.
const MID_LEVEL_MAX: u8 = 2;

/// Compresses `input` as one LZ4 block into `output` (whose length is the limit) as
/// `LZ4_compress_HC(.., clevel)` does; 0 when it gives up.
pub(crate) fn compress(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    if input.len() > i32::MAX as usize - PREFIX as usize {
        return 0;
    }
    encode(clevel, input, 0, output)
}

/// The window of an LZ4 dictionary: `LZ4_loadDictHC` keeps its last 64 KiB.
const DICT_WINDOW: usize = 64 * 1024;

/// Compresses `input` as one LZ4 block that may reference `dict` (the 64 KiB before it), as
/// c-blosc2's `lz4hc_wrap_compress` does with a dictionary: `LZ4_resetStreamHC_fast(stream,
/// clevel)`, `LZ4_loadDictHC(stream, dict)`, then `LZ4_compress_HC_continue` in
/// limited-output mode (the dictionary an external one: `LZ4HC_setExternalDict`); 0 when it
/// gives up. It decodes with `LZ4_decompress_safe_usingDict(.., dict)`.
///
/// The dictionary's window and the block are laid end to end in one buffer (allocated here; 0
/// when that fails), with liblz4's indexes: the dictionary from 64 KiB (`lowLimit`), the block
/// right after it (`dictLimit`). As liblz4 1.10.0:
///
/// * `lz4mid` (levels 1-2): the dictionary is hashed as `LZ4MID_fillHTable` does (one
///   position in 3 into both tables, then every position of its last 32 KiB into the long
///   one); a match found in the dictionary stops at its end, is not caught up backwards, and
///   a short one does not try the next position;
/// * hash chains (levels 3-9): `LZ4HC_Insert` up to the dictionary's last 3 bytes; a match in
///   the dictionary may run on into the block and reach back to the dictionary's start, one in
///   the block back to the block's start; the repeated-pattern analysis sees the dictionary
///   and the block as one.
pub(crate) fn compress_with_dict(clevel: u8, dict: &[u8], input: &[u8], output: &mut [u8]) -> usize {
    if input.len() > i32::MAX as usize - PREFIX as usize - DICT_WINDOW {
        return 0;
    }
    let window = &dict[dict.len().saturating_sub(DICT_WINDOW)..];
    let mut buf = Vec::new();
    if buf.try_reserve_exact(window.len() + input.len()).is_err() {
        return 0;
    }
    buf.extend_from_slice(window);
    buf.extend_from_slice(input);
    encode(clevel, &buf, window.len(), output)
}

/// The block `buf[dsize..]` after the dictionary `buf[..dsize]` (none when `dsize` is 0).
fn encode(clevel: u8, buf: &[u8], dsize: usize, output: &mut [u8]) -> usize {
    let level = clevel.clamp(1, 9);
    let mut out = Out { buf: output, op: 0 };
    let r = tables::with_tables(|t| {
        if level <= MID_LEVEL_MAX {
            mid::mid(buf, dsize, &mut out, t)
        } else {
            chain::hash_chain(buf, dsize, &mut out, 1 << (level - 1), t)
        }
    });
    r.flatten().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::super::encode::tests::{flex, noise};
    use super::{compress, compress_with_dict};
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn roundtrips_through_lz4_flex() {
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 5], vec![7; 13], vec![3; 100_000]];
        inputs.push((0..70_000u32).map(|i| ((i / 5) % 253) as u8 ^ (i % 7) as u8).collect());
        inputs.push((0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect());
        inputs
            .push((0..150_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize] ^ ((i / 997) as u8)).collect());
        for data in inputs {
            for clevel in 1u8..=9 {
                let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                let n = compress(clevel, &data, &mut out);
                assert!(n > 0);
                let mut back = vec![0u8; data.len()];
                assert_eq!(lz4_flex::block::decompress_into(&out[..n], &mut back).unwrap(), data.len());
                assert_eq!(back, data);
            }
        }
    }

    #[test]
    fn matches_reach_back_64_kib_less_one() {
        // 32 bytes of noise repeated 65 535 bytes on are one match for the hash chains (levels
        // 3-9; `lz4mid`'s tables have long forgotten them, and it skips ahead in long runs of
        // literals); 65 536 bytes on they are out of reach (liblz4's `LZ4_DISTANCE_MAX`),
        // literals as in plain noise. Every level's stream decodes back.
        for (gap, reach) in [(65_535usize, true), (65_536, false)] {
            let plain = noise(gap + 64, 11);
            let mut data = plain.clone();
            data.copy_within(..32, gap);
            for clevel in 1u8..=9 {
                let room = data.len() + data.len() / 255 + 16;
                let (mut out, mut out0) = (vec![0u8; room], vec![0u8; room]);
                let n = compress(clevel, &data, &mut out);
                let n0 = compress(clevel, &plain, &mut out0);
                assert!(
                    flex(&out[..n], data.len(), &[]).as_deref() == Some(&data[..]),
                    "gap {gap} clevel {clevel}"
                );
                if clevel <= super::MID_LEVEL_MAX {
                    continue;
                }
                if reach {
                    assert!(n + 20 < n0, "gap {gap} clevel {clevel}: {n} bytes against {n0}");
                } else {
                    assert!(n + 4 >= n0, "gap {gap} clevel {clevel}: {n} bytes against {n0}");
                }
            }
        }
    }

    #[test]
    fn dictionary_streams_roundtrip_through_lz4_flex() {
        // Dictionaries of noise and of repeated patterns (the pattern analysis at level 9 runs
        // across the dictionary's end), short and over the 64 KiB window.
        let pattern: Vec<u8> = (0..40_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize]).collect();
        let mut runs = noise(3000, 5);
        runs.extend_from_slice(&[0xAA; 5000]);
        let dicts =
            [noise(256, 1), noise(32 * 1024, 2), noise(100_000, 3), pattern, runs, vec![1, 2, 3], vec![]];
        for dict in &dicts {
            let d = dict.len();
            let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 12], vec![7; 13], noise(3000, 9)];
            let mut mixed = crate::test_data::dict_pieces(dict);
            mixed.extend_from_slice(&[0xAA; 3000]);
            mixed.extend((0..80_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize] ^ ((i / 997) as u8)));
            inputs.push(mixed);
            // Starts with what the dictionary ends with.
            let mut cont = dict[d.saturating_sub(2000)..].to_vec();
            cont.extend_from_slice(&dict[d.saturating_sub(2000)..]);
            cont.extend_from_slice(&noise(100, 8));
            inputs.push(cont);
            for data in &inputs {
                for clevel in 1u8..=9 {
                    let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                    let n = compress_with_dict(clevel, dict, data, &mut out);
                    assert!(n > 0, "dict {d} input {} clevel {clevel}", data.len());
                    let back = flex(&out[..n], data.len(), dict);
                    assert!(
                        back.as_deref() == Some(&data[..]),
                        "dict {d} input {} clevel {clevel}",
                        data.len()
                    );
                    assert_eq!(compress_with_dict(clevel, dict, data, &mut out[..n - 1]), 0);
                }
            }
        }
    }

    #[test]
    fn dictionary_matches_reach_into_the_dictionary() {
        for dsize in [1000usize, 32 * 1024, 65_536] {
            let dict = noise(dsize, dsize as u64);
            let mut data = dict[dsize - 500..].to_vec();
            data.extend_from_slice(&dict[..500]);
            data.extend_from_slice(&noise(20, 77));
            for clevel in 1u8..=9 {
                let mut out = vec![0u8; data.len()];
                let n = compress_with_dict(clevel, &dict, &data, &mut out);
                // The dictionary's first bytes are within reach when it is under 64 KiB - 500.
                let far = dsize > 65_536 - 500;
                assert!(n > 0 && (far || n < 100), "dsize {dsize} clevel {clevel}: {n} bytes");
                assert!(flex(&out[..n], data.len(), &dict).as_deref() == Some(&data[..]), "dsize {dsize}");
                assert!(
                    flex(&out[..n], data.len(), &[]).is_none(),
                    "dsize {dsize}: decodes without the dictionary"
                );
                assert_eq!(compress(clevel, &data, &mut out), 0, "dsize {dsize}");
            }
        }
    }
}
