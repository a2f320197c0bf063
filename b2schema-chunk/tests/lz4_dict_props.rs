//! lz4 and lz4hc dictionary chunks (`use_dict`): what the compressor writes for random data (runs,
//! repeats, a slow signal, noise; typesizes 1 to 8, shuffle, bitshuffle, delta, split or not)
//! decodes back equal with this crate's decoder, carries the dictionary exactly when c-blosc2's
//! rule gives one, and every compressed stream is a valid LZ4 block with the chunk's dictionary
//! as its history for `lz4_flex` too (for unfiltered chunks: the block's own bytes).

use b2schema_chunk::compress::{self, MIN_USEFUL_DICT, Params, Split};
use b2schema_chunk::{ChunkHeader, Codec, Filter, Special, decompress};
use proptest::prelude::*;

use crate::common::data;

fn params() -> impl Strategy<Value = Params> {
    (
        prop::sample::select(vec![Codec::Lz4, Codec::Lz4hc]),
        1u8..=9,
        prop::sample::select(vec![1usize, 2, 4, 8]),
        0usize..4,
        0usize..3,
        prop::sample::select(vec![0usize, 4096, 16_384]),
    )
        .prop_map(|(codec, clevel, typesize, filter, split, blocksize)| {
            let mut p = Params::new(typesize);
            p.codec = codec;
            p.clevel = clevel;
            p.filters[4] = if filter == 3 { Filter::Delta } else { Filter::NoFilter };
            p.filters[5] = [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle, Filter::Shuffle][filter];
            p.split = [Split::Auto, Split::Always, Split::Never][split];
            p.blocksize = blocksize;
            p.use_dict = true;
            p
        })
}

fn i32_at(c: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(c[at..at + 4].try_into().unwrap())
}

/// Every stream of `c` (a regular lz4 or lz4hc dictionary chunk) through lz4_flex with the chunk's
/// dictionary: each coded stream must decode to exactly its length; returns the streams' bytes
/// end to end (runs and raw streams as they are).
fn streams_through_lz4_flex(c: &[u8], h: &ChunkHeader, typesize: usize) -> Result<Vec<u8>, TestCaseError> {
    let nblocks = h.nblocks();
    let blocksize = h.effective_blocksize();
    let nbytes = h.uncompressed_len();
    let dstart = 32 + 4 * nblocks;
    let dsize = i32_at(c, dstart) as usize;
    let dict = &c[dstart + 4..dstart + 4 + dsize];
    let mut out = Vec::new();
    for j in 0..nblocks {
        let bsize = (nbytes - j * blocksize).min(blocksize);
        let nstreams = if !h.dont_split() && bsize == blocksize { typesize } else { 1 };
        let neblock = bsize / nstreams;
        let mut at = i32_at(c, 32 + 4 * j) as usize;
        for s in 0..nstreams {
            let csize = i32_at(c, at);
            at += 4;
            if csize <= 0 {
                // A run: `-csize` is the byte, its mark follows when it is not zero.
                let v = (-csize) as u8;
                if v != 0 {
                    at += 1;
                }
                out.extend(std::iter::repeat_n(v, neblock));
            } else if csize as usize == neblock {
                out.extend_from_slice(&c[at..at + neblock]);
                at += neblock;
            } else {
                let block = &c[at..at + csize as usize];
                let mut back = vec![0u8; neblock];
                let got = lz4_flex::block::decompress_into_with_dict(block, &mut back, dict);
                prop_assert_eq!(got.ok(), Some(neblock), "block {} stream {}", j, s);
                out.extend_from_slice(&back);
                at += csize as usize;
            }
        }
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn lz4_and_lz4hc_dictionary_chunks_decode_to_their_input(src in data(80_000), p in params()) {
        let c = compress::compress(&src, &p).unwrap();
        prop_assert_eq!(decompress(&c).unwrap(), src.clone());
        let h = ChunkHeader::parse(&c).unwrap();
        if h.is_memcpyed() || h.special() != Special::None {
            return Ok(());
        }
        // A dictionary when the chunk is large enough for one (c-blosc2's 5 120 bytes) unless
        // its samples are one repeated byte.
        if src.len() < 20 * MIN_USEFUL_DICT {
            prop_assert!(!h.uses_dict());
        }
        if h.uses_dict() {
            let streams = streams_through_lz4_flex(&c, &h, p.typesize)?;
            if p.filters == [Filter::NoFilter; 6] {
                prop_assert!(streams == src, "lz4_flex's streams differ from the input");
            }
        }
    }
}

/// Chunks large enough, of data that is not one repeated byte, carry a dictionary, which their
/// streams use: without it some stream does not decode.
#[test]
fn large_lz4_and_lz4hc_chunks_carry_a_dictionary_their_streams_use() {
    let src: Vec<u8> = (0..400_000u32).flat_map(|i| ((i % 1000) * 7 + i / 1000).to_le_bytes()).collect();
    let none = [Filter::NoFilter; 6];
    let mut shuffle = none;
    shuffle[5] = Filter::Shuffle;
    for (codec, clevel, filters) in [
        (Codec::Lz4, 1u8, none),
        (Codec::Lz4, 5, shuffle),
        (Codec::Lz4, 9, none),
        (Codec::Lz4hc, 1, none),
        (Codec::Lz4hc, 5, shuffle),
        (Codec::Lz4hc, 9, none),
    ] {
        let p = {
            let mut p = Params::new(4);
            p.codec = codec;
            p.clevel = clevel;
            p.filters = filters;
            p.use_dict = true;
            p
        };
        let c = compress::compress(&src, &p).unwrap();
        let h = ChunkHeader::parse(&c).unwrap();
        assert!(h.uses_dict() && !h.is_memcpyed(), "codec {codec} clevel {clevel}");
        assert_eq!(decompress(&c).unwrap(), src, "codec {codec} clevel {clevel}");
        // Zero the dictionary: the chunk no longer decodes to its input.
        let dstart = 32 + 4 * h.nblocks();
        let dsize = i32_at(&c, dstart) as usize;
        assert!(dsize >= MIN_USEFUL_DICT, "codec {codec} clevel {clevel}: {dsize}");
        let mut broken = c.clone();
        broken[dstart + 4..dstart + 4 + dsize].fill(0);
        assert!(
            decompress(&broken).ok() != Some(src.clone()),
            "codec {codec} clevel {clevel}: the streams ignore the dictionary"
        );
    }
}
